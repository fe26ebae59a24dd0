//! Nothing the original schema said is lost: every constraint a server's schemars schema
//! advertised on a property (bounds, lengths, patterns, formats, enums), and every name
//! it required, the swapped schema still advertises, as strict or stricter.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The constraints a property's schema states, by keyword (`items/` for its items'),
/// wherever they stand in it (an `anyOf` of the value and `null`, or beside `type`), a
/// `$ref` read where it points in `defs`.
fn constraints(
    schema: &Value,
    defs: &Map<String, Value>,
    prefix: &str,
    out: &mut BTreeMap<String, Value>,
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    for (key, value) in object {
        match key.as_str() {
            "$ref" => {
                let name = value.as_str().and_then(|r| r.rsplit('/').next());
                if let Some(target) = name.and_then(|n| defs.get(n)) {
                    constraints(target, defs, prefix, out);
                }
            }
            "anyOf" | "oneOf" | "allOf" => {
                for branch in value.as_array().into_iter().flatten() {
                    constraints(branch, defs, prefix, out);
                }
            }
            "items" => constraints(value, defs, &format!("{prefix}items/"), out),
            // schemars' `uint32` and such name Rust's types, and constrain nothing.
            "format"
                if value
                    .as_str()
                    .is_some_and(|f| f.starts_with(['u', 'i', 'f', 'd'])) => {}
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minimum" | "maximum"
            | "exclusiveMinimum" | "exclusiveMaximum" | "pattern" | "format" | "enum" => {
                out.insert(format!("{prefix}{key}"), value.clone());
            }
            _ => {}
        }
    }
}

/// Whether a property's schema takes `null`: a type `null` (alone or in a type array),
/// or a branch that takes it.
fn nullable(schema: &Value, defs: &Map<String, Value>) -> bool {
    if let Some(target) = schema["$ref"]
        .as_str()
        .and_then(|r| r.rsplit('/').next())
        .and_then(|n| defs.get(n))
    {
        return nullable(target, defs);
    }
    let null_type = match &schema["type"] {
        Value::String(t) => t == "null",
        Value::Array(types) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    null_type
        || ["anyOf", "oneOf"].iter().any(|key| {
            schema[*key]
                .as_array()
                .is_some_and(|branches| branches.iter().any(|b| nullable(b, defs)))
        })
}

/// Every constraint `before` (a schemars schema, with its `$defs`) advertised on each
/// property, every name it required, and every property it said takes no `null`,
/// `after` advertises as strict or stricter; returns how many constraints were held.
pub fn nothing_lost(before: &Value, after: &Value) -> usize {
    let empty = Map::new();
    let defs = before["$defs"].as_object().unwrap_or(&empty);
    let mut held = 0;
    let properties = before["properties"].as_object().unwrap_or(&empty);
    for (name, schema) in properties {
        assert!(
            nullable(schema, defs) || !nullable(&after["properties"][name], &empty),
            "{name} takes null, where the schema said it does not"
        );
        let mut was = BTreeMap::new();
        constraints(schema, defs, "", &mut was);
        let mut now = BTreeMap::new();
        constraints(&after["properties"][name], &empty, "", &mut now);
        for (key, old) in &was {
            let new = now
                .get(key)
                .unwrap_or_else(|| panic!("{name}: `{key}` {old} is no longer advertised"));
            let stricter = match key.rsplit('/').next().unwrap_or(key) {
                "minLength" | "minItems" | "minimum" => new.as_f64() >= old.as_f64(),
                "maxLength" | "maxItems" | "maximum" => new.as_f64() <= old.as_f64(),
                "enum" => new
                    .as_array()
                    .is_some_and(|n| n.iter().all(|v| old.as_array().unwrap().contains(v))),
                _ => new == old,
            };
            assert!(stricter, "{name}: `{key}` was {old}, is {new}");
            held += 1;
        }
    }
    let required = |schema: &Value| -> Vec<Value> {
        schema["required"].as_array().cloned().unwrap_or_default()
    };
    let now = required(after);
    for name in required(before) {
        assert!(now.contains(&name), "{name} is no longer required");
    }
    held
}

/// [`nothing_lost`] from the tool as the server had it to the tool swapped.
pub fn held<Before: schemars::JsonSchema, After: mcp_tool::McpTool>() -> usize {
    nothing_lost(
        &schemars::schema_for!(Before).to_value(),
        After::input_schema(),
    )
}
