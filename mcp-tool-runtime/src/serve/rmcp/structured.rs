//! [`structured`], the view of an rmcp router that answers with this crate's whole
//! results: an argument error's `structuredContent`, the repairs in `_meta`, the user
//! asked where a tool says so, a panicking method answered.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::tool::{ToolCallContext, ToolRouter};
use rmcp::model::CallToolResponse;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::convert::{CALLED, Called, annotations, as_object, to_rmcp_result};
use super::mailbox::{Mailbox, ReadSettings, Stage};
#[cfg(feature = "ask")]
use super::rounds::{Again, ask_then_call};
use super::structured_answer::{answer, settle};
use super::structured_tasks::{Checked, Tasking, check, defers, start};
use crate::ask::Rounds;
use crate::caller::{Caller, Unverified};
use crate::context::Context;
use crate::describe::profile::SchemaProfile;
use crate::serve::settings::{Settings, Started};

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
        settings: Settings::default(),
        rounds: Rounds::of_process(),
        scopes: None,
        unverified: Unverified::Refused,
        tasks: None,
    }
}

/// See [`structured`].
#[derive(Debug)]
pub struct Structured<'r, S> {
    router: &'r ToolRouter<S>,
    /// The profile, the repairs, what an error shows (see the builder methods).
    pub(super) settings: Settings,
    /// How the state of calls waiting for their user is sealed and spent.
    rounds: &'r Rounds,
    /// The scopes each tool needs (see `Structured::scopes`).
    pub(super) scopes: Option<&'r crate::caller::ToolScopes>,
    /// What a call without a verified caller is served as (see
    /// `Structured::unverified_calls`).
    pub(super) unverified: Unverified,
    /// Where the calls that become tasks are kept, and how the server is cloned for a
    /// call that outlives its request (see `Structured::tasks`).
    pub(super) tasks: Option<Tasking<'r, S>>,
}

