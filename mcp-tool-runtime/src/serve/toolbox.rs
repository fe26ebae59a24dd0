//! Serving derived tools: [`Toolbox`] holds each tool with its async handler and answers
//! `tools/list` and `tools/call`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
#[cfg(any(feature = "ask", feature = "rmcp"))]
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::ask::{Answer, Reach, Sealing};
#[cfg(feature = "ask")]
use crate::ask::{StateKey, UsedStates};
use crate::caller::{Caller, Unverified};
use crate::context::Context;
use crate::describe::profile::SchemaProfile;
use crate::describe::{McpTool, Tool};
use crate::result::echo;
use crate::result::{CallToolResult, ToolError};
use crate::text::suggest;

use super::call::{Handler, Setup, call};
use super::output::{OutputShape, output_schema};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Checks the arguments, asks the user where the tool says so, then runs the handler:
/// the `tools/call` answer, or the error of a malformed request.
type Route<S> = dyn Fn(&Arc<S>, Value, Setup) -> BoxFuture<Result<Answer, ToolError>> + Send + Sync;

/// The tools of a server, each with its async handler: answers `tools/list` and
/// `tools/call`.
///
/// A call goes through the derived checks first (every violation reported at once), then
/// the handler. A handler returns `Result<T, ToolError>`:
///
/// - `Ok` of a struct (any `T` that serializes to an object) becomes `structuredContent`
///   plus the same JSON as a text block, and `T`'s JSON Schema is advertised as the
///   tool's `outputSchema`;
/// - `Ok` of `None`, `()` or an empty list is a success with empty content: "nothing
///   matched" is not an error;
/// - `Ok` of a string is one text block; of any other value, its JSON as text;
/// - `Err` is a tool execution error (`isError: true`) with the contract's
///   `structuredContent`, whatever its category.
///
/// A handler that panics does not take the server down: the caller gets an error result
/// that says the tool failed internally and nothing more, and the next call runs as usual.
/// Only an unknown tool and a malformed request are [`CallError`]s (JSON-RPC errors).
///
/// Handlers take the arguments, or the shared state and the arguments, or those and an
/// [`Ask`](crate::Ask) to put questions to the user (see [`crate::ask`]):
///
/// ```
/// use std::sync::Arc;
/// use mcp_tool::{McpTool, Toolbox, ToolError};
/// use serde::{Deserialize, Serialize};
/// use serde_json::json;
///
/// /// Add two numbers.
/// #[derive(McpTool, Deserialize)]
/// struct Add { a: i64, b: i64 }
///
/// /// Count the calls so far.
/// #[derive(McpTool, Deserialize)]
/// struct Count {}
///
/// #[derive(Serialize, schemars::JsonSchema)]
/// struct Sum { sum: i64 }
///
/// async fn add(args: Add) -> Result<Sum, ToolError> {
///     let sum = args.a.checked_add(args.b).ok_or_else(|| ToolError::business("the sum overflows"))?;
///     Ok(Sum { sum })
/// }
///
/// struct Counter(std::sync::atomic::AtomicU64);
///
/// async fn count(counter: Arc<Counter>, _: Count) -> Result<u64, ToolError> {
///     Ok(counter.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1)
/// }
///
/// let tools = Toolbox::with_state(Counter(0.into())).tool(add).tool(count);
///
/// # let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// # rt.block_on(async {
/// let listed = serde_json::to_value(tools.list()).unwrap();
/// // The success shape, or the error envelope (see `mcp_tool::output`).
/// assert_eq!(listed[0]["outputSchema"]["anyOf"][0]["properties"]["sum"]["type"], "integer");
///
/// let ok = tools.call("add", json!({"a": 2, "b": 3})).await.unwrap();
/// assert_eq!(ok.structured_content, Some(json!({"sum": 5})));
///
/// let bad = tools.call("add", json!({"a": "two"})).await.unwrap();
/// assert!(bad.is_error); // a "two" for an integer, and b missing: both reported
/// assert_eq!(bad.structured_content.unwrap()["violations"].as_array().unwrap().len(), 2);
///
/// let unknown = tools.call("ad", json!({})).await.unwrap_err();
/// assert_eq!(unknown.code(), -32602);
/// # });
/// ```
pub struct Toolbox<S = ()> {
    state: Arc<S>,
    /// The tools as `tools/list` lists them, in each profile (`SchemaProfile::ALL`
    /// order), built at registration.
    tools: [Vec<Tool>; 4],
    routes: Vec<Box<Route<S>>>,
    /// Each tool's declared scopes, in registration order.
    pub(super) scopes: Vec<&'static [&'static str]>,
    /// What a call without a verified caller is served as.
    pub(super) unverified: Unverified,
    index: HashMap<&'static str, usize>,
    context: Option<Context>,
    info: ServerInfo,
    /// The profile the schemas are advertised in, unless the client says otherwise.
    profile: SchemaProfile,
    /// Whether a client that names itself (`clientInfo`) gets the profile it needs.
    profile_from_client: bool,
    /// Whether known client mistakes are repaired before the checks (see
    /// [`Toolbox::repairs`]).
    repair: bool,
    /// How the state of calls waiting for their user is sealed and spent.
    sealing: Arc<Sealing>,
    /// Whether an unexpected error's chain is shown to the model.
    show_unexpected: bool,
    /// Whether an error result carries the draft `toolFailure` `_meta` (see
    /// [`Toolbox::tool_failure_meta`]).
    tool_failure: bool,
    /// For each tool whose output is carried as `{"result": value}`: its output schema
    /// for peers of 2026-07-28 and later, which take the value itself.
    pub(crate) bare_outputs: HashMap<&'static str, Value>,
    /// The same tools as rmcp's type, in each profile: made by the rmcp adapter on its
    /// first `tools/list`, then shared (a clone of one shares its schemas).
    #[cfg(feature = "rmcp")]
    pub(crate) rmcp_tools: std::sync::OnceLock<[Vec<::rmcp::model::Tool>; 4]>,
}

