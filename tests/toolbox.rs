//! The registry: what `tools/list` and `tools/call` answer, for every kind of output and
//! failure, and that one toolbox shared by many threads answers as it does alone.
#![allow(dead_code)] // fields exist for the derive to read

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool::{CallError, Content, Context, McpTool, ToolError, Toolbox};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Look things up.
#[derive(McpTool, Deserialize)]
struct Lookup {
    /// What to return: object, none, empty, list, text, number, map, panic.
    #[validate(enum = ["object", "none", "empty", "list", "text", "number", "map", "panic"])]
    kind: String,
    #[validate(sensitive, length(min = 4))]
    token: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Found {
    id: u32,
}

/// Every output shape a handler can give, as `serde_json::Value` (no outputSchema).
async fn lookup(args: Lookup) -> Result<Value, ToolError> {
    Ok(match args.kind.as_str() {
        "object" => json!({"id": 1}),
        "none" => Value::Null,
        "empty" => json!([]),
        "list" => json!([1, 2]),
        "text" => json!("plain words"),
        "number" => json!(42),
        "map" => json!({}),
        _ => panic!("boom"),
    })
}

/// Find one thing.
#[derive(McpTool, Deserialize)]
struct FindOne {
    id: u32,
}

async fn find_one(args: FindOne) -> Result<Option<Found>, ToolError> {
    Ok((args.id == 1).then_some(Found { id: 1 }))
}

/// Get one thing.
#[derive(McpTool, Deserialize)]
struct GetOne {
    id: u32,
}

async fn get_one(args: GetOne) -> Result<Found, ToolError> {
    match args.id {
        1 => Ok(Found { id: 1 }),
        2 => Err(ToolError::permission("Not yours.")),
        _ => Err(ToolError::transient("Later.")
            .retry_after(std::time::Duration::from_millis(1500))
            .with_partial_results(json!({"seen": args.id}))),
    }
}

fn toolbox() -> Toolbox {
    Toolbox::new().tool(lookup).tool(find_one).tool(get_one)
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn call<S: Send + Sync + 'static>(tools: &Toolbox<S>, name: &str, arguments: Value) -> Value {
    block_on(tools.call(name, arguments)).unwrap().to_value()
}

#[test]
fn outputs_become_the_right_result() {
    let tools = toolbox();
    let lookup = |kind: &str| call(&tools, "lookup", json!({ "kind": kind }));
    let empty = json!({"content": [], "isError": false});
    assert_eq!(
        lookup("object"),
        json!({"content": [{"type": "text", "text": "{\"id\":1}"}], "structuredContent": {"id": 1}, "isError": false})
    );
    // Nothing found: a success with empty content.
    assert_eq!(lookup("none"), empty);
    assert_eq!(lookup("empty"), empty);
    // An `Option` output is carried as `{"result": ...}`, as its outputSchema says; none
    // is no match: no content.
    assert_eq!(
        call(&tools, "find_one", json!({"id": 9})),
        json!({"content": [], "structuredContent": {"result": null}, "isError": false}),
        "Ok(None) is no match"
    );
    // A handler with nothing to return.
    #[derive(McpTool, Deserialize)]
    struct Clear {}
    async fn clear(_: Clear) -> Result<(), ToolError> {
        Ok(())
    }
    let cleared = block_on(Toolbox::new().tool(clear).call("clear", json!({}))).unwrap();
    assert_eq!(cleared.to_value(), empty);
    // An empty object is a result that happens to be empty, not "no match".
    assert_eq!(lookup("map")["structuredContent"], json!({}));
    // Not an object: text only, since structuredContent must be an object.
    assert_eq!(
        lookup("list"),
        json!({"content": [{"type": "text", "text": "[1,2]"}], "isError": false})
    );
    assert_eq!(lookup("text")["content"][0]["text"], "plain words");
    assert_eq!(lookup("number")["content"][0]["text"], "42");
}

#[test]
fn the_output_schema_is_advertised_only_for_object_outputs() {
    let tools = toolbox();
    let schema = |name: &str| tools.get(name).unwrap().output_schema.clone();
    assert_eq!(schema("lookup"), None, "Value may be anything");
    // Not an object: its schema is the `result` property of one.
    let optional = schema("find_one").expect("Option<Found> is carried as result");
    assert_eq!(optional["anyOf"][0]["required"], json!(["result"]));
    let found = schema("get_one").expect("a struct is an object");
    assert_eq!(found["type"], "object");
    // The success shape, or the error envelope: an error result matches it too.
    let success = &found["anyOf"][0];
    assert_eq!(success["properties"]["id"]["type"], "integer");
    assert_eq!(found["anyOf"][1], mcp_tool::output::error_envelope());
    assert!(found.get("$schema").is_none() && found.get("title").is_none());
    // And it is listed, in registration order.
    let names: Vec<&str> = tools.list().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["lookup", "find_one", "get_one"]);
    let listed = serde_json::to_value(tools.list()).unwrap();
    assert_eq!(listed[2]["outputSchema"], found);
    assert!(listed[0].get("outputSchema").is_none());
}

