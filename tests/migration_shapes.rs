//! Shapes of public rmcp servers' argument types that did not come in by swapping
//! `schemars::JsonSchema` for our derives (issue 59), each written here with the shapes
//! its server uses and our derives in place of `JsonSchema`; names, descriptions and
//! code are our own. Each compiles, advertises a schema the independent judge compiles
//! and that says at least what the server's schemars schema said, reads a typical call,
//! and refuses what the server's own reading refused, at the value's path.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/judge.rs"]
mod judge;

use mcp_tool::{Argument, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

/// The schema compiles under the independent judge and accepts `valid`, which the
/// runtime reads.
fn holds<T: McpTool + std::fmt::Debug>(valid: Value) -> T {
    assert!(
        judge::judge::<T>().is_valid(&valid),
        "{} rejects {valid}",
        T::NAME
    );
    T::from_arguments(valid.clone()).unwrap_or_else(|e| panic!("{}: {}", T::NAME, e.text()))
}

/// Every profile's schema of `T` builds, and says `word`.
fn says_in_every_profile<T: McpTool>(word: &str) {
    for profile in mcp_tool::SchemaProfile::ALL {
        assert!(
            T::input_schema_for(profile).to_string().contains(word),
            "{profile:?}"
        );
    }
}

/// The one violation of `args`: its path and rule, and its message.
fn refused<T: McpTool + std::fmt::Debug>(args: Value) -> (String, String, String) {
    let err = T::from_arguments(args).unwrap_err();
    let v = err.violations();
    assert_eq!(v.len(), 1, "{}", err.text());
    (
        v[0].path.clone(),
        v[0].rule.to_string(),
        v[0].message.clone(),
    )
}

// Server 1, an agent runner: ids are a prefix and a UUID, each id type a newtype whose
// `JsonSchema` says "a string" (`#[schemars(transparent)]`) and whose hand-written
// `Deserialize` checks the prefix and the UUID.

#[derive(Debug, Clone, PartialEq, Argument)]
#[schemars(transparent)]
pub struct RunId(String);

impl<'de> Deserialize<'de> for RunId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let Some(rest) = text.strip_prefix("run_") else {
            return Err(serde::de::Error::custom(format!(
                "a run id starts with \"run_\", and {text:?} does not"
            )));
        };
        let hex = rest.chars().filter(|c| *c != '-').count();
        if rest.len() != 36 || hex != 32 || !rest.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
        {
            return Err(serde::de::Error::custom("a run id ends with a UUID"));
        }
        Ok(RunId(text))
    }
}

/// A step of a run, written as a struct of one named field.
#[derive(Debug, Clone, PartialEq, Argument)]
#[schemars(transparent)]
pub struct StepId {
    /// Bounded by the server too.
    #[validate(length(max = 64))]
    id: String,
}

impl<'de> Deserialize<'de> for StepId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        if !id.starts_with("step_") {
            return Err(serde::de::Error::custom("a step id starts with \"step_\""));
        }
        Ok(StepId { id })
    }
}

/// Read a run's state.
#[derive(Debug, Deserialize, McpTool)]
pub struct GetRun {
    /// The run.
    pub run_id: RunId,
    /// The run it was forked from.
    pub parent: Option<RunId>,
    /// Steps to show.
    #[serde(default)]
    pub steps: Vec<StepId>,
}

const RUN: &str = "run_123e4567-e89b-12d3-a456-426614174000";

