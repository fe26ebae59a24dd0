//! Serving derived tools: [`Toolbox`] holds each tool with its async handler and answers
//! `tools/list` and `tools/call`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::ask::Sealing;
use crate::caller::Unverified;
use crate::describe::profile::SchemaProfile;
use crate::describe::{McpTool, Tool};
use crate::result::ToolError;

mod callers;
mod calls;
mod setters;

pub use calls::CallError;
#[cfg(feature = "rmcp")]
pub(crate) use calls::{completed, malformed_call, unknown_tool_message};

use super::call::{Routed, Setup, call};
use super::handler::Handler;
use super::output::{OutputShape, output_schema};
use super::settings::Settings;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Checks the arguments, asks the user where the tool says so, then runs the handler:
/// the `tools/call` answer, or the error of a malformed request.
type Route<S> = dyn Fn(&Arc<S>, Value, Setup) -> BoxFuture<Result<Routed, ToolError>> + Send + Sync;

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
    /// Each tool's support of tasks, in registration order.
    pub(crate) task_support: Vec<crate::task_support::TaskSupport>,
    /// The tasks of the calls that became tasks (see [`Toolbox::tasks`]).
    #[cfg(feature = "rmcp")]
    pub(crate) tasks: Arc<super::tasks::Tasks>,
    /// What a call without a verified caller is served as.
    pub(super) unverified: Unverified,
    index: HashMap<&'static str, usize>,
    info: ServerInfo,
    /// The profile, the repairs, what an error shows (see the builder methods).
    pub(crate) settings: Settings,
    /// How the state of calls waiting for their user is sealed and spent.
    sealing: Arc<Sealing>,
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
    /// An empty toolbox whose handlers may take `Arc<S>` among the pieces before their
    /// arguments (see [`FromCall`](crate::FromCall)).
    pub fn with_state(state: S) -> Self {
        Toolbox::with_shared_state(Arc::new(state))
    }

    /// Like [`Toolbox::with_state`], for state already shared elsewhere.
    pub fn with_shared_state(state: Arc<S>) -> Self {
        Toolbox {
            state,
            tools: Default::default(),
            settings: Settings::default(),
            sealing: Arc::new(Sealing::new()),
            bare_outputs: HashMap::new(),
            routes: Vec::new(),
            scopes: Vec::new(),
            task_support: Vec::new(),
            #[cfg(feature = "rmcp")]
            tasks: Arc::default(),
            unverified: Unverified::Refused,
            index: HashMap::new(),
            #[cfg(feature = "rmcp")]
            rmcp_tools: std::sync::OnceLock::new(),
            info: ServerInfo {
                name: Cow::Borrowed("mcp-tool"),
                version: Cow::Borrowed(env!("CARGO_PKG_VERSION")),
            },
        }
    }

    /// The profile the schemas are advertised in for a client named `client` (its
    /// `clientInfo.name`, if known).
    pub fn profile_for(&self, client: Option<&str>) -> SchemaProfile {
        self.settings.profile_for(client)
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
    /// taking the pieces of the call it needs (`Arc<S>`, a [`Caller`](crate::Caller), an
    /// [`Ask`](crate::Ask), a [`Context`](crate::Context): see [`FromCall`](crate::FromCall)) in any
    /// order, then `T` last, and returning `Result<_, ToolError>`.
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
        self.task_support.push(T::spec().task_support);
        crate::caller::declare(T::spec().scopes);
        self
    }

    /// Every tool, in registration order, as `tools/list` lists it. Built at
    /// registration: listing allocates nothing.
    pub fn list(&self) -> &[Tool] {
        &self.tools[self.settings.profile.index()]
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
}

impl<S> fmt::Debug for Toolbox<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.index.keys().collect::<Vec<_>>())
            .field("context", &self.settings.context)
            .finish_non_exhaustive()
    }
}
