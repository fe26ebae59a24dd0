//! The rules of `#[validate(...)]`: each one both a schema keyword (or a sentence in the
//! description, where no keyword can say it) and a runtime check, from one definition.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::check::{Checker, Report};
use crate::context::Context;
use crate::number::{self, Num};
use crate::text::{concat, push_quoted_list, push_sentence, sentence, suggest};
use crate::{date, formats};

/// A rule on one value, with the author's own message and hint.
#[derive(Debug)]
pub struct Rule {
    /// What the rule checks.
    pub kind: RuleKind,
    /// Replaces the rule's expectation ("must be ...") in messages.
    pub message: Option<&'static str>,
    /// What to do, appended to the message.
    pub hint: Option<&'static str>,
}

/// The rules of `#[validate(...)]`, as data.
#[derive(Debug)]
pub enum RuleKind {
    /// `regex`: the string matches the pattern (JSON Schema `pattern`).
    Regex(&'static Pattern),
    /// `enum`: the string is one of these (JSON Schema `enum`).
    OneOf(&'static [&'static str]),
    /// `future_date` / `past_date`: a date in `format`, after (or before) today.
    Date {
        /// True for `future_date`.
        future: bool,
        /// A strftime format.
        format: &'static str,
    },
    /// `range`: the number lies within the bounds.
    Range {
        /// The lower bound, and whether it is exclusive.
        min: Option<(Num, bool)>,
        /// The upper bound, and whether it is exclusive.
        max: Option<(Num, bool)>,
    },
    /// `length`: code points of a string, items of an array.
    Length {
        /// At least this many.
        min: Option<u64>,
        /// At most this many.
        max: Option<u64>,
    },
    /// `email`: an RFC 5321 mailbox (`format: email`).
    Email,
    /// `url`: an RFC 3986 URI (`format: uri`).
    Url,
    /// `uuid`: an RFC 4122 UUID (`format: uuid`).
    Uuid,
    /// `custom`: the author's function of the field's value.
    Custom {
        /// The function's name, the violation's rule.
        name: &'static str,
        /// What the function checks, for the schema's description.
        description: Option<&'static str>,
        /// The check, through [`custom`](crate::__private::custom).
        check: CustomCheck,
    },
}

/// A custom rule as the derive wraps it: the JSON value in, the author's verdict out.
pub type CustomCheck = fn(&Value, &Context) -> Result<(), Invalid>;

/// A regex, advertised as written and compiled once, on first use.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    runtime: &'static str,
    compiled: OnceLock<Result<Matcher, String>>,
}

/// A compiled pattern, in the cheapest engine that answers for it.
#[derive(Debug)]
enum Matcher {
    /// A fixed run of ASCII classes: a length check and a lookup per byte.
    Fixed(Fixed),
    /// A small pattern: a dense DFA (boxed: it is most of a kilobyte), and `regex` for
    /// the searches it gives up on.
    Dfa(Box<Dfa>, Regex),
    /// Any other: `regex`'s own engines.
    Regex(Regex),
}

/// A pattern that is a fixed run of ASCII classes anchored at both ends, the commonest
/// shape of an ID (`^[A-Z]{3}$`, `^ORD-[0-9]{4}-[0-9]{5}$`): one set of bytes per
/// position, so a match is a length check and a lookup per byte.
#[derive(Debug)]
struct Fixed {
    positions: Vec<[u64; 2]>,
}

/// Adds the ASCII byte `b` (below 128) to `set`.
fn insert(set: &mut [u64; 2], b: u32) {
    set[(b >> 6) as usize] |= 1 << (b & 63);
}

/// The set of one ASCII byte.
fn byte_set(b: u8) -> Option<[u64; 2]> {
    let mut set = [0u64; 2];
    b.is_ascii().then(|| {
        insert(&mut set, u32::from(b));
        set
    })
}

/// Runs longer than this are left to the DFA.
const FIXED_MAX: usize = 256;

