//! Errors of well-known types sorted once for the whole server (`Toolbox::sort_errors`,
//! `structured(..).sort_errors`): `?` on one, or on the author's error around one, lands
//! in its category with the author's summary, never the error's own text. And under
//! `structured(..)`, the retry advice after a method's unexpected error comes from rmcp's
//! `annotations(read_only_hint, idempotent_hint)`.

use std::error::Error;
use std::fmt;
use std::time::Duration;

use mcp_tool::rmcp::Parameters;
use mcp_tool::{McpTool, ToolError, Toolbox};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/connect.rs"]
mod support_connect;
use support_connect::connect;

/// The errors of an object store's SDK: their text holds what no model should read.
#[derive(Debug)]
enum StoreError {
    Unreachable,
    Throttled,
    NoSuchKey,
    Forbidden,
    Corrupt,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?} at 10.0.0.7:9000 (bucket secret-bucket-42)")
    }
}

impl Error for StoreError {}

/// The author's context around the SDK's error.
#[derive(Debug)]
struct Loading(StoreError);

impl fmt::Display for Loading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("loading the object")
    }
}

impl Error for Loading {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

/// How this server sorts the store's errors, once.
fn sort_store(error: &StoreError) -> Option<ToolError> {
    match error {
        StoreError::Unreachable => Some(ToolError::transient(
            "The object store could not be reached.",
        )),
        StoreError::Throttled => Some(
            ToolError::transient("The object store is busy.").retry_after(Duration::from_secs(2)),
        ),
        StoreError::NoSuchKey => {
            Some(ToolError::business("No object has this key.").with_hint("List the keys first."))
        }
        StoreError::Forbidden => Some(ToolError::permission(
            "This server may not read that bucket.",
        )),
        StoreError::Corrupt => None,
    }
}

fn store_error(kind: &str) -> StoreError {
    match kind {
        "unreachable" => StoreError::Unreachable,
        "throttled" => StoreError::Throttled,
        "missing" => StoreError::NoSuchKey,
        "forbidden" => StoreError::Forbidden,
        _ => StoreError::Corrupt,
    }
}

/// Read an object.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(read_only)]
struct GetObject {
    /// How the store fails.
    #[validate(enum = ["unreachable", "throttled", "missing", "forbidden", "corrupt"])]
    fail: String,
}

/// Delete an object.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(destructive)]
struct DeleteObject {
    /// How the store fails.
    #[validate(enum = ["unreachable", "throttled", "missing", "forbidden", "corrupt"])]
    fail: String,
}

async fn get_object(args: GetObject) -> Result<String, ToolError> {
    Err(Loading(store_error(&args.fail)))?
}

async fn delete_object(args: DeleteObject) -> Result<String, ToolError> {
    Err(store_error(&args.fail))?
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn called(tools: &Toolbox, name: &str, fail: &str) -> Value {
    let result = block_on(tools.call(name, json!({ "fail": fail }))).unwrap();
    let value = result.to_value();
    assert_eq!(value["isError"], true, "{value}");
    assert!(!value.to_string().contains("secret-bucket"), "{value}");
    assert!(!value.to_string().contains("10.0.0.7"), "{value}");
    value
}

#[test]
fn an_error_the_server_sorts_lands_in_its_category_through_a_toolbox() {
    let tools = Toolbox::new()
        .sort_errors(sort_store)
        .tool(get_object)
        .tool(delete_object);
    for (fail, category, message, retryable) in [
        (
            "unreachable",
            "transient",
            "The object store could not be reached.",
            true,
        ),
        ("throttled", "transient", "The object store is busy.", true),
        ("missing", "business", "No object has this key.", false),
        (
            "forbidden",
            "permission",
            "This server may not read that bucket.",
            false,
        ),
    ] {
        // Found inside the author's own error, down its chain.
        let result = called(&tools, "get_object", fail);
        let content = &result["structuredContent"];
        assert_eq!(content["errorCategory"], category, "{fail}: {result}");
        assert_eq!(content["message"], message, "{fail}: {result}");
        assert_eq!(content["isRetryable"], retryable, "{fail}: {result}");
        // The call it answers is kept.
        assert_eq!(content["attempted_query"]["tool"], "get_object");
        assert_eq!(content["attempted_query"]["arguments"]["fail"], fail);
    }
    let busy = called(&tools, "get_object", "throttled");
    assert_eq!(busy["structuredContent"]["retryAfterSeconds"], 2, "{busy}");
    let missing = called(&tools, "get_object", "missing");
    let text = missing["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("List the keys first."), "{text}");

    // A tool that may write: a transient error may have taken effect, so the identical
    // call is not offered as safe.
    let result = called(&tools, "delete_object", "unreachable");
    let content = &result["structuredContent"];
    assert_eq!(content["errorCategory"], "transient", "{result}");
    assert_eq!(content["isRetryable"], false, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("check whether"), "{text}");
    // Its business error is what it says.
    let result = called(&tools, "delete_object", "missing");
    assert_eq!(result["structuredContent"]["errorCategory"], "business");

    // One the sort leaves stays unexpected: logged, its text never shown.
    let result = called(&tools, "get_object", "corrupt");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("get_object failed with an unexpected error"),
        "{text}"
    );

    // Without the sort, the same error is unexpected.
    let unsorted = Toolbox::new().tool(get_object);
    let result = called(&unsorted, "get_object", "unreachable");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("unexpected error"), "{text}");
}

/// The same store behind rmcp `#[tool]` methods.
#[derive(Clone)]
struct Store {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Store {
    #[tool(description = "Read an object.", annotations(read_only_hint = true))]
    async fn get_object(
        &self,
        Parameters(args): Parameters<GetObject>,
    ) -> Result<String, ToolError> {
        Err(Loading(store_error(&args.fail)))?
    }

