//! The `tracing` feature: one event per tool call, with what an operator counts (tool,
//! outcome, category, the violated paths and rules, repairs, OpenTelemetry's
//! `error.type`), and never an argument's value.
#![allow(dead_code)] // the fields exist for the derive to read

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

#[path = "support/connect.rs"]
mod support_connect;

/// Sign up.
#[derive(McpTool, Deserialize, Debug)]
struct SignUp {
    #[validate(email)]
    email: String,
    #[validate(sensitive, length(min = 8))]
    password: String,
    tags: Option<Vec<String>>,
}

async fn sign_up(args: SignUp) -> Result<serde_json::Value, ToolError> {
    if args.email.ends_with("@taken.example") {
        return Err(ToolError::business("That address has an account already."));
    }
    Ok(json!({"ok": true}))
}

/// The fields of every event, as text.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<BTreeMap<String, String>>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Captured {
    /// This crate's events (rmcp's own, at debug and trace, log whole requests).
    fn ours(&self) -> Vec<BTreeMap<String, String>> {
        let events = self.0.lock().unwrap();
        events
            .iter()
            .filter(|e| e["target"] == "mcp_tool")
            .cloned()
            .collect()
    }
}

impl<S: tracing::Subscriber> Layer<S> for Captured {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        fields.insert("level".to_owned(), event.metadata().level().to_string());
        fields.insert("target".to_owned(), event.metadata().target().to_owned());
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().push(fields);
    }
}

#[tokio::test]
async fn every_call_is_one_event_with_what_an_operator_counts_and_no_value() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let tools = Toolbox::new().tool(sign_up);
    let calls = [
        json!({"email": "ada@example.com", "password": "correct horse", "tags": "[\"a\"]"}),
        json!({"email": "not-an-address", "password": "hunter2"}),
        json!({"email": "bob@taken.example", "password": "correct horse"}),
    ];
    for arguments in calls {
        tools.call("sign_up", arguments).await.unwrap();
    }
    let _ = tools.call("sign_in", json!({})).await;

    let events = captured.ours();
    assert_eq!(events.len(), 4, "{events:#?}");
    let [ok, invalid, business, unknown] = &events[..] else {
        unreachable!()
    };
    assert_eq!(ok["outcome"], "ok");
    assert_eq!(ok["tool"], "sign_up");
    assert_eq!(ok["repairs"], "/tags");
    assert!(!ok.contains_key("error.type"));
    assert_eq!(invalid["level"], "WARN");
    assert_eq!(invalid["error.type"], "tool_error");
    assert_eq!(invalid["category"], "validation");
    assert_eq!(invalid["violations"], "/email email, /password length");
    assert_eq!(business["category"], "business");
    assert_eq!(business["violations"], "");
    assert_eq!(unknown["outcome"], "rejected");
    assert_eq!(unknown["error.type"], "unknown_tool");
    assert!(unknown.contains_key("duration_ms"));
    // Paths and rules only: no value sent, sensitive or not.
    let all = format!("{events:?}");
    for value in [
        "hunter2",
        "not-an-address",
        "correct horse",
        "ada@example.com",
    ] {
        assert!(!all.contains(value), "{value} in {all}");
    }
}

/// An rmcp router, through `structured`.
#[derive(Clone)]
struct Desk {
    tool_router: rmcp::handler::server::tool::ToolRouter<Self>,
}

#[rmcp::tool_router]
impl Desk {
    #[rmcp::tool(description = "Sign up.")]
    async fn sign_up(
        &self,
        mcp_tool::rmcp::Parameters(args): mcp_tool::rmcp::Parameters<SignUp>,
    ) -> Result<String, ToolError> {
        Ok(format!("welcome, {}", args.email))
    }
}

#[rmcp::tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
impl rmcp::ServerHandler for Desk {}

#[tokio::test]
async fn an_rmcp_router_s_calls_are_events_too() {
    let captured = Captured::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(captured.clone()));
    let client = support_connect::connect(Desk {
        tool_router: Desk::tool_router(),
    })
    .await;
    let arguments = json!({"email": "nope", "password": "hunter2"})
        .as_object()
        .unwrap()
        .clone();
    client
        .call_tool(rmcp::model::CallToolRequestParams::new("sign_up").with_arguments(arguments))
        .await
        .unwrap();
    let events = captured.ours();
    let call = events
        .iter()
        .find(|e| e.get("tool").map(String::as_str) == Some("sign_up"))
        .unwrap_or_else(|| panic!("{events:#?}"));
    assert_eq!(call["error.type"], "tool_error");
    assert_eq!(call["violations"], "/email email, /password length");
    let all = format!("{events:?}");
    assert!(!all.contains("hunter2"), "{all}");
}

/// Close an account, once the user confirms.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(confirm = "Close the account of {email}?")]
struct Close {
    email: String,
}

#[tokio::test]
async fn a_call_that_waits_for_its_user_is_an_event_of_its_own() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let tools = Toolbox::new().tool(|_: Close| async { Ok("closed") });
    let reach = mcp_tool::ask::Reach::Rounds {
        input_responses: None,
        request_state: None,
    };
    let answer = tools
        .call_reaching(
            mcp_tool::SchemaProfile::Portable,
            "close",
            json!({"email": "ada@example.com"}),
            reach,
        )
        .await
        .unwrap();
    assert!(matches!(answer, mcp_tool::ask::Answer::InputRequired(_)));
    let events = captured.ours();
    let [event] = &events[..] else {
        panic!("{events:#?}")
    };
    assert_eq!(event["outcome"], "input_required");
    assert_eq!(event["asked"], "mcp-tool/confirm");
    assert!(!format!("{event:?}").contains("ada@example.com"));
}

