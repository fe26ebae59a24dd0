//! [`Parameters`], the drop-in for rmcp's extractor: an rmcp `#[tool]` method's
//! arguments, checked by `#[derive(McpTool)]` before the method runs.

use std::borrow::Cow;

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use serde_json::Value;

use super::mailbox::{
    ASKS, CHECKED, Mailbox, ReadSettings, Stage, attempted_arguments, extraction_error,
};
use crate::context::Context;
use crate::describe::McpTool;
use crate::describe::profile::SchemaProfile;
use crate::result::echo::Echoed;

/// The arguments of an rmcp `#[tool]` method, checked by `#[derive(McpTool)]` before
/// the method runs. A drop-in for rmcp's `Parameters`: same name (rmcp's macro finds the
/// parameter type by it), same shape, so `Parameters(args): Parameters<T>` reads as before.
///
/// Its schema is `T`'s derived `inputSchema`. A failed check reaches the client as an
/// `isError` result listing every violation, never as a JSON-RPC error; an argument
/// value that is not an object stays a JSON-RPC error (-32602). Dates are judged by the
/// system clock in the system's zone. A `T` that declares scopes
/// (`#[mcp_tool(scopes(...))]`) is refused, before its arguments are read, to a caller
/// without them all, and to a call without a verified caller unless the server's
/// operator said otherwise (`Structured::unverified_calls`).
#[derive(Debug, Clone)]
pub struct Parameters<T>(pub T);

impl<T: McpTool> schemars::JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(T::NAME)
    }

    fn inline_schema() -> bool {
        true
    }

    /// `T`'s input schema; a `T` that declares scopes also carries them under a key of
    /// this crate's, for `structured` and the HTTP server to read (rmcp's `#[tool]`
    /// macro builds a method's tool from this schema alone) and to take out before any
    /// list is sent.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let scopes = T::spec().scopes;
        crate::caller::declare(scopes);
        let mut schema = T::input_schema().clone();
        if let Value::Object(schema) = &mut schema {
            crate::caller::with_scopes_in_schema(schema, scopes);
            super::tasked::with_task_support_in_schema(schema, T::spec().task_support);
        }
        schemars::Schema::try_from(schema).unwrap_or_default()
    }
}

impl<'a, S, T: McpTool> FromContextPart<ToolCallContext<'a, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'a, S>) -> Result<Self, ErrorData> {
        let arguments = context.arguments.take().map_or(Value::Null, Value::Object);
        // The tool as the client called it: rmcp names a `#[tool]` method's tool after
        // the method (or its `name = "..."`), which need not be `T::NAME`.
        let tool = context.name();
        // Only serde's read is of `T`: the rest is one function for every tool.
        let checked = check(
            T::spec(),
            tool,
            arguments,
            &context.request_context.extensions,
        )?;
        let values_shown = checked.after.values_shown;
        let check_only = context.request_context.extensions.get::<Stage>() == Some(&Stage::Check);
        match T::spec().deserialize::<T>(tool, checked.arguments, values_shown) {
            // Checked before a task exists: the method runs in the task, called again.
            Ok(_) if check_only => checked
                .after
                .finish(tool)
                .and(Err(ErrorData::internal_error(CHECKED, None))),
            Ok(args) => checked.after.finish(tool).map(|()| Parameters(args)),
            Err(error) => Err(extraction_error(error, checked.after.mailbox.as_ref())),
        }
    }
}

/// Arguments [`check`] passed, as serde reads them, and what is left to do once read.
struct Checked {
    arguments: Value,
    after: AfterRead,
}

/// What [`Parameters`] does once the arguments are read: refuse a call that must be
/// confirmed, or post the repairs and the echo for `structured`.
struct AfterRead {
    /// What came may be shown in an error (see `Structured::echo_values`).
    values_shown: bool,
    unconfirmed: Option<String>,
    repairs: Vec<crate::result::Repair>,
    echoed: Option<Echoed>,
    sent: Option<Echoed>,
    mailbox: Option<Mailbox>,
}

