//! Compile-time checks of rule literals: each rule's values (bounds that leave something,
//! a whitelist without repeats), regexes in the dialect both sides share, date formats
//! that name a whole date, rules that contradict each other.

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Errors;
use crate::rules::{self as table, Bound, EnumValues, Number, Parsed, Rule, RuleKind, Written};

use regex_syntax::ast::{
    self, AssertionKind, Ast, ClassPerlKind, ClassSetItem, GroupKind, LiteralKind,
};

/// How `.` is written for the runtime: ECMA-262's dot excludes the four line
/// terminators, Rust's only `\n`.
const ECMA_DOT: &str = r"[^\n\r\u{2028}\u{2029}]";

/// Checks a regex for validity in Rust and for meaning the same in ECMA-262, the
/// dialect of JSON Schema's `pattern`; returns the pattern the runtime compiles.
pub fn regex(source: &str) -> Result<String, String> {
    if let Err(e) = regex_syntax::Parser::new().parse(source) {
        return Err(format!("invalid regex: {e}"));
    }
    let parsed = ast::parse::Parser::new()
        .parse(source)
        .map_err(|e| format!("invalid regex: {e}"))?;
    let visitor = Dialect {
        source,
        problems: Vec::new(),
        dots: Vec::new(),
    };
    let (problems, dots) = ast::visit(&parsed, visitor).unwrap_or_default();
    if let Some(first) = problems.into_iter().next() {
        return Err(format!(
            "regex `{source}`: {first}. JSON Schema's `pattern` is an ECMA-262 regex, so \
             only syntax that means the same in Rust and ECMA-262 is allowed"
        ));
    }
    let mut runtime = String::with_capacity(source.len());
    let mut last = 0;
    for (start, end) in dots {
        runtime.push_str(&source[last..start]);
        runtime.push_str(ECMA_DOT);
        last = end;
    }
    runtime.push_str(&source[last..]);
    Ok(runtime)
}

struct Dialect<'s> {
    source: &'s str,
    problems: Vec<String>,
    dots: Vec<(usize, usize)>,
}

impl Dialect<'_> {
    fn text(&self, span: &ast::Span) -> &str {
        &self.source[span.start.offset..span.end.offset]
    }

    fn perl(&mut self, class: &ast::ClassPerl) {
        let text = self.text(&class.span).to_owned();
        let advice = match class.kind {
            ClassPerlKind::Digit => {
                "matches every Unicode digit in Rust but only 0-9 in ECMA-262; write [0-9]"
            }
            ClassPerlKind::Word => {
                "is Unicode-aware in Rust but ASCII in ECMA-262; write [A-Za-z0-9_]"
            }
            ClassPerlKind::Space => {
                "matches different characters in Rust and ECMA-262; list the ones you mean, e.g. [ \\t\\n\\r]"
            }
        };
        self.problems.push(format!("`{text}` {advice}"));
    }

    fn literal(&mut self, lit: &ast::Literal) {
        let text = self.text(&lit.span).to_owned();
        match &lit.kind {
            LiteralKind::HexBrace(_) => self.problems.push(format!(
                "`{text}` is not an ECMA-262 escape without the `u` flag; write \\xHH or \\uHHHH"
            )),
            LiteralKind::HexFixed(ast::HexLiteralKind::UnicodeLong) => self
                .problems
                .push(format!("`{text}` is not an ECMA-262 escape; write \\uHHHH")),
            LiteralKind::Special(ast::SpecialLiteralKind::Bell) => self
                .problems
                .push("`\\a` means the letter a in ECMA-262; write \\x07".to_owned()),
            LiteralKind::Octal => self
                .problems
                .push(format!("`{text}`: octal escapes differ; write \\xHH")),
            _ => {}
        }
    }
}

