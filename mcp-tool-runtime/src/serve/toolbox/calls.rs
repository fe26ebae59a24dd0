//! A `tools/call` answered by a [`Toolbox`]: the tool found by its name, its route run,
//! the answer settled; and the JSON-RPC errors of a call no tool can answer.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::Toolbox;
use crate::ask::{Answer, Reach};
use crate::caller::Caller;
use crate::context::Context;
use crate::describe::profile::SchemaProfile;
use crate::result::echo;
use crate::result::{CallToolResult, ToolError};
use crate::serve::call::{Routed, Setup};
use crate::serve::progress::Signals;
use crate::serve::settings::{Settings, Started};
use crate::text::suggest;

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Answers `tools/call` for the tool `name`. `arguments` is `Value::Null` when the
    /// request has none (read as `{}`); they are taken by value, as a server receives
    /// them, and moved into the tool's struct.
    ///
    /// Every failure of the call is an `Ok` result with `is_error` set; the `Err` is a
    /// protocol error only: an unknown tool, or arguments that are not an object.
    ///
    /// This call comes from a client that cannot ask its user: a tool with `confirm` is
    /// refused (unless `unconfirmed = "run"`), and an asked field that is missing or
    /// wrong is a validation error. [`Toolbox::call_reaching`] is the call of a client
    /// that can ask.
    pub async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, CallError> {
        self.call_for(self.settings.profile, name, arguments).await
    }

    /// [`Toolbox::call`] from a client that was given the schemas of `profile`.
    pub async fn call_for(
        &self,
        profile: SchemaProfile,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, CallError> {
        let answer = self.call_reaching(profile, name, arguments, Reach::Nobody);
        Ok(completed(name, answer.await?))
    }

    /// [`Toolbox::call_for`] from a client that can ask its user as `reach` says: the
    /// call may end with questions for the user ([`Answer::InputRequired`], protocol
    /// 2026-07-28), or ask and wait ([`Reach::Live`], 2025-11-25). What a transport
    /// calls; the rmcp adapter (feature `rmcp`) does.
    pub async fn call_reaching(
        &self,
        profile: SchemaProfile,
        name: &str,
        arguments: Value,
        reach: Reach,
    ) -> Result<Answer, CallError> {
        self.call_reaching_as(None, profile, name, arguments, reach)
            .await
    }

    /// [`Toolbox::call_reaching`] by `caller`, as the transport verified it (`None`:
    /// nobody verified one; see [`Toolbox::unverified_calls`]): the tool's scopes are
    /// checked against the caller's before its arguments are read, and a handler that
    /// takes a [`Caller`] gets it.
    pub async fn call_reaching_as(
        &self,
        caller: Option<&Caller>,
        profile: SchemaProfile,
        name: &str,
        arguments: Value,
        reach: Reach,
    ) -> Result<Answer, CallError> {
        let routed = self.call_routed(
            caller,
            profile,
            name,
            arguments,
            reach,
            None,
            Signals::default(),
        );
        match routed.await? {
            Routed::Now(answer) => Ok(answer),
            // Not deferred, so never here: a panic, as a call within its request says it.
            Routed::Later(later) => Ok(later.await.unwrap_or_else(|_| {
                let error = crate::serve::output::internal_failure(name, Default::default());
                let error = error.for_call(name.to_owned(), Value::Object(Default::default()));
                Answer::Complete(error.into_call_result())
            })),
        }
    }

    /// [`Toolbox::call_reaching_as`], that becomes a task (`defer`, through which its
    /// handler asks its user) once the arguments pass: its answer is then the rest of
    /// the call, settled as any answer is; `signals`, what its request signals to the
    /// handler (see [`Signals`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn call_routed(
        &self,
        caller: Option<&Caller>,
        profile: SchemaProfile,
        name: &str,
        arguments: Value,
        reach: Reach,
        defer: Option<Arc<dyn crate::ask::Elicit>>,
        signals: Signals,
    ) -> Result<Routed, CallError> {
        let started = Started::now(name, caller.map(Caller::subject));
        let Some(&i) = self.index.get(name) else {
            let error = self.unknown_tool(name, caller);
            started.rejected("unknown_tool", error.message());
            return Err(error);
        };
        let setup = Setup {
            context: self.settings.context.clone().unwrap_or_else(Context::now),
            profile,
            repair: self.settings.repair,
            values_shown: self.settings.echo_values,
            reach,
            sealing: Arc::clone(&self.sealing),
            show_unexpected: self.settings.show_unexpected,
            sorting: Arc::clone(&self.settings.sorting),
            caller: caller.cloned(),
            unverified: self.unverified.clone(),
            defer,
            signals,
        };
        let result = self.routes[i](&self.state, arguments, setup)
            .await
            .map_err(|error| CallError::MalformedRequest {
                message: error.message().to_owned(),
            });
        match result {
            Ok(Routed::Now(mut answer)) => {
                settle(&self.settings, &started, &mut answer);
                Ok(Routed::Now(answer))
            }
            Ok(Routed::Later(later)) => {
                let settings = self.settings.clone();
                Ok(Routed::Later(Box::pin(async move {
                    let mut answer = later.await?;
                    settle(&settings, &started, &mut answer);
                    Ok(answer)
                })))
            }
            Err(error) => {
                started.rejected("malformed_request", error.message());
                Err(error)
            }
        }
    }

    /// Answers the `params` of a `tools/call` request as received:
    /// `{"name": ..., "arguments": {...}}`. A `params` without a string `name` is a
    /// malformed request.
    pub async fn call_request(&self, mut params: Value) -> Result<CallToolResult, CallError> {
        let arguments = params.get_mut("arguments").map_or(Value::Null, Value::take);
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err(CallError::MalformedRequest {
                message: malformed_call(&params).unwrap_or_default(),
            });
        };
        self.call(name, arguments).await
    }

    /// The error of a call of `name`, which no tool has, by `caller`: the names it
    /// suggests and lists are only those of the tools this caller is listed, so that
    /// the error tells no more than `tools/list` does.
    fn unknown_tool(&self, name: &str, caller: Option<&Caller>) -> CallError {
        // In registration order, so that a tie always suggests the same tool.
        let names: Vec<&str> = (self.list().iter().enumerate())
            .filter(|(i, _)| self.permits(*i, caller))
            .map(|(_, t)| t.name.as_str())
            .collect();
        CallError::UnknownTool {
            name: name.chars().take(200).collect(),
            message: unknown_tool_message(name, &names),
        }
    }
}

