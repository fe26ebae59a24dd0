//! The server of the official MCP conformance suite (`@modelcontextprotocol/conformance`),
//! written as a server author writes one with this crate: the suite's fixture tools are
//! rmcp `#[tool]` methods served through [`mcp_tool::rmcp::structured`], those that take
//! arguments with them derived by `#[derive(McpTool)]`; prompts, resources, completion
//! and logging are rmcp's own; the tasks extension's fixtures (`slow_compute`,
//! `failing_job`, ...) are a `Toolbox` served beside the router, which answers their
//! calls and `tasks/*`. `.ci/run` runs the suite against it over Streamable HTTP,
//! every scenario protocol 2026-07-28 requires and the 2025-11-25 suite.
//!
//! ```sh
//! cargo run --example conformance -- --http 127.0.0.1:8080   # over MCP Streamable HTTP, at /mcp
//! cargo run --example conformance -- --stdio                 # over MCP stdio
//! ```
//!
//! The fixtures answer exactly what the suite asks of them (its texts, its keys); a real
//! server would not ask for a name it does not use.

// Logging, sampling and roots are deprecated in rmcp (SEP-2577); the 2025-11-25 suite
// still holds a server to them.
#![allow(deprecated)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool::rmcp::Parameters;
use mcp_tool::{McpTool, Progress, SchemaProfile, ToolError};
use rmcp::handler::server::tool::{InputResponses as Answers, RequestState, ToolRouter};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    ClientCapabilities, CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock,
    CreateMessageRequestParams, CustomRequest, CustomResult, ElicitRequestParams,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, GetTaskParams, GetTaskResult,
    Implementation, InputRequests, InputRequiredResult, InputResponses, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "common/serve.rs"]
mod serve;

/// A red pixel, as a PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// No sound, as a WAV file.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// Looks up records of one region. Its `region` is mirrored by the client into an
/// `Mcp-Param-Region` HTTP header (SEP-2243), which the server holds against the body.
#[derive(McpTool, Deserialize)]
struct RegionQuery {
    /// The region, such as us-west1.
    #[schemars(extend("x-mcp-header" = "Region"))]
    #[validate(length(min = 1, max = 64))]
    region: String,
    /// What to look up.
    query: String,
}

/// Adds two integers: a tool with required, typed arguments, for the invalid-argument
/// checks of SEP-1303 (a wrong argument is a tool execution error, not a JSON-RPC one).
#[derive(McpTool, Deserialize)]
struct AddNumbers {
    /// The first term.
    a: i64,
    /// The second term.
    #[validate(range(min = -1000, max = 1000))]
    b: i64,
}

/// The suite's JSON Schema 2020-12 fixture: a schema with `$defs`, `$anchor`, `allOf`,
/// `anyOf` and `if`/`then`/`else`, which no derive writes; its tool takes rmcp's own
/// `Parameters`, and its schema is advertised as written.
#[derive(Deserialize)]
#[allow(dead_code)] // the fixture only advertises its schema
struct Contact(Value);

impl schemars::JsonSchema for Contact {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Contact".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::try_from(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        }))
        .expect("the fixture's schema is an object")
    }
}

/// The states of the multi-round fixtures, kept here: a `requestState` is only the name of
/// one, hard to guess, so a changed state names none and is refused. For the suite's runs
/// they are kept as long as the process: a server keeps them with a lifetime, or seals
/// the state instead, as this crate's own rounds do (`mcp_tool::ask::Rounds`).
#[derive(Default)]
struct IssuedStates(Mutex<HashMap<String, (&'static str, u8)>>);

impl IssuedStates {
    /// A state naming round `round` of `tool`.
    fn issue(&self, tool: &'static str, round: u8) -> String {
        let state = random_name();
        let mut rounds = self.0.lock().unwrap_or_else(|e| e.into_inner());
        rounds.insert(state.clone(), (tool, round));
        state
    }

    /// The round a state names, if this server issued it for `tool`.
    fn round(&self, tool: &str, state: &str) -> Result<u8, ErrorData> {
        let rounds = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match rounds.get(state) {
            Some((issued_for, round)) if *issued_for == tool => Ok(*round),
            _ => Err(ErrorData::invalid_params(
                "The requestState is not one this server issued for this tool: it was changed, or \
                 belongs to another call. Call the tool again without requestState and inputResponses.",
                None,
            )),
        }
    }
}

/// A name no client can guess from the ones it saw: the current time hashed twice with
/// the standard library's hasher, whose keys are random for each process. (Not for
/// secrets: a server that puts anything in the state seals it.)
fn random_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        hasher.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// An `elicitation/create` request for one string or boolean `field`.
fn elicit(message: &str, field: &str, kind: &str) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {field: {"type": kind}},
                "required": [field]
            }
        }
    })
}

