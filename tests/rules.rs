#![allow(dead_code)] // the fields exist for the derive to read
//! Each rule through the public API: what it accepts, what it rejects, its boundaries,
//! and Unicode.

#[path = "support/found.rs"]
mod found;

use mcp_tool::{Argument, Context, Invalid, McpEnum, McpTool, SchemaProfile, ToolError, Violation};
use serde::Deserialize;
use serde_json::{Value, json};

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

/// A property's schema without the `null` an `Option` adds: `anyOf[0]` of a nullable one.
fn inner(property: &Value) -> &Value {
    match property.get("anyOf") {
        Some(branches) => &branches[0],
        None => property,
    }
}

fn check<T: McpTool>(args: Value) -> Result<T, ToolError> {
    T::from_arguments_in(args, &today())
}

/// The (path, rule) of each violation.
fn violations<T: McpTool + std::fmt::Debug>(args: Value) -> Vec<(String, String)> {
    match check::<T>(args) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .violations()
            .iter()
            .map(|v: &Violation| (v.path.clone(), v.rule.to_string()))
            .collect(),
    }
}

fn ok<T: McpTool + std::fmt::Debug>(args: Value) {
    if let Err(e) = check::<T>(args.clone()) {
        panic!("{args} should pass, got:\n{}", e.text());
    }
}

fn fails<T: McpTool + std::fmt::Debug>(args: Value, path: &str, rule: &str) {
    let got = violations::<T>(args.clone());
    assert_eq!(
        got,
        vec![(path.to_owned(), rule.to_owned())],
        "{args} should fail {rule} at {path}"
    );
}

#[derive(McpTool, Deserialize, Debug)]
struct Code {
    #[validate(regex = r"^[A-Z]{3}$")]
    code: String,
}

#[test]
fn regex_matches_the_whole_pattern() {
    ok::<Code>(json!({"code": "CDG"}));
    fails::<Code>(json!({"code": "cdg"}), "/code", "regex");
    fails::<Code>(json!({"code": "CDGX"}), "/code", "regex");
    fails::<Code>(json!({"code": ""}), "/code", "regex");
    // `$` is the end of the text, as in ECMA-262: no trailing newline slips through.
    fails::<Code>(json!({"code": "CDG\n"}), "/code", "regex");
    // Full-width letters are not A-Z.
    fails::<Code>(json!({"code": "ＣＤＧ"}), "/code", "regex");
}

#[derive(McpTool, Deserialize, Debug)]
struct Dotted {
    #[validate(regex = r"^a.c$")]
    text: String,
}

#[test]
fn dot_means_what_it_means_in_ecma_262() {
    ok::<Dotted>(json!({"text": "abc"}));
    ok::<Dotted>(json!({"text": "a€c"}));
    for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        fails::<Dotted>(
            json!({ "text": format!("a{terminator}c") }),
            "/text",
            "regex",
        );
    }
}

const STATUSES: &[&str] = &["PENDING", "PAID", "SHIPPED", "CLOSED"];

#[derive(McpTool, Deserialize, Debug)]
struct Status {
    #[validate(enum = STATUSES)]
    status: String,
    #[validate(enum = ["asc", "desc"])]
    order: Option<String>,
}

#[test]
fn enum_accepts_exactly_the_listed_values() {
    for s in STATUSES {
        ok::<Status>(json!({ "status": s }));
    }
    fails::<Status>(json!({"status": "PROCESSING"}), "/status", "enum");
    fails::<Status>(json!({"status": "paid"}), "/status", "enum");
    fails::<Status>(json!({"status": " PAID"}), "/status", "enum");
    ok::<Status>(json!({"status": "PAID", "order": "asc"}));
    fails::<Status>(json!({"status": "PAID", "order": "ASC"}), "/order", "enum");
}

