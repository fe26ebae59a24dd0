//! One rule set for many fields, their types left as they are: `#[validate(like =
//! Name)]` gives a `String` field the rules of a newtype over `String`, advertised and
//! enforced exactly as if written on the field (a memory server's name rule stands on
//! eight fields of five structs, which keep their `String`s for the storage layer).
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use mcp_tool::{Argument, McpTool, SchemaProfile};
use profiles::found::today;
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Value, json};

/// An entity's name, as the storage layer takes it.
#[derive(Argument, Deserialize, Debug)]
#[validate(
    length(min = 1, max = 256),
    regex(
        pattern = r"^[^\x00-\x1F\x7F]*$",
        hint = "Names have no control characters: remove line breaks and tabs."
    )
)]
struct Name(String);

/// Tags: at most five, each a name.
#[derive(Argument, Deserialize, Debug)]
#[validate(length(max = 5), items(length(min = 1, max = 256)))]
struct Tags(Vec<String>);

/// Relate two entities (the rules taken from `Name`).
#[derive(McpTool, Deserialize, Debug)]
struct Relate {
    #[validate(like = Name)]
    from: String,
    /// Where to, if anywhere.
    #[validate(like = Name)]
    to: Option<String>,
    #[validate(like = Tags)]
    tags: Option<Vec<String>>,
}

/// The same, the rules written on each field.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(name = "relate")]
struct RelateByHand {
    #[validate(
        length(min = 1, max = 256),
        regex(
            pattern = r"^[^\x00-\x1F\x7F]*$",
            hint = "Names have no control characters: remove line breaks and tabs."
        )
    )]
    from: String,
    /// Where to, if anywhere.
    #[validate(
        length(min = 1, max = 256),
        regex(
            pattern = r"^[^\x00-\x1F\x7F]*$",
            hint = "Names have no control characters: remove line breaks and tabs."
        )
    )]
    to: Option<String>,
    #[validate(length(max = 5), items(length(min = 1, max = 256)))]
    tags: Option<Vec<String>>,
}

fn cases() -> Vec<Value> {
    let candidates = [
        (
            "from",
            vec![
                json!("Lyon"),
                json!(""),
                json!("a\nb"),
                json!("é".repeat(256)),
                json!("é".repeat(257)),
                json!(7),
            ],
        ),
        (
            "to",
            vec![
                json!("Paris"),
                json!("x".repeat(257)),
                json!("\t"),
                json!(null),
            ],
        ),
        (
            "tags",
            vec![
                json!(["a"]),
                json!([""]),
                json!(["a", "b", "c", "d", "e", "f"]),
                json!("[\"a\"]"),
            ],
        ),
    ];
    combinations(&json!({"from": "Lyon"}), &candidates)
}

#[test]
fn a_field_like_a_newtype_is_advertised_as_if_the_rules_were_its_own() {
    for profile in SchemaProfile::ALL {
        assert_eq!(
            Relate::input_schema_for(profile),
            RelateByHand::input_schema_for(profile),
            "{profile}"
        );
    }
}

#[test]
fn and_answers_as_if_they_were() {
    for args in cases() {
        let shared = Relate::from_arguments_in(args.clone(), &today());
        let by_hand = RelateByHand::from_arguments_in(args.clone(), &today());
        match (shared, by_hand) {
            (Ok(_), Ok(_)) => {}
            (Err(a), Err(b)) => {
                assert_eq!(a.violations(), b.violations(), "{args}");
                assert_eq!(a.text(), b.text(), "{args}");
            }
            (a, b) => panic!("{args}: {:?} against {:?}", a.is_ok(), b.is_ok()),
        }
    }
    // The newtype's hint speaks for the field.
    let error = Relate::from_arguments_in(json!({"from": "a\nb"}), &today()).unwrap_err();
    assert!(
        error.text().contains("remove line breaks"),
        "{}",
        error.text()
    );
}

#[test]
fn the_runtime_and_every_profile_agree() {
    let verdicts = hold::<Relate>(&cases(), &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}

/// A shared rule set and the field's own beside it.
#[derive(McpTool, Deserialize, Debug)]
struct Rename {
    /// Shorter than any name.
    #[validate(like = Name, length(max = 40), regex = "^[A-Z]")]
    to: String,
}

#[test]
fn a_field_s_own_rules_stand_beside_the_shared_ones() {
    let schema = &Rename::input_schema()["properties"]["to"];
    // Of the two lengths, the stricter; both patterns.
    assert_eq!(schema["maxLength"], 40, "{schema}");
    assert_eq!(schema["minLength"], 1, "{schema}");
    assert_eq!(schema["pattern"], r"^[^\x00-\x1F\x7F]*$", "{schema}");
    assert_eq!(schema["allOf"], json!([{"pattern": "^[A-Z]"}]), "{schema}");
    for (to, rules) in [
        ("Lyon", vec![]),
        ("lyon", vec!["regex"]),
        ("L\nyon", vec!["regex"]),
        ("", vec!["length", "regex"]),
    ] {
        let found: Vec<String> = match Rename::from_arguments_in(json!({ "to": to }), &today()) {
            Ok(_) => Vec::new(),
            Err(e) => e.violations().iter().map(|v| v.rule.to_string()).collect(),
        };
        assert_eq!(found, rules, "{to:?}");
    }
    let long = "L".repeat(41);
    let error = Rename::from_arguments_in(json!({ "to": long }), &today()).unwrap_err();
    assert_eq!(error.violations()[0].rule, "length");
    let verdicts = hold::<Rename>(
        &[
            json!({"to": "Lyon"}),
            json!({"to": "lyon"}),
            json!({"to": long}),
        ],
        &today(),
        &[],
    )
    .unwrap();
    assert!(verdicts.contains(&Verdict::BothReject));
}

/// A newtype that exists only to be named by `like`: the derive's code uses it, so it
/// needs no `#[allow(dead_code)]` (before, rustc said it was never constructed and its
/// field never read).
#[deny(dead_code)]
mod used_only_through_like {
    use mcp_tool::{Argument, McpTool};
    use serde::Deserialize;

    /// A label.
    #[derive(Argument, Deserialize)]
    #[validate(length(min = 1, max = 20))]
    struct Label(String);

    /// Tag an entity.
    #[derive(McpTool, Deserialize)]
    pub(super) struct Tag {
        #[validate(like = Label)]
        pub(super) label: String,
    }
}

#[test]
fn a_newtype_named_only_by_like_is_used() {
    use used_only_through_like::Tag;
    let tag = Tag::from_arguments_in(json!({"label": "red"}), &today()).unwrap();
    assert_eq!(tag.label, "red");
    let error = Tag::from_arguments_in(json!({"label": ""}), &today())
        .err()
        .unwrap();
    assert_eq!(error.violations()[0].rule, "length");
}
