//! `future_date` and `past_date`: a date in a strftime format, after (or before) today
//! in the checker's `Context`. No JSON Schema keyword can say "after today": the
//! description says it, and the format's shape is the schema's `pattern` where it has one.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::strftime::{self, ISO_DATE};
use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::text::{self, concat};

/// `future_date(format = "...")` or `past_date(format = "...")`.
#[derive(Debug)]
pub struct Date {
    /// True for `future_date`: strictly after today; false: strictly before.
    pub future: bool,
    /// The strftime format the date is written in.
    pub format: &'static str,
    /// The value is a date and time of a typed date field (`DateTime`, `Timestamp`),
    /// written yyyy-mm-dd first: the rule judges that date, and the type's own schema
    /// says the rest.
    pub at_start: bool,
}

impl Date {
    /// The part of `s` that is the date: all of it, or its first ten characters for a
    /// date-time (`at_start`).
    fn written<'s>(&self, s: &'s str) -> &'s str {
        match (self.at_start, s.get(..10)) {
            (true, Some(date)) => date,
            _ => s,
        }
    }

    /// A date read, on the rule's side of `today`.
    fn on_its_side(&self, parsed: Option<jiff::civil::Date>, today: jiff::civil::Date) -> bool {
        parsed.is_some_and(|d| (self.future && d > today) || (!self.future && d < today))
    }
}

impl RuleKind for Date {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        if self.at_start {
            notes.push(format!(
                "Must be on a date {} the current date.",
                if self.future { "after" } else { "before" }
            ));
            return;
        }
        if self.format == ISO_DATE {
            schema.insert("format".into(), "date".into());
        }
        // The shape, for clients and models that read keywords, not prose (beside a
        // `regex` rule's own pattern, if any: both hold).
        if let Some(pattern) = strftime::pattern(self.format) {
            schema.insert("pattern".into(), pattern.into());
        }
        notes.push(format!(
            "Must be a date {} the current date, written {}.",
            if self.future { "after" } else { "before" },
            strftime::human_format(self.format)
        ));
    }

    fn holds(&self, value: &Value, context: &crate::context::Context) -> bool {
        let Value::String(s) = value else {
            return true;
        };
        let Some(today) = context.known_today() else {
            return false;
        };
        self.on_its_side(strftime::parse(self.format, self.written(s)), today)
    }

    fn check(&self, value: &Value, cx: &Checker<'_>) -> Option<Failure> {
        let Value::String(s) = value else {
            return None;
        };
        let today = cx.context().today();
        let written = self.written(s);
        let parsed = strftime::parse(self.format, written);
        // The success path allocates nothing: the texts are written only for a failure.
        if self.on_its_side(parsed, today) {
            return None;
        }
        let rule = if self.future {
            "future_date"
        } else {
            "past_date"
        };
        let (word, side) = if self.future {
            ("future", "after")
        } else {
            ("past", "before")
        };
        // "a date after 30/11/2026 (dd/mm/yyyy)": the date and the format are written
        // once, here, and the other texts take them from it.
        let mut expected = String::with_capacity(32 + 3 * self.format.len());
        expected.push_str("a date ");
        expected.push_str(side);
        expected.push(' ');
        let today_at = expected.len();
        strftime::push_date(&mut expected, self.format, today);
        let today_text = today_at..expected.len();
        expected.push_str(" (");
        let human_at = expected.len();
        strftime::push_human_format(&mut expected, self.format);
        let human = human_at..expected.len();
        expected.push(')');
        let current = |before: &str| {
            concat(&[
                before,
                "Current date is ",
                &expected[today_text.clone()],
                ".",
            ])
        };
        let (expectation, detail) = match parsed {
            // Written as the format says, yet no day of the calendar (2026-02-30).
            None if strftime::has_shape(self.format, written) => (
                Cow::Borrowed("must be a real date"),
                current("There is no such day in the calendar. "),
            ),
            None => (
                Cow::Owned(text::expectation(&[
                    "must be a date written ",
                    &expected[human],
                ])),
                current(""),
            ),
            Some(_) => (
                Cow::Owned(text::expectation(&[
                    "must be a date in the ",
                    word,
                    ", as ",
                    &expected[human],
                ])),
                current(""),
            ),
        };
        let failure = Failure::new(rule, expectation, Value::String(expected)).with_detail(detail);
        Some(failure)
    }
}
