//! Every fast path gives the answers of the plain code it stands in front of: each
//! input is checked with every fast path on, with each one off, and with all off, and
//! the results a client would see must be the same. (One test in a binary of its own:
//! the switch is the process's.)
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/workload.rs"]
mod workload;

use mcp_tool::__private::{FastPath, only_off};
use mcp_tool::McpTool;
use serde::Deserialize;
use serde_json::{Value, json};
use workload::BookFlight;

/// Patterns for each engine (a fixed run, `regex` for the rest), dates in a
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

fn answer<T: McpTool>(args: &Value) -> Value {
    match T::from_arguments(args.clone()) {
        Ok(_) => json!("ok"),
        Err(e) => e.to_call_result().to_value(),
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
    let answers = || -> Vec<Value> {
        let flights = flights.iter().map(answer::<BookFlight>);
        flights.chain(mixed.iter().map(answer::<Mixed>)).collect()
    };
    only_off(&[]);
    let fast = answers();
    assert!(fast.iter().filter(|a| **a != json!("ok")).count() >= 5);
    for path in FastPath::ALL {
        only_off(&[path]);
        assert_eq!(answers(), fast, "with {} off", path.name());
    }
    only_off(&FastPath::ALL);
    assert_eq!(answers(), fast, "with every fast path off");
    only_off(&[]);
}
