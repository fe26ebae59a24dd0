//! `#[serde(flatten)]`: a struct of shared parameters whose properties, required names and
//! rules join the tool's with their paths unchanged, and a map that takes every other name.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use std::collections::HashMap;

use mcp_tool::{Argument, McpTool};
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::json;

/// Paging, shared by every listing tool.
#[derive(Argument, Deserialize, Debug)]
struct Paging {
    /// At most this many.
    #[validate(range(min = 1, max = 100))]
    limit: Option<u32>,
    /// Where the last page ended.
    cursor: Option<String>,
    #[validate(enum = ["asc", "desc"])]
    order: String,
}

/// List the issues of a repository.
#[derive(McpTool, Deserialize, Debug)]
struct ListIssues {
    #[validate(regex = r"^[a-z0-9-]+/[a-z0-9-]+$")]
    repo: String,
    #[serde(flatten)]
    paging: Paging,
}

/// Count labels: any label name, each with its count.
#[derive(McpTool, Deserialize, Debug)]
struct CountLabels {
    #[validate(range(min = 1))]
    issue: u64,
    #[serde(flatten)]
    counts: HashMap<String, u8>,
}

#[test]
fn a_flattened_struct_s_properties_stand_beside_the_tool_s() {
    let schema = ListIssues::input_schema();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["cursor", "limit", "order", "repo"]);
    assert_eq!(schema["required"], json!(["repo", "order"]));
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["properties"]["limit"]["anyOf"][0]["maximum"], 100);

    let err = ListIssues::from_arguments_in(
        json!({"repo": "rust-lang/rust", "limit": 500, "ordr": "asc"}),
        &today(),
    )
    .unwrap_err();
    let found = profiles::found::all(&err);
    assert_eq!(found[0].0, "/limit");
    assert_eq!(found[1].0, "/order");
    assert!(found[1].2.contains("sent as \"ordr\""), "{}", found[1].2);
    assert_eq!((found[2].0, found[2].1), ("/ordr", "unknown"));
    assert!(
        found[2].2.contains("Did you mean \"order\"?"),
        "{}",
        found[2].2
    );

    let ok = ListIssues::from_arguments_in(
        json!({"repo": "rust-lang/rust", "limit": 5, "order": "desc"}),
        &today(),
    )
    .unwrap();
    assert_eq!(ok.paging.limit, Some(5));
}

#[test]
fn a_flattened_map_takes_every_other_name() {
    let schema = CountLabels::input_schema();
    assert_eq!(schema["additionalProperties"]["type"], "integer");
    assert_eq!(schema["additionalProperties"]["maximum"], 255);
    let ok =
        CountLabels::from_arguments_in(json!({"issue": 7, "bug": 3, "ui": 1}), &today()).unwrap();
    assert_eq!(ok.counts.len(), 2);
    let err =
        CountLabels::from_arguments_in(json!({"issue": 0, "bug": "many"}), &today()).unwrap_err();
    let paths: Vec<&str> = err.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/issue", "/bug"]);
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let candidates = vec![
        ("repo", vec![json!("a/b"), json!("A/b"), json!(1)]),
        (
            "limit",
            vec![json!(1), json!(0), json!(101), json!(null), json!("5")],
        ),
        ("cursor", vec![json!("x"), json!(null), json!(3)]),
        ("order", vec![json!("asc"), json!("up"), json!("<absent>")]),
        ("extra", vec![json!(1), json!(null)]),
    ];
    let cases = combinations(&json!({"repo": "a/b", "order": "asc"}), &candidates);
    let verdicts = hold::<ListIssues>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));

    let candidates = vec![
        (
            "issue",
            vec![json!(1), json!(0), json!("1"), json!("<absent>")],
        ),
        (
            "bug",
            vec![
                json!(0),
                json!(255),
                json!(256),
                json!(-1),
                json!("x"),
                json!(null),
            ],
        ),
        ("ui", vec![json!(1.0), json!(1.5)]),
    ];
    let cases = combinations(&json!({"issue": 3}), &candidates);
    let verdicts = hold::<CountLabels>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}
