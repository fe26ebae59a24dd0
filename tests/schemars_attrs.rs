//! Migrating from schemars: a struct written for `#[derive(JsonSchema)]` keeps its
//! `#[schemars(...)]` attributes when the derive is swapped for `McpTool`, and each means
//! what it meant to schemars, now enforced as well as advertised.

#[path = "support/found.rs"]
mod found;

use mcp_tool::{Context, McpEnum, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

/// The same struct body, derived by schemars (`theirs`) and by this crate (`ours`).
macro_rules! search_files {
    ($($derive:tt)*) => {
        /// Search files.
        #[derive(Deserialize, Debug, $($derive)*)]
        #[schemars(title = "File search")]
        #[allow(dead_code)]
        pub struct SearchFiles {
            /// Ignored: schemars' description wins over the doc comment.
            #[schemars(description = "A glob, such as *.rs.", length(min = 1, max = 200))]
            pub pattern: String,
            #[schemars(range(min = 1, max = 500), example = 50)]
            pub limit: Option<u32>,
            #[schemars(regex(pattern = r"^[a-z]+$"), title = "Language")]
            pub language: Option<String>,
            #[schemars(pattern(r"^/[^ ]*$"))]
            pub root: Option<String>,
            #[schemars(email)]
            pub notify: Option<String>,
            #[schemars(url)]
            pub link: Option<String>,
            #[schemars(inner(length(max = 8)), length(max = 3))]
            pub extensions: Option<Vec<String>>,
            #[schemars(required)]
            pub cursor: Option<String>,
            #[deprecated = "use `pattern`"]
            pub glob: Option<String>,
        }
    };
}

mod theirs {
    #![allow(deprecated)]
    use serde::Deserialize;
    search_files!(schemars::JsonSchema);
}

mod ours {
    #![allow(deprecated)]
    use serde::Deserialize;
    search_files!(mcp_tool::McpTool);
}

/// A property's schema without the `null` of an `Option`: schemars writes a type array,
/// this crate an `anyOf`.
fn non_null(property: &Value) -> Value {
    let mut property = match property.get("anyOf") {
        Some(branches) => {
            let mut inner = branches[0].clone();
            for key in ["description", "title", "examples", "deprecated", "default"] {
                if let Some(v) = property.get(key) {
                    inner[key] = v.clone();
                }
            }
            inner
        }
        None => property.clone(),
    };
    if let Some(Value::Array(types)) = property.get("type") {
        let ty = types.iter().find(|t| *t != "null").cloned().unwrap();
        property["type"] = ty;
    }
    property
}

#[test]
fn each_schemars_attribute_advertises_what_schemars_advertises() {
    let theirs = serde_json::to_value(schemars::schema_for!(theirs::SearchFiles)).unwrap();
    let ours = ours::SearchFiles::input_schema();
    // A tool's title is the title of its `tools/list` entry.
    assert_eq!(
        ours::SearchFiles::tool().title.as_deref(),
        theirs["title"].as_str()
    );
    let keywords = [
        "type",
        "description",
        "title",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "pattern",
        "format",
        "examples",
        "deprecated",
        "maxItems",
    ];
    let names: Vec<&String> = theirs["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 9);
    for name in names {
        let (a, b) = (
            non_null(&theirs["properties"][name]),
            non_null(&ours["properties"][name]),
        );
        for keyword in keywords {
            // schemars' `uint32` is no JSON Schema format; the bounds say it here.
            if keyword == "format" && a[keyword].as_str().is_some_and(|f| f.contains("int")) {
                continue;
            }
            assert_eq!(a.get(keyword), b.get(keyword), "{name}: {keyword}");
        }
        assert_eq!(
            a["items"].get("maxLength"),
            b["items"].get("maxLength"),
            "{name}: items"
        );
    }
    assert_eq!(ours["required"], theirs["required"]);
    assert_eq!(ours["required"], json!(["pattern", "cursor"]));
}

#[test]
fn each_schemars_rule_is_enforced() {
    let today = Context::on(2026, 11, 30).unwrap();
    let err = ours::SearchFiles::from_arguments_in(
        json!({
            "pattern": "", "limit": 0, "language": "Rust", "root": "src",
            "notify": "nobody", "link": "not a url", "extensions": ["rs", "toolongext"],
        }),
        &today,
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = found::rules(&err);
    assert_eq!(
        found,
        [
            ("/pattern", "length"),
            ("/limit", "range"),
            ("/language", "regex"),
            ("/root", "regex"),
            ("/notify", "email"),
            ("/link", "url"),
            ("/extensions/1", "length"),
            ("/cursor", "required"),
        ]
    );
    // `required` on an `Option`: schemars advertised the `String` alone, no `null`, so
    // it must be sent with a value, as garde's `required` means.
    let err =
        ours::SearchFiles::from_arguments_in(json!({"pattern": "*.rs", "cursor": null}), &today)
            .unwrap_err();
    assert_eq!(found::rules(&err), [("/cursor", "type")]);
    assert!(err.text().contains("required"), "{}", err.text());
    let ok =
        ours::SearchFiles::from_arguments_in(json!({"pattern": "*.rs", "cursor": "c2"}), &today)
            .unwrap();
    assert_eq!(ok.cursor.as_deref(), Some("c2"));
    assert_eq!(
        serde_json::to_value(schemars::schema_for!(theirs::SearchFiles)).unwrap()["properties"]["cursor"],
        json!({"type": "string"})
    );
    assert_eq!(
        ours::SearchFiles::input_schema()["properties"]["cursor"]["type"],
        "string"
    );
}

#[test]
fn each_profile_carries_examples_and_deprecation_its_own_way() {
    use mcp_tool::SchemaProfile;
    let limit =
        |profile| non_null(&ours::SearchFiles::input_schema_for(profile)["properties"]["limit"]);
    assert_eq!(limit(SchemaProfile::Portable)["examples"], json!([50]));
    assert_eq!(limit(SchemaProfile::Gemini)["example"], 50);
    for profile in [SchemaProfile::OpenAi, SchemaProfile::Anthropic] {
        let schema = limit(profile);
        assert!(schema.get("examples").is_none(), "{profile}");
        assert!(
            schema["description"]
                .as_str()
                .unwrap()
                .contains("For example: 50."),
            "{profile}"
        );
        let glob = non_null(&ours::SearchFiles::input_schema_for(profile)["properties"]["glob"]);
        assert!(glob.get("deprecated").is_none(), "{profile}");
        assert_eq!(glob["description"], "Deprecated.", "{profile}");
    }
}

/// An enum whose `Deserialize` is written by hand keeps its `#[serde(...)]` attributes:
/// the derive reads them, so that its values are the names that `Deserialize` reads.
#[derive(McpEnum, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match String::deserialize(d)?.as_str() {
            "debug" => Ok(Level::Debug),
            "info" => Ok(Level::Info),
            other => Err(serde::de::Error::unknown_variant(other, &["debug", "info"])),
        }
    }
}

