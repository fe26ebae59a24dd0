//! Enums that keep what their variants' docs say, and rules across fields: advertised
//! in every profile (keywords where a profile takes them, words everywhere), and
//! enforced, all problems at once, at the missing field's path.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/transfer.rs"]
mod transfer;

use mcp_tool::{Argument, Context, McpTool, SchemaProfile};
use serde::Deserialize;
use serde_json::{Value, json};
use transfer::{GetObject, GetObjectMode};

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

fn base() -> Value {
    json!({"bucket": "b", "key": "k", "kms_key_id": "key-1"})
}

fn with(pairs: Value) -> Value {
    let mut args = base();
    for (k, v) in pairs.as_object().unwrap() {
        args[k] = v.clone();
    }
    args
}

fn refused(args: Value) -> mcp_tool::ToolError {
    GetObject::from_arguments_in(args, &today()).expect_err("a rule refuses it")
}

#[test]
fn an_enum_field_keeps_its_default_and_its_variants_docs_in_every_profile() {
    for profile in SchemaProfile::ALL {
        let mode = &GetObject::input_schema_for(profile)["properties"]["mode"];
        insta::assert_json_snapshot!(format!("mode_{profile}"), mode);
    }
    let portable = &GetObject::input_schema()["properties"]["mode"];
    assert_eq!(portable["default"], "read");
    assert_eq!(portable["enum"], json!(["read", "download", "head"]));
    assert_eq!(
        portable["oneOf"][1],
        json!({"type": "string", "const": "download", "description": "Save the object to `local_path` on the server."})
    );
    // An undocumented variant is a bare `const`.
    assert_eq!(
        portable["oneOf"][2],
        json!({"type": "string", "const": "head"})
    );
    let encryption = &GetObject::input_schema()["properties"]["encryption"];
    assert_eq!(encryption["default"], "aws:kms");
    assert!(encryption.get("oneOf").is_none(), "no variant has a doc");
    // Gemini takes no `const`: the meanings are words.
    let gemini = &GetObject::input_schema_for(SchemaProfile::Gemini)["properties"]["mode"];
    assert!(
        gemini["description"]
            .as_str()
            .unwrap()
            .contains("\"download\": Save the object")
    );
    assert_eq!(gemini["default"], "read");
    // OpenAI: `anyOf` of the values and `null` alone, and the default in words.
    let openai = &GetObject::input_schema_for(SchemaProfile::OpenAi)["properties"]["mode"];
    assert!(openai.get("oneOf").is_none() && openai.get("type").is_none());
    assert_eq!(openai["anyOf"][3], json!({"type": "null"}));
    assert_eq!(
        openai["anyOf"].as_array().unwrap().len(),
        4,
        "three values and null"
    );
    assert_eq!(GetObjectMode::default(), GetObjectMode::Read);
}

#[test]
fn the_rules_across_fields_are_advertised() {
    for profile in SchemaProfile::ALL {
        insta::assert_json_snapshot!(
            format!("get_object_{profile}"),
            GetObject::input_schema_for(profile)
        );
    }
    let schema = GetObject::input_schema();
    assert_eq!(schema["dependentRequired"], json!({"version_id": ["etag"]}));
    // The field sent: both sides take `null`, which is no value.
    assert_eq!(
        schema["dependentSchemas"]["range_start"]["then"]["required"],
        json!(["range_end"])
    );
    // The one that holds by default stands at the root, without `required`.
    assert_eq!(
        schema["if"],
        json!({"properties": {"encryption": {"enum": ["aws:kms"]}}})
    );
    assert_eq!(
        schema["properties"]["local_path"]["description"],
        "Where to save it. Required when mode is \"download\"."
    );
    for profile in &SchemaProfile::ALL[1..] {
        let schema = GetObject::input_schema_for(*profile);
        for key in ["if", "then", "dependentRequired", "dependentSchemas"] {
            assert!(schema.get(key).is_none(), "{profile}: {key}");
        }
        assert!(
            schema["properties"]["part_size"]["description"]
                .as_str()
                .unwrap()
                .contains("Required when parts is 2 or 3.")
        );
    }
}

#[test]
fn a_rule_across_fields_is_enforced_at_the_missing_field() {
    let error = refused(with(json!({"mode": "download"})));
    let v = &error.violations()[0];
    assert_eq!(v.path, "/local_path");
    assert_eq!(v.rule, "required_if");
    assert!(
        v.message.contains("is required when mode is \"download\""),
        "{}",
        v.message
    );
    insta::assert_json_snapshot!(
        "get_object_download_without_path",
        error.to_call_result().to_value()
    );
    assert!(
        GetObject::from_arguments_in(
            with(json!({"mode": "download", "local_path": "/tmp/x"})),
            &today()
        )
        .is_ok()
    );
    assert!(GetObject::from_arguments_in(with(json!({"mode": "read"})), &today()).is_ok());
}