impl ast::Visitor for Dialect<'_> {
    type Output = (Vec<String>, Vec<(usize, usize)>);
    type Err = ();

    fn finish(self) -> Result<Self::Output, ()> {
        Ok((self.problems, self.dots))
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), ()> {
        match node {
            Ast::Dot(span) => self.dots.push((span.start.offset, span.end.offset)),
            Ast::Flags(flags) => {
                let text = self.text(&flags.span).to_owned();
                self.problems
                    .push(format!("inline flags `{text}` are not part of ECMA-262"));
            }
            Ast::Group(group) => match &group.kind {
                GroupKind::CaptureName {
                    starts_with_p: true,
                    name,
                } => self.problems.push(format!(
                    "`(?P<{}>...)` is not ECMA-262; write `(?<{}>...)`",
                    name.name, name.name
                )),
                GroupKind::NonCapturing(flags) if !flags.items.is_empty() => {
                    let text = self.text(&flags.span).to_owned();
                    self.problems
                        .push(format!("inline flags `{text}` are not part of ECMA-262"));
                }
                _ => {}
            },
            Ast::Assertion(a) => {
                let text = self.text(&a.span).to_owned();
                match a.kind {
                    AssertionKind::StartLine | AssertionKind::EndLine => {}
                    AssertionKind::StartText => self
                        .problems
                        .push(format!("`{text}` is not ECMA-262; write ^")),
                    AssertionKind::EndText => self
                        .problems
                        .push(format!("`{text}` is not ECMA-262; write $")),
                    _ => self.problems.push(format!(
                        "`{text}`: word boundaries are Unicode-aware in Rust but ASCII in ECMA-262"
                    )),
                }
            }
            Ast::ClassUnicode(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "`{text}`: Unicode classes need ECMA-262's `u` flag, which JSON Schema does not set"
                ));
            }
            Ast::ClassPerl(c) => self.perl(c),
            Ast::Literal(lit) => self.literal(lit),
            Ast::ClassBracketed(c) => {
                let text = self.text(&c.span);
                if text.starts_with("[]") || text.starts_with("[^]") {
                    self.problems.push(
                        "a `]` first in a class is a literal in Rust but closes an empty class in ECMA-262; write \\]"
                            .to_owned(),
                    );
                }
            }
            Ast::Repetition(r) if self.text(&r.op.span).starts_with("{,") => {
                self.problems
                    .push("`{,n}` is a literal in ECMA-262; write {0,n}".to_owned());
            }
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
        match item {
            ClassSetItem::Bracketed(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "the nested class `{text}` is Rust syntax; ECMA-262 reads `[` inside a class as a literal"
                ));
            }
            ClassSetItem::Ascii(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "the POSIX class `{text}` is not ECMA-262; list the characters"
                ));
            }
            ClassSetItem::Unicode(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "`{text}`: Unicode classes need ECMA-262's `u` flag, which JSON Schema does not set"
                ));
            }
            ClassSetItem::Perl(c) => self.perl(c),
            ClassSetItem::Literal(lit) => self.literal(lit),
            ClassSetItem::Range(r) => {
                self.literal(&r.start);
                self.literal(&r.end);
            }
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_binary_op_pre(&mut self, op: &ast::ClassSetBinaryOp) -> Result<(), ()> {
        let text = self.text(&op.span).to_owned();
        self.problems.push(format!(
            "the class operation in `{text}` (&&, -- or ~~) is Rust syntax, not ECMA-262"
        ));
        Ok(())
    }
}

/// Checks a strftime format for a date rule: known directives only, and a whole date
/// (year, month and day, or year and day of the year), no time of day.
pub fn date_format(format: &str) -> Result<(), String> {
    let (mut year, mut month, mut day, mut yday) = (false, false, false, false);
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        while matches!(chars.peek(), Some('-' | '_' | '0' | '^' | '#')) {
            chars.next();
        }
        let Some(d) = chars.next() else {
            return Err(format!(
                "date format {format:?} ends in a lone `%`; write %% for a percent sign"
            ));
        };
        match d {
            'Y' | 'y' => year = true,
            'm' | 'b' | 'B' | 'h' => month = true,
            'd' | 'e' => day = true,
            'j' => yday = true,
            'F' | 'D' => (year, month, day) = (true, true, true),
            'a' | 'A' | '%' | 'n' | 't' => {}
            'H' | 'I' | 'M' | 'S' | 'p' | 'P' | 'T' | 'R' | 'f' | 'N' | 'z' | 'Z' | 'Q' | 'c'
            | 'r' | 'X' | 'x' | 'k' | 'l' | 's' => {
                return Err(format!(
                    "date format {format:?}: `%{d}` is a time or zone field; a date rule reads dates only"
                ));
            }
            other => {
                return Err(format!(
                    "date format {format:?}: `%{other}` is not a known strftime directive (use %Y, %m, %d, %b, %B, %j...)"
                ));
            }
        }
    }
    if year && ((month && day) || yday) {
        Ok(())
    } else {
        Err(format!(
            "date format {format:?} does not name a whole date: it needs a year (%Y) with a month (%m) and day (%d), or a day of the year (%j)"
        ))
    }
}

