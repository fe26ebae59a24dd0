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

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

/// The `_meta` key of the draft.
pub const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// The draft's object for an error result whose `structuredContent` is `structured`
/// (this crate's wire contract: `errorCategory`, `isRetryable`, `retryAfterSeconds`),
/// made at `now`, under `correlation_id`. `None` for a result that is not this crate's
/// error.
pub(crate) fn describe(structured: &Value, correlation_id: &str, now: SystemTime) -> Option<Value> {
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
    if let Some(seconds) = structured.get("retryAfterSeconds").and_then(Value::as_u64) {
        let at = now + Duration::from_secs(seconds);
        failure.insert("retryNotBefore".into(), rfc3339(at).into());
    }
    failure.insert("correlationId".into(), correlation_id.into());
    failure.insert("agentGuidance".into(), guidance.into());
    Some(Value::Object(failure))
}

/// Adds the draft's object to an error result's `_meta` (the call's log event reads
/// its correlation id from there). Nothing for a result that is not an error of this
/// crate.
pub(crate) fn stamp(meta: &mut Option<Map<String, Value>>, structured: Option<&Value>) {
    let Some(structured) = structured else {
        return;
    };
    if let Some(failure) = describe(structured, &correlation_id(), SystemTime::now()) {
        meta.get_or_insert_with(Map::new)
            .insert(TOOL_FAILURE_KEY.into(), failure);
    }
}

/// The correlation id a result's `_meta` carries, if any.
#[cfg(feature = "tracing")]
pub(crate) fn correlation_of(meta: Option<&Map<String, Value>>) -> Option<&str> {
    meta?.get(TOOL_FAILURE_KEY)?.get("correlationId")?.as_str()
}

/// An id no other call of this process has, and unlikely to repeat across processes:
/// the process's start (nanoseconds) and id, then a counter.
fn correlation_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static PROCESS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let process = *PROCESS.get_or_init(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        nanos ^ (u64::from(std::process::id()) << 32)
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{process:016x}-{n:08x}")
}

/// `at` as an RFC 3339 UTC time with milliseconds (`2026-12-02T13:07:39.123Z`), the
/// form MCP's other timestamps take.
fn rfc3339(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_are_written_in_utc_as_rfc_3339() {
        let at = |secs: u64, millis: u64| {
            rfc3339(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_796_217_459, 123), "2026-12-02T13:17:39.123Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
    }

    #[test]
    fn each_category_has_its_class_and_code() {
        let now = UNIX_EPOCH + Duration::from_secs(1_796_217_459);
        let of = |structured: Value| describe(&structured, "c-1", now).unwrap();
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
        assert_eq!(validation["correlationId"], "c-1");
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
        assert!(describe(&json!({"count": 2}), "c", now).is_none());
    }

    #[test]
    fn correlation_ids_do_not_repeat() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| correlation_id()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
