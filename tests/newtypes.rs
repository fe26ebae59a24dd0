//! Newtypes that carry their rules: defined once, used by every tool, advertised and
//! checked as the type serde reads (a tuple struct's field, `transparent`, `try_from`).
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use mcp_tool::{Argument, McpTool};
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::json;

/// A port a service may listen on.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[validate(range(min = 1024, max = 65534))]
struct Port(u16);

/// An order's ID.
#[derive(Argument, Deserialize, Debug, PartialEq)]
struct OrderId(
    #[validate(regex(pattern = r"^ORD-[0-9]{5}$", hint = "Order IDs look like ORD-00042."))] String,
);

/// Where replies go.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(transparent)]
struct ReplyTo {
    #[validate(email)]
    address: String,
}

/// A quantity of at least one, read through `TryFrom`.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(try_from = "u32")]
#[validate(range(min = 1, max = 99))]
struct Quantity(u32);

impl TryFrom<u32> for Quantity {
    type Error = String;
    fn try_from(n: u32) -> Result<Self, String> {
        Ok(Quantity(n))
    }
}

/// A secret: never echoed.
#[derive(Argument, Deserialize, Debug)]
#[validate(sensitive, length(min = 8))]
struct ApiKey(String);

/// Open a port for an order.
#[derive(McpTool, Deserialize, Debug)]
struct Expose {
    port: Port,
    order: OrderId,
    reply_to: Option<ReplyTo>,
    quantity: Option<Quantity>,
    key: Option<ApiKey>,
    /// Every order this opens for.
    #[validate(length(max = 3))]
    also: Option<Vec<OrderId>>,
}

#[test]
fn a_newtype_advertises_its_inner_type_with_its_rules() {
    let props = &Expose::input_schema()["properties"];
    assert_eq!(
        props["port"],
        json!({"type": "integer", "minimum": 1024, "maximum": 65534,
               "description": "A port a service may listen on."})
    );
    assert_eq!(props["order"]["pattern"], "^ORD-[0-9]{5}$");
    let reply_to = &props["reply_to"]["anyOf"][0];
    assert_eq!(reply_to["format"], "email");
    assert_eq!(props["quantity"]["anyOf"][0]["minimum"], 1);
    assert_eq!(
        props["also"]["anyOf"][0]["items"]["pattern"],
        "^ORD-[0-9]{5}$"
    );
    assert_eq!(props["also"]["anyOf"][0]["maxItems"], 3);
}

#[test]
fn a_newtype_s_rules_are_checked_wherever_it_is_used() {
    let err = Expose::from_arguments_in(
        json!({"port": 80, "order": "42", "reply_to": "nobody", "quantity": 0,
               "key": "short", "also": ["ORD-00001", "x"]}),
        &today(),
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = profiles::found::messages(&err);
    assert_eq!(
        found,
        [
            ("/port", "must be at least 1024 and at most 65534; got 80."),
            (
                "/order",
                "must match the pattern ^ORD-[0-9]{5}$; got \"42\". Order IDs look like ORD-00042."
            ),
            (
                "/reply_to",
                "must be an email address such as name@example.com; got \"nobody\"."
            ),
            ("/quantity", "must be at least 1 and at most 99; got 0."),
            (
                "/key",
                "must have at least 8 characters; got a string (not shown: the field is sensitive)."
            ),
            (
                "/also/1",
                "must match the pattern ^ORD-[0-9]{5}$; got \"x\". Order IDs look like ORD-00042."
            ),
        ]
    );
    // The key is hidden in `attempted_query` too.
    let echoed = err.to_call_result().structured_content.unwrap();
    assert_eq!(echoed["attempted_query"]["arguments"]["key"], "[redacted]");

    let ok = Expose::from_arguments_in(
        json!({"port": 8080, "order": "ORD-00042", "reply_to": "a@b.co", "quantity": 3}),
        &today(),
    )
    .unwrap();
    assert_eq!(ok.port, Port(8080));
    assert_eq!(
        ok.reply_to,
        Some(ReplyTo {
            address: "a@b.co".into()
        })
    );
    assert_eq!(ok.quantity, Some(Quantity(3)));
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let candidates = vec![
        (
            "port",
            vec![
                json!(1023),
                json!(1024),
                json!(65534),
                json!(65535),
                json!(70000),
                json!("80"),
            ],
        ),
        ("order", vec![json!("ORD-00001"), json!("ORD-1"), json!(1)]),
        (
            "reply_to",
            vec![
                json!("a@b.co"),
                json!("a"),
                json!(null),
                json!({"address": "a@b.co"}),
            ],
        ),
        (
            "quantity",
            vec![json!(1), json!(0), json!(100), json!(1.0), json!(-1)],
        ),
        ("key", vec![json!("12345678"), json!("1234"), json!(null)]),
        (
            "also",
            vec![
                json!([]),
                json!(["ORD-00001", "ORD-00002", "ORD-00003", "ORD-00004"]),
                json!(["x"]),
            ],
        ),
    ];
    let cases = combinations(&json!({"port": 8080, "order": "ORD-00042"}), &candidates);
    let verdicts = hold::<Expose>(&cases, &today(), &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
}

/// A port above the reserved ones, read through a conversion that refuses the rest.
#[derive(Argument, Deserialize, Debug, PartialEq)]
#[serde(try_from = "u16")]
struct ServicePort(u16);

impl TryFrom<u16> for ServicePort {
    type Error = String;
    fn try_from(n: u16) -> Result<Self, String> {
        if (1024..=65534).contains(&n) {
            Ok(ServicePort(n))
        } else {
            Err(format!("port {n} is outside 1024..=65534"))
        }
    }
}

/// Listen on a port.
#[derive(McpTool, Deserialize, Debug)]
struct Listen {
    port: ServicePort,
    backup: Option<ServicePort>,
}

#[test]
fn a_refused_conversion_is_reported_at_the_field_with_its_own_words() {
    let error =
        Listen::from_arguments_in(json!({"port": 80, "backup": 8080}), &today()).unwrap_err();
    let violations = error.violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].path, "/port");
    assert_eq!(violations[0].rule, "try_from");
    assert!(
        violations[0]
            .message
            .contains("port 80 is outside 1024..=65534"),
        "{}",
        violations[0].message
    );
    // A validation error, with the arguments kept.
    let structured = error.structured_content();
    assert_eq!(structured["errorCategory"], "validation");
    assert_eq!(structured["attempted_query"]["arguments"]["port"], 80);
    // The schema says the server may refuse more than it allows.
    let port = &Listen::input_schema()["properties"]["port"];
    assert!(
        port["description"]
            .as_str()
            .unwrap()
            .contains("may refuse some values"),
        "{port}"
    );
    let ok = Listen::from_arguments_in(json!({"port": 8443}), &today()).unwrap();
    assert_eq!(ok.port, ServicePort(8443));
}

#[test]
fn a_conversion_s_refusals_are_the_only_runtime_rejections_beyond_every_profile() {
    let port = || {
        vec![
            json!(80),
            json!(1024),
            json!(8080.0),
            json!(65535),
            json!(-1),
            json!("x"),
        ]
    };
    let candidates = [("port", port()), ("backup", port())];
    let cases = combinations(&json!({"port": 8080}), &candidates);
    let verdicts = hold::<Listen>(&cases, &today(), &["try_from"]).unwrap();
    for verdict in [
        Verdict::BothAccept,
        Verdict::BothReject,
        Verdict::RuntimeStricter,
    ] {
        assert!(verdicts.contains(&verdict), "{verdict:?}");
    }
}
