//! Enums with data in serde's four representations, as a field's type (`Argument`) and
//! as a whole tool's arguments (`McpTool`): the schema describes the forms in every
//! profile, the runtime finds the form as serde does, names a wrong tag with the nearest
//! right one, checks the form's fields at their full paths, and the two never disagree.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use mcp_tool::{Argument, McpTool, SchemaProfile};
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Value, json};

/// How to find a user.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(tag = "by", rename_all = "snake_case")]
enum Who {
    /// By the user's numeric ID.
    Id {
        #[validate(range(min = 1))]
        id: u64,
    },
    /// By email address.
    Email {
        #[validate(email)]
        email: String,
    },
    Me,
}

/// Where to send a message: externally tagged, every kind of variant.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Channel {
    Nowhere,
    Log,
    Email(#[validate(email)] String),
    Point(f32, f32),
    Slack {
        #[validate(regex = r"^#[a-z0-9-]+$")]
        channel: String,
        thread: Option<String>,
    },
}

/// A filter value, adjacently tagged.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Filter {
    Equals(String),
    Between(#[validate(range(min = 0))] i64, i64),
    Any,
}

/// An amount, untagged: serde takes the first form it can read.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Amount {
    Cents {
        #[validate(range(max = 1000))]
        cents: u32,
    },
    Text {
        #[validate(length(min = 1, max = 10))]
        text: String,
    },
}

/// Send a message.
#[derive(McpTool, Deserialize, Debug)]
struct Send {
    to: Who,
    via: Channel,
    filter: Option<Filter>,
    amount: Option<Amount>,
}

fn base() -> Value {
    json!({"to": {"by": "me"}, "via": "log"})
}

fn violations(args: Value) -> Vec<(String, String)> {
    match Send::from_arguments_in(args, &today()) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .violations()
            .iter()
            .map(|v| (v.path.clone(), v.message.clone()))
            .collect(),
    }
}

#[test]
fn each_form_is_read_into_its_variant() {
    let read = Send::from_arguments_in(
        json!({
            "to": {"by": "id", "id": 7},
            "via": {"slack": {"channel": "#ops"}},
            "filter": {"t": "Between", "c": [1, 5]},
            "amount": {"text": "ten euros"},
        }),
        &today(),
    )
    .unwrap();
    assert_eq!(read.to, Who::Id { id: 7 });
    assert_eq!(
        read.via,
        Channel::Slack {
            channel: "#ops".into(),
            thread: None
        }
    );
    assert_eq!(read.filter, Some(Filter::Between(1, 5)));
    assert_eq!(
        read.amount,
        Some(Amount::Text {
            text: "ten euros".into()
        })
    );
}

#[test]
fn a_wrong_tag_is_named_with_the_nearest_form() {
    assert_eq!(
        violations(json!({"to": {"by": "emial", "email": "a@b.co"}, "via": "log"})),
        [(
            "/to/by".to_owned(),
            "must be one of \"id\", \"email\", \"me\"; got \"emial\". Did you mean \"email\"?"
                .to_owned()
        )]
    );
    assert_eq!(
        violations(json!({"to": {"id": 7}, "via": "log"})),
        [(
            "/to/by".to_owned(),
            "is required but was not sent. It names the form the call takes: send one of \"id\", \"email\", \"me\"."
                .to_owned()
        )]
    );
    assert_eq!(
        violations(json!({"to": {"by": "me"}, "via": {"slak": {"channel": "#ops"}}})),
        [(
            "/via/slak".to_owned(),
            "is not a form of this call; the forms are \"nowhere\", \"log\", \"email\", \"point\", \"slack\"; got \"slak\". Did you mean \"slack\"?"
                .to_owned()
        )]
    );
}

#[test]
fn the_chosen_form_s_fields_are_checked_at_their_full_paths() {
    let found = violations(json!({
        "to": {"by": "id", "id": 0, "email": "x"},
        "via": {"slack": {"channel": "ops"}},
        "filter": {"t": "Between", "c": [-1, "x"]},
    }));
    let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/to/id",
            "/to/email",
            "/via/slack/channel",
            "/filter/c/0",
            "/filter/c/1"
        ]
    );
}