#[test]
fn handler_errors_keep_their_category_and_get_the_attempted_query() {
    let tools = toolbox();
    let denied = call(&tools, "get_one", json!({"id": 2}));
    assert_eq!(denied["isError"], true);
    let structured = &denied["structuredContent"];
    assert_eq!(structured["errorCategory"], "permission");
    assert_eq!(structured["isRetryable"], false);
    assert_eq!(
        structured["attempted_query"],
        json!({"tool": "get_one", "arguments": {"id": 2}})
    );

    let later = call(&tools, "get_one", json!({"id": 3}));
    let structured = &later["structuredContent"];
    assert_eq!(structured["errorCategory"], "transient");
    assert_eq!(structured["isRetryable"], true);
    assert_eq!(structured["retryAfterSeconds"], 2, "1.5 s rounds up");
    assert_eq!(structured["partial_results"], json!({"seen": 3}));
    assert_eq!(
        later["content"][0]["text"],
        "Later.\nGathered before the failure: {\"seen\":3}\nRetry the same call in 2 seconds.\nError category: transient."
    );
}

#[test]
fn a_panic_is_an_error_result_that_tells_nothing_and_the_next_call_works() {
    let tools = toolbox();
    let result = call(
        &tools,
        "lookup",
        json!({"kind": "panic", "token": "hunter22"}),
    );
    assert_eq!(result["isError"], true);
    let shown = result.to_string();
    assert!(shown.contains("lookup failed with an internal error"));
    assert!(!shown.contains("boom"));
    assert!(
        !shown.contains("hunter22"),
        "the sensitive token is redacted"
    );
    assert_eq!(
        result["structuredContent"]["attempted_query"]["arguments"]["token"],
        "[redacted]"
    );
    assert_eq!(
        call(&tools, "lookup", json!({"kind": "object"}))["isError"],
        false
    );
    // `lookup` says nothing of its effects: it may have written before it failed, so
    // the same call is not offered as safe to repeat.
    assert_eq!(result["structuredContent"]["isRetryable"], false);
    assert!(shown.contains("check whether it did before calling it again"));
}

/// Look things up, read-only.
#[derive(McpTool, Deserialize)]
#[mcp_tool(read_only)]
struct Peek {}

/// Set a value; setting it twice is setting it once.
#[derive(McpTool, Deserialize)]
#[mcp_tool(idempotent)]
struct SetValue {}

/// Charge a card.
#[derive(McpTool, Deserialize)]
#[mcp_tool(destructive, idempotent = false)]
struct Charge {}

#[test]
fn a_panic_is_retryable_only_for_a_tool_that_is_safe_to_call_again() {
    async fn peek(_: Peek) -> Result<(), ToolError> {
        panic!("boom")
    }
    async fn set_value(_: SetValue) -> Result<(), ToolError> {
        panic!("boom")
    }
    async fn charge(_: Charge) -> Result<(), ToolError> {
        panic!("boom")
    }
    let tools = Toolbox::new().tool(peek).tool(set_value).tool(charge);
    for (tool, retryable) in [("peek", true), ("set_value", true), ("charge", false)] {
        let result = call(&tools, tool, json!({}));
        let structured = &result["structuredContent"];
        assert_eq!(structured["errorCategory"], "transient", "{tool}");
        assert_eq!(structured["isRetryable"], retryable, "{tool}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            text.contains("may have taken effect"),
            !retryable,
            "{tool}: {text}"
        );
    }
}

