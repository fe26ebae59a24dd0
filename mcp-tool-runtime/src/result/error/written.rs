//! A `ToolError` written out: the text block, the `structuredContent` of the wire
//! contract, the JSON-RPC error of a malformed request, the `CallToolResult`.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::{Inner, Kept, ToolError};
use crate::result::call_result::{CallToolResult, Content, json_text};
use crate::result::echo::{self, ARGUMENTS};
use crate::result::violation::{ErrorCategory, Violation};

/// The violations as the text says them: the same problem at several items of one list
/// (eleven empty strings) said once, with the items' indices (`tags/0, 3, 7`), where the
/// first of them stands. The structured `violations` keep one entry each.
fn said_once(violations: &[Violation]) -> Vec<(Cow<'_, str>, &str)> {
    fn item(v: &Violation) -> Option<(&str, &str)> {
        let (parent, last) = v.path.rsplit_once('/')?;
        (!parent.is_empty() && !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
            .then_some((parent, last))
    }
    let mut out: Vec<(Cow<'_, str>, &str)> = Vec::new();
    let mut groups: Vec<(usize, &str, &str, &str)> = Vec::new();
    for v in violations {
        if let Some((parent, index)) = item(v) {
            let same = groups.iter().find(|(_, p, rule, message)| {
                *p == parent && *rule == v.rule && *message == v.message
            });
            if let Some(&(at, ..)) = same {
                let line = out[at].0.to_mut();
                line.push_str(", ");
                line.push_str(index);
                continue;
            }
            groups.push((out.len(), parent, &v.rule, &v.message));
        }
        out.push((v.display_path(), &v.message));
    }
    out
}

impl ToolError {
    /// The JSON-RPC error object for a malformed request:
    /// `{"code": -32602, "message": ...}`.
    pub fn to_jsonrpc_error(&self) -> Value {
        json!({ "code": -32602, "message": self.inner.message })
    }

    /// The full text the model reads: the message, each violation on its own line, the
    /// hint, what was gathered, when to retry, and the category with its next step.
    pub fn text(&self) -> String {
        let inner = &*self.inner;
        let mut text = inner.message.clone();
        for (path, message) in said_once(&inner.violations) {
            text.push_str("\n- ");
            text.push_str(&path);
            text.push_str(": ");
            text.push_str(message);
        }
        if inner.omitted > 0 {
            text.push_str(&format!(
                "\n- and {} more {} not listed; fix the ones above and call again to see them.",
                inner.omitted,
                if inner.omitted == 1 {
                    "problem"
                } else {
                    "problems"
                }
            ));
        }
        if inner.may_have_taken_effect {
            text.push_str(
                "\nIt may have taken effect before it failed: check whether it did before \
                 calling it again.",
            );
        }
        if let Some(hint) = &inner.hint {
            text.push('\n');
            text.push_str(hint);
        }
        // Many clients show the model only the text: what was gathered goes there too,
        // cut short (in full in `partial_results`).
        if let Some(partial) = inner.partial_results.as_ref().filter(|p| !p.is_null()) {
            text.push_str("\nGathered before the failure: ");
            text.push_str(&json_text(&echo::truncate(partial, ARGUMENTS)));
        }
        if let Some(after) = inner.retry_after {
            let seconds = whole_seconds(after);
            text.push_str(&format!(
                "\nRetry the same call in {seconds} {}.",
                if seconds == 1 { "second" } else { "seconds" }
            ));
        }
        // The category, for clients that hand the model the text alone, with the next
        // step where the lines above do not already say it.
        text.push_str("\nError category: ");
        text.push_str(inner.category.as_str());
        text.push('.');
        text.push_str(match inner.category {
            ErrorCategory::Validation if inner.violations.is_empty() => {
                " Correct the arguments, then call again."
            }
            ErrorCategory::Business => {
                " A rule forbids this call and other arguments will not change that: tell the user."
            }
            ErrorCategory::Permission => {
                " Retrying will not help: the user must decide, or be given access."
            }
            ErrorCategory::Transient if self.is_retryable() && inner.retry_after.is_none() => {
                " The same call may succeed if made again."
            }
            _ => "",
        });
        text
    }

    /// The `structuredContent` of the wire contract.
    pub fn structured_content(&self) -> Value {
        self.redacted().into_structured()
    }

    /// The `structuredContent`, made from this error's own parts without copying them.
    /// `message` is [`ToolError::message`] in every category: the details have fields
    /// of their own, and the text block has them all.
    fn into_structured(self) -> Value {
        let retryable = self.is_retryable();
        let inner = *self.inner;
        let mut out = Map::new();
        out.insert("errorCategory".into(), inner.category.as_str().into());
        out.insert("isRetryable".into(), retryable.into());
        out.insert("message".into(), inner.message.into());
        let attempted = match (inner.tool, inner.arguments) {
            (None, None) => Value::Null,
            (tool, arguments) => {
                let mut query = Map::new();
                query.insert(
                    "tool".into(),
                    tool.map_or(Value::Null, |t| t.into_owned().into()),
                );
                let arguments = match (arguments, &inner.hidden) {
                    (Some(kept), Some(hidden)) => echo::hiding(&kept.0, hidden, ARGUMENTS),
                    (Some(mut kept), None) => std::mem::take(&mut kept.0),
                    (None, _) => Value::Null,
                };
                query.insert("arguments".into(), arguments);
                Value::Object(query)
            }
        };
        out.insert("attempted_query".into(), attempted);
        out.insert(
            "partial_results".into(),
            inner.partial_results.unwrap_or(Value::Null),
        );
        out.insert(
            "violations".into(),
            inner
                .violations
                .into_iter()
                .map(Violation::into_value)
                .collect(),
        );
        if inner.omitted > 0 {
            out.insert("omittedViolations".into(), inner.omitted.into());
        }
        if let Some(hint) = inner.hint {
            out.insert("hint".into(), hint.into());
        }
        if let Some(after) = inner.retry_after {
            out.insert("retryAfterSeconds".into(), whole_seconds(after).into());
        }
        Value::Object(out)
    }

    /// The `CallToolResult` (`isError: true`) a client receives for this error, made
    /// without copying the error's parts (see [`ToolError::to_call_result`]).
    pub fn into_call_result(mut self) -> CallToolResult {
        let text = self.text();
        let repairs = std::mem::take(&mut self.inner.repairs);
        CallToolResult {
            content: vec![Content::text(text)],
            structured_content: Some(self.into_structured()),
            is_error: true,
            meta: None,
        }
        .with_repairs(&repairs)
    }

    /// The `CallToolResult` (`isError: true`) a client receives for this error.
    pub fn to_call_result(&self) -> CallToolResult {
        self.redacted().into_call_result()
    }

    /// A copy of this error as it is shown: the arguments already redacted and cut,
    /// not copied whole.
    pub(super) fn redacted(&self) -> ToolError {
        let inner = &*self.inner;
        let arguments = match (&inner.arguments, &inner.hidden) {
            (Some(kept), Some(hidden)) => Some(Kept(echo::hiding(&kept.0, hidden, ARGUMENTS))),
            (Some(kept), None) => Some(Kept(kept.0.clone())),
            (None, _) => None,
        };
        ToolError {
            inner: Box::new(Inner {
                category: inner.category,
                message: inner.message.clone(),
                hint: inner.hint.clone(),
                tool: inner.tool.clone(),
                arguments,
                hidden: None,
                partial_results: inner.partial_results.clone(),
                violations: inner.violations.clone(),
                fields: inner.fields.clone(),
                omitted: inner.omitted,
                retry_after: inner.retry_after,
                may_have_taken_effect: inner.may_have_taken_effect,
                malformed: inner.malformed,
                repairs: inner.repairs.clone(),
                unexpected: inner.unexpected.clone(),
            }),
        }
    }
}

/// A wait in whole seconds, rounded up (retrying early defeats the point), at least 1.
fn whole_seconds(after: Duration) -> u64 {
    let seconds = after.as_secs() + u64::from(after.subsec_nanos() > 0);
    seconds.max(1)
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

// Not `std::error::Error`: so that every error converts into a `ToolError` with `?`
// (see `ToolError::unexpected`), as anyhow's error does.

impl From<ToolError> for CallToolResult {
    fn from(err: ToolError) -> Self {
        err.into_call_result()
    }
}
