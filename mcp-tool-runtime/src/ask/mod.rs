//! Asking the user: the fourth layer. Some wrong values only the user can correct (the
//! day they fly, which of two orders they meant, whether a destructive call is what they
//! want); for those the server asks the user through the client (MCP's form
//! elicitation) instead of telling the model.
//!
//! Feature `ask`: without it nothing asks (`confirm`, `ask` and a handler taking [`Ask`]
//! are compile errors that name the feature), the server builds without HMAC-SHA256,
//! base64 and the system's randomness, and a `requestState` a client sends is refused
//! as malformed, since none was sealed.
//!
//! How the question travels depends on the protocol the client speaks, and the handler
//! code does not change with it:
//!
//! - **2026-07-28**: the call ends with an `InputRequiredResult` carrying the
//!   `elicitation/create` requests and a sealed `requestState`; the client asks its
//!   user and calls again with the answers. The server keeps nothing between the
//!   rounds: the state carries what it needs (see [`StateKey`]).
//! - **2025-11-25**: the server sends `elicitation/create` to a client that declared
//!   the `elicitation` capability, and waits for the answer within the call.
//! - **A client that cannot ask** gets what the tool's author chose: see
//!   [`Unanswered`] and `#[mcp_tool(unconfirmed = "run")]`.
//!
//! What each outcome gives:
//!
//! | what happened | the answer to the call |
//! |---|---|
//! | the user confirms | the handler runs, once |
//! | the user declines | a `permission` error, not retryable: "The user declined when asked: ... Nothing was done.", with the hint to ask the user what they want instead |
//! | the user dismisses the question (`cancel`) | a `permission` error, not retryable: "The user dismissed the question without answering: ..." |
//! | an asked field answered wrongly | asked again, saying what was wrong, up to 3 times; then the validation error goes to the model |
//! | no answer within the call (2025-11-25: the client failed, the connection closed, or the state's lifetime passed) | a `transient` error, retryable: "The user could not be asked (...)" |
//! | no retry (2026-07-28) | nothing runs; a retry after the state's lifetime (10 minutes unless [`Toolbox::state_lifetime`](crate::Toolbox::state_lifetime)) gets a `transient` error that says the question expired |
//! | a client that cannot ask | `ask`: the validation error, as without it; `confirm`: a `permission` error saying the user must confirm (or the call runs, with `unconfirmed = "run"`); a handler's [`Ask`]: [`Unanswered::cannot_ask`] |
//! | a `requestState` changed, sealed by another key, for another tool or other arguments, or answered by other keys | a JSON-RPC error, invalid params (-32602): the call is not run |
//! | a `requestState` sent again, after its round ran (the connection dropped before the answer came) | the round's first answer, again: the round runs once |
//! | a `requestState` sent again while its round runs | a `transient` error: it is running, and the same request a little later gets its answer |
//!
//! The state is signed, not encrypted: it carries the user's answers so far, which the
//! client has seen already, and never a `sensitive` value (those are never asked).
//!
//! # A round runs at most once
//!
//! The first retry that brings a round's answers claims the round, and what the call
//! answers is kept (for the state's lifetime, and as long again) as the round's
//! answer. A client whose connection dropped after it sent the retry, and sends it
//! again, gets that answer: the user confirmed one cancellation, and one is done. This
//! holds in one process with the toolbox's own [`UsedHere`]; replicas behind a load
//! balancer share a store that implements [`UsedStates`] (`RedisStates`, feature
//! `redis`), or each knows only the rounds it ran, and a retry sent to another replica
//! runs the round again. A store that cannot be reached runs no round: the retry gets a
//! `transient` error saying the call was not run, and may be sent again. A handler whose
//! work must never be done twice, whatever the store, checks an idempotency key of its
//! own where the work is done (a unique order of the operation in the database, say).
//!
//! Under 2025-11-25 the question is answered within the call, and there is no state to
//! send again: a call sent again is a new call, and asks its user again. The side
//! effects are as many as the confirmations the user gave.

