//! The `outputSchema` of a tool: its success shape made portable, joined with the shape
//! of an error result, so that every client can hold every result against it.
//!
//! Why the error shape is in it: the MCP Inspector checks `structuredContent` against the
//! `outputSchema` even when `isError` is true, and reports a mismatch as a failed call,
//! hiding the violations. The TypeScript SDK client checks only successes, the Python
//! one nothing. A schema that is "the success shape, or the error envelope" passes all
//! of them and still tells a client exactly what a success looks like.

use serde_json::{Map, Value, json};

/// The `format`s JSON Schema 2020-12 defines; any other (schemars' `uint8`, `int32`,
/// `double`) is a private word that validators warn about and clients reject.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Any JSON value, as the error envelope says it.
macro_rules! any_value {
    () => {
        r#"{"anyOf": [{"type": "object"}, {"type": "array"}, {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]}"#
    };
}

/// The schema of the `structuredContent` of an error result (the wire contract).
pub fn error_envelope() -> Value {
    // Read from its text: the same value as `json!` would build, in a small part of the
    // code (a literal of `json!` is code that builds every node of it).
    serde_json::from_str(ERROR_ENVELOPE).expect("the error envelope is JSON")
}

/// [`error_envelope`] as text. "Any JSON value" is said type by type (`any_value!`):
/// an empty schema says the same, and reads as a forgotten constraint to linters.
const ERROR_ENVELOPE: &str = concat!(
    r#"{
  "type": "object",
  "description": "The call failed (isError: true): what went wrong and what to do next.",
  "properties": {
    "errorCategory": {"type": "string", "enum": ["transient", "validation", "business", "permission"]},
    "isRetryable": {"type": "boolean"},
    "message": {"type": "string"},
    "attempted_query": {"anyOf": [
      {"type": "null"},
      {"type": "object", "properties": {
        "tool": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "arguments": "#,
    any_value!(),
    r#"}}
    ]},
    "partial_results": "#,
    any_value!(),
    r#",
    "violations": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "path": {"type": "string"},
        "rule": {"type": "string"},
        "message": {"type": "string"},
        "expected": "#,
    any_value!(),
    r#",
        "received": "#,
    any_value!(),
    r#"
      },
      "required": ["path", "rule", "message", "expected"]
    }},
    "omittedViolations": {"type": "integer", "minimum": 1},
    "hint": {"type": "string"},
    "retryAfterSeconds": {"type": "integer", "minimum": 1}
  },
  "required": ["errorCategory", "isRetryable", "message", "violations"]
}"#
);

/// The `outputSchema` advertised for a tool whose successes have the object schema
/// `success`: that shape made portable, or the error envelope.
pub fn with_error_envelope(success: Value) -> Value {
    let mut success = portable(success);
    if is_enveloped(&success) {
        return success;
    }
    let mut out = Map::new();
    out.insert("type".into(), "object".into());
    if let Some(description) = success
        .as_object_mut()
        .and_then(|s| s.remove("description"))
    {
        out.insert("description".into(), description);
    }
    out.insert("anyOf".into(), json!([success, error_envelope()]));
    Value::Object(out)
}

/// Whether `schema` already says "the success shape, or the error envelope".
fn is_enveloped(schema: &Value) -> bool {
    let envelope = error_envelope();
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.contains(&envelope))
}

/// `schema` in the portable subset the input schemas keep to: no `$ref` (inlined where
/// `$defs` has it; a recursive one, some levels down, becomes "any value"), no `$schema` or `title`, no
/// type arrays (`["string", "null"]` becomes `anyOf`), no formats JSON Schema does not
/// define (an integer's `uint8` becomes its bounds).
pub fn portable(schema: Value) -> Value {
    let Value::Object(mut root) = schema else {
        return schema;
    };
    let defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    root.remove("$schema");
    root.remove("title");
    let mut out = Value::Object(root);
    rewrite(&mut out, &defs, 0);
    out
}

/// How many `$ref`s deep a definition is inlined before it is cut to "any value".
const MAX_REF_DEPTH: usize = 4;

