//! rmcp's own `#[tool]` methods with this crate's checks: [`Parameters`], the drop-in
//! for rmcp's extractor, and [`structured`], the router wrapper that keeps an argument
//! error's `structuredContent` (see [`crate::rmcp`]).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::{ToolCallContext, ToolRouter};
use rmcp::model::{CallToolResponse, ContentBlock, ErrorCode};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::adapter::{RMCP_ARGUMENT_ERROR, as_object, to_rmcp_result};
use super::call::CatchUnwind;
use super::output::internal_failure;
#[cfg(feature = "ask")]
use super::rounds::{Again, ask_then_call};
use crate::ask::Rounds;
use crate::context::Context;
use crate::describe::McpTool;
use crate::describe::profile::SchemaProfile;
use crate::result::echo::Echoed;
use crate::result::{Content, ToolError};

/// Where a call through `structured` is, for its [`Parameters`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Gate {
    /// The first call: a tool that asks stops here, for `structured` to ask.
    First,
    /// Called again once the user answered: the checks run, the method too.
    Asked,
}

/// The message of the error with which [`Parameters`] stops the first call of a tool
/// that asks (never sent: `structured` asks instead).
pub(super) const ASKS: &str = "mcp-tool: the user is asked first";

/// The arguments of an rmcp `#[tool]` method, checked by `#[derive(McpTool)]` before
/// the method runs. A drop-in for rmcp's `Parameters`: same name (rmcp's macro finds the
/// parameter type by it), same shape, so `Parameters(args): Parameters<T>` reads as before.
///
/// Its schema is `T`'s derived `inputSchema`. A failed check reaches the client as an
/// `isError` result listing every violation, never as a JSON-RPC error; an argument
/// value that is not an object stays a JSON-RPC error (-32602). Dates are judged by the
/// system clock in the system's zone.
#[derive(Debug, Clone)]
pub struct Parameters<T>(pub T);

impl<T: McpTool> schemars::JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(T::NAME)
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::try_from(T::input_schema().clone()).unwrap_or_default()
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
        match T::spec().deserialize::<T>(tool, checked.arguments) {
            Ok(args) => checked.after.finish(tool).map(|()| Parameters(args)),
            Err(error) => Err(extraction_error(error, checked.after.log.as_ref())),
        }
    }
}

/// Arguments [`check`] passed, as serde reads them, and what is left to do once read.
struct Checked {
    arguments: Value,
    after: AfterRead,
}

/// What [`Parameters`] does once the arguments are read: refuse a call that must be
/// confirmed, or log the repairs and the echo for `structured`.
struct AfterRead {
    unconfirmed: Option<String>,
    repairs: Vec<crate::result::Repair>,
    echoed: Option<Echoed>,
    sent: Option<Echoed>,
    log: Option<RepairLog>,
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
    let repair = extensions.get::<RepairSetting>().is_none_or(|s| s.0);
    let log = extensions.get::<RepairLog>().cloned();
    let gate = extensions.get::<Gate>().copied();
    // Under `structured`, a tool that asks its user stops its first call here:
    // `structured` asks, then calls again with the answers in. (Nothing asks in a
    // build without `ask`: the branch and what it reaches are left out of the binary.)
    if cfg!(feature = "ask")
        && gate == Some(Gate::First)
        && spec.asking.is_some()
        && let Some(log) = &log
        && let Ok(mut log) = log.0.lock()
    {
        log.asks = Some((spec, arguments));
        return Err(ErrorData::internal_error(ASKS, None));
    }
    // Without `structured`, rmcp's `#[tool]` methods cannot ask the user: a tool
    // that must be confirmed is refused (or runs, if its author said so).
    let unconfirmed = spec
        .asking
        .filter(|_| cfg!(feature = "ask"))
        .and_then(|a| a.confirm.as_ref())
        .filter(|_| gate != Some(Gate::Asked))
        .filter(|c| c.unconfirmed == crate::describe::asking::Unconfirmed::Refuse)
        .map(|c| crate::ask::form::confirmation(c, &arguments));
    // Under `structured`, what `attempted_query` shows if the method fails: after
    // asking, what the model sent (taken before the user's answers went in).
    let sent = extensions.get::<Echoed>().cloned();
    let echo = (log.is_some() && sent.is_none()) || unconfirmed.is_some();
    match spec.checked(tool, arguments, &Context::now(), profile, repair, echo) {
        Ok(passed) => Ok(Checked {
            arguments: passed.arguments,
            after: AfterRead {
                unconfirmed,
                repairs: passed.repairs,
                echoed: passed.shown,
                sent,
                log,
            },
        }),
        Err(error) if error.is_malformed_request() => {
            Err(ErrorData::invalid_params(error.message().to_owned(), None))
        }
        Err(error) => Err(extraction_error(error, log.as_ref())),
    }
}