#[test]
fn enum_lists_the_values_and_suggests_the_nearest() {
    let err = check::<Status>(json!({"status": "paid"})).unwrap_err();
    let v = &err.violations()[0];
    assert_eq!(v.expected, json!(STATUSES));
    assert!(
        v.message
            .contains(r#"must be one of "PENDING", "PAID", "SHIPPED", "CLOSED""#),
        "{}",
        v.message
    );
    assert!(
        v.message.contains(r#"Did you mean "PAID"?"#),
        "{}",
        v.message
    );
    let far = check::<Status>(json!({"status": "PROCESSING"})).unwrap_err();
    assert!(!far.violations()[0].message.contains("Did you mean"));
}

#[derive(McpTool, Deserialize, Debug)]
struct Dates {
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure: Option<String>,
    #[validate(past_date)]
    born: Option<String>,
}

#[test]
fn future_date_is_strictly_after_today_in_its_format() {
    ok::<Dates>(json!({"departure": "01/12/2026"}));
    ok::<Dates>(json!({"departure": "29/02/2028"}));
    fails::<Dates>(
        json!({"departure": "30/11/2026"}),
        "/departure",
        "future_date",
    );
    fails::<Dates>(
        json!({"departure": "12/12/2024"}),
        "/departure",
        "future_date",
    );
    // Wrong format, impossible dates and sloppy padding are all rejected.
    fails::<Dates>(
        json!({"departure": "2027-01-05"}),
        "/departure",
        "future_date",
    );
    fails::<Dates>(
        json!({"departure": "29/02/2027"}),
        "/departure",
        "future_date",
    );
    fails::<Dates>(
        json!({"departure": "5/1/2027"}),
        "/departure",
        "future_date",
    );
}

#[test]
fn date_messages_give_the_current_date_and_format() {
    let err = check::<Dates>(json!({"departure": "12/12/2024"})).unwrap_err();
    let v = &err.violations()[0];
    assert_eq!(
        v.message,
        "must be a date in the future, as dd/mm/yyyy; got \"12/12/2024\". Current date is 30/11/2026."
    );
    assert_eq!(v.expected, json!("a date after 30/11/2026 (dd/mm/yyyy)"));
    let err = check::<Dates>(json!({"born": "1990/01/01"})).unwrap_err();
    assert_eq!(
        err.violations()[0].message,
        "must be a date written yyyy-mm-dd; got \"1990/01/01\". Current date is 2026-11-30."
    );
}

#[test]
fn a_date_written_right_that_is_no_day_says_so_once() {
    let err = check::<Dates>(json!({"born": "2026-02-30"})).unwrap_err();
    assert_eq!(
        err.violations()[0].message,
        "must be a real date; got \"2026-02-30\". There is no such day in the calendar. Current date is 2026-11-30."
    );
    let err = check::<Dates>(json!({"departure": "29/02/2027"})).unwrap_err();
    assert!(
        err.violations()[0]
            .message
            .starts_with("must be a real date;")
    );
}

/// Plan a trip.
#[derive(McpTool, Deserialize, Debug)]
struct PlanTrip {
    /// Day of departure
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure: String,
    #[validate(past_date(format = "%d %B %Y"))]
    booked: Option<String>,
}

#[test]
fn a_date_format_s_shape_is_the_schema_s_pattern() {
    let schema = PlanTrip::input_schema();
    let departure = &schema["properties"]["departure"];
    assert_eq!(departure["pattern"], "^[0-9]{2}/[0-9]{2}/[0-9]{4}$");
    // Sentences stay sentences: the doc comment had no full stop.
    assert_eq!(
        departure["description"],
        "Day of departure. Must be a date after the current date, written dd/mm/yyyy."
    );
    // Month names have no fixed shape: the description alone says it.
    assert_eq!(inner(&schema["properties"]["booked"]).get("pattern"), None);
    assert!(inner(&schema["properties"]["booked"]).get("type").is_some());
    assert_eq!(
        inner(&Dates::input_schema()["properties"]["born"])["pattern"],
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    );
}

#[test]
fn past_date_is_strictly_before_today() {
    ok::<Dates>(json!({"born": "1990-05-17"}));
    ok::<Dates>(json!({"born": "2026-11-29"}));
    fails::<Dates>(json!({"born": "2026-11-30"}), "/born", "past_date");
    fails::<Dates>(json!({"born": "2030-01-01"}), "/born", "past_date");
}

#[test]
fn the_context_decides_what_today_is() {
    let args = json!({"departure": "01/12/2026"});
    let later = Context::on(2026, 12, 1).unwrap();
    assert!(Dates::from_arguments_in(args.clone(), &today()).is_ok());
    assert!(Dates::from_arguments_in(args, &later).is_err());
    // The system clock: a date far ahead is in the future whatever the day.
    assert!(Dates::from_arguments(json!({"departure": "01/01/9999"})).is_ok());
    assert!(Context::in_time_zone("Not/AZone").is_err());
}

#[derive(McpTool, Deserialize, Debug)]
struct Numbers {
    #[validate(range(min = 1, max = 9))]
    passengers: Option<u8>,
    #[validate(range(exclusive_min = 0, max = 100.5))]
    price: Option<f64>,
    #[validate(range(min = -10, exclusive_max = 10))]
    offset: Option<i32>,
}

#[test]
fn range_bounds_inclusive_and_exclusive() {
    ok::<Numbers>(json!({"passengers": 1}));
    ok::<Numbers>(json!({"passengers": 9}));
    fails::<Numbers>(json!({"passengers": 0}), "/passengers", "range");
    fails::<Numbers>(json!({"passengers": 10}), "/passengers", "range");
    // Out of the type's range, the range rule still speaks.
    fails::<Numbers>(json!({"passengers": 300}), "/passengers", "range");
    fails::<Numbers>(json!({"passengers": -1}), "/passengers", "range");

    ok::<Numbers>(json!({"price": 0.01}));
    ok::<Numbers>(json!({"price": 100.5}));
    fails::<Numbers>(json!({"price": 0}), "/price", "range");
    fails::<Numbers>(json!({"price": 0.0}), "/price", "range");
    fails::<Numbers>(json!({"price": 100.51}), "/price", "range");

    ok::<Numbers>(json!({"offset": -10}));
    ok::<Numbers>(json!({"offset": 9}));
    fails::<Numbers>(json!({"offset": 10}), "/offset", "range");
    fails::<Numbers>(json!({"offset": -11}), "/offset", "range");
}

#[test]
fn integers_are_json_schema_integers() {
    // 3.0 is an integer to JSON Schema, so it is one here too.
    let n = check::<Numbers>(json!({"passengers": 3.0})).unwrap();
    assert_eq!(n.passengers, Some(3));
    let n = check::<Numbers>(json!({"offset": -0.0})).unwrap();
    assert_eq!(n.offset, Some(0));
    fails::<Numbers>(json!({"passengers": 2.5}), "/passengers", "type");
    fails::<Numbers>(json!({"passengers": "2"}), "/passengers", "type");
    fails::<Numbers>(json!({"passengers": true}), "/passengers", "type");
}

#[derive(McpTool, Deserialize, Debug)]
struct Bare {
    small: Option<u8>,
    big: Option<u64>,
    signed: Option<i64>,
}

#[test]
fn integer_types_bound_themselves() {
    ok::<Bare>(json!({"small": 255, "big": u64::MAX, "signed": i64::MIN}));
    fails::<Bare>(json!({"small": 256}), "/small", "type");
    fails::<Bare>(json!({"big": -1}), "/big", "type");
    // 2^64 written as a float is one past u64::MAX. A 64-bit type's bound past what
    // every JSON reader holds exactly is told nowhere (no model reaches it), but
    // enforced, and its violation says so by its rule and names the range.
    fails::<Bare>(
        json!({"big": 18446744073709551616.0}),
        "/big",
        "integer_range",
    );
    fails::<Bare>(
        json!({"signed": 9223372036854775808_u64}),
        "/signed",
        "integer_range",
    );
    let err = check::<Bare>(json!({"big": 18446744073709551616.0})).unwrap_err();
    assert!(
        err.text()
            .contains("must be an integer from 0 to 18446744073709551615"),
        "{}",
        err.text()
    );
    let schema = Bare::input_schema();
    assert_eq!(inner(&schema["properties"]["small"])["maximum"], 255);
    // What a model can reach is told; the far ends of a 64-bit type are not, in words
    // or as numbers, in any profile.
    for profile in SchemaProfile::ALL {
        let schema = Bare::input_schema_for(profile);
        let said = schema.to_string();
        assert!(
            !said.contains("18446744073709551615"),
            "{profile:?}: {said}"
        );
        assert!(!said.contains("9223372036854775807"), "{profile:?}: {said}");
        assert!(!said.contains("9223372036854775808"), "{profile:?}: {said}");
        assert_eq!(
            schema["properties"]["signed"].get("description"),
            None,
            "{profile:?}: {said}"
        );
    }
    let big = inner(&schema["properties"]["big"]);
    assert_eq!(big["minimum"], 0);
    assert_eq!(big.get("maximum"), None, "{big}");
    assert_eq!(schema["properties"]["big"].get("description"), None);
    let signed = inner(&schema["properties"]["signed"]);
    assert_eq!(signed.get("minimum"), None, "{signed}");
    assert_eq!(signed.get("maximum"), None, "{signed}");
}

#[derive(McpTool, Deserialize, Debug)]
struct Lengths {
    #[validate(length(min = 2, max = 4))]
    name: Option<String>,
    #[validate(length(equal = 3))]
    code: Option<String>,
    #[validate(length(max = 2))]
    tags: Option<Vec<String>>,
}

#[test]
fn length_counts_code_points_not_bytes() {
    ok::<Lengths>(json!({"name": "ab"}));
    ok::<Lengths>(json!({"name": "abcd"}));
    fails::<Lengths>(json!({"name": "a"}), "/name", "length");
    fails::<Lengths>(json!({"name": "abcde"}), "/name", "length");
    // "é" is one code point and two bytes; "éé" passes min = 2.
    ok::<Lengths>(json!({"name": "éé"}));
    ok::<Lengths>(json!({"name": "éééé"}));
    // An emoji is one code point (two UTF-16 units); a combining mark is its own.
    ok::<Lengths>(json!({"name": "😀😀"}));
    ok::<Lengths>(json!({"name": "e\u{301}"}));
    fails::<Lengths>(json!({"name": "e\u{301}e\u{301}e"}), "/name", "length");
    ok::<Lengths>(json!({"code": "ABC"}));
    fails::<Lengths>(json!({"code": "AB"}), "/code", "length");
}

#[test]
fn length_counts_items_of_arrays() {
    ok::<Lengths>(json!({"tags": []}));
    ok::<Lengths>(json!({"tags": ["a", "b"]}));
    fails::<Lengths>(json!({"tags": ["a", "b", "c"]}), "/tags", "length");
    // The count is said once, where what came is described.
    let err = check::<Lengths>(json!({"tags": ["a", "b", "c", "d"]})).unwrap_err();
    let message = &err.violations()[0].message;
    assert_eq!(message.matches("4 items").count(), 1, "{message}");
    assert!(!message.contains("It has"), "{message}");
    // A string's count is not visible in it: it is said.
    let err = check::<Lengths>(json!({"name": "abcde"})).unwrap_err();
    assert!(
        err.violations()[0]
            .message
            .ends_with("It has 5 characters.")
    );
    let schema = Lengths::input_schema();
    assert_eq!(inner(&schema["properties"]["tags"])["maxItems"], 2);
    assert_eq!(inner(&schema["properties"]["name"])["minLength"], 2);
}

#[derive(McpTool, Deserialize, Debug)]
struct Formats {
    #[validate(email)]
    email: Option<String>,
    #[validate(url)]
    url: Option<String>,
    #[validate(uuid)]
    id: Option<String>,
}

#[test]
fn formats() {
    ok::<Formats>(
        json!({"email": "ada@example.com", "url": "https://example.com/x?y=1", "id": "123e4567-e89b-12d3-a456-426614174000"}),
    );
    fails::<Formats>(json!({"email": "ada@"}), "/email", "email");
    fails::<Formats>(json!({"email": "ada@exämple.com"}), "/email", "email");
    fails::<Formats>(json!({"url": "example.com"}), "/url", "url");
    fails::<Formats>(json!({"url": "https://exa mple.com"}), "/url", "url");
    fails::<Formats>(
        json!({"id": "123e4567e89b12d3a456426614174000"}),
        "/id",
        "uuid",
    );
    let schema = Formats::input_schema();
    assert_eq!(inner(&schema["properties"]["email"])["format"], "email");
    assert_eq!(inner(&schema["properties"]["url"])["format"], "uri");
    assert_eq!(inner(&schema["properties"]["id"])["format"], "uuid");
}

fn weekday_code(code: &str) -> Result<(), Invalid> {
    if code.starts_with("SAT") || code.starts_with("SUN") {
        return Err(Invalid::new("must not fall on a weekend")
            .expected("a weekday code")
            .hint("Pick MON to FRI."));
    }
    Ok(())
}

fn even(n: &u32) -> Result<(), String> {
    if n.is_multiple_of(2) {
        Ok(())
    } else {
        Err(format!("must be even, and {n} is odd"))
    }
}

#[derive(McpTool, Deserialize, Debug)]
struct Custom {
    #[validate(custom(function = weekday_code, description = "Must be a weekday (MON to FRI)."))]
    day: String,
    #[validate(custom = even)]
    count: Option<u32>,
    #[validate(items(custom = even))]
    counts: Option<Vec<u32>>,
}

#[test]
fn custom_rules_report_like_built_in_ones() {
    ok::<Custom>(json!({"day": "MON", "count": 2, "counts": [2, 4]}));
    let err = check::<Custom>(json!({"day": "SUN", "count": 3, "counts": [2, 5]})).unwrap_err();
    let v = err.violations();
    assert_eq!(v.len(), 3);
    assert_eq!(
        (v[0].path.as_str(), v[0].rule.as_ref()),
        ("/day", "weekday_code")
    );
    assert_eq!(
        v[0].message,
        "must not fall on a weekend; got \"SUN\". Pick MON to FRI."
    );
    assert_eq!(v[0].expected, json!("a weekday code"));
    assert_eq!((v[1].path.as_str(), v[1].rule.as_ref()), ("/count", "even"));
    assert_eq!(v[1].message, "must be even, and 3 is odd; got 3.");
    assert_eq!(v[2].path, "/counts/1");
    let schema = Custom::input_schema();
    assert_eq!(
        schema["properties"]["day"]["description"],
        "Must be a weekday (MON to FRI)."
    );
    assert_eq!(
        schema["properties"]["count"]["description"],
        "Also checked by the server (even)."
    );
}

#[derive(McpTool, Deserialize, Debug)]
struct Items {
    #[validate(
        length(max = 3),
        items(regex = r"^[A-Z]{2}[0-9]{6}$", length(equal = 8))
    )]
    loyalty: Vec<String>,
}