/// A `sampling/createMessage` request for one question.
fn sample(question: &str, max_tokens: u32) -> Value {
    json!({
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": question}}],
            "maxTokens": max_tokens
        }
    })
}

/// A `roots/list` request.
fn list_roots() -> Value {
    json!({"method": "roots/list", "params": {}})
}

/// An `InputRequiredResult` of these requests (by key), with `state` to echo.
fn input_required(
    requests: Value,
    state: Option<String>,
) -> Result<InputRequiredResult, ErrorData> {
    let requests: InputRequests = serde_json::from_value(requests)
        .map_err(|e| ErrorData::internal_error(format!("an input request: {e}"), None))?;
    Ok(InputRequiredResult::new(Some(requests), state))
}

/// The accepted content of the answer under `key`, if it is one.
fn accepted<'a>(
    responses: &'a Option<InputResponses>,
    key: &str,
) -> Option<&'a serde_json::Map<String, Value>> {
    let response = responses.as_ref()?.get(key)?;
    (response.get("action")? == "accept")
        .then(|| response.get("content")?.as_object())
        .flatten()
}

/// The text of a sampling answer under `key`.
fn sampled<'a>(responses: &'a Option<InputResponses>, key: &str) -> Option<&'a str> {
    responses
        .as_ref()?
        .get(key)?
        .get("content")?
        .get("text")?
        .as_str()
}

/// The roots of a `roots/list` answer under `key`, by URI.
fn roots(responses: &Option<InputResponses>, key: &str) -> Option<Vec<String>> {
    let roots = responses.as_ref()?.get(key)?.get("roots")?.as_array()?;
    Some(
        roots
            .iter()
            .filter_map(|r| Some(r.get("uri")?.as_str()?.to_owned()))
            .collect(),
    )
}

/// Greets the user by the name answered under `user_name`, or asks for it: answers under
/// other keys, or not accepted, are asked again (not an error).
fn greet(responses: &Option<InputResponses>) -> Result<CallToolResponse, ErrorData> {
    match accepted(responses, "user_name").and_then(|c| c.get("name")?.as_str()) {
        Some(name) => Ok(text(format!("Hello, {name}!")).into()),
        None => {
            let question = json!({"user_name": elicit("What is your name?", "name", "string")});
            Ok(input_required(question, None)?.into())
        }
    }
}

/// The tasks extension's fixtures (SEP-2663), served by a `Toolbox` beside the router:
/// a tool says whether it runs as a task where it is defined.
mod tasks {
    use std::time::Duration;

    use mcp_tool::{Ask, Cancelled, McpTool, ToolError, Toolbox};
    use serde::Deserialize;

    /// Greets someone, at once (no task).
    #[derive(McpTool, Deserialize)]
    pub struct Greet {
        /// Who to greet.
        name: String,
    }

    async fn greet(args: Greet) -> Result<String, ToolError> {
        Ok(format!("Hello, {}!", args.name))
    }

    /// Computes slowly: waits `seconds`, then answers; stops at once when cancelled.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "optional")]
    pub struct SlowCompute {
        /// How long the computation takes.
        #[validate(range(min = 0, max = 600))]
        seconds: f64,
        /// A name for the computation.
        label: Option<String>,
    }

    async fn slow_compute(cancelled: Cancelled, args: SlowCompute) -> Result<String, ToolError> {
        tokio::select! {
            () = cancelled => Err(ToolError::transient("Cancelled before it finished.")),
            () = tokio::time::sleep(Duration::from_secs_f64(args.seconds)) => Ok(format!(
                "Computed {} in {} s",
                args.label.unwrap_or_default(),
                args.seconds
            )),
        }
    }

