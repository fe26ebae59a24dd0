//! What an operator sees of each call (feature `tracing`): one event per `tools/call`,
//! at `info` for a success and `warn` for an error result, with the tool, the outcome,
//! the error's category, the duration, the violated paths and rules, the repairs made,
//! and OpenTelemetry's `error.type = "tool_error"` for a result with `isError`, and the
//! verified caller's subject (empty when none was verified). No argument's value is ever
//! in it, nor a token: paths and rule names only.

use std::time::Instant;

use serde_json::{Map, Value};

/// The event of a call answered with a JSON-RPC error of `kind`.
pub(crate) fn rejected(tool: &str, started: Instant, kind: &str, message: &str, subject: &str) {
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::warn!(
        target: "mcp_tool",
        tool,
        subject,
        outcome = "rejected",
        error.type = kind,
        duration_ms,
        message,
        "tools/call rejected",
    );
}

/// The event of a call answered with a result: its `isError`, its `structuredContent`
/// (the category and violations of an error), and from its `_meta` the repairs listed
/// and the correlation id of the draft failure object.
pub(crate) fn answered(
    tool: &str,
    started: Instant,
    is_error: bool,
    structured: Option<&Value>,
    meta: Option<&Map<String, Value>>,
    subject: &str,
) {
    // The lists below are written only for a subscriber that takes the event: a server
    // without one would join every violation's path and rule into text for nobody.
    let taken = if is_error {
        tracing::enabled!(target: "mcp_tool", tracing::Level::WARN)
    } else {
        tracing::enabled!(target: "mcp_tool", tracing::Level::INFO)
    };
    if !taken {
        return;
    }
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    let repairs = meta.and_then(|m| m.get(crate::result::REPAIRS_KEY));
    let repairs = listed(repairs, |r| r["path"].as_str().map(str::to_owned));
    if !is_error {
        tracing::info!(
            target: "mcp_tool",
            tool,
            subject,
            outcome = "ok",
            duration_ms,
            repairs = repairs.as_str(),
            "tools/call",
        );
        return;
    }
    let category = structured
        .and_then(|s| s.get("errorCategory"))
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let violations = listed(structured.and_then(|s| s.get("violations")), |v| {
        Some(format!("{} {}", v["path"].as_str()?, v["rule"].as_str()?))
    });
    tracing::warn!(
        target: "mcp_tool",
        tool,
        subject,
        outcome = "error",
        error.type = "tool_error",
        category,
        duration_ms,
        violations = violations.as_str(),
        repairs = repairs.as_str(),
        correlation_id = crate::result::tool_failure::correlation_of(meta),
        "tools/call",
    );
}

/// The event of a call that ends while its user answers the questions `asked` (their
/// keys): it resumes as a new call, with its own event.
pub(crate) fn waiting(tool: &str, started: Instant, asked: &str, subject: &str) {
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(
        target: "mcp_tool",
        tool,
        subject,
        outcome = "input_required",
        duration_ms,
        asked,
        "tools/call",
    );
}

/// The items of a JSON array, each as `item` writes it, joined with `", "`.
fn listed(array: Option<&Value>, item: impl Fn(&Value) -> Option<String>) -> String {
    array
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(&item)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// The event of a request the authorization gate refused (feature `auth`): its HTTP
/// status (401, 403, 400, 503), the tool called and the caller's subject where known,
/// and why (for a 403, the scopes the token lacks). Never the token.
#[cfg(feature = "auth")]
pub(crate) fn refused(status: u16, tool: Option<&str>, subject: Option<&str>, why: &str) {
    tracing::warn!(
        target: "mcp_tool",
        tool = tool.unwrap_or(""),
        outcome = "refused",
        http.status = status,
        subject = subject.unwrap_or(""),
        missing_scopes = if status == 403 { why } else { "" },
        reason = why,
        "request refused by authorization",
    );
}