#[test]
fn items_rules_apply_to_each_item_with_its_index() {
    ok::<Items>(json!({"loyalty": []}));
    ok::<Items>(json!({"loyalty": ["AF123456", "KL654321"]}));
    assert_eq!(
        violations::<Items>(json!({"loyalty": ["AF123456", "af123456", 7, "AF12345"]})),
        vec![
            ("/loyalty/1".to_owned(), "regex".to_owned()),
            ("/loyalty/2".to_owned(), "type".to_owned()),
            ("/loyalty/3".to_owned(), "regex".to_owned()),
            ("/loyalty/3".to_owned(), "length".to_owned()),
            ("/loyalty".to_owned(), "length".to_owned()),
        ]
    );
    let schema = Items::input_schema();
    assert_eq!(
        inner(&schema["properties"]["loyalty"])["items"]["pattern"],
        "^[A-Z]{2}[0-9]{6}$"
    );
    assert_eq!(inner(&schema["properties"]["loyalty"])["maxItems"], 3);
}

/// A traveller.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Passenger {
    #[validate(length(min = 1))]
    full_name: String,
    #[validate(range(min = 0, max = 130))]
    age: u8,
}

/// Travel class.
#[derive(McpEnum, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    Economy,
    PremiumEconomy,
    #[serde(rename = "J")]
    Business,
}