impl AfterRead {
    /// The call refused if it must be confirmed; else the repairs and the echo logged
    /// for `structured`.
    fn finish(self, tool: &str) -> Result<(), ErrorData> {
        if let Some(message) = self.unconfirmed {
            let refused = super::call::needs_confirmation(&message)
                .for_call(tool.to_owned(), shown(self.echoed));
            return Err(extraction_error(refused, self.log.as_ref()));
        }
        // Said in the result's `_meta` by `structured`, which reads the log.
        if let Some(log) = self.log
            && let Ok(mut log) = log.0.lock()
        {
            log.repairs.extend(self.repairs);
            log.shown = self.sent.or(self.echoed);
        }
        Ok(())
    }
}

/// Whether [`Parameters`] repairs known client mistakes (see [`Toolbox::repairs`]):
/// set by [`Structured::with_repairs`], on where nothing set it.
#[derive(Debug, Clone, Copy)]
struct RepairSetting(bool);

/// What [`Parameters`] learned in one call, for [`structured`]: the repairs it made (said
/// in `_meta`) and the arguments as `attempted_query` shows them.
#[derive(Debug, Clone, Default)]
struct RepairLog(Arc<std::sync::Mutex<Logged>>);

#[derive(Debug, Default)]
struct Logged {
    repairs: Vec<crate::result::Repair>,
    shown: Option<Echoed>,
    /// A tool that asks its user, and its arguments, for `structured` to ask.
    asks: Option<(&'static crate::describe::ToolSpec, Value)>,
    /// The whole result of the arguments' refusal, for `structured` to answer with.
    refused: Option<crate::result::CallToolResult>,
}

/// The call a method runs in, for the `ToolError` it returns (which rmcp turns into a
/// result through `IntoCallToolResult`, knowing nothing of the call).
#[derive(Debug, Clone)]
pub(super) struct Called {
    pub tool: String,
    pub annotations: crate::describe::Annotations,
    pub show_unexpected: bool,
}

tokio::task_local! {
    pub(super) static CALLED: Called;
}

/// What `attempted_query` shows of a call's arguments, as [`Parameters`] kept them.
fn shown(echoed: Option<Echoed>) -> Value {
    echoed.as_ref().map(Echoed::value).unwrap_or_default()
}

/// The error a failed extraction returns: rmcp's router makes an `isError` text result of
/// it. Under [`structured`] the full result (its `structuredContent` too) waits in the
/// call's `log`, where [`restore`] takes it: no copy of it travels through the error.
fn extraction_error(error: ToolError, log: Option<&RepairLog>) -> ErrorData {
    let result = error.into_call_result();
    // The text once: the result's text block is the error's text.
    let text = result
        .content
        .iter()
        .map(|Content::Text { text }| text.as_str());
    let message = format!("{RMCP_ARGUMENT_ERROR}{}", text.collect::<String>());
    if let Some(log) = log
        && let Ok(mut log) = log.0.lock()
    {
        log.refused = Some(result);
    }
    ErrorData::invalid_params(message, None)
}

/// A view of an rmcp [`ToolRouter`] that keeps the `structuredContent` of argument
/// errors, which rmcp's own router drops: pass it to `#[tool_handler]`.
///
/// ```
/// use mcp_tool::rmcp::Parameters;
/// use mcp_tool::{McpTool, ToolError};
/// use rmcp::handler::server::tool::ToolRouter;
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use serde::Deserialize;
///
/// /// Say hello.
/// #[derive(McpTool, Deserialize)]
/// struct Greet {
///     #[validate(length(min = 1))]
///     name: String,
/// }
///
/// #[derive(Clone)]
/// struct Desk {
///     tool_router: ToolRouter<Self>,
/// }
///
/// #[tool_router]
/// impl Desk {
///     #[tool(description = "Say hello")]
///     async fn greet(&self, Parameters(args): Parameters<Greet>) -> Result<String, ToolError> {
///         Ok(format!("Hello, {}!", args.name))
///     }
/// }
///
/// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
/// impl ServerHandler for Desk {}
///
/// let desk = Desk { tool_router: Desk::tool_router() };
/// assert_eq!(desk.get_tool("greet").unwrap().input_schema["required"], serde_json::json!(["name"]));
/// ```
pub fn structured<S>(router: &ToolRouter<S>) -> Structured<'_, S> {
    Structured {
        router,
        profile: SchemaProfile::Portable,
        from_client: false,
        repair: true,
        show_unexpected: false,
        tool_failure: false,
        rounds: Rounds::of_process(),
        scopes: None,
    }
}

