//! Snapshots of what a client sees: the `tools/list` entry and the results of calls.
//! Any change to them shows in review.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{Argument, Context, McpEnum, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

/// Book a flight for one or more passengers.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(
    name = "book_flight",
    title = "Book a flight",
    destructive,
    idempotent = false
)]
struct BookFlight {
    /// Departure airport, IATA code.
    #[validate(regex = r"^[A-Z]{3}$")]
    origin: String,
    /// Arrival airport, IATA code.
    #[validate(regex = r"^[A-Z]{3}$")]
    destination: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure_date: String,
    #[validate(enum = ["economy", "premium_economy", "business", "first"])]
    cabin: String,
    #[validate(range(min = 1, max = 9))]
    passengers: u8,
    #[validate(email)]
    email: Option<String>,
}

/// Seat preference.
#[derive(McpEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Seat {
    Window,
    Aisle,
}

/// A traveller.
#[derive(McpTool, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Traveller {
    #[validate(length(min = 1, max = 80))]
    full_name: String,
    #[validate(range(min = 0, max = 130))]
    age: u8,
    seat: Option<Seat>,
    #[validate(sensitive, regex = r"^[A-Z0-9]{9}$")]
    passport: Option<String>,
}

/// Book seats for a group.
#[derive(McpTool, Deserialize)]
#[mcp_tool(allow_unknown_fields, read_only = false)]
struct GroupBooking {
    #[validate(length(min = 1, max = 9))]
    travellers: Vec<Traveller>,
    #[validate(items(regex = r"^[A-Z]{2}[0-9]{6}$"), length(max = 9))]
    loyalty_ids: Option<Vec<String>>,
    #[validate(range(exclusive_min = 0, max = 10000.5))]
    budget: Option<f64>,
    #[serde(default)]
    notes: String,
}

fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

fn result<T: McpTool>(args: Value) -> Value {
    match T::from_arguments_in(args, &today()) {
        Ok(_) => json!("ok"),
        Err(e) => e.to_call_result().to_value(),
    }
}

#[test]
fn book_flight_tool() {
    insta::assert_json_snapshot!(BookFlight::tool());
}

#[test]
fn group_booking_tool() {
    insta::assert_json_snapshot!(GroupBooking::tool());
}

#[test]
fn book_flight_several_mistakes() {
    insta::assert_json_snapshot!(result::<BookFlight>(json!({
        "origin": "cdg",
        "departureDate": "12/12/2024",
        "cabin": "PROCESSING",
        "passengers": "two",
        "email": "ada@",
    })));
}

#[test]
fn book_flight_contract_example() {
    insta::assert_json_snapshot!(result::<BookFlight>(json!({
        "origin": "CDG",
        "destination": "JFK",
        "departure_date": "12/12/2024",
        "cabin": "PROCESSING",
        "passengers": 2,
    })));
}

#[test]
fn group_booking_nested_errors() {
    insta::assert_json_snapshot!(result::<GroupBooking>(json!({
        "travellers": [
            {"fullName": "Ada Lovelace", "age": 36, "seat": "window"},
            {"fullName": "", "age": 200, "seat": "middle", "passport": "secret-passport-no"},
            {"full_name": "Bob", "age": 1.5},
        ],
        "loyalty_ids": ["AF123456", "af12345"],
        "budget": 0,
        "anything": "is allowed here",
    })));
}

/// Tag a photo.
#[derive(McpTool, Deserialize, Debug)]
struct TagPhoto {
    /// Tags, each once.
    #[validate(unique, items(length(min = 1)))]
    tags: Vec<String>,
}

#[test]
fn unique_tool_and_repeats() {
    insta::assert_json_snapshot!(TagPhoto::tool());
    insta::assert_json_snapshot!(result::<TagPhoto>(json!({"tags": ["sea", "", "sea"]})));
}

#[test]
fn arguments_that_are_not_an_object() {
    let err = BookFlight::from_arguments_in(json!([1, 2]), &today()).unwrap_err();
    assert!(err.is_malformed_request());
    insta::assert_json_snapshot!(err.to_jsonrpc_error());
    // Absent arguments are an empty object: every required field is missing.
    insta::assert_json_snapshot!("null_arguments", result::<BookFlight>(Value::Null));
}

#[test]
fn hostile_sizes_give_a_small_result() {
    let mut args = serde_json::Map::new();
    for i in 0..100_000 {
        args.insert(format!("unknown_{i}"), json!(i));
    }
    args.insert("origin".into(), json!("x".repeat(10_000_000)));
    let err = BookFlight::from_arguments_in(Value::Object(args), &today()).unwrap_err();
    let text = serde_json::to_string(&err.to_call_result()).unwrap();
    assert!(text.len() < 40_000, "result is {} bytes", text.len());
    assert_eq!(err.violations().len(), mcp_tool::argument::MAX_LISTED);
    assert!(err.omitted_violations() > 99_000);
    assert!(err.text().contains("more problems not listed"));
}