#[derive(McpTool, Deserialize, Debug)]
struct Trip {
    lead: Passenger,
    passengers: Vec<Passenger>,
    cabin: Cabin,
    cabins: Option<Vec<Cabin>>,
}

#[test]
fn nested_structs_report_paths_into_them() {
    let ok_args = json!({
        "lead": {"fullName": "Ada", "age": 36},
        "passengers": [{"fullName": "Ada", "age": 36}],
        "cabin": "premium_economy",
    });
    let trip = check::<Trip>(ok_args).unwrap();
    assert_eq!(trip.cabin, Cabin::PremiumEconomy);
    assert_eq!(
        violations::<Trip>(json!({
            "lead": {"fullName": "", "age": 36, "extra": 1},
            "passengers": [
                {"fullName": "Ada", "age": 36},
                {"fullName": "Bob"},
                {"fullName": "Cy", "age": 200},
            ],
            "cabin": "Business",
            "cabins": ["J", "first"],
        })),
        vec![
            ("/lead/fullName".to_owned(), "length".to_owned()),
            ("/lead/extra".to_owned(), "unknown".to_owned()),
            ("/passengers/1/age".to_owned(), "required".to_owned()),
            ("/passengers/2/age".to_owned(), "range".to_owned()),
            ("/cabin".to_owned(), "enum".to_owned()),
            ("/cabins/1".to_owned(), "enum".to_owned()),
        ]
    );
}