#[test]
fn every_rule_is_reported_at_once() {
    let error = refused(json!({
        "bucket": "b", "key": "k", "mode": "download", "force": true, "parts": 3.0,
        "range_start": 10, "range_end": null, "local_path": null
    }));
    let found: Vec<(&str, &str)> = error
        .violations()
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_ref()))
        .collect();
    assert_eq!(
        found,
        [
            ("/local_path", "required_if"),
            ("/kms_key_id", "required_if"),
            ("/reason", "required_if"),
            ("/part_size", "required_if"),
            ("/range_end", "required_with"),
        ]
    );
    insta::assert_json_snapshot!("get_object_every_rule", error.to_call_result().to_value());
}

#[test]
fn a_condition_held_by_default_says_so() {
    let error = refused(json!({"bucket": "b", "key": "k"}));
    let v = &error.violations()[0];
    assert_eq!(v.path, "/kms_key_id");
    assert!(
        v.message
            .contains("or send encryption with another value: it is \"aws:kms\" by default"),
        "{}",
        v.message
    );
    // Sent with another value, or sent as `null` (serde's `None`: no value of its own).
    assert!(
        GetObject::from_arguments_in(
            json!({"bucket": "b", "key": "k", "encryption": "none"}),
            &today()
        )
        .is_ok()
    );
    assert!(
        GetObject::from_arguments_in(
            json!({"bucket": "b", "key": "k", "kms_key_id": "x", "range_start": null}),
            &today()
        )
        .is_ok()
    );
}

#[test]
fn the_fast_path_never_takes_a_call_a_rule_refuses() {
    let context = today();
    for args in [
        with(json!({"mode": "download"})),
        json!({"bucket": "b", "key": "k"}),
        with(json!({"range_start": 1})),
    ] {
        assert!(
            !GetObject::spec().walk_takes(&args, &context, SchemaProfile::Portable),
            "{args}"
        );
    }
    assert!(GetObject::spec().walk_takes(
        &with(json!({"mode": "download", "local_path": "/x"})),
        &context,
        SchemaProfile::Portable
    ));
}

#[test]
fn a_served_call_reads_a_repaired_condition() {
    let toolbox = mcp_tool::Toolbox::new()
        .in_context(today())
        .tool(get_object);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    // "DOWNLOAD" is read as "download", which requires local_path.
    let result = runtime
        .block_on(toolbox.call_request(
            json!({"name": "get_object", "arguments": with(json!({"mode": "DOWNLOAD"}))}),
        ))
        .unwrap();
    assert!(result.is_error);
    let text = result.to_value().to_string();
    assert!(text.contains("required_if"), "{text}");
}

async fn get_object(args: GetObject) -> Result<Value, mcp_tool::ToolError> {
    Ok(json!({"mode": format!("{:?}", args.mode)}))
}

/// A byte range: the end is required once the start is sent.
#[derive(Argument, Deserialize, Debug)]
#[mcp_tool(require(to, when(from)))]
struct Span {
    from: Option<u32>,
    to: Option<u32>,
}

/// Read part of an object: the range's fields stand beside the key.
#[derive(McpTool, Deserialize, Debug)]
struct ReadPart {
    key: String,
    #[serde(flatten)]
    span: Span,
}

/// Read parts of an object: each range an object of its own.
#[derive(McpTool, Deserialize, Debug)]
struct ReadParts {
    spans: Vec<Span>,
}

#[test]
fn a_rule_holds_where_its_struct_stands() {
    // Flattened: the rule reads the object its fields stand in, and says itself once.
    let error = ReadPart::from_arguments_in(json!({"key": "k", "from": 1}), &today())
        .expect_err("to is required");
    assert_eq!(error.violations()[0].path, "/to");
    assert_eq!(error.violations()[0].rule, "required_with");
    let schema = ReadPart::input_schema();
    assert_eq!(
        schema["properties"]["to"]["description"],
        "Required when from is sent."
    );
    assert_eq!(schema["then"]["required"], json!(["to"]));
    assert!(ReadPart::from_arguments_in(json!({"key": "k", "from": 1, "to": 2}), &today()).is_ok());
    // Nested: at the item's path.
    let error = ReadParts::from_arguments_in(
        json!({"spans": [{"from": 1, "to": 2}, {"from": 3}]}),
        &today(),
    )
    .expect_err("to is required");
    assert_eq!(error.violations()[0].path, "/spans/1/to");
    assert_eq!(
        ReadParts::input_schema()["properties"]["spans"]["items"]["then"]["required"],
        json!(["to"])
    );
}
