//! `regex`: a value matches a pattern. The pattern is advertised as JSON Schema's
//! `pattern`, an ECMA-262 regex, and matched by Rust's `regex`: only syntax that means
//! the same in both is allowed, checked here at compile time, and `.` is rewritten to
//! mean what ECMA-262 means by it.

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
    /// As written: what the schema advertises.
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
        let source = written.unwrap_or_else(|| LitStr::new("", span));
        match regex(&source.value()) {
            Ok(runtime) => Some(Regex { source, runtime }),
            Err(message) => {
                errors.spanned(&source, message);
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

/// How `.` is written for the runtime: ECMA-262's dot excludes the four line
/// terminators, Rust's only `\n`.
const ECMA_DOT: &str = r"[^\n\r\u{2028}\u{2029}]";

/// Vets a regex for validity in Rust and for meaning the same in ECMA-262, the
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
                    _ => self.problems.push(format!(
                        "`{text}`: word boundaries are Unicode-aware in Rust but ASCII in ECMA-262; \
                         anchor with ^ and $, or name the characters on either side"
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
}
