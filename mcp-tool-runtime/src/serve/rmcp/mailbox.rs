//! The mailbox between [`structured`](fn@super::structured)(fn@super::structured) and [`Parameters`](super::Parameters): rmcp calls a
//! `#[tool]` method through its own router, and the only way down to the method's
//! extractor and back is the request's extensions. `structured` puts its settings there
//! and a [`Mailbox`] for the call; `Parameters` reads the settings and posts what the
//! method's caller needs and rmcp's path would lose.
//!
//! | slot | written by | read by |
//! |---|---|---|
//! | `repairs` | `Parameters`, once the arguments passed its checks | `structured`, into the result's `_meta` |
//! | `echoed` | `Parameters`, once the arguments passed its checks: what the model sent (`Echoed` in the extensions, after asking) or else the arguments as checked | `structured`: the `attempted_query` of the method's own error, or of its panic |
//! | `asks` | `Parameters`, on the first call of a tool that asks its user ([`Stage::First`], or [`Stage::Check`]) | `structured`, which asks, then calls again with the answers in |
//! | `refused` | [`extraction_error`], when `Parameters` refuses the arguments, the caller (the tool's scopes) or a call not confirmed, and when `Caller` as a method's extractor refuses a call (`scoped.rs`) | [`restore`], which answers with the whole result in place of rmcp's text-only one |
//!
//! And in the extensions, written by `structured` (and by the asking rounds) and read by
//! `Parameters`: the [`SchemaProfile`](crate::SchemaProfile), the [`ReadSettings`], what a
//! call without a verified caller is served as (`Unverified`), the
//! [`Stage`], and the arguments as the model sent them (`Echoed`), taken before the
//! user's answers went in. Without `structured` nothing is in the extensions: the
//! defaults hold, and a refusal travels as rmcp's text-only result.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, ContentBlock, ErrorCode};
use serde_json::Value;

use super::convert::{RMCP_ARGUMENT_ERROR, to_rmcp_result};
use crate::result::echo::Echoed;
use crate::result::{Content, ToolError};

/// Where a call through `structured` is, for its [`Parameters`](super::Parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The first call: a tool that asks stops here, for `structured` to ask.
    First,
    /// Called again once the user answered: the checks run, the method too.
    Asked,
    /// A call that becomes a task, checked before the task exists: the checks run,
    /// and the method does not (it runs in the task, called again).
    Check,
}

/// The message of the error with which [`Parameters`](super::Parameters) stops a call checked before its
/// task exists (never sent: `structured` creates the task instead).
pub(crate) const CHECKED: &str = "mcp-tool: the arguments passed, the task comes next";

/// The message of the error with which [`Parameters`](super::Parameters) stops the first call of a tool
/// that asks (never sent: `structured` asks instead).
pub(crate) const ASKS: &str = "mcp-tool: the user is asked first";

/// How [`Parameters`](super::Parameters) reads the arguments: whether it repairs known client mistakes
/// (see [`Toolbox::repairs`](crate::Toolbox::repairs), set by [`Structured::repairs`](super::Structured::repairs)) and whether an error
/// may show what came (see [`Toolbox::echo_values`](crate::Toolbox::echo_values), set by
/// [`Structured::echo_values`](super::Structured::echo_values)); both on where nothing set them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReadSettings {
    pub(crate) repair: bool,
    pub(crate) values_shown: bool,
}

/// What [`Parameters`](super::Parameters) (or another extractor) learned in one call, for [`structured`](fn@super::structured):
/// the slots of the module's table.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mailbox(pub(crate) Arc<std::sync::Mutex<Posted>>);

#[derive(Debug, Default)]
pub(crate) struct Posted {
    pub(crate) repairs: Vec<crate::result::Repair>,
    pub(crate) echoed: Option<Echoed>,
    /// A tool that asks its user, and its arguments, for `structured` to ask.
    pub(crate) asks: Option<(&'static crate::describe::ToolSpec, Value)>,
    /// The whole result of the arguments' refusal, for `structured` to answer with.
    pub(crate) refused: Option<crate::result::CallToolResult>,
}

/// What `attempted_query` shows of a call's arguments, as [`Parameters`](super::Parameters) kept them.
pub(crate) fn attempted_arguments(echoed: Option<Echoed>) -> Value {
    echoed.as_ref().map(Echoed::value).unwrap_or_default()
}

/// The error a failed extraction returns: rmcp's router makes an `isError` text result of
/// it. Under [`structured`](fn@super::structured) the full result (its `structuredContent` too) waits in the
/// call's [`Mailbox`], where [`restore`] takes it: no copy of it travels through the error.
pub(crate) fn extraction_error(error: ToolError, mailbox: Option<&Mailbox>) -> ErrorData {
    let result = error.into_call_result();
    // The text once: the result's text block is the error's text.
    let text = result
        .content
        .iter()
        .map(|Content::Text { text }| text.as_str());
    let message = format!("{RMCP_ARGUMENT_ERROR}{}", text.collect::<String>());
    if let Some(mailbox) = mailbox
        && let Ok(mut posted) = mailbox.0.lock()
    {
        posted.refused = Some(result);
    }
    ErrorData::invalid_params(message, None)
}

/// Undoes [`extraction_error`]; other errors go the way rmcp's router sends them.
pub(crate) fn restore(error: ErrorData, mailbox: &Mailbox) -> Result<CallToolResponse, ErrorData> {
    if error.code != ErrorCode::INVALID_PARAMS {
        return Err(error);
    }
    if let Some(result) = mailbox.0.lock().ok().and_then(|mut l| l.refused.take()) {
        return Ok(to_rmcp_result(result).into());
    }
    if error.message.starts_with(RMCP_ARGUMENT_ERROR.trim_end()) {
        return Ok(
            rmcp::model::CallToolResult::error(vec![ContentBlock::text(error.message)]).into(),
        );
    }
    Err(error)
}