#[test]
fn only_an_unknown_tool_or_a_malformed_request_is_a_protocol_error() {
    let tools = toolbox();
    let unknown = block_on(tools.call("look_up", json!({}))).unwrap_err();
    assert!(matches!(unknown, CallError::UnknownTool { ref name, .. } if name == "look_up"));
    assert_eq!(unknown.code(), -32602);
    assert_eq!(
        unknown.to_jsonrpc_error(),
        json!({"code": -32602, "message": "Unknown tool: \"look_up\". Did you mean \"lookup\"? Tools: lookup, find_one, get_one."})
    );

    // A name of any length is cut short in the answer.
    let long = "x".repeat(100_000);
    let error = block_on(tools.call(&long, json!({}))).unwrap_err();
    assert!(error.message().len() < 1_000);

    for arguments in [json!([]), json!("{}"), json!(1), json!(true)] {
        let error = block_on(tools.call("lookup", arguments.clone())).unwrap_err();
        assert!(
            matches!(error, CallError::MalformedRequest { .. }),
            "{arguments}"
        );
    }
    // Absent arguments are {}: here, a missing required field, as a result.
    let missing = block_on(tools.call("lookup", Value::Null)).unwrap();
    assert!(missing.is_error);

    // So is the name of a malformed request's tool (any name: its arguments are
    // refused before the name is looked up).
    let error = block_on(tools.call_request(json!({"name": long, "arguments": [1]}))).unwrap_err();
    assert!(
        error.message().len() < 1_000,
        "{} bytes",
        error.message().len()
    );

    for params in [json!({}), json!({"name": 1}), json!([]), json!(null)] {
        let error = block_on(tools.call_request(params.clone())).unwrap_err();
        assert!(
            matches!(error, CallError::MalformedRequest { .. }),
            "{params}"
        );
    }
    let ok = block_on(tools.call_request(json!({"name": "get_one", "arguments": {"id": 1}})));
    assert_eq!(ok.unwrap().structured_content, Some(json!({"id": 1})));
}

#[test]
#[should_panic(expected = "two tools are named \"lookup\"")]
fn registering_two_tools_of_one_name_is_refused_at_start() {
    let _ = Toolbox::new().tool(lookup).tool(lookup);
}

/// Counts its calls through shared state.
#[derive(McpTool, Deserialize)]
struct Tick {
    #[validate(future_date)]
    until: Option<String>,
}

async fn tick(counter: Arc<AtomicUsize>, _: Tick) -> Result<Value, ToolError> {
    Ok(json!({ "n": counter.fetch_add(1, Ordering::SeqCst) }))
}

#[test]
fn state_and_context_reach_the_handlers() {
    let tools = Toolbox::with_state(AtomicUsize::new(0))
        .in_context(Context::on(2026, 11, 30).unwrap())
        .tool(tick);
    assert_eq!(call(&tools, "tick", json!({}))["structuredContent"]["n"], 0);
    assert_eq!(
        call(&tools, "tick", json!({"until": "2026-12-01"}))["isError"],
        false
    );
    // The fixed day decides, not the system clock.
    assert_eq!(
        call(&tools, "tick", json!({"until": "2026-11-30"}))["isError"],
        true
    );
    assert_eq!(tools.state().load(Ordering::SeqCst), 2);
}

#[test]
fn many_threads_through_one_toolbox_get_what_one_thread_gets() {
    let tools = Arc::new(toolbox());
    let inputs: Vec<(&str, Value)> = vec![
        ("lookup", json!({"kind": "object"})),
        ("lookup", json!({"kind": "nope", "token": "abc"})),
        ("get_one", json!({"id": 2})),
        ("get_one", json!({"id": "two", "x": 1})),
        ("find_one", json!({"id": 1})),
        ("lookup", json!({"kind": "panic"})),
    ];
    let sequential: Vec<Value> = inputs
        .iter()
        .map(|(name, args)| call(&tools, name, args.clone()))
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .build()
        .unwrap();
    let handles: Vec<_> = (0..400)
        .map(|i| {
            let tools = Arc::clone(&tools);
            let (name, args) = inputs[i % inputs.len()].clone();
            runtime.spawn(async move { (i, tools.call(name, args).await.unwrap().to_value()) })
        })
        .collect();
    for handle in handles {
        let (i, result) = runtime.block_on(handle).unwrap();
        assert_eq!(result, sequential[i % inputs.len()], "call {i}");
    }
    // The tool list is the one built at registration, whatever the threads did.
    assert!(std::ptr::eq(tools.list(), tools.list()));
}

