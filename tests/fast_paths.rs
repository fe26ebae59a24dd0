//! Every fast path gives the answers of the plain code it stands in front of: each
//! input is checked with every fast path on, with each one off, and with all off, and
//! the results a client would see must be the same. (One test in a binary of its own:
//! the switch is the process's.)
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/cabin.rs"]
mod cabin;
#[path = "support/workload.rs"]
mod workload;

use mcp_tool::__private::{FastPath, only_off};
use std::collections::HashMap;

use cabin::Cabin;
use mcp_tool::{Argument, McpTool, SchemaProfile, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use workload::BookFlight;

/// Patterns for each matcher (pieces, `regex` for the rest), dates in a
/// numeric format and in one with month names, and many fields for the slots.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Mixed {
    #[validate(regex = r"^[A-Z]{2,3}-[0-9]+$")]
    code: Option<String>,
    #[validate(regex = r"^(?:[a-z]+\.)*[a-z]+$")]
    host: Option<String>,
    #[validate(regex = r"^[^<>]{1,40}(?:[a-z]{1,30}\.){0,10}$")]
    title: Option<String>,
    #[validate(past_date(format = "%d %B %Y"))]
    born: Option<String>,
    #[validate(future_date)]
    due: Option<String>,
    departure_airport_code: Option<String>,
    arrival_airport_code: Option<String>,
    #[serde(rename = "число")]
    number: Option<u8>,
}

/// A derived struct inside a list, an enum of unit variants, an integer.
#[derive(Argument, Deserialize, Debug)]
struct Leg {
    #[validate(regex = r"^[A-Z]{3}$")]
    from: String,
    cabin: Cabin,
    #[validate(range(min = 1))]
    seats: u8,
}

/// Every shape the walk of valid arguments takes, and the ones it leaves to the full
/// check: a former name, a map, a default, a list's rules.
#[derive(McpTool, Deserialize, Debug)]
struct Trip {
    #[validate(length(min = 1, max = 3), unique)]
    legs: Vec<Leg>,
    note: Option<String>,
    #[serde(default)]
    budget: f64,
    #[serde(alias = "traveller")]
    traveler: Option<String>,
    tags: Option<HashMap<String, String>>,
}

/// A sensitive field: where it is must be known to hide it in an echo.
#[derive(McpTool, Deserialize, Debug)]
struct Locked {
    #[validate(sensitive, length(equal = 4))]
    pin: String,
    tries: Option<u8>,
}

fn answer<T: McpTool>(args: &Value) -> Value {
    match T::from_arguments(args.clone()) {
        Ok(_) => json!("ok"),
        Err(e) => e.to_call_result().to_value(),
    }
}

/// What a client sees of a call through a `Toolbox` (repairs on) and through
/// OpenAI's profile (`null` as "left out").
fn served(tools: &[Toolbox; 2], args: &Value) -> Vec<Value> {
    tools
        .iter()
        .map(|tools| {
            let result = block_on(tools.call("trip", args.clone()));
            result.map_or_else(|e| json!(e.to_string()), |r| r.to_value())
        })
        .collect()
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(future)
}

async fn trip(_: Trip) -> Result<Value, ToolError> {
    Ok(json!({"booked": true}))
}

/// Each answer as with every fast path on, told apart by its place in the list.
fn same(answers: &[Value], fast: &[Value], off: &str) {
    assert_eq!(answers.len(), fast.len());
    for (i, (answer, expected)) in answers.iter().zip(fast).enumerate() {
        assert_eq!(answer, expected, "answer {i}, {off}");
    }
}

