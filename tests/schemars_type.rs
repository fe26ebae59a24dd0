//! A field whose type has only `Deserialize` and `schemars::JsonSchema` (a foreign type
//! no feature covers), marked `#[mcp_tool(schemars)]`: advertised as its schemars schema
//! made portable, and enforced by that same schema, not by serde alone.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use mcp_tool::McpTool;
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Value, json};

/// Stands for another crate's types: they derive schemars' JsonSchema, not Argument.
mod geo {
    use serde::Deserialize;

    #[derive(schemars::JsonSchema, Deserialize, Debug)]
    pub struct Point {
        #[schemars(range(min = -90, max = 90))]
        pub lat: f64,
        #[schemars(range(min = -180, max = 180))]
        pub lon: f64,
        pub label: Option<String>,
        pub kind: Option<Kind>,
    }

    #[derive(schemars::JsonSchema, Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum Kind {
        City,
        Peak,
    }
}

/// Find places near a point.
#[derive(McpTool, Deserialize, Debug)]
struct Near {
    #[mcp_tool(schemars)]
    at: geo::Point,
    #[mcp_tool(schemars)]
    path: Option<Vec<geo::Point>>,
    #[validate(range(max = 50))]
    km: u8,
}

#[test]
fn the_schemars_schema_is_advertised_portable() {
    let schema = Near::input_schema();
    let text = schema.to_string();
    for banned in [
        "$ref",
        "$defs",
        "\"oneOf\"",
        "\"const\"",
        "\"$schema\"",
        "uint",
        "double",
    ] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
    let at = &schema["properties"]["at"];
    assert_eq!(at["properties"]["lat"]["maximum"], 90);
    assert_eq!(at["required"], json!(["lat", "lon"]));
    // schemars' type array for an Option, as this crate writes "or null".
    assert_eq!(
        at["properties"]["label"]["anyOf"][1],
        json!({"type": "null"})
    );
    assert_eq!(schema["required"], json!(["at", "km"]));
}

#[test]
fn the_same_schema_is_enforced() {
    let err = Near::from_arguments_in(
        json!({"at": {"lat": 100, "lon": 0, "kind": "lake"}, "path": [{"lat": 0}], "km": 60}),
        &today(),
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = profiles::found::rules(&err);
    assert_eq!(
        found,
        [
            ("/at/kind", "enum"),
            ("/at/lat", "range"),
            ("/path/0/lon", "required"),
            ("/km", "range")
        ]
    );
    let ok = Near::from_arguments_in(
        json!({"at": {"lat": 45.5, "lon": 6, "kind": "peak"}, "km": 5}),
        &today(),
    )
    .unwrap();
    assert_eq!(ok.at.lat, 45.5);
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let point = |lat: Value| json!({"lat": lat, "lon": 0});
    let candidates = vec![
        (
            "at",
            vec![
                point(json!(90)),
                point(json!(90.5)),
                point(json!("1")),
                json!({"lat": 0}),
                json!({"lat": 0, "lon": 0, "label": null}),
                json!({"lat": 0, "lon": 0, "kind": "city"}),
                json!({"lat": 0, "lon": 0, "kind": "City"}),
                json!({"lat": 0, "lon": 0, "extra": 1}),
                json!([]),
            ],
        ),
        (
            "path",
            vec![
                json!([]),
                json!([point(json!(-91))]),
                json!(null),
                json!({}),
            ],
        ),
        ("km", vec![json!(50), json!(51), json!(2.0)]),
    ];
    let cases = combinations(&json!({"at": point(json!(0)), "km": 1}), &candidates);
    let verdicts = hold::<Near>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}

/// A registry, as a real server writes it: a newtype read as its string, with a
/// `JsonSchema` written by hand and no `Argument`.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(transparent)]
pub struct Registry(String);

impl schemars::JsonSchema for Registry {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Registry".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A package registry's name.",
            "enum": ["npm", "pypi", "crates"],
        })
    }
}

fn default_registry() -> Registry {
    Registry("npm".into())
}

/// Look a package up, its registry's type written for schemars alone.
#[derive(McpTool, Deserialize, Debug)]
struct LookUp {
    name: String,
    registry: Registry,
    mirror: Option<Registry>,
    #[serde(default = "default_registry")]
    fallback: Registry,
    others: Vec<Registry>,
}

#[test]
fn a_type_with_only_a_hand_written_json_schema_needs_no_attribute() {
    let schema = LookUp::input_schema();
    let properties = &schema["properties"];
    assert_eq!(
        properties["registry"]["enum"],
        json!(["npm", "pypi", "crates"])
    );
    // schemars' reading of an Option, as for #[mcp_tool(schemars)]: "or null".
    assert_eq!(
        properties["mirror"]["anyOf"][0]["enum"],
        json!(["npm", "pypi", "crates"])
    );
    assert_eq!(
        properties["others"]["items"]["enum"],
        json!(["npm", "pypi", "crates"])
    );
    // What serde requires, and what it does not.
    assert_eq!(schema["required"], json!(["name", "registry", "others"]));
    // The default of a type that may not serialize is not said.
    assert!(properties["fallback"].get("default").is_none());
    let today = today();
    let args = json!({"name": "serde", "registry": "crates", "others": ["pypi"]});
    let read = LookUp::from_arguments_in(args, &today).unwrap();
    assert_eq!(read.registry, Registry("crates".into()));
    assert_eq!((read.mirror, read.fallback), (None, Registry("npm".into())));
    // Enforced by its schema, each at its own path.
    let error = LookUp::from_arguments_in(
        json!({"name": "serde", "registry": "cargo", "mirror": 7, "others": ["npm", "x"]}),
        &today,
    )
    .unwrap_err();
    let paths: Vec<&str> = error.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/registry", "/mirror", "/others/1"]);
}
