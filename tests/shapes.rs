//! The shapes serde reads besides structs, lists and maps: sets, fixed-size arrays,
//! tuples and `serde_json::Map`. Each advertises what it takes, is checked the same way,
//! and is held to the schema in every profile by the independent judge.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use std::collections::{BTreeSet, HashSet};

use mcp_tool::{McpTool, SchemaProfile};
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// Draw a shape.
#[derive(McpTool, Deserialize, Debug)]
struct Draw {
    /// Labels, each once.
    #[validate(items(length(min = 1, max = 8)), length(max = 3))]
    tags: HashSet<String>,
    layers: Option<BTreeSet<u8>>,
    /// Red, green, blue and alpha.
    #[validate(items(range(min = 0.0, max = 1.0)))]
    color: [f32; 4],
    origin: Option<(f32, f32)>,
    label: Option<(String, u8)>,
    style: Option<Map<String, Value>>,
}

fn base() -> Value {
    json!({"tags": ["a"], "color": [0.0, 0.5, 1.0, 1.0]})
}

#[test]
fn each_shape_advertises_what_serde_reads() {
    let props = &Draw::input_schema()["properties"];
    assert_eq!(props["tags"]["uniqueItems"], true);
    assert_eq!(props["tags"]["maxItems"], 3);
    assert_eq!(props["tags"]["items"]["maxLength"], 8);
    assert_eq!(props["color"]["minItems"], 4);
    assert_eq!(props["color"]["maxItems"], 4);
    assert_eq!(props["color"]["items"]["maximum"], 1.0);
    // Items of one type: one `items`.
    let origin = &props["origin"]["anyOf"][0];
    assert_eq!(origin["items"], json!({"type": "number"}));
    assert!(origin.get("prefixItems").is_none());
    // Items of several: each in its place, and every kind in `items`.
    let label = &props["label"]["anyOf"][0];
    assert_eq!(label["prefixItems"][0]["type"], "string");
    assert_eq!(label["prefixItems"][1]["maximum"], 255);
    assert_eq!(label["items"]["anyOf"].as_array().unwrap().len(), 2);
    assert_eq!(
        props["style"]["anyOf"][0],
        json!({"type": "object", "additionalProperties": {}})
    );
}

#[test]
fn a_repeated_item_of_a_set_is_reported_at_its_index() {
    let err = Draw::from_arguments_in(
        json!({"tags": ["a", "b", "a"], "layers": [1, 2, 1.0], "color": [0, 0, 0, 1]}),
        &today(),
    )
    .unwrap_err();
    let found = profiles::found::all(&err);
    assert_eq!(
        found,
        [
            (
                "/tags/2",
                "unique",
                "must not repeat item 0; got \"a\". Remove the repeated item."
            ),
            (
                "/layers/2",
                "unique",
                "must not repeat item 0; got 1.0. Remove the repeated item."
            ),
        ]
    );
}

#[test]
fn a_fixed_size_array_or_tuple_takes_exactly_its_items() {
    let err = Draw::from_arguments_in(
        json!({"tags": [], "color": [0, 0, 0], "origin": [1, "x"], "label": ["a", 300]}),
        &today(),
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = profiles::found::messages(&err);
    assert_eq!(
        found,
        [
            (
                "/color",
                "must be an array of exactly 4 items; got an array of 3 items: [0,0,0]."
            ),
            ("/origin/1", "must be a number; got \"x\"."),
            ("/label/1", "must be an integer from 0 to 255; got 300."),
        ]
    );
    let ok = Draw::from_arguments_in(
        json!({"tags": ["x"], "color": [0.1, 0.2, 0.3, 1], "origin": [1.5, -2], "label": ["hi", 7],
               "style": {"any": ["thing"]}}),
        &today(),
    )
    .unwrap();
    assert_eq!(ok.color, [0.1, 0.2, 0.3, 1.0]);
    assert_eq!(ok.origin, Some((1.5, -2.0)));
    assert_eq!(ok.label, Some(("hi".into(), 7)));
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let candidates = vec![
        (
            "tags",
            vec![
                json!([]),
                json!(["a", "a"]),
                json!(["a", "b", "c", "d"]),
                json!([""]),
                json!("a"),
                json!([1]),
            ],
        ),
        (
            "layers",
            vec![
                json!([1, 2]),
                json!([2, 2.0]),
                json!([256]),
                json!(null),
                json!("<absent>"),
            ],
        ),
        (
            "color",
            vec![
                json!([0, 0, 0]),
                json!([0, 0, 0, 0, 0]),
                json!([0, 0, 0, 2]),
                json!(["0", 0, 0, 0]),
                json!({}),
            ],
        ),
        (
            "origin",
            vec![
                json!([1, 2]),
                json!([1]),
                json!([1, 2, 3]),
                json!([true, 1]),
                json!(null),
            ],
        ),
        (
            "label",
            vec![
                json!(["a", 1]),
                json!([1, "a"]),
                json!(["a", -1]),
                json!(["a"]),
            ],
        ),
        (
            "style",
            vec![json!({}), json!({"a": null}), json!([]), json!(null)],
        ),
    ];
    let cases = combinations(&base(), &candidates);
    assert!(cases.len() > 300);
    let verdicts = hold::<Draw>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}

#[test]
fn profiles_say_what_they_cannot_carry() {
    for profile in [
        SchemaProfile::OpenAi,
        SchemaProfile::Gemini,
        SchemaProfile::Anthropic,
    ] {
        let props = &Draw::input_schema_for(profile)["properties"];
        let tags = props["tags"].to_string();
        assert!(!tags.contains("uniqueItems"), "{profile}");
        assert!(tags.contains("No item may repeat another."), "{profile}");
        let label = props["label"].to_string();
        assert!(!label.contains("prefixItems"), "{profile}");
        assert!(
            label.contains("In this order: a string, an integer."),
            "{profile}"
        );
    }
}
