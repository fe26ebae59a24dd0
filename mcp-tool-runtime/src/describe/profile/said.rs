//! The constraints a profile cannot carry as keywords (formats it does not know, numeric
//! and length bounds), moved into the property's description so that the model still
//! reads them.

use serde_json::{Map, Value};

/// A format the profile does not know, said in words instead.
pub(super) fn keep_formats(node: &mut Map<String, Value>, known: &[&str], notes: &mut Vec<String>) {
    if let Some(Value::String(format)) = node.get("format")
        && !known.contains(&format.as_str())
    {
        note_format(node, notes);
    }
}

/// Takes `format` out of `node` and says it in words, unless the description says it
/// already (a date rule's sentence gives the date's shape).
pub(super) fn note_format(node: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let Some(Value::String(format)) = node.remove("format") else {
        return;
    };
    let described = node
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|d| format == "date" && d.contains("yyyy-mm-dd"));
    if !described {
        notes.push(format_note(&format));
    }
}

fn format_note(format: &str) -> String {
    match format {
        "email" => "An email address.".into(),
        "uri" => "An absolute URL, such as https://example.com/page.".into(),
        "uuid" => "A UUID, such as 123e4567-e89b-12d3-a456-426614174000.".into(),
        "date" => "A date, written yyyy-mm-dd.".into(),
        "date-time" => "A date and time, such as 2026-11-30T14:00:00Z.".into(),
        "time" => "A time of day, such as 14:00:00Z.".into(),
        other => format!("Format: {other}."),
    }
}

/// `minimum`, `maximum` and their exclusive forms, said in words instead.
pub(super) fn move_bounds(node: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let take = |node: &mut Map<String, Value>, key: &str| node.remove(key);
    let min = take(node, "minimum");
    let max = take(node, "maximum");
    let xmin = take(node, "exclusiveMinimum");
    let xmax = take(node, "exclusiveMaximum");
    if let Some(multiple) = take(node, "multipleOf") {
        notes.push(format!("A multiple of {multiple}."));
    }
    let min = min.filter(|m| !is_far_end(m));
    let max = max.filter(|m| !is_far_end(m));
    let low = match (&min, &xmin) {
        (_, Some(x)) => Some(format!("more than {x}")),
        (Some(m), None) => Some(format!("at least {m}")),
        _ => None,
    };
    let high = match (&max, &xmax) {
        (_, Some(x)) => Some(format!("less than {x}")),
        (Some(m), None) => Some(format!("at most {m}")),
        _ => None,
    };
    let text = match (low, high, &min, &max, &xmin, &xmax) {
        (_, _, Some(a), Some(b), None, None) => format!("From {a} to {b}."),
        (Some(low), Some(high), ..) => capitalize(&format!("{low} and {high}.")),
        (Some(one), None, ..) | (None, Some(one), ..) => capitalize(&format!("{one}.")),
        (None, None, ..) => return,
    };
    notes.push(text);
}

/// A far end of a 32- or 64-bit integer type (`i32::MAX`, `u32::MAX`, ...): in words it
/// is only noise, no quantity a model writes for a field's meaning comes near it (the
/// rule is `describe/types/numbers.rs`'s). The 0 of an unsigned type is no far end: "At least 0."
/// tells the model a count is not negative.
pub(super) fn is_far_end(bound: &Value) -> bool {
    let ends = [
        i64::from(i32::MIN),
        i64::from(i32::MAX),
        i64::from(u32::MAX),
        i64::MIN,
        i64::MAX,
    ];
    bound.as_i64().is_some_and(|b| ends.contains(&b)) || bound.as_u64() == Some(u64::MAX)
}

/// With `lengths`, `minLength`/`maxLength` (characters), and with `items`, `maxItems`
/// and `minItems` above 1, said in words instead.
pub(super) fn move_lengths(
    node: &mut Map<String, Value>,
    lengths: bool,
    items: bool,
    notes: &mut Vec<String>,
) {
    let is_array = node.get("type").and_then(Value::as_str) == Some("array");
    if (is_array && !items) || (!is_array && !lengths) {
        return;
    }
    let (min_key, max_key, unit) = if is_array {
        ("minItems", "maxItems", "items")
    } else {
        ("minLength", "maxLength", "characters")
    };
    let mut min = node.get(min_key).and_then(Value::as_u64);
    // A minItems of 0 or 1 is kept: Anthropic's strict mode takes those.
    if is_array && min.is_some_and(|m| m <= 1) {
        min = None;
    }
    let max = node.get(max_key).and_then(Value::as_u64);
    if min.is_some() {
        node.remove(min_key);
    }
    if max.is_some() {
        node.remove(max_key);
    }
    // "1 character", "2 characters".
    let unit = |n: u64| {
        if n == 1 {
            &unit[..unit.len() - 1]
        } else {
            unit
        }
    };
    let text = match (min, max) {
        (Some(a), Some(b)) if a == b => format!("Exactly {a} {}.", unit(a)),
        (Some(a), Some(b)) => format!("From {a} to {b} {}.", unit(b)),
        (Some(a), None) => format!("At least {a} {}.", unit(a)),
        (None, Some(b)) => format!("At most {b} {}.", unit(b)),
        (None, None) => return,
    };
    notes.push(text);
}

pub(super) fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