    /// Fails as a tool fails (a result with isError) after a second; only as a task.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "required")]
    pub struct FailingJob {}

    async fn failing_job(_: FailingJob) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Err(ToolError::business("The job failed, as it always does."))
    }

    /// Fails with no result of the tool: its handler panics.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "optional")]
    pub struct ProtocolErrorJob {}

    async fn protocol_error_job(_: ProtocolErrorJob) -> Result<String, ToolError> {
        panic!("protocol_error_job fails by design")
    }

    /// Deletes a file once the user confirms, asked within its task: the task waits for
    /// the answer (`input_required`) that the client sends with `tasks/update`.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "optional")]
    pub struct ConfirmDelete {
        /// The file.
        filename: String,
    }

    async fn confirm_delete(ask: Ask, args: ConfirmDelete) -> Result<String, ToolError> {
        ask.confirm(&format!("Delete {}?", args.filename)).await?;
        Ok(format!("Deleted {}", args.filename))
    }

    /// Asks two questions at once within its task, then answers with both.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "optional")]
    pub struct MultiInput {}

    async fn multi_input(ask: Ask, _: MultiInput) -> Result<String, ToolError> {
        let (first, second) = tokio::join!(
            ask.confirm("First of two questions: go on?"),
            ask.confirm("Second of two questions: go on?"),
        );
        first?;
        second?;
        Ok("Both questions answered".to_owned())
    }

    /// Asks the user's name (a round of its own), then greets them in a task.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(task_support = "required")]
    pub struct TestToolWithTask {
        /// The user's name.
        #[validate(ask = "What is your name?")]
        name: String,
    }

    async fn test_tool_with_task(args: TestToolWithTask) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(200)).await;
        Ok(format!("Hello, {}! (from a task)", args.name))
    }

    pub fn toolbox() -> Toolbox {
        Toolbox::new()
            .named("mcp-tool-conformance", env!("CARGO_PKG_VERSION"))
            .tool(greet)
            .tool(slow_compute)
            .tool(failing_job)
            .tool(protocol_error_job)
            .tool(confirm_delete)
            .tool(multi_input)
            .tool(test_tool_with_task)
    }
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[derive(Clone)]
struct Conformance {
    tool_router: ToolRouter<Self>,
    states: Arc<IssuedStates>,
    /// The level `logging/setLevel` set (protocol 2025-11-25).
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
    /// The form the schemas are advertised in (`--schema-profile`).
    profile: SchemaProfile,
    /// Each client gets its family's form (`--schema-profile auto`).
    from_client: bool,
    /// The tasks extension's fixtures.
    tasks: Arc<mcp_tool::Toolbox>,
}

#[tool_router]
impl Conformance {
    fn new(profile: SchemaProfile, from_client: bool) -> Self {
        Conformance {
            tool_router: Self::tool_router(),
            states: Arc::default(),
            log_level: Arc::default(),
            profile,
            from_client,
            tasks: Arc::new(serve::state_key(tasks::toolbox())),
        }
    }

