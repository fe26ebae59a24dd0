//! What the peer of a call served by rmcp can take (feature `rmcp`): any JSON value as
//! structured content (2026-07-28), and questions for its user: input-required rounds
//! (2026-07-28), `elicitation/create` within the call (2025-11-25, a client that
//! declared form elicitation), or none; who it is, and who calls through it; what its
//! request signals (its progress token, its cancellation).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{RequestContext, RoleServer};
#[cfg(feature = "ask")]
use serde_json::Value;

#[cfg(feature = "ask")]
use crate::ask::Elicit;
use crate::ask::Reach;
use crate::caller::{Caller, Unverified};
use crate::serve::progress::{Follower, Signals, Step};

/// How this call can reach the client's user: by input-required rounds (2026-07-28), by
/// a request over the connection (2025-11-25, a client that declared form
/// elicitation), or not at all.
#[cfg_attr(not(feature = "ask"), allow(unused_variables))]
pub(crate) fn reach(
    context: &RequestContext<RoleServer>,
    input_responses: Option<rmcp::model::InputResponses>,
    request_state: Option<String>,
    within: Duration,
) -> Reach {
    // Without the `ask` feature nothing here asks: a client's answers or state still
    // come as a round, to be refused.
    let can_ask = cfg!(feature = "ask")
        && context
            .client_capabilities()
            .and_then(|c| c.elicitation)
            .is_some_and(|e| e.form.is_some() || e.url.is_none());
    if takes_bare_results(context) {
        if can_ask || input_responses.is_some() || request_state.is_some() {
            return Reach::Rounds {
                input_responses: input_responses.map(|r| r.into_iter().collect()),
                request_state,
            };
        }
        return Reach::Nobody;
    }
    #[cfg(feature = "ask")]
    if can_ask {
        return Reach::Live(Arc::new(PeerElicit {
            peer: context.peer.clone(),
            within,
            #[cfg(feature = "http")]
            session: session_of(context),
        }));
    }
    Reach::Nobody
}

/// Asks the user of a 2025-11-25 client with `elicitation/create`, within the call.
#[cfg(feature = "ask")]
struct PeerElicit {
    peer: rmcp::Peer<RoleServer>,
    within: Duration,
    /// The session asked in, over HTTP, and its endpoint's questions: while the answer
    /// is awaited, the endpoint is known to wait for it, so that a replica the answer
    /// reaches can hand it over.
    #[cfg(feature = "http")]
    session: Option<(String, Arc<super::waiting::Waiters>)>,
}

/// The session of the HTTP request of `context` (`Mcp-Session-Id`) and its endpoint's
/// questions, if any.
#[cfg(all(feature = "ask", feature = "http"))]
fn session_of(
    context: &RequestContext<RoleServer>,
) -> Option<(String, Arc<super::waiting::Waiters>)> {
    let parts = context.extensions.get::<hyper::http::request::Parts>()?;
    let session = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    let waiters = parts.extensions.get::<Arc<super::waiting::Waiters>>()?;
    Some((session.to_owned(), Arc::clone(waiters)))
}

#[cfg(feature = "ask")]
impl Elicit for PeerElicit {
    fn elicit(
        &self,
        params: Value,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, String>> + Send>> {
        let peer = self.peer.clone();
        let within = self.within;
        #[cfg(feature = "http")]
        let session = self.session.clone();
        Box::pin(async move {
            let params: rmcp::model::ElicitRequestParams = serde_json::from_value(params)
                .map_err(|e| format!("the question could not be written: {e}"))?;
            let request =
                rmcp::model::ServerRequest::ElicitRequest(rmcp::model::ElicitRequest::new(params));
            let options = rmcp::service::PeerRequestOptions::with_timeout(within);
            let asked = peer
                .send_request_with_option(request, options)
                .await
                .map_err(|e| e.to_string())?;
            // Known to wait for this answer while it is awaited (see the HTTP sessions).
            #[cfg(feature = "http")]
            let _waiting = session.map(|(session, waiters)| {
                let id = serde_json::to_value(&asked.id)
                    .unwrap_or_default()
                    .to_string();
                waiters.wait(&session, id)
            });
            match asked.await_response().await.map_err(|e| e.to_string())? {
                rmcp::model::ClientResult::ElicitResult(result) => {
                    serde_json::to_value(result).map_err(|e| e.to_string())
                }
                _ => Err("the client answered with something else than its user's answer".into()),
            }
        })
    }
}

/// Whether the request's protocol version (2026-07-28 and later) takes any JSON value as
/// `structuredContent`, not only an object.
pub(crate) fn takes_bare_results(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v >= rmcp::model::ProtocolVersion::V_2026_07_28)
}

