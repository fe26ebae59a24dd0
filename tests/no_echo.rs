//! A server that echoes no values (`echo_values(false)`): its refusals name each field
//! and rule, never what was sent, and `attempted_query` carries no arguments. Every
//! value sent here holds the marker `ZQX` (or is a number of the form 98765x), so that
//! a search of the whole serialized result finds any value that leaked: into a
//! violation's `received` or `message`, the text block, a "did you mean", a repair, a
//! rule's own words, or `attempted_query`. Held through a `Toolbox` and through rmcp's
//! `structured` router alike.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::ask::{Answer, Reach};
use mcp_tool::rmcp::Parameters;
use mcp_tool::{
    Argument, Context, Invalid, McpEnum, McpTool, SchemaProfile, ToolError, Toolbox, Violation,
};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::CallToolRequestParams;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/connect.rs"]
mod support_connect;
use support_connect::connect;

const STATUSES: &[&str] = &["PENDING", "PAID", "SHIPPED", "CLOSED"];

/// A custom rule whose words are made at run time, from the value.
fn known_code(code: &str) -> Result<(), Invalid> {
    if code.starts_with("C-") {
        return Ok(());
    }
    Err(Invalid::new(format!("{code} is not a known code")).hint(format!("Look {code} up first.")))
}

/// A custom rule whose words are written in the code.
fn not_blank(text: &str) -> Result<(), Invalid> {
    if text.trim().is_empty() {
        Err(Invalid::new("must not be blank").hint("Write something."))
    } else {
        Ok(())
    }
}

/// A count read by the author's own function, whose refusal quotes the value.
fn quoting<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(String),
    }
    match Either::deserialize(d)? {
        Either::Number(n) => Ok(n),
        Either::Text(t) => t
            .parse()
            .map_err(|_| serde::de::Error::custom(format!("{t:?} is no count"))),
    }
}

#[derive(McpEnum, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    High,
}

#[derive(Argument, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card {
        #[validate(regex = r"^[0-9]{16}$")]
        number: String,
    },
    Transfer {
        #[validate(regex = r"^[A-Z]{2}[0-9]{2}$")]
        iban: String,
    },
}

/// How to reach someone: one form or the other, told apart by shape alone.
#[derive(Argument, Deserialize, Debug)]
#[serde(untagged)]
enum Contact {
    Phone {
        #[validate(regex = r"^\+[0-9]{6,15}$")]
        phone: String,
    },
    Address(String),
}

#[derive(Argument, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Leg {
    #[validate(regex = r"^[A-Z]{3}$")]
    from_code: String,
    #[validate(range(min = 0, max = 130))]
    age: Option<u32>,
}

/// Record a visit.
#[derive(McpTool, Deserialize, Debug)]
struct Visit {
    #[validate(regex = r"^P-[0-9]{6}$")]
    patient: String,
    #[validate(enum = STATUSES)]
    status: String,
    #[validate(enum = ["economy", "business"])]
    cabin: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    follow_up: String,
    #[validate(past_date)]
    born: String,
    #[validate(range(min = 40, max = 250))]
    systolic: u32,
    #[validate(multiple_of = 5)]
    dose: u32,
    #[validate(length(max = 4))]
    initials: String,
    #[validate(unique)]
    codes: Vec<String>,
    #[validate(length(equal = 2))]
    pair: Vec<String>,
    small: u8,
    #[validate(email)]
    email: String,
    #[validate(url)]
    site: String,
    #[validate(uuid)]
    id: String,
    #[validate(custom = known_code)]
    code: String,
    #[validate(custom = not_blank)]
    remark: String,
    #[validate(items(regex = r"^[A-Z]{2}$"))]
    tags: Vec<String>,
    #[validate(length(max = 3))]
    note: Option<String>,
    priority: Priority,
    payment: Payment,
    refund: Option<Payment>,
    reach: Contact,
    legs: Vec<Leg>,
    count: u8,
    ward: String,
    #[validate(sensitive, length(min = 8))]
    secret: String,
    #[serde(deserialize_with = "quoting")]
    amount: u32,
}