    /// The router as this server serves it, its schemas in the profile asked for.
    fn served(&self) -> mcp_tool::rmcp::Structured<'_, Self> {
        let router = mcp_tool::rmcp::structured(&self.tool_router);
        serve::profiled_router(router, self.profile, self.from_client)
    }

    #[tool(description = "Returns simple text content")]
    async fn test_simple_text(&self) -> String {
        "This is a simple text response for testing.".into()
    }

    #[tool(description = "Returns image content")]
    async fn test_image_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(PNG, "image/png")])
    }

    #[tool(description = "Returns audio content")]
    async fn test_audio_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(WAV, "audio/wav")])
    }

    #[tool(description = "Returns embedded resource content")]
    async fn test_embedded_resource(&self) -> CallToolResult {
        let resource = ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        )
        .with_mime_type("text/plain");
        CallToolResult::success(vec![ContentBlock::resource(resource)])
    }

    #[tool(description = "Returns text, an image and a resource")]
    async fn test_multiple_content_types(&self) -> CallToolResult {
        let resource = ResourceContents::text(
            r#"{"test":"data","value":123}"#,
            "test://mixed-content-resource",
        )
        .with_mime_type("application/json");
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG, "image/png"),
            ContentBlock::resource(resource),
        ])
    }

    #[tool(description = "Always fails")]
    async fn test_error_handling(&self) -> Result<String, ToolError> {
        Err(ToolError::business(
            "This tool intentionally returns an error for testing",
        ))
    }

    #[tool(description = "Reports its progress: 0, 50 and 100 of 100")]
    async fn test_tool_with_progress(&self, progress: Progress) -> String {
        for done in [0.0, 50.0, 100.0] {
            // Sent under the request's progressToken; to nobody without one.
            progress.report(done, Some(100.0), "").await;
            if done < 100.0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        "Progress test completed".into()
    }

    #[tool(description = "Logs three messages, at the level the client asked for")]
    async fn test_tool_with_logging(&self, context: RequestContext<RoleServer>) -> String {
        self.notify_client(
            &context,
            &[
                "Tool execution started",
                "Tool processing data",
                "Tool execution completed",
            ],
        )
        .await;
        "Logging test completed".into()
    }

    #[tool(description = "Logs one message, if the request asked for logs")]
    async fn test_logging_tool(&self, context: RequestContext<RoleServer>) -> String {
        self.notify_client(&context, &["test_logging_tool ran"])
            .await;
        "Logging tool completed".into()
    }

    #[tool(description = "Needs the client's sampling capability")]
    async fn test_missing_capability(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let declared = context
            .client_capabilities()
            .is_some_and(|c| c.sampling.is_some());
        if !declared {
            let mut required = ClientCapabilities::default();
            required.sampling = Some(Default::default());
            return Err(ErrorData::missing_required_client_capability(required));
        }
        Ok("The client can sample.".into())
    }

    #[tool(description = "Asks the user through the result, never on the stream")]
    async fn test_streaming_elicitation(
        &self,
        Answers(responses): Answers,
    ) -> Result<CallToolResponse, ErrorData> {
        greet(&responses)
    }

    #[tool(description = "Looks up records of one region")]
    async fn test_custom_headers(
        &self,
        Parameters(args): Parameters<RegionQuery>,
    ) -> Result<String, ToolError> {
        Ok(format!(
            "No records for {:?} in {}.",
            args.query, args.region
        ))
    }

    #[tool(description = "Adds two integers")]
    async fn add_numbers(
        &self,
        Parameters(args): Parameters<AddNumbers>,
    ) -> Result<String, ToolError> {
        Ok((args.a.saturating_add(args.b)).to_string())
    }

    #[tool(description = "Tool with JSON Schema 2020-12 features")]
    async fn json_schema_2020_12_tool(
        &self,
        _: rmcp::handler::server::wrapper::Parameters<Contact>,
    ) -> String {
        "Contact received.".into()
    }

    #[tool(description = "Asks the user's name, then greets them")]
    async fn test_input_required_result_elicitation(
        &self,
        Answers(responses): Answers,
    ) -> Result<CallToolResponse, ErrorData> {
        greet(&responses)
    }

    #[tool(description = "Asks the client's model a question")]
    async fn test_input_required_result_sampling(
        &self,
        Answers(responses): Answers,
    ) -> Result<CallToolResponse, ErrorData> {
        match sampled(&responses, "capital_question") {
            Some(answer) => Ok(text(format!("The model answered: {answer}")).into()),
            None => Ok(input_required(
                json!({"capital_question": sample("What is the capital of France?", 100)}),
                None,
            )?
            .into()),
        }
    }

    #[tool(description = "Asks the client for its roots")]
    async fn test_input_required_result_list_roots(
        &self,
        Answers(responses): Answers,
    ) -> Result<CallToolResponse, ErrorData> {
        match roots(&responses, "client_roots") {
            Some(roots) => Ok(text(format!("The client's roots: {}", roots.join(", "))).into()),
            None => Ok(input_required(json!({"client_roots": list_roots()}), None)?.into()),
        }
    }

    #[tool(description = "Asks for a confirmation and checks the state it echoes")]
    async fn test_input_required_result_request_state(
        &self,
        Answers(responses): Answers,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm_round("test_input_required_result_request_state", responses, state)
    }

    #[tool(description = "Asks the user, the model and the client at once")]
    async fn test_input_required_result_multiple_inputs(
        &self,
        Answers(responses): Answers,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        const TOOL: &str = "test_input_required_result_multiple_inputs";
        if let Some(state) = state {
            self.states.round(TOOL, &state)?;
            let name = accepted(&responses, "user_name").and_then(|c| c.get("name")?.as_str());
            if let (Some(name), Some(greeting), Some(roots)) = (
                name,
                sampled(&responses, "greeting"),
                roots(&responses, "client_roots"),
            ) {
                return Ok(text(format!("{greeting} {name} ({} roots)", roots.len())).into());
            }
        }
        let requests = json!({
            "user_name": elicit("What is your name?", "name", "string"),
            "greeting": sample("Generate a greeting", 50),
            "client_roots": list_roots(),
        });
        Ok(input_required(requests, Some(self.states.issue(TOOL, 1)))?.into())
    }

    #[tool(description = "Asks two questions, one round each")]
    async fn test_input_required_result_multi_round(
        &self,
        Answers(responses): Answers,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        const TOOL: &str = "test_input_required_result_multi_round";
        let round = match &state {
            Some(state) => self.states.round(TOOL, state)?,
            None => 0,
        };
        let step1 = || elicit("Step 1: What is your name?", "name", "string");
        let step2 = || elicit("Step 2: What is your favorite color?", "color", "string");
        let color = accepted(&responses, "step2").and_then(|c| c.get("color")?.as_str());
        match round {
            2 if color.is_some() => Ok(text(format!(
                "Both rounds answered: {}.",
                color.unwrap_or_default()
            ))
            .into()),
            2 => Ok(
                input_required(json!({"step2": step2()}), Some(self.states.issue(TOOL, 2)))?.into(),
            ),
            1 if accepted(&responses, "step1").is_some() => Ok(input_required(
                json!({"step2": step2()}),
                Some(self.states.issue(TOOL, 2)),
            )?
            .into()),
            _ => Ok(
                input_required(json!({"step1": step1()}), Some(self.states.issue(TOOL, 1)))?.into(),
            ),
        }
    }

    #[tool(description = "Refuses a requestState that was changed")]
    async fn test_input_required_result_tampered_state(
        &self,
        Answers(responses): Answers,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm_round(
            "test_input_required_result_tampered_state",
            responses,
            state,
        )
    }

    #[tool(description = "Asks only by the means the client declared")]
    async fn test_input_required_result_capabilities(
        &self,
        context: RequestContext<RoleServer>,
        Answers(responses): Answers,
    ) -> Result<CallToolResponse, ErrorData> {
        if responses.as_ref().is_some_and(|r| !r.is_empty()) {
            return Ok(text("Every input answered.").into());
        }
        let capabilities = context.client_capabilities().unwrap_or_default();
        let mut requests = serde_json::Map::new();
        if capabilities.elicitation.is_some() {
            requests.insert(
                "user_name".into(),
                elicit("What is your name?", "name", "string"),
            );
        }
        if capabilities.sampling.is_some() {
            requests.insert(
                "capital_question".into(),
                sample("What is the capital of France?", 100),
            );
        }
        if capabilities.roots.is_some() {
            requests.insert("client_roots".into(), list_roots());
        }
        if requests.is_empty() {
            let mut required = ClientCapabilities::default();
            required.elicitation = Some(Default::default());
            return Err(ErrorData::missing_required_client_capability(required));
        }
        Ok(input_required(Value::Object(requests), None)?.into())
    }

    #[tool(description = "Asks the model a question over the open connection (2025-11-25)")]
    async fn test_sampling(
        &self,
        context: RequestContext<RoleServer>,
        Parameters(args): Parameters<SamplingPrompt>,
    ) -> Result<String, ToolError> {
        let params: CreateMessageRequestParams = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": args.prompt}}],
            "maxTokens": 100
        }))
        .map_err(ToolError::unexpected)?;
        let answer = context
            .peer
            .create_message(params)
            .await
            .map_err(|e| ToolError::transient(format!("The client could not sample: {e}")))?;
        let answer = serde_json::to_value(&answer.message.content).unwrap_or(Value::Null);
        Ok(format!("LLM response: {answer}"))
    }

    #[tool(description = "Asks the user for their name and email (2025-11-25)")]
    async fn test_elicitation(
        &self,
        context: RequestContext<RoleServer>,
        Parameters(args): Parameters<ElicitationMessage>,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"}
            },
            "required": ["username", "email"]
        });
        self.ask(&context, &args.message, schema).await
    }

    #[tool(description = "Asks with defaults for every field (SEP-1034)")]
    async fn test_elicitation_sep1034_defaults(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User's name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User's age", "default": 30},
                "score": {"type": "number", "description": "User's score", "default": 95.5},
                "status": {"type": "string", "description": "User's status",
                           "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "description": "Whether user is verified", "default": true}
            }
        });
        self.ask(
            &context,
            "Please provide values (all have defaults)",
            schema,
        )
        .await
    }

    #[tool(description = "Asks with every form of choice (SEP-1330)")]
    async fn test_elicitation_sep1330_enums(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {"type": "string", "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                               "enumNames": ["Option One", "Option Two", "Option Three"]},
                "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"}
                ]}}
            }
        });
        self.ask(&context, "Choose your options", schema).await
    }
}