    /// Read-only, but not said so to rmcp.
    #[tool(description = "Read an object's size.")]
    async fn get_size(&self, Parameters(args): Parameters<GetObject>) -> Result<String, ToolError> {
        Err(Loading(store_error(&args.fail)))?
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).sort_errors(sort_store))]
impl ServerHandler for Store {}

async fn call(client: &RunningService<RoleClient, ()>, name: &str, fail: &str) -> CallToolResult {
    let Value::Object(arguments) = json!({ "fail": fail }) else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
        .expect("a tool result");
    assert_eq!(result.is_error, Some(true));
    assert!(
        !format!("{result:?}").contains("secret-bucket"),
        "{result:?}"
    );
    result
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

#[tokio::test]
async fn an_error_the_server_sorts_lands_in_its_category_through_structured() {
    let client = connect(Store {
        tool_router: Store::tool_router(),
    })
    .await;
    let result = call(&client, "get_object", "throttled").await;
    let content = result.structured_content.clone().unwrap();
    assert_eq!(content["errorCategory"], "transient", "{content}");
    assert_eq!(content["message"], "The object store is busy.");
    assert_eq!(content["isRetryable"], true);
    assert_eq!(content["attempted_query"]["tool"], "get_object");
    let result = call(&client, "get_object", "forbidden").await;
    assert_eq!(
        result.structured_content.unwrap()["errorCategory"],
        "permission"
    );
    // The method rmcp was not told is read-only: a transient error may have taken
    // effect.
    let result = call(&client, "get_size", "unreachable").await;
    assert!(text(&result).contains("check whether"), "{}", text(&result));
    assert_eq!(result.structured_content.unwrap()["isRetryable"], false);
}

/// Under `structured(..)`, whether an unexpected error may have taken effect comes from
/// rmcp's `annotations(read_only_hint = true)`: a read-only method is told not to repeat
/// the call, not to check whether it took effect; one without the annotation is told to
/// check.
#[tokio::test]
async fn a_read_only_method_s_unexpected_error_says_it_took_no_effect() {
    let client = connect(Store {
        tool_router: Store::tool_router(),
    })
    .await;
    let read_only = call(&client, "get_object", "corrupt").await;
    let said = text(&read_only);
    assert!(
        said.starts_with("get_object failed with an unexpected error"),
        "{said}"
    );
    assert!(said.contains("Do not make the same call again"), "{said}");
    assert!(!said.contains("took effect"), "{said}");
    assert!(!said.contains("check whether"), "{said}");
    let unmarked = call(&client, "get_size", "corrupt").await;
    let said = text(&unmarked);
    assert!(said.contains("check whether"), "{said}");
    for result in [read_only, unmarked] {
        assert_eq!(result.structured_content.unwrap()["isRetryable"], false);
    }
}