#[test]
fn the_result_moved_out_of_an_error_is_made_of_its_text_and_structured_content() {
    let today = Context::on(2026, 11, 30).unwrap();
    let Err(invalid) = Lookup::from_arguments_in(
        json!({"kind": "objet", "token": "ab", "extra": [1, 2], "kind2": null}),
        &today,
    ) else {
        panic!("the arguments are invalid")
    };
    let by_hand = ToolError::transient("Later.")
        .with_hint("Wait.")
        .with_partial_results(json!({"seen": [1, 2]}))
        .retry_after(std::time::Duration::from_secs(3))
        .for_call("get_one", json!({"id": 3}));
    // `into_call_result` moves the error's parts into the result; `text` and
    // `structured_content` render them from a borrow, by other code.
    for error in [invalid, by_hand, ToolError::business("No.")] {
        let (text, structured) = (error.text(), error.structured_content());
        let result = error.into_call_result();
        assert!(result.is_error);
        assert_eq!(result.content, [Content::text(text)]);
        assert_eq!(result.structured_content, Some(structured));
    }
}

#[derive(McpTool, Deserialize)]
struct TicketA {}

#[derive(McpTool, Deserialize)]
struct TicketB {}

async fn ticket_a(_: TicketA) -> Result<(), ToolError> {
    Ok(())
}

async fn ticket_b(_: TicketB) -> Result<(), ToolError> {
    Ok(())
}

#[test]
fn a_tie_between_two_names_suggests_the_first_registered() {
    // Each toolbox has its own hash seed: the suggestion must not depend on it.
    for _ in 0..32 {
        let tools = Toolbox::new().tool(ticket_a).tool(ticket_b);
        let unknown = block_on(tools.call("ticket_c", json!({}))).unwrap_err();
        assert!(
            unknown.to_jsonrpc_error()["message"]
                .as_str()
                .unwrap()
                .contains("Did you mean \"ticket_a\"?"),
            "{unknown:?}"
        );
    }
}

/// For a client that drops `structuredContent` (LangChain's MCP adapters do, for
/// errors), the text is everything: each violation with its path, the category, the
/// hint, what was gathered, when to retry.
#[test]
fn the_text_alone_carries_every_violation_the_category_and_the_hint() {
    let tools = toolbox();
    let cases = [
        (
            "lookup",
            json!({"kind": "objet", "token": "ab", "extra": 1}),
        ),
        ("get_one", json!({"id": 2})),
        ("get_one", json!({"id": 3})),
    ];
    for (name, arguments) in cases {
        let result = call(&tools, name, arguments);
        let text = result["content"][0]["text"].as_str().unwrap();
        let structured = &result["structuredContent"];
        let category = structured["errorCategory"].as_str().unwrap();
        assert!(
            text.contains(&format!("Error category: {category}.")),
            "{text}"
        );
        for violation in structured["violations"].as_array().unwrap() {
            let path = violation["path"].as_str().unwrap().trim_start_matches('/');
            let line = format!("- {path}: {}", violation["message"].as_str().unwrap());
            assert!(text.contains(&line), "{line} in {text}");
        }
        for key in ["hint", "message"] {
            if let Some(part) = structured.get(key).and_then(Value::as_str) {
                assert!(text.contains(part), "{key} in {text}");
            }
        }
        if let Some(seconds) = structured.get("retryAfterSeconds") {
            assert!(text.contains(&format!("Retry the same call in {seconds} seconds.")));
        }
        if !structured["partial_results"].is_null() {
            assert!(text.contains("Gathered before the failure: "));
        }
    }
}

#[path = "support/everything.rs"]
mod everything_tools;