/// Each rule with its literals checked, the wrong ones reported and left out.
pub fn rules(rules: Vec<Parsed>, errors: &mut Errors) -> Vec<Rule> {
    let rules: Vec<Rule> = rules
        .into_iter()
        .filter_map(|r| checked(r, errors))
        .collect();
    check_combinations(&rules, errors);
    rules
}

/// Checks a rule's literals; `None` (with the error recorded) when one is wrong.
fn checked(rule: Parsed, errors: &mut Errors) -> Option<Rule> {
    let span = rule.span;
    let kind = match rule.kind {
        Written::Regex(lit) => match regex(&lit.value()) {
            Ok(runtime) => RuleKind::Regex {
                source: lit,
                runtime,
            },
            Err(message) => {
                errors.spanned(&lit, message);
                return None;
            }
        },
        Written::Enum(values) => {
            if let EnumValues::List(list, list_span) = &values {
                if list.is_empty() {
                    errors.at(*list_span, "empty `enum`: list at least one allowed value");
                    return None;
                }
                for (i, lit) in list.iter().enumerate() {
                    if list[..i].iter().any(|l| l.value() == lit.value()) {
                        errors.spanned(
                            lit,
                            format!("{:?} is listed twice in this `enum`", lit.value()),
                        );
                        return None;
                    }
                }
            }
            RuleKind::Enum(values)
        }
        Written::Date { future, format } => {
            let text = format
                .as_ref()
                .map_or_else(|| "%Y-%m-%d".to_owned(), LitStr::value);
            if let Err(message) = date_format(&text) {
                match &format {
                    Some(lit) => errors.spanned(lit, message),
                    None => errors.at(span, message),
                }
                return None;
            }
            RuleKind::Date {
                future,
                explicit: format.is_some(),
                format: text,
            }
        }
        Written::Range(r) => {
            let min = bound(r.min, r.exclusive_min, "min", errors)?;
            let max = bound(r.max, r.exclusive_max, "max", errors)?;
            if min.is_none() && max.is_none() {
                errors.at(
                    span,
                    "`range` needs a bound: min, max, exclusive_min or exclusive_max",
                );
                return None;
            }
            if let (Some((lo, lo_excl, _)), Some((hi, hi_excl, hi_span))) = (min, max)
                && (lo.as_f64() > hi.as_f64()
                    || (lo.as_f64() == hi.as_f64() && (lo_excl || hi_excl)))
            {
                errors.at(
                    hi_span,
                    "`range` is empty: its minimum is not below its maximum",
                );
                return None;
            }
            RuleKind::Range {
                min: min.map(|(v, e, _)| (v, e)),
                max: max.map(|(v, e, _)| (v, e)),
            }
        }
        Written::Length(l) => {
            let (min, max) = match (l.equal, l.min, l.max) {
                (Some((n, _)), None, None) => (Some(n), Some(n)),
                (Some((_, s)), _, _) => {
                    errors.at(s, "`length(equal)` excludes `min` and `max`");
                    return None;
                }
                (None, None, None) => {
                    errors.at(span, "`length` needs min, max or equal");
                    return None;
                }
                (None, min, max) => {
                    if let (Some((lo, _)), Some((hi, s))) = (min, max)
                        && lo > hi
                    {
                        errors.at(
                            s,
                            format!("`length` is empty: min {lo} is more than max {hi}"),
                        );
                        return None;
                    }
                    (min.map(|m| m.0), max.map(|m| m.0))
                }
            };
            RuleKind::Length { min, max }
        }
        Written::MultipleOf(factor) => match factor {
            Some(Bound { value, .. }) if value.as_f64() > 0.0 => RuleKind::MultipleOf(value),
            Some(Bound { span, .. }) => {
                errors.at(span, "`multiple_of` needs a factor greater than zero");
                return None;
            }
            None => {
                errors.at(span, "`multiple_of` needs a factor: `multiple_of = 5`");
                return None;
            }
        },
        Written::Email => RuleKind::Email,
        Written::Url => RuleKind::Url,
        Written::Uuid => RuleKind::Uuid,
        Written::Custom {
            function,
            description,
        } => RuleKind::Custom {
            function,
            description,
        },
    };
    Some(Rule {
        def: table::rule(rule.name).expect("the parser read the rule from the table"),
        span,
        kind,
        message: rule.message,
        hint: rule.hint,
    })
}

