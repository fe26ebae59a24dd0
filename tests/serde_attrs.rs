//! serde attributes mean what serde means: for property names, `required`, and
//! violation paths alike.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool_runtime::{Context, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

fn paths<T: McpTool + std::fmt::Debug>(args: Value) -> Vec<String> {
    match T::from_arguments_in(&args, &Context::on(2026, 11, 30).unwrap()) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .violations()
            .iter()
            .map(|v| format!("{} {}", v.rule, v.path))
            .collect(),
    }
}

fn default_limit() -> u32 {
    20
}

#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct FindOrders {
    #[serde(rename = "orderID")]
    order_id: Option<String>,
    customer_name: String,
    #[serde(default = "default_limit")]
    #[validate(range(min = 1, max = 100))]
    page_size: u32,
    #[serde(skip)]
    internal: Vec<u8>,
}

#[test]
fn renames_drive_names_required_and_paths() {
    let schema = FindOrders::input_schema();
    let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(props, ["customerName", "orderID", "pageSize"]);
    assert_eq!(schema["required"], json!(["customerName"]));

    let found = FindOrders::from_arguments(&json!({"customerName": "Ada"})).unwrap();
    assert_eq!(found.page_size, 20);
    assert_eq!(
        paths::<FindOrders>(json!({"customerName": "Ada", "pageSize": 0, "internal": [1]})),
        ["range /pageSize", "unknown /internal"]
    );
    assert_eq!(
        paths::<FindOrders>(json!({"customer_name": "Ada", "order_id": "x"})),
        [
            "required /customerName",
            "unknown /customer_name",
            "unknown /order_id"
        ]
    );
}

#[derive(McpTool, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct Defaults {
    a: String,
    b: u8,
}

#[test]
fn container_default_makes_every_field_optional() {
    assert_eq!(Defaults::input_schema().get("required"), None);
    assert!(Defaults::from_arguments(&json!({})).is_ok());
    assert_eq!(paths::<Defaults>(json!({"c": 1})), ["unknown /c"]);
}

/// Search the web.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(allow_unknown_fields)]
struct Lenient {
    query: String,
}

#[test]
fn allow_unknown_fields_ignores_them_and_the_schema_says_so() {
    assert_eq!(Lenient::input_schema().get("additionalProperties"), None);
    assert!(Lenient::from_arguments(&json!({"query": "x", "extra": 1})).is_ok());
}

#[derive(McpTool, Deserialize, Debug)]
struct Ping {}

#[test]
fn absent_arguments_are_an_empty_object() {
    assert!(Ping::from_arguments(&Value::Null).is_ok());
    assert!(Ping::from_arguments(&json!({})).is_ok());
    for bad in [json!([]), json!("x"), json!(1), json!(true)] {
        let err = Ping::from_arguments(&bad).unwrap_err();
        assert!(err.is_malformed_request(), "{bad}");
        assert_eq!(err.to_jsonrpc_error()["code"], -32602);
    }
    assert_eq!(paths::<FindOrders>(Value::Null), ["required /customerName"]);
}

#[test]
fn schema_and_tool_are_built_once() {
    assert!(std::ptr::eq(
        FindOrders::input_schema(),
        FindOrders::input_schema()
    ));
    assert!(std::ptr::eq(FindOrders::tool(), FindOrders::tool()));
    let from_threads: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| Lenient::input_schema() as *const Value as usize))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(from_threads.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn schemars_sees_the_same_schema() {
    let generated = schemars::SchemaGenerator::default().into_root_schema_for::<FindOrders>();
    let value = serde_json::to_value(&generated).unwrap();
    assert_eq!(
        value["properties"],
        FindOrders::input_schema()["properties"]
    );
    assert_eq!(value["additionalProperties"], false);
}