/// See [`structured`].
#[derive(Debug)]
pub struct Structured<'r, S> {
    router: &'r ToolRouter<S>,
    profile: SchemaProfile,
    /// A client that names a family gets that family's profile.
    from_client: bool,
    repair: bool,
    show_unexpected: bool,
    tool_failure: bool,
    /// How the state of calls waiting for their user is sealed and spent.
    rounds: &'r Rounds,
    /// The scopes each tool needs (see `Structured::with_scopes`).
    pub(super) scopes: Option<&'r crate::caller::ToolScopes>,
}

impl<'r, S: Send + Sync + 'static> Structured<'r, S> {
    /// Advertises the input schemas in `profile`'s form, and reads the arguments as
    /// written against it (see [`SchemaProfile`]):
    /// `#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).with_profile(self.profile))]`.
    pub fn with_profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Gives a client that names a family in its `clientInfo` (in the request's `_meta`,
    /// else in the session's `initialize`) the profile that family needs
    /// ([`SchemaProfile::for_client`]); other clients get the one of
    /// [`Structured::with_profile`]. rmcp's generated `list_tools` cannot see the
    /// client: write it with [`Structured::list_for`].
    ///
    /// ```
    /// # use mcp_tool::rmcp::Parameters;
    /// # use mcp_tool::{McpTool, ToolError};
    /// # use rmcp::handler::server::tool::ToolRouter;
    /// # use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// use rmcp::model::{ListToolsResult, PaginatedRequestParams};
    /// use rmcp::service::{RequestContext, RoleServer};
    /// # /// Say hello.
    /// # #[derive(McpTool, serde::Deserialize)]
    /// # struct Greet { name: String }
    /// # #[derive(Clone)]
    /// # struct Desk { tool_router: ToolRouter<Self> }
    /// # #[tool_router]
    /// # impl Desk {
    /// #     #[tool(description = "Say hello")]
    /// #     async fn greet(&self, Parameters(a): Parameters<Greet>) -> Result<String, ToolError> {
    /// #         Ok(a.name)
    /// #     }
    /// # }
    ///
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).with_profile_from_client())]
    /// impl ServerHandler for Desk {
    ///     async fn list_tools(
    ///         &self,
    ///         _: Option<PaginatedRequestParams>,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<ListToolsResult, rmcp::ErrorData> {
    ///         let tools = mcp_tool::rmcp::structured(&self.tool_router).with_profile_from_client();
    ///         Ok(ListToolsResult::with_all_items(tools.list_for(&context)))
    ///     }
    /// }
    /// ```
    pub fn with_profile_from_client(mut self) -> Self {
        self.from_client = true;
        self
    }

    /// How the state of calls waiting for their user is sealed and spent (protocol
    /// 2026-07-28): the key every replica shares, the store of rounds. Without, a key
    /// made up for this process and its memory.
    pub fn with_rounds(mut self, rounds: &'r Rounds) -> Self {
        self.rounds = rounds;
        self
    }

    /// Whether the model reads what went wrong in an error a method did not sort (see
    /// [`Toolbox::show_unexpected_errors`](crate::Toolbox::show_unexpected_errors);
    /// the default: `false`).
    pub fn show_unexpected_errors(mut self, on: bool) -> Self {
        self.show_unexpected = on;
        self
    }

    /// Whether an error result also carries the draft standard's failure object,
    /// `_meta["io.modelcontextprotocol/toolFailure"]` (see
    /// [`Toolbox::tool_failure_meta`](crate::Toolbox::tool_failure_meta); the default:
    /// `false`).
    pub fn with_tool_failure_meta(mut self, on: bool) -> Self {
        self.tool_failure = on;
        self
    }

    /// Adds the draft failure object to an error `result`, if asked to.
    fn stamp(&self, result: &mut rmcp::model::CallToolResult) {
        if self.tool_failure && result.is_error == Some(true) {
            let mut meta = result.meta.take().map(|m| m.0);
            crate::result::tool_failure::stamp(&mut meta, result.structured_content.as_ref());
            result.meta = meta.map(rmcp::model::MetaObject);
        }
    }

    /// The profile of the client of `context`.
    fn profile_of(&self, context: &RequestContext<RoleServer>) -> SchemaProfile {
        if !self.from_client {
            return self.profile;
        }
        super::adapter::client_name(context)
            .and_then(|name| SchemaProfile::for_client(&name))
            .unwrap_or(self.profile)
    }

    /// Whether [`Parameters`] repairs known client mistakes (the default: `true`; see
    /// [`Toolbox::repairs`](crate::Toolbox::repairs)); the repairs made are said in the result's `_meta`.
    pub fn with_repairs(mut self, on: bool) -> Self {
        self.repair = on;
        self
    }

    /// Calls the tool like [`ToolRouter::call`], turning this crate's argument errors
    /// into their full `isError` result (text and `structuredContent`).
    pub async fn call(
        &self,
        context: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Boxed: the server's future for each request holds a pointer, not this call's
        // whole state, and its code is written once.
        Box::pin(self.answer_call(context)).await
    }

    async fn answer_call(
        &self,
        mut context: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, ErrorData> {
        let route = match self.router.get(context.name()) {
            Some(_) => self.router.map.get(context.name()).cloned(),
            None => None,
        };
        // For `Parameters`, which reads the arguments as the profile's schema says, and
        // repairs what it is asked to.
        let profile = self.profile_of(&context.request_context);
        context.request_context.extensions.insert(profile);
        context
            .request_context
            .extensions
            .insert(RepairSetting(self.repair));
        let log = RepairLog::default();
        context.request_context.extensions.insert(log.clone());
        context.request_context.extensions.insert(Gate::First);
        #[cfg(feature = "tracing")]
        let (started, tool) = (std::time::Instant::now(), context.name().to_owned());
        #[cfg(feature = "tracing")]
        let caller = super::adapter::caller_of(&context.request_context);
        #[cfg(feature = "tracing")]
        let subject = caller.as_ref().map_or("", crate::caller::Caller::subject);
        let Some(route) = route else {
            let error = self.unknown_tool(context.name());
            #[cfg(feature = "tracing")]
            super::observe::rejected(&tool, started, "unknown_tool", &error.message, subject);
            return Err(error);
        };
        if let Some(mut refused) = self.refused(context.name(), &context.request_context) {
            self.stamp(&mut refused);
            return Ok(refused.into());
        }
        // A method without `Parameters` takes no arguments: a name sent anyway is
        // refused as any tool refuses one, not silently ignored.
        if takes_nothing(&route.attr.input_schema)
            && let Some(arguments) = context.arguments.take()
            && !arguments.is_empty()
        {
            let name = context.name().to_owned();
            let arguments = Value::Object(arguments);
            let checked = NO_ARGUMENTS.checked(
                &name,
                arguments,
                &Context::now(),
                self.profile_of(&context.request_context),
                false,
                false,
            );
            if let Err(error) = checked {
                let mut result = to_rmcp_result(error.into_call_result());
                self.stamp(&mut result);
                #[cfg(feature = "tracing")]
                super::observe::answered(
                    &tool,
                    started,
                    true,
                    result.structured_content.as_ref(),
                    result.meta.as_ref().map(|m| &m.0),
                    subject,
                );
                return Ok(result.into());
            }
        }
        let called = Called {
            tool: context.name().to_owned(),
            annotations: route
                .attr
                .annotations
                .as_ref()
                .map(annotations)
                .unwrap_or(crate::describe::Annotations::NONE),
            show_unexpected: self.show_unexpected,
        };
        let name = called.tool.clone();
        #[cfg(feature = "ask")]
        let again = Again::of(&context);
        let first = CALLED.scope(
            called.clone(),
            Self::answer(route.clone(), context, log.clone(), name.clone()),
        );
        let mut response = first.await;
        // A tool that asks its user: asked, then called again with the answers in. (In a
        // build without `ask` nothing asks, and the asking is not in the call's future.)
        #[cfg(feature = "ask")]
        if let Some((spec, arguments)) = log.0.lock().ok().and_then(|mut l| l.asks.take()) {
            let ready = super::rounds::ready(profile, self.repair);
            let call = |context| CALLED.scope(called, Self::answer(route, context, log, name));
            response = ask_then_call(spec, arguments, again, self.rounds, ready, call).await;
        }
        if let Ok(CallToolResponse::Complete(result)) = &mut response {
            self.stamp(result);
        }
        #[cfg(feature = "tracing")]
        match &response {
            Ok(CallToolResponse::Complete(result)) => super::observe::answered(
                &tool,
                started,
                result.is_error == Some(true),
                result.structured_content.as_ref(),
                result.meta.as_ref().map(|m| &m.0),
                subject,
            ),
            Ok(_) => {}
            Err(error) => super::observe::rejected(
                &tool,
                started,
                "malformed_request",
                &error.message,
                subject,
            ),
        }
        response
    }

    /// The route's answer, with this crate's argument errors restored and the repairs
    /// said in `_meta`.
    async fn answer(
        route: rmcp::handler::server::router::tool::ToolRoute<S>,
        context: ToolCallContext<'_, S>,
        log: RepairLog,
        tool: String,
    ) -> Result<CallToolResponse, ErrorData> {
        // A method that panics gets the answer a toolbox's handler gets: the call is
        // answered (rmcp would let the request's task die unanswered), its internals
        // go to the log only.
        let annotations = route.attr.annotations.as_ref().map(annotations);
        let Ok(outcome) = CatchUnwind(Box::pin((route.call)(context))).await else {
            let annotations = annotations.unwrap_or(crate::describe::Annotations::NONE);
            let echoed = log.0.lock().ok().and_then(|mut l| l.shown.take());
            let error = internal_failure(&tool, annotations).for_call(tool, shown(echoed));
            return Ok(to_rmcp_result(error.into_call_result()).into());
        };
        match outcome {
            Ok(CallToolResponse::Complete(mut result)) => {
                let (repairs, echoed) = log
                    .0
                    .lock()
                    .map(|mut l| (std::mem::take(&mut l.repairs), l.shown.take()))
                    .unwrap_or_default();
                // A method's own error says which call failed, as a toolbox's does.
                if result.is_error == Some(true)
                    && let Some(Value::Object(structured)) = &mut result.structured_content
                    && structured.get("attempted_query") == Some(&Value::Null)
                {
                    structured.insert(
                        "attempted_query".into(),
                        serde_json::json!({"tool": tool, "arguments": shown(echoed)}),
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
            Err(error) => restore(error, &log),
        }
    }

    fn unknown_tool(&self, name: &str) -> ErrorData {
        // (list_all sorts by name.)
        let tools = self.router.list_all();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        ErrorData::invalid_params(super::toolbox::unknown_tool_message(name, &names), None)
    }

    /// The tools, as [`ToolRouter::list_all`], each `inputSchema` in the profile's form
    /// and each `outputSchema` made portable and
    /// joined with the error envelope (see [`crate::output`]): rmcp writes schemars'
    /// schema as is (`format: "uint8"`, type arrays), and an error result's
    /// `structuredContent` would not match it, which the MCP Inspector reports as a
    /// failed call.
    pub fn list_all(&self) -> Vec<rmcp::model::Tool> {
        self.list_in(self.profile)
    }

    /// [`Structured::list_all`] for the client of `context`, in its profile (see
    /// [`Structured::with_profile_from_client`]).
    pub fn list_for(&self, context: &RequestContext<RoleServer>) -> Vec<rmcp::model::Tool> {
        let mut tools = self.list_in(self.profile_of(context));
        self.keep_permitted(&mut tools, context);
        tools
    }

    fn list_in(&self, profile: SchemaProfile) -> Vec<rmcp::model::Tool> {
        let mut tools = self.router.list_all();
        for tool in &mut tools {
            if takes_nothing(&tool.input_schema) {
                let mut schema = (*tool.input_schema).clone();
                schema.insert("additionalProperties".into(), Value::Bool(false));
                tool.input_schema = Arc::new(schema);
            }
            if profile != SchemaProfile::Portable {
                let schema = Value::Object((*tool.input_schema).clone());
                tool.input_schema = Arc::new(as_object(&profile.adapt(&schema)));
            }
            if let Some(schema) = tool.output_schema.take() {
                let schema =
                    crate::describe::output::with_error_envelope(Value::Object((*schema).clone()));
                tool.output_schema = Some(Arc::new(as_object(&schema)));
            }
        }
        tools
    }

    /// One tool, as [`ToolRouter::get`].
    pub fn get(&self, name: &str) -> Option<&rmcp::model::Tool> {
        self.router.get(name)
    }
}

/// The arguments of a method without `Parameters`: none.
static NO_ARGUMENTS: crate::describe::ToolSpec = crate::describe::ToolSpec {
    name: "",
    title: None,
    description: None,
    annotations: crate::describe::Annotations::NONE,
    fields: &[],
    allow_unknown_fields: false,
    union: None,
    asking: None,
    scopes: &[],
    walk: crate::describe::valid_walk::no_field,
    cache: crate::describe::SpecCache::new(),
};

/// Whether a tool's input schema is rmcp's for a method without `Parameters`: an
/// object with no properties, saying nothing of other names (rmcp then ignores any
/// argument sent).
fn takes_nothing(schema: &serde_json::Map<String, Value>) -> bool {
    schema
        .get("properties")
        .is_none_or(|p| p.as_object().is_some_and(serde_json::Map::is_empty))
        && !schema.contains_key("additionalProperties")
        && !schema.contains_key("anyOf")
        && !schema.contains_key("oneOf")
        && !schema.contains_key("$ref")
}

/// rmcp's annotations of a tool as this crate's.
pub(super) fn annotations(a: &rmcp::model::ToolAnnotations) -> crate::describe::Annotations {
    crate::describe::Annotations {
        read_only_hint: a.read_only_hint,
        destructive_hint: a.destructive_hint,
        idempotent_hint: a.idempotent_hint,
        open_world_hint: a.open_world_hint,
    }
}

/// Undoes [`extraction_error`]; other errors go the way rmcp's router sends them.
fn restore(error: ErrorData, log: &RepairLog) -> Result<CallToolResponse, ErrorData> {
    if error.code != ErrorCode::INVALID_PARAMS {
        return Err(error);
    }
    if let Some(result) = log.0.lock().ok().and_then(|mut l| l.refused.take()) {
        return Ok(to_rmcp_result(result).into());
    }
    if error.message.starts_with(RMCP_ARGUMENT_ERROR.trim_end()) {
        return Ok(
            rmcp::model::CallToolResult::error(vec![ContentBlock::text(error.message)]).into(),
        );
    }
    Err(error)
}
