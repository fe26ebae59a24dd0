//! One owner per keyword: two rules of one value that write the same schema keyword
//! (a `regex` beside a date's shape, `email` beside `url`, a field's pattern beside its
//! newtype's, two bounds) are both advertised, never one in place of the other, while
//! the runtime enforces both.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use mcp_tool::{McpTool, SchemaProfile};
use profiles::found::today;
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Value, json};

/// Both of every kind.
#[derive(McpTool, Deserialize, Debug)]
struct Twice {
    /// A day in 2027 at the latest, and in the future.
    #[validate(
        regex = "^[0-9]{2}/[0-9]{2}/202[0-7]$",
        future_date(format = "%d/%m/%Y")
    )]
    day: String,
    /// An address that is both an email and a URL: none is.
    #[validate(email, url)]
    contact: Option<String>,
}

fn property(profile: SchemaProfile, name: &str) -> Value {
    let schema = Twice::input_schema_for(profile);
    let property = schema["properties"][name].clone();
    match property.get("anyOf") {
        Some(branches) => branches[0].clone(),
        None => property,
    }
}

#[test]
fn both_are_advertised_where_one_was_dropped() {
    let day = property(SchemaProfile::Portable, "day");
    let patterns: Vec<&Value> = std::iter::once(&day["pattern"])
        .chain(
            day["allOf"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| &b["pattern"]),
        )
        .collect();
    assert!(
        patterns.contains(&&json!("^[0-9]{2}/[0-9]{2}/202[0-7]$")),
        "{day}"
    );
    assert!(
        patterns.contains(&&json!("^[0-9]{2}/[0-9]{2}/[0-9]{4}$")),
        "{day}"
    );

    let contact = property(SchemaProfile::Portable, "contact");
    assert_eq!(contact["format"], "email", "{contact}");
    assert_eq!(contact["allOf"], json!([{"format": "uri"}]), "{contact}");

    // A profile that takes no `allOf` says the second in words.
    for profile in [
        SchemaProfile::OpenAi,
        SchemaProfile::Gemini,
        SchemaProfile::Anthropic,
    ] {
        let schema = Twice::input_schema_for(profile).to_string();
        assert!(!schema.contains("allOf"), "{profile}: {schema}");
        for said in [
            "Also matches the pattern ^[0-9]{2}/[0-9]{2}/[0-9]{4}$.",
            "Also in the format uri.",
        ] {
            assert!(schema.contains(said), "{profile}: {schema}");
        }
    }
}

#[test]
fn the_runtime_and_every_profile_agree() {
    let candidates = [
        (
            "day",
            vec![
                json!("15/01/2027"),
                json!("15/01/2099"),
                json!("15/01/2020"),
                json!("1/1/2027"),
            ],
        ),
        (
            "contact",
            vec![
                json!("ada@example.com"),
                json!("https://example.com"),
                json!("x"),
            ],
        ),
    ];
    let cases = combinations(&json!({"day": "15/01/2027"}), &candidates);
    let verdicts = hold::<Twice>(&cases, &today(), &["future_date"]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
    // The judge rejects a day of the date's shape that the field's own pattern refuses,
    // and an email that is no URL: both are advertised.
    let judge = profiles::judge::judge::<Twice>();
    assert!(!judge.is_valid(&json!({"day": "15/01/2099"})));
    assert!(!judge.is_valid(&json!({"day": "15/01/2027", "contact": "ada@example.com"})));
}