// Without `ask` (and `rmcp`'s Toolbox) these docs name items the build lacks: a user's
// docs of such a build show them unlinked, rather than warn.
#![cfg_attr(
    not(all(feature = "ask", feature = "rmcp")),
    allow(rustdoc::broken_intra_doc_links, rustdoc::private_intra_doc_links)
)]

#[cfg(feature = "ask")]
mod exact;
pub(crate) mod form;
#[cfg(feature = "redis")]
pub(crate) mod in_redis;
mod progress;
mod record;
#[cfg(feature = "ask")]
mod seal;
mod session;
#[cfg(not(feature = "ask"))]
mod unsealed;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

pub use crate::describe::asking::{Askable, AskableItem};
#[cfg(feature = "redis")]
pub use in_redis::RedisStates;
pub use record::{Claim, Stored, UsedHere, UsedStates};
#[cfg(feature = "ask")]
#[cfg(feature = "ask")]
pub use seal::{BadKey, ShortKey, StateKey};
#[cfg(not(feature = "ask"))]
pub(crate) use unsealed::StateKey;

#[cfg(feature = "ask")]
pub(crate) use record::replayed;
#[cfg(all(feature = "rmcp", feature = "ask"))]
pub(crate) use record::unreadable_replay;
pub(crate) use session::{Begun, Session, Step};

pub(crate) use crate::id::random_id;
pub use crate::result::Unanswered;
pub(crate) use crate::result::{Refusal, ToolError};

/// How a call can reach the client's user: what a transport learns from the protocol
/// version and the client's capabilities.
#[non_exhaustive]
pub enum Reach {
    /// The client cannot ask its user (it declared no form `elicitation` capability).
    Nobody,
    /// Protocol 2026-07-28: the call may end with input required; a retry brings the
    /// answers (`inputResponses`) and the `requestState` echoed.
    Rounds {
        /// The client's `inputResponses`, on a retry.
        input_responses: Option<Map<String, Value>>,
        /// The `requestState` echoed, on a retry.
        request_state: Option<String>,
    },
    /// Protocol 2025-11-25: ask over the open connection and wait.
    Live(Arc<dyn Elicit>),
}

impl fmt::Debug for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reach::Nobody => "Nobody",
            Reach::Rounds { .. } => "Rounds",
            Reach::Live(_) => "Live",
        })
    }
}

/// Sends one `elicitation/create` request to the client and waits for its result.
pub trait Elicit: Send + Sync {
    /// Sends a request of these `params` (`{"mode": "form", "message", "requestedSchema"}`)
    /// and gives the client's `ElicitResult` as JSON (`{"action", "content"}`), or what
    /// went wrong (the client failed, the connection closed, no answer in time).
    fn elicit(&self, params: Value) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send>>;
}

/// The answer to a `tools/call`: its result, or the questions the client must ask its
/// user before calling again.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The call is over.
    Complete(crate::result::CallToolResult),
    /// The user must answer first (protocol 2026-07-28).
    InputRequired(InputRequired),
}

impl Answer {
    /// The answer as JSON text, as a [`UsedStates`] store keeps it.
    pub(crate) fn to_json(&self) -> String {
        let value = match self {
            Answer::Complete(result) => result.to_value(),
            Answer::InputRequired(asked) => asked.to_value(),
        };
        value.to_string()
    }

    /// The answer a store kept, read back.
    #[cfg(feature = "ask")]
    pub(crate) fn from_json(json: &str) -> Option<Answer> {
        let mut value = exact::from_str(json)?;
        if value.get("resultType").and_then(Value::as_str) == Some("input_required") {
            let Value::Object(input_requests) = value.get_mut("inputRequests")?.take() else {
                return None;
            };
            let request_state = value.get("requestState")?.as_str()?.to_owned();
            return Some(Answer::InputRequired(InputRequired {
                input_requests,
                request_state,
            }));
        }
        serde_json::from_value(value).ok().map(Answer::Complete)
    }
}