#[tokio::test]
async fn an_array_or_object_sent_as_a_string_of_its_json_is_repaired_and_said() {
    let tools = everything_tools::toolbox();
    let base = json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2});
    let with = |extra: Value| {
        let mut args = base.clone();
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };
    // Repaired, checked and used: the call succeeds, and `_meta` says what was done.
    let result = tools
        .call(
            "everything",
            with(json!({"pair": "[\"ab\", \"c\"]", "firstLeg": "{\"fromCode\": \"CDG\"}"})),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    assert_eq!(
        result.meta.unwrap()["mcp-tool/repairs"],
        json!([
            {"path": "/pair", "repair": "parsed the JSON array sent as a string"},
            {"path": "/firstLeg", "repair": "parsed the JSON object sent as a string"},
        ])
    );
    // A repaired value's own problem is at its path, and the repair is still said.
    let result = tools
        .call("everything", with(json!({"pair": "[\"ab\", \"\"]"})))
        .await
        .unwrap()
        .to_value();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["structuredContent"]["violations"][0]["path"],
        "/pair/1"
    );
    assert_eq!(result["_meta"]["mcp-tool/repairs"][0]["path"], "/pair");
    // A string that is not the JSON of what the schema wants is not repaired.
    let result = tools
        .call(
            "everything",
            with(json!({"pair": "{\"a\": 1}", "flag": "yes"})),
        )
        .await
        .unwrap()
        .to_value();
    let rules: Vec<&str> = result["structuredContent"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["type", "type"]);
    assert!(result.get("_meta").is_none());
}

#[tokio::test]
async fn a_scalar_sent_as_a_string_of_its_json_is_repaired_and_said() {
    let tools = everything_tools::toolbox();
    let result = tools
        .call(
            "everything",
            json!({
                "orderId": "ORD-2026-00042", "status": "PAID", "passengers": "2",
                "flag": "false", "price": "12.5", "offset": "-3",
            }),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    assert_eq!(
        result.meta.unwrap()["mcp-tool/repairs"],
        json!([
            {"path": "/passengers", "repair": "read the number sent as a string"},
            {"path": "/price", "repair": "read the number sent as a string"},
            {"path": "/offset", "repair": "read the number sent as a string"},
            {"path": "/flag", "repair": "read the boolean sent as a string"},
        ])
    );
    // Read, then checked: the repaired number's own problem is at its path.
    let result = tools
        .call(
            "everything",
            json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": "12"}),
        )
        .await
        .unwrap()
        .to_value();
    let violations = &result["structuredContent"]["violations"];
    assert_eq!(violations.as_array().unwrap().len(), 1, "{violations}");
    assert_eq!(violations[0]["path"], "/passengers");
    assert_eq!(violations[0]["rule"], "range");
    // `2.0` is an integer to JSON Schema, and so is the string of it.
    let result = tools
        .call(
            "everything",
            json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": "2.0"}),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    // Only exactly the JSON: padded, a fraction for an integer, words, are refused.
    for (field, sent) in [
        ("passengers", json!(" 2")),
        ("passengers", json!("2.5")),
        ("passengers", json!("two")),
        ("flag", json!("True")),
        ("flag", json!("1")),
    ] {
        let mut args = json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2});
        args[field] = sent.clone();
        let result = tools.call("everything", args).await.unwrap().to_value();
        assert_eq!(result["isError"], true, "{field}: {sent}");
        assert_eq!(
            result["structuredContent"]["violations"][0]["path"],
            format!("/{field}")
        );
    }
    // And none of it when repairs are off.
    let strict = Toolbox::new()
        .repairs(false)
        .in_context(mcp_tool::Context::on(2026, 11, 30).unwrap())
        .tool(everything_handler);
    let result = strict
        .call(
            "everything",
            json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": "2"}),
        )
        .await
        .unwrap();
    assert!(result.is_error);
}

async fn everything_handler(_: everything_tools::Everything) -> Result<Value, mcp_tool::ToolError> {
    Ok(json!({"ok": true}))
}