/// What `test_sampling` asks the model.
#[derive(McpTool, Deserialize)]
struct SamplingPrompt {
    /// The prompt to send.
    #[validate(length(min = 1))]
    prompt: String,
}

/// What `test_elicitation` shows the user.
#[derive(McpTool, Deserialize)]
struct ElicitationMessage {
    /// The message to show.
    #[validate(length(min = 1))]
    message: String,
}

impl Conformance {
    /// A round that asks for a confirmation with a state of its own: the retry's state
    /// must be one issued for `tool` (a changed one is a JSON-RPC error, -32602).
    fn confirm_round(
        &self,
        tool: &'static str,
        responses: Option<InputResponses>,
        state: Option<String>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(state) = state {
            self.states.round(tool, &state)?;
            if accepted(&responses, "confirm").is_some() {
                return Ok(text("state-ok: the state echoed is the one issued.").into());
            }
        }
        let question = json!({"confirm": elicit("Please confirm", "ok", "boolean")});
        Ok(input_required(question, Some(self.states.issue(tool, 1)))?.into())
    }

    /// Sends `messages` to the client as MCP logging notifications, if it asked for them
    /// at info or below: in the request's `_meta` (2026-07-28), or by `logging/setLevel`
    /// (2025-11-25).
    async fn notify_client(&self, context: &RequestContext<RoleServer>, messages: &[&str]) {
        let asked = context
            .meta
            .log_level()
            .or(*self.log_level.lock().unwrap_or_else(|e| e.into_inner()));
        if !asked.is_some_and(|level| matches!(level, LoggingLevel::Debug | LoggingLevel::Info)) {
            return;
        }
        for message in messages {
            let param: Result<LoggingMessageNotificationParam, _> = serde_json::from_value(json!({
                "level": "info", "logger": "conformance", "data": message
            }));
            if let Ok(param) = param {
                let _ = context.peer.notify_logging_message(param).await;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Asks the user with a form of `schema`, over the open connection (2025-11-25).
    async fn ask(
        &self,
        context: &RequestContext<RoleServer>,
        message: &str,
        schema: Value,
    ) -> Result<String, ToolError> {
        let params: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "form", "message": message, "requestedSchema": schema
        }))
        .map_err(ToolError::unexpected)?;
        let answer = context
            .peer
            .create_elicitation(params)
            .await
            .map_err(|e| ToolError::transient(format!("The user could not be asked: {e}")))?;
        Ok(format!(
            "The user answered: {}",
            serde_json::to_value(&answer).unwrap_or(Value::Null)
        ))
    }
}

