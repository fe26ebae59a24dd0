//! What an argument error shows of the arguments (`attempted_query`) hides every
//! sensitive value the checks met: a sensitive field, nested, in a list, flattened, in
//! a form of an enum, a sensitive newtype, and a misspelt name of a sensitive field,
//! even past the 50 violations listed. What the checks find is the one source of what
//! is hidden: a handler's error, whose arguments passed them, hides the same values.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{Argument, McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};

/// A card number, never shown.
#[derive(Argument, Deserialize, Debug)]
#[serde(transparent)]
struct CardNumber(#[validate(sensitive, length(equal = 16))] String);

#[derive(Argument, Deserialize, Debug)]
struct Login {
    user: String,
    #[validate(sensitive)]
    password: String,
}

#[derive(Argument, Deserialize, Debug)]
struct Audit {
    #[validate(sensitive)]
    token: Option<String>,
}

#[derive(Argument, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card {
        number: CardNumber,
    },
    Transfer {
        iban: String,
        #[validate(sensitive)]
        pin: String,
    },
}

#[derive(Argument, Deserialize, Debug)]
#[serde(untagged)]
enum Secret {
    Pair {
        user: String,
        #[validate(sensitive)]
        key: String,
    },
    Plain(String),
}

/// Pay.
#[derive(McpTool, Deserialize, Debug)]
struct Pay {
    login: Login,
    logins: Vec<Login>,
    payment: Payment,
    secret: Secret,
    card: Option<CardNumber>,
    #[serde(flatten)]
    audit: Audit,
    #[validate(range(max = 10))]
    amount: u32,
    #[validate(items(length(max = 1)))]
    tags: Option<Vec<String>>,
}

fn shown(args: &Value) -> Value {
    let error = Pay::from_arguments(args.clone()).expect_err("the arguments are wrong");
    error.to_call_result().to_value()["structuredContent"]["attempted_query"]["arguments"].clone()
}

#[test]
fn every_sensitive_value_the_checks_met_is_hidden() {
    let args = json!({
        "login": {"user": "ada", "password": "hunter2"},
        "logins": [{"user": "bob", "password": "s3cret"}, {"user": "eve", "pasword": "typo"}],
        "payment": {"kind": "transfer", "iban": "FR76", "pin": "1234"},
        "secret": {"user": "ada", "key": "k-123"},
        "card": "4111111111111111",
        "token": "tok-1",
        "amount": 99,
        "tokne": "tok-2",
    });
    let got = shown(&args);
    assert_eq!(got["login"]["password"], "[redacted]");
    assert_eq!(got["logins"][0]["password"], "[redacted]");
    assert_eq!(got["logins"][1]["pasword"], "[redacted]");
    assert_eq!(got["payment"]["pin"], "[redacted]");
    assert_eq!(got["secret"]["key"], "[redacted]");
    assert_eq!(got["card"], "[redacted]");
    assert_eq!(got["token"], "[redacted]");
    assert_eq!(got["tokne"], "[redacted]");
    assert_eq!(got["login"]["user"], "ada");
    assert_eq!(got["amount"], 99);
    // Past the 50 listed violations (60 bad tags, checked first) a misspelt sensitive
    // name is still hidden, though no suggestion is written for it.
    let mut flood = args.as_object().unwrap().clone();
    flood.insert("tags".into(), json!(vec!["too long"; 60]));
    flood.insert("tokne".into(), json!("tok-3"));
    let flood = Value::Object(flood);
    let error = Pay::from_arguments(flood.clone()).unwrap_err();
    assert!(error.omitted_violations() > 0);
    let got = shown(&flood);
    assert_eq!(got["tokne"], "[redacted]");
}

/// A handler that fails once the arguments passed the checks.
async fn pay(_: Pay) -> Result<Value, ToolError> {
    Err(ToolError::transient("The bank is down."))
}

/// The result of calling `tool` of `tools` with `args`, whose handler fails.
fn failed_call(tools: &Toolbox, tool: &str, args: &Value) -> Value {
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(tools.call(tool, args.clone()))
        .unwrap()
        .to_value();
    assert_eq!(result["structuredContent"]["errorCategory"], "transient");
    result
}

/// What a failed handler's result shows of `args`.
fn shown_by_handler(args: &Value) -> Value {
    let result = failed_call(&Toolbox::new().tool(pay), "pay", args);
    result["structuredContent"]["attempted_query"]["arguments"].clone()
}

