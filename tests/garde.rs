//! From garde (issue 59, item 2): a server that derived `garde::Validate` beside
//! `schemars::JsonSchema` advertised garde's rules (schemars 1.x reads `#[garde(...)]`)
//! and garde enforced them. Swapping `JsonSchema` for this crate's derive keeps every
//! constraint the schema advertised, as strict or stricter, now enforced from the same
//! attribute; garde's derive may stay or go.
//!
//! The tools are written the way a notes server writes them (five tools, names and
//! descriptions our own): each twice, as the server had it (`before`: schemars and
//! garde) and swapped (this crate's derive, garde's gone), from one text.
#![allow(dead_code)] // the fields exist for the derives to read

#[path = "support/judge.rs"]
mod judge;
#[path = "support/nothing_lost.rs"]
mod nothing_lost;

use judge::{Verdict, agree};
use mcp_tool::{Context, McpTool};
use nothing_lost::{held, nothing_lost};
use serde::Deserialize;
use serde_json::{Value, json};

/// garde's signature: the value, and the context (none).
fn no_parent_dirs(path: &str, _: &()) -> garde::Result {
    if path.split('/').any(|part| part == "..") {
        return Err(garde::Error::new("must not go up a directory (\"..\")"));
    }
    Ok(())
}

/// garde's signature on an `Option` field: garde hands it the field as it is.
fn not_all_caps(text: &Option<String>, _: &()) -> garde::Result {
    match text {
        Some(t) if t.len() > 3 && t.chars().all(|c| !c.is_lowercase()) => {
            Err(garde::Error::new("must not be all capitals"))
        }
        _ => Ok(()),
    }
}