#[tokio::test]
async fn a_name_in_another_case_style_is_read_as_the_one_field_it_fits() {
    let tools = everything_tools::toolbox();
    // `order_id` for `orderId`, and `from_code` in a nested struct: read, checked, said.
    let result = tools
        .call(
            "everything",
            json!({
                "order_id": "ORD-2026-00042", "status": "PAID", "passengers": 2,
                "first_leg": {"from_code": "CDG"},
            }),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    let repairs = &result.meta.unwrap()["mcp-tool/repairs"];
    let said: Vec<(&str, &str)> = repairs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["path"].as_str().unwrap(), r["repair"].as_str().unwrap()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "/order_id",
                "read as `orderId`, the argument's name in this tool's case style; send it as `orderId`"
            ),
            (
                "/first_leg",
                "read as `firstLeg`, the argument's name in this tool's case style; send it as `firstLeg`"
            ),
            (
                "/first_leg/from_code",
                "read as `fromCode`, the argument's name in this tool's case style; send it as `fromCode`"
            ),
        ]
    );
    // Its value's problems are at the path it was sent at.
    let result = tools
        .call(
            "everything",
            json!({"order_id": "nope", "status": "PAID", "passengers": 2}),
        )
        .await
        .unwrap()
        .to_value();
    assert_eq!(
        result["structuredContent"]["violations"][0]["path"],
        "/order_id"
    );
    assert_eq!(
        result["structuredContent"]["violations"][0]["rule"],
        "regex"
    );
    // Sent under both names: not a guess to make; the other is unknown.
    let result = tools
        .call(
            "everything",
            json!({
                "orderId": "ORD-2026-00042", "order_id": "ORD-2026-00043",
                "status": "PAID", "passengers": 2,
            }),
        )
        .await
        .unwrap()
        .to_value();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["structuredContent"]["violations"][0]["path"],
        "/order_id"
    );
}

#[tokio::test]
async fn a_name_that_fits_two_fields_is_not_guessed() {
    /// Two names that fold to one.
    #[derive(McpTool, Deserialize)]
    #[allow(dead_code)]
    struct Twins {
        #[serde(rename = "dataSet")]
        data_set: Option<String>,
        #[serde(rename = "data_set")]
        other: Option<String>,
    }
    async fn twins(_: Twins) -> Result<Value, mcp_tool::ToolError> {
        Ok(json!({}))
    }
    let tools = Toolbox::new().tool(twins);
    let result = tools
        .call("twins", json!({"DataSet": "x"}))
        .await
        .unwrap()
        .to_value();
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        result["structuredContent"]["violations"][0]["path"],
        "/DataSet"
    );
}