#[test]
fn a_newtype_read_by_its_own_deserialize_comes_in_and_refuses_in_its_words() {
    let run = holds::<GetRun>(json!({"run_id": RUN, "parent": RUN, "steps": ["step_1"]}));
    assert_eq!(run.run_id, RunId(RUN.into()));
    assert_eq!(
        run.steps,
        [StepId {
            id: "step_1".into()
        }]
    );
    // The author's reading refuses at the value's path, in its own words.
    let (path, rule, message) = refused::<GetRun>(json!({"run_id": "job_1"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/run_id", "deserialize"));
    assert!(message.contains("starts with \"run_\""), "{message}");
    let (path, rule, _) = refused::<GetRun>(json!({"run_id": RUN, "parent": "run_x"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/parent", "deserialize"));
    let (path, rule, _) = refused::<GetRun>(json!({"run_id": RUN, "steps": ["step_1", "x"]}));
    assert_eq!((path.as_str(), rule.as_str()), ("/steps/1", "deserialize"));
    // What the schema says is checked first, by the schema's rules: no reading then.
    let (path, rule, _) = refused::<GetRun>(json!({"run_id": 7}));
    assert_eq!((path.as_str(), rule.as_str()), ("/run_id", "type"));
    let long = format!("step_{}", "x".repeat(64));
    let (path, rule, _) = refused::<GetRun>(json!({"run_id": RUN, "steps": [long]}));
    assert_eq!((path.as_str(), rule.as_str()), ("/steps/0", "length"));
}

/// The author's mistake the mark cannot see: serde's derived reading of a named field
/// is an object, not the field's value.
#[derive(Debug, Deserialize, Argument)]
#[schemars(transparent)]
pub struct Mistaken {
    id: String,
}

/// Tag a run.
#[derive(Debug, Deserialize, McpTool)]
pub struct Tag {
    pub tag: Mistaken,
}

#[test]
fn a_reading_that_is_not_the_field_s_refuses_every_value_it_does_not_read() {
    // Nothing is taken silently: the derived reading refuses the string the schema
    // asks for, at the value, in serde's words, on the first call a test makes.
    let (path, rule, message) = refused::<Tag>(json!({"tag": "x"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/tag", "deserialize"));
    assert!(message.contains("expected struct Mistaken"), "{message}");
}

#[test]
fn the_schema_of_a_newtype_read_by_its_own_deserialize() {
    // Nothing the server's schemars schema said ({"type": "string"}) is lost, and the
    // description says the server may refuse more.
    let schema = GetRun::input_schema();
    let run_id = &schema["properties"]["run_id"];
    assert_eq!(run_id["type"], "string");
    assert!(
        run_id["description"]
            .as_str()
            .unwrap()
            .contains("may refuse some values"),
        "{run_id}"
    );
    assert_eq!(schema["properties"]["steps"]["items"]["maxLength"], 64);
    insta::assert_json_snapshot!("get_run", schema);
    let err = GetRun::from_arguments(json!({"run_id": "job_1"})).unwrap_err();
    insta::assert_json_snapshot!("get_run_refused", err.to_call_result().to_value());
}

// Server 2, a document reader: how much of a page to return, an enum whose variants
// are written in their own case and read by the server's own case-insensitive
// `Deserialize`; and a form's choices, whose `Deserialize` fills a missing `value` from
// the `label`.

#[derive(Debug, Clone, Copy, PartialEq, mcp_tool::McpEnum)]
pub enum Detail {
    Full,
    Summary,
}

impl<'de> Deserialize<'de> for Detail {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        match text.to_ascii_lowercase().as_str() {
            "full" => Ok(Detail::Full),
            "summary" => Ok(Detail::Summary),
            _ => Err(serde::de::Error::custom("full or summary")),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Argument)]
pub struct Choice {
    pub label: String,
    pub value: String,
}

impl<'de> Deserialize<'de> for Choice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Written {
            label: String,
            value: Option<String>,
        }
        let w = Written::deserialize(d)?;
        let value = w.value.unwrap_or_else(|| w.label.clone());
        Ok(Choice {
            label: w.label,
            value,
        })
    }
}

/// Read a page.
#[derive(Debug, Deserialize, McpTool)]
pub struct ReadPage {
    pub page: u32,
    #[mcp_tool(lenient)]
    pub detail: Option<Detail>,
    #[serde(default)]
    #[mcp_tool(lenient)]
    pub choices: Vec<Choice>,
}

#[test]
fn an_enum_read_in_any_case_and_an_item_read_with_a_default_come_in_as_lenient() {
    // The server's own readings take more than the schema says: `lenient` on the
    // fields hands what the schema refuses to them, and what they refuse is refused.
    let read = holds::<ReadPage>(
        json!({"page": 1, "detail": "Full", "choices": [{"label": "a", "value": "b"}]}),
    );
    assert_eq!(read.detail, Some(Detail::Full));
    let read = ReadPage::from_arguments(
        json!({"page": 1, "detail": "summary", "choices": [{"label": "a"}]}),
    )
    .unwrap();
    assert_eq!(read.detail, Some(Detail::Summary));
    assert_eq!(
        read.choices,
        [Choice {
            label: "a".into(),
            value: "a".into()
        }]
    );
    let (path, rule, message) = refused::<ReadPage>(json!({"page": 1, "detail": "brief"}));
    assert_eq!(
        (path.as_str(), rule.as_str()),
        ("/detail", "deserialize_with")
    );
    assert!(message.contains("full or summary"), "{message}");
    let (path, rule, _) = refused::<ReadPage>(json!({"page": 1, "choices": [{"value": "a"}]}));
    assert_eq!(
        (path.as_str(), rule.as_str()),
        ("/choices", "deserialize_with")
    );
    // Nothing the server's schemars schema said is lost: the variants as written, both
    // properties of a choice required.
    let schema = ReadPage::input_schema();
    assert_eq!(
        schema["properties"]["detail"]["anyOf"][0]["enum"],
        json!(["Full", "Summary"])
    );
    assert_eq!(
        schema["properties"]["choices"]["items"]["required"],
        json!(["label", "value"])
    );
    insta::assert_json_snapshot!("read_page", schema);
}

// Server 3, a wiki: a page's slug is a newtype whose schema schemars extended with a
// pattern, and the slug's length is bounded by the server.

/// A page's slug.
#[derive(Debug, Clone, PartialEq, Deserialize, Argument)]
#[schemars(extend("pattern" = "^[a-z0-9-]+$", "x-kind" = "slug"))]
#[validate(length(max = 40))]
pub struct Slug(String);

/// How a page is shown, with the menu a client's form puts it in (a vendor's keyword).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, mcp_tool::McpEnum)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("x-menu" = "view", "maxLength" = 8))]
pub enum View {
    Rendered,
    Source,
    Raw,
}

/// An enum whose extension refuses one of its own values: what the schema says, the
/// server enforces.
#[derive(Debug, Deserialize, mcp_tool::McpEnum)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("maxLength" = 5))]
pub enum Short {
    Brief,
    Lengthy,
}

/// Pick a length.
#[derive(Debug, Deserialize, McpTool)]
pub struct Pick {
    pub length: Short,
}

/// Open a page.
#[derive(Debug, Deserialize, McpTool)]
pub struct OpenPage {
    pub slug: Slug,
    pub links: Option<Vec<Slug>>,
    pub view: Option<View>,
}

#[test]
fn extend_on_a_newtype_and_an_enum_of_names_is_advertised_and_enforced() {
    holds::<OpenPage>(json!({"slug": "home", "links": ["about-us"]}));
    let schema = OpenPage::input_schema();
    let slug = &schema["properties"]["slug"];
    assert_eq!(slug["pattern"], "^[a-z0-9-]+$");
    assert_eq!(slug["x-kind"], "slug");
    assert_eq!(slug["maxLength"], 40);
    let (path, rule, _) = refused::<OpenPage>(json!({"slug": "Home Page"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/slug", "regex"));
    let (path, _, _) = refused::<OpenPage>(json!({"slug": "a", "links": ["ok", "NO"]}));
    assert_eq!(path, "/links/1");
    // On an enum of names too.
    let read = holds::<OpenPage>(json!({"slug": "a", "view": "source"}));
    assert_eq!(read.view, Some(View::Source));
    let view = &schema["properties"]["view"]["anyOf"][0];
    assert_eq!(view["x-menu"], "view");
    assert_eq!(view["maxLength"], 8);
    says_in_every_profile::<OpenPage>("rendered");
    insta::assert_json_snapshot!("open_page", schema);
}

/// Summarize a page: the enum read in any case, with no `lenient`.
#[derive(Debug, Deserialize, McpTool)]
pub struct Summarize {
    pub detail: Detail,
}

#[test]
fn served_an_enum_in_another_case_is_read_by_the_swap_alone() {
    // A served tool repairs a value in another letter case to the one the schema lists
    // (the server's own reading takes both) and says so in `_meta`.
    async fn summarize(args: Summarize) -> Result<Value, mcp_tool::ToolError> {
        Ok(json!({"detail": format!("{:?}", args.detail)}))
    }
    let tools = mcp_tool::Toolbox::new().tool(summarize);
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(tools.call("summarize", json!({"detail": "full"})))
        .unwrap();
    assert!(!result.is_error, "{:?}", result.content);
    assert_eq!(
        result.structured_content.as_ref().unwrap()["detail"],
        "Full"
    );
    assert_eq!(
        result.meta.unwrap()["mcp-tool/repairs"][0]["path"],
        "/detail"
    );
}

#[test]
fn an_enum_read_in_any_case_comes_in_by_the_swap_alone_with_no_repairs_too() {
    // `from_arguments` repairs nothing: the enum's own `Deserialize` takes "full", as
    // the server took it, with no `lenient` on the field.
    let read = Summarize::from_arguments(json!({"detail": "full"})).unwrap();
    assert_eq!(read.detail, Detail::Full);
    // What that reading refuses is refused, in the schema's words.
    let (path, rule, message) = refused::<Summarize>(json!({"detail": "brief"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/detail", "enum"));
    assert!(message.contains("\"Full\""), "{message}");
    // An enum whose reading serde derived takes its names alone: the fallback never
    // widens it (`View` reads "rendered", not "Rendered").
    let (path, rule, _) = refused::<OpenPage>(json!({"slug": "a", "view": "Rendered"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/view", "enum"));
}

// Server 4, a ticket tracker's search: which tickets, one key or a few, as an untagged
// enum whose schema schemars extended with a bound for each form and a vendor keyword.

/// One ticket by its key, or several.
#[derive(Debug, Clone, PartialEq, Deserialize, Argument)]
#[serde(untagged)]
#[schemars(extend("maxLength" = 12, "maxItems" = 3, "x-picker" = "tickets"))]
pub enum Tickets {
    One(String),
    Many(Vec<String>),
}

/// Show tickets.
#[derive(Debug, Deserialize, McpTool)]
pub struct ShowTickets {
    pub tickets: Tickets,
}

#[test]
fn extend_on_an_enum_with_data_is_advertised_beside_its_forms_and_enforced() {
    let read = holds::<ShowTickets>(json!({"tickets": "OPS-1"}));
    assert_eq!(read.tickets, Tickets::One("OPS-1".into()));
    holds::<ShowTickets>(json!({"tickets": ["OPS-1", "OPS-2"]}));
    let schema = ShowTickets::input_schema();
    let tickets = &schema["properties"]["tickets"];
    assert_eq!(tickets["maxLength"], 12, "{tickets}");
    assert_eq!(tickets["maxItems"], 3);
    assert_eq!(tickets["x-picker"], "tickets");
    assert_eq!(tickets["anyOf"].as_array().map(Vec::len), Some(2));
    // Each bound refused where the schema refuses it, at the value.
    let judge = judge::judge::<ShowTickets>();
    for args in [
        json!({"tickets": "OPS-1234567890"}),
        json!({"tickets": ["a", "b", "c", "d"]}),
    ] {
        assert!(!judge.is_valid(&args), "{args}");
        let (path, _, _) = refused::<ShowTickets>(args);
        assert_eq!(path, "/tickets");
    }
    says_in_every_profile::<ShowTickets>("tickets");
}