impl Fixed {
    fn new(pattern: &str) -> Option<Fixed> {
        use regex_syntax::hir::{HirKind, Look};
        let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
        let HirKind::Concat(parts) = hir.kind() else {
            return None;
        };
        let (first, rest) = parts.split_first()?;
        let (last, middle) = rest.split_last()?;
        if *first.kind() != HirKind::Look(Look::Start) || *last.kind() != HirKind::Look(Look::End) {
            return None;
        }
        let mut positions = Vec::new();
        for part in middle {
            match part.kind() {
                HirKind::Repetition(rep) if Some(rep.min) == rep.max => {
                    let set = Fixed::set(rep.sub.kind())?;
                    positions.extend(std::iter::repeat_n(set, rep.min as usize));
                }
                HirKind::Literal(literal) => {
                    for &b in literal.0.iter() {
                        positions.push(byte_set(b)?);
                    }
                }
                other => positions.push(Fixed::set(other)?),
            }
            if positions.len() > FIXED_MAX {
                return None;
            }
        }
        Some(Fixed { positions })
    }

    /// The ASCII bytes one position matches, if it is one ASCII character or class.
    fn set(kind: &regex_syntax::hir::HirKind) -> Option<[u64; 2]> {
        use regex_syntax::hir::{Class, HirKind};
        let mut set = [0u64; 2];
        let mut add = |lo: u32, hi: u32| {
            if hi > 0x7f {
                return false;
            }
            for b in lo..=hi {
                insert(&mut set, b);
            }
            true
        };
        let ascii = match kind {
            HirKind::Literal(literal) => match &*literal.0 {
                [b] => return byte_set(*b),
                _ => false,
            },
            HirKind::Class(Class::Unicode(class)) => class
                .iter()
                .all(|r| add(u32::from(r.start()), u32::from(r.end()))),
            HirKind::Class(Class::Bytes(class)) => class
                .iter()
                .all(|r| add(u32::from(r.start()), u32::from(r.end()))),
            _ => false,
        };
        ascii.then_some(set)
    }

    fn is_match(&self, s: &str) -> bool {
        // A byte outside ASCII is in no set: a multi-byte character never matches.
        s.len() == self.positions.len()
            && s.bytes()
                .zip(&self.positions)
                .all(|(b, set)| b < 0x80 && set[usize::from(b >> 6)] >> (b & 63) & 1 == 1)
    }
}

/// A dense DFA with its start state, which is the same for every search: a search
/// always starts at the beginning of a value.
#[derive(Debug)]
struct Dfa {
    dfa: regex_automata::dfa::dense::DFA<Vec<u32>>,
    start: regex_automata::util::primitives::StateID,
}

/// The most memory one pattern's DFA may take.
const DFA_SIZE_LIMIT: usize = 64 * 1024;

impl Matcher {
    fn new(pattern: &str) -> Result<Matcher, String> {
        // Compiled first in every case: it is what says whether the pattern is valid.
        let regex = Regex::new(pattern).map_err(|e| e.to_string())?;
        if let Some(fixed) = Fixed::new(pattern) {
            return Ok(Matcher::Fixed(fixed));
        }
        Ok(match Dfa::build(pattern) {
            Some(dfa) => Matcher::Dfa(Box::new(dfa), regex),
            None => Matcher::Regex(regex),
        })
    }

    fn is_match(&self, s: &str) -> bool {
        match self {
            Matcher::Fixed(fixed) => fixed.is_match(s),
            Matcher::Dfa(dfa, regex) => dfa.is_match(s).unwrap_or_else(|| regex.is_match(s)),
            Matcher::Regex(regex) => regex.is_match(s),
        }
    }
}

impl Dfa {
    /// The DFA of `pattern`, unless it would be larger than [`DFA_SIZE_LIMIT`].
    fn build(pattern: &str) -> Option<Dfa> {
        use regex_automata::dfa::{Automaton, dense};
        use regex_automata::util::start;
        let dfa = dense::Builder::new()
            .configure(
                dense::DFA::config()
                    .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                    .determinize_size_limit(Some(4 * DFA_SIZE_LIMIT)),
            )
            .build(pattern)
            .ok()?;
        let start = dfa.start_state(&start::Config::new()).ok()?;
        Some(Dfa { dfa, start })
    }

    /// Runs the DFA over `s` a byte at a time: the search `try_search_fwd` would do,
    /// without its setup, which costs more than the walk on a short value. `None` if
    /// the DFA gives up (a Unicode word boundary on non-ASCII text).
    fn is_match(&self, s: &str) -> Option<bool> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let mut state = self.start;
        // Match states come one byte late: seeing one means a match ended before.
        for &byte in s.as_bytes() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                if dfa.is_quit_state(state) {
                    return None;
                }
            }
        }
        Some(dfa.is_match_state(dfa.next_eoi_state(state)))
    }
}

