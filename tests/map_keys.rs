//! Maps keyed by integers and by unit enums: their names advertised (`propertyNames`,
//! in words where a profile takes no such keyword) and checked, a bad name reported at
//! its own path; and the wide and non-zero integers, in every profile.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use std::collections::{BTreeMap, HashMap};

use mcp_tool::{McpEnum, McpTool, SchemaProfile};
use profiles::found::today;
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::json;

#[derive(McpEnum, Deserialize, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
enum Shelf {
    Top,
    Bottom,
}

/// Stock by position and by shelf.
#[derive(McpTool, Deserialize, Debug)]
struct Stock {
    /// Items by their position.
    by_position: Option<HashMap<usize, String>>,
    /// Counts by shelf.
    #[validate(items(range(max = 100)))]
    by_shelf: Option<BTreeMap<Shelf, u32>>,
    /// Offsets by signed index.
    offsets: Option<BTreeMap<i32, i64>>,
    big: Option<u128>,
    count: Option<std::num::NonZeroU16>,
    delta: Option<std::num::NonZeroI32>,
}

#[test]
fn names_are_advertised_in_each_profile_s_form() {
    let schema = Stock::input_schema();
    let property = |name: &str| {
        let property = schema["properties"][name].clone();
        match property.get("anyOf") {
            Some(branches) => branches[0].clone(),
            None => property,
        }
    };
    assert_eq!(
        property("by_position")["propertyNames"],
        json!({"pattern": "^(0|[1-9][0-9]*)$"})
    );
    let offsets = schema["properties"]["offsets"]["description"]
        .as_str()
        .unwrap();
    assert!(
        offsets.contains("Its names are integers from -2147483648 to 2147483647."),
        "{offsets}"
    );
    assert_eq!(
        property("by_shelf")["propertyNames"],
        json!({"enum": ["top", "bottom"]})
    );
    assert_eq!(property("by_shelf")["additionalProperties"]["maximum"], 100);
    for profile in [
        SchemaProfile::OpenAi,
        SchemaProfile::Gemini,
        SchemaProfile::Anthropic,
    ] {
        let text = Stock::input_schema_for(profile).to_string();
        assert!(!text.contains("propertyNames"), "{profile}: {text}");
        assert!(
            text.contains("Its names are each one of \\\"top\\\", \\\"bottom\\\"."),
            "{profile}: {text}"
        );
    }
}

#[test]
fn a_bad_name_is_reported_at_its_path() {
    let error = Stock::from_arguments_in(
        json!({"by_position": {"1": "a", "01": "b", "x": "c"}, "by_shelf": {"middle": 3, "top": 101}}),
        &today(),
    )
    .unwrap_err();
    let found: Vec<(String, String)> = error
        .violations()
        .iter()
        .map(|v| (v.path.clone(), v.rule.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("/by_position/01".into(), "property_names".into()),
            ("/by_position/x".into(), "property_names".into()),
            ("/by_shelf/middle".into(), "property_names".into()),
            ("/by_shelf/top".into(), "range".into()),
        ]
    );
    let message = &error.violations()[2].message;
    assert!(message.contains("one of \"top\", \"bottom\""), "{message}");
    let read = Stock::from_arguments_in(
        json!({"by_position": {"0": "a", "12": "b"}, "by_shelf": {"top": 3}, "offsets": {"-4": 1}}),
        &today(),
    )
    .unwrap();
    assert_eq!(read.by_position.unwrap()[&12], "b");
    assert_eq!(read.by_shelf.unwrap()[&Shelf::Top], 3);
    assert_eq!(read.offsets.unwrap()[&-4], 1);
}

#[test]
fn the_runtime_and_every_profile_agree() {
    let candidates = [
        (
            "by_position",
            vec![
                json!({"0": "a"}),
                json!({"01": "a"}),
                json!({"-1": "a"}),
                json!({"x": 1}),
            ],
        ),
        (
            "by_shelf",
            vec![
                json!({"top": 1}),
                json!({"middle": 1}),
                json!({"top": 101}),
                json!({"Top": 1}),
            ],
        ),
        (
            "offsets",
            vec![json!({"-4": 1}), json!({"+4": 1}), json!({"2147483648": 1})],
        ),
        (
            "big",
            vec![json!(0), json!(u64::MAX), json!(-1), json!(1e20)],
        ),
        (
            "count",
            vec![json!(1), json!(0), json!(65535), json!(65536)],
        ),
        ("delta", vec![json!(-1), json!(0), json!(1.0)]),
    ];
    let cases = combinations(&json!({}), &candidates);
    let verdicts = hold::<Stock>(
        &cases,
        &today(),
        &["integer_range", "not_zero", "property_names"],
    )
    .unwrap();
    for verdict in [
        Verdict::BothAccept,
        Verdict::BothReject,
        Verdict::RuntimeStricter,
    ] {
        assert!(verdicts.contains(&verdict), "{verdict:?}");
    }
}