/// The server's name and version, as `initialize` reports them.
#[derive(Debug, Clone)]
struct ServerInfo {
    name: Cow<'static, str>,
    version: Cow<'static, str>,
}

impl Toolbox<()> {
    /// An empty toolbox whose handlers need no shared state.
    pub fn new() -> Self {
        Toolbox::with_state(())
    }
}

impl Default for Toolbox<()> {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// An empty toolbox whose handlers may take `Arc<S>` as their first argument.
    pub fn with_state(state: S) -> Self {
        Toolbox::with_shared_state(Arc::new(state))
    }

    /// Like [`Toolbox::with_state`], for state already shared elsewhere.
    pub fn with_shared_state(state: Arc<S>) -> Self {
        Toolbox {
            state,
            tools: Default::default(),
            profile: SchemaProfile::Portable,
            profile_from_client: false,
            repair: true,
            sealing: Arc::new(Sealing::new()),
            show_unexpected: false,
            tool_failure: false,
            bare_outputs: HashMap::new(),
            routes: Vec::new(),
            scopes: Vec::new(),
            unverified: Unverified::Refused,
            index: HashMap::new(),
            context: None,
            #[cfg(feature = "rmcp")]
            rmcp_tools: std::sync::OnceLock::new(),
            info: ServerInfo {
                name: Cow::Borrowed("mcp-tool"),
                version: Cow::Borrowed(env!("CARGO_PKG_VERSION")),
            },
        }
    }

    /// Judges date rules in `context` instead of the system clock on each call: a fixed
    /// day for tests and demos, or the users' time zone.
    pub fn in_context(mut self, context: Context) -> Self {
        self.context = Some(context);
        self
    }