#[test]
fn each_fast_path_answers_as_the_plain_code() {
    let flights = [
        json!({"origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
               "cabin": "business", "passengers": 2, "loyalty_ids": ["AF123456", "KL65432"]}),
        json!({"origin": "Paris", "destination": "jfk", "departure_date": "12/12/2024",
               "cabin": "PROCESSING", "passengers": 12, "email": "ada@"}),
        json!({"origin": "CDG", "departureDate": "31/02/2099", "cabin": "Buisness",
               "passengers": "two", "destinaton": "JFK", "пассажиры": 1}),
        json!({"origin": "ÀBC", "destination": "JF", "departure_date": "1/1/2099",
               "cabin": "first", "passengers": 1, "loyalty_ids": ["af123456", "AF1234567"]}),
        // A required field missing among fields that pass and one that fails; a field
        // in another case style, a `null`, a key no field has.
        json!({"cabin": "business", "departure_date": "15/01/2099", "email": "ada@example.com",
               "origin": "CDG", "passengers": "two"}),
        json!({"cabin": "economy", "departureDate": "15/01/2099", "destination": "JFK",
               "notes": null, "origin": "CDG", "passengers": 2, "zzz": 1}),
        // A field that fails before fields that pass, in the order of the keys; a field
        // sent twice, under its name and in another case style.
        json!({"Origin": "CDG", "cabin": "Buisness", "departure_date": "15/01/2099",
               "destination": "JFK", "email": "ada@example.com", "origin": "CDG",
               "passengers": 2}),
        json!({"cabin": "first", "departure_date": "1/1/2099", "destination": "JFK",
               "loyalty_ids": ["AF123456"], "origin": "CDG", "passengers": "2"}),
    ];
    let mixed = [
        json!({"code": "AB-12", "host": "a.b.c", "title": "Émile", "born": "05 March 1990",
               "due": "2099-01-01"}),
        json!({"code": "A-1", "host": "a..b", "title": "<émile>", "born": "5 March 1990",
               "due": "2001-01-01", "departureAirportcode": "CDG", "arrival_airport_code": "JFK",
               "chislo": 3}),
        json!({"code": "ABCD-", "born": "05 Mars 1990", "due": "2099-13-01",
               "departure_airport_codes": "CDG", "числа": 2}),
    ];
    let leg = json!({"from": "CDG", "cabin": "economy", "seats": 1});
    let trips = [
        json!({"legs": [leg], "note": "aisle", "budget": 120.5, "traveler": "Ada"}),
        json!({"legs": [leg, {"from": "JFK", "cabin": "business", "seats": 2}], "tags": {"a": "b"}}),
        json!({"legs": [leg], "traveller": "Ada"}),
        json!({"legs": [leg], "note": null, "budget": null}),
        json!({"legs": [{"from": "CDG", "cabin": "economy", "seats": 1.0}]}),
        json!({"legs": [{"from": "CDG", "cabin": "Economy", "seats": 1}]}),
        json!({"legs": "[{\"from\": \"CDG\", \"cabin\": \"economy\", \"seats\": 1}]"}),
        json!({"legs": [leg, leg]}),
        json!({"legs": [{"from": "CDG", "cabin": "first", "seats": 0}], "budget": "12"}),
        json!({"legs": [], "Note": "x"}),
        json!({"legs": [leg], "budget": 3}),
        json!({"budget": 5, "note": null, "traveller": "Ada", "traveler": "Bo"}),
        json!({"budget": "5", "note": "aisle", "tags": {"a": 1}}),
    ];
    let tools = [
        Toolbox::new().tool(trip),
        Toolbox::new()
            .schema_profile(SchemaProfile::OpenAi)
            .tool(trip),
    ];
    let answers = || -> Vec<Value> {
        let flights = flights.iter().map(answer::<BookFlight>);
        let trips_read = trips.iter().map(answer::<Trip>);
        let trips_served = trips.iter().flat_map(|args| served(&tools, args));
        let locked = [
            json!({"pin": "1234", "tries": 2}),
            json!({"pin": "12", "tries": 2.0}),
        ];
        flights
            .chain(mixed.iter().map(answer::<Mixed>))
            .chain(trips_read)
            .chain(locked.iter().map(answer::<Locked>))
            .chain(trips_served)
            .collect()
    };
    only_off(&[]);
    let fast = answers();
    assert!(fast.iter().filter(|a| **a != json!("ok")).count() >= 5);
    // Some calls of each shape pass, served and read alike.
    let passed = |a: &&Value| **a == json!("ok") || a["isError"] == json!(false);
    assert!(fast.iter().filter(passed).count() >= 12);
    for path in FastPath::ALL {
        only_off(&[path]);
        same(&answers(), &fast, &format!("with {} off", path.name()));
    }
    only_off(&FastPath::ALL);
    same(&answers(), &fast, "with every fast path off");
    only_off(&[]);
}
