//! The answer of one route's call under [`structured`](super::structured::structured),
//! whether the call is answered in its request or in its task: the route called (a
//! panic answered), this crate's argument errors restored, the repairs said in `_meta`,
//! then the last step every result takes.

use rmcp::ErrorData;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::CallToolResponse;
use serde_json::Value;

use super::convert::{annotations, to_rmcp_result};
use super::mailbox::{Mailbox, attempted_arguments, restore};
use crate::serve::call::CatchUnwind;
use crate::serve::output::internal_failure;
use crate::serve::settings::{Settings, Started};

/// The route's answer, with this crate's argument errors restored and the repairs
/// said in `_meta`.
pub(super) async fn answer<S>(
    route: rmcp::handler::server::router::tool::ToolRoute<S>,
    context: ToolCallContext<'_, S>,
    mailbox: Mailbox,
    tool: String,
) -> Result<CallToolResponse, ErrorData> {
    // A method that panics gets the answer a toolbox's handler gets: the call is
    // answered (rmcp would let the request's task die unanswered), its internals
    // go to the log only.
    let annotations = route.attr.annotations.as_ref().map(annotations);
    let Ok(outcome) = CatchUnwind(Box::pin((route.call)(context))).await else {
        let annotations = annotations.unwrap_or(crate::describe::Annotations::NONE);
        let echoed = mailbox.0.lock().ok().and_then(|mut l| l.echoed.take());
        let error =
            internal_failure(&tool, annotations).for_call(tool, attempted_arguments(echoed));
        return Ok(to_rmcp_result(error.into_call_result()).into());
    };
    match outcome {
        Ok(CallToolResponse::Complete(mut result)) => {
            let (repairs, echoed) = mailbox
                .0
                .lock()
                .map(|mut l| (std::mem::take(&mut l.repairs), l.echoed.take()))
                .unwrap_or_default();
            // A method's own error says which call failed, as a toolbox's does.
            if result.is_error == Some(true)
                && let Some(Value::Object(structured)) = &mut result.structured_content
                && structured.get("attempted_query") == Some(&Value::Null)
            {
                structured.insert(
                    "attempted_query".into(),
                    serde_json::json!({"tool": tool, "arguments": attempted_arguments(echoed)}),
                );
            }
            if !repairs.is_empty() {
                let listed = serde_json::to_value(&repairs).unwrap_or(Value::Null);
                let meta = result.meta.get_or_insert_with(Default::default);
                meta.0.insert(crate::result::REPAIRS_KEY.into(), listed);
            }
            Ok(CallToolResponse::Complete(result))
        }
        Ok(response) => Ok(response),
        Err(error) => restore(error, &mailbox),
    }
}

/// The last step of an answer that is a result, as a `Toolbox`'s: the draft failure
/// object where asked, and the operator's event.
pub(super) fn settle(
    settings: &Settings,
    started: &Started,
    result: &mut rmcp::model::CallToolResult,
) {
    let mut meta = result.meta.take().map(|m| m.0);
    let is_error = result.is_error == Some(true);
    let structured = result.structured_content.as_mut();
    settings.settle(started, is_error, structured, &mut meta);
    result.meta = meta.map(rmcp::model::MetaObject);
}