    /// Advertises every schema in `profile`'s form (see [`SchemaProfile`]); the checks
    /// stay the same, and with [`SchemaProfile::OpenAi`] a `null` for an optional
    /// property reads as "left out", as its schema says.
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Whether known client mistakes are repaired before the checks (the default:
    /// `true`). Clients send values that admit exactly one reading, and send them again
    /// the same way whatever the model is told:
    ///
    /// - an array or object as a string holding its JSON (`"[\"a\", \"b\"]"`);
    /// - a number or boolean as a string that is exactly its JSON (`"10"`, `"true"`;
    ///   `" 10"`, `"2.5"` for an integer, or `"yes"` are not read);
    /// - a name in another case style than the tool's (`departureDate` for
    ///   `departure_date`), when exactly one field has that name folded and it was not
    ///   also sent by its own name or a former one;
    /// - an allowed value in another letter case (`"paid"` for `"PAID"`), when exactly
    ///   one allowed value matches;
    /// - a field's former name (a serde `alias`).
    ///
    /// The repaired value is checked and used, and each repair is said in the result's
    /// `_meta` under `"mcp-tool/repairs"` (its path and what was done, naming what to
    /// send), so the model learns the contract from a call that worked. A repair runs
    /// for a destructive tool too: each has one reading only, and a tool that needs a
    /// person's yes asks for it as it would for any call.
    ///
    /// ```
    /// use mcp_tool::{McpTool, ToolError, Toolbox};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Tag a post.
    /// #[derive(McpTool, Deserialize)]
    /// struct Tag {
    ///     tags: Vec<String>,
    /// }
    ///
    /// async fn tag(args: Tag) -> Result<serde_json::Value, ToolError> {
    ///     Ok(json!({ "count": args.tags.len() }))
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let tools = Toolbox::new().tool(tag);
    /// let result = tools.call("tag", json!({"tags": "[\"a\", \"b\"]"})).await.unwrap();
    /// assert!(!result.is_error);
    /// assert_eq!(result.structured_content.unwrap()["count"], 2);
    /// assert_eq!(
    ///     result.meta.unwrap()["mcp-tool/repairs"][0],
    ///     json!({"path": "/tags", "repair": "parsed the JSON array sent as a string"})
    /// );
    ///
    /// let strict = Toolbox::new().repairs(false).tool(tag);
    /// let result = strict.call("tag", json!({"tags": "[\"a\"]"})).await.unwrap();
    /// assert!(result.is_error);
    /// # });
    /// ```
    pub fn repairs(mut self, on: bool) -> Self {
        self.repair = on;
        self
    }

    /// Whether the model reads what went wrong in an error a handler did not sort
    /// (what `?` makes of any error; see [`ToolError::unexpected`]): its chain of
    /// messages, which may hold SQL, paths or other internals. The default, `false`,
    /// keeps them in the server's log; a single error can be shown with
    /// [`ToolError::with_cause_shown`].
    pub fn show_unexpected_errors(mut self, on: bool) -> Self {
        self.show_unexpected = on;
        self
    }

    /// Whether an error result also carries the draft standard's failure object,
    /// `_meta["io.modelcontextprotocol/toolFailure"]` (SEP-3313, a draft: the default
    /// is `false`): `class` (`capability`, `reliability` or `governance`), `code`,
    /// `retryable`, `retryNotBefore` (an RFC 3339 time, from a transient error's
    /// [`retry_after`](ToolError::retry_after)), `correlationId` (also in the call's
    /// `tracing` event, as `correlation_id`) and `agentGuidance`. The categories map as
    /// the README's table says; nothing else of the result changes.
    ///
    /// ```
    /// use mcp_tool::{McpTool, ToolError, Toolbox, TOOL_FAILURE_KEY};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Track a parcel.
    /// #[derive(McpTool, Deserialize)]
    /// struct Track {
    ///     #[validate(regex = r"^[A-Z]{2}[0-9]{9}$")]
    ///     parcel: String,
    /// }
    ///
    /// async fn track(_: Track) -> Result<String, ToolError> {
    ///     Err(ToolError::transient("The carrier does not answer.")
    ///         .retry_after(std::time::Duration::from_secs(30)))
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let tools = Toolbox::new().tool_failure_meta(true).tool(track);
    /// let result = tools.call("track", json!({"parcel": "RP123456789"})).await.unwrap();
    /// let failure = &result.meta.as_ref().unwrap()[TOOL_FAILURE_KEY];
    /// assert_eq!(failure["class"], "reliability");
    /// assert_eq!(failure["retryable"], true);
    /// assert!(failure["retryNotBefore"].as_str().unwrap().ends_with('Z'));
    ///
    /// let result = tools.call("track", json!({"parcel": "42"})).await.unwrap();
    /// let failure = &result.meta.as_ref().unwrap()[TOOL_FAILURE_KEY];
    /// assert_eq!((&failure["class"], &failure["code"]), (&json!("capability"), &json!("invalid_arguments")));
    /// # });
    /// ```
    pub fn tool_failure_meta(mut self, on: bool) -> Self {
        self.tool_failure = on;
        self
    }

    /// The key that seals the `requestState` of calls waiting for the user's answer
    /// (protocol 2026-07-28; see [`crate::ask`]). Without one, a random key is made for
    /// this process: calls resume only here, and not after a restart. Give every
    /// replica the same key, from its configuration, so that any replica resumes a call
    /// another began.
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn state_key(mut self, key: StateKey) -> Self {
        Arc::make_mut(&mut self.sealing).key = Some(key);
        self
    }

    /// How long the user has to answer, from the question (the default: 10 minutes).
    /// A later answer is refused, and the model is told to call again.
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn state_lifetime(mut self, lifetime: Duration) -> Self {
        Arc::make_mut(&mut self.sealing).lifetime = lifetime;
        self
    }

    /// How long a question to the user may wait for the answer.
    #[cfg(feature = "rmcp")]
    pub(crate) fn answer_within(&self) -> Duration {
        self.sealing.lifetime
    }

    /// Where the states already used are remembered, so that none is used twice (the
    /// default: this process's memory; see [`UsedStates`]).
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn used_states(mut self, used: impl UsedStates) -> Self {
        Arc::make_mut(&mut self.sealing).used = Arc::new(used);
        self
    }

    /// Served over rmcp, gives a client that names a family in its `clientInfo` the
    /// profile that family needs ([`SchemaProfile::for_client`]); other clients get the
    /// toolbox's profile.
    pub fn schema_profile_from_client(mut self) -> Self {
        self.profile_from_client = true;
        self
    }

    /// The profile the schemas are advertised in for a client named `client` (its
    /// `clientInfo.name`, if known).
    pub fn profile_for(&self, client: Option<&str>) -> SchemaProfile {
        match client {
            Some(name) if self.profile_from_client => {
                SchemaProfile::for_client(name).unwrap_or(self.profile)
            }
            _ => self.profile,
        }
    }

    /// The server's name and version, as a transport's `initialize` reports them
    /// (`"mcp-tool"` and this crate's version unless set).
    pub fn named(
        mut self,
        name: impl Into<Cow<'static, str>>,
        version: impl Into<Cow<'static, str>>,
    ) -> Self {
        self.info = ServerInfo {
            name: name.into(),
            version: version.into(),
        };
        self
    }

    /// The server's name and version (see [`Toolbox::named`]).
    pub fn server_info(&self) -> (&str, &str) {
        (&self.info.name, &self.info.version)
    }

    /// Registers the tool `T` (its name is `T::NAME`) with its handler: an async fn
    /// taking `T`, or `Arc<S>` and `T`, or `Arc<S>`, `T` and an [`Ask`](crate::Ask), and
    /// returning `Result<_, ToolError>`.
    ///
    /// # Panics
    ///
    /// If a tool of the same name is already registered: two tools cannot answer to one
    /// name, and this is a mistake in the server's code, found at its start.
    pub fn tool<T, M, H>(mut self, handler: H) -> Self
    where
        T: McpTool + Send + 'static,
        M: 'static,
        H: Handler<S, T, M>,
        H::Output: Serialize + JsonSchema,
    {
        assert!(
            !self.index.contains_key(T::NAME),
            "mcp-tool: two tools are named {:?}; each tool needs a name of its own \
             (#[mcp_tool(name = \"...\")])",
            T::NAME,
        );
        let mut tool = T::tool().clone();
        let (output_schema, shape) = output_schema::<H::Output>();
        if shape == OutputShape::Wrapped
            && let Some(result) = output_schema
                .as_ref()
                .and_then(|s| s.pointer("/anyOf/0/properties/result"))
        {
            let bare = serde_json::json!({
                "anyOf": [result, crate::describe::output::error_envelope()]
            });
            self.bare_outputs.insert(T::NAME, bare);
        }
        tool.output_schema = output_schema;
        let handler = Arc::new(handler);
        let route = move |state: &Arc<S>, arguments: Value, setup: Setup| {
            Box::pin(call::<S, T, M, H>(
                Arc::clone(&handler),
                Arc::clone(state),
                arguments,
                setup,
                shape,
            )) as BoxFuture<_>
        };
        self.index.insert(T::NAME, self.routes.len());
        for profile in SchemaProfile::ALL {
            let mut tool = tool.clone();
            tool.input_schema = T::input_schema_for(profile).clone();
            self.tools[profile.index()].push(tool);
        }
        self.routes.push(Box::new(route));
        self.scopes.push(T::spec().scopes);
        self
    }

    /// Every tool, in registration order, as `tools/list` lists it. Built at
    /// registration: listing allocates nothing.
    pub fn list(&self) -> &[Tool] {
        &self.tools[self.profile.index()]
    }

    /// [`Toolbox::list`] with the schemas in `profile`'s form.
    pub fn list_for(&self, profile: SchemaProfile) -> &[Tool] {
        &self.tools[profile.index()]
    }

    /// The tool named `name`, if registered.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.index.get(name).map(|&i| &self.list()[i])
    }