/// Arguments that break every rule of `Visit`, each value marked.
fn every_mistake() -> Value {
    json!({
        "patient": "ZQX-regex",
        "status": "PENDIGN",
        "cabin": "ECONOMY",
        "follow_up": "01/01/2001",
        "born": "2999-01-01",
        "systolic": 987654,
        "dose": 987653,
        "initials": "ZQX-length",
        "codes": ["ZQX-dup", "ZQX-dup"],
        "pair": ["ZQX-a", "ZQX-b", "ZQX-c"],
        "small": 987650,
        "email": "ZQX-email",
        "site": "ZQX-url",
        "id": "ZQX-uuid",
        "code": "ZQX-custom",
        "remark": " ",
        "tags": "[\"ZQX-item\"]",
        "noet": "ZQX-unknown",
        "priority": "hihg",
        "payment": {"kind": "card", "number": "ZQX-union"},
        "refund": {"kind": "transferr", "iban": "ZQX-tag"},
        "reach": ["ZQX-oneof", 987651],
        "legs": [{"fromCode": "ZQX-leg", "age": 987652}],
        "count": "ZQX-type",
        "secret": "ZQX-sec",
        "amount": "ZQX-reading",
    })
}

/// Every value of `every_mistake` as the text a leak would show, and the words made
/// from them: the allowed values they are near ("did you mean") or read as.
const LEAKS: &[&str] = &[
    "ZQX",
    "PENDIGN",
    "ECONOMY",
    "01/01/2001",
    "2999",
    "98765",
    "hihg",
    "transferr",
    "Did you mean \\\"PENDING",
    "Did you mean \\\"high",
    "Did you mean \\\"transfer",
    "economy\\\"",
    "It has",
];

/// Where `result` (serialized) shows any of the [`LEAKS`].
fn leaks(result: &Value) -> Vec<&'static str> {
    let text = result.to_string();
    LEAKS.iter().copied().filter(|l| text.contains(l)).collect()
}

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

async fn visit(_: Visit) -> Result<&'static str, ToolError> {
    Ok("recorded")
}

/// A handler that fails in its own words, with what came in its violation and its own
/// `attempted_query`.
async fn look_up(args: Visit) -> Result<&'static str, ToolError> {
    Err(ToolError::business("No such patient.")
        .with_violation(
            Violation::new("/patient", "exists", "must be a known patient")
                .with_received(args.patient.clone()),
        )
        .for_call("look_up", json!({"patient": args.patient})))
}

/// `Visit` valid, every value still marked where a rule lets it be.
fn valid_visit() -> Value {
    json!({
        "patient": "P-123456", "status": "PAID", "cabin": "economy",
        "follow_up": "01/01/2999", "born": "1990-01-01", "systolic": 120, "dose": 10,
        "initials": "AB", "codes": ["a"], "pair": ["a", "b"], "small": 1, "email": "zqx@example.com",
        "site": "https://zqx.example", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
        "code": "C-1", "remark": "ZQX-remark", "tags": ["AB"], "priority": "low",
        "payment": {"kind": "card", "number": "4111111111111111"}, "reach": "ZQX-reach",
        "legs": [], "count": 1, "ward": "ZQX-ward", "secret": "ZQX-secret-1", "amount": 3,
    })
}

fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

fn toolbox(echo: bool) -> Toolbox {
    Toolbox::new()
        .in_context(today())
        .echo_values(echo)
        .tool(visit)
}

/// What a `Toolbox` answers to `visit` with `args`.
fn served(echo: bool, args: Value) -> Value {
    run(toolbox(echo).call("visit", args)).unwrap().to_value()
}

