//! A field's own reading, written by the author (`#[serde(deserialize_with)]`, or
//! `#[mcp_tool(lenient)]`: its type's own `Deserialize`), and a field's reshaped schema:
//! what is judged of a field's value after, or instead of, its declared type's checks.
//! The one place the runtime takes more than the schema says is here: a value the
//! declared type refuses is the author's reading's to take, as the server took it
//! before it was derived.

use std::borrow::Cow;

use serde_json::Value;

use super::spec::Field;
use crate::check::{Checker, Report};
use crate::rules::Rules;

/// Whether the field's own reading decided `value` (then nothing more is judged): where
/// the author wrote it and the value is not of the field's declared type (its rules,
/// written for a value of that type, are judged on values of it). The reading's refusal
/// is reported at the field, with what the schema asks.
pub(super) fn taken_by_reading(field: &Field, value: &Value, cx: &mut Checker<'_>) -> bool {
    let Some(reads) = field.reads else {
        return false;
    };
    let problems = cx.trial_messages(|cx| {
        if field.required {
            (field.ty.check)(value, Rules::NONE, cx)
        } else {
            cx.optional(|cx| (field.ty.check)(value, Rules::NONE, cx))
        }
    });
    if problems.is_empty() {
        return false;
    }
    if let Err(refusal) = reads(value) {
        refused(&refusal, &problems, value, cx);
    }
    true
}

/// Judges the value against the field's reshaped schema, and records the field's own
/// reading (`deserialize_with`), if its checks found nothing.
pub(super) fn read_later(field: &Field, value: &Value, before: usize, cx: &mut Checker<'_>) {
    // What `extend`/`transform` added to the schema, judged once the field's own
    // checks found nothing (the same keywords judged again find nothing new).
    if let Some(reshape) = &field.reshape
        && cx.count() == before
        && (!value.is_null() || field.required)
    {
        reshape.judge(field, value, cx);
    }
    if let Some(reads) = field.reads
        && cx.count() == before
    {
        cx.convert_later("deserialize_with", reads);
    }
}

/// The refusal of a field's own reading, of a value its declared type's checks refuse
/// too (`problems`, said after it: what the schema asks).
fn refused(refusal: &str, problems: &[String], value: &Value, cx: &mut Checker<'_>) {
    let mut detail = String::from("As advertised, it ");
    detail.push_str(&problems.join("; and it "));
    if !detail.ends_with('.') {
        detail.push('.');
    }
    // The reading's own words, made at run time, may hold the value: not said of a
    // value not shown.
    let expectation = if cx.is_sensitive() {
        Cow::Borrowed("was refused by the field's reading (its reason is not shown)")
    } else {
        Cow::Owned(format!(
            "was refused by the field's reading: {}",
            refusal.trim_end_matches('.')
        ))
    };
    cx.report(Report {
        rule: Cow::Borrowed("deserialize_with"),
        expectation,
        expected: Value::Null,
        received: Some(value),
        detail: Some(Cow::Owned(detail)),
        hint: None,
    });
}
