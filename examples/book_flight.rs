//! The tool from the README: its schema, a valid call and a call with several mistakes,
//! each printed as the JSON a client receives.
//!
//! ```sh
//! cargo run --example book_flight
//! ```

use mcp_tool_runtime::{CallToolResult, Context, McpTool, ToolError};
use serde::Deserialize;
use serde_json::{Value, json};

/// Book a flight for one or more passengers.
#[derive(McpTool, Deserialize)]
#[mcp_tool(name = "book_flight", destructive = false, open_world)]
struct BookFlight {
    /// Departure airport, IATA code.
    #[validate(regex(
        pattern = r"^[A-Z]{3}$",
        hint = "Use the three-letter IATA code, such as CDG."
    ))]
    origin: String,
    /// Arrival airport, IATA code.
    #[validate(regex(
        pattern = r"^[A-Z]{3}$",
        hint = "Use the three-letter IATA code, such as JFK."
    ))]
    destination: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure_date: String,
    #[validate(enum = ["economy", "premium_economy", "business", "first"])]
    cabin: String,
    #[validate(range(min = 1, max = 9))]
    passengers: u8,
    /// Where the confirmation is sent.
    #[validate(email)]
    email: Option<String>,
}

fn book(flight: &BookFlight) -> Value {
    json!({
        "confirmation": "PNR-7XQ2KD",
        "route": format!("{} -> {}", flight.origin, flight.destination),
        "date": flight.departure_date,
        "cabin": flight.cabin,
        "passengers": flight.passengers,
        "confirmation_sent_to": flight.email,
    })
}

/// What a server answers to `tools/call` for this tool.
fn call(arguments: &Value, context: &Context) -> Value {
    let result = match BookFlight::from_arguments_in(arguments, context) {
        Ok(flight) => CallToolResult::success(book(&flight)),
        Err(err) => ToolError::to_call_result(&err),
    };
    result.to_value()
}

fn print(title: &str, value: &Value) {
    println!("== {title}");
    println!(
        "{}\n",
        serde_json::to_string_pretty(value).expect("JSON values serialize")
    );
}

fn main() {
    // Fixed so that the output is the same every day; a server uses Context::now()
    // or Context::in_time_zone("Europe/Paris").
    let today = Context::on(2026, 11, 30).expect("a valid date");

    print(
        "tools/list entry",
        &serde_json::to_value(BookFlight::tool()).expect("a tool serializes"),
    );

    let valid = json!({
        "origin": "CDG",
        "destination": "JFK",
        "departure_date": "15/01/2027",
        "cabin": "business",
        "passengers": 2,
    });
    print("tools/call with valid arguments", &call(&valid, &today));

    let mistakes = json!({
        "origin": "Paris",
        "destination": "JFK",
        "departure_date": "12/12/2024",
        "cabin": "PROCESSING",
        "passengers": "two",
        "email": "not-an-address",
    });
    print("tools/call with several mistakes", &call(&mistakes, &today));
}