impl<'r, S: Send + Sync + 'static> Structured<'r, S> {
    /// Advertises the input schemas in `profile`'s form, and reads the arguments as
    /// written against it (see [`SchemaProfile`]):
    /// `#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).schema_profile(self.profile))]`.
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.settings.profile = profile;
        self
    }

    /// Gives a client that names a family in its `clientInfo` (in the request's `_meta`,
    /// else in the session's `initialize`) the profile that family needs
    /// ([`SchemaProfile::for_client`]); other clients get the one of
    /// [`Structured::schema_profile`]. rmcp's generated `list_tools` cannot see the
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
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).schema_profile_from_client())]
    /// impl ServerHandler for Desk {
    ///     async fn list_tools(
    ///         &self,
    ///         _: Option<PaginatedRequestParams>,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<ListToolsResult, rmcp::ErrorData> {
    ///         let tools = mcp_tool::rmcp::structured(&self.tool_router).schema_profile_from_client();
    ///         Ok(ListToolsResult::with_all_items(tools.list_for(&context)))
    ///     }
    /// }
    /// ```
    pub fn schema_profile_from_client(mut self) -> Self {
        self.settings.profile_from_client = true;
        self
    }

    /// How the state of calls waiting for their user is sealed and spent (protocol
    /// 2026-07-28): the key every replica shares, the store of rounds. Without, a key
    /// made up for this process and its memory.
    pub fn rounds(mut self, rounds: &'r Rounds) -> Self {
        self.rounds = rounds;
        self
    }

    /// Whether the model reads what went wrong in an error a method did not sort (see
    /// [`Toolbox::show_unexpected_errors`](crate::Toolbox::show_unexpected_errors);
    /// the default: `false`).
    pub fn show_unexpected_errors(mut self, on: bool) -> Self {
        self.settings.show_unexpected = on;
        self
    }

    /// Sorts the errors of type `E` that a method returns unsorted (what `?` makes of
    /// them), as [`Toolbox::sort_errors`](crate::Toolbox::sort_errors) does: give it
    /// once, in the `#[tool_handler(router = ...)]` expression.
    pub fn sort_errors<E, F>(mut self, sort: F) -> Self
    where
        E: std::error::Error + 'static,
        F: Fn(&E) -> Option<crate::result::ToolError> + Send + Sync + 'static,
    {
        std::sync::Arc::make_mut(&mut self.settings.sorting).add(sort);
        self
    }

    /// Whether an error result also carries the draft standard's failure object,
    /// `_meta["io.modelcontextprotocol/toolFailure"]` (see
    /// [`Toolbox::tool_failure_meta`](crate::Toolbox::tool_failure_meta); the default:
    /// `false`).
    pub fn tool_failure_meta(mut self, on: bool) -> Self {
        self.settings.tool_failure = on;
        self
    }

    /// Runs the calls of `#[tool]` methods whose `Parameters` type supports tasks
    /// (`#[mcp_tool(task_support = "...")]`) as tasks kept by `tasks`, for a client
    /// that declared the extension: the arguments are checked first (a refusal answered
    /// at once, no task), then the method runs in the background on a clone of the
    /// server. The server answers `tasks/*` with [`Tasks::get_task`] and its siblings,
    /// and advertises the extension (see the manual's page on tasks).
    ///
    /// [`Tasks::get_task`]: crate::tasks::Tasks::get_task
    pub fn tasks(mut self, tasks: &'r crate::serve::tasks::Tasks) -> Self
    where
        S: Clone,
    {
        self.tasks = Some((tasks, S::clone));
        self
    }

    /// The last step of an answer that is a result, as a `Toolbox`'s: the draft failure
    /// object where asked, and the operator's event.
    fn settle(&self, started: &Started, result: &mut rmcp::model::CallToolResult) {
        settle(&self.settings, started, result);
    }

    /// The profile of the client of `context`.
    fn profile_of(&self, context: &RequestContext<RoleServer>) -> SchemaProfile {
        if !self.settings.profile_from_client {
            return self.settings.profile;
        }
        self.settings
            .profile_for(super::peer::client_name(context).as_deref())
    }

    /// Judges date rules in `context` instead of the system clock on each call, as
    /// [`Toolbox::in_context`](crate::Toolbox::in_context) does: a fixed day for tests
    /// and demos, or the users' time zone. The router expression is evaluated for each
    /// call, so the context is best kept in the server and cloned (a clone shares it).
    ///
    /// ```
    /// # use mcp_tool::rmcp::Parameters;
    /// # use mcp_tool::{McpTool, ToolError};
    /// # use rmcp::handler::server::tool::ToolRouter;
    /// # use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// use mcp_tool::Context;
    /// # /// Book a trip.
    /// # #[derive(McpTool, serde::Deserialize)]
    /// # struct Book {
    /// #     #[validate(future_date(format = "%Y-%m-%d"))]
    /// #     day: String,
    /// # }
    ///
    /// #[derive(Clone)]
    /// struct Desk {
    ///     tool_router: ToolRouter<Self>,
    ///     today: Context,
    /// }
    /// # #[tool_router]
    /// # impl Desk {
    /// #     #[tool(description = "Book a trip")]
    /// #     async fn book(&self, Parameters(a): Parameters<Book>) -> Result<String, ToolError> {
    /// #         Ok(a.day)
    /// #     }
    /// # }
    ///
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).in_context(self.today.clone()))]
    /// impl ServerHandler for Desk {}
    ///
    /// let desk = Desk {
    ///     tool_router: Desk::tool_router(),
    ///     today: Context::on(2026, 11, 30).expect("a date"),
    /// };
    /// ```
    pub fn in_context(mut self, context: Context) -> Self {
        self.settings.context = Some(context);
        self
    }

    /// Whether [`Parameters`](crate::rmcp::Parameters) repairs known client mistakes (the default: `true`; see
    /// [`Toolbox::repairs`](crate::Toolbox::repairs)); the repairs made are said in the result's `_meta`.
    pub fn repairs(mut self, on: bool) -> Self {
        self.settings.repair = on;
        self
    }

    /// Whether an error may show what the call sent (the default: `true`); with `false`
    /// no value of a call is shown in any error result, a method's own included (see
    /// [`Toolbox::echo_values`](crate::Toolbox::echo_values) for all it holds back).
    /// Give it once, in the `#[tool_handler(router = ...)]` expression:
    ///
    /// ```
    /// # use mcp_tool::rmcp::Parameters;
    /// # use mcp_tool::{McpTool, ToolError};
    /// # use rmcp::handler::server::tool::ToolRouter;
    /// # use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// # /// Record a reading.
    /// # #[derive(McpTool, serde::Deserialize)]
    /// # struct Record { #[validate(range(max = 250))] systolic: u16 }
    /// # #[derive(Clone)]
    /// # struct Clinic { tool_router: ToolRouter<Self> }
    /// # #[tool_router]
    /// # impl Clinic {
    /// #     #[tool(description = "Record a reading")]
    /// #     async fn record(&self, Parameters(_): Parameters<Record>) -> Result<String, ToolError> {
    /// #         Ok("recorded".into())
    /// #     }
    /// # }
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).echo_values(false))]
    /// impl ServerHandler for Clinic {}
    /// ```
    pub fn echo_values(mut self, on: bool) -> Self {
        self.settings.echo_values = on;
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
        context.request_context.extensions.insert(ReadSettings {
            repair: self.settings.repair,
            values_shown: self.settings.echo_values,
        });
        if let Some(today) = &self.settings.context {
            context.request_context.extensions.insert(today.clone());
        }
        context
            .request_context
            .extensions
            .insert(self.unverified.clone());
        let mailbox = Mailbox::default();
        context.request_context.extensions.insert(mailbox.clone());
        context.request_context.extensions.insert(Stage::First);
        let caller = super::peer::caller_of(&context.request_context);
        let started = Started::now(context.name(), caller.as_ref().map(Caller::subject));
        let Some(route) = route else {
            let error = self.unknown_tool(context.name(), caller.as_ref());
            started.rejected("unknown_tool", &error.message);
            return Err(error);
        };
        if let Some(mut refused) = self.refused(context.name(), &context.request_context) {
            self.settle(&started, &mut refused);
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
            let reading = crate::describe::read::Reading {
                profile: self.profile_of(&context.request_context),
                repair: false,
                values_shown: self.settings.echo_values,
            };
            let checked = NO_ARGUMENTS.checked(&name, arguments, &Context::now(), reading, false);
            if let Err(error) = checked {
                let mut result = to_rmcp_result(error.into_call_result());
                self.settle(&started, &mut result);
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
            show_unexpected: self.settings.show_unexpected,
            sorting: std::sync::Arc::clone(&self.settings.sorting),
        };
        let name = called.tool.clone();
        #[cfg(feature = "ask")]
        let again = Again::of(&context);
        let first = match self.tasks {
            Some(tasks) if defers(&route, &context)? => {
                match check(&route, &context, &called, &mailbox).await {
                    Checked::Passed => {
                        let settings = &self.settings;
                        return start(settings, tasks, route, context, called, started).await;
                    }
                    Checked::Answered(response) => response,
                }
            }
            _ => {
                let first = answer(route.clone(), context, mailbox.clone(), name.clone());
                CALLED.scope(called.clone(), first).await
            }
        };
        let mut response = first;
        // A tool that asks its user: asked, then called again with the answers in. (In a
        // build without `ask` nothing asks, and the asking is not in the call's future.)
        #[cfg(feature = "ask")]
        if let Some((spec, arguments)) = mailbox.0.lock().ok().and_then(|mut l| l.asks.take()) {
            let reading = crate::describe::read::Reading {
                profile,
                repair: self.settings.repair,
                values_shown: self.settings.echo_values,
            };
            let ready = super::rounds::ready(reading, caller.clone());
            let call = |context| CALLED.scope(called, answer(route, context, mailbox, name));
            response = ask_then_call(spec, arguments, again, self.rounds, ready, call).await;
        }
        match &mut response {
            Ok(CallToolResponse::Complete(result)) => self.settle(&started, result),
            Ok(_) => {}
            Err(error) => started.rejected("malformed_request", &error.message),
        }
        response
    }

    /// The error of a call of `name`, which no tool has, by `caller`: it suggests and
    /// lists only the tools this caller is listed.
    fn unknown_tool(&self, name: &str, caller: Option<&Caller>) -> ErrorData {
        // (list_all sorts by name.)
        let mut tools = self.router.list_all();
        self.keep_permitted(&mut tools, caller);
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        ErrorData::invalid_params(
            crate::serve::toolbox::unknown_tool_message(name, &names),
            None,
        )
    }

    /// The tools, as [`ToolRouter::list_all`], each `inputSchema` in the profile's form
    /// and each `outputSchema` made portable and
    /// joined with the error envelope (see [`crate::output`]): rmcp writes schemars'
    /// schema as is (`format: "uint8"`, type arrays), and an error result's
    /// `structuredContent` would not match it, which the MCP Inspector reports as a
    /// failed call.
    ///
    /// With [`Structured::scopes`], only the tools that need no scope: this list
    /// sees no caller (see [`Structured::list_tools`] for the list each caller sees).
    pub fn list_all(&self) -> Vec<rmcp::model::Tool> {
        let caller = super::per_caller::listing_for();
        self.list_in(self.settings.profile, caller.as_ref())
    }

    /// [`Structured::list_all`] for the client of `context`, in its profile (see
    /// [`Structured::schema_profile_from_client`]).
    pub fn list_for(&self, context: &RequestContext<RoleServer>) -> Vec<rmcp::model::Tool> {
        let caller = super::peer::caller_of(context);
        self.list_in(self.profile_of(context), caller.as_ref())
    }

    /// The tools `caller` may call (`None`: a call without a verified caller), in
    /// `profile`, each schema as the client reads it.
    fn list_in(&self, profile: SchemaProfile, caller: Option<&Caller>) -> Vec<rmcp::model::Tool> {
        let mut tools = self.router.list_all();
        self.keep_permitted(&mut tools, caller);
        for tool in &mut tools {
            super::tasked::listed_execution(tool);
            if takes_nothing(&tool.input_schema) {
                let mut schema = (*tool.input_schema).clone();
                schema.insert("additionalProperties".into(), Value::Bool(false));
                tool.input_schema = Arc::new(schema);
            }
            if !profile.rules().as_built() {
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

    /// One tool, as [`ToolRouter::get`]. Its schema may carry the scopes its
    /// `Parameters` type declares, for the HTTP server to read (rmcp's macro writes
    /// `get_tool` with this; rmcp reads it to check `Mcp-Param-*` headers only); lists
    /// never show them.
    pub fn get(&self, name: &str) -> Option<&rmcp::model::Tool> {
        self.router_tool(name)
    }

    pub(super) fn router_tool(&self, name: &str) -> Option<&'r rmcp::model::Tool> {
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
    across: &[],
    union: None,
    asking: None,
    extend: None,
    scopes: &[],
    task_support: crate::task_support::TaskSupport::Forbidden,
    walk: crate::describe::spec::no_field,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Toolbox;

    /// Sets every setting of [`Settings`] away from its default, and what a call
    /// without a verified caller is served as, by the same names on whatever `$server`
    /// is: a name one of them lacks does not build.
    macro_rules! set_everything {
        ($server:expr) => {
            $server
                .schema_profile(SchemaProfile::Gemini)
                .schema_profile_from_client()
                .repairs(false)
                .echo_values(false)
                .show_unexpected_errors(true)
                .sort_errors(|_: &std::io::Error| None)
                .tool_failure_meta(true)
                .in_context(Context::now())
                .unverified_calls(Unverified::ScopesIgnored)
        };
    }

    #[test]
    fn a_toolbox_and_structured_set_the_same_settings_by_the_same_names() {
        let router = ToolRouter::<()>::new();
        let toolbox = set_everything!(Toolbox::new());
        let view = set_everything!(structured(&router));
        for settings in [&toolbox.settings, &view.settings] {
            // Every field named: a setting added to `Settings` does not build here
            // until both set it above.
            let Settings {
                profile,
                profile_from_client,
                repair,
                echo_values,
                show_unexpected,
                sorting,
                tool_failure,
                context,
            } = settings;
            assert_eq!(*profile, SchemaProfile::Gemini);
            assert!(*profile_from_client);
            assert!(!*repair);
            assert!(!*echo_values);
            assert!(*show_unexpected);
            assert_eq!(format!("{sorting:?}"), "ErrorSorting(1 sorts)");
            assert!(*tool_failure);
            assert!(context.is_some());
        }
        assert!(matches!(view.unverified, Unverified::ScopesIgnored));
    }
}