impl Pattern {
    /// `source` is advertised as the schema's `pattern`; `runtime` is the same pattern in
    /// Rust's dialect, with `.` spelled as ECMA-262 means it. The derive writes both.
    pub const fn new(source: &'static str, runtime: &'static str) -> Self {
        Pattern {
            source,
            runtime,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as advertised.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `s` matches; `Err` if the pattern could not be compiled (the derive
    /// checks it, so only a regex over the size limit gets here).
    pub fn is_match(&self, s: &str) -> Result<bool, &str> {
        match self.compiled.get_or_init(|| Matcher::new(self.runtime)) {
            Ok(matcher) => Ok(matcher.is_match(s)),
            Err(e) => Err(e),
        }
    }
}

/// A custom rule's verdict on a value: what was wrong, as the model should read it.
///
/// ```
/// use mcp_tool::Invalid;
///
/// fn weekday(date: &str) -> Result<(), Invalid> {
///     if date.ends_with("Sat") || date.ends_with("Sun") {
///         return Err(Invalid::new("must be a weekday").hint("Pick a date from Monday to Friday."));
///     }
///     Ok(())
/// }
/// assert!(weekday("Sun").is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    message: Cow<'static, str>,
    expected: Option<Value>,
    hint: Option<Cow<'static, str>>,
}

impl Invalid {
    /// The expectation, as the start of a sentence: "must be a weekday".
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Invalid {
            message: message.into(),
            expected: None,
            hint: None,
        }
    }

    /// The expectation as data, for the violation's `expected`.
    pub fn expected(mut self, expected: impl Into<Value>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// What to do next.
    pub fn hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl From<String> for Invalid {
    fn from(message: String) -> Self {
        Invalid::new(message)
    }
}

impl From<&'static str> for Invalid {
    fn from(message: &'static str) -> Self {
        Invalid::new(message)
    }
}

impl Rule {
    const fn of(kind: RuleKind) -> Self {
        Rule {
            kind,
            message: None,
            hint: None,
        }
    }

    /// `regex = "..."`.
    pub const fn regex(pattern: &'static Pattern) -> Self {
        Rule::of(RuleKind::Regex(pattern))
    }

    /// `enum = [...]` or `enum = PATH`.
    pub const fn one_of(values: &'static [&'static str]) -> Self {
        Rule::of(RuleKind::OneOf(values))
    }

    /// `future_date(format = "...")`.
    pub const fn future_date(format: &'static str) -> Self {
        Rule::of(RuleKind::Date {
            future: true,
            format,
        })
    }

    /// `past_date(format = "...")`.
    pub const fn past_date(format: &'static str) -> Self {
        Rule::of(RuleKind::Date {
            future: false,
            format,
        })
    }

    /// `range(...)`; add bounds with [`Rule::min`], [`Rule::max`] and their exclusive
    /// forms.
    pub const fn range() -> Self {
        Rule::of(RuleKind::Range {
            min: None,
            max: None,
        })
    }

    /// `length(...)`; add bounds with [`Rule::min_len`] and [`Rule::max_len`].
    pub const fn length() -> Self {
        Rule::of(RuleKind::Length {
            min: None,
            max: None,
        })
    }

    /// `email`.
    pub const fn email() -> Self {
        Rule::of(RuleKind::Email)
    }

    /// `url`.
    pub const fn url() -> Self {
        Rule::of(RuleKind::Url)
    }

    /// `uuid`.
    pub const fn uuid() -> Self {
        Rule::of(RuleKind::Uuid)
    }

    /// `custom = path`.
    pub const fn custom(name: &'static str, check: CustomCheck) -> Self {
        Rule::of(RuleKind::Custom {
            name,
            description: None,
            check,
        })
    }

    /// The lower bound of a range, inclusive unless `exclusive`.
    pub const fn min(mut self, bound: Num, exclusive: bool) -> Self {
        if let RuleKind::Range { min, .. } = &mut self.kind {
            *min = Some((bound, exclusive));
        }
        self
    }

    /// The upper bound of a range, inclusive unless `exclusive`.
    pub const fn max(mut self, bound: Num, exclusive: bool) -> Self {
        if let RuleKind::Range { max, .. } = &mut self.kind {
            *max = Some((bound, exclusive));
        }
        self
    }

    /// The least length.
    pub const fn min_len(mut self, n: u64) -> Self {
        if let RuleKind::Length { min, .. } = &mut self.kind {
            *min = Some(n);
        }
        self
    }

    /// The greatest length.
    pub const fn max_len(mut self, n: u64) -> Self {
        if let RuleKind::Length { max, .. } = &mut self.kind {
            *max = Some(n);
        }
        self
    }

    /// What a custom rule checks, said in the schema's description.
    pub const fn describe(mut self, text: &'static str) -> Self {
        if let RuleKind::Custom { description, .. } = &mut self.kind {
            *description = Some(text);
        }
        self
    }

    /// The author's message, replacing the rule's own expectation.
    pub const fn message(mut self, message: &'static str) -> Self {
        self.message = Some(message);
        self
    }

    /// The author's hint: what to do next.
    pub const fn hint(mut self, hint: &'static str) -> Self {
        self.hint = Some(hint);
        self
    }
}

/// The rules on a value, and on its items when it is an array.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Rules on the value itself.
    pub own: &'static [Rule],
    /// Rules on each item of an array.
    pub items: &'static [Rule],
}

