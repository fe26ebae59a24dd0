//! Hostile sizes through the whole call path: the answer stays small (a cap on listed
//! violations, truncated echoes) whatever came in. How the time grows with the input is
//! measured by `cargo bench --bench contenders -- hostile`, not asserted here.

#[path = "support/everything.rs"]
mod everything;

use std::sync::LazyLock;

use mcp_tool::Toolbox;
use mcp_tool::argument::MAX_LISTED;
use serde_json::{Map, Value, json};

static TOOLS: LazyLock<Toolbox> = LazyLock::new(everything::toolbox);

fn call(arguments: Value) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime
        .block_on(TOOLS.call("everything", arguments))
        .unwrap()
        .to_value()
}

fn base() -> Value {
    json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2})
}

fn size(result: &Value) -> usize {
    result.to_string().len()
}

#[test]
fn a_ten_megabyte_string_is_echoed_short() {
    let mut args = base();
    args["orderId"] = json!("O".repeat(10_000_000));
    args["secret"] = json!("S".repeat(10_000_000));
    let result = call(args);
    assert_eq!(result["isError"], true);
    assert!(size(&result) < 4_000, "{} bytes", size(&result));
    assert!(!result.to_string().contains("SSSSSSSS"));
}

#[test]
fn a_ten_megabyte_name_is_echoed_short() {
    let name = "k".repeat(10_000_000);
    let mut args = base();
    args[name.as_str()] = json!(1);
    // Unknown at the root, and inside a nested object.
    args["legs"] = json!([{ name.as_str(): "x", "fromCode": "CDG" }]);
    let result = call(args);
    assert_eq!(result["isError"], true);
    assert!(size(&result) < 8_000, "{} bytes", size(&result));
    let violations = result["structuredContent"]["violations"]
        .as_array()
        .unwrap();
    let root = format!("/{}…", "k".repeat(200));
    assert!(
        violations.iter().any(|v| v["path"] == root.as_str()),
        "{violations:?}"
    );
}

#[test]
fn a_hundred_thousand_unknown_properties_are_counted_not_listed() {
    let mut args = base().as_object().unwrap().clone();
    for i in 0..100_000 {
        args.insert(format!("extra_{i}"), json!(i));
    }
    let result = call(Value::Object(args));
    let structured = &result["structuredContent"];
    assert_eq!(
        structured["violations"].as_array().unwrap().len(),
        MAX_LISTED
    );
    assert_eq!(structured["omittedViolations"], 100_000 - MAX_LISTED);
    assert!(size(&result) < 40_000, "{} bytes", size(&result));
}

#[test]
fn a_hundred_thousand_items_are_checked_and_the_answer_stays_small() {
    let mut args = base();
    args["loyalty"] = Value::Array(vec![json!("bad"); 100_000]);
    args["legs"] = Value::Array(vec![json!({"fromCode": "x"}); 100_000]);
    let result = call(args);
    let structured = &result["structuredContent"];
    let listed = structured["violations"].as_array().unwrap();
    assert_eq!(listed.len(), MAX_LISTED);
    // loyalty: too long, plus 100 000 bad items; legs: 100 000 bad codes.
    assert_eq!(
        listed.len() + structured["omittedViolations"].as_u64().unwrap() as usize,
        1 + 100_000 + 100_000
    );
    assert!(size(&result) < 40_000, "{} bytes", size(&result));
}

#[test]
fn the_deepest_value_serde_json_parses_gets_an_answer() {
    // serde_json's parser stops at 128 levels; this is the deepest it reads.
    let text = format!("{}1{}", "[".repeat(127), "]".repeat(127));
    let deep: Value = serde_json::from_str(&text).unwrap();
    for key in ["orderId", "legs", "firstLeg", "extra"] {
        let mut args = base();
        args[key] = deep.clone();
        let result = call(args);
        assert_eq!(result["isError"], true, "{key}");
        assert!(size(&result) < 4_000);
    }
    // Deeper, built in code: still an answer, no stack overflow.
    let mut deeper = json!(1);
    for _ in 0..100_000 {
        let mut map = Map::new();
        map.insert("a".into(), deeper);
        deeper = Value::Object(map);
    }
    let mut args = base();
    args["firstLeg"] = deeper;
    let result = call(args);
    assert_eq!(result["isError"], true);
}

#[test]
fn arguments_of_any_depth_that_are_not_an_object_are_refused_safely() {
    let mut deep = json!(1);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let error = runtime
        .block_on(TOOLS.call("everything", deep))
        .unwrap_err();
    assert_eq!(error.code(), -32602);
    assert!(
        error
            .message()
            .contains("must be a JSON object; got an array")
    );
}