#[test]
fn deep_nesting_is_echoed_shallowly() {
    // Built by hand: json!'s interpolation would serialize the value recursively.
    let mut deep = Value::from("bottom");
    for _ in 0..5_000 {
        deep = Value::Array(vec![deep]);
    }
    let mut args = json!({"cabin": {"a": {"b": {"c": {"d": {"e": 1}}}}}});
    args["origin"] = deep;
    let err = BookFlight::from_arguments_in(args, &today()).unwrap_err();
    let text = serde_json::to_string(&err.to_call_result()).unwrap();
    assert!(text.len() < 10_000, "result is {} bytes", text.len());
    assert_eq!(err.violations()[0].path, "/origin");
    // The error keeps the arguments, and serde_json drops deep values recursively:
    // leak this one rather than test that (a value off the wire is 128 levels at most).
    std::mem::forget(err);
}

/// The booking a handler returns: its schema becomes the tool's `outputSchema`.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Booking {
    /// The booking reference.
    confirmation: String,
    seats: Vec<String>,
    /// Where the confirmation went, if anywhere.
    sent_to: Option<String>,
}

async fn book(args: BookFlight) -> Result<Booking, mcp_tool::ToolError> {
    use mcp_tool::ToolError;
    use std::time::Duration;
    match args.origin.as_str() {
        "LHR" => Err(
            ToolError::business("Flights from LHR are sold out this winter.")
                .with_hint("Offer LGW or STN."),
        ),
        "JFK" => Err(ToolError::permission(
            "This account may not book for others.",
        )),
        "ORY" => Err(ToolError::transient("The seat map did not load.")
            .with_partial_results(json!({"fare": 41000}))
            .retry_after(Duration::from_secs(10))),
        _ => Ok(Booking {
            confirmation: "PNR-7XQ2KD".into(),
            seats: vec!["12A".into()],
            sent_to: args.email,
        }),
    }
}

fn served(origin: &str) -> Value {
    let tools = mcp_tool::Toolbox::new().in_context(today()).tool(book);
    let arguments = json!({
        "origin": origin, "destination": "CDG", "departure_date": "15/01/2027",
        "cabin": "first", "passengers": 1
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime
        .block_on(tools.call("book_flight", arguments))
        .unwrap()
        .to_value()
}

#[test]
fn served_tool_with_output_schema() {
    let tools = mcp_tool::Toolbox::new().tool(book);
    insta::assert_json_snapshot!(tools.list());
}

#[test]
fn served_results_per_category() {
    insta::assert_json_snapshot!("served_success", served("NCE"));
    insta::assert_json_snapshot!("served_business", served("LHR"));
    insta::assert_json_snapshot!("served_permission", served("JFK"));
    insta::assert_json_snapshot!("served_transient", served("ORY"));
}

/// List the buckets.
#[derive(McpTool, Deserialize, Debug)]
struct ListBuckets {}

/// A tool that takes no arguments says so, not "the arguments are ." with nothing
/// listed.
#[test]
fn a_tool_without_arguments_told_an_unknown_name() {
    insta::assert_json_snapshot!(result::<ListBuckets>(json!({"bucket": "logs"})));
}

/// Get an object.
#[derive(McpTool, Deserialize, Debug)]
struct GetObject {
    /// S3 object key, such as logs/2026/11/30.gz.
    key: String,
}

/// A missing field is described in its author's words, their case kept ("S3", not
/// "s3").
#[test]
fn a_missing_field_is_described_as_its_author_wrote_it() {
    insta::assert_json_snapshot!(result::<GetObject>(json!({})));
}

/// An entity's name.
#[derive(Argument, Deserialize)]
#[validate(regex(
    pattern = r"^[^\x00-\x1F\x7F]*$",
    hint = "Names have no control characters: remove line breaks and tabs."
))]
struct EntityName(String);

/// Rename an entity.
#[derive(McpTool, Deserialize, Debug)]
struct RenameEntity {
    #[validate(like = EntityName)]
    from: String,
    #[validate(like = EntityName)]
    to: String,
    #[validate(like = EntityName)]
    note: Option<String>,
}

/// A shared rule's hint speaks where its rule fails, not where a value of another type
/// or `null` came: there the type is what to fix.
#[test]
fn a_shared_rule_s_hint_is_not_told_to_a_type_error() {
    insta::assert_json_snapshot!(result::<RenameEntity>(json!({
        "from": null,
        "to": 7,
        "note": "a\nb",
    })));
}
