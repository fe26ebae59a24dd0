//! Asking the user for an rmcp `#[tool]` method served through
//! [`structured`](super::structured::structured), as a `Toolbox` asks: the asked fields
//! missing or wrong, then the confirmation, under both protocol versions, a round run
//! at most once. rmcp's extractors are synchronous and cannot ask; so [`Parameters`]
//! stops the method's first call, leaving its arguments and its tool's description for
//! `structured`, which asks (`serve::call::prepare`, the toolbox's own step) and calls
//! the method again with the user's answers in.
//!
//! [`Parameters`]: super::extractor::Parameters

use std::borrow::Cow;

use rmcp::ErrorData;
use rmcp::handler::server::tool::ToolCallContext;
#[cfg(feature = "ask")]
use rmcp::model::InputRequiredResult;
use rmcp::model::{CallToolResponse, JsonObject};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::convert::{to_rmcp_input_required, to_rmcp_result};
use crate::ask::{Answer, Begun, Rounds, Session};
use crate::context::Context;
use crate::describe::ToolSpec;
use crate::describe::read::Passed;
use crate::result::ToolError;
use crate::result::echo::Echoed;
use crate::serve::call::{Prepared, Ready, named, prepare};

use super::mailbox::Stage;

/// What a method's second call needs of its first.
pub(super) struct Again<'s, S> {
    pub request_context: RequestContext<RoleServer>,
    pub service: &'s S,
    pub name: Cow<'static, str>,
    pub input_responses: Option<rmcp::model::InputResponses>,
    pub request_state: Option<String>,
}

impl<'s, S> Again<'s, S> {
    pub fn of(context: &ToolCallContext<'s, S>) -> Self {
        Again {
            request_context: context.request_context.clone(),
            service: context.service,
            name: context.name.clone(),
            input_responses: context.input_responses.clone(),
            request_state: context.request_state.clone(),
        }
    }

    /// The context of the second call, with these arguments (the user's answers in), and
    /// what `attempted_query` shows of the call: what the model sent.
    pub fn context(&self, arguments: JsonObject, sent: Option<Echoed>) -> ToolCallContext<'s, S> {
        let mut request_context = self.request_context.clone();
        request_context.extensions.insert(Stage::Asked);
        if let Some(sent) = sent {
            request_context.extensions.insert(sent);
        }
        let params =
            rmcp::model::CallToolRequestParams::new(self.name.clone()).with_arguments(arguments);
        ToolCallContext::new(self.service, params, request_context)
    }
}

/// How `tool` (whose method reads the tool `spec`) answers once its user is asked:
/// `call` runs the method with the answers in.
#[allow(clippy::too_many_arguments)]
pub(super) async fn ask_then_call<'s, S, F, Fut>(
    spec: &'static ToolSpec,
    arguments: Value,
    again: Again<'s, S>,
    rounds: &Rounds,
    ready: Ready,
    call: F,
) -> Result<CallToolResponse, ErrorData>
where
    F: FnOnce(ToolCallContext<'s, S>) -> Fut,
    Fut: Future<Output = Result<CallToolResponse, ErrorData>>,
{
    let tool = again.name.clone().into_owned();
    let reach = super::peer::reach(
        &again.request_context,
        again.input_responses.clone(),
        again.request_state.clone(),
        rounds.0.lifetime,
    );
    let caller = super::peer::caller_of(&again.request_context);
    let subject = caller.as_ref().map(crate::caller::Caller::subject);
    let (outcome, claimed) =
        match Session::start(spec.name, &arguments, reach, &rounds.0, true, subject).await {
            #[cfg(feature = "ask")]
            Begun::Replay(json) => return replay(&json),
            Begun::Stop(error, claimed) => {
                let shown = || {
                    let values_shown = ready.reading.values_shown;
                    spec.attempted_arguments(&tool, &arguments, &ready.context, values_shown)
                };
                (Err(named(error, &tool, shown)), claimed)
            }
            Begun::Go(session, claimed) => {
                let outcome = match prepare(spec, &tool, &session, arguments, &ready).await {
                    Ok(Prepared::Asking(Answer::InputRequired(asked))) => {
                        Ok(to_rmcp_input_required(asked)?)
                    }
                    Ok(Prepared::Asking(Answer::Complete(result))) => {
                        Ok(to_rmcp_result(result).into())
                    }
                    Ok(Prepared::Ready(Passed {
                        arguments: Value::Object(checked),
                        echoed,
                        ..
                    })) => Ok(call(again.context(checked, echoed)).await?),
                    Ok(Prepared::Ready(..)) => Err(ToolError::malformed_request(
                        "tools/call needs its arguments as an object.",
                    )),
                    Err(error) => Err(error),
                };
                (outcome, claimed)
            }
        };
    let response = match outcome {
        Ok(response) => response,
        Err(error) if error.is_malformed_request() => {
            return Err(ErrorData::invalid_params(error.message().to_owned(), None));
        }
        // Each error says which call failed where it is made.
        Err(error) => to_rmcp_result(error.into_call_result()).into(),
    };
    if let Some(claimed) = claimed {
        let json = match &response {
            CallToolResponse::Complete(result) => serde_json::to_string(result),
            CallToolResponse::InputRequired(asked) => serde_json::to_string(asked),
            _ => Ok(String::new()),
        };
        claimed.keep_json(json.unwrap_or_default()).await;
    }
    Ok(response)
}

/// A round's first answer, as it was kept, given again.
#[cfg(feature = "ask")]
fn replay(json: &str) -> Result<CallToolResponse, ErrorData> {
    let value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    if value.get("resultType").and_then(Value::as_str) == Some("input_required")
        && let Ok(asked) = serde_json::from_value::<InputRequiredResult>(value.clone())
    {
        return Ok(asked.into());
    }
    match serde_json::from_value::<rmcp::model::CallToolResult>(value) {
        Ok(result) => Ok(result.into()),
        Err(_) => Ok(to_rmcp_result(crate::ask::unreadable_replay().into_call_result()).into()),
    }
}

/// The context of a call now, for the checks of its answers read as `reading` says,
/// by `caller`.
pub(super) fn ready(
    reading: crate::describe::read::Reading,
    caller: Option<crate::caller::Caller>,
) -> Ready {
    Ready {
        context: Context::now(),
        reading,
        caller,
        // An rmcp method takes its request's signals by rmcp's own extractors.
        signals: Default::default(),
    }
}
