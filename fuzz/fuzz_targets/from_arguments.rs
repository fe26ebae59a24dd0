//! Raw bytes, parsed as JSON, into `from_arguments` of a struct that uses every rule.
//!
//! Beyond "no panic, no hang", each run checks what a client relies on:
//! - an accepted value is accepted by the advertised schema too (the `jsonschema` judge);
//! - a rejected value gives a well-formed `isError` result that lists at most 50
//!   violations, stays small, and never contains the sensitive field's value.
#![no_main]

#[path = "../../tests/support/everything.rs"]
mod everything;

use std::sync::LazyLock;

use everything::Everything;
use libfuzzer_sys::fuzz_target;
use mcp_tool::{Context, McpTool};
use serde_json::Value;

static JUDGE: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    jsonschema::options()
        .should_validate_formats(true)
        .build(Everything::input_schema())
        .expect("the advertised schema compiles")
});

static TODAY: LazyLock<Context> = LazyLock::new(|| Context::on(2026, 11, 30).unwrap());

fuzz_target!(|data: &[u8]| {
    let Ok(arguments) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    match Everything::from_arguments_in(arguments.clone(), &TODAY) {
        Ok(_) => assert!(
            JUDGE.is_valid(&arguments),
            "runtime accepted what the schema rejects: {arguments}"
        ),
        Err(error) => {
            assert!(error.violations().len() <= 50);
            let result = error.to_call_result().to_value();
            assert_eq!(result["isError"], true);
            let text = result["content"][0]["text"].as_str().unwrap();
            assert!(!text.is_empty());
            // The echo is truncated: the result stays small whatever came in.
            let size = serde_json::to_string(&result).unwrap().len();
            assert!(size < 64 * 1024, "result of {size} bytes");
            if let Some(secret) = arguments.get("secret").and_then(Value::as_str) {
                let mut others = arguments.clone();
                others.as_object_mut().unwrap().remove("secret");
                let plain = secret.len() >= 8 && secret.bytes().all(|b| b.is_ascii_alphanumeric());
                if plain && !others.to_string().contains(secret) {
                    assert!(!result.to_string().contains(secret), "secret echoed");
                }
            }
        }
    }
});