/// The prompts, as `prompts/list` gives them.
fn prompts() -> Vec<Prompt> {
    let argument = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    vec![
        Prompt::new(
            "test_simple_prompt",
            Some("A prompt without arguments"),
            None,
        ),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt of two arguments"),
            Some(vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ]),
        ),
        Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A prompt that embeds a resource"),
            Some(vec![argument(
                "resourceUri",
                "URI of the resource to embed",
            )]),
        ),
        Prompt::new(
            "test_prompt_with_image",
            Some("A prompt with an image"),
            None,
        ),
        Prompt::new(
            "test_input_required_result_prompt",
            Some("A prompt that asks the user for its context first"),
            None,
        ),
    ]
}

/// The resources, as `resources/list` gives them.
fn resources() -> Vec<Resource> {
    vec![
        Resource::new("test://static-text", "static-text")
            .with_description("A static text resource")
            .with_mime_type("text/plain"),
        Resource::new("test://static-binary", "static-binary")
            .with_description("A static binary resource (a PNG)")
            .with_mime_type("image/png"),
    ]
}

/// `result` with caching hints where the request's protocol has them (SEP-2549): good
/// for a minute, the same for every user.
macro_rules! cached {
    ($result:expr, $context:expr) => {{
        let result = $result;
        let hinted = $context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        if hinted {
            result
                .with_ttl_ms(60_000)
                .with_cache_scope(CacheScope::Public)
        } else {
            result
        }
    }};
}