/// The violations of an error result, by path and rule.
fn found(result: &Value) -> Vec<(String, String)> {
    result["structuredContent"]["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Every violation of `every_mistake`, by path and rule, whether values are shown or
/// not: withholding them takes no finding away.
const EVERY_VIOLATION: &[(&str, &str)] = &[
    ("/amount", "deserialize_with"),
    ("/born", "past_date"),
    ("/code", "known_code"),
    ("/codes/1", "unique"),
    ("/count", "type"),
    ("/dose", "multiple_of"),
    ("/email", "email"),
    ("/follow_up", "future_date"),
    ("/id", "uuid"),
    ("/initials", "length"),
    ("/legs/0/age", "range"),
    ("/legs/0/fromCode", "regex"),
    ("/noet", "unknown"),
    ("/pair", "length"),
    ("/patient", "regex"),
    ("/payment/number", "regex"),
    ("/priority", "enum"),
    ("/reach", "type"),
    ("/reach", "variant"),
    ("/refund/kind", "enum"),
    ("/remark", "not_blank"),
    ("/secret", "length"),
    ("/site", "url"),
    ("/small", "type"),
    ("/status", "enum"),
    ("/systolic", "range"),
    ("/tags/0", "regex"),
    ("/ward", "required"),
];

fn sorted(mut found: Vec<(String, String)>) -> Vec<(String, String)> {
    found.sort();
    found
}

fn every_violation() -> Vec<(String, String)> {
    EVERY_VIOLATION
        .iter()
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect()
}

#[test]
fn no_value_sent_is_shown_while_every_violation_keeps_its_path_and_rule() {
    let shown = served(true, every_mistake());
    assert_eq!(sorted(found(&shown)), every_violation());
    // The markers find the leaks: with values shown, every kind of them is there.
    for leak in [
        "ZQX-regex",
        "ZQX-item",
        "ZQX-union",
        "ZQX-unknown",
        "ZQX-custom",
        "ZQX-reading",
        "ZQX-type",
        "ZQX-leg",
        "ZQX-oneof",
        "ZQX-a",
        "987650",
        "98765",
        "01/01/2001",
        "Did you mean \\\"PENDING",
        "It has",
    ] {
        assert!(shown.to_string().contains(leak), "{leak} is shown: {shown}");
    }
    let withheld = served(false, every_mistake());
    assert_eq!(withheld["isError"], true);
    assert_eq!(sorted(found(&withheld)), every_violation());
    assert_eq!(leaks(&withheld), Vec::<&str>::new(), "{withheld:#}");
    let structured = &withheld["structuredContent"];
    assert_eq!(structured["attempted_query"]["tool"], "visit");
    assert_eq!(structured["attempted_query"]["arguments"], "[redacted]");
    for v in structured["violations"].as_array().unwrap() {
        assert!(v.get("received").is_none(), "{v}");
        assert!(!v["message"].as_str().unwrap().is_empty());
    }
    // The repairs are made and said, naming no value.
    let repairs = &withheld["_meta"]["mcp-tool/repairs"];
    assert_eq!(
        repairs,
        &json!([
            {"path": "/cabin", "repair": "read as the allowed value this was in another letter case"},
            {"path": "/tags", "repair": "parsed the JSON array sent as a string"},
        ]),
    );
    // What a type error says is the type; a rule written in the code keeps its words.
    let text = withheld["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("- count: must be an integer; got a string (not shown)."),
        "{text}"
    );
    assert!(
        text.contains("- remark: must not be blank; got a string (not shown). Write something."),
        "{text}"
    );
    assert!(text.contains("- secret: must have at least 8 characters; got a string (not shown: the field is sensitive)."), "{text}");
    assert!(text.contains("- code: must pass the check known_code (its reason is not shown); got a string (not shown)."), "{text}");
    // An unknown name is a name, not a value: the nearest argument is suggested, and
    // what is wrong with the value there is said without it.
    assert!(
        text.contains(
            "- noet: is not an argument of visit; got a string (not shown). Did you mean \"note\"? \
             Send the value under that name; there it must have at most 3 characters; got a string (not shown)."
        ),
        "{text}"
    );
    insta::assert_json_snapshot!(withheld);
}

#[test]
fn a_refused_conversion_shows_neither_the_value_nor_its_words() {
    /// A code read through a conversion that quotes what it refuses.
    #[derive(Argument, Deserialize, Debug)]
    #[serde(try_from = "String")]
    struct Code(String);

    impl TryFrom<String> for Code {
        type Error = String;
        fn try_from(s: String) -> Result<Self, String> {
            Err(format!("{s:?} is not a code"))
        }
    }

    /// Look a code up.
    #[derive(McpTool, Deserialize, Debug)]
    struct Find {
        code: Code,
    }

    async fn find(_: Find) -> Result<&'static str, ToolError> {
        Ok("found")
    }

    for echo in [true, false] {
        let tools = Toolbox::new().echo_values(echo).tool(find);
        let result = run(tools.call("find", json!({"code": "ZQX-conversion"})))
            .unwrap()
            .to_value();
        assert_eq!(found(&result), [("/code".into(), "try_from".into())]);
        let text = result.to_string();
        assert_eq!(text.contains("ZQX"), echo, "{result:#}");
        assert_eq!(text.contains("is not a code"), echo, "{result:#}");
    }
}

#[test]
fn a_handler_s_own_error_shows_no_value_either() {
    for echo in [true, false] {
        let tools = Toolbox::new().echo_values(echo).tool(look_up);
        let result = run(tools.call("visit", valid_visit())).unwrap().to_value();
        let structured = &result["structuredContent"];
        assert_eq!(structured["errorCategory"], "business");
        assert_eq!(found(&result), [("/patient".into(), "exists".into())]);
        if echo {
            assert_eq!(structured["violations"][0]["received"], "P-123456");
            assert_eq!(
                structured["attempted_query"]["arguments"]["patient"],
                "P-123456"
            );
        } else {
            assert!(!result.to_string().contains("P-123456"), "{result:#}");
            assert_eq!(structured["attempted_query"]["arguments"], "[redacted]");
        }
    }
    // A handler's error with the arguments the checks passed: none shown either.
    async fn fails(_: Visit) -> Result<&'static str, ToolError> {
        Err(ToolError::transient("The records are down."))
    }
    let tools = Toolbox::new()
        .in_context(today())
        .echo_values(false)
        .tool(fails);
    let result = run(tools.call("visit", valid_visit())).unwrap().to_value();
    assert_eq!(result["structuredContent"]["errorCategory"], "transient");
    assert_eq!(
        result["structuredContent"]["attempted_query"]["arguments"],
        "[redacted]"
    );
    assert!(!result.to_string().contains("ZQX"), "{result:#}");
}

