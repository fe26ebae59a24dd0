//! `regex`: the string matches a pattern; JSON Schema's `pattern`, with the same text.

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::pattern::Pattern;
use crate::text::expectation;

/// `regex = r"..."`: the string matches `pattern`, which the derive has checked means
/// the same in ECMA-262 (the dialect of JSON Schema's `pattern`) as in Rust's `regex`.
#[derive(Debug)]
pub struct Regex {
    /// The pattern, advertised as written.
    pub pattern: &'static Pattern,
}

impl RuleKind for Regex {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        schema.insert("pattern".into(), self.pattern.source().into());
    }

    #[inline]
    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        value
            .as_str()
            .is_none_or(|s| matches!(self.pattern.is_match(s), Ok(true)))
    }

    fn check(&self, value: &Value, _: &Checker<'_>) -> Option<Failure> {
        let Value::String(s) = value else {
            return None;
        };
        let source = self.pattern.source();
        match self.pattern.is_match(s) {
            Ok(true) => None,
            Ok(false) => Some(Failure::new(
                "regex",
                expectation(&["must match the pattern ", source]),
                source.into(),
            )),
            Err(e) => Some(Failure::new(
                "regex",
                format!("could not be checked: the server's pattern does not compile ({e})"),
                source.into(),
            )),
        }
    }
}