fn rewrite(schema: &mut Value, defs: &Map<String, Value>, depth: usize) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.remove("$ref") {
                let name = reference.rsplit('/').next().unwrap_or_default();
                let mut target = match defs.get(name) {
                    Some(def) if depth < MAX_REF_DEPTH => def.clone(),
                    // Deeper than that, or unknown: any value, which is never wrong.
                    _ => json!({}),
                };
                rewrite(&mut target, defs, depth + 1);
                if let Value::Object(target) = target {
                    for (key, value) in target {
                        map.entry(key).or_insert(value);
                    }
                }
            }
            map.remove("title");
            map.remove("$schema");
            if let Some(Value::String(format)) = map.get("format")
                && !STANDARD_FORMATS.contains(&format.as_str())
            {
                let format = format.clone();
                map.remove("format");
                integer_bounds(map, &format);
            }
            split_type_array(map);
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    // A map of names to schemas: each child is a schema, the map is not
                    // (a property named `title` is no annotation).
                    (
                        "properties" | "patternProperties" | "dependentSchemas",
                        Value::Object(named),
                    ) => {
                        for child in named.values_mut() {
                            rewrite(child, defs, depth);
                        }
                    }
                    // Values, not schemas.
                    ("enum" | "const" | "default" | "examples", _) => {}
                    (_, value) => rewrite(value, defs, depth),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite(item, defs, depth);
            }
        }
        _ => {}
    }
}

/// The bounds schemars' integer formats stood for, where the schema lacks them; a
/// 64-bit type's bound past what every reader holds exactly is left out (see
/// `number::EXACT`: llama.cpp's converter misreads it, or throws).
fn integer_bounds(map: &mut Map<String, Value>, format: &str) {
    let (min, max): (i128, i128) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return,
    };
    for (key, bound) in [("minimum", min), ("maximum", max)] {
        if !map.contains_key(key) && bound.abs() <= crate::number::EXACT {
            map.insert(key.into(), Value::from(bound as i64));
        }
    }
}

/// `{"type": ["string", "null"], ...}` as `{"anyOf": [{"type": "string", ...}, {"type":
/// "null"}]}`: one type per schema, which every client reads.
fn split_type_array(map: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = map.get("type") else {
        return;
    };
    let types: Vec<Value> = types.clone();
    map.remove("type");
    // The keywords that constrain a value of a given type stay with that type's branch.
    let rest = std::mem::take(map);
    let branches: Vec<Value> = types
        .into_iter()
        .map(|ty| {
            let mut branch = Map::new();
            if ty != "null" {
                branch = rest.clone();
                branch.remove("description");
                branch.remove("default");
            }
            branch.insert("type".into(), ty);
            Value::Object(branch)
        })
        .collect();
    for key in ["description", "default"] {
        if let Some(value) = rest.get(key) {
            map.insert(key.into(), value.clone());
        }
    }
    map.insert("anyOf".into(), Value::Array(branches));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_formats_type_arrays_and_refs_are_made_portable() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Booking",
            "type": "object",
            "properties": {
                "passengers": {"type": "integer", "format": "uint8", "minimum": 0},
                "sent_to": {"type": ["string", "null"], "description": "Where.", "format": "email"},
                "leg": {"$ref": "#/$defs/Leg"},
                "score": {"type": "number", "format": "double"}
            },
            "$defs": {"Leg": {"title": "Leg", "type": "object", "properties": {"next": {"$ref": "#/$defs/Leg"}}}}
        });
        let out = portable(schema);
        assert_eq!(
            out["properties"]["passengers"],
            json!({"type": "integer", "minimum": 0, "maximum": 255})
        );
        assert_eq!(
            out["properties"]["sent_to"],
            json!({"description": "Where.", "anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]})
        );
        assert_eq!(out["properties"]["score"], json!({"type": "number"}));
        let text = out.to_string();
        for word in ["$ref", "$defs", "$schema", "title", "uint8", "double"] {
            assert!(!text.contains(word), "{word} in {text}");
        }
        // A recursive definition is inlined some levels deep, then cut to any value.
        let mut leg = &out["properties"]["leg"];
        for _ in 0..MAX_REF_DEPTH {
            assert_eq!(leg["type"], "object");
            leg = &leg["properties"]["next"];
        }
        assert_eq!(leg, &json!({}));
    }

    #[test]
    fn the_envelope_is_added_once() {
        let success = json!({"type": "object", "description": "A booking.", "properties": {"id": {"type": "string"}}, "required": ["id"]});
        let once = with_error_envelope(success);
        assert_eq!(once["type"], "object");
        assert_eq!(once["description"], "A booking.");
        assert_eq!(once["anyOf"].as_array().unwrap().len(), 2);
        assert_eq!(with_error_envelope(once.clone()), once);
    }
}
