//! A pattern as JSON Schema means it (ECMA-262, no flags), in `regex`'s dialect: for the
//! patterns the runtime reads from a schema it did not write (a schemars-typed field's).
//! Where the two dialects read the same text differently, ECMA-262's meaning is spelled
//! out; what ECMA-262 reads only with a flag JSON Schema does not set (a Unicode class,
//! an inline flag) is refused. The derive vets a `regex` rule's pattern the same way at
//! compile time.

use regex_syntax::ast::{
    self, AssertionKind, Ast, ClassPerl, ClassPerlKind, ClassSetItem, Visitor,
};

/// ECMA-262's `.`: anything but its four line terminators (Rust's leaves out `\n` alone).
const DOT: &str = r"[^\n\r\u{2028}\u{2029}]";
/// ECMA-262's `\s`: its WhiteSpace and LineTerminator (Rust's is Unicode's White_Space,
/// which has U+0085 and lacks U+FEFF).
const SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}";

/// `pattern` in `regex`'s dialect, meaning what ECMA-262 means by it; or why it cannot be.
pub(crate) fn to_rust(pattern: &str) -> Result<String, String> {
    let parsed = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|e| e.kind().to_string())?;
    let spelled = ast::visit(&parsed, Spelled(Vec::new()))?;
    let mut rust = String::with_capacity(pattern.len());
    let mut last = 0;
    for (start, end, with) in spelled {
        rust.push_str(&pattern[last..start]);
        rust.push_str(&with);
        last = end;
    }
    rust.push_str(&pattern[last..]);
    Ok(rust)
}

/// What to write in place of each part (by its byte span) that the dialects read apart.
struct Spelled(Vec<(usize, usize, String)>);

impl Spelled {
    fn at(&mut self, span: &ast::Span, with: String) {
        self.0.push((span.start.offset, span.end.offset, with));
    }

    fn perl(&mut self, class: &ClassPerl) {
        let set = match class.kind {
            ClassPerlKind::Digit => "0-9",
            ClassPerlKind::Word => "0-9A-Za-z_",
            ClassPerlKind::Space => SPACE,
        };
        let not = if class.negated { "^" } else { "" };
        // A class of its own, which `regex` also takes inside a bracket class.
        self.at(&class.span, format!("[{not}{set}]"));
    }
}

impl Visitor for Spelled {
    type Output = Vec<(usize, usize, String)>;
    type Err = String;

    fn finish(mut self) -> Result<Self::Output, String> {
        self.0.sort_by_key(|(start, ..)| *start);
        Ok(self.0)
    }

    fn visit_pre(&mut self, ast: &Ast) -> Result<(), String> {
        match ast {
            Ast::Dot(span) => self.at(span, DOT.to_owned()),
            Ast::ClassPerl(class) => self.perl(class),
            Ast::Assertion(a) if a.kind == AssertionKind::WordBoundary => {
                self.at(&a.span, r"(?-u:\b)".to_owned())
            }
            Ast::Assertion(a) if a.kind == AssertionKind::NotWordBoundary => {
                self.at(&a.span, r"(?-u:\B)".to_owned())
            }
            Ast::ClassUnicode(_) => return Err(UNICODE_CLASS.to_owned()),
            Ast::Flags(_) => return Err(FLAGS.to_owned()),
            Ast::Group(group) if matches!(group.kind, ast::GroupKind::NonCapturing(ref f) if !f.items.is_empty()) =>
            {
                return Err(FLAGS.to_owned());
            }
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), String> {
        match item {
            ClassSetItem::Perl(class) => self.perl(class),
            ClassSetItem::Unicode(_) => return Err(UNICODE_CLASS.to_owned()),
            _ => {}
        }
        Ok(())
    }
}

const UNICODE_CLASS: &str = "a Unicode class needs ECMA-262's `u` flag";
const FLAGS: &str = "ECMA-262 has no inline flags such as `(?i)`";

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `input` matches `pattern` as ECMA-262 reads it.
    fn ecma(pattern: &str, input: &str) -> bool {
        regex::Regex::new(&to_rust(pattern).unwrap())
            .unwrap()
            .is_match(input)
    }

    #[test]
    fn classes_and_the_dot_mean_what_ecma_262_means() {
        let cases: &[(&str, &str, bool)] = &[
            (r"^\d+$", "2026", true),
            (r"^\d+$", "٢٠٢٦", false),
            (r"^\D$", "٢", true),
            (r"^[\d-]+$", "12-31", true),
            (r"^[^\d]+$", "٢", true),
            (r"^\w+$", "user_01", true),
            (r"^\w+$", "é", false),
            (r"^\W$", "é", true),
            (r"^\s$", "\u{FEFF}", true),
            (r"^\s$", "\u{85}", false),
            (r"^\S$", "\u{85}", true),
            (r"^.$", "é", true),
            (r"^.$", "\r", false),
            (r"^.$", "\u{2028}", false),
            (r"\bfoo\b", "éfooé", true),
            (r"\Bfoo", "xfoo", true),
            (r"^[a-z]{2,3}\.[A-Z]$", "ab.C", true),
        ];
        for &(pattern, input, expected) in cases {
            assert_eq!(ecma(pattern, input), expected, "{pattern} on {input:?}");
        }
    }

    #[test]
    fn what_needs_a_flag_is_refused() {
        for pattern in [
            r"^\p{L}+$",
            r"[\p{Greek}a]",
            "(?i)abc",
            "(?i:abc)",
            "(?s).",
            "(?x)a b",
        ] {
            assert!(to_rust(pattern).is_err(), "{pattern}");
        }
        assert!(to_rust("^(ab$").is_err());
        assert_eq!(to_rust("^[A-Z]{3}$").unwrap(), "^[A-Z]{3}$");
    }
}
