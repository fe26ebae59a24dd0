//! Valid arguments cost no allocation beyond the value itself: `from_arguments` on them
//! allocates exactly what `serde_json::from_value` allocates reading the same owned JSON
//! into the same fields unchecked (strings are moved, not copied, by both). Counted by
//! a global allocator, per thread (`support/counting.rs`); each is given its own copy
//! of the value, made before counting.

use mcp_tool::{Context, McpTool};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use workload::{BookFlight, Plain as PlainBookFlight};

#[path = "support/counting.rs"]
mod counting;
#[path = "support/workload.rs"]
mod workload;

/// How many allocations `f` makes on this thread (what it returns is dropped after).
fn allocations<R>(f: impl FnOnce() -> R) -> usize {
    let (before, _) = counting::counts();
    let out = f();
    let n = counting::counts().0 - before;
    drop(out);
    n
}

/// Asserts that checking and reading `arguments` into `T` allocates what reading them
/// into its unchecked twin `Plain` does; returns how many times that is.
fn assert_only_the_value<T: McpTool, Plain: DeserializeOwned>(arguments: Value) -> usize {
    let context = Context::on(2026, 11, 30).unwrap();
    // Compiled patterns and the spec's caches are made once per process: not per call.
    T::from_arguments_in(arguments.clone(), &context).expect("valid arguments");
    let copy = arguments.clone();
    let checked = allocations(|| T::from_arguments_in(copy, &context).unwrap());
    let copy = arguments.clone();
    let plain = allocations(|| serde_json::from_value::<Plain>(copy).unwrap());
    assert_eq!(
        checked, plain,
        "from_arguments allocated {checked} times, serde alone {plain}: {arguments}"
    );
    checked
}

/// One leg of a trip.
#[derive(McpTool, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Leg {
    #[validate(regex = r"^[A-Z]{3}$")]
    from_code: String,
    #[validate(range(min = 0, max = 130))]
    age: Option<u8>,
    #[validate(items(length(min = 1, max = 20)))]
    seats: Vec<String>,
}

/// A trip of legs.
#[derive(McpTool, Deserialize)]
#[allow(dead_code)]
struct Trip {
    #[validate(length(min = 1))]
    legs: Vec<Leg>,
    first: Option<Leg>,
    #[validate(uuid)]
    id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct PlainLeg {
    from_code: String,
    age: Option<u8>,
    seats: Vec<String>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainTrip {
    legs: Vec<PlainLeg>,
    first: Option<PlainLeg>,
    id: String,
}

#[test]
fn the_workload_allocates_only_its_value() {
    // The list is a new Vec: serde allocates it, and so may we.
    let with_list = assert_only_the_value::<BookFlight, PlainBookFlight>(json!({
        "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
        "cabin": "business", "passengers": 2, "email": "ada@example.com",
        "notes": "Window seat, please.", "loyalty_ids": ["AF123456", "KL654321"]
    }));
    assert!(with_list > 0);
    // Strings and numbers only: each string is moved out of the value, none copied.
    let flat = assert_only_the_value::<BookFlight, PlainBookFlight>(json!({
        "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
        "cabin": "first", "passengers": 9
    }));
    assert_eq!(flat, 0, "owned arguments are read without a copy");
}

#[test]
fn nested_structs_and_lists_allocate_only_their_value() {
    assert_only_the_value::<Trip, PlainTrip>(json!({
        "legs": [
            {"fromCode": "CDG", "age": 30, "seats": ["12A", "12B"]},
            {"fromCode": "JFK", "seats": []},
        ],
        "first": {"fromCode": "LHR", "seats": ["1A"]},
        "id": "123e4567-e89b-12d3-a456-426614174000",
    }));
}

fn known_code(code: &str) -> Result<(), mcp_tool::Invalid> {
    if code.len() == 3 {
        Ok(())
    } else {
        Err(mcp_tool::Invalid::new("must be a known airport code"))
    }
}

/// A field judged by the author's own function.
#[derive(McpTool, Deserialize)]
#[allow(dead_code)]
struct Airport {
    #[validate(custom = known_code)]
    code: String,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainAirport {
    code: String,
}

/// An author's function is never sure in the walk, so every call with one takes the
/// full check: the string it judges is lent from the arguments there, not copied.
#[test]
fn a_string_is_lent_to_the_authors_function() {
    assert_only_the_value::<Airport, PlainAirport>(json!({"code": "CDG"}));
}
