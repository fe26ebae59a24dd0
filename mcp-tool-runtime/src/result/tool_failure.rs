//! The draft standard for a failed call's `_meta` (SEP-3313, modelcontextprotocol
//! PR #3312, a draft seeking a sponsor): `_meta["io.modelcontextprotocol/toolFailure"]`
//! = `{class, code, retryable, retryNotBefore, correlationId, agentGuidance}`, so that a
//! client (not only the model) can tell a call to fix from one to wait for and one to
//! stop at. Written only when the server turns it on: a draft may still change.
//!
//! The four categories map onto the draft's three classes:
//!
//! | `errorCategory` | `class` | `code` | `retryable` |
//! |---|---|---|---|
//! | `validation` | `capability` | `invalid_arguments` | false |
//! | `business` | `capability` | `business_rule` | false |
//! | `permission` | `governance` | `permission_denied` | false |
//! | `transient` (retryable) | `reliability` | `transient` | true |
//! | `transient` (unexpected error, panic, may have taken effect) | `reliability` | `internal_error` | false |

use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

/// The `_meta` key of the draft.
pub const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// The draft's object for an error result whose `structuredContent` is `structured`
/// (this crate's wire contract: `errorCategory`, `isRetryable`, `retryAfterSeconds`),
/// made at `now`, without its `correlationId`. `None` for a result that is not this
/// crate's error.
pub(crate) fn describe(structured: &Value, now: SystemTime) -> Option<Map<String, Value>> {
    let category = structured.get("errorCategory")?.as_str()?;
    let retryable = structured.get("isRetryable").and_then(Value::as_bool) == Some(true);
    let (class, code, guidance) = match (category, retryable) {
        ("validation", _) => (
            "capability",
            "invalid_arguments",
            "Correct the arguments as each violation says, then call again.",
        ),
        ("business", _) => (
            "capability",
            "business_rule",
            "A rule of the domain forbids this call; other arguments will not change that: tell the user.",
        ),
        ("permission", _) => (
            "governance",
            "permission_denied",
            "Do not retry: the user must decide, or be given access.",
        ),
        ("transient", true) => (
            "reliability",
            "transient",
            "The same call may succeed if made again, after retryNotBefore where given.",
        ),
        ("transient", false) => (
            "reliability",
            "internal_error",
            "Do not repeat the call unchanged; if the tool may write, check whether it took effect first.",
        ),
        _ => return None,
    };
    let mut failure = Map::new();
    failure.insert("class".into(), class.into());
    failure.insert("code".into(), code.into());
    failure.insert("retryable".into(), retryable.into());
    let seconds = structured.get("retryAfterSeconds").and_then(Value::as_u64);
    if let Some(at) = seconds
        .and_then(|s| crate::calendar::rfc3339_millis(now.checked_add(Duration::from_secs(s))?))
    {
        failure.insert("retryNotBefore".into(), at.into());
    }
    failure.insert("agentGuidance".into(), guidance.into());
    Some(failure)
}

/// Adds the draft's object to an error result's `_meta`, with a correlation id of its
/// own (the call's event reads it from there). Nothing for a result that is not an
/// error of this crate.
pub(crate) fn stamp(meta: &mut Option<Map<String, Value>>, structured: Option<&Value>) {
    let Some(mut failure) = structured.and_then(|s| describe(s, SystemTime::now())) else {
        return;
    };
    failure.insert("correlationId".into(), correlation_id().into());
    meta.get_or_insert_with(Map::new)
        .insert(TOOL_FAILURE_KEY.into(), Value::Object(failure));
}

/// The correlation id a result's `_meta` carries, if any.
#[cfg(feature = "tracing")]
pub(crate) fn correlation_of(meta: Option<&Map<String, Value>>) -> Option<&str> {
    meta?.get(TOOL_FAILURE_KEY)?.get("correlationId")?.as_str()
}

/// 128 random bits, as a call's id is made; where the system has no randomness to give
/// (it always has, on the platforms this crate runs on), the process's own count.
fn correlation_id() -> String {
    crate::id::random_id().unwrap_or_else(|_| {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("{}-{n}", std::process::id())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::UNIX_EPOCH;

    #[test]
    fn each_category_has_its_class_and_code() {
        let now = UNIX_EPOCH + Duration::from_secs(1_796_217_459);
        let of = |structured: Value| Value::Object(describe(&structured, now).unwrap());
        let validation = of(json!({"errorCategory": "validation", "isRetryable": false}));
        assert_eq!(
            (
                &validation["class"],
                &validation["code"],
                &validation["retryable"]
            ),
            (
                &json!("capability"),
                &json!("invalid_arguments"),
                &json!(false)
            )
        );
        assert!(validation.get("retryNotBefore").is_none());
        let business = of(json!({"errorCategory": "business", "isRetryable": false}));
        assert_eq!(business["code"], "business_rule");
        let permission = of(json!({"errorCategory": "permission", "isRetryable": false}));
        assert_eq!(permission["class"], "governance");
        let transient = of(json!({
            "errorCategory": "transient", "isRetryable": true, "retryAfterSeconds": 30
        }));
        assert_eq!(transient["class"], "reliability");
        assert_eq!(transient["retryable"], true);
        assert_eq!(transient["retryNotBefore"], "2026-12-02T13:18:09.000Z");
        let internal = of(json!({"errorCategory": "transient", "isRetryable": false}));
        assert_eq!(internal["code"], "internal_error");
        assert_eq!(internal["retryable"], false);
        assert!(describe(&json!({"count": 2}), now).is_none());
    }

    #[test]
    fn correlation_ids_do_not_repeat() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| correlation_id()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