#[test]
fn rust_enums_advertise_their_serde_names() {
    let schema = Trip::input_schema();
    assert_eq!(
        inner(&schema["properties"]["cabin"])["enum"],
        json!(["economy", "premium_economy", "J"])
    );
    assert_eq!(
        schema["properties"]["cabin"]["description"],
        "Travel class."
    );
    assert_eq!(
        inner(&schema["properties"]["cabins"])["items"]["enum"],
        json!(<Cabin as McpEnum>::VALUES)
    );
    assert_eq!(
        schema["properties"]["lead"]["properties"]["fullName"]["minLength"],
        1
    );
    assert_eq!(
        inner(&schema["properties"]["passengers"])["items"]["required"],
        json!(["fullName", "age"])
    );
    let err = check::<Trip>(json!({
        "lead": {"fullName": "A", "age": 1}, "passengers": [], "cabin": "premium-economy"
    }))
    .unwrap_err();
    assert!(
        err.violations()[0]
            .message
            .contains(r#"Did you mean "premium_economy"?"#)
    );
}

#[derive(McpTool, Deserialize, Debug)]
struct Login {
    user: String,
    #[validate(sensitive, length(min = 8))]
    password: String,
}

#[test]
fn sensitive_values_are_never_echoed() {
    let secret = "hunter2";
    for args in [
        json!({"user": "ada", "password": secret}),
        json!({"user": "ada", "password": [secret]}),
        json!({"user": "ada", "passwrd": secret}),
        json!({"user": 1, "password": secret, "pasword": secret}),
    ] {
        let err = check::<Login>(args.clone()).unwrap_err();
        let result = serde_json::to_string(&err.to_call_result()).unwrap();
        assert!(!result.contains(secret), "{args} leaked: {result}");
        assert!(!err.text().contains(secret));
        assert!(!format!("{err:?}").contains(secret), "Debug leaks {args}");
    }
    let err = check::<Login>(json!({"user": "ada", "password": "short"})).unwrap_err();
    assert_eq!(
        err.violations()[0].message,
        "must have at least 8 characters; got a string (not shown: the field is sensitive)."
    );
    assert_eq!(err.violations()[0].received, None);
}

#[derive(McpTool, Deserialize, Debug)]
struct Worded {
    #[validate(regex(
        pattern = r"^ORD-[0-9]{4}-[0-9]{5}$",
        message = "must be an order ID",
        hint = "Order IDs look like ORD-2026-00042; check the ID with find_orders."
    ))]
    order_id: String,
    #[validate(enum(values = ["a", "b"], hint = "Ask the user which one."))]
    choice: Option<String>,
}

#[test]
fn message_and_hint_replace_and_extend_the_rule_text() {
    let err = check::<Worded>(json!({"order_id": "42", "choice": "c"})).unwrap_err();
    let v = err.violations();
    assert_eq!(
        v[0].message,
        "must be an order ID; got \"42\". Order IDs look like ORD-2026-00042; check the ID with find_orders."
    );
    // The pattern stays the data, for a client that reads it.
    assert_eq!(v[0].expected, json!("^ORD-[0-9]{4}-[0-9]{5}$"));
    assert_eq!(
        v[1].message,
        "must be one of \"a\", \"b\"; got \"c\". Ask the user which one."
    );
}

#[test]
fn null_for_an_optional_field_is_none_as_serde_reads_it() {
    // No rule applies to `None`: the whitelist does not see the null.
    let ok = check::<Worded>(json!({"order_id": "ORD-2026-00042", "choice": null})).unwrap();
    assert_eq!(ok.choice, None);
    // And the schema says so, where every client reads it.
    let schema = Worded::input_schema();
    assert_eq!(
        schema["properties"]["choice"]["anyOf"][1],
        json!({"type": "null"})
    );
    assert_eq!(
        schema["properties"]["choice"]["anyOf"][0]["enum"],
        json!(["a", "b"])
    );
}

/// Set a limit.
#[derive(McpTool, Deserialize, Debug)]
struct Limit {
    #[serde(default)]
    count: u32,
    #[serde(default = "ten")]
    #[validate(range(max = 100))]
    most: u32,
}

fn ten() -> u32 {
    10
}

