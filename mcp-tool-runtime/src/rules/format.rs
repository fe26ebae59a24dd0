//! `email`, `url` and `uuid`: a string format of JSON Schema 2020-12 (`format`), checked
//! as its RFC defines it (`formats.rs` has the choices made where validators disagree).

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind, formats};
use crate::check::Checker;

/// A string format rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `email`: an RFC 5321 mailbox (`format: email`).
    Email,
    /// `url`: an RFC 3986 absolute URI (`format: uri`).
    Url,
    /// `uuid`: an RFC 4122 UUID (`format: uuid`).
    Uuid,
}

impl Format {
    /// The rule's name, the JSON Schema `format`, the expectation, and the predicate.
    fn parts(self) -> (&'static str, &'static str, &'static str, fn(&str) -> bool) {
        match self {
            Format::Email => (
                "email",
                "email",
                "must be an email address such as name@example.com",
                formats::is_email,
            ),
            Format::Url => (
                "url",
                "uri",
                "must be an absolute URL such as https://example.com/page",
                formats::is_uri,
            ),
            Format::Uuid => (
                "uuid",
                "uuid",
                "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000",
                formats::is_uuid,
            ),
        }
    }
}

impl RuleKind for Format {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        schema.insert("format".into(), self.parts().1.into());
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        value.as_str().is_none_or(self.parts().3)
    }

    fn check(&self, value: &Value, _: &Checker<'_>) -> Option<Failure> {
        let Value::String(s) = value else {
            return None;
        };
        let (rule, format, expectation, is_valid) = self.parts();
        (!is_valid(s)).then(|| Failure::new(rule, expectation, format.into()))
    }
}
