//! `ToolError`: a failed call as the model will read it, in text and as the wire
//! contract's `structuredContent`.

mod sorting;
mod unexpected;
mod written;

pub(crate) use sorting::ErrorSorting;

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::Location;
use super::violation::{ErrorCategory, Violation};

/// A failed tool call, as the model will read it.
///
/// Every failure of a tool call that the model can act on is a `ToolError`: bad
/// arguments (from [`McpTool::from_arguments`](crate::McpTool::from_arguments)), a
/// business rule, a missing permission, a passing outage. It becomes a
/// [`CallToolResult`](crate::CallToolResult) with `isError: true` and the `structuredContent` of the wire
/// contract; only [`ToolError::is_malformed_request`] errors belong on the JSON-RPC
/// error channel instead.
///
/// ```
/// use mcp_tool::{ErrorCategory, ToolError};
///
/// let err = ToolError::business("Order ORD-2026-00042 is already shipped; it cannot be cancelled.")
///     .with_hint("Offer the customer a return instead.");
/// assert_eq!(err.category(), ErrorCategory::Business);
/// let result = err.to_call_result();
/// assert!(result.is_error);
/// assert_eq!(result.structured_content.as_ref().unwrap()["errorCategory"], "business");
/// ```
#[derive(Clone)]
pub struct ToolError {
    inner: Box<Inner>,
}

/// As it is shown: the arguments redacted and cut (a sensitive value never reaches a
/// log through `{:?}`).
impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let redacted = self.redacted();
        let inner = &*redacted.inner;
        f.debug_struct("ToolError")
            .field("category", &inner.category)
            .field("message", &inner.message)
            .field("hint", &inner.hint)
            .field("tool", &inner.tool)
            .field("arguments", &inner.arguments.as_ref().map(|kept| &kept.0))
            .field("partial_results", &inner.partial_results)
            .field("violations", &inner.violations)
            .field("omitted", &inner.omitted)
            .field("retry_after", &inner.retry_after)
            .field("may_have_taken_effect", &inner.may_have_taken_effect)
            .field("malformed", &inner.malformed)
            .field("unexpected", &inner.unexpected.is_some())
            .finish()
    }
}

#[derive(Clone)]
struct Inner {
    category: ErrorCategory,
    message: String,
    hint: Option<String>,
    tool: Option<Cow<'static, str>>,
    arguments: Option<Kept>,
    /// Where `arguments` hold sensitive values, as the checks found them: they are
    /// hidden, and everything cut, when the error is written out. `None` when the
    /// arguments were given already safe to show.
    hidden: Option<Vec<Location>>,
    partial_results: Option<Value>,
    violations: Vec<Violation>,
    /// The field of the arguments each violation the checks found is about (by wire
    /// name), as the checker knew it; shorter than `violations` when some were added by
    /// hand.
    fields: Vec<Option<&'static str>>,
    omitted: usize,
    retry_after: Option<Duration>,
    /// The call may have changed something before it failed.
    may_have_taken_effect: bool,
    malformed: bool,
    /// Client mistakes repaired in the arguments before they were checked.
    repairs: Vec<crate::result::Repair>,
    /// An error the handler did not sort: what the log learns of it.
    unexpected: Option<Box<unexpected::Unexpected>>,
}

/// The arguments an error keeps, as they came. A value built in code can nest deeper
/// than the stack allows `serde_json` to drop it (it drops recursively): this one is
/// taken apart level by level instead.
#[derive(Clone)]
struct Kept(Value);

impl Drop for Kept {
    fn drop(&mut self) {
        let mut stack = Vec::new();
        let mut next = std::mem::take(&mut self.0);
        loop {
            match next {
                Value::Array(items) => items.into_iter().for_each(|v| apart(v, &mut stack)),
                Value::Object(map) => map.into_iter().for_each(|(_, v)| apart(v, &mut stack)),
                _ => {}
            }
            match stack.pop() {
                Some(value) => next = value,
                None => return,
            }
        }
    }
}

/// Drops `value` here if it holds scalars only (its drop goes one level down), or keeps
/// it on `stack` to be taken apart: arguments as models send them then free with no
/// stack of their own.
fn apart(value: Value, stack: &mut Vec<Value>) {
    let scalar = |v: &Value| !matches!(v, Value::Array(_) | Value::Object(_));
    let flat = match &value {
        Value::Array(items) => items.iter().all(scalar),
        Value::Object(map) => map.values().all(scalar),
        _ => true,
    };
    if !flat {
        stack.push(value);
    }
}

impl ToolError {
    fn new(category: ErrorCategory, message: impl Into<String>) -> Self {
        ToolError {
            inner: Box::new(Inner {
                category,
                message: message.into(),
                hint: None,
                tool: None,
                arguments: None,
                hidden: None,
                partial_results: None,
                violations: Vec::new(),
                fields: Vec::new(),
                omitted: 0,
                retry_after: None,
                may_have_taken_effect: false,
                malformed: false,
                repairs: Vec::new(),
                unexpected: None,
            }),
        }
    }

