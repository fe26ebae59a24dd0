//! Local runtimes (llama.cpp, and LM Studio and Ollama, which use it) turn every tool
//! schema of a request into one grammar, and one schema their converter cannot take
//! fails the request for every tool of every server. Every schema advertised here,
//! input and output, in every profile, is held to what llama.cpp's converter
//! (`common/json-schema-to-grammar.cpp`) takes:
//!
//! - a `pattern` is written `^...$`, with no class escape (`\d`, `\S`, `\p{..}`), no
//!   lookaround and no non-capturing group, and repeats fewer than 2000 times;
//! - integer bounds are numbers a 64-bit signed integer holds (its C++ reads
//!   `maximum: 18446744073709551615` as -1), and not both of `i64`'s full range (which
//!   throws).
//!
//! Every schema is also written to `target/local-runtime-schemas.json`, where
//! `tests/python/test_local_runtimes.py` runs them through the converter of the
//! `llama-cpp-python` package.

#[path = "support/every_shape.rs"]
mod every_shape;
#[path = "support/everything.rs"]
mod everything;
#[path = "../examples/common/flight.rs"]
mod flight;

use mcp_tool::{McpTool, SchemaProfile, Toolbox};
use serde_json::{Value, json};

/// Every schema to hold, named.
/// Types no other schema here holds: integers of every width (their own bounds), and
/// the `semver` grammar's pattern.
#[derive(McpTool, serde::Deserialize)]
#[allow(dead_code)]
struct Widths {
    a: u8,
    b: i16,
    c: u32,
    d: i32,
    e: u64,
    f: i64,
    g: usize,
    h: u128,
    i: i128,
    j: std::num::NonZeroU64,
    version: semver::Version,
    requires: Option<semver::VersionReq>,
}

fn schemas() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let toolboxes = [
        everything::toolbox(),
        Toolbox::new().tool(flight::book_flight),
        Toolbox::new()
            .tool(|_: every_shape::EveryShape| async {
                Ok::<_, mcp_tool::ToolError>(json!({"ok": true}))
            })
            .tool(|_: every_shape::EveryForm| async { Ok::<_, mcp_tool::ToolError>(7_i64) }),
        Toolbox::new().tool(|_: Widths| async { Ok::<_, mcp_tool::ToolError>(json!({})) }),
    ];
    for tools in &toolboxes {
        for profile in SchemaProfile::ALL {
            for tool in tools.list_for(profile) {
                out.push((
                    format!("{}/{profile}/input", tool.name),
                    tool.input_schema.clone(),
                ));
                if let Some(output) = &tool.output_schema {
                    out.push((format!("{}/{profile}/output", tool.name), output.clone()));
                }
            }
        }
    }
    out.push((
        "EveryShape".into(),
        every_shape::EveryShape::input_schema().clone(),
    ));
    out
}

/// What llama.cpp's converter refuses (or misreads) in `node`, at `at`.
fn refused(node: &Value, at: &str, out: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(pattern)) = map.get("pattern") {
                if !(pattern.starts_with('^') && pattern.ends_with('$')) {
                    out.push(format!("{at}: pattern {pattern} is not written ^...$"));
                }
                for bad in [
                    "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\p", "\\P", "(?=", "(?!", "(?<=",
                    "(?<!", "(?:",
                ] {
                    if pattern.contains(bad) {
                        out.push(format!("{at}: pattern {pattern} has {bad}"));
                    }
                }
                for count in repetitions(pattern) {
                    if count >= 2000 {
                        out.push(format!("{at}: pattern {pattern} repeats {count} times"));
                    }
                }
            }
            let integer = |key: &str| {
                map.get(key)
                    .filter(|_| map.get("type") == Some(&json!("integer")))
            };
            let bounds: Vec<Option<&Value>> = vec![integer("minimum"), integer("maximum")];
            for bound in bounds.iter().flatten() {
                if bound.as_i64().is_none() {
                    out.push(format!(
                        "{at}: integer bound {bound} is no 64-bit signed integer"
                    ));
                }
            }
            if bounds[0].and_then(Value::as_i64) == Some(i64::MIN)
                && bounds[1].and_then(Value::as_i64) == Some(i64::MAX)
            {
                out.push(format!("{at}: both of i64's full range"));
            }
            for (key, child) in map {
                refused(child, &format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                refused(item, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The counts of a pattern's `{n}` and `{n,m}` repetitions.
fn repetitions(pattern: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        for n in rest[open + 1..open + close].split(',') {
            if let Ok(n) = n.trim().parse() {
                out.push(n);
            }
        }
        rest = &rest[open + close..];
    }
    out
}

#[test]
fn every_schema_is_one_llama_cpp_s_converter_takes() {
    let schemas = schemas();
    let mut found = Vec::new();
    for (name, schema) in &schemas {
        refused(schema, name, &mut found);
    }
    assert!(found.is_empty(), "{found:#?}");
    // For the converter itself (tests/python/test_local_runtimes.py).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).unwrap();
    let all: serde_json::Map<String, Value> = schemas.into_iter().collect();
    std::fs::write(
        dir.join("local-runtime-schemas.json"),
        serde_json::to_string_pretty(&all).unwrap(),
    )
    .unwrap();
}

#[test]
fn the_checks_find_what_the_converter_refuses() {
    let mut found = Vec::new();
    let bad = json!({"properties": {
        "a": {"type": "string", "pattern": "ORD-[0-9]+"},
        "b": {"type": "string", "pattern": "^\\S+$"},
        "c": {"type": "string", "pattern": "^a{2500}$"},
        "d": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615_u64},
        "e": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
        "f": {"type": "string", "pattern": "^(?:a)$"},
    }});
    refused(&bad, "", &mut found);
    assert_eq!(found.len(), 6, "{found:#?}");
}
