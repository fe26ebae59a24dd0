//! `custom`: the author's own function of the value, for what no keyword can say (a
//! weekday, a known ID). The description says what it checks; its verdict is an
//! [`Invalid`], written as the model should read it.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::context::Context;
use crate::text::sentence;

/// A custom rule as the derive wraps it: the JSON value in, the author's verdict out.
pub type CustomCheck = fn(&Value, &Context) -> Result<(), Invalid>;

/// `custom = path` or `custom(function = path, description = "...")`.
#[derive(Debug)]
pub struct Custom {
    /// The function's name: the violation's rule.
    pub name: &'static str,
    /// What the function checks, for the schema's description.
    pub description: Option<&'static str>,
    /// The check.
    pub check: CustomCheck,
}

impl RuleKind for Custom {
    fn schema(
        &self,
        _: JsonType,
        _: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        message: Option<&'static str>,
    ) {
        notes.push(match (self.description, message) {
            (Some(text), _) | (None, Some(text)) => sentence(text),
            (None, None) => format!(
                "Also checked by the server ({}).",
                self.name.replace('_', " ")
            ),
        });
    }

    /// Not sure: the author's function runs once a call, in the full check (it may be
    /// slow, or count its calls).
    fn holds(&self, _: &Value, _: &crate::context::Context) -> bool {
        false
    }

    fn check(&self, value: &Value, cx: &Checker<'_>) -> Option<Failure> {
        let mut invalid = (self.check)(value, cx.context()).err()?;
        if cx.is_sensitive() {
            invalid = self.withheld(invalid);
        }
        Some(Failure {
            rule: Cow::Borrowed(self.name),
            expected: invalid
                .expected
                .unwrap_or_else(|| Value::String(invalid.message.to_string())),
            expectation: invalid.message,
            detail: invalid.hint,
        })
    }
}

impl Custom {
    /// The verdict on a value that is not shown: its words written at run time (a
    /// `String`, which may hold the value: `format!("{code} is unknown")`) are not said,
    /// its words written in the code (`&'static str`, which cannot) are. In place of a
    /// message made at run time, the rule's description, or its name.
    fn withheld(&self, invalid: Invalid) -> Invalid {
        let message = match invalid.message {
            Cow::Borrowed(text) => Cow::Borrowed(text),
            Cow::Owned(_) => match self.description {
                Some(description) => Cow::Owned(crate::text::concat(&[
                    "must pass the check: ",
                    description.trim_end_matches('.'),
                ])),
                None => Cow::Owned(crate::text::concat(&[
                    "must pass the check ",
                    self.name,
                    " (its reason is not shown)",
                ])),
            },
        };
        let hint = invalid.hint.filter(|hint| matches!(hint, Cow::Borrowed(_)));
        Invalid {
            message,
            // What the rule wants, as the author's data, stays (a message made at run
            // time is not copied into it).
            expected: invalid.expected,
            hint,
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

/// A custom function's error, on its way to an [`Invalid`]: by `Into<Invalid>` where it
/// has one (`String`, `&'static str`, `Invalid`), by its `Display` otherwise (garde's
/// `garde::Error`, validator's `ValidationError`: their functions work as written). The
/// derive calls `Verdict(error).invalid()` with both traits in scope; method lookup
/// takes [`OwnVerdict`] on the value first, then [`ShownVerdict`] on its reference.
#[doc(hidden)]
pub struct Verdict<E>(pub E);

/// [`Verdict`] of an error that is an [`Invalid`] already, or says one.
#[doc(hidden)]
pub trait OwnVerdict {
    fn invalid(self) -> Invalid;
}

impl<E: Into<Invalid>> OwnVerdict for Verdict<E> {
    fn invalid(self) -> Invalid {
        self.0.into()
    }
}

/// [`Verdict`] of any other error that can be shown: its text is the message.
#[doc(hidden)]
pub trait ShownVerdict {
    fn invalid(self) -> Invalid;
}

impl<E: std::fmt::Display> ShownVerdict for &Verdict<E> {
    fn invalid(self) -> Invalid {
        Invalid::new(self.0.to_string())
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