/// The checks of [`Parameters`], the same for every tool: the arguments of `spec` as
/// the client called it `tool`, with the call's settings from `extensions`.
fn check(
    spec: &'static crate::describe::ToolSpec,
    tool: &str,
    arguments: Value,
    extensions: &rmcp::model::Extensions,
) -> Result<Checked, ErrorData> {
    let profile = extensions
        .get::<SchemaProfile>()
        .copied()
        .unwrap_or_default();
    let settings = extensions.get::<ReadSettings>();
    let reading = crate::describe::read::Reading {
        profile,
        repair: settings.is_none_or(|s| s.repair),
        values_shown: settings.is_none_or(|s| s.values_shown),
    };
    let mailbox = extensions.get::<Mailbox>().cloned();
    let stage = extensions.get::<Stage>().copied();
    // Who may call is decided before the arguments are read, by the scopes the tool's
    // own type declares: a refusal says nothing of them.
    if !spec.scopes.is_empty()
        && let Err(refused) = super::peer::admitted(tool, spec.scopes, extensions)
    {
        let refused = refused.for_call(tool.to_owned(), Value::Object(Default::default()));
        return Err(extraction_error(refused, mailbox.as_ref()));
    }
    // Under `structured`, a tool that asks its user stops its first call here:
    // `structured` asks, then calls again with the answers in. (Nothing asks in a
    // build without `ask`: the branch and what it reaches are left out of the binary.)
    if cfg!(feature = "ask")
        && matches!(stage, Some(Stage::First | Stage::Check))
        && spec.asking.is_some()
        && let Some(mailbox) = &mailbox
        && let Ok(mut posted) = mailbox.0.lock()
    {
        posted.asks = Some((spec, arguments));
        return Err(ErrorData::internal_error(ASKS, None));
    }
    // Without `structured`, rmcp's `#[tool]` methods cannot ask the user: a tool
    // that must be confirmed is refused (or runs, if its author said so).
    let unconfirmed = spec
        .asking
        .filter(|_| cfg!(feature = "ask"))
        .and_then(|a| a.confirm.as_ref())
        .filter(|_| stage != Some(Stage::Asked))
        .filter(|c| {
            let caller = super::peer::admitted(tool, spec.scopes, extensions)
                .ok()
                .flatten();
            c.unconfirmed.refuses(caller.as_ref())
        })
        .map(|c| crate::ask::form::confirmation(c, &arguments));
    // Under `structured`, what `attempted_query` shows if the method fails: after
    // asking, what the model sent (taken before the user's answers went in).
    let sent = extensions.get::<Echoed>().cloned();
    let echo = (mailbox.is_some() && sent.is_none()) || unconfirmed.is_some();
    // The day `structured(..).in_context(..)` set, else the system clock's.
    let now;
    let context = match extensions.get::<Context>() {
        Some(context) => context,
        None => {
            now = Context::now();
            &now
        }
    };
    match spec.checked(tool, arguments, context, reading, echo) {
        Ok(passed) => Ok(Checked {
            arguments: passed.arguments,
            after: AfterRead {
                values_shown: reading.values_shown,
                unconfirmed,
                repairs: passed.repairs,
                echoed: passed.echoed,
                sent,
                mailbox,
            },
        }),
        Err(error) if error.is_malformed_request() => {
            Err(ErrorData::invalid_params(error.message().to_owned(), None))
        }
        Err(error) => Err(extraction_error(error, mailbox.as_ref())),
    }
}

impl AfterRead {
    /// The call refused if it must be confirmed; else the repairs and the echo posted
    /// for `structured`.
    fn finish(self, tool: &str) -> Result<(), ErrorData> {
        if let Some(message) = self.unconfirmed {
            let said = self.values_shown.then_some(message.as_str());
            let refused = crate::serve::call::needs_confirmation(said)
                .for_call(tool.to_owned(), attempted_arguments(self.echoed));
            return Err(extraction_error(refused, self.mailbox.as_ref()));
        }
        // Said in the result's `_meta` by `structured`, which reads the mailbox.
        if let Some(mailbox) = self.mailbox
            && let Ok(mut posted) = mailbox.0.lock()
        {
            posted.repairs.extend(self.repairs);
            posted.echoed = self.sent.or(self.echoed);
        }
        Ok(())
    }
}