#[tokio::test]
async fn an_allowed_value_in_another_letter_case_is_read_as_it() {
    let tools = everything_tools::toolbox();
    let result = tools
        .call(
            "everything",
            json!({
                "orderId": "ORD-2026-00042", "status": "paid", "passengers": 2,
                "order": "DESC", "prio": "right_now",
            }),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    assert_eq!(
        result.meta.unwrap()["mcp-tool/repairs"],
        json!([
            {"path": "/status", "repair": "read as \"PAID\", the allowed value this was in another letter case; send \"PAID\""},
            {"path": "/order", "repair": "read as \"desc\", the allowed value this was in another letter case; send \"desc\""},
            {"path": "/prio", "repair": "read as \"RIGHT_NOW\", the allowed value this was in another letter case; send \"RIGHT_NOW\""},
        ])
    );
    // Not a case away from an allowed value: refused, with the nearest named.
    let result = tools
        .call(
            "everything",
            json!({"orderId": "ORD-2026-00042", "status": "payed", "passengers": 2}),
        )
        .await
        .unwrap()
        .to_value();
    assert_eq!(result["structuredContent"]["violations"][0]["rule"], "enum");
}

#[tokio::test]
async fn values_a_case_apart_are_not_guessed_between() {
    /// Two values a case apart.
    #[derive(McpTool, Deserialize)]
    #[allow(dead_code)]
    struct Cased {
        #[validate(enum = ["Full", "FULL", "brief"])]
        mode: String,
    }
    async fn cased(_: Cased) -> Result<Value, mcp_tool::ToolError> {
        Ok(json!({}))
    }
    let tools = Toolbox::new().tool(cased);
    let refused = tools.call("cased", json!({"mode": "full"})).await.unwrap();
    assert!(refused.is_error);
    let read = tools.call("cased", json!({"mode": "BRIEF"})).await.unwrap();
    assert!(!read.is_error, "{:?}", read.content);
}

#[path = "support/shelf.rs"]
mod shelf;
use shelf::shelf;

#[test]
fn a_list_result_is_structured_content_under_result_and_matches_its_schema() {
    let tools = Toolbox::new().tool(shelf);
    let schema = tools.get("shelf").unwrap().output_schema.clone().unwrap();
    let judge = jsonschema::validator_for(&schema).unwrap();
    let two = call(&tools, "shelf", json!({"count": 2}));
    assert_eq!(
        two["structuredContent"],
        json!({"result": [{"title": "Book 0"}, {"title": "Book 1"}]})
    );
    // A property named `title` is a property, not an annotation to strip.
    assert_eq!(
        schema["anyOf"][0]["properties"]["result"]["items"]["properties"]["title"],
        json!({"type": "string"})
    );
    assert_eq!(
        two["content"][0]["text"],
        "[{\"title\":\"Book 0\"},{\"title\":\"Book 1\"}]"
    );
    let none = call(&tools, "shelf", json!({"count": 0}));
    assert_eq!(none["content"], json!([]));
    let error = call(&tools, "shelf", json!({"count": 9}));
    assert_eq!(error["isError"], true);
    for result in [&two, &none, &error] {
        assert!(judge.is_valid(&result["structuredContent"]), "{result}");
    }
}

/// Deletes, and fails as a storage layer does.
#[derive(McpTool, Deserialize)]
#[mcp_tool(destructive)]
struct Purge {
    name: String,
}

/// Reads, and fails as a storage layer does.
#[derive(McpTool, Deserialize)]
#[mcp_tool(read_only)]
struct Inspect {
    name: String,
}

fn storage(name: &str) -> Result<(), std::io::Error> {
    Err(std::io::Error::other(format!(
        "SELECT * FROM entities WHERE name = '{name}': no such table"
    )))
}

async fn purge(args: Purge) -> Result<(), ToolError> {
    storage(&args.name)?;
    Ok(())
}

async fn inspect(args: Inspect) -> Result<(), ToolError> {
    storage(&args.name)?;
    Ok(())
}

#[test]
fn an_error_no_handler_sorted_is_safe_by_default() {
    let tools = Toolbox::new().tool(purge).tool(inspect);
    let purged = block_on(tools.call("purge", json!({"name": "Lyon"}))).unwrap();
    let text = purged.text();
    assert!(
        text.starts_with("purge failed with an unexpected error"),
        "{text}"
    );
    assert!(
        text.contains("check whether it did before calling it again"),
        "{text}"
    );
    assert!(
        !text.contains("SELECT") && !text.contains("may succeed"),
        "{text}"
    );
    let structured = purged.structured_content.unwrap();
    assert_eq!(structured["isRetryable"], false);
    assert_eq!(structured["attempted_query"]["arguments"]["name"], "Lyon");

    let peeked = block_on(tools.call("inspect", json!({"name": "Lyon"}))).unwrap();
    assert!(!peeked.text().contains("took effect"), "{}", peeked.text());
    assert_eq!(peeked.structured_content.unwrap()["isRetryable"], false);

    // The author may show the chain to the model.
    let shown = Toolbox::new().show_unexpected_errors(true).tool(inspect);
    let peeked = block_on(shown.call("inspect", json!({"name": "Lyon"}))).unwrap();
    assert!(peeked.text().contains("no such table"), "{}", peeked.text());
}

/// A handler takes the pieces of the call it needs in any order, its arguments last:
/// the state, the verified caller, the context its dates were judged in.
#[tokio::test]
async fn a_handler_takes_the_pieces_it_needs_in_any_order() {
    use mcp_tool::Caller;

    struct Desk(&'static str);

    /// Greet.
    #[derive(McpTool, Deserialize)]
    struct Greet {
        name: String,
    }

    async fn greet(
        context: Context,
        caller: Caller,
        desk: Arc<Desk>,
        args: Greet,
    ) -> Result<String, ToolError> {
        let _ = context;
        Ok(format!(
            "{} greets {} for {}",
            desk.0,
            args.name,
            caller.subject()
        ))
    }
    let tools = Toolbox::with_state(Desk("front desk")).tool(greet);
    let ada = Caller::new("ada");
    let result = tools
        .call_as(&ada, "greet", json!({"name": "Bob"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "front desk greets Bob for ada");
    // A handler that takes a caller, called without one, is refused before it runs:
    // no handler ever gets an empty caller.
    let refused = tools.call("greet", json!({"name": "Bob"})).await.unwrap();
    assert!(refused.is_error);
    assert_eq!(
        refused.structured_content.unwrap()["errorCategory"],
        "permission"
    );
}