    /// The arguments are wrong; the message says how to fix them.
    pub fn validation(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCategory::Validation, message)
    }

    /// A rule of the domain forbids the call.
    pub fn business(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCategory::Business, message)
    }

    /// The caller may not do this. Say nothing the caller may not know.
    pub fn permission(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCategory::Permission, message)
    }

    /// A passing failure: the identical call may succeed later.
    pub fn transient(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCategory::Transient, message)
    }

    /// Arguments that are not a JSON object (nor absent, nor `null`): the request itself
    /// is malformed. A server answers it with a JSON-RPC error (-32602), not a result.
    pub fn malformed_request(message: impl Into<String>) -> Self {
        let mut err = ToolError::new(ErrorCategory::Validation, message);
        err.inner.malformed = true;
        err
    }

    /// Invalid arguments found by the derive's checks.
    pub(crate) fn invalid_arguments(
        tool: Cow<'static, str>,
        violations: Vec<Violation>,
        fields: Vec<Option<&'static str>>,
        omitted: usize,
        arguments: Value,
        hidden: Vec<Location>,
    ) -> Self {
        let total = violations.len() + omitted;
        let mut message = String::with_capacity(tool.len() + 80);
        message.push_str(&tool);
        message.push_str(" was not run: ");
        message.push_str(itoa::Buffer::new().format(total));
        message.push_str(if total == 1 {
            " problem in the arguments. Correct it and call again."
        } else {
            " problems in the arguments. Correct them and call again."
        });
        let mut err = ToolError::validation(message).for_call(tool, arguments);
        err.inner.hidden = Some(hidden);
        err.inner.violations = violations;
        err.inner.fields = fields;
        err.inner.omitted = omitted;
        err
    }

    /// Adds what to do next, as a sentence.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.inner.hint = Some(hint.into());
        self
    }

    /// Records the call that failed (`attempted_query`): the tool and its arguments.
    /// Pass arguments already redacted; [`McpTool::from_arguments`](crate::McpTool::from_arguments)
    /// does this itself, leaving out sensitive fields.
    pub fn for_call(mut self, tool: impl Into<Cow<'static, str>>, arguments: Value) -> Self {
        self.inner.tool = Some(tool.into());
        self.inner.arguments = Some(Kept(arguments));
        self.inner.hidden = None;
        self
    }

    /// Records the tool that failed where its arguments are not at hand: the
    /// `attempted_query` says the tool, and `null` arguments.
    #[cfg(feature = "rmcp")]
    pub(crate) fn for_tool(mut self, tool: String) -> Self {
        self.inner.tool = Some(tool.into());
        self
    }

    /// Records the repairs made to the call's arguments: said in the result's `_meta`.
    pub(crate) fn with_repairs(mut self, repairs: Vec<crate::result::Repair>) -> Self {
        self.inner.repairs = repairs;
        self
    }

    /// Whether [`ToolError::for_call`] was given.
    pub(crate) fn has_call(&self) -> bool {
        self.inner.tool.is_some()
    }

    /// What was gathered before the failure (`partial_results`).
    pub fn with_partial_results(mut self, partial: impl Serialize) -> Self {
        self.inner.partial_results = Some(serde_json::to_value(partial).unwrap_or_else(
            |e| json!({ "error": format!("partial results could not be serialized: {e}") }),
        ));
        self
    }

    /// When a transient error may clear: said in the text and as `retryAfterSeconds`.
    pub fn retry_after(mut self, after: Duration) -> Self {
        self.inner.retry_after = Some(after);
        self
    }

    /// Says that the call may have changed something before it failed (a write that
    /// may have happened, a payment that may have gone through): the identical call is
    /// then not safe to repeat, so `isRetryable` is false whatever the category, and the
    /// text asks to check whether it took effect first.
    pub fn may_have_taken_effect(mut self) -> Self {
        self.inner.may_have_taken_effect = true;
        self
    }

    /// Adds a violation (for a validation error built by hand, such as "no order has
    /// this ID").
    pub fn with_violation(mut self, violation: Violation) -> Self {
        self.inner.violations.push(violation);
        self
    }

    /// The category: what the model should do next.
    pub fn category(&self) -> ErrorCategory {
        self.inner.category
    }

    /// Whether the identical call can succeed later, and is safe to make: true for
    /// transient errors, unless the call [may have taken
    /// effect](ToolError::may_have_taken_effect).
    pub fn is_retryable(&self) -> bool {
        self.inner.category.is_retryable()
            && !self.inner.may_have_taken_effect
            && self.inner.unexpected.is_none()
    }

    /// The message the error was made with, or for invalid arguments the summary line
    /// ("book_flight was not run: 2 problems in the arguments. ..."). It is the
    /// `message` of the `structuredContent` and the first line of the text; the
    /// violations, hint, partial results and retry time have fields of their own.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The argument problems, in declaration order.
    pub fn violations(&self) -> &[Violation] {
        &self.inner.violations
    }

    /// The argument problems, taken out of the error: for a caller that keeps the list
    /// (its own report, a log) without copying each one.
    ///
    /// ```
    /// use mcp_tool::McpTool;
    /// use serde::Deserialize;
    ///
    /// /// Greet.
    /// #[derive(McpTool, Deserialize, Debug)]
    /// struct Greet {
    ///     #[validate(length(min = 1))]
    ///     name: String,
    ///     times: u8,
    /// }
    ///
    /// let error = Greet::from_arguments(serde_json::json!({"name": ""})).unwrap_err();
    /// let found: Vec<(String, String)> =
    ///     error.into_violations().into_iter().map(|v| (v.path, v.message)).collect();
    /// assert_eq!(found[0].0, "/name");
    /// assert_eq!(found[1].0, "/times");
    /// ```
    pub fn into_violations(self) -> Vec<Violation> {
        self.inner.violations
    }

    /// Each violation with the field of the arguments it is about, where the checks
    /// found it (`None` for one added by hand, or about no field).
    pub(crate) fn violations_by_field(
        &self,
    ) -> impl Iterator<Item = (&Violation, Option<&'static str>)> {
        let fields = self
            .inner
            .fields
            .iter()
            .copied()
            .chain(std::iter::repeat(None));
        self.inner.violations.iter().zip(fields)
    }

    /// How many problems were found beyond those listed in [`ToolError::violations`].
    pub fn omitted_violations(&self) -> usize {
        self.inner.omitted
    }

    /// True when the request itself is malformed (arguments that are not an object):
    /// answer with a JSON-RPC error (code -32602), not with a tool result.
    pub fn is_malformed_request(&self) -> bool {
        self.inner.malformed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(path: &str) -> Violation {
        Violation {
            path: path.into(),
            rule: Cow::Borrowed("regex"),
            message: "must match the pattern ^[A-Z]{3}$; got \"Paris\".".into(),
            expected: Value::from("^[A-Z]{3}$"),
            received: Some(Value::from("Paris")),
        }
    }

    #[test]
    fn a_violation_moved_into_json_is_what_it_serializes_to() {
        // `into_value` writes the fields by hand so as not to copy them: it must keep
        // to the derived `Serialize`, which the public type also offers.
        let sent = violation("/origin");
        let mut missing = violation("/destination");
        missing.received = None;
        for v in [sent, missing] {
            assert_eq!(v.clone().into_value(), serde_json::to_value(&v).unwrap());
        }
    }

    #[test]
    fn the_structured_message_is_the_errors_message_in_every_category() {
        let invalid = ToolError::invalid_arguments(
            "book_flight".into(),
            vec![violation("/origin")],
            vec![Some("origin")],
            0,
            json!({"origin": "Paris"}),
            Vec::new(),
        );
        assert_eq!(
            invalid.message(),
            "book_flight was not run: 1 problem in the arguments. Correct it and call again."
        );
        let business = ToolError::business("Order ORD-2026-00042 is already shipped.")
            .with_hint("Offer a return.");
        let transient = ToolError::transient("The carrier is not answering.")
            .with_partial_results(json!({"order": "ORD-2026-00050"}))
            .retry_after(Duration::from_secs(30));
        for err in [invalid, business, transient] {
            let structured = err.structured_content();
            assert_eq!(
                Some(&structured),
                err.to_call_result().structured_content.as_ref()
            );
            assert_eq!(structured["message"], err.message());
            assert!(err.text().starts_with(err.message()));
        }
        let transient = ToolError::transient("The carrier is not answering.")
            .with_hint("Tell the user it may take a while.")
            .retry_after(Duration::from_secs(30));
        let structured = transient.structured_content();
        // The details in fields of their own, and in the text.
        assert_eq!(structured["hint"], "Tell the user it may take a while.");
        assert_eq!(structured["retryAfterSeconds"], 30);
        assert!(
            transient
                .text()
                .contains("Tell the user it may take a while.")
        );
        assert!(
            transient
                .text()
                .contains("Retry the same call in 30 seconds.")
        );
    }

    #[test]
    fn a_call_that_may_have_taken_effect_is_not_retryable() {
        let err = ToolError::transient("The payment service failed.").may_have_taken_effect();
        assert_eq!(err.category(), ErrorCategory::Transient);
        assert!(!err.is_retryable());
        assert_eq!(err.structured_content()["isRetryable"], false);
        assert!(
            err.text()
                .contains("check whether it did before calling it again")
        );
        assert!(ToolError::transient("Busy.").is_retryable());
    }
}
