//! Schema profiles: one definition, four advertised forms, the same enforcement. Each
//! profile's schema of `Everything` (every rule on every field shape) is held against
//! what that client family accepts; the runtime's agreement with each profile's schema
//! is in `tests/properties.rs`.

#[path = "support/every_shape.rs"]
mod every_shape;
#[path = "support/everything.rs"]
mod everything;

use every_shape::{EveryForm, EveryShape};
use everything::Everything;
use mcp_tool::{Context, McpTool, SchemaProfile, ToolError, Toolbox};
use serde_json::{Map, Value, json};

/// Every schema node under `schema` (itself included), with its JSON pointer.
fn nodes<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a Map<String, Value>)>) {
    let Value::Object(node) = schema else {
        return;
    };
    out.push((at.clone(), node));
    if let Some(Value::Object(properties)) = node.get("properties") {
        for (name, property) in properties {
            nodes(property, format!("{at}/properties/{name}"), out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = node.get(key) {
            nodes(child, format!("{at}/{key}"), out);
        }
    }
    if let Some(Value::Array(branches)) = node.get("anyOf") {
        for (i, branch) in branches.iter().enumerate() {
            nodes(branch, format!("{at}/anyOf/{i}"), out);
        }
    }
}

/// Every node of the schemas of `Everything` (every rule), `EveryShape` (every shape)
/// and `EveryForm` (a tool that is an enum) in `profile`.
fn all_nodes(profile: SchemaProfile) -> Vec<(String, &'static Map<String, Value>)> {
    let mut out = Vec::new();
    for (name, schema) in [
        ("Everything", Everything::input_schema_for(profile)),
        ("EveryShape", EveryShape::input_schema_for(profile)),
        ("EveryForm", EveryForm::input_schema_for(profile)),
    ] {
        let before = out.len();
        nodes(schema, name.to_owned(), &mut out);
        assert!(out.len() - before >= 4, "the walk sees {name}");
    }
    out
}

fn description(schema: &Value, property: &str) -> String {
    schema["properties"][property]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn openai_strict_mode_rules_hold() {
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    for (at, node) in all_nodes(SchemaProfile::OpenAi) {
        for forbidden in [
            "allOf",
            "oneOf",
            "not",
            "if",
            "then",
            "else",
            "patternProperties",
            "$ref",
        ] {
            assert!(!node.contains_key(forbidden), "{forbidden} at {at}");
        }
        if let Some(format) = node.get("format").and_then(Value::as_str) {
            assert!(FORMATS.contains(&format), "format {format} at {at}");
        }
        if let Some(Value::Object(properties)) = node.get("properties") {
            assert_eq!(node["additionalProperties"], false, "at {at}");
            let required: Vec<&str> = node["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
            names.sort_unstable();
            let mut sorted = required.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, names, "every property is required at {at}");
        }
    }
    let schema = Everything::input_schema_for(SchemaProfile::OpenAi);
    // An optional property is nullable; a required one is not.
    assert_eq!(
        schema["properties"]["email"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(schema["properties"]["orderId"]["type"], "string");
    assert_eq!(
        schema["properties"]["order"]["enum"],
        json!(["asc", "desc", null])
    );
    assert_eq!(
        schema["properties"]["firstLeg"]["anyOf"][1],
        json!({"type": "null"})
    );
    // What strict mode cannot carry is in the description.
    assert_eq!(
        description(schema, "website"),
        "An absolute URL, such as https://example.com/page."
    );
    assert_eq!(description(schema, "name"), "From 2 to 4 characters.");
    assert_eq!(description(schema, "count"), "Default: 0.");
}

#[test]
fn gemini_function_declaration_rules_hold() {
    const KEYWORDS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "properties",
        "required",
        "anyOf",
        "propertyOrdering",
        "items",
        "default",
        "example",
    ];
    for (at, node) in all_nodes(SchemaProfile::Gemini) {
        for key in node.keys() {
            assert!(KEYWORDS.contains(&key.as_str()), "{key} at {at}");
        }
        assert!(
            node.get("type").is_none_or(Value::is_string),
            "one type at {at}"
        );
        if let Some(Value::Array(values)) = node.get("enum") {
            assert!(values.iter().all(Value::is_string), "string enum at {at}");
        }
        if let Some(format) = node.get("format").and_then(Value::as_str) {
            assert!(
                ["date-time", "float", "double", "int32", "int64"].contains(&format),
                "format {format} at {at}"
            );
        }
    }
    let schema = Everything::input_schema_for(SchemaProfile::Gemini);
    assert_eq!(
        description(schema, "price"),
        "More than 0 and less than 1000.5."
    );
    assert_eq!(description(schema, "email"), "An email address.");
    assert_eq!(schema["description"], "No other properties.");
    // The date rule's sentence already gives the shape: not said twice.
    assert_eq!(
        description(schema, "born"),
        "Must be a date before the current date, written yyyy-mm-dd."
    );
}

#[test]
fn anthropic_strict_tool_use_rules_hold() {
    const FORMATS: &[&str] = &[
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    for (at, node) in all_nodes(SchemaProfile::Anthropic) {
        for forbidden in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "maxItems",
        ] {
            assert!(!node.contains_key(forbidden), "{forbidden} at {at}");
        }
        if let Some(n) = node.get("minItems") {
            assert!(n == 0 || n == 1, "minItems {n} at {at}");
        }
        if let Some(format) = node.get("format").and_then(Value::as_str) {
            assert!(FORMATS.contains(&format), "format {format} at {at}");
        }
        if node.contains_key("properties") {
            assert_eq!(node["additionalProperties"], false, "at {at}");
        }
    }
    let schema = Everything::input_schema_for(SchemaProfile::Anthropic);
    assert_eq!(description(schema, "passengers"), "From 1 to 9.");
    assert_eq!(
        description(schema, "price"),
        "More than 0 and less than 1000.5."
    );
    assert_eq!(description(schema, "pair"), "Exactly 2 items.");
    assert_eq!(
        schema["properties"]["pair"]["anyOf"][0]["items"]["description"],
        "At least 1 character."
    );
    assert_eq!(description(schema, "loyalty"), "At most 3 items.");
}

/// Integers of every width, for the bounds a profile says in words.
#[derive(McpTool, serde::Deserialize)]
#[allow(dead_code)]
struct Widths {
    percent: u8,
    level: i16,
    count: u32,
    delta: i32,
    id: u64,
    offset: i64,
    page: std::num::NonZeroU32,
    #[validate(range(min = 10))]
    floor: i32,
}

/// In words, a bound is said where a model could reach it: the ends of 8- and 16-bit
/// types, the 0 (or 1) of an unsigned one, the author's; never the far ends of 32- and
/// 64-bit types, which as words are noise.
#[test]
fn words_say_the_bounds_a_model_could_reach() {
    let schema = Widths::input_schema_for(SchemaProfile::Anthropic);
    let said = |name: &str| description(schema, name);
    assert_eq!(said("percent"), "From 0 to 255.");
    assert_eq!(said("level"), "From -32768 to 32767.");
    assert_eq!(said("count"), "At least 0.");
    assert_eq!(said("delta"), "");
    assert_eq!(said("id"), "At least 0.");
    assert_eq!(said("offset"), "");
    assert_eq!(said("page"), "At least 1.");
    assert_eq!(said("floor"), "At least 10.");
    // As keywords, every bound within 2^53 - 1 stays, for the clients that enforce
    // them; none past it, in any profile.
    let portable = Widths::input_schema();
    assert_eq!(portable["properties"]["count"]["maximum"], u32::MAX);
    assert_eq!(portable["properties"]["delta"]["minimum"], i32::MIN);
    for profile in SchemaProfile::ALL {
        let text = Widths::input_schema_for(profile).to_string();
        for far in [
            "18446744073709551615",
            "9223372036854775807",
            "9223372036854775808",
        ] {
            assert!(!text.contains(far), "{profile:?}: {text}");
        }
    }
}

#[test]
fn the_portable_profile_is_the_input_schema() {
    assert!(std::ptr::eq(
        Everything::input_schema_for(SchemaProfile::Portable),
        Everything::input_schema()
    ));
    for profile in SchemaProfile::ALL {
        assert_eq!(profile.name().parse::<SchemaProfile>(), Ok(profile));
        assert_eq!(
            Everything::input_schema_for(profile)["type"],
            "object",
            "{profile}: the root is an object"
        );
    }
    let unknown = "openapi".parse::<SchemaProfile>().unwrap_err();
    assert!(
        unknown
            .to_string()
            .contains("portable, openai, gemini and anthropic")
    );
}

#[test]
fn clients_that_name_themselves_get_their_profile() {
    for (client, profile) in [
        ("openai-mcp", Some(SchemaProfile::OpenAi)),
        ("ChatGPT", Some(SchemaProfile::OpenAi)),
        ("gemini-cli-mcp-client", Some(SchemaProfile::Gemini)),
        ("anthropic-api", Some(SchemaProfile::Anthropic)),
        ("claude-ai", None),
        ("mcp-inspector", None),
    ] {
        assert_eq!(SchemaProfile::for_client(client), profile, "{client}");
    }
}

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

#[test]
fn under_openai_a_null_optional_property_is_left_out_and_nothing_else_changes() {
    let args = json!({
        "orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2,
        "email": null, "firstLeg": {"fromCode": "CDG", "age": null}, "count": null,
    });
    let portable = Everything::from_arguments_in(args.clone(), &today()).unwrap_err();
    let paths: Vec<&str> = portable
        .violations()
        .iter()
        .map(|v| v.path.as_str())
        .collect();
    // `null` for an `Option` is `None` in every profile, as serde reads it; a field
    // with a default takes no `null` but under OpenAI, whose schema makes it nullable.
    assert_eq!(paths, ["/count"]);
    // The count's default applies, as if it were left out.
    assert!(Everything::from_arguments_for(args, &today(), SchemaProfile::OpenAi).is_ok());

    // A required property is not optional in any profile.
    let null_required = json!({"orderId": null, "status": "PAID", "passengers": 2});
    for profile in SchemaProfile::ALL {
        let err =
            Everything::from_arguments_for(null_required.clone(), &today(), profile).unwrap_err();
        assert_eq!(err.violations()[0].path, "/orderId", "{profile}");
        assert!(
            err.violations()[0].message.contains("It is required"),
            "{profile}"
        );
    }
}

#[test]
fn a_violation_reads_the_same_in_every_profile() {
    let args = json!({"orderId": "42", "status": "LOST", "passengers": 0, "price": 0});
    let portable = Everything::from_arguments_in(args.clone(), &today()).unwrap_err();
    for profile in SchemaProfile::ALL {
        let err = Everything::from_arguments_for(args.clone(), &today(), profile).unwrap_err();
        assert_eq!(err.violations(), portable.violations(), "{profile}");
    }
}

#[tokio::test]
async fn a_toolbox_advertises_and_reads_in_its_profile() {
    async fn everything(_: Everything) -> Result<Value, ToolError> {
        Ok(json!({"ok": true}))
    }
    for profile in SchemaProfile::ALL {
        let tools = Toolbox::new()
            .in_context(today())
            .schema_profile(profile)
            .tool(everything);
        assert_eq!(
            &tools.list()[0].input_schema,
            Everything::input_schema_for(profile)
        );
        assert_eq!(
            tools.list_for(SchemaProfile::Portable)[0].input_schema,
            *Everything::input_schema()
        );
        let with_null =
            json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2, "count": null});
        let result = tools.call("everything", with_null).await.unwrap();
        assert_eq!(
            result.is_error,
            profile != SchemaProfile::OpenAi,
            "{profile}"
        );
    }
}