#[test]
fn a_handler_error_hides_what_an_argument_error_hides() {
    let valid = json!({
        "login": {"user": "ada", "password": "hunter2"},
        "logins": [{"user": "bob", "password": "s3cret"}],
        "payment": {"kind": "card", "number": "4111111111111111"},
        "secret": {"user": "ada", "key": "k-123"},
        "card": "4111111111111111",
        "token": "tok-1",
        "amount": 9,
    });
    let by_handler = shown_by_handler(&valid);
    let mut invalid = valid.clone();
    invalid["amount"] = json!(99);
    let mut by_checks = shown(&invalid);
    assert_eq!(by_checks["amount"], 99);
    by_checks["amount"] = json!(9);
    assert_eq!(by_handler, by_checks);
    let text = by_handler.to_string();
    for secret in ["hunter2", "s3cret", "4111111111111111", "k-123", "tok-1"] {
        assert!(!text.contains(secret), "{secret} is hidden: {text}");
    }
    assert_eq!(by_handler["payment"]["number"], "[redacted]");
    assert_eq!(by_handler["login"]["user"], "ada");
}

/// Store secrets under names of the caller's choosing.
#[derive(McpTool, Deserialize, Debug)]
struct Vault {
    owner: String,
    /// Every other name is a secret's.
    #[serde(flatten)]
    secrets: std::collections::HashMap<String, CardNumber>,
}

async fn vault(_: Vault) -> Result<Value, ToolError> {
    Err(ToolError::transient("The vault is locked."))
}

#[test]
fn a_sensitive_value_in_a_flattened_map_is_hidden_when_the_handler_fails() {
    let args = json!({"owner": "ada", "visa": "4111111111111111"});
    let result = failed_call(&Toolbox::new().tool(vault), "vault", &args);
    let shown = &result["structuredContent"]["attempted_query"]["arguments"];
    assert_eq!(shown["owner"], "ada", "{result}");
    assert_eq!(shown["visa"], "[redacted]", "{result}");
    assert!(!result.to_string().contains("4111111111111111"));
    // As an argument error hides it.
    let mut wrong = args;
    wrong["visa"] = json!("4111");
    let error = Vault::from_arguments(wrong).unwrap_err();
    let written = error.to_call_result().to_value();
    assert_eq!(
        written["structuredContent"]["attempted_query"]["arguments"]["visa"],
        "[redacted]"
    );
}

/// A PIN whose conversion quotes what it refuses.
#[derive(Argument, Deserialize, Debug)]
#[serde(try_from = "String")]
#[validate(sensitive)]
struct Pin(String);

impl TryFrom<String> for Pin {
    type Error = String;
    fn try_from(pin: String) -> Result<Self, String> {
        Err(format!("{pin} is not a PIN of this card"))
    }
}

/// Words made at run time from the value: not said of a sensitive one.
fn known_key(key: &str) -> Result<(), mcp_tool::Invalid> {
    if key == "k-ours" {
        return Ok(());
    }
    Err(mcp_tool::Invalid::new(format!("{key} is no key of ours")))
}

/// Unlock a card.
#[derive(McpTool, Deserialize, Debug)]
struct Unlock {
    #[validate(sensitive, enum = ["alpha", "bravo"])]
    word: String,
    #[validate(sensitive, custom = known_key)]
    key: String,
    #[validate(sensitive, enum = ["Visa", "Amex"])]
    network: Option<String>,
}

/// Unlock a card with its PIN.
#[derive(McpTool, Deserialize, Debug)]
struct UnlockPin {
    pin: Pin,
}

#[test]
fn nothing_made_from_a_sensitive_value_is_said() {
    let error = Unlock::from_arguments(json!({"word": "alpah", "key": "k-secret"})).unwrap_err();
    let text = error.to_call_result().to_value().to_string();
    for made in ["alpah", "k-secret", "Did you mean", "no key of ours"] {
        assert!(!text.contains(made), "{made}: {text}");
    }
    assert_eq!(error.violations().len(), 2, "{text}");
    // A repair names no value of a sensitive field.
    async fn unlock(_: Unlock) -> Result<Value, ToolError> {
        Err(ToolError::transient("The bank is down."))
    }
    let args = json!({"word": "alpha", "key": "k-ours", "network": "VISA"});
    let result = failed_call(&Toolbox::new().tool(unlock), "unlock", &args);
    let repairs = result["_meta"]["mcp-tool/repairs"].to_string();
    assert!(repairs.contains("another letter case"), "{repairs}");
    assert!(
        !repairs.contains("Visa") && !repairs.contains("VISA"),
        "{repairs}"
    );
    // Nor a conversion's refusal, which quotes it.
    let error = UnlockPin::from_arguments(json!({"pin": "0000"})).unwrap_err();
    let text = error.to_call_result().to_value().to_string();
    assert_eq!(error.violations()[0].rule, "try_from");
    assert!(
        !text.contains("0000") && !text.contains("not a PIN"),
        "{text}"
    );
}