impl Rules {
    /// No rules.
    pub const NONE: Rules = Rules {
        own: &[],
        items: &[],
    };

    /// The rules of an array's items, as the rules of a value.
    pub fn for_items(self) -> Rules {
        Rules {
            own: self.items,
            items: &[],
        }
    }
}

/// The JSON kind a value is checked as, which decides the keyword of `length`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    String,
    /// A number or an integer.
    Number,
    /// An array.
    Array,
    /// Anything else.
    Other,
}

/// Adds the keywords of `rules` to a schema, and the rules no keyword can express to
/// its description.
pub fn apply_schema(rules: &[Rule], kind: Kind, schema: &mut Map<String, Value>) {
    let mut notes: Vec<String> = Vec::new();
    for rule in rules {
        match &rule.kind {
            RuleKind::Regex(p) => {
                schema.insert("pattern".into(), p.source.into());
            }
            RuleKind::OneOf(values) => {
                schema.insert("enum".into(), (*values).into());
            }
            RuleKind::Date { future, format } => {
                if *format == date::ISO_DATE {
                    schema.insert("format".into(), "date".into());
                }
                // The shape, for clients and models that read keywords, not prose; a
                // `regex` rule's own pattern, if any, says more.
                if let Some(pattern) = date::pattern(format)
                    && !schema.contains_key("pattern")
                {
                    schema.insert("pattern".into(), pattern.into());
                }
                notes.push(format!(
                    "Must be a date {} the current date, written {}.",
                    if *future { "after" } else { "before" },
                    date::human_format(format)
                ));
            }
            RuleKind::Range { min, max } => {
                if let Some((bound, exclusive)) = min {
                    tighten(
                        schema,
                        "minimum",
                        "exclusiveMinimum",
                        *bound,
                        *exclusive,
                        Ordering::Greater,
                    );
                }
                if let Some((bound, exclusive)) = max {
                    tighten(
                        schema,
                        "maximum",
                        "exclusiveMaximum",
                        *bound,
                        *exclusive,
                        Ordering::Less,
                    );
                }
            }
            RuleKind::Length { min, max } => {
                let (lo, hi) = match kind {
                    Kind::Array => ("minItems", "maxItems"),
                    _ => ("minLength", "maxLength"),
                };
                if let Some(n) = min {
                    schema.insert(lo.into(), (*n).into());
                }
                if let Some(n) = max {
                    schema.insert(hi.into(), (*n).into());
                }
            }
            RuleKind::Email => {
                schema.insert("format".into(), "email".into());
            }
            RuleKind::Url => {
                schema.insert("format".into(), "uri".into());
            }
            RuleKind::Uuid => {
                schema.insert("format".into(), "uuid".into());
            }
            RuleKind::Custom {
                name, description, ..
            } => notes.push(match (*description, rule.message) {
                (Some(text), _) | (None, Some(text)) => sentence(text),
                (None, None) => format!("Also checked by the server ({}).", name.replace('_', " ")),
            }),
        }
    }
    if !notes.is_empty() {
        let mut text = match schema.remove("description") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        for note in notes {
            push_sentence(&mut text, &note);
        }
        schema.insert("description".into(), text.into());
    }
}

