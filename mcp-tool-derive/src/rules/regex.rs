//! `regex`: a value matches a pattern. The pattern is advertised as JSON Schema's
//! `pattern`, an ECMA-262 regex, and matched by Rust's `regex`. Where the two dialects
//! read the same text apart (`.`, `\d`, `\w`, `\s`, `\b`), ECMA-262's meaning is
//! spelled out for the runtime, and the classes for the schema too, as classes every
//! client's converter reads (llama.cpp's refuses `\d`); what has no meaning shared by
//! both (a Unicode class, an inline flag) is refused at compile time.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use regex_syntax::ast::{
    self, AssertionKind, Ast, ClassPerlKind, ClassSetItem, GroupKind, LiteralKind,
};
use syn::LitStr;

use super::{Key, Parsed, RuleKind, Target};
use crate::ctxt::Errors;

/// `regex = r"^[A-Z]{3}$"`.
pub struct Regex {
    /// What the schema advertises: as written, its classes spelled out.
    source: LitStr,
    /// In Rust's dialect: what the runtime compiles.
    runtime: String,
}

impl RuleKind for Regex {
    type Written = Option<LitStr>;
    const NAME: &'static str = "regex";
    const RUNTIME: &'static str = "Regex";
    const MAIN: Option<&'static str> = Some("pattern");
    const USAGE: &'static str = r#"regex = r"^[A-Z]{3}$""#;
    const KEYS: &'static [Key<Self::Written>] = &[Key {
        name: "pattern",
        read: |pattern, meta| {
            *pattern = Some(meta.value()?.parse()?);
            Ok(())
        },
    }];

    fn vet(written: Self::Written, span: Span, errors: &mut Errors) -> Option<Self> {
        let written = written.unwrap_or_else(|| LitStr::new("", span));
        match regex(&written.value()) {
            Ok(Dialects { schema, runtime }) => Some(Regex {
                source: LitStr::new(&schema, written.span()),
                runtime,
            }),
            Err(message) => {
                errors.spanned(&written, message);
                None
            }
        }
    }

    fn marker(&self) -> Option<&'static str> {
        Some("TextRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let Target { p, .. } = target;
        let source = &self.source;
        let runtime = if self.runtime == source.value() {
            source.clone()
        } else {
            LitStr::new(&self.runtime, source.span())
        };
        // A run of ASCII pieces is matched by a loop over its bytes; the rest by
        // `regex`, which then goes into the server's binary.
        let pattern = match super::pieces::pieces(&self.runtime) {
            Some(pieces) => {
                let pieces = pieces.iter().map(|piece| {
                    let bytes: Vec<u8> =
                        piece.ranges.iter().flat_map(|&(lo, hi)| [lo, hi]).collect();
                    let ranges = proc_macro2::Literal::byte_string(&bytes);
                    let min = piece.min;
                    let max = match piece.max {
                        Some(max) => quote!(::core::option::Option::Some(#max)),
                        None => quote!(::core::option::Option::None),
                    };
                    quote!(#p::PatternPiece::new(#ranges, #min, #max))
                });
                quote!(#p::Pattern::pieces(#source, &[#(#pieces),*]))
            }
            None => quote! {{
                static REGEX: #p::CompiledPattern = #p::CompiledPattern::new(#runtime);
                #p::Pattern::regex(#source, &REGEX)
            }},
        };
        quote! {
            &#p::Regex {
                pattern: {
                    static PATTERN: #p::Pattern = #pattern;
                    &PATTERN
                },
            }
        }
    }
}

/// The rule `regex = pattern`, as `#[schemars(pattern(...))]` writes it.
pub fn written(pattern: LitStr, span: Span) -> Parsed {
    Parsed::new::<Regex>(span, Some(pattern))
}

/// What a rule of garde or validator on a string's text says, as a pattern: each means
/// the same in Rust and ECMA-262, so the one pattern is advertised and enforced.
pub enum Text<'a> {
    /// garde's `contains("x")`, validator's `contains(pattern = "x")`.
    Contains(&'a str),
    /// garde's `prefix("x")`.
    Prefix(&'a str),
    /// garde's `suffix("x")`.
    Suffix(&'a str),
    /// garde's `ascii`: every character below U+0080.
    Ascii,
    /// garde's `alphanumeric`: ASCII letters and digits only. garde takes any script's
    /// (`char::is_alphanumeric`), which a pattern can say only with ECMA-262's `u` flag
    /// and Unicode classes; so the rule here is the ASCII one, stricter.
    Alphanumeric,
    /// validator's `non_control_character`: none of Unicode's control characters (Cc,
    /// what `char::is_control` means: U+0000 to U+001F and U+007F to U+009F).
    NonControl,
}

impl Text<'_> {
    /// The rule `regex` that says it, with its expectation in words.
    pub fn rule(&self, span: Span) -> Parsed {
        let (pattern, message) = match self {
            Text::Contains(x) => (escape(x), format!("must contain {x:?}")),
            Text::Prefix(x) => (format!("^{}", escape(x)), format!("must start with {x:?}")),
            Text::Suffix(x) => (format!("{}$", escape(x)), format!("must end with {x:?}")),
            Text::Ascii => (
                r"^[\x00-\x7F]*$".to_owned(),
                "must be ASCII characters only".to_owned(),
            ),
            Text::Alphanumeric => (
                "^[0-9A-Za-z]*$".to_owned(),
                "must be ASCII letters and digits only".to_owned(),
            ),
            Text::NonControl => (
                r"^[^\x00-\x1F\x7F-\x9F]*$".to_owned(),
                "must have no control characters".to_owned(),
            ),
        };
        written(LitStr::new(&pattern, span), span).said(&message)
    }
}

/// `text` as a pattern that matches it literally: the characters both dialects read as
/// syntax escaped with `\`, which both read as the character (no other escape: an
/// escaped `#` or `-` is an error in ECMA-262's Unicode mode).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// How `.` is written for the runtime: ECMA-262's dot excludes the four line
/// terminators, Rust's only `\n`.
const ECMA_DOT: &str = r"[^\n\r\u{2028}\u{2029}]";

/// ECMA-262's `\s` (its WhiteSpace and LineTerminator; Rust's is Unicode's White_Space,
/// which has U+0085 and lacks U+FEFF), in Rust's dialect and in ECMA-262's (with `\x0C`
/// for `\f`, an escape llama.cpp's grammar does not read).
const SPACE_RUST: &str =
    r"\t\n\x0B\x0C\r \xA0\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}";
const SPACE_ECMA: &str =
    r"\t\n\x0B\x0C\r \xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF";

/// A pattern in both dialects, meaning what ECMA-262 means by it.
#[derive(Debug, PartialEq, Eq)]
pub struct Dialects {
    /// For the schema: as written, its `\d`, `\w`, `\s` spelled out as classes (inside
    /// a bracket class, a negated one stays as written: ECMA-262 has no other way to say
    /// it there).
    pub schema: String,
    /// For the runtime: every part the dialects read apart spelled out.
    pub runtime: String,
}

/// Vets a regex for validity in Rust and for a meaning ECMA-262 shares (the dialect of
/// JSON Schema's `pattern`); returns it as the schema advertises it and as the runtime
/// compiles it.
pub fn regex(source: &str) -> Result<Dialects, String> {
    if let Err(e) = regex_syntax::Parser::new().parse(source) {
        return Err(format!("invalid regex: {e}"));
    }
    let parsed = ast::parse::Parser::new()
        .parse(source)
        .map_err(|e| format!("invalid regex: {e}"))?;
    let visitor = Dialect {
        source,
        problems: Vec::new(),
        spelled: Vec::new(),
        in_class: 0,
    };
    let (problems, mut spelled) = ast::visit(&parsed, visitor).unwrap_or_default();
    if let Some(first) = problems.into_iter().next() {
        return Err(format!(
            "regex `{source}`: {first}. JSON Schema's `pattern` is an ECMA-262 regex, so \
             only syntax that means the same in Rust and ECMA-262 is allowed"
        ));
    }
    spelled.sort_by_key(|s| s.start);
    let mut schema = String::with_capacity(source.len());
    let mut runtime = String::with_capacity(source.len());
    let mut last = 0;
    for s in spelled {
        schema.push_str(&source[last..s.start]);
        runtime.push_str(&source[last..s.start]);
        schema.push_str(s.schema.as_deref().unwrap_or(&source[s.start..s.end]));
        runtime.push_str(&s.runtime);
        last = s.end;
    }
    schema.push_str(&source[last..]);
    runtime.push_str(&source[last..]);
    Ok(Dialects { schema, runtime })
}

/// A part of the pattern written otherwise: in the schema (`None`: as written) and for
/// the runtime.
struct Spelled {
    start: usize,
    end: usize,
    schema: Option<String>,
    runtime: String,
}

/// What a Unicode class (`\p{L}`) is told: no pattern every client reads says it.
fn unicode_class(text: &str) -> String {
    format!(
        "`{text}`: Unicode classes need ECMA-262's `u` flag, which JSON Schema does not set. \
         List the characters you take (an ASCII class such as [A-Za-z], or ranges such as \
         [A-Za-z\\u00C0-\\u024F]), or check it with a `custom` rule and say it in the rule's \
         `description`"
    )
}

struct Dialect<'s> {
    source: &'s str,
    problems: Vec<String>,
    spelled: Vec<Spelled>,
    /// How deep in bracket classes the visit is.
    in_class: usize,
}

impl Dialect<'_> {
    fn text(&self, span: &ast::Span) -> &str {
        &self.source[span.start.offset..span.end.offset]
    }

    fn spell(&mut self, span: &ast::Span, schema: Option<String>, runtime: String) {
        self.spelled.push(Spelled {
            start: span.start.offset,
            end: span.end.offset,
            schema,
            runtime,
        });
    }

    /// `\d`, `\w`, `\s` and their negations, as ECMA-262 means them (ASCII, and its
    /// own list of spaces).
    fn perl(&mut self, class: &ast::ClassPerl) {
        let (rust, ecma) = match class.kind {
            ClassPerlKind::Digit => ("0-9", "0-9"),
            ClassPerlKind::Word => ("0-9A-Za-z_", "0-9A-Za-z_"),
            ClassPerlKind::Space => (SPACE_RUST, SPACE_ECMA),
        };
        let not = if class.negated { "^" } else { "" };
        // A class of its own, which `regex` also takes inside a bracket class; ECMA-262
        // reads `[` there as a literal, so there the set's ranges stand bare.
        let schema = match (self.in_class > 0, class.negated) {
            (false, _) => Some(format!("[{not}{ecma}]")),
            (true, false) => Some(ecma.to_owned()),
            (true, true) => None,
        };
        self.spell(&class.span, schema, format!("[{not}{rust}]"));
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
    type Output = (Vec<String>, Vec<Spelled>);
    type Err = ();

    fn finish(self) -> Result<Self::Output, ()> {
        Ok((self.problems, self.spelled))
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), ()> {
        match node {
            Ast::Dot(span) => self.spell(span, None, ECMA_DOT.to_owned()),
            Ast::Flags(flags) => {
                let text = self.text(&flags.span).to_owned();
                self.problems.push(format!(
                    "inline flags `{text}` are not part of ECMA-262; write what they mean \
                     (both cases for `i`: [Aa]), or check it with a `custom` rule that says it \
                     in its `description`"
                ));
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
                    self.problems.push(format!(
                        "inline flags `{text}` are not part of ECMA-262; write what they mean \
                         (both cases for `i`: [Aa])"
                    ));
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
                    // ECMA-262's word boundaries are ASCII's; Rust's are Unicode's
                    // unless asked otherwise.
                    AssertionKind::WordBoundary => {
                        self.spell(&a.span, None, r"(?-u:\b)".to_owned())
                    }
                    AssertionKind::NotWordBoundary => {
                        self.spell(&a.span, None, r"(?-u:\B)".to_owned())
                    }
                    _ => self.problems.push(format!(
                        "`{text}` is a word boundary of Rust's alone; write \\b (a boundary of \
                         ASCII letters, digits and `_`), or anchor with ^ and $"
                    )),
                }
            }
            Ast::ClassUnicode(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(unicode_class(&text));
            }
            Ast::ClassPerl(c) => self.perl(c),
            Ast::Literal(lit) => self.literal(lit),
            Ast::ClassBracketed(c) => {
                self.in_class += 1;
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

    fn visit_post(&mut self, node: &Ast) -> Result<(), ()> {
        if let Ast::ClassBracketed(_) = node {
            self.in_class -= 1;
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
        match item {
            ClassSetItem::Bracketed(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "the nested class `{text}` is Rust syntax; ECMA-262 reads `[` inside a class as a literal: write its characters into the outer class"
                ));
            }
            ClassSetItem::Ascii(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(format!(
                    "the POSIX class `{text}` is not ECMA-262; list the characters (`[:alpha:]` is A-Za-z, `[:digit:]` is 0-9)"
                ));
            }
            ClassSetItem::Unicode(c) => {
                let text = self.text(&c.span).to_owned();
                self.problems.push(unicode_class(&text));
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
            "the class operation in `{text}` (&&, -- or ~~) is Rust syntax, not ECMA-262; write the set it makes as one class"
        ));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runtime's reading of `source`.
    fn runtime(source: &str) -> String {
        regex(source).unwrap().runtime
    }

    #[test]
    fn shared_syntax_passes_and_dots_are_rewritten() {
        assert_eq!(runtime(r"^[A-Z]{3}$"), r"^[A-Z]{3}$");
        assert_eq!(
            runtime(r"^ORD-[0-9]{4}-[0-9]{5}$"),
            r"^ORD-[0-9]{4}-[0-9]{5}$"
        );
        assert_eq!(runtime(r"^a.b[.]$"), format!("^a{ECMA_DOT}b[.]$"));
        assert_eq!(regex(r"^a.b$").unwrap().schema, r"^a.b$");
        assert_eq!(runtime(r"(?<year>[0-9]{4})"), r"(?<year>[0-9]{4})");
    }

    #[test]
    fn classes_are_spelled_out_as_ecma_262_means_them() {
        for (written, schema, rust) in [
            (
                r"^\d{4}-\d{2}$",
                r"^[0-9]{4}-[0-9]{2}$",
                r"^[0-9]{4}-[0-9]{2}$",
            ),
            (r"^\D$", r"^[^0-9]$", r"^[^0-9]$"),
            (r"^[\d-]+$", r"^[0-9-]+$", r"^[[0-9]-]+$"),
            (r"^[^\w.]+$", r"^[^0-9A-Za-z_.]+$", r"^[^[0-9A-Za-z_].]+$"),
            (r"^\W$", r"^[^0-9A-Za-z_]$", r"^[^0-9A-Za-z_]$"),
            // Negated inside a class: no other way to say it in ECMA-262.
            (r"^[a\D]$", r"^[a\D]$", r"^[a[^0-9]]$"),
            (r"\bfoo\B", r"\bfoo\B", r"(?-u:\b)foo(?-u:\B)"),
        ] {
            let both = regex(written).unwrap();
            assert_eq!(both.schema, schema, "{written}");
            assert_eq!(both.runtime, rust, "{written}");
        }
        let space = regex(r"^\s\S$").unwrap();
        assert_eq!(space.schema, format!("^[{SPACE_ECMA}][^{SPACE_ECMA}]$"));
        assert_eq!(space.runtime, format!("^[{SPACE_RUST}][^{SPACE_RUST}]$"));
    }

    #[test]
    fn the_runtime_matches_as_ecma_262_does() {
        let cases: &[(&str, &str, bool)] = &[
            (r"^\d+$", "2026", true),
            (r"^\d+$", "\u{662}\u{660}", false),
            (r"^\D$", "\u{662}", true),
            (r"^\w+$", "user_01", true),
            (r"^\w+$", "é", false),
            (r"^\W$", "é", true),
            (r"^\s$", "\u{FEFF}", true),
            (r"^\s$", "\u{85}", false),
            (r"^\S$", "\u{85}", true),
            (r"\bfoo\b", "éfooé", true),
            (r"^[a\D]$", "é", true),
            (r"^[a\D]$", "5", false),
        ];
        for &(pattern, input, expected) in cases {
            let matched = ::regex::Regex::new(&runtime(pattern))
                .unwrap()
                .is_match(input);
            assert_eq!(matched, expected, "{pattern} on {input:?}");
        }
    }

    #[test]
    fn dialect_differences_are_rejected() {
        for bad in [
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
            r"\<",
        ] {
            assert!(regex(bad).is_err(), "{bad} should be rejected");
        }
        assert!(regex("(").unwrap_err().starts_with("invalid regex"));
    }
}
