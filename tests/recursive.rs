//! Recursive argument types: a filter of filters is inlined to `MAX_RECURSION` levels in
//! the schema, the runtime accepts exactly those levels, and both agree on every tree.
#![allow(dead_code)] // fields exist for the derive to read

#[path = "support/judge.rs"]
mod judge;

use std::sync::mpsc;
use std::time::Duration;

use judge::{Verdict, agree, judge};
use mcp_tool::{Argument, Context, MAX_RECURSION, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

/// Find records matching a filter.
#[derive(McpTool, Deserialize, Debug)]
struct Filter {
    /// The field compared.
    #[validate(regex = r"^[a-z_]+$")]
    field: String,
    #[validate(enum = ["eq", "lt", "gt"])]
    op: Option<String>,
    /// Any of these filters.
    #[serde(default)]
    any_of: Vec<Filter>,
    /// The opposite of this filter.
    not: Option<Box<Filter>>,
}

/// A node of a tree whose children are branches, whose leaves are nodes again.
#[derive(Argument, Deserialize, Debug)]
struct Node {
    #[validate(length(max = 8))]
    label: String,
    branch: Option<Branch>,
}

#[derive(Argument, Deserialize, Debug)]
struct Branch {
    #[validate(range(max = 9))]
    weight: u8,
    nodes: Option<Vec<Node>>,
}

/// Draw a tree.
#[derive(McpTool, Deserialize, Debug)]
struct DrawTree {
    root: Node,
    forest: Option<std::collections::BTreeMap<String, Node>>,
}

/// Runs `f` on another thread: a schema that never finishes building fails the test
/// instead of hanging it.
fn within_seconds<T: Send + 'static>(f: fn() -> T) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || send.send(f()).unwrap());
    receive
        .recv_timeout(Duration::from_secs(20))
        .expect("building the schema of a recursive type finishes")
}

/// A filter tree `levels` deep, each level holding the next in `any_of`.
fn tree(levels: usize, leaf: Value) -> Value {
    (1..levels).fold(leaf, |inner, _| json!({"field": "a", "any_of": [inner]}))
}

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

#[test]
fn the_schema_of_a_recursive_type_is_built_and_inlines_every_level() {
    let schema = within_seconds(|| Filter::input_schema().clone());
    assert!(!schema.to_string().contains("$ref"));
    // MAX_RECURSION levels of properties, one inside the other.
    let mut level = &schema;
    for _ in 1..MAX_RECURSION {
        assert_eq!(level["properties"]["field"]["pattern"], "^[a-z_]+$");
        level = &level["properties"]["any_of"]["items"];
    }
    // The deepest level can hold no filter: an empty list, and `not` only as null
    // (its `None`).
    assert_eq!(level["properties"]["any_of"]["maxItems"], 0);
    assert_eq!(level["properties"]["not"], json!({"type": "null"}));
    assert_eq!(level["additionalProperties"], false);
    // Mutual recursion finishes too.
    within_seconds(|| DrawTree::input_schema().clone());
}

#[test]
fn a_tree_three_levels_deep_is_read_and_a_bad_value_there_is_at_its_full_pointer() {
    let three = tree(3, json!({"field": "price", "op": "lt"}));
    let filter = Filter::from_arguments_in(three, &today()).unwrap();
    assert_eq!(filter.any_of[0].any_of[0].field, "price");

    let bad = tree(3, json!({"field": "Price", "op": "le"}));
    let err = Filter::from_arguments_in(bad, &today()).unwrap_err();
    let paths: Vec<&str> = err.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/any_of/0/any_of/0/field", "/any_of/0/any_of/0/op"]);
}

#[test]
fn past_the_last_level_the_runtime_says_so_where_the_schema_does() {
    let deepest = tree(MAX_RECURSION, json!({"field": "a"}));
    assert!(Filter::from_arguments_in(deepest.clone(), &today()).is_ok());

    let too_deep = tree(MAX_RECURSION + 1, json!({"field": "a"}));
    let err = Filter::from_arguments_in(too_deep.clone(), &today()).unwrap_err();
    let v = &err.violations()[0];
    assert_eq!(v.rule, "depth");
    // The fifth filter, inside four.
    assert_eq!(v.path, "/any_of/0".repeat(MAX_RECURSION));
    assert!(
        v.message
            .starts_with("is nested too deep: a filter may hold others to 4 levels"),
        "{}",
        v.message
    );
    let judge = judge::<Filter>();
    assert!(!judge.is_valid(&too_deep));
    assert!(judge.is_valid(&deepest));
}

#[test]
fn schema_and_runtime_agree_on_trees_at_and_past_every_level() {
    let judge_filter = judge::<Filter>();
    let judge_tree = judge::<DrawTree>();
    let mut cases = Vec::new();
    for levels in 1..=MAX_RECURSION + 2 {
        for leaf in [
            json!({"field": "a"}),
            json!({"field": "a", "any_of": []}),
            json!({"field": "a", "not": {"field": "b"}}),
            json!({"field": "a", "not": null}),
            json!({"field": "A"}),
            json!({"field": "a", "any_of": [{"field": "b"}, {"field": 1}]}),
        ] {
            cases.push(tree(levels, leaf));
        }
    }
    for args in &cases {
        agree::<Filter>(&judge_filter, args, &today(), &[]).unwrap();
    }

    let mut trees = Vec::new();
    let mut node = json!({"label": "leaf"});
    for _ in 0..=MAX_RECURSION + 1 {
        trees.push(json!({"root": node.clone()}));
        trees.push(json!({"root": {"label": "r"}, "forest": {"x": node.clone()}}));
        trees.push(json!({"root": {"label": "r", "branch": {"weight": 1, "nodes": []}}}));
        node = json!({"label": "n", "branch": {"weight": 10, "nodes": [node, {"label": "far too long"}]}});
    }
    let mut verdicts = Vec::new();
    for args in &trees {
        verdicts.push(agree::<DrawTree>(&judge_tree, args, &today(), &[]).unwrap());
    }
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}