/// Set the log level.
#[derive(McpTool, Deserialize, Debug)]
struct SetLevel {
    level: Level,
}

#[test]
fn serde_attributes_are_read_whatever_derives_deserialize() {
    assert_eq!(<Level as McpEnum>::VALUES, ["debug", "info"]);
    let ok = SetLevel::from_arguments(json!({"level": "info"})).unwrap();
    assert_eq!(ok.level, Level::Info);
    let err = SetLevel::from_arguments(json!({"level": "Info"})).unwrap_err();
    assert_eq!(err.violations()[0].rule, "enum");
}

/// A slug's schema, written by a server for schemars.
fn slug_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "pattern": "^[a-z0-9-]+$", "maxLength": 40})
}

/// Caps a list at ten items, as a server's transform does.
fn at_most_ten(schema: &mut schemars::Schema) {
    schema.insert("maxItems".into(), json!(10));
}

/// A timestamp, described by schemars as a string.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct Stamp(String);

/// Publish a page.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Publish {
    #[schemars(schema_with = "slug_schema")]
    slug: String,
    #[schemars(with = "Stamp")]
    at: Option<String>,
    #[schemars(extend("minimum" = 5, "multipleOf" = 5))]
    minutes: u32,
    #[schemars(transform = at_most_ten)]
    tags: Option<Vec<String>>,
}