/// Sets a bound unless the schema already has a tighter one (the limit of the type).
fn tighten(
    schema: &mut Map<String, Value>,
    inclusive_key: &str,
    exclusive_key: &str,
    bound: Num,
    exclusive: bool,
    tighter: Ordering,
) {
    if let Some(Value::Number(existing)) = schema.get(inclusive_key) {
        let cmp = bound.cmp_to(existing);
        // The existing bound is tighter, or equal and the new one is inclusive.
        if cmp == tighter.reverse() || (cmp == Ordering::Equal && !exclusive) {
            return;
        }
        schema.remove(inclusive_key);
    }
    let key = if exclusive {
        exclusive_key
    } else {
        inclusive_key
    };
    schema.insert(key.into(), bound.to_json());
}

/// Checks `value`, already of the right JSON type, against each rule; reports every
/// rule that fails.
pub fn check(rules: &[Rule], value: &Value, cx: &mut Checker<'_>) {
    for rule in rules {
        check_one(rule, value, cx);
    }
}

fn check_one(rule: &Rule, value: &Value, cx: &mut Checker<'_>) {
    let failure: Option<Failure> = match (&rule.kind, value) {
        (RuleKind::Regex(p), Value::String(s)) => match p.is_match(s) {
            Ok(true) => None,
            Ok(false) => Some(Failure::new(
                "regex",
                concat(&["must match the pattern ", p.source]),
                p.source.into(),
            )),
            Err(e) => Some(Failure::new(
                "regex",
                format!("could not be checked: the server's pattern does not compile ({e})"),
                p.source.into(),
            )),
        },
        (RuleKind::OneOf(values), Value::String(s)) => {
            (!values.contains(&s.as_str())).then(|| one_of_failure(values, s))
        }
        (RuleKind::Date { future, format }, Value::String(s)) => {
            date_failure(*future, format, s, cx.context())
        }
        (RuleKind::Range { min, max }, Value::Number(n)) => {
            let low = min.is_some_and(|(b, excl)| match b.cmp_to(n) {
                Ordering::Greater => true,
                Ordering::Equal => excl,
                Ordering::Less => false,
            });
            let high = max.is_some_and(|(b, excl)| match b.cmp_to(n) {
                Ordering::Less => true,
                Ordering::Equal => excl,
                Ordering::Greater => false,
            });
            (low || high).then(|| {
                let text = range_text(*min, *max);
                Failure::new("range", concat(&["must be ", &text]), text.into())
            })
        }
        (RuleKind::Length { min, max }, Value::String(_) | Value::Array(_)) => {
            let (len, unit) = match value {
                // A string has at most as many code points as bytes, and at least a
                // quarter as many: most need no counting.
                Value::String(s)
                    if max.is_none_or(|m| s.len() as u64 <= m)
                        && min.is_none_or(|m| (s.len() as u64).div_ceil(4) >= m) =>
                {
                    return;
                }
                Value::String(s) => (s.chars().count() as u64, "characters"),
                Value::Array(a) => (a.len() as u64, "items"),
                _ => (0, ""),
            };
            let bad = min.is_some_and(|m| len < m) || max.is_some_and(|m| len > m);
            bad.then(|| {
                let text = length_text(*min, *max, unit);
                let mut f = Failure::new("length", concat(&["must have ", &text]), text.into());
                // The length of a secret is a clue to it. An array's count is said
                // already where what came is described.
                if !cx.is_sensitive() && value.is_string() {
                    f.detail = Some(format!("It has {len} {unit}.").into());
                }
                f
            })
        }
        (RuleKind::Email, Value::String(s)) => (!formats::is_email(s)).then(|| {
            Failure::new(
                "email",
                "must be an email address such as name@example.com",
                "email".into(),
            )
        }),
        (RuleKind::Url, Value::String(s)) => (!formats::is_uri(s)).then(|| {
            Failure::new(
                "url",
                "must be an absolute URL such as https://example.com/page",
                "uri".into(),
            )
        }),
        (RuleKind::Uuid, Value::String(s)) => (!formats::is_uuid(s)).then(|| {
            Failure::new(
                "uuid",
                "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000",
                "uuid".into(),
            )
        }),
        (RuleKind::Custom { name, check, .. }, _) => match check(value, cx.context()) {
            Ok(()) => None,
            Err(invalid) => Some(Failure {
                rule: Cow::Borrowed(name),
                expected: invalid
                    .expected
                    .unwrap_or_else(|| Value::String(invalid.message.to_string())),
                expectation: invalid.message,
                detail: invalid.hint,
            }),
        },
        // The derive only attaches a rule to a type it applies to, and the type was
        // checked before the rules: any other pair has nothing to check.
        _ => None,
    };
    if let Some(f) = failure {
        f.report(cx, value, rule.message, rule.hint);
    }
}