/// Each type written twice from one text: in `before`, as the server had it (schemars'
/// schema, garde's checks), and here with this crate's derive (named first) in place of
/// both.
macro_rules! before_and_after {
    ($($derive:ident $(#[$m:meta])* struct $name:ident { $($body:tt)* })*) => {
        mod before {
            use super::*;
            $(
                #[derive(Debug, Deserialize, schemars::JsonSchema, garde::Validate)]
                $(#[$m])*
                pub struct $name { $($body)* }
            )*
        }
        $(
            #[derive(Debug, Deserialize, mcp_tool::$derive)]
            $(#[$m])*
            pub struct $name { $($body)* }
        )*
    };
}

before_and_after! {
    Argument
    /// A span of days.
    struct Window {
        #[garde(range(min = 1, max = 365))]
        days: u16,
        #[garde(skip)]
        include_archived: bool,
    }

    McpTool
    /// Write a new note.
    struct CreateNote {
        /// The note's title.
        #[garde(length(min = 1, max = 120))]
        title: String,
        #[garde(length(chars, max = 2000))]
        body: String,
        /// Lowercase tags.
        #[garde(length(max = 8), inner(length(min = 1, max = 24), pattern(r"^[a-z0-9-]+$")))]
        tags: Vec<String>,
        #[garde(skip)]
        pinned: bool,
    }

    McpTool
    /// Search the notes.
    struct SearchNotes {
        #[garde(length(min = 2, max = 200))]
        query: String,
        #[garde(range(min = 1, max = 50))]
        limit: Option<u32>,
        #[garde(prefix("nb-"), length(max = 40))]
        notebook: Option<String>,
        #[garde(dive)]
        window: Option<Window>,
        #[garde(range(min = -1.5, max = 1.5))]
        boost: Option<f64>,
    }

    McpTool
    /// Share a note by mail.
    struct ShareNote {
        #[garde(email)]
        to: String,
        #[garde(required, ascii, length(min = 4, max = 64))]
        note_id: Option<String>,
        #[garde(custom(no_parent_dirs))]
        path: String,
        #[garde(custom(not_all_caps))]
        message: Option<String>,
    }

    McpTool
    /// Tag a note.
    struct TagNote {
        #[garde(alphanumeric, length(min = 3, max = 16))]
        tag: String,
        #[garde(suffix(".md"))]
        file: String,
        #[garde(contains("@"))]
        owner: String,
        #[garde(range(equal = 1))]
        version: u8,
    }
}

/// A tool still deriving garde's `Validate` beside this crate's: both read `#[garde]`.
/// Write a note's body.
#[derive(Debug, Deserialize, garde::Validate, McpTool)]
struct EditNote {
    #[garde(length(min = 4, max = 64), pattern(r"^[A-Z]{2}-[0-9]+$"))]
    note_id: String,
    #[garde(length(max = 16))]
    body: String,
    #[garde(skip)]
    draft: bool,
}

/// validator's spellings, where they differ from this crate's.
fn reason_words(reason: &str) -> Result<(), String> {
    if reason.split_whitespace().count() < 2 {
        return Err("must be two words or more".into());
    }
    Ok(())
}

/// validator's signature: its `ValidationError`, whose text is the message.
fn known_folder(folder: &str) -> Result<(), validator::ValidationError> {
    if folder.starts_with("tmp/") {
        return Err(validator::ValidationError::new("folder")
            .with_message("must not be a temporary folder".into()));
    }
    Ok(())
}

/// Archive notes.
#[derive(Debug, Deserialize, McpTool)]
struct ArchiveNotes {
    #[validate(required, length(min = 1, max = 3, code = "ids"))]
    ids: Option<Vec<String>>,
    #[validate(contains(pattern = "/", message = "must name a folder"), custom(function = known_folder))]
    folder: String,
    #[validate(non_control_character)]
    label: String,
    #[validate(custom(function = "reason_words", code = "reason"))]
    reason: String,
    #[validate(nested)]
    window: Window,
    #[validate(skip)]
    quiet: bool,
}

#[test]
fn every_constraint_the_schema_advertised_is_still_advertised() {
    let held = [
        held::<before::CreateNote, CreateNote>(),
        held::<before::SearchNotes, SearchNotes>(),
        held::<before::ShareNote, ShareNote>(),
        held::<before::TagNote, TagNote>(),
        nothing_lost(
            &schemars::schema_for!(before::Window).to_value(),
            &schemars::schema_for!(Window).to_value(),
        ),
    ];
    // title 2, body 1, tags 4 (maxItems, and the items' lengths and pattern); query 2,
    // limit 2, notebook 1 (its prefix was never advertised: it is now), boost 2; to 1
    // (email), note_id 2; tag 2, owner 1 (`contains`, a pattern), version 2; days 2.
    assert_eq!(held, [7, 7, 3, 5, 2], "constraints held per tool");
}

#[test]
fn the_swapped_schemas_say_garde_s_rules() {
    insta::assert_json_snapshot!("garde_create_note", CreateNote::input_schema());
    insta::assert_json_snapshot!("garde_search_notes", SearchNotes::input_schema());
    insta::assert_json_snapshot!("garde_share_note", ShareNote::input_schema());
    insta::assert_json_snapshot!("garde_tag_note", TagNote::input_schema());
    insta::assert_json_snapshot!("garde_edit_note", EditNote::input_schema());
    insta::assert_json_snapshot!("validator_archive_notes", ArchiveNotes::input_schema());
}

/// `args` with `key` set to each value, judged by the runtime and the schema alike,
/// and by `expected`: accepted or not.
fn boundary<T: McpTool + std::fmt::Debug>(
    base: &Value,
    key: &str,
    cases: &[(Value, bool)],
    beyond: &[&str],
) {
    let judge = judge::judge::<T>();
    let today = Context::on(2026, 12, 6).unwrap();
    for (value, accepted) in cases {
        let mut args = base.clone();
        args[key] = value.clone();
        let verdict = agree::<T>(&judge, &args, &today, beyond)
            .unwrap_or_else(|e| panic!("{}: {e}", T::NAME));
        let wanted = if *accepted {
            Verdict::BothAccept
        } else if beyond.is_empty() {
            Verdict::BothReject
        } else {
            Verdict::RuntimeStricter
        };
        assert_eq!(verdict, wanted, "{} with {key} = {value}", T::NAME);
    }
}

fn text(n: usize, c: char) -> Value {
    Value::String(std::iter::repeat_n(c, n).collect())
}

#[test]
fn the_schema_and_the_runtime_agree_on_each_rule_s_boundaries() {
    let note = json!({"title": "t", "body": "", "tags": [], "pinned": false});
    boundary::<CreateNote>(
        &note,
        "title",
        &[
            (text(0, 'a'), false),
            (text(1, 'a'), true),
            (text(120, 'a'), true),
            (text(121, 'a'), false),
            // Characters, as the schema counts: 120 of two bytes each pass.
            (text(120, 'é'), true),
            (text(121, 'é'), false),
        ],
        &[],
    );
    boundary::<CreateNote>(
        &note,
        "body",
        &[(text(2000, 'ü'), true), (text(2001, 'a'), false)],
        &[],
    );
    boundary::<CreateNote>(
        &note,
        "tags",
        &[
            (json!(["a-1", "b"]), true),
            (json!(["Upper"]), false),
            (json!([""]), false),
            (json!([text(24, 'x')]), true),
            (json!([text(25, 'x')]), false),
            (json!(["a", "b", "c", "d", "e", "f", "g", "h"]), true),
            (json!(["a", "b", "c", "d", "e", "f", "g", "h", "i"]), false),
        ],
        &[],
    );
    let search = json!({"query": "ab"});
    boundary::<SearchNotes>(
        &search,
        "query",
        &[
            (text(1, 'a'), false),
            (text(2, 'a'), true),
            (text(200, 'a'), true),
            (text(201, 'a'), false),
        ],
        &[],
    );
    boundary::<SearchNotes>(
        &search,
        "limit",
        &[
            (json!(0), false),
            (json!(1), true),
            (json!(50), true),
            (json!(51), false),
            (Value::Null, true),
        ],
        &[],
    );
    boundary::<SearchNotes>(
        &search,
        "notebook",
        &[
            (json!("nb-work"), true),
            (json!("work"), false),
            (json!("x-nb-work"), false),
            (json!("NB-work"), false),
        ],
        &[],
    );
    boundary::<SearchNotes>(
        &search,
        "window",
        &[
            (json!({"days": 365, "include_archived": true}), true),
            (json!({"days": 0, "include_archived": true}), false),
        ],
        &[],
    );
    boundary::<SearchNotes>(
        &search,
        "boost",
        &[
            (json!(-1.5), true),
            (json!(-1.51), false),
            (json!(1.5), true),
            (json!(1.500001), false),
        ],
        &[],
    );
    let share = json!({"to": "a@example.com", "note_id": "NOTE", "path": "a/b"});
    boundary::<ShareNote>(
        &share,
        "to",
        &[(json!("ann@example.com"), true), (json!("ann"), false)],
        &[],
    );
    boundary::<ShareNote>(
        &share,
        "note_id",
        &[
            (text(4, 'a'), true),
            (text(3, 'a'), false),
            (text(64, 'a'), true),
            (text(65, 'a'), false),
            (json!("noté"), false),
            // garde's `required`: `null` is no value.
            (Value::Null, false),
        ],
        &[],
    );
    boundary::<ShareNote>(
        &share,
        "path",
        &[(json!("notes/a.md"), true), (json!("../secrets"), false)],
        &["no_parent_dirs"],
    );
    boundary::<ShareNote>(
        &share,
        "message",
        &[(json!("See this"), true), (json!("READ THIS"), false)],
        &["not_all_caps"],
    );
    let tag = json!({"tag": "abc", "file": "a.md", "owner": "@ann", "version": 1});
    boundary::<TagNote>(
        &tag,
        "tag",
        &[
            (json!("ab"), false),
            (json!("abc"), true),
            (json!("ab-c"), false),
            (json!("été"), false),
            (text(16, 'z'), true),
            (text(17, 'z'), false),
        ],
        &[],
    );
    boundary::<TagNote>(
        &tag,
        "file",
        &[
            (json!("x.md"), true),
            (json!("x.mdx"), false),
            (json!("xmd"), false),
        ],
        &[],
    );
    boundary::<TagNote>(
        &tag,
        "owner",
        &[(json!("ann@home"), true), (json!("ann"), false)],
        &[],
    );
    boundary::<TagNote>(
        &tag,
        "version",
        &[(json!(1), true), (json!(2), false), (json!(0), false)],
        &[],
    );
    let archive = json!({"ids": ["a"], "folder": "a/b", "label": "x", "reason": "too old", "window": {"days": 1, "include_archived": false}, "quiet": true});
    boundary::<ArchiveNotes>(
        &archive,
        "ids",
        &[
            (json!(["a", "b", "c"]), true),
            (json!([]), false),
            (json!(["a", "b", "c", "d"]), false),
            (Value::Null, false),
        ],
        &[],
    );
    boundary::<ArchiveNotes>(
        &archive,
        "folder",
        &[(json!("x/"), true), (json!("x"), false)],
        &[],
    );
    boundary::<ArchiveNotes>(
        &archive,
        "folder",
        &[(json!("tmp/a"), false)],
        &["known_folder"],
    );
    boundary::<ArchiveNotes>(
        &archive,
        "label",
        &[
            (json!("tab\tless"), false),
            (json!("bell\u{7}"), false),
            (json!("\u{85}next"), false),
            (json!("plain é"), true),
        ],
        &[],
    );
    boundary::<ArchiveNotes>(
        &archive,
        "reason",
        &[(json!("too old"), true), (json!("old"), false)],
        &["reason_words"],
    );
}

#[test]
fn a_validator_custom_function_works_as_written() {
    let err = ArchiveNotes::from_arguments(json!({"ids": ["a"], "folder": "tmp/a", "label": "x", "reason": "too old", "window": {"days": 1, "include_archived": false}, "quiet": true}))
    .unwrap_err();
    let v = &err.violations()[0];
    assert_eq!(
        (v.path.as_str(), v.rule.as_ref()),
        ("/folder", "known_folder")
    );
    assert!(
        v.message.contains("must not be a temporary folder"),
        "{}",
        v.message
    );
}

#[test]
fn required_means_sent_with_a_value() {
    let share = |args: Value| ShareNote::from_arguments(args);
    let err = share(json!({"to": "a@example.com", "path": "a"})).unwrap_err();
    assert_eq!(err.violations()[0].path, "/note_id");
    let schema = ShareNote::input_schema();
    assert!(
        schema["required"]
            .as_array()
            .unwrap()
            .contains(&json!("note_id"))
    );
    assert_eq!(schema["properties"]["note_id"]["type"], "string");
    let read = share(json!({"to": "a@example.com", "note_id": "NOTE", "path": "a"})).unwrap();
    assert_eq!(read.note_id.as_deref(), Some("NOTE"));
}

#[test]
fn garde_s_custom_verdict_is_the_violation_s_message() {
    let err = ShareNote::from_arguments(
        json!({"to": "a@example.com", "note_id": "NOTE", "path": "a/../b", "message": "LOUD NOISES"}),
    )
    .unwrap_err();
    let found: Vec<(&str, &str, &str)> = err
        .violations()
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_ref(), v.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!((found[0].0, found[0].1), ("/path", "no_parent_dirs"));
    assert!(
        found[0].2.contains("must not go up a directory"),
        "{}",
        found[0].2
    );
    assert_eq!((found[1].0, found[1].1), ("/message", "not_all_caps"));
}

/// With garde's derive kept, both read the one attribute: what this crate accepts,
/// garde accepts, on every boundary of the rules (ASCII, where garde's bytes are
/// characters).
#[test]
fn garde_kept_beside_agrees_with_this_crate() {
    use garde::Validate;
    let judge = judge::judge::<EditNote>();
    let today = Context::on(2026, 12, 6).unwrap();
    for (note_id, body) in [
        ("AB-1", ""),
        ("AB-12345", "x"),
        ("A-1", ""),
        ("ab-1", ""),
        ("AB-", ""),
        ("AB-1", "0123456789abcdef"),
        ("AB-1", "0123456789abcdefg"),
    ] {
        let args = json!({"note_id": note_id, "body": body, "draft": false});
        let ours = agree::<EditNote>(&judge, &args, &today, &[]).unwrap();
        let theirs: EditNote = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(
            ours == Verdict::BothAccept,
            theirs.validate().is_ok(),
            "{args}"
        );
    }
}

/// A garde rule read as a pattern is told in its own words, not as the pattern.
#[test]
fn text_rules_are_told_in_words() {
    let err = TagNote::from_arguments(
        json!({"tag": "été", "file": "a.txt", "owner": "ann", "version": 1}),
    )
    .unwrap_err();
    let messages: Vec<(&str, &str)> = err
        .violations()
        .iter()
        .map(|v| (v.path.as_str(), v.message.as_str()))
        .collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0].1.contains("ASCII letters and digits only"),
        "{messages:?}"
    );
    assert!(
        messages[1].1.contains("must end with \".md\""),
        "{messages:?}"
    );
    assert!(messages[2].1.contains("must contain \"@\""), "{messages:?}");
    let err = SearchNotes::from_arguments(json!({"query": "ab", "notebook": "work"})).unwrap_err();
    assert!(
        err.text().contains("must start with \"nb-\""),
        "{}",
        err.text()
    );
}

/// A port, as garde writes a newtype: its rules on its one field.
#[derive(Debug, Deserialize, mcp_tool::Argument)]
#[garde(transparent)]
#[serde(transparent)]
struct Port(#[garde(range(min = 1024, max = 65535))] u16);

/// Open a port.
#[derive(Debug, Deserialize, McpTool)]
struct OpenPort {
    port: Port,
}

#[test]
fn a_newtype_s_garde_rules_are_its_own() {
    let schema = &OpenPort::input_schema()["properties"]["port"];
    assert_eq!(
        (&schema["minimum"], &schema["maximum"]),
        (&json!(1024), &json!(65535))
    );
    boundary::<OpenPort>(
        &json!({"port": 1024}),
        "port",
        &[
            (json!(1023), false),
            (json!(1024), true),
            (json!(65535), true),
        ],
        &[],
    );
}
