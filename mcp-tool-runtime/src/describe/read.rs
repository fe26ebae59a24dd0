//! The one route from arguments to a struct: check them all in place, then move them
//! into the struct, or keep them in the error.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::profile::SchemaProfile;
use super::spec::Judge;
use super::spec::ToolSpec;
use super::traits::McpTool;
use crate::check::{Checker, Listed, Location};
use crate::context::Context;
use crate::result::Repair;
use crate::result::echo;
use crate::result::{ToolError, Violation};

impl ToolSpec {
    /// Checks `arguments` and reads them into `T`. See
    /// [`McpTool::from_arguments`].
    pub fn from_arguments<T: McpTool>(
        &'static self,
        arguments: Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Result<T, ToolError> {
        self.from_arguments_as(self.name, arguments, context, profile)
    }

    /// [`ToolSpec::from_arguments`] for a tool the client knows as `tool`: an rmcp
    /// `#[tool]` method is named after the method, not the struct.
    ///
    /// The arguments are checked in place, then moved into `T`: serde takes each string
    /// as it is, copying nothing. A failed check keeps them, as they came, in the error
    /// (for `attempted_query`, redacted and cut when written out).
    pub fn from_arguments_as<T: McpTool>(
        &'static self,
        tool: &str,
        arguments: Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Result<T, ToolError> {
        let reading = Reading {
            profile,
            repair: false,
            values_shown: true,
        };
        let passed = self.checked(tool, arguments, context, reading, false)?;
        self.deserialize(tool, passed.arguments, true)
    }

    /// What `attempted_query` shows of `arguments` for a call that fails before they
    /// pass the checks for another reason (a round refused or ended): cut short, and
    /// with what the checks find sensitive hidden, as for an argument error. An error's
    /// path only: the checks run for what they find, not for what they say. Without
    /// `values_shown` (see [`Reading`]), nothing of them: [`echo::REDACTED`].
    pub(crate) fn attempted_arguments(
        &'static self,
        tool: &str,
        arguments: &Value,
        context: &Context,
        values_shown: bool,
    ) -> Value {
        match arguments {
            _ if !values_shown => return Value::from(echo::REDACTED),
            Value::Object(_) => {}
            Value::Null => return Value::Object(Map::new()),
            other => return echo::truncate(other, echo::ARGUMENTS),
        }
        let mut cx = Checker::for_tool(context, tool);
        if self.is_recursive() {
            cx.enter_spec(self.id());
        }
        self.check(arguments, &mut cx);
        echo::hiding(arguments, cx.finish().hidden(), echo::ARGUMENTS)
    }

    /// Whether the walk takes `arguments` whole, so that the full check does not run:
    /// what `from_arguments` does first. For the tests, which hold the walk to taking
    /// the valid calls it was made for (a walk that declines gives the same answers,
    /// only slower) and to declining those the full check has something to record for.
    #[doc(hidden)]
    pub fn walk_takes(
        &'static self,
        arguments: &Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> bool {
        self.walk_arguments(arguments, &judge(context, profile))
            .is_ok()
    }

    /// The fields of `arguments` the walk found to pass when it did not take them
    /// whole, by their names on the wire, which the full check then skips; `None` when
    /// it took them. For the tests, as [`ToolSpec::walk_takes`].
    #[doc(hidden)]
    pub fn walk_passed(
        &'static self,
        arguments: &Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Option<Vec<&'static str>> {
        let passed = self
            .walk_arguments(arguments, &judge(context, profile))
            .err()?;
        let fields = self.fields.iter().enumerate();
        Some(
            fields
                .filter(|(i, _)| passed & Checker::field_bit(*i) != 0)
                .map(|(_, field)| field.name)
                .collect(),
        )
    }

    /// Checks `arguments`; if they pass, makes them what serde reads (the repairs put in
    /// place, integral floats as integers, `null`s meaning "left out" taken out). The
    /// same for every tool: only [`ToolSpec::deserialize`] is of `T`.
    ///
    /// Where `echo`, the arguments that pass are also copied, cut short and with what
    /// the checks found sensitive hidden, for the `attempted_query` of a handler's
    /// error: the one copy a call that succeeds makes, since the arguments then move
    /// into the handler's type. What is hidden is what the checks found, for argument
    /// errors and handler errors alike; without [`Reading::values_shown`], all of them.
    pub(crate) fn checked(
        &'static self,
        tool: &str,
        arguments: Value,
        context: &Context,
        reading: Reading,
        echo: bool,
    ) -> Result<Passed, ToolError> {
        let Reading {
            profile,
            repair,
            values_shown,
        } = reading;
        let mut arguments = match arguments {
            Value::Object(_) => arguments,
            Value::Null => Value::Object(Map::new()),
            other => {
                let message = not_an_object(tool, &other);
                // Kept by the error, so that a value of any depth is dropped safely.
                return Err(ToolError::malformed_request(message).for_call(tool.to_owned(), other));
            }
        };
        // Most arguments are valid: a walk that records nothing says so, or hands them
        // to the full check.
        let judge = judge(context, profile);
        let walked = self.walk_arguments(&arguments, &judge);
        if walked.is_ok() {
            let hidden = if values_shown {
                Vec::new()
            } else {
                vec![Location::root()]
            };
            let echoed = echo.then(|| echo::Echoed::of(&arguments, &hidden));
            return Ok(Passed {
                arguments,
                repairs: Vec::new(),
                echoed,
                hidden,
            });
        }
        let mut cx = Checker::for_tool(context, tool);
        if !values_shown {
            cx.withhold_values();
        }
        if self.is_recursive() {
            cx.enter_spec(self.id());
        }
        if judge.nulls_are_absent {
            cx.read_nulls_as_absent();
        }
        cx.skip_passed(walked.err().unwrap_or_default());
        if repair {
            cx.repair_mistakes();
        }
        if self.asking.is_some_and(|asking| !asking.fields.is_empty()) {
            cx.keep_fields();
        }
        self.check(&arguments, &mut cx);
        let checked = cx.finish();
        if checked.is_invalid() {
            let (listed, repairs) = checked.listed();
            return Err(self.invalid(tool, listed, arguments).with_repairs(repairs));
        }
        // As the arguments came, before any repair.
        let echoed = echo.then(|| echo::Echoed::of(&arguments, checked.hidden()));
        let applied = checked.apply(&mut arguments);
        if !applied.refused.is_empty() {
            let listed = Listed {
                fields: vec![None; applied.refused.len()],
                violations: applied.refused,
                hidden: applied.hidden,
                ..Listed::default()
            };
            return Err(self
                .invalid(tool, listed, arguments)
                .with_repairs(applied.repairs));
        }
        Ok(Passed {
            arguments,
            repairs: applied.repairs,
            echoed,
            hidden: applied.hidden,
        })
    }

    /// Reads checked arguments into `T`; serde's refusal is said where `values_shown`.
    pub(crate) fn deserialize<T: McpTool>(
        &'static self,
        tool: &str,
        arguments: Value,
        values_shown: bool,
    ) -> Result<T, ToolError> {
        T::deserialize(arguments).map_err(|e| self.unread(tool, &e, values_shown))
    }

    /// The checks passed and serde still refused: a type whose Deserialize does more
    /// than its schema says. Says what serde said, unless values are not shown (serde's
    /// words quote the value: `invalid value: string "..."`). The arguments went to
    /// serde and are not kept.
    #[cold]
    fn unread(
        &'static self,
        tool: &str,
        error: &dyn std::fmt::Display,
        values_shown: bool,
    ) -> ToolError {
        let message = if values_shown {
            format!("could not be read: {error}.")
        } else {
            String::from("could not be read (the reason is not shown).")
        };
        let violation = Violation {
            path: String::new(),
            rule: Cow::Borrowed("type"),
            message,
            expected: Value::String("arguments matching the input schema".into()),
            received: None,
        };
        let listed = Listed {
            violations: vec![violation],
            ..Listed::default()
        };
        self.invalid(tool, listed, Value::Null)
    }

    fn invalid(&'static self, tool: &str, listed: Listed, arguments: Value) -> ToolError {
        let tool = if tool == self.name {
            Cow::Borrowed(self.name)
        } else {
            Cow::Owned(tool.to_owned())
        };
        ToolError::invalid_arguments(
            tool,
            listed.violations,
            listed.fields,
            listed.omitted,
            arguments,
            listed.hidden,
        )
    }
}

/// How a served call's arguments are read: the server's settings that bear on it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    /// The profile of the schema the client was given.
    pub profile: SchemaProfile,
    /// Known client mistakes are repaired (see `Toolbox::repairs`).
    pub repair: bool,
    /// What came may be shown, short, in an error (see `Toolbox::echo_values`); else
    /// every value is treated as a sensitive one, and the arguments are hidden whole.
    pub values_shown: bool,
}

/// Arguments that passed the checks (see [`ToolSpec::checked`]).
#[derive(Debug)]
pub(crate) struct Passed {
    /// As serde reads them.
    pub arguments: Value,
    /// The repairs made.
    pub repairs: Vec<Repair>,
    /// What `attempted_query` shows of them, where asked for.
    pub echoed: Option<echo::Echoed>,
    /// Where the checks found sensitive values, in the arguments as they came.
    pub hidden: Vec<Location>,
}

/// What a request whose `arguments` are not an object (nor absent) is told: the tool's
/// name as sent (cut short; it need not be a tool's), and what came.
pub(crate) fn not_an_object(tool: &str, arguments: &Value) -> String {
    let tool = match crate::text::cut_at(tool, echo::RECEIVED.chars) {
        Some(cut) => format!("{}…", &tool[..cut]),
        None => tool.to_owned(),
    };
    format!(
        "{tool}: `arguments` must be a JSON object; got {}.",
        echo::json_type(arguments)
    )
}

/// The judge of arguments written against `profile`'s schema, dates judged in
/// `context`.
fn judge(context: &Context, profile: SchemaProfile) -> Judge<'_> {
    Judge {
        context,
        nulls_are_absent: profile.rules().null_is_absent,
    }
}