#[test]
fn schema_with_with_extend_and_transform_are_advertised_and_enforced() {
    let schema = Publish::input_schema();
    let property = |name: &str| {
        let p = schema["properties"][name].clone();
        p.get("anyOf").map_or(p.clone(), |b| b[0].clone())
    };
    assert_eq!(property("slug")["pattern"], "^[a-z0-9-]+$", "{schema}");
    assert_eq!(property("at")["type"], "string", "{schema}");
    assert_eq!(property("minutes")["minimum"], 5, "{schema}");
    assert_eq!(property("minutes")["multipleOf"], 5, "{schema}");
    assert_eq!(property("tags")["maxItems"], 10, "{schema}");
    let today = Context::on(2026, 11, 30).unwrap();
    assert!(Publish::from_arguments_in(json!({"slug": "a-b", "minutes": 10}), &today).is_ok());
    let tags: Vec<String> = (0..11).map(|i| i.to_string()).collect();
    let error = Publish::from_arguments_in(
        json!({"slug": "A B", "at": 7, "minutes": 7, "tags": tags}),
        &today,
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
            ("/slug".into(), "regex".into()),
            ("/at".into(), "type".into()),
            ("/minutes".into(), "multiple_of".into()),
            ("/tags".into(), "length".into()),
        ]
    );
    let error = Publish::from_arguments_in(json!({"slug": "a", "minutes": 0}), &today).unwrap_err();
    assert_eq!(
        error.violations()[0].rule,
        "range",
        "{:?}",
        error.violations()
    );
}

/// Extends a schema with a keyword no server here enforces.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Unkept {
    #[schemars(extend("contentEncoding" = "base64"))]
    data: String,
}

#[test]
#[should_panic(expected = "says `contentEncoding`, which this server cannot enforce")]
fn a_keyword_that_cannot_be_enforced_stops_the_server_at_its_start() {
    let _ = Unkept::input_schema();
}

/// A pattern with a Unicode class: ECMA-262 reads it only with its `u` flag, which JSON
/// Schema does not set, and this build of `regex` has no Unicode tables.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct UnicodeClass {
    #[schemars(extend("pattern" = "^\\p{L}+$"))]
    name: String,
}

#[test]
#[should_panic(
    expected = "says pattern \"^\\\\p{L}+$\" (a Unicode class needs ECMA-262's `u` flag), which this server cannot enforce"
)]
fn a_pattern_with_a_unicode_class_stops_the_server_at_its_start() {
    let _ = UnicodeClass::input_schema();
}

/// A pattern that does not compile: before, it matched everything, and the model was
/// told a rule that was not kept.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Unclosed {
    #[schemars(extend("pattern" = "^(ab$"))]
    name: String,
}

#[test]
#[should_panic(
    expected = "says pattern \"^(ab$\" (unclosed group), which this server cannot enforce"
)]
fn a_pattern_that_does_not_compile_stops_the_server_at_its_start() {
    let _ = Unclosed::input_schema();
}

/// A schemars pattern with `\d` and `.`: the model reads them as ECMA-262 does (0-9, no
/// line terminator), and the server keeps that meaning, not Rust's (any Unicode digit,
/// anything but `\n`).
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Archive {
    #[schemars(extend("pattern" = "^\\d{4}$"))]
    year: String,
    #[schemars(extend("pattern" = "^.{1,20}$"))]
    label: String,
}

#[test]
fn a_schemars_pattern_is_enforced_as_ecma_262_reads_it() {
    let sent = |year: &str, label: &str| {
        Archive::from_arguments(json!({"year": year, "label": label})).map(|_| ())
    };
    assert!(sent("2026", "Q4").is_ok());
    let error = sent("٢٠٢٦", "Q4\r").unwrap_err();
    let paths: Vec<&str> = error.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/year", "/label"], "{:?}", error.violations());
}

/// A field its client mirrors into an HTTP header (SEP-2243): `x-mcp-header` says how
/// the value travels, not what it may be, so it is advertised and asks nothing more.
#[derive(McpTool, Deserialize, Debug)]
struct Lookup {
    #[schemars(extend("x-mcp-header" = "Region"))]
    #[validate(length(min = 1))]
    region: String,
}