/// An `InputRequiredResult`: the requests for the client to fulfil, by key, and the
/// state to echo with the answers.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// Each request, `{"method": "elicitation/create", "params": {...}}`, by key.
    pub input_requests: Map<String, Value>,
    /// The sealed state, to be sent back verbatim.
    pub request_state: String,
}

impl InputRequired {
    /// The result as JSON: `{"resultType": "input_required", "inputRequests", "requestState"}`.
    pub fn to_value(&self) -> Value {
        serde_json::json!({
            "resultType": "input_required",
            "inputRequests": self.input_requests,
            "requestState": self.request_state,
        })
    }
}

/// How a server seals and spends the state of the calls waiting for their user
/// (protocol 2026-07-28): the key, how long a question is good for, and where rounds are
/// claimed and their answers kept. A [`Toolbox`](crate::Toolbox) has its own, set with
/// its methods of the same names. An rmcp router served through
/// [`structured`](crate::rmcp::structured) is given one it keeps for as long as it
/// serves (without, a key made up for this process and its memory are used):
///
/// ```
/// use mcp_tool::ask::Rounds;
/// use mcp_tool::StateKey;
///
/// let rounds = Rounds::new()
///     .state_key(StateKey::new(*b"0123456789abcdef0123456789abcdef").unwrap())
///     .state_lifetime(std::time::Duration::from_secs(300));
/// // Kept by the server: `structured(&self.tool_router).rounds(&self.rounds)`.
/// # let _ = rounds;
/// ```
#[derive(Clone)]
pub struct Rounds(pub(crate) Arc<Sealing>);

impl Rounds {
    /// A key made up for this process, questions good for 10 minutes, rounds kept in
    /// this process's memory.
    pub fn new() -> Self {
        Rounds(Arc::new(Sealing::new()))
    }

    /// The key that seals the `requestState`: the same on every replica.
    #[cfg(feature = "ask")]
    pub fn state_key(mut self, key: StateKey) -> Self {
        Arc::make_mut(&mut self.0).key = Some(key);
        self
    }

    /// How long the user has to answer, from the question.
    #[cfg(feature = "ask")]
    pub fn state_lifetime(mut self, lifetime: Duration) -> Self {
        Arc::make_mut(&mut self.0).lifetime = lifetime;
        self
    }

    /// Where rounds are claimed and their answers kept (see [`UsedStates`]).
    #[cfg(feature = "ask")]
    pub fn used_states(mut self, used: impl UsedStates) -> Self {
        Arc::make_mut(&mut self.0).used = Arc::new(used);
        self
    }

    /// The rounds of this process, for a server given none.
    #[cfg(feature = "rmcp")]
    pub(crate) fn of_process() -> &'static Rounds {
        static ROUNDS: std::sync::LazyLock<Rounds> = std::sync::LazyLock::new(Rounds::new);
        &ROUNDS
    }
}

impl Default for Rounds {
    fn default() -> Self {
        Rounds::new()
    }
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rounds")
            .field("lifetime", &self.0.lifetime)
            .finish_non_exhaustive()
    }
}

/// How a server seals and spends the state of calls waiting for their user.
#[derive(Clone)]
pub(crate) struct Sealing {
    #[cfg(feature = "ask")]
    pub key: Option<StateKey>,
    pub lifetime: Duration,
    pub used: Arc<dyn UsedStates>,
    /// The key made up, on first need, when none was given.
    #[cfg(feature = "ask")]
    pub random: std::sync::OnceLock<Result<StateKey, String>>,
}

impl Sealing {
    pub fn new() -> Self {
        Sealing {
            #[cfg(feature = "ask")]
            key: None,
            lifetime: Duration::from_secs(600),
            used: Arc::new(UsedHere::default()),
            #[cfg(feature = "ask")]
            random: std::sync::OnceLock::new(),
        }
    }

    /// The key that seals. Without the `ask` feature there is none, and nothing asks.
    #[cfg(not(feature = "ask"))]
    pub fn key(&self) -> Result<&StateKey, ToolError> {
        Err(ToolError::transient(
            "The server cannot ask the user: it was built without mcp-tool's `ask` feature.",
        ))
    }

