//! Two more workloads of other shapes for the interleaved harness, each with every
//! contender of `contenders.rs` written for it: `flight_b`, a `book_flight` shaped
//! otherwise (a required email, `i64` passengers, a pattern beside the date check,
//! longer notes), and `order`, nested objects in a list (a customer, order lines, a
//! whitelist, an optional coupon). Every contender but this crate checks the date with
//! the one shared function, `contenders::is_future_date`.

use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::contenders::{by_hand_email, is_future_date};

/// A list of (path, message), or the value read.
pub type Checked<T> = Result<T, Vec<(String, String)>>;

fn list<E: ToString>(errors: impl IntoIterator<Item = (String, E)>) -> Vec<(String, String)> {
    errors
        .into_iter()
        .map(|(p, e)| (p, e.to_string()))
        .collect()
}

fn serde_error(e: serde_json::Error) -> Vec<(String, String)> {
    vec![(String::new(), e.to_string())]
}

fn jsonschema_errors(schema: &jsonschema::Validator, args: &Value) -> Vec<(String, String)> {
    schema
        .iter_errors(args)
        .map(|e| (e.instance_path().to_string(), e.to_string()))
        .collect()
}

fn compiled(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

pub mod flight_b {
    use super::*;
    use mcp_tool::McpTool;

    const CABINS: &[&str] = &["economy", "premium_economy", "business", "first"];

    /// Book a flight (another shape).
    #[derive(McpTool, Deserialize, Debug)]
    #[allow(dead_code)]
    pub struct BookFlightB {
        #[validate(email)]
        pub email: String,
        #[validate(regex = r"^[A-Z]{3}$")]
        pub origin: String,
        #[validate(regex = r"^[A-Z]{3}$")]
        pub destination: String,
        #[validate(future_date(format = "%d/%m/%Y"))]
        pub departure_date: String,
        #[validate(regex = r"^[0-9]{2}:[0-9]{2}$")]
        pub departure_time: String,
        #[validate(enum = CABINS)]
        pub cabin: String,
        #[validate(range(min = 1, max = 9))]
        pub passengers: i64,
        #[validate(length(max = 2000))]
        pub notes: Option<String>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    pub struct Plain {
        email: String,
        origin: String,
        destination: String,
        departure_date: String,
        departure_time: String,
        cabin: String,
        passengers: i64,
        notes: Option<String>,
    }

    pub fn inputs() -> [(&'static str, Value); 3] {
        let notes = "Two travellers with one checked bag each; a window seat and an aisle seat next to each other if the aircraft allows it, otherwise any two seats in the same row. ".repeat(3);
        [
            (
                "valid",
                json!({
                    "email": "ada@example.com", "origin": "CDG", "destination": "JFK",
                    "departure_date": "15/01/2099", "departure_time": "09:45",
                    "cabin": "business", "passengers": 2, "notes": notes,
                }),
            ),
            (
                "four_errors",
                json!({
                    "email": "ada.example.com", "origin": "Paris", "destination": "JFK",
                    "departure_date": "12/12/2024", "departure_time": "09:45",
                    "cabin": "business", "passengers": 0, "notes": notes,
                }),
            ),
            (
                "type_errors",
                json!({
                    "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
                    "departure_time": "09:45", "cabin": "business", "passengers": "two",
                }),
            ),
        ]
    }

    static IATA: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^[A-Z]{3}$").unwrap());
    static TIME: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^[0-9]{2}:[0-9]{2}$").unwrap());

    pub mod with_garde {
        use super::*;
        use garde::Validate;

        fn future(value: &str, _: &()) -> garde::Result {
            is_future_date(value)
                .then_some(())
                .ok_or_else(|| garde::Error::new("must be a date in the future"))
        }

        fn known_cabin(value: &str, _: &()) -> garde::Result {
            CABINS
                .contains(&value)
                .then_some(())
                .ok_or_else(|| garde::Error::new("must be one of the cabins"))
        }

        #[derive(Deserialize, Validate)]
        pub struct Garde {
            #[garde(email)]
            email: String,
            #[garde(pattern(r"^[A-Z]{3}$"))]
            origin: String,
            #[garde(pattern(r"^[A-Z]{3}$"))]
            destination: String,
            #[garde(custom(future))]
            departure_date: String,
            #[garde(pattern(r"^[0-9]{2}:[0-9]{2}$"))]
            departure_time: String,
            #[garde(custom(known_cabin))]
            cabin: String,
            #[garde(range(min = 1, max = 9))]
            passengers: i64,
            #[garde(length(chars, max = 2000))]
            notes: Option<String>,
        }

        pub fn check(args: Value) -> Checked<Garde> {
            let value = serde_json::from_value::<Garde>(args).map_err(serde_error)?;
            match value.validate() {
                Ok(()) => Ok(value),
                Err(report) => Err(list(report.iter().map(|(p, e)| (p.to_string(), e)))),
            }
        }
    }

    pub mod with_validator {
        use super::*;
        use validator::{Validate, ValidationError};

        fn future(value: &str) -> Result<(), ValidationError> {
            is_future_date(value)
                .then_some(())
                .ok_or_else(|| ValidationError::new("future_date"))
        }

        fn cabin(value: &str) -> Result<(), ValidationError> {
            CABINS
                .contains(&value)
                .then_some(())
                .ok_or_else(|| ValidationError::new("enum"))
        }

        #[derive(Deserialize, Validate)]
        pub struct Validator {
            #[validate(email)]
            email: String,
            #[validate(regex(path = *IATA))]
            origin: String,
            #[validate(regex(path = *IATA))]
            destination: String,
            #[validate(custom(function = "future"))]
            departure_date: String,
            #[validate(regex(path = *TIME))]
            departure_time: String,
            #[validate(custom(function = "cabin"))]
            cabin: String,
            #[validate(range(min = 1, max = 9))]
            passengers: i64,
            #[validate(length(max = 2000))]
            notes: Option<String>,
        }

        pub fn check(args: Value) -> Checked<Validator> {
            let value = serde_json::from_value::<Validator>(args).map_err(serde_error)?;
            match value.validate() {
                Ok(()) => Ok(value),
                Err(errors) => Err(errors
                    .field_errors()
                    .into_iter()
                    .flat_map(|(f, es)| es.iter().map(move |e| (f.to_string(), e.to_string())))
                    .collect()),
            }
        }
    }

    pub mod with_jsonschema {
        use super::*;

        static SCHEMA: LazyLock<jsonschema::Validator> =
            LazyLock::new(|| compiled(BookFlightB::input_schema()));

        pub fn check(args: Value) -> Checked<Plain> {
            let mut errors = jsonschema_errors(&SCHEMA, &args);
            if let Some(date) = args.get("departure_date").and_then(Value::as_str)
                && !is_future_date(date)
            {
                errors.push(("/departure_date".into(), "must be in the future".into()));
            }
            if !errors.is_empty() {
                return Err(errors);
            }
            serde_json::from_value(args).map_err(serde_error)
        }

        pub fn warm() {
            LazyLock::force(&SCHEMA);
        }
    }

    /// The rules written by hand for these fields, after serde: the bound.
    pub mod by_hand {
        use super::*;

        fn is_time(s: &str) -> bool {
            let b = s.as_bytes();
            b.len() == 5 && b[2] == b':' && [0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_digit())
        }

        pub fn check(args: Value) -> Checked<Plain> {
            let v = serde_json::from_value::<Plain>(args).map_err(serde_error)?;
            let mut errors = Vec::new();
            let mut fail = |p: &str, m: &str| errors.push((p.to_owned(), m.to_owned()));
            let iata = |s: &str| s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase());
            if !by_hand_email(&v.email) {
                fail("/email", "must be an email address");
            }
            if !iata(&v.origin) {
                fail("/origin", "must be three capital letters");
            }
            if !iata(&v.destination) {
                fail("/destination", "must be three capital letters");
            }
            if !is_future_date(&v.departure_date) {
                fail("/departure_date", "must be a date in the future");
            }
            if !is_time(&v.departure_time) {
                fail("/departure_time", "must be hh:mm");
            }
            if !CABINS.contains(&v.cabin.as_str()) {
                fail("/cabin", "must be one of the cabins");
            }
            if !(1..=9).contains(&v.passengers) {
                fail("/passengers", "must be from 1 to 9");
            }
            if v.notes
                .as_deref()
                .is_some_and(|n| n.len() > 2000 && n.chars().count() > 2000)
            {
                fail("/notes", "must have at most 2000 characters");
            }
            if errors.is_empty() {
                Ok(v)
            } else {
                Err(errors)
            }
        }
    }
}

pub mod order {
    use super::*;
    use mcp_tool::{Argument, McpTool};

    const SHIPPING: &[&str] = &["standard", "express", "pickup"];

    /// Who orders.
    #[derive(Argument, Deserialize, Debug)]
    #[allow(dead_code)]
    pub struct Customer {
        #[validate(length(min = 1, max = 100))]
        pub name: String,
        #[validate(email)]
        pub email: String,
    }

    /// One line of an order.
    #[derive(Argument, Deserialize, Debug)]
    #[allow(dead_code)]
    pub struct Line {
        #[validate(regex = r"^[A-Z]{3}-[0-9]{4}$")]
        pub sku: String,
        #[validate(range(min = 1, max = 99))]
        pub quantity: u32,
    }

    /// Place an order.
    #[derive(McpTool, Deserialize, Debug)]
    #[allow(dead_code)]
    pub struct CreateOrder {
        pub customer: Customer,
        #[validate(length(min = 1, max = 20))]
        pub lines: Vec<Line>,
        #[validate(enum = SHIPPING)]
        pub shipping: String,
        #[validate(regex = r"^[A-Z0-9]{8}$")]
        pub coupon: Option<String>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    pub struct PlainCustomer {
        name: String,
        email: String,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    pub struct PlainLine {
        sku: String,
        quantity: u32,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    pub struct Plain {
        customer: PlainCustomer,
        lines: Vec<PlainLine>,
        shipping: String,
        coupon: Option<String>,
    }

    pub fn inputs() -> [(&'static str, Value); 3] {
        [
            (
                "valid",
                json!({
                    "customer": {"name": "Ada Lovelace", "email": "ada@example.com"},
                    "lines": [
                        {"sku": "LMP-0042", "quantity": 1},
                        {"sku": "CHR-0007", "quantity": 4},
                        {"sku": "TBL-1200", "quantity": 1},
                    ],
                    "shipping": "express", "coupon": "WELCOME1",
                }),
            ),
            (
                "four_errors",
                json!({
                    "customer": {"name": "Ada Lovelace", "email": "ada.example.com"},
                    "lines": [
                        {"sku": "LMP-0042", "quantity": 1},
                        {"sku": "chair", "quantity": 4},
                        {"sku": "TBL-1200", "quantity": 0},
                    ],
                    "shipping": "teleport", "coupon": "WELCOME1",
                }),
            ),
            (
                "type_errors",
                json!({
                    "customer": {"email": "ada@example.com"},
                    "lines": [{"sku": "LMP-0042", "quantity": "two"}],
                    "shipping": "express",
                }),
            ),
        ]
    }

    static SKU: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^[A-Z]{3}-[0-9]{4}$").unwrap());
    static COUPON: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^[A-Z0-9]{8}$").unwrap());

    pub mod with_garde {
        use super::*;
        use garde::Validate;

        fn known(value: &str, _: &()) -> garde::Result {
            SHIPPING
                .contains(&value)
                .then_some(())
                .ok_or_else(|| garde::Error::new("must be one of the ways to ship"))
        }

        #[derive(Deserialize, Validate)]
        pub struct GCustomer {
            #[garde(length(chars, min = 1, max = 100))]
            name: String,
            #[garde(email)]
            email: String,
        }

        #[derive(Deserialize, Validate)]
        pub struct GLine {
            #[garde(pattern(r"^[A-Z]{3}-[0-9]{4}$"))]
            sku: String,
            #[garde(range(min = 1, max = 99))]
            quantity: u32,
        }

        #[derive(Deserialize, Validate)]
        pub struct Garde {
            #[garde(dive)]
            customer: GCustomer,
            #[garde(length(min = 1, max = 20), dive)]
            lines: Vec<GLine>,
            #[garde(custom(known))]
            shipping: String,
            #[garde(pattern(r"^[A-Z0-9]{8}$"))]
            coupon: Option<String>,
        }

        pub fn check(args: Value) -> Checked<Garde> {
            let value = serde_json::from_value::<Garde>(args).map_err(serde_error)?;
            match value.validate() {
                Ok(()) => Ok(value),
                Err(report) => Err(list(report.iter().map(|(p, e)| (p.to_string(), e)))),
            }
        }
    }

    pub mod with_validator {
        use super::*;
        use validator::{Validate, ValidationError};

        fn known(value: &str) -> Result<(), ValidationError> {
            SHIPPING
                .contains(&value)
                .then_some(())
                .ok_or_else(|| ValidationError::new("enum"))
        }

        #[derive(Deserialize, serde::Serialize, Validate)]
        pub struct VCustomer {
            #[validate(length(min = 1, max = 100))]
            name: String,
            #[validate(email)]
            email: String,
        }

        // validator's `nested` on a list wants its items serializable.
        #[derive(Deserialize, serde::Serialize, Validate)]
        pub struct VLine {
            #[validate(regex(path = *SKU))]
            sku: String,
            #[validate(range(min = 1, max = 99))]
            quantity: u32,
        }

        #[derive(Deserialize, Validate)]
        pub struct Validator {
            #[validate(nested)]
            customer: VCustomer,
            #[validate(length(min = 1, max = 20), nested)]
            lines: Vec<VLine>,
            #[validate(custom(function = "known"))]
            shipping: String,
            #[validate(regex(path = *COUPON))]
            coupon: Option<String>,
        }

        pub fn check(args: Value) -> Checked<Validator> {
            let value = serde_json::from_value::<Validator>(args).map_err(serde_error)?;
            match value.validate() {
                Ok(()) => Ok(value),
                Err(errors) => {
                    let mut out = Vec::new();
                    flatten(&errors, "", &mut out);
                    Err(out)
                }
            }
        }

        fn flatten(
            errors: &validator::ValidationErrors,
            at: &str,
            out: &mut Vec<(String, String)>,
        ) {
            use validator::ValidationErrorsKind::{Field, List, Struct};
            for (field, kind) in errors.errors() {
                let path = format!("{at}/{field}");
                match kind {
                    Field(es) => out.extend(es.iter().map(|e| (path.clone(), e.to_string()))),
                    Struct(inner) => flatten(inner, &path, out),
                    List(items) => {
                        for (i, inner) in items {
                            flatten(inner, &format!("{path}/{i}"), out);
                        }
                    }
                }
            }
        }
    }

    pub mod with_jsonschema {
        use super::*;

        static SCHEMA: LazyLock<jsonschema::Validator> =
            LazyLock::new(|| compiled(CreateOrder::input_schema()));

        pub fn check(args: Value) -> Checked<Plain> {
            let errors = jsonschema_errors(&SCHEMA, &args);
            if !errors.is_empty() {
                return Err(errors);
            }
            serde_json::from_value(args).map_err(serde_error)
        }

        pub fn warm() {
            LazyLock::force(&SCHEMA);
        }
    }

    /// The rules written by hand for these fields, after serde: the bound.
    pub mod by_hand {
        use super::*;

        fn is_sku(s: &str) -> bool {
            let b = s.as_bytes();
            b.len() == 8
                && b[..3].iter().all(u8::is_ascii_uppercase)
                && b[3] == b'-'
                && b[4..].iter().all(u8::is_ascii_digit)
        }

        pub fn check(args: Value) -> Checked<Plain> {
            let v = serde_json::from_value::<Plain>(args).map_err(serde_error)?;
            let mut errors = Vec::new();
            let mut fail = |p: String, m: &str| errors.push((p, m.to_owned()));
            let name = v.customer.name.chars().count();
            if !(1..=100).contains(&name) {
                fail("/customer/name".into(), "must have 1 to 100 characters");
            }
            if !by_hand_email(&v.customer.email) {
                fail("/customer/email".into(), "must be an email address");
            }
            if !(1..=20).contains(&v.lines.len()) {
                fail("/lines".into(), "must have 1 to 20 lines");
            }
            for (i, line) in v.lines.iter().enumerate() {
                if !is_sku(&line.sku) {
                    fail(format!("/lines/{i}/sku"), "must be AAA-0000");
                }
                if !(1..=99).contains(&line.quantity) {
                    fail(format!("/lines/{i}/quantity"), "must be from 1 to 99");
                }
            }
            if !SHIPPING.contains(&v.shipping.as_str()) {
                fail("/shipping".into(), "must be one of the ways to ship");
            }
            if v.coupon.as_deref().is_some_and(|c| {
                c.len() != 8
                    || !c
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }) {
                fail("/coupon".into(), "must be eight capitals or digits");
            }
            if errors.is_empty() {
                Ok(v)
            } else {
                Err(errors)
            }
        }
    }
}