/// One side of a range: the inclusive or the exclusive bound, not both.
#[allow(clippy::type_complexity)]
fn bound(
    inclusive: Option<Bound>,
    exclusive: Option<Bound>,
    side: &str,
    errors: &mut Errors,
) -> Option<Option<(Number, bool, Span)>> {
    match (inclusive, exclusive) {
        (Some(_), Some(e)) => {
            errors.at(
                e.span,
                format!("give `{side}` or `exclusive_{side}`, not both"),
            );
            None
        }
        (Some(b), None) => Some(Some((b.value, false, b.span))),
        (None, Some(b)) => Some(Some((b.value, true, b.span))),
        (None, None) => Some(None),
    }
}

fn check_combinations(rules: &[Rule], errors: &mut Errors) {
    let future = rules
        .iter()
        .find(|r| matches!(r.kind, RuleKind::Date { future: true, .. }));
    let past = rules
        .iter()
        .find(|r| matches!(r.kind, RuleKind::Date { future: false, .. }));
    if let (Some(_), Some(past)) = (future, past) {
        errors.at(
            past.span,
            "`future_date` and `past_date` together accept no date",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_syntax_passes_and_dots_are_rewritten() {
        assert_eq!(regex(r"^[A-Z]{3}$").unwrap(), r"^[A-Z]{3}$");
        assert_eq!(
            regex(r"^ORD-[0-9]{4}-[0-9]{5}$").unwrap(),
            r"^ORD-[0-9]{4}-[0-9]{5}$"
        );
        assert_eq!(regex(r"^a.b[.]$").unwrap(), format!("^a{ECMA_DOT}b[.]$"));
        assert_eq!(regex(r"(?<year>[0-9]{4})").unwrap(), r"(?<year>[0-9]{4})");
    }

    #[test]
    fn dialect_differences_are_rejected() {
        for bad in [
            r"\d+",
            r"[\d]",
            r"\w",
            r"\s",
            r"\bx",
            r"\Ax\z",
            r"(?i)abc",
            r"(?i:abc)",
            r"(?P<n>a)",
            r"\p{L}",
            r"[[:alpha:]]",
            r"[a[bc]]",
            r"[a-z&&[^aeiou]]",
            r"\x{41}",
            r"\U00000041",
            r"\a",
            "[]a]",
            r"a{,3}",
        ] {
            assert!(regex(bad).is_err(), "{bad} should be rejected");
        }
        assert!(regex("(").unwrap_err().starts_with("invalid regex"));
    }

    #[test]
    fn date_formats() {
        assert!(date_format("%Y-%m-%d").is_ok());
        assert!(date_format("%d/%m/%Y").is_ok());
        assert!(date_format("%F").is_ok());
        assert!(date_format("%Y-%j").is_ok());
        assert!(date_format("%d %B %Y").is_ok());
        assert!(date_format("%Y-%m").is_err());
        assert!(date_format("%Y-%m-%d %H:%M").is_err());
        assert!(date_format("%Y-%m-%Q").is_err());
        assert!(date_format("%Y-%m-%d%").is_err());
    }
}