    /// The answer to a `requestState` sent to a server built without the `ask` feature:
    /// nothing here asks, so it is not one this server sealed.
    #[cfg(not(feature = "ask"))]
    pub fn refuse_state(&self) -> ToolError {
        ToolError::malformed_request(
            "This server asks its users nothing, so the requestState sent is not one it sealed. The call was not run. Call the tool again without requestState and inputResponses.",
        )
    }

    /// The key that seals and opens: the one given, or one made up for this process.
    #[cfg(feature = "ask")]
    pub fn key(&self) -> Result<&StateKey, ToolError> {
        if let Some(key) = &self.key {
            return Ok(key);
        }
        self.random
            .get_or_init(|| StateKey::random().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| ToolError::transient(format!("The server cannot ask the user now: {e}.")))
    }
}

/// A handler's way to ask the user: to choose among candidates, or to confirm a fact.
/// The answer comes back typed; under every protocol the handler's code is the same.
///
/// Under protocol 2026-07-28 the call ends while the user answers and runs again with
/// the answer, from the start of the handler: whatever the handler does before it asks
/// is done again on each round, so ask before acting. Under 2025-11-25 the call waits.
///
/// ```
/// use std::sync::Arc;
/// use mcp_tool::{Ask, McpTool, ToolError, Toolbox};
/// use serde::Deserialize;
///
/// /// Refund an order.
/// #[derive(McpTool, Deserialize)]
/// struct Refund {
///     customer: String,
/// }
///
/// async fn refund(_: Arc<()>, ask: Ask, args: Refund) -> Result<String, ToolError> {
///     let orders = [("ORD-1", "a lamp"), ("ORD-2", "a chair")];
///     let (id, _) = ask
///         .choose("Which order do you mean?", &orders, |(id, item)| (id.to_string(), format!("{id}: {item}")))
///         .await?;
///     Ok(format!("Refunded {id} for {}", args.customer))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let tools = Toolbox::new().tool(refund);
/// // A client that cannot ask: the model is told the user must choose.
/// let result = tools.call("refund", serde_json::json!({"customer": "ada"})).await.unwrap();
/// assert!(result.is_error);
/// assert!(result.text().contains("Which order do you mean?"));
/// # });
/// ```
#[derive(Clone)]
pub struct Ask {
    session: Session,
}

impl fmt::Debug for Ask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ask").finish_non_exhaustive()
    }
}

impl Ask {
    pub(crate) fn new(session: Session) -> Self {
        Ask { session }
    }

    /// Whether this call's client can ask its user at all.
    pub fn can_ask(&self) -> bool {
        self.session.can_ask()
    }

    /// Asks the user to choose one of `options`, shown by `describe(option)` as
    /// `(key, label)`: the key tells the options apart (it must be unique and stable
    /// across calls, an id), the label is what the user reads. Gives the option chosen.
    pub async fn choose<'a, T>(
        &self,
        question: &str,
        options: &'a [T],
        describe: impl Fn(&T) -> (String, String),
    ) -> Result<&'a T, Unanswered> {
        let shown: Vec<(String, String)> = options.iter().map(&describe).collect();
        if shown.is_empty() {
            return Err(Unanswered::new(Refusal::NothingToChoose, question));
        }
        loop {
            let content = self
                .session
                .question(question, form::choice(question, &shown))
                .await?;
            let chosen = content.get("choice").and_then(Value::as_str);
            if let Some(i) = shown
                .iter()
                .position(|(key, _)| Some(key.as_str()) == chosen)
            {
                return Ok(&options[i]);
            }
            // An answer that is none of the options (a client that does not check its
            // form): asked again, a bounded number of times.
            self.session.discard_answer(question)?;
        }
    }

    /// Asks the user to confirm `message` (a fact, or what is about to happen): `Ok`
    /// when they accept.
    pub async fn confirm(&self, message: &str) -> Result<(), Unanswered> {
        self.session
            .question(
                message,
                form::request(message.to_owned(), Map::new(), Vec::new()),
            )
            .await
            .map(drop)
    }
}