/// A rule's failure on one value, before it becomes a violation.
pub(crate) struct Failure {
    rule: Cow<'static, str>,
    expectation: Cow<'static, str>,
    expected: Value,
    detail: Option<Cow<'static, str>>,
}

impl Failure {
    fn new(rule: &'static str, expectation: impl Into<Cow<'static, str>>, expected: Value) -> Self {
        Failure {
            rule: Cow::Borrowed(rule),
            expectation: expectation.into(),
            expected,
            detail: None,
        }
    }

    pub(crate) fn report(
        self,
        cx: &mut Checker<'_>,
        value: &Value,
        message: Option<&'static str>,
        hint: Option<&'static str>,
    ) {
        cx.report(Report {
            rule: self.rule,
            expectation: message.map_or(self.expectation, Cow::Borrowed),
            expected: self.expected,
            received: Some(value),
            detail: self.detail,
            hint,
        });
    }
}

/// The failure of a whitelist, with the nearest allowed value when there is one.
pub(crate) fn one_of_failure(values: &[&str], got: &str) -> Failure {
    let mut expectation =
        String::with_capacity(16 + values.iter().map(|v| v.len() + 4).sum::<usize>());
    expectation.push_str("must be one of ");
    push_quoted_list(&mut expectation, values.iter().copied());
    let mut f = Failure::new(
        "enum",
        expectation,
        values.iter().map(|v| Value::from(*v)).collect(),
    );
    f.detail = suggest::nearest(got, values.iter().copied()).map(|near| {
        let mut detail = String::with_capacity(near.len() + 16);
        suggest::push_did_you_mean(&mut detail, near);
        Cow::Owned(detail)
    });
    f
}

fn date_failure(future: bool, format: &str, s: &str, context: &Context) -> Option<Failure> {
    let today = context.today();
    let parsed = date::parse(format, s);
    // The success path allocates nothing: the texts are written only for a failure.
    if parsed.is_some_and(|d| (future && d > today) || (!future && d < today)) {
        return None;
    }
    let rule = if future { "future_date" } else { "past_date" };
    let human = date::human_format(format);
    let today_text = date::format_date(format, today);
    let (word, side) = if future {
        ("future", "after")
    } else {
        ("past", "before")
    };
    let expected = Value::String(concat(&[
        "a date ",
        side,
        " ",
        &today_text,
        " (",
        &human,
        ")",
    ]));
    let (expectation, detail) = match parsed {
        // Written as the format says, yet no day of the calendar (2026-02-30).
        None if date::has_shape(format, s) => (
            Cow::Borrowed("must be a real date"),
            concat(&[
                "There is no such day in the calendar. Current date is ",
                &today_text,
                ".",
            ]),
        ),
        None => (
            Cow::Owned(concat(&["must be a date written ", &human])),
            concat(&["Current date is ", &today_text, "."]),
        ),
        Some(_) => (
            Cow::Owned(concat(&["must be a date in the ", word, ", as ", &human])),
            concat(&["Current date is ", &today_text, "."]),
        ),
    };
    let mut failure = Failure::new(rule, expectation, expected);
    failure.detail = Some(detail.into());
    Some(failure)
}

fn range_text(min: Option<(Num, bool)>, max: Option<(Num, bool)>) -> String {
    let mut text = String::with_capacity(32);
    if let Some((b, excl)) = min {
        text.push_str(if excl { "more than " } else { "at least " });
        b.push_to(&mut text);
    }
    if let Some((b, excl)) = max {
        if !text.is_empty() {
            text.push_str(" and ");
        }
        text.push_str(if excl { "less than " } else { "at most " });
        b.push_to(&mut text);
    }
    if text.is_empty() {
        text.push_str("a number");
    }
    text
}