/// Delete a record, once the user confirms it.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(confirm = "Delete the record of {patient}?")]
struct Delete {
    patient: String,
}

#[test]
fn a_confirmation_the_client_cannot_ask_shows_no_value() {
    async fn delete(_: Delete) -> Result<&'static str, ToolError> {
        Ok("deleted")
    }
    for echo in [true, false] {
        let tools = Toolbox::new().echo_values(echo).tool(delete);
        let result = run(tools.call("delete", json!({"patient": "ZQX-confirm"})))
            .unwrap()
            .to_value();
        assert_eq!(result["structuredContent"]["errorCategory"], "permission");
        assert_eq!(result.to_string().contains("ZQX"), echo, "{result:#}");
    }
}

/// The same tools, as an rmcp server of `#[tool]` methods served through `structured`.
#[derive(Clone)]
struct Clinic {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Clinic {
    #[tool(description = "Record a visit.")]
    async fn visit(&self, Parameters(_): Parameters<Visit>) -> Result<String, ToolError> {
        Ok("recorded".into())
    }

    #[tool(description = "Look a patient up.")]
    async fn look_up(&self, Parameters(args): Parameters<Visit>) -> Result<String, ToolError> {
        look_up(args).await.map(str::to_owned)
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).echo_values(false))]
impl ServerHandler for Clinic {}

#[tokio::test]
async fn through_rmcp_s_structured_router_no_value_is_shown() {
    let client = connect(Clinic {
        tool_router: Clinic::tool_router(),
    })
    .await;
    let call = |name: &str, args: Value| {
        let Value::Object(args) = args else {
            unreachable!()
        };
        client.call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(args))
    };
    // Dates are judged by the system clock here: a date in 2001 is past, and one in
    // 2999 is future, whatever the day.
    let result = serde_json::to_value(call("visit", every_mistake()).await.unwrap()).unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(sorted(found(&result)), every_violation());
    assert_eq!(leaks(&result), Vec::<&str>::new(), "{result:#}");
    assert_eq!(
        result["structuredContent"]["attempted_query"]["arguments"],
        "[redacted]"
    );
    let result = serde_json::to_value(call("look_up", valid_visit()).await.unwrap()).unwrap();
    assert_eq!(
        result["structuredContent"]["errorCategory"], "business",
        "{result:#}"
    );
    assert!(!result.to_string().contains("P-123456"), "{result:#}");
    assert_eq!(
        result["structuredContent"]["attempted_query"]["arguments"],
        "[redacted]"
    );
}

/// Book a flight, asking the user for the day when the model gets it wrong.
#[derive(McpTool, Deserialize, Debug)]
struct Fly {
    #[validate(ask = "Which day do you fly?", future_date(format = "%d/%m/%Y"))]
    day: String,
}

#[tokio::test]
async fn a_form_asking_the_user_shows_no_value_the_model_sent() {
    async fn fly(_: Fly) -> Result<&'static str, ToolError> {
        Ok("booked")
    }
    for echo in [true, false] {
        let tools = Toolbox::new()
            .in_context(today())
            .echo_values(echo)
            .tool(fly);
        let reach = Reach::Rounds {
            input_responses: None,
            request_state: None,
        };
        let answer = tools
            .call_reaching(
                SchemaProfile::Portable,
                "fly",
                json!({"day": "01/01/2001"}),
                reach,
            )
            .await
            .unwrap();
        let Answer::InputRequired(asked) = answer else {
            panic!("the user is asked: {answer:?}")
        };
        let form = Value::Object(asked.input_requests).to_string();
        assert!(form.contains("Which day do you fly?"), "{form}");
        assert!(form.contains("must be a date in the future"), "{form}");
        assert_eq!(form.contains("01/01/2001"), echo, "{form}");
    }
}