    /// The shared state handlers receive.
    pub fn state(&self) -> &Arc<S> {
        &self.state
    }

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
        self.call_for(self.profile, name, arguments).await
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

    /// [`Toolbox::call_reaching`] by `caller` (`None`: nobody verified one; see
    /// [`Toolbox::unverified_calls`]).
    pub async fn call_reaching_as(
        &self,
        caller: Option<&Caller>,
        profile: SchemaProfile,
        name: &str,
        arguments: Value,
        reach: Reach,
    ) -> Result<Answer, CallError> {
        #[cfg(feature = "tracing")]
        let (started, subject) = (
            std::time::Instant::now(),
            caller.map_or("", Caller::subject),
        );
        let Some(&i) = self.index.get(name) else {
            let error = self.unknown_tool(name);
            #[cfg(feature = "tracing")]
            super::observe::rejected(name, started, "unknown_tool", error.message(), subject);
            return Err(error);
        };
        let setup = Setup {
            context: self.context.clone().unwrap_or_else(Context::now),
            profile,
            repair: self.repair,
            reach,
            sealing: Arc::clone(&self.sealing),
            show_unexpected: self.show_unexpected,
            caller: caller.cloned(),
            unverified: self.unverified.clone(),
        };
        let mut result = self.routes[i](&self.state, arguments, setup)
            .await
            .map_err(|error| CallError::MalformedRequest {
                message: error.message().to_owned(),
            });
        if let Ok(Answer::Complete(answer)) = &mut result
            && answer.is_error
            && self.tool_failure
        {
            crate::result::tool_failure::stamp(
                &mut answer.meta,
                answer.structured_content.as_ref(),
            );
        }
        #[cfg(feature = "tracing")]
        match &result {
            Ok(Answer::InputRequired(asked)) => {
                let keys: Vec<&str> = asked.input_requests.keys().map(String::as_str).collect();
                super::observe::waiting(name, started, &keys.join(", "), subject)
            }
            Ok(Answer::Complete(answer)) => super::observe::answered(
                name,
                started,
                answer.is_error,
                answer.structured_content.as_ref(),
                answer.meta.as_ref(),
                subject,
            ),
            Err(error) => super::observe::rejected(
                name,
                started,
                "malformed_request",
                error.message(),
                subject,
            ),
        }
        result
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

    fn unknown_tool(&self, name: &str) -> CallError {
        // In registration order, so that a tie always suggests the same tool.
        let names: Vec<&str> = self.list().iter().map(|t| t.name.as_str()).collect();
        CallError::UnknownTool {
            name: name.chars().take(200).collect(),
            message: unknown_tool_message(name, &names),
        }
    }
}

/// The answer of a call from a client that cannot ask its user: such a call puts no
/// question; were one put, the model would be told the user cannot be asked, never the
/// question's state.
pub(super) fn completed(name: &str, answer: Answer) -> CallToolResult {
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

impl<S> fmt::Debug for Toolbox<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.index.keys().collect::<Vec<_>>())
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
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