#[test]
fn null_for_a_field_with_a_default_says_to_leave_it_out_not_that_it_is_required() {
    // serde takes the default only when the field is left out: `null` is no u32.
    let err = check::<Limit>(json!({"count": null, "most": null})).unwrap_err();
    let messages: Vec<&str> = err
        .violations()
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "must be an integer; got null. Leave it out to take its default, or send an integer.",
            "must be an integer; got null. Leave it out to take its default, or send an integer.",
        ]
    );
    assert!(messages.iter().all(|m| !m.contains("required")));
    let ok = check::<Limit>(json!({})).unwrap();
    assert_eq!((ok.count, ok.most), (0, 10));
}

#[test]
fn a_missing_field_with_a_hint_is_told_the_hint_not_the_pattern() {
    let err = check::<Worded>(json!({})).unwrap_err();
    let message = &err.violations()[0].message;
    assert!(
        message.contains("Order IDs look like ORD-2026-00042"),
        "{message}"
    );
    assert!(!message.contains("[0-9]"), "{message}");
    // Without a hint, the pattern is what there is to say.
    let err = check::<Code>(json!({})).unwrap_err();
    assert!(err.violations()[0].message.contains("^[A-Z]{3}$"));
}

#[test]
fn null_for_a_required_field_says_it_is_required() {
    let err = check::<Worded>(json!({"order_id": null})).unwrap_err();
    // The field's hint is its rules' (what an ID looks like): told where they fail, and
    // where the field is missing, not to a value of another type.
    assert_eq!(
        err.violations()[0].message,
        "must be a string; got null. It is required: send a string, not null."
    );
    let err = check::<Worded>(json!({"order_id": "ORD-1"})).unwrap_err();
    assert!(
        err.violations()[0]
            .message
            .ends_with("Order IDs look like ORD-2026-00042; check the ID with find_orders."),
        "{}",
        err.violations()[0].message
    );
    // Inside an optional object, its own required fields are still required, and its
    // optional ones take null.
    let err = check::<Search>(json!({"origin": null, "destination": null})).unwrap_err();
    let messages: Vec<&str> = err
        .violations()
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["must be a string; got null. It is required: send a string, not null."]
    );
}

/// Flight search.
#[derive(McpTool, Deserialize, Debug)]
struct Search {
    origin: String,
    destination: Option<String>,
}

#[test]
fn unknown_names_list_the_arguments_once_even_after_a_slip() {
    let err =
        check::<Search>(json!({"origin": "CDG", "orign": 1, "seat": 2, "meal": 3})).unwrap_err();
    let text = err.text();
    // The slip names its nearest argument; the first stranger lists them all; the next
    // only says to remove it.
    assert!(
        text.contains("- orign: is not an argument of search; got 1. Did you mean \"origin\"?"),
        "{text}"
    );
    assert!(text.contains("- meal: is not an argument of search; got 3. Remove it; the arguments are \"origin\", \"destination\"."), "{text}");
    assert!(
        text.contains("- seat: is not an argument of search; got 2. Remove it."),
        "{text}"
    );
    assert_eq!(text.matches("the arguments are").count(), 1);
    let expected: Vec<&Value> = err.violations().iter().map(|v| &v.expected).collect();
    assert_eq!(
        expected,
        [
            &json!(["origin", "destination"]),
            &json!(["origin", "destination"]),
            &json!("a name listed in an earlier violation")
        ]
    );
}

/// Fields declared out of name order, so that a map's keys come in another order.
#[derive(McpTool, Deserialize, Debug)]
struct Backwards {
    #[validate(range(min = 1))]
    zulu: u32,
    #[validate(length(max = 2))]
    mike: Vec<String>,
    #[validate(regex = "^[a-z]+$")]
    alpha: String,
    #[serde(default)]
    #[validate(range(max = 5))]
    bravo: u8,
}

#[test]
fn problems_found_in_key_order_are_listed_in_declaration_order() {
    // The keys come alpha, mike, unknown, zulu: each a problem, listed as declared,
    // then the unknown name; a missing field takes its field's place.
    let got = violations::<Backwards>(json!({
        "alpha": "ALPHA", "mike": ["a", "b", 3], "oscar": 1, "zulu": 0
    }));
    let expected = [
        ("/zulu", "range"),
        ("/mike/2", "type"),
        ("/mike", "length"),
        ("/alpha", "regex"),
        ("/oscar", "unknown"),
    ];
    assert_eq!(got, expected.map(|(p, r)| (p.to_owned(), r.to_owned())));
    let got = violations::<Backwards>(json!({"alpha": "A", "bravo": 9}));
    let expected = [
        ("/zulu", "required"),
        ("/mike", "required"),
        ("/alpha", "regex"),
        ("/bravo", "range"),
    ];
    assert_eq!(got, expected.map(|(p, r)| (p.to_owned(), r.to_owned())));
}

#[test]
fn a_value_is_read_only_when_every_check_passed() {
    let ok = check::<Backwards>(json!({"alpha": "a", "mike": ["x"], "zulu": 3.0})).unwrap();
    assert_eq!((ok.zulu, ok.bravo, ok.mike.len()), (3, 0, 1));
    // The first key is fine, the last is not: nothing is returned.
    assert!(check::<Backwards>(json!({"alpha": "a", "mike": [], "zulu": 0})).is_err());
}

#[derive(McpTool, Deserialize, Debug)]
struct Capped {
    #[validate(range(max = 1))]
    zeta: u8,
    #[validate(items(regex = "^a$"))]
    alpha: Vec<String>,
}