fn length_text(min: Option<u64>, max: Option<u64>, unit: &str) -> String {
    let mut text = String::with_capacity(24 + unit.len());
    let n = |text: &mut String, n: u64| number::push_int(text, i128::from(n));
    match (min, max) {
        (Some(a), Some(b)) if a == b => {
            text.push_str("exactly ");
            n(&mut text, a);
        }
        (Some(a), Some(b)) => {
            text.push_str("from ");
            n(&mut text, a);
            text.push_str(" to ");
            n(&mut text, b);
        }
        (Some(a), None) => {
            text.push_str("at least ");
            n(&mut text, a);
        }
        (None, Some(b)) => {
            text.push_str("at most ");
            n(&mut text, b);
        }
        (None, None) => text.push_str("any number of"),
    }
    text.push(' ');
    text.push_str(unit);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dfa_answers_as_regex_does() {
        let patterns = [
            r"^[A-Z]{3}$",
            r"^ORD-[0-9]{4}-[0-9]{5}$",
            "^a[^\n\r\u{2028}\u{2029}]c$",
            r"colou?r",
            r"^[A-Z]{2}[0-9]{6}$",
            r"(foo|bar)+$",
            r"^$",
            r"^é+[^a-z]?$",
        ];
        let inputs = [
            "",
            "CDG",
            "cdg",
            "CDGX",
            "ORD-2026-00042",
            "ORD-2026-00042\n",
            "ORD-٢٠٢٦-00042",
            "abc",
            "a\nc",
            "a\u{2028}c",
            "aéc",
            "a😀c",
            "the colour",
            "color",
            "AF123456",
            "AF1234567",
            "foobar",
            "barfoo!",
            "é",
            "éé!",
            "ÉÉ",
            "\u{0}",
        ];
        for pattern in patterns {
            let dfa = Dfa::build(pattern).unwrap_or_else(|| panic!("{pattern} gets a DFA"));
            let regex = Regex::new(pattern).unwrap();
            for input in inputs {
                assert_eq!(
                    dfa.is_match(input),
                    Some(regex.is_match(input)),
                    "{pattern} {input:?}"
                );
            }
        }
    }

    #[test]
    fn fixed_runs_of_ascii_classes_answer_as_regex_does() {
        let fixed = [
            r"^[A-Z]{3}$",
            r"^ORD-[0-9]{4}-[0-9]{5}$",
            r"^[A-Z]{2}[0-9]{6}$",
            r"^[a-zA-Z]{2}x$",
            r"^ab$",
            r"^a{2}[-_.]b$",
            r"^$",
        ];
        let not_fixed = [
            // Unicode case folding adds K (Kelvin) and ſ to [a-z]: not ASCII.
            r"^(?i)[a-z]{2}x$",
            r"^[^a]{2}$",
            r"^\d{3}$",
            r"^[A-Z]{2,3}$",
            r"[A-Z]{3}",
            r"^é{2}$",
            r"^(ab){2}$",
            r"^\w$",
        ];
        let inputs = [
            "",
            "CDG",
            "cdg",
            "CDGX",
            "CD",
            "ORD-2026-00042",
            "ORD-2026-00042\n",
            "ORD-٢٠٢٦-00042",
            "AF123456",
            "AF1234567",
            "ab",
            "Ab",
            "abx",
            "ABX",
            "aK",
            "aa-b",
            "aa.b",
            "aa/b",
            "ÀB",
            "\u{0}",
            "ab\n",
            "1\u{660}2",
            "éé",
        ];
        for pattern in fixed {
            let matcher = Fixed::new(pattern).unwrap_or_else(|| panic!("{pattern} is fixed"));
            let regex = Regex::new(pattern).unwrap();
            for input in inputs {
                assert_eq!(
                    matcher.is_match(input),
                    regex.is_match(input),
                    "{pattern} {input:?}"
                );
            }
        }
        for pattern in not_fixed {
            assert!(Fixed::new(pattern).is_none(), "{pattern}");
        }
    }

    #[test]
    fn each_pattern_gets_the_cheapest_engine_that_can_answer() {
        let iata = Matcher::new(r"^[A-Z]{3}$").unwrap();
        assert!(matches!(iata, Matcher::Fixed(_)));
        let variable = Matcher::new(r"^[A-Z]{2,3}$").unwrap();
        assert!(matches!(variable, Matcher::Dfa(..)));
        assert!(variable.is_match("CDG") && !variable.is_match("C"));
    }

    #[test]
    fn a_large_pattern_keeps_regex() {
        // Unicode word characters, many times over: too big for a small DFA.
        let matcher = Matcher::new(r"^[\p{L}\p{N}]{20}x[\p{L}]{20}$").unwrap();
        assert!(matches!(matcher, Matcher::Regex(_)));
        assert!(matcher.is_match(&format!("{}x{}", "é".repeat(20), "ж".repeat(20))));
    }
}