/// A prompt argument, or the JSON-RPC error for its absence.
fn argument<'a>(request: &'a GetPromptRequestParams, name: &str) -> Result<&'a str, ErrorData> {
    request
        .arguments
        .as_ref()
        .and_then(|a| a.get(name)?.as_str())
        .ok_or_else(|| {
            ErrorData::invalid_params(format!("The prompt needs the argument {name:?}."), None)
        })
}

#[tool_handler(router = self.served())]
impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_completions()
            .enable_logging()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            "mcp-tool-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = self.served().list_for(&context);
        tools.extend(self.tasks.list_tools(None, context.clone()).await?.tools);
        Ok(cached!(ListToolsResult::with_all_items(tools), &context))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.tasks.get(&request.name).is_some() {
            return self.tasks.call_tool(request, context).await;
        }
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.served().call(call).await
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let served = self.served();
        (served.get(name).cloned()).or_else(|| ServerHandler::get_tool(&*self.tasks, name))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks.get_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.update_task(request, context).await
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(cached!(
            ListPromptsResult::with_all_items(prompts()),
            &context
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let user_text = |text: String| PromptMessage::new_text(Role::User, text);
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![user_text("This is a simple prompt for testing.".into())],
            "test_prompt_with_arguments" => {
                let (arg1, arg2) = (argument(&request, "arg1")?, argument(&request, "arg2")?);
                vec![user_text(format!(
                    "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
                ))]
            }
            "test_prompt_with_embedded_resource" => {
                let uri = argument(&request, "resourceUri")?;
                let resource =
                    ResourceContents::text("Embedded resource content for testing.", uri)
                        .with_mime_type("text/plain");
                vec![
                    PromptMessage::new(Role::User, ContentBlock::resource(resource)),
                    user_text("Please process the embedded resource above.".into()),
                ]
            }
            "test_prompt_with_image" => vec![
                PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
                user_text("Please analyze the image above.".into()),
            ],
            "test_input_required_result_prompt" => {
                let responses = request.input_responses;
                let Some(context) =
                    accepted(&responses, "user_context").and_then(|c| c.get("context")?.as_str())
                else {
                    let question =
                        elicit("What context should the prompt use?", "context", "string");
                    return Ok(input_required(json!({"user_context": question}), None)?.into());
                };
                vec![user_text(format!("Answer in this context: {context}"))]
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("There is no prompt named {other:?}."),
                    Some(json!({"name": other})),
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(cached!(
            ListResourcesResult::with_all_items(resources()),
            &context
        ))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new("test://template/{id}/data", "template-data")
            .with_description("The data of one id")
            .with_mime_type("application/json");
        Ok(cached!(
            ListResourceTemplatesResult::with_all_items(vec![template]),
            &context
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let id = uri
            .strip_prefix("test://template/")
            .and_then(|rest| rest.strip_suffix("/data"))
            .filter(|id| !id.is_empty() && !id.contains('/'));
        let contents = match (uri, id) {
            ("test://static-text", _) => {
                ResourceContents::text("This is the content of the static text resource.", uri)
                    .with_mime_type("text/plain")
            }
            ("test://static-binary", _) => {
                ResourceContents::blob(PNG, uri).with_mime_type("image/png")
            }
            (_, Some(id)) => ResourceContents::text(
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                    .to_string(),
                uri,
            )
            .with_mime_type("application/json"),
            _ => {
                return Err(ErrorData::invalid_params(
                    "Resource not found",
                    Some(json!({"uri": uri})),
                ));
            }
        };
        Ok(cached!(ReadResourceResult::new(vec![contents]), &context).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let candidates: &[&str] = match &request.r#ref {
            Reference::Prompt(_) => &["paris", "park", "party", "hello", "world"],
            _ => &["1", "2", "3", "123"],
        };
        let typed = request.argument.value.to_lowercase();
        let values: Vec<String> = candidates
            .iter()
            .filter(|c| c.starts_with(&typed))
            .map(|c| c.to_string())
            .collect();
        let total = values.len() as u32;
        let mut completion =
            CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?;
        completion.total = Some(total);
        completion.has_more = Some(false);
        Ok(CompleteResult::new(completion))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = Some(request.level);
        Ok(())
    }

    // Under 2026-07-28 a client subscribes with `subscriptions/listen`: every kind of
    // notification it asks for that this server advertises is accepted (rmcp sends the
    // acknowledgment and tags what follows). Nothing here changes, so none follows.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        subscription(&request.uri)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        subscription(&request.uri)
    }

    // rmcp reads a tools/call whose arguments are not an object as a request of an
    // unknown method (-32601); this answers it as a malformed request (-32602).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        mcp_tool::rmcp::reject_malformed_call(request)
    }
}

/// A subscription to `uri`: nothing here changes, so none is ever notified; one to a
/// resource that does not exist yet is kept too, as the protocol allows.
fn subscription(uri: &str) -> Result<(), ErrorData> {
    if uri.is_empty() {
        return Err(ErrorData::invalid_params(
            "The uri to subscribe to is empty.",
            None,
        ));
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let command = serve::command_line("conformance", &[]);
    let server = Conformance::new(command.profile, command.from_client);
    match command.mode {
        serve::Mode::Http(addr) => serve::http(server, addr).await,
        serve::Mode::Stdio | serve::Mode::Demo => serve::stdio(server).await,
    }
}

#[cfg(test)]
#[path = "../tests/support/connect.rs"]
mod connect;

#[cfg(test)]
mod tests {
    use rmcp::model::CallToolRequestParams;
    use serde_json::{Value, json};

    use super::{Conformance, SchemaProfile};

    /// The two checks of the conformance suite's SEP-1303 draft, which has no fixture for
    /// them yet, against a derived tool with required, typed arguments: an argument of the
    /// wrong type and a missing one each come back as a tool execution error (`isError`,
    /// naming the argument), never as a JSON-RPC error.
    #[tokio::test]
    async fn invalid_arguments_are_tool_execution_errors() {
        let client =
            super::connect::connect(Conformance::new(SchemaProfile::Portable, false)).await;
        let call = |arguments: Value| {
            let Value::Object(arguments) = arguments else {
                unreachable!()
            };
            client.call_tool(CallToolRequestParams::new("add_numbers").with_arguments(arguments))
        };

        let wrong_type = call(json!({"a": "two", "b": 3}))
            .await
            .expect("a result, not a JSON-RPC error");
        let wrong_type = serde_json::to_value(wrong_type).unwrap();
        assert_eq!(wrong_type["isError"], true, "{wrong_type}");
        let violations = &wrong_type["structuredContent"]["violations"];
        assert_eq!(violations[0]["path"], "/a", "{wrong_type}");
        assert!(
            wrong_type["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("integer")
        );

        let missing = call(json!({"a": 2}))
            .await
            .expect("a result, not a JSON-RPC error");
        let missing = serde_json::to_value(missing).unwrap();
        assert_eq!(missing["isError"], true, "{missing}");
        assert_eq!(
            missing["structuredContent"]["violations"][0]["path"], "/b",
            "{missing}"
        );

        let valid = call(json!({"a": 2, "b": 3})).await.unwrap();
        assert_eq!(
            serde_json::to_value(valid).unwrap()["content"][0]["text"],
            "5"
        );
    }
}