#[test]
fn past_the_cap_the_listed_violations_are_the_first_in_declaration_order() {
    // `alpha` comes first in the map and fills the list; `zeta` is declared first.
    let err = check::<Capped>(json!({"alpha": vec!["b"; 60], "zeta": 7})).unwrap_err();
    let listed = err.violations();
    assert_eq!(listed.len(), mcp_tool::argument::MAX_LISTED);
    assert_eq!(listed[0].path, "/zeta");
    assert_eq!(listed[1].path, "/alpha/0");
    assert!(err.text().contains("61 problems"), "{}", err.text());
}

/// Buy in packs.
#[derive(McpTool, Deserialize, Debug)]
struct Packs {
    #[validate(multiple_of = 6)]
    eggs: u32,
    /// Price per kilo.
    #[validate(multiple_of(factor = 0.01, hint = "Round to the cent."))]
    price: Option<f64>,
}

#[test]
fn multiple_of_is_exact_for_integers_and_said_for_fractions() {
    let schema = Packs::input_schema();
    assert_eq!(schema["properties"]["eggs"]["multipleOf"], 6);
    // A fractional factor: no multipleOf that clients would read as binary floats.
    assert!(schema["properties"]["price"].get("multipleOf").is_none());
    assert_eq!(
        schema["properties"]["price"]["description"],
        "Price per kilo. Must be a multiple of 0.01."
    );
    ok::<Packs>(json!({"eggs": 12, "price": 19.99}));
    ok::<Packs>(json!({"eggs": 12.0}));
    fails::<Packs>(json!({"eggs": 13}), "/eggs", "multiple_of");
    let err = check::<Packs>(json!({"eggs": 13, "price": 1.005})).unwrap_err();
    let messages: Vec<&str> = err
        .violations()
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "must be a multiple of 6; got 13.",
            "must be a multiple of 0.01; got 1.005. Round to the cent.",
        ]
    );
    assert_eq!(err.violations()[0].expected, json!(6));
}

/// Tag a photo.
#[derive(McpTool, Deserialize, Debug)]
struct Tagging {
    #[validate(unique, length(max = 5))]
    tags: Vec<String>,
    /// Grid cells, each a pair of coordinates.
    #[validate(unique(hint = "Name each cell once."))]
    cells: Option<Vec<[i32; 2]>>,
    #[validate(items(unique))]
    rows: Option<Vec<Vec<u8>>>,
}

#[test]
fn unique_reports_each_repeat_at_its_own_index() {
    let schema = Tagging::input_schema();
    assert_eq!(schema["properties"]["tags"]["uniqueItems"], true);
    assert_eq!(schema["properties"]["tags"]["maxItems"], 5);
    assert_eq!(inner(&schema["properties"]["cells"])["uniqueItems"], true);
    assert_eq!(
        inner(&schema["properties"]["rows"])["items"]["uniqueItems"],
        true
    );
    ok::<Tagging>(json!({"tags": [], "cells": [[0, 0], [0, 1]], "rows": [[1, 2], [1, 2]]}));
    // Equal as JSON Schema says: 1.0 is 1, and the second and later repeats are each
    // named, at their own index, with the index of the item they repeat.
    let err = check::<Tagging>(json!({
        "tags": ["sea", "sun", "sea", "sun", "sea"],
        "cells": [[0, 1], [0, 1.0]],
        "rows": [[1, 2, 1], [3]],
    }))
    .unwrap_err();
    let found = found::all(&err);
    assert_eq!(
        found,
        [
            (
                "/tags/2",
                "unique",
                "must not repeat item 0; got \"sea\". Remove the repeated item."
            ),
            (
                "/tags/3",
                "unique",
                "must not repeat item 1; got \"sun\". Remove the repeated item."
            ),
            (
                "/tags/4",
                "unique",
                "must not repeat item 0; got \"sea\". Remove the repeated item."
            ),
            (
                "/cells/1",
                "unique",
                "must not repeat item 0; got an array of 2 items: [0,1.0]. Remove the repeated item. Name each cell once."
            ),
            (
                "/rows/0/2",
                "unique",
                "must not repeat item 0; got 1. Remove the repeated item."
            ),
        ]
    );
}

/// Book a seat.
#[derive(McpTool, Deserialize, Debug)]
struct Seat {
    #[validate(future_date)]
    departure_date: String,
    #[validate(range(min = 1, max = 9))]
    passengers: u8,
}

#[test]
fn a_misnamed_field_with_a_wrong_value_gets_both_problems_in_one_answer() {
    let err = check::<Seat>(json!({"departureDate": 20261212, "passengers": 2})).unwrap_err();
    let unknown = err
        .violations()
        .iter()
        .find(|v| v.path == "/departureDate")
        .unwrap();
    assert_eq!(
        unknown.message,
        "is not an argument of seat; got 20261212. Did you mean \"departure_date\"? Send the value under that name; there it must be a string; got 20261212."
    );
    // A misnamed field whose value is right is only told the name.
    let err = check::<Seat>(json!({"departureDate": "2026-12-12", "passengers": 2})).unwrap_err();
    let unknown = err
        .violations()
        .iter()
        .find(|v| v.path == "/departureDate")
        .unwrap();
    assert!(unknown.message.ends_with("Send the value under that name."));
}