#[test]
fn a_vendor_keyword_is_advertised_and_constrains_nothing() {
    assert_eq!(
        Lookup::input_schema()["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    let read = Lookup::from_arguments(json!({"region": "us-west1"})).unwrap();
    assert_eq!(read.region, "us-west1");
    let error = Lookup::from_arguments(json!({"region": ""})).unwrap_err();
    assert_eq!(error.violations().len(), 1, "{:?}", error.violations());
}

/// A part of a tool's arguments whose schema says what no server here enforces.
#[derive(mcp_tool::Argument, Deserialize, Debug)]
#[allow(dead_code)]
struct Part {
    #[schemars(extend("contentEncoding" = "base64"))]
    data: String,
}

/// Holds such parts, a list of them deep in its arguments.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Holder {
    parts: Vec<Part>,
}

#[test]
#[should_panic(expected = "says `contentEncoding`, which this server cannot enforce")]
fn a_keyword_that_cannot_be_enforced_deep_in_the_arguments_stops_the_server_at_its_start() {
    let _ = Holder::input_schema();
}

fn five() -> u32 {
    5
}

/// Rename a page, its struct written for schemars with `#[schemars(default)]`s serde
/// does not read.
#[derive(McpTool, Deserialize, Debug)]
#[schemars(default)]
#[allow(dead_code)]
struct RenamePage {
    /// serde requires it: it stays required.
    #[schemars(default)]
    title: String,
    /// serde's default: advertised.
    #[serde(default)]
    #[schemars(default)]
    draft: bool,
    /// Its schema a function's, and serde requires it.
    #[schemars(schema_with = "slug_schema", default)]
    slug: String,
    /// Its schema a function's, and serde's default: advertised.
    #[serde(default = "five")]
    #[schemars(schema_with = "minutes_schema", default = "five")]
    minutes: u32,
}

fn minutes_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "integer", "minimum": 1})
}

#[test]
fn schemars_default_keeps_what_serde_requires_and_says_serde_s_default() {
    let schema = RenamePage::input_schema();
    assert_eq!(schema["required"], json!(["title", "slug"]), "{schema}");
    assert_eq!(schema["properties"]["draft"]["default"], false, "{schema}");
    assert_eq!(schema["properties"]["minutes"]["default"], 5, "{schema}");
    assert!(schema["properties"]["title"].get("default").is_none());
    assert!(schema["properties"]["slug"].get("default").is_none());
    let page = RenamePage::from_arguments(json!({"title": "T", "slug": "t"})).unwrap();
    assert_eq!((page.draft, page.minutes), (false, 5));
    let error = RenamePage::from_arguments(json!({"slug": "t"})).unwrap_err();
    assert_eq!(error.violations()[0].path, "/title");
    assert_eq!(error.violations()[0].rule, "required");
}

/// Tag a release, its struct written for schemars with keywords added to its schema.
#[derive(McpTool, Deserialize, Debug)]
#[schemars(extend("type" = "object", "minProperties" = 2, "x-group" = "releases"))]
#[allow(dead_code)]
struct TagRelease {
    version: String,
    notes: Option<String>,
    draft: Option<bool>,
}

#[test]
fn extend_on_a_struct_is_advertised_and_enforced() {
    let schema = TagRelease::input_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["minProperties"], 2, "{schema}");
    assert_eq!(schema["x-group"], "releases");
    let judge = jsonschema::options().build(schema).unwrap();
    let today = Context::on(2026, 11, 30).unwrap();
    let two = json!({"version": "1.2.0", "draft": true});
    assert!(TagRelease::from_arguments_in(two.clone(), &today).is_ok());
    assert!(judge.is_valid(&two));
    let one = json!({"version": "1.2.0"});
    let error = TagRelease::from_arguments_in(one.clone(), &today).unwrap_err();
    assert!(!judge.is_valid(&one));
    assert_eq!(error.violations()[0].path, "");
    assert_eq!(
        error.violations()[0].rule,
        "length",
        "{:?}",
        error.violations()
    );
    // Each field's own problems first: the keywords are judged on fields that pass.
    let error = TagRelease::from_arguments_in(json!({"version": 1}), &today).unwrap_err();
    assert_eq!(error.violations().len(), 1);
    assert_eq!(error.violations()[0].path, "/version");
}

/// Says otherwise than the schema of what serde reads.
#[derive(McpTool, Deserialize, Debug)]
#[schemars(extend("additionalProperties" = true))]
#[allow(dead_code)]
struct Contradicted {
    version: String,
}

#[test]
#[should_panic(expected = "says otherwise than the schema of what serde reads")]
fn extend_that_contradicts_the_struct_stops_the_server_at_its_start() {
    let _ = Contradicted::input_schema();
}