/// Stamps `answer` and emits the call's event.
fn settle(settings: &Settings, started: &Started, answer: &mut Answer) {
    match answer {
        Answer::Complete(answer) => settings.settle(
            started,
            answer.is_error,
            answer.structured_content.as_mut(),
            &mut answer.meta,
        ),
        Answer::InputRequired(asked) => started.waiting(asked.input_requests.keys()),
    }
}

/// The answer of a call from a client that cannot ask its user: such a call puts no
/// question; were one put, the model would be told the user cannot be asked, never the
/// question's state.
pub(crate) fn completed(name: &str, answer: Answer) -> CallToolResult {
    match answer {
        Answer::Complete(result) => result,
        Answer::InputRequired(_) => ToolError::from(crate::ask::Unanswered::cannot(name))
            .for_call(name.to_owned(), Value::Object(Default::default()))
            .into_call_result(),
    }
}

/// What is wrong with the `params` of a `tools/call`, if they are not
/// `{"name": string, "arguments": object}` (`arguments` may be absent or `null`).
pub(crate) fn malformed_call(params: &Value) -> Option<String> {
    let Value::Object(params) = params else {
        return Some("tools/call needs params {\"name\": string, \"arguments\": object}".into());
    };
    let Some(Value::String(name)) = params.get("name") else {
        return Some("tools/call needs a string `name`: the name of the tool to call.".into());
    };
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(arguments) => Some(crate::describe::read::not_an_object(name, arguments)),
    }
}

/// The answer to a call of a tool no one registered: the name as sent (cut short), the
/// nearest name if one is near, and the names when there are at most 20.
pub(crate) fn unknown_tool_message(name: &str, names: &[&str]) -> String {
    let shown = echo::truncate(&Value::from(name), echo::RECEIVED);
    let mut message = format!("Unknown tool: {shown}.");
    if let Some(near) = suggest::nearest(name, names.iter().copied()) {
        message.push(' ');
        suggest::push_did_you_mean(&mut message, near);
    }
    if names.len() <= 20 {
        message.push_str(&format!(" Tools: {}.", names.join(", ")));
    }
    message
}

/// A `tools/call` that gets a JSON-RPC error rather than a result: the request itself is
/// wrong, so no tool ran. Code -32602 (invalid params) for both.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallError {
    /// No tool has this name.
    UnknownTool {
        /// The name asked for (at most 200 characters of it).
        name: String,
        /// The message, naming the tool and the nearest registered name.
        message: String,
    },
    /// The request is not a `tools/call` request: no name, or arguments that are not an
    /// object.
    MalformedRequest {
        /// What is wrong.
        message: String,
    },
}

impl CallError {
    /// The JSON-RPC error code: -32602.
    pub fn code(&self) -> i32 {
        -32602
    }

    /// The JSON-RPC error message.
    pub fn message(&self) -> &str {
        match self {
            CallError::UnknownTool { message, .. } | CallError::MalformedRequest { message } => {
                message
            }
        }
    }

    /// The JSON-RPC error object: `{"code": -32602, "message": ...}`.
    pub fn to_jsonrpc_error(&self) -> Value {
        serde_json::json!({ "code": self.code(), "message": self.message() })
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CallError {}