/// Sign in.
#[derive(McpTool, Deserialize, Debug)]
struct SignIn {
    #[validate(sensitive, length(min = 8))]
    password: String,
}

#[test]
fn a_misnamed_sensitive_field_s_value_is_not_shown_with_its_problems() {
    let err = check::<SignIn>(json!({"pasword": "hunter2"})).unwrap_err();
    let shown = err.to_call_result().to_value().to_string();
    assert!(!shown.contains("hunter2"), "{shown}");
    let unknown = err
        .violations()
        .iter()
        .find(|v| v.path == "/pasword")
        .unwrap();
    assert!(
        unknown
            .message
            .contains("there it must have at least 8 characters")
    );
}

/// Tag items.
#[derive(McpTool, Deserialize, Debug)]
struct Tags {
    #[validate(items(length(min = 1)))]
    tags: Vec<String>,
}

#[test]
fn the_same_problem_at_several_items_is_said_once_with_their_indices() {
    let mut tags = vec![json!(""); 11];
    tags[4] = json!("ok");
    tags[6] = json!(7);
    let err = check::<Tags>(json!({ "tags": tags })).unwrap_err();
    // One entry each in the structured list.
    assert_eq!(err.violations().len(), 10);
    let text = err.text();
    let lines: Vec<&str> = text.lines().skip(1).take(2).collect();
    assert_eq!(
        lines,
        [
            "- tags/0, 1, 2, 3, 5, 7, 8, 9, 10: must have at least 1 character; got \"\". It has 0 characters.",
            "- tags/6: must be a string; got 7.",
        ]
    );
}

#[derive(McpTool, Deserialize, Debug)]
struct Wide {
    big: Option<u128>,
    signed: Option<i128>,
    count: Option<std::num::NonZeroU32>,
    offset: Option<std::num::NonZeroI64>,
    #[validate(range(max = 10))]
    small: Option<std::num::NonZeroU8>,
}

#[test]
fn wide_and_nonzero_integers_bound_themselves() {
    ok::<Wide>(json!({"big": u64::MAX, "signed": i64::MIN, "count": 1, "offset": -1, "small": 10}));
    fails::<Wide>(json!({"big": -1}), "/big", "type");
    // Past what JSON as this server reads it holds exactly: enforced, untold.
    fails::<Wide>(json!({"big": 1e20}), "/big", "integer_range");
    fails::<Wide>(json!({"count": 0}), "/count", "type");
    fails::<Wide>(json!({"offset": 0}), "/offset", "not_zero");
    fails::<Wide>(json!({"offset": -0.0}), "/offset", "not_zero");
    fails::<Wide>(json!({"small": 11}), "/small", "range");
    let read = check::<Wide>(json!({"big": 7, "signed": -7, "count": 3})).unwrap();
    assert_eq!(
        (read.big, read.signed, read.count.map(|c| c.get())),
        (Some(7), Some(-7), Some(3))
    );
    let schema = Wide::input_schema();
    let property = |name: &str| schema["properties"][name].clone();
    assert_eq!(inner(&property("count"))["minimum"], 1);
    assert_eq!(inner(&property("big"))["minimum"], 0);
    assert_eq!(property("big").get("description"), None);
    assert_eq!(inner(&property("count"))["maximum"], u32::MAX);
    assert!(
        property("offset")["description"]
            .as_str()
            .unwrap()
            .contains("Not 0.")
    );
    assert_eq!(inner(&property("small"))["maximum"], 10);
}

static COUNTED_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn counted(code: &str) -> Result<(), String> {
    COUNTED_CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    if code.is_empty() {
        return Err("must not be empty".into());
    }
    Ok(())
}

/// A nested struct whose custom rule comes before a field that may fail.
#[derive(Argument, Deserialize, Debug)]
struct CountedPart {
    #[validate(custom = counted)]
    code: String,
    #[validate(range(max = 9))]
    seats: u8,
}

#[derive(McpTool, Deserialize, Debug)]
struct CountedCalls {
    #[validate(custom = counted)]
    code: String,
    part: Option<CountedPart>,
    #[validate(range(max = 9))]
    seats: u8,
}

/// A walk of valid arguments that judged an author's function, then handed the call
/// to the full check, would run it twice: where the function itself refuses, and
/// where a field after it fails inside a nested struct (only the root's passed
/// fields are skipped).
#[test]
fn an_authors_function_runs_once_a_call() {
    use std::sync::atomic::Ordering;
    let part = |seats: u8| json!({"code": "B", "seats": seats});
    ok::<CountedCalls>(json!({"code": "A", "part": part(1), "seats": 2}));
    assert_eq!(COUNTED_CALLS.swap(0, Ordering::SeqCst), 2);
    for args in [
        json!({"code": "", "seats": 2}),
        json!({"code": "A", "seats": 12}),
        json!({"code": "A", "part": part(12), "seats": 2}),
    ] {
        let calls = if args.get("part").is_some() { 2 } else { 1 };
        assert!(check::<CountedCalls>(args.clone()).is_err(), "{args}");
        assert_eq!(COUNTED_CALLS.swap(0, Ordering::SeqCst), calls, "{args}");
    }
}
