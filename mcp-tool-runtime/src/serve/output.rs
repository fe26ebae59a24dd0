//! A handler's output as a tool's result: its `outputSchema`, and how the value is
//! carried as `structuredContent` (an object as it is; any other typed value under
//! `result`, or for peers of 2026-07-28 as itself).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::describe::Annotations;
use crate::result::{CallToolResult, Content, ToolError};

/// How a handler's output is carried as `structuredContent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputShape {
    /// An object: it is the structured content.
    Object,
    /// A list, number, string or other non-object of a known type: carried as
    /// `{"result": value}`, the form the SDKs give peers before 2026-07-28 (and a JSON
    /// value every version takes).
    Wrapped,
    /// A type that can be anything (`serde_json::Value`): no `outputSchema`; an object
    /// is the structured content, anything else only text.
    Free,
}

/// The key a non-object output is carried under.
const RESULT: &str = "result";

/// The success result for a handler's output (see [`Toolbox`](crate::Toolbox)), carried as `shape`
/// says. An empty list or `null` has no content: "nothing matched" is no error.
pub(crate) fn output_result<O: Serialize + ?Sized>(
    tool: &str,
    annotations: Annotations,
    output: &O,
    shape: OutputShape,
) -> CallToolResult {
    let text_of = |value: &Value| match value {
        Value::String(text) => vec![Content::text(text.clone())],
        Value::Null => Vec::new(),
        Value::Array(items) if items.is_empty() => Vec::new(),
        other => vec![Content::text(crate::result::json_text(other))],
    };
    match (serde_json::to_value(output), shape) {
        (Ok(value @ Value::Object(_)), OutputShape::Object | OutputShape::Free) => {
            CallToolResult::success(value)
        }
        (Ok(value), OutputShape::Wrapped) => {
            let content = text_of(&value);
            let mut wrapped = serde_json::Map::new();
            wrapped.insert(RESULT.into(), value);
            CallToolResult {
                content,
                structured_content: Some(Value::Object(wrapped)),
                is_error: false,
                meta: None,
            }
        }
        (Ok(Value::Null), _) => CallToolResult::empty(),
        (Ok(value), _) => CallToolResult {
            content: text_of(&value),
            structured_content: None,
            is_error: false,
            meta: None,
        },
        // A map with non-string keys, or a Serialize impl that fails: the server's bug.
        (Err(_), _) => internal_failure(tool, annotations).into_call_result(),
    }
}

/// The `outputSchema` of a handler returning `O`, and how its output is carried: an
/// object's schema as it is; any other typed output's as the `result` property of an
/// object (MCP wants an object at the root for peers before 2026-07-28); both made
/// portable and joined with the error envelope (see [`crate::output`]). An output of any
/// type, or `()`, has none.
pub(crate) fn output_schema<O: JsonSchema>() -> (Option<Value>, OutputShape) {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<O>().to_value();
    let ty = schema.get("type").cloned();
    match ty.as_ref().and_then(Value::as_str) {
        Some("object") => (
            Some(crate::describe::output::with_error_envelope(schema)),
            OutputShape::Object,
        ),
        Some("null") => (None, OutputShape::Free),
        // A typed value, or a union of typed values (an enum).
        _ if ty.is_some() || schema.get("anyOf").is_some() || schema.get("oneOf").is_some() => {
            let mut success = serde_json::Map::new();
            if let Value::Object(map) = &mut schema {
                map.remove("$schema");
                if let Some(title) = map.remove("title") {
                    success.insert("title".into(), title);
                }
            }
            success.insert("type".into(), "object".into());
            success.insert("properties".into(), serde_json::json!({ RESULT: schema }));
            success.insert("required".into(), serde_json::json!([RESULT]));
            let envelope = crate::describe::output::with_error_envelope(Value::Object(success));
            (Some(envelope), OutputShape::Wrapped)
        }
        _ => (None, OutputShape::Free),
    }
}

/// What the caller learns when a handler panics or its output cannot be serialized:
/// that it failed, not why (the panic message stays in the server's log).
///
/// Whether to try again depends on the tool. One that only reads, or that is
/// idempotent, can be called again safely. Any other may have written, booked or paid
/// before it failed, so calling it again could do it twice: the error is not retryable
/// and asks for a check first.
pub(crate) fn internal_failure(tool: &str, annotations: Annotations) -> ToolError {
    let error = ToolError::transient(format!(
        "{tool} failed with an internal error; nothing more can be said about it."
    ));
    let safe_to_repeat =
        annotations.read_only_hint == Some(true) || annotations.idempotent_hint == Some(true);
    if safe_to_repeat {
        error.with_hint(
            "Calling it again is safe. Retry once; if it fails again, tell the user that \
             this tool is not working.",
        )
    } else {
        error.may_have_taken_effect().with_hint(
            "If it did not take effect, retry once; if it fails again, tell the user that \
             this tool is not working.",
        )
    }
}
