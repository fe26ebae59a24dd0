//! The message writer: a violation's sentence for the model (the expectation, what
//! came, what to do), written once into room for all of it, and what it remembers
//! while the check goes on (the field's hint, the objects whose names were listed).

use std::borrow::Cow;

use serde_json::Value;

use super::Checker;
use super::path::Step;
use crate::result::Violation;
use crate::result::echo;

/// What a rule wanted and what came, for [`Checker::report`].
#[derive(Debug)]
pub(crate) struct Report<'v> {
    /// The rule's name on the wire.
    pub rule: Cow<'static, str>,
    /// The expectation, as the start of a sentence: "must be one of ...".
    pub expectation: Cow<'v, str>,
    /// The expectation, as data.
    pub expected: Value,
    /// What came, if anything did.
    pub received: Option<&'v Value>,
    /// More to say after what came: "Current date is 30/11/2026."
    pub detail: Option<Cow<'v, str>>,
    /// What to do, written by the tool's author.
    pub hint: Option<&'v str>,
}

impl Checker<'_> {
    /// Reports a value of the wrong JSON type; `expected` names the right one with its
    /// article: "a string", "an integer from 1 to 9".
    pub(crate) fn type_mismatch(&mut self, expected: &str, value: &Value) {
        let detail = if !value.is_null() {
            None
        } else if self.optional_at == Some(self.path.len) {
            Some(Cow::Owned(format!(
                "Leave it out to take its default, or send {expected}."
            )))
        } else {
            Some(Cow::Owned(format!(
                "It is required: send {expected}, not null."
            )))
        };
        self.report(Report {
            rule: Cow::Borrowed("type"),
            expectation: Cow::Owned(crate::text::expectation(&["must be ", expected])),
            expected: Value::String(expected.to_owned()),
            received: Some(value),
            detail,
            // A hint is written for its rules ("remove line breaks and tabs"): a value of
            // another type, or null, is told the type, which is what there is to fix.
            hint: None,
        });
    }

    /// Checks with `hint` as the hint of the field being checked (see
    /// [`Checker::field_hint`]); gives the one it replaced, for [`Checker::end_hint`].
    pub(crate) fn begin_hint(&mut self, hint: Option<&'static str>) -> Option<&'static str> {
        std::mem::replace(&mut self.field_hint, hint)
    }

    /// The author's hint on the field being checked, if it has one.
    pub(crate) fn field_hint(&self) -> Option<&'static str> {
        self.field_hint
    }

    /// Puts back the hint [`Checker::begin_hint`] replaced.
    pub(crate) fn end_hint(&mut self, outer: Option<&'static str>) {
        self.field_hint = outer;
    }

    /// True the first time it is asked for `object` (a struct's name) in this check:
    /// its argument names are listed once, not with every unknown name. A
    /// [trial](Checker::trial) forgets what it listed.
    pub(crate) fn first_listing(&mut self, object: &'static str) -> bool {
        if self.names_listed.contains(&object) {
            return false;
        }
        self.names_listed.push(object);
        true
    }

    /// Reports a violation at the current path.
    pub(crate) fn report(&mut self, report: Report<'_>) {
        // Past the cap a violation is only counted: 100 000 bad items cost no text.
        if self.is_full() {
            self.findings.omit();
            return;
        }
        let path = self.path();
        let short = match report.received {
            Some(value) if !self.is_sensitive() => Some(echo::truncate(value, echo::RECEIVED)),
            _ => None,
        };
        // The message is written once, into room for all of it.
        let received_len = match &short {
            Some(Value::String(s)) => s.len() + 2,
            Some(_) => 64,
            None => 48,
        };
        let rest = 8
            + received_len
            + report.detail.as_ref().map_or(0, |d| d.len() + 1)
            + report.hint.map_or(0, |h| h.len() + 1);
        // A rule's own expectation is written with room for the rest (see
        // `text::expectation`): the message goes on in it.
        let mut message = match report.expectation {
            Cow::Owned(mut text) => {
                text.truncate(text.trim_end_matches('.').len());
                text.reserve(rest);
                text
            }
            Cow::Borrowed(text) => {
                let text = text.trim_end_matches('.');
                let mut message = String::with_capacity(text.len() + rest);
                message.push_str(text);
                message
            }
        };
        let received = match report.received {
            None => None,
            Some(value) if self.is_sensitive() => {
                message.push_str("; got ");
                message.push_str(echo::json_type(value));
                message.push_str(if self.sensitive > 0 {
                    " (not shown: the field is sensitive)."
                } else {
                    " (not shown)."
                });
                None
            }
            Some(value) => {
                let short = short.unwrap_or(Value::Null);
                message.push_str("; got ");
                echo::describe_into(&mut message, value, &short);
                message.push('.');
                Some(short)
            }
        };
        if report.received.is_none() {
            message.push('.');
        }
        if let Some(detail) = report.detail {
            message.push(' ');
            message.push_str(&detail);
        }
        if let Some(hint) = report.hint {
            message.push(' ');
            message.push_str(hint);
        }
        let field = self.keep_fields.then(|| match self.path.iter().next() {
            Some(Step::Field(name)) => Some(*name),
            _ => None,
        });
        let violation = Violation {
            path,
            rule: report.rule,
            message,
            expected: report.expected,
            received,
        };
        self.findings.list(violation, field);
    }
}