#[test]
fn an_untagged_value_is_checked_as_the_form_serde_reads() {
    // serde reads {"cents": 5000} as Cents: its range is what applies.
    let found = violations(json!({"to": {"by": "me"}, "via": "log", "amount": {"cents": 5000}}));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "/amount/cents");
    // No form fits: the closest one's problems, after a line that says so.
    let found = violations(json!({"to": {"by": "me"}, "via": "log", "amount": {"text": 5}}));
    assert_eq!(
        found[0],
        (
            "/amount".to_owned(),
            "must take one of the forms of Amount: \"Cents\", \"Text\"; got an object with 1 property: {\"text\":5}. It comes closest to the \"Text\" form, whose problems follow."
                .to_owned()
        )
    );
    assert_eq!(found[1].0, "/amount/text");
}

#[test]
fn a_field_s_union_is_an_any_of_with_each_form_described() {
    let props = &Send::input_schema()["properties"];
    let who = &props["to"];
    assert_eq!(who["description"], "How to find a user.");
    let branches = who["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 3);
    assert_eq!(
        branches[0]["properties"]["by"],
        json!({"type": "string", "enum": ["id"]})
    );
    assert_eq!(branches[0]["required"], json!(["by", "id"]));
    assert_eq!(branches[0]["description"], "By the user's numeric ID.");
    assert_eq!(branches[2]["additionalProperties"], false);
    // External: the unit variants are one string branch.
    let via = props["via"]["anyOf"].as_array().unwrap();
    assert_eq!(
        via[0],
        json!({"type": "string", "enum": ["nowhere", "log"]})
    );
    assert_eq!(via[1]["required"], json!(["email"]));
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let candidates = vec![
        (
            "to",
            vec![
                json!({"by": "id", "id": 3}),
                json!({"by": "id", "id": 0}),
                json!({"by": "id"}),
                json!({"by": "email", "email": "a@b.co"}),
                json!({"by": "email", "email": "nope"}),
                json!({"by": "me", "id": 1}),
                json!({"by": "you"}),
                json!({"by": 1}),
                json!({}),
                json!("me"),
            ],
        ),
        (
            "via",
            vec![
                json!("nowhere"),
                json!("email"),
                json!({"email": "a@b.co"}),
                json!({"email": "x"}),
                json!({"point": [1, 2]}),
                json!({"point": [1]}),
                json!({"slack": {"channel": "#a"}}),
                json!({"slack": {"channel": "#a", "thread": null}}),
                json!({"slack": {"channel": "a"}}),
                json!({"log": null}),
                json!({"email": "a@b.co", "log": null}),
                json!({}),
                json!(3),
            ],
        ),
        (
            "filter",
            vec![
                json!({"t": "Equals", "c": "x"}),
                json!({"t": "Equals"}),
                json!({"t": "Between", "c": [0, 1]}),
                json!({"t": "Between", "c": [-1, 1]}),
                json!({"t": "Any"}),
                json!({"t": "Any", "c": 1}),
                json!({"t": "Equals", "c": "x", "d": 1}),
                json!(null),
            ],
        ),
        (
            "amount",
            vec![
                json!({"cents": 10}),
                json!({"cents": 10.0}),
                json!({"cents": 5000}),
                json!({"text": "x"}),
                json!({"text": ""}),
                json!({"text": 1}),
                json!({"cents": 1, "text": "x"}),
                json!({}),
                json!(null),
            ],
        ),
    ];
    let cases = combinations(&base(), &candidates);
    assert!(cases.len() > 500);
    let verdicts = hold::<Send>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}

/// Search the catalogue: a whole tool's arguments as an internally tagged enum.
#[derive(McpTool, Deserialize, Debug, PartialEq)]
#[serde(tag = "mode", rename_all = "snake_case")]
enum Search {
    /// Full-text search.
    Text {
        #[validate(length(min = 2))]
        query: String,
        limit: Option<u8>,
    },
    /// One item by its SKU.
    Sku {
        #[validate(regex = r"^[A-Z]{3}-[0-9]{4}$")]
        sku: String,
        limit: Option<u8>,
    },
}

#[test]
fn a_tool_of_an_enum_advertises_one_tagged_object() {
    let schema = Search::input_schema();
    assert_eq!(schema["type"], "object");
    assert!(schema.get("anyOf").is_none(), "no union at the root");
    assert_eq!(schema["required"], json!(["mode"]));
    assert_eq!(schema["properties"]["mode"]["enum"], json!(["text", "sku"]));
    assert_eq!(
        schema["properties"]["query"]["description"],
        "Only with mode = \"text\". Required with mode = \"text\"."
    );
    assert!(schema["properties"]["limit"].get("description").is_none());
    let tool = Search::tool();
    assert_eq!(tool.name, "search");
    assert_eq!(
        tool.description.as_deref(),
        Some("Search the catalogue: a whole tool's arguments as an internally tagged enum.")
    );

    let read = Search::from_arguments_in(json!({"mode": "sku", "sku": "ABC-1234"}), &today());
    assert_eq!(
        read.unwrap(),
        Search::Sku {
            sku: "ABC-1234".into(),
            limit: None
        }
    );
    let err = Search::from_arguments_in(json!({"mode": "text", "sku": "ABC-1234"}), &today())
        .unwrap_err();
    let found: Vec<(&str, &str)> = profiles::found::rules(&err);
    assert_eq!(found, [("/query", "required"), ("/sku", "unknown")]);
    assert!(
        err.violations()[1]
            .message
            .starts_with("is not an argument of search")
    );
}

#[test]
fn a_tool_of_an_enum_agrees_with_its_schema_in_every_profile() {
    let candidates = vec![
        (
            "mode",
            vec![
                json!("text"),
                json!("sku"),
                json!("txt"),
                json!(1),
                json!("<absent>"),
            ],
        ),
        (
            "query",
            vec![json!("ab"), json!("a"), json!(null), json!("<absent>")],
        ),
        ("sku", vec![json!("ABC-1234"), json!("abc"), json!(null)]),
        ("limit", vec![json!(3), json!(300), json!(null)]),
        ("other", vec![json!(1), json!(null)]),
    ];
    let cases = combinations(&json!({"mode": "text", "query": "rust"}), &candidates);
    // The runtime alone refuses a property of the other form, or a form's required
    // property left out: what the descriptions say ("Only with", "Required with").
    let verdicts = hold::<Search>(&cases, &today(), &["unknown", "required"]).unwrap();
    assert!(verdicts.contains(&Verdict::RuntimeStricter));
    assert!(verdicts.contains(&Verdict::BothAccept));
}

#[test]
fn under_openai_the_other_form_s_nulls_are_left_out() {
    // Strict mode sends every property it was shown.
    let args = json!({"mode": "sku", "sku": "ABC-1234", "query": null, "limit": null});
    let read = Search::from_arguments_for(args, &today(), SchemaProfile::OpenAi).unwrap();
    assert_eq!(
        read,
        Search::Sku {
            sku: "ABC-1234".into(),
            limit: None
        }
    );
}

/// Arithmetic: a recursive enum.
#[derive(Argument, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
enum Expr {
    Num(f64),
    Neg(Box<Expr>),
    Add { left: Box<Expr>, right: Box<Expr> },
}

/// Evaluate an expression.
#[derive(McpTool, Deserialize, Debug)]
struct Eval {
    expr: Expr,
}

#[test]
fn a_recursive_enum_is_inlined_to_the_limit_and_agrees_past_it() {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(Eval::input_schema().clone()).unwrap());
    let schema = receive
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the schema of a recursive enum is built");
    assert!(!schema.to_string().contains("$ref"));
    let mut cases = Vec::new();
    let mut expr = json!({"num": 1});
    for _ in 0..=mcp_tool::MAX_RECURSION + 1 {
        cases.push(json!({ "expr": expr.clone() }));
        cases.push(json!({"expr": {"add": {"left": expr.clone(), "right": {"num": "x"}}}}));
        expr = json!({ "neg": expr });
    }
    let verdicts = hold::<Eval>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
    let too_deep = Eval::from_arguments_in(cases.last().unwrap().clone(), &today()).unwrap_err();
    assert!(too_deep.violations().iter().any(|v| v.rule == "depth"));
}

/// A reply: untagged, with a unit variant that serde reads as null.
#[derive(Argument, Deserialize, Debug)]
#[serde(untagged)]
enum Reply {
    Text { text: String },
    Nothing,
}

/// Answer.
#[derive(McpTool, Deserialize, Debug)]
struct Answer {
    reply: Reply,
}

#[test]
fn an_untagged_unit_variant_is_null_and_gemini_reads_it_as_nullable() {
    let portable = &Answer::input_schema()["properties"]["reply"];
    assert_eq!(portable["anyOf"][1], json!({"type": "null"}));
    let gemini = &Answer::input_schema_for(SchemaProfile::Gemini)["properties"]["reply"];
    assert!(!gemini.to_string().contains("\"null\""), "{gemini}");
    assert_eq!(gemini["nullable"], true);
    let cases = [
        json!({"reply": null}),
        json!({"reply": {"text": "hi"}}),
        json!({"reply": 3}),
    ];
    let verdicts = hold::<Answer>(&cases, &today(), &[]).unwrap();
    assert_eq!(
        verdicts,
        [
            Verdict::BothAccept,
            Verdict::BothAccept,
            Verdict::BothReject
        ]
    );
}
