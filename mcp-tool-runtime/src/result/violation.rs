//! What went wrong, as data: the category of a failure, and one problem with one
//! argument.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

/// What kind of failure a [`ToolError`](crate::ToolError) is, and so what the model should
/// do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorCategory {
    /// Something passing went wrong (a timeout, a busy dependency): the same call may
    /// succeed if tried again.
    Transient,
    /// The arguments are wrong: fix them, then call again.
    Validation,
    /// A rule of the domain forbids the call (the order is already shipped): changing
    /// the arguments will not help; often a person must decide.
    Business,
    /// The caller may not do this: retrying does not help; ask for access.
    Permission,
}

impl ErrorCategory {
    /// The name on the wire: `transient`, `validation`, `business` or `permission`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCategory::Transient => "transient",
            ErrorCategory::Validation => "validation",
            ErrorCategory::Business => "business",
            ErrorCategory::Permission => "permission",
        }
    }

    /// Whether the identical call can succeed if tried again: true only for transient.
    pub fn is_retryable(self) -> bool {
        self == ErrorCategory::Transient
    }
}

impl fmt::Display for ErrorCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem with one argument: which one (`path`, a JSON pointer in the names the
/// client sent), which rule, what was expected and what came.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// JSON pointer to the value, with serde's names: `/passengers/2/age`; `""` for the
    /// arguments object itself.
    pub path: String,
    /// The rule that failed: `type`, `required`, `unknown`, `regex`, `enum`, `range`,
    /// `length`, `future_date`, `past_date`, `email`, `url`, `uuid`, or a custom name.
    pub rule: Cow<'static, str>,
    /// A sentence for the model: the expectation, what came, what to do.
    pub message: String,
    /// What the rule wants, as data: a pattern, the allowed values, a bound.
    pub expected: Value,
    /// What came, truncated; absent when nothing came or the field is sensitive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub received: Option<Value>,
}

impl Violation {
    /// A violation a handler writes: at `path` (a JSON pointer in the client's names,
    /// `/order_id`; `""` for the arguments as a whole), of `rule` (a name of the
    /// author's: `exists`, `in_stock`), with `message` for the model. What the rule
    /// wants and what came are added with [`Violation::with_expected`] and
    /// [`Violation::with_received`], from any serializable value (a string, a number, a
    /// list, a struct of the author's): a handler needs no `serde_json` of its own.
    ///
    /// ```
    /// use mcp_tool::{ErrorCategory, ToolError, Violation};
    ///
    /// let err = ToolError::business("Order ORD-7 is shipped: it cannot be changed.")
    ///     .with_violation(
    ///         Violation::new("/status", "transition", "must be a status a shipped order takes")
    ///             .with_expected(["delivered", "returned"])
    ///             .with_received("cancelled"),
    ///     )
    ///     .with_violation(
    ///         Violation::new("/lines/0/quantity", "in_stock", "must be at most the 3 in stock")
    ///             .with_expected(3)
    ///             .with_received(5),
    ///     );
    /// assert_eq!(err.category(), ErrorCategory::Business);
    /// let v = &err.violations()[0];
    /// assert_eq!((v.expected[0].as_str(), v.expected[1].as_str()), (Some("delivered"), Some("returned")));
    /// assert_eq!(v.received.as_ref().unwrap(), "cancelled");
    /// assert_eq!(err.violations()[1].expected, 3);
    /// let text = err.text();
    /// assert!(text.contains("status: must be a status a shipped order takes"), "{text}");
    /// ```
    pub fn new(
        path: impl Into<String>,
        rule: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Violation {
            path: path.into(),
            rule: rule.into(),
            message: message.into(),
            expected: Value::Null,
            received: None,
        }
    }

    /// What the rule wants, as data: a bound, a list of allowed values, a sentence.
    /// A value that does not serialize to JSON (a map with non-string keys) is said as
    /// the error serde gives.
    pub fn with_expected(mut self, expected: impl Serialize) -> Self {
        self.expected = as_json(expected);
        self
    }

    /// What came, cut short as the checks cut it (80 characters, 5 items, 2 levels):
    /// pass nothing of a secret here.
    pub fn with_received(mut self, received: impl Serialize) -> Self {
        let received = as_json(received);
        self.received = Some(crate::result::echo::truncate(
            &received,
            crate::result::echo::RECEIVED,
        ));
        self
    }

    /// This violation as JSON, as it serializes, without copying its parts.
    pub(super) fn into_value(self) -> Value {
        let mut out = Map::new();
        out.insert("path".into(), self.path.into());
        out.insert("rule".into(), self.rule.into_owned().into());
        out.insert("message".into(), self.message.into());
        out.insert("expected".into(), self.expected);
        if let Some(received) = self.received {
            out.insert("received".into(), received);
        }
        Value::Object(out)
    }

    /// The path as a reader sees it: `passengers/2/age`, or `arguments` for the root.
    pub fn display_path(&self) -> Cow<'_, str> {
        match self.path.strip_prefix('/') {
            None => Cow::Borrowed("arguments"),
            Some(rest) if !rest.contains('~') => Cow::Borrowed(rest),
            Some(rest) => Cow::Owned(rest.replace("~1", "/").replace("~0", "~")),
        }
    }
}

/// `value` as JSON, or serde's reason why not, as a string.
fn as_json(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| Value::String(format!("(not JSON: {e})")))
}

/// A known client mistake repaired before the checks: some clients send an array or an
/// object argument as a string holding its JSON (`"[\"a\", \"b\"]"`), and re-send it the
/// same way however the model is told. Where the schema wants an array (or an object)
/// and a string holding exactly that parses, the parsed value is checked and used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// JSON pointer to the value, in the names the client sent.
    pub path: String,
    /// What was done: `"parsed the JSON array sent as a string"`.
    pub repair: Cow<'static, str>,
}