/// The name the client gives itself: in this request's `_meta` (a 2026-07-28 client
/// sends its `clientInfo` with every request, and a stateless request has no session
/// to read it from), else in the session's `initialize`.
pub(crate) fn client_name(context: &RequestContext<RoleServer>) -> Option<String> {
    context.client_info().map(|info| info.name)
}

/// Who calls, as the transport verified it: a [`Caller`] in the request's extensions,
/// or (over HTTP) in those of the HTTP request, where the authorization gate puts it.
pub(crate) fn caller_of(context: &RequestContext<RoleServer>) -> Option<Caller> {
    caller_in(&context.extensions)
}

/// [`caller_of`], from a request's extensions.
pub(crate) fn caller_in(extensions: &rmcp::model::Extensions) -> Option<Caller> {
    if let Some(caller) = extensions.get::<Caller>() {
        return Some(caller.clone());
    }
    #[cfg(feature = "http")]
    if let Some(parts) = extensions.get::<hyper::http::request::Parts>() {
        return parts.extensions.get::<Caller>().cloned();
    }
    None
}

/// Who a call runs as: the verified caller, else what the server's operator said a
/// call without one is (an [`Unverified`] in the extensions, put there by
/// `structured`; refused where nothing was said), its scopes checked against
/// `scopes`. The caller, if any; or the `permission` refusal.
pub(crate) fn admitted(
    tool: &str,
    scopes: &[&str],
    extensions: &rmcp::model::Extensions,
) -> Result<Option<Caller>, crate::result::ToolError> {
    let unverified = extensions.get::<Unverified>().cloned().unwrap_or_default();
    crate::caller::admit(tool, scopes, caller_in(extensions).as_ref(), &unverified)
}

/// What the request signals besides the call: the client that follows its progress
/// (where the request's `_meta` has a `progressToken`), and its cancellation.
pub(crate) fn signals(context: &RequestContext<RoleServer>) -> Signals {
    let progress = context.meta.get_progress_token().map(|token| {
        Arc::new(PeerFollower {
            peer: context.peer.clone(),
            token,
            over: context.ct.clone(),
        }) as Arc<dyn Follower>
    });
    Signals {
        progress,
        cancelled: Some(context.ct.clone()),
    }
}

/// The client of a request that sent a `progressToken`, following its progress by
/// `notifications/progress` while the request is in progress: MCP allows a token only
/// of an active request, and a handler may leave work running (with a clone of its
/// `Progress`) that reports after its answer went out.
struct PeerFollower {
    peer: rmcp::Peer<RoleServer>,
    token: rmcp::model::ProgressToken,
    /// Cancelled by rmcp once the request is answered, or cancelled by its client.
    over: tokio_util::sync::CancellationToken,
}

impl Follower for PeerFollower {
    fn follow(&self, step: Step) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        if self.over.is_cancelled() {
            return Box::pin(std::future::ready(()));
        }
        let mut params = rmcp::model::ProgressNotificationParam::new(self.token.clone(), step.done);
        params.total = step.total;
        params.message = step.message;
        Box::pin(async move {
            // A client gone is the transport's to see: the work goes on.
            let _ = self.peer.notify_progress(params).await;
        })
    }
}