/// Reads a file that is not there.
#[derive(McpTool, Deserialize, Debug)]
struct ReadNote {
    path: String,
}

async fn read_note(args: ReadNote) -> Result<String, ToolError> {
    Ok(std::fs::read_to_string(&args.path)?)
}

#[tokio::test]
async fn an_unexpected_error_is_logged_with_its_type_and_chain() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let tools = Toolbox::new().tool(read_note);
    let result = tools
        .call("read_note", json!({"path": "/no/such/dir/note.txt"}))
        .await
        .unwrap();
    assert!(!result.text().contains("No such file"), "{}", result.text());
    let events = captured.ours();
    let logged = events
        .iter()
        .find(|e| e.get("exception.message").is_some())
        .expect("an event with the error");
    assert_eq!(logged["level"], "ERROR");
    assert_eq!(logged["tool"], "read_note");
    // OpenTelemetry's error.type: the error's type, low in cardinality.
    assert_eq!(logged["error.type"], "std::io::error::Error");
    assert!(
        logged["exception.message"].contains("No such file"),
        "{logged:?}"
    );
    // The call's own event follows, an error result as every other.
    assert!(
        events
            .iter()
            .any(|e| e.get("outcome").map(String::as_str) == Some("error"))
    );
}

#[tokio::test]
async fn the_draft_failure_meta_is_off_by_default_and_its_correlation_id_is_logged() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::registry().with(captured.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let bad = json!({"email": "not-an-address", "password": "hunter2"});
    let plain = Toolbox::new().tool(sign_up);
    let result = plain.call("sign_up", bad.clone()).await.unwrap();
    assert!(result.is_error);
    assert!(
        result
            .meta
            .as_ref()
            .is_none_or(|m| !m.contains_key(mcp_tool::TOOL_FAILURE_KEY)),
        "off unless the server turns it on: {:?}",
        result.meta
    );
    assert!(!captured.ours()[0].contains_key("correlation_id"));

    let tools = Toolbox::new().tool_failure_meta(true).tool(sign_up);
    let taken = json!({"email": "bob@taken.example", "password": "correct horse"});
    let mut ids = Vec::new();
    for (arguments, class, code) in [
        (bad, "capability", "invalid_arguments"),
        (taken, "capability", "business_rule"),
    ] {
        let result = tools.call("sign_up", arguments).await.unwrap();
        let failure = &result.meta.as_ref().unwrap()[mcp_tool::TOOL_FAILURE_KEY];
        assert_eq!(failure["class"], class);
        assert_eq!(failure["code"], code);
        assert_eq!(failure["retryable"], false);
        assert!(failure.get("retryNotBefore").is_none());
        assert!(!failure["agentGuidance"].as_str().unwrap().is_empty());
        ids.push(failure["correlationId"].as_str().unwrap().to_owned());
    }
    assert_ne!(ids[0], ids[1]);
    let logged: Vec<String> = captured.ours()[1..]
        .iter()
        .map(|e| e["correlation_id"].clone())
        .collect();
    assert_eq!(
        logged, ids,
        "the event carries the id the model's client sees"
    );
    // A success carries none.
    let ok = tools
        .call(
            "sign_up",
            json!({"email": "ada@example.com", "password": "correct horse"}),
        )
        .await
        .unwrap();
    assert!(ok.meta.is_none());
}

#[path = "../examples/common/flight.rs"]
mod flight;

/// The operators page prints one event as `tracing-subscriber`'s `fmt` writes it: this
/// is that line, from the README's tool called with a past date and a cabin off its
/// list, word for word but for the call's duration, which differs from run to run.
#[tokio::test]
async fn the_operators_page_shows_the_event_as_fmt_prints_it() {
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    /// The line with its `duration_ms` value taken out.
    fn timeless(line: &str) -> String {
        let (before, after) = line.split_once("duration_ms=").expect("a duration");
        let rest = after.split_once(' ').map_or("", |(_, rest)| rest);
        format!("{before}duration_ms= {rest}")
    }

    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operators.md")).unwrap();
    let shown = page
        .split("```text\n")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("the page has a text block");

    let written = Written::default();
    let into = written.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || into.clone())
        .with_ansi(false)
        .without_time()
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let tools = Toolbox::new()
        .in_context(mcp_tool::Context::on(2026, 11, 30).unwrap())
        .tool(flight::book_flight);
    let call = json!({"origin": "CDG", "destination": "JFK", "departure_date": "12/12/2024",
                      "cabin": "PROCESSING", "passengers": 2});
    tools.call("book_flight", call).await.unwrap();

    let written = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
    let line = written
        .lines()
        .find(|line| line.contains("tools/call"))
        .unwrap_or_else(|| panic!("no event in {written:?}"));
    assert_eq!(
        timeless(shown.trim()),
        timeless(line.trim()),
        "printed: {line}"
    );
}
