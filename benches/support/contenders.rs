//! The contenders of the benchmarks, shared by `benches/contenders.rs` (time) and
//! `benches/memory.rs` (allocations): each checks the workload's arguments
//! (`tests/support/workload.rs`) its own way and returns a list of (field path,
//! message) for invalid input, so that the work is comparable.

use std::sync::LazyLock;
use std::task::{Context as TaskContext, Poll, Waker};
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::workload::{BookFlight, CABINS, Plain};

static IATA: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"^[A-Z]{3}$").unwrap());
static LOYALTY: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^[A-Z]{2}[0-9]{6}$").unwrap());

/// Today in UTC as (year, month, day), from the days since 1970 (Hinnant's
/// `civil_from_days`).
pub fn today() -> (i64, i64, i64) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `dd/mm/yyyy`, a real date, after today (UTC): the future-date check every contender
/// but this crate calls. One shared function, as fast as a date check gets (the date
/// parsed by hand, today from the clock without a time zone), so that no contender is
/// measured by a slow date library where this crate has a fast rule of its own.
pub fn is_future_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0i64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    if b.len() != 10 || b[2] != b'/' || b[5] != b'/' {
        return false;
    }
    let (Some(d), Some(m), Some(y)) = (digits(0..2), digits(3..5), digits(6..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    (1..=12).contains(&m) && d >= 1 && d <= days[m as usize - 1] && (y, m, d) > today()
}

/// One `@`, something printable before it, a dotted domain of letters, digits and
/// `-` after; one pass over the bytes.
pub fn by_hand_email(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(at) = b.iter().position(|&c| c == b'@') else {
        return false;
    };
    let (mut label, mut dots) = (0, 0);
    for &c in &b[at + 1..] {
        if c == b'.' {
            if label == 0 {
                return false;
            }
            (label, dots) = (0, dots + 1);
        } else if c.is_ascii_alphanumeric() || c == b'-' {
            label += 1;
        } else {
            return false;
        }
    }
    at > 0 && b[..at].iter().all(u8::is_ascii_graphic) && label > 0 && dots > 0
}

pub mod with_validator {
    use super::*;
    use validator::{Validate, ValidationError};

    fn future(value: &str) -> Result<(), ValidationError> {
        if is_future_date(value) {
            Ok(())
        } else {
            Err(ValidationError::new("future_date"))
        }
    }

    fn cabin(value: &str) -> Result<(), ValidationError> {
        if CABINS.contains(&value) {
            Ok(())
        } else {
            Err(ValidationError::new("enum"))
        }
    }

    fn loyalty(ids: &[String]) -> Result<(), ValidationError> {
        if ids.iter().all(|id| LOYALTY.is_match(id)) {
            Ok(())
        } else {
            Err(ValidationError::new("regex"))
        }
    }

    #[derive(Deserialize, Validate)]
    pub struct BookFlight {
        #[validate(regex(path = *IATA))]
        origin: String,
        #[validate(regex(path = *IATA))]
        destination: String,
        #[validate(custom(function = "future"))]
        departure_date: String,
        #[validate(custom(function = "cabin"))]
        cabin: String,
        #[validate(range(min = 1, max = 9))]
        passengers: u8,
        #[validate(email)]
        email: Option<String>,
        #[validate(length(max = 500))]
        notes: Option<String>,
        #[validate(length(max = 9), custom(function = "loyalty"))]
        loyalty_ids: Option<Vec<String>>,
    }

    pub fn check(args: Value) -> Result<BookFlight, Vec<(String, String)>> {
        let flight = serde_json::from_value::<BookFlight>(args)
            .map_err(|e| vec![(String::new(), e.to_string())])?;
        match flight.validate() {
            Ok(()) => Ok(flight),
            Err(errors) => Err(errors
                .field_errors()
                .into_iter()
                .flat_map(|(field, errors)| {
                    errors
                        .iter()
                        .map(move |e| (field.to_string(), e.to_string()))
                })
                .collect()),
        }
    }
}

pub mod with_garde {
    use super::*;
    use garde::Validate;

    fn future(value: &str, _: &()) -> garde::Result {
        if is_future_date(value) {
            Ok(())
        } else {
            Err(garde::Error::new("must be a date in the future"))
        }
    }

    fn known_cabin(value: &str, _: &()) -> garde::Result {
        if CABINS.contains(&value) {
            Ok(())
        } else {
            Err(garde::Error::new("must be one of the cabins"))
        }
    }

    #[derive(Deserialize, Validate)]
    pub struct BookFlight {
        #[garde(pattern(r"^[A-Z]{3}$"))]
        origin: String,
        #[garde(pattern(r"^[A-Z]{3}$"))]
        destination: String,
        #[garde(custom(future))]
        departure_date: String,
        #[garde(custom(known_cabin))]
        cabin: String,
        #[garde(range(min = 1, max = 9))]
        passengers: u8,
        #[garde(email)]
        email: Option<String>,
        #[garde(length(chars, max = 500))]
        notes: Option<String>,
        #[garde(length(max = 9), inner(inner(pattern(r"^[A-Z]{2}[0-9]{6}$"))))]
        loyalty_ids: Option<Vec<String>>,
    }

    pub fn check(args: Value) -> Result<BookFlight, Vec<(String, String)>> {
        let flight = serde_json::from_value::<BookFlight>(args)
            .map_err(|e| vec![(String::new(), e.to_string())])?;
        match flight.validate() {
            Ok(()) => Ok(flight),
            Err(report) => Err(report
                .iter()
                .map(|(path, error)| (path.to_string(), error.to_string()))
                .collect()),
        }
    }
}

pub mod with_jsonschema {
    use super::*;

    static SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
        jsonschema::options()
            .should_validate_formats(true)
            .build(BookFlight::input_schema())
            .unwrap()
    });

    pub fn check(args: Value) -> Result<Plain, Vec<(String, String)>> {
        let mut errors: Vec<(String, String)> = SCHEMA
            .iter_errors(&args)
            .map(|e| (e.instance_path().to_string(), e.to_string()))
            .collect();
        if let Some(date) = args.get("departure_date").and_then(Value::as_str)
            && !is_future_date(date)
        {
            errors.push((
                "/departure_date".into(),
                "must be a date in the future".into(),
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        serde_json::from_value::<Plain>(args).map_err(|e| vec![(String::new(), e.to_string())])
    }

    pub fn warm() {
        LazyLock::force(&SCHEMA);
    }
}

/// The least checking these arguments can cost: the same rules written by hand for
/// these eight fields after serde, no library, no message beyond a short sentence, the
/// date parsed and compared by hand against the system clock. Not a contender: the
/// bound any general validator is measured against.
pub mod by_hand {
    use super::*;

    fn is_iata(s: &str) -> bool {
        s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase())
    }

    fn is_loyalty_id(s: &str) -> bool {
        let b = s.as_bytes();
        b.len() == 8
            && b[..2].iter().all(u8::is_ascii_uppercase)
            && b[2..].iter().all(u8::is_ascii_digit)
    }

    pub fn check(args: Value) -> Result<Plain, Vec<(String, String)>> {
        let flight = serde_json::from_value::<Plain>(args)
            .map_err(|e| vec![(String::new(), e.to_string())])?;
        let mut errors = Vec::new();
        let mut fail = |path: &str, message: &str| errors.push((path.into(), message.into()));
        if !is_iata(&flight.origin) {
            fail("/origin", "must be three capital letters");
        }
        if !is_iata(&flight.destination) {
            fail("/destination", "must be three capital letters");
        }
        if !is_future_date(&flight.departure_date) {
            fail(
                "/departure_date",
                "must be a date in the future, as dd/mm/yyyy",
            );
        }
        if !CABINS.contains(&flight.cabin.as_str()) {
            fail("/cabin", "must be one of the cabins");
        }
        if !(1..=9).contains(&flight.passengers) {
            fail("/passengers", "must be from 1 to 9");
        }
        if flight.email.as_deref().is_some_and(|e| !by_hand_email(e)) {
            fail("/email", "must be an email address");
        }
        if flight
            .notes
            .as_deref()
            .is_some_and(|n| n.len() > 500 && n.chars().count() > 500)
        {
            fail("/notes", "must have at most 500 characters");
        }
        if let Some(ids) = &flight.loyalty_ids {
            if ids.len() > 9 {
                fail("/loyalty_ids", "must have at most 9 items");
            }
            for (i, id) in ids.iter().enumerate() {
                if !is_loyalty_id(id) {
                    fail(
                        &format!("/loyalty_ids/{i}"),
                        "must be two capitals and six digits",
                    );
                }
            }
        }
        if errors.is_empty() {
            Ok(flight)
        } else {
            Err(errors)
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Booking {
    confirmation: String,
    passengers: u8,
}

async fn book_flight(flight: BookFlight) -> Result<Booking, ToolError> {
    Ok(Booking {
        confirmation: "PNR-7XQ2KD".into(),
        passengers: flight.passengers,
    })
}

pub static TOOLS: LazyLock<Toolbox> = LazyLock::new(|| Toolbox::new().tool(book_flight));

/// The whole `tools/call` path: checks, handler, `CallToolResult` serialized. The
/// toolbox's futures never wait, so one poll finishes them.
pub fn call_result(args: Value) -> String {
    let mut call = std::pin::pin!(TOOLS.call("book_flight", args));
    match call
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(Ok(result)) => serde_json::to_string(&result).unwrap(),
        _ => unreachable!("the handler does not wait"),
    }
}

pub fn inputs() -> [(&'static str, Value); 3] {
    [
        (
            "valid",
            json!({
                "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
                "cabin": "business", "passengers": 2, "email": "ada@example.com",
                "notes": "Window seat, please.", "loyalty_ids": ["AF123456", "KL654321"]
            }),
        ),
        (
            "four_errors",
            json!({
                "origin": "Paris", "destination": "JFK", "departure_date": "12/12/2024",
                "cabin": "PROCESSING", "passengers": 12, "email": "ada@example.com",
                "notes": "Window seat, please.", "loyalty_ids": ["AF123456", "KL654321"]
            }),
        ),
        (
            "type_errors",
            json!({
                "origin": "CDG", "departure_date": "15/01/2099", "cabin": "business",
                "passengers": "two", "email": "ada@example.com"
            }),
        ),
    ]
}

/// The floor: serde reading the owned arguments into the same fields, unchecked, as a
/// server would (`serde_json::from_value`).
pub fn floor(args: Value) -> Result<Plain, serde_json::Error> {
    serde_json::from_value(args)
}

/// The floor as it was before the arguments were owned: serde reading a borrowed
/// `&Value`, which copies every string out of it.
pub fn floor_borrowed(args: &Value) -> Result<Plain, serde_json::Error> {
    Plain::deserialize(args)
}

/// Each contender's answer, checked once so that the benchmark measures working code:
/// how many problems it reports for each input.
pub fn sanity() {
    let [valid, four, types] = inputs().map(|(_, v)| v);
    assert!(floor(valid.clone()).is_ok());
    assert!(floor_borrowed(&valid).is_ok());
    assert!(with_validator::check(valid.clone()).is_ok());
    assert!(with_garde::check(valid.clone()).is_ok());
    assert!(with_jsonschema::check(valid.clone()).is_ok());
    assert!(by_hand::check(valid.clone()).is_ok());
    let utc = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    let (y, m, d) = today();
    assert_eq!(
        (y, m, d),
        (utc.year().into(), utc.month().into(), utc.day().into())
    );
    assert!(BookFlight::from_arguments(valid.clone()).is_ok());
    assert_eq!(with_validator::check(four.clone()).err().unwrap().len(), 4);
    assert_eq!(with_garde::check(four.clone()).err().unwrap().len(), 4);
    assert_eq!(with_jsonschema::check(four.clone()).err().unwrap().len(), 4);
    assert_eq!(by_hand::check(four.clone()).err().unwrap().len(), 4);
    let four_errors = BookFlight::from_arguments(four.clone()).unwrap_err();
    assert_eq!(four_errors.violations().len(), 4);
    // The error keeps the arguments for attempted_query.
    assert_eq!(
        four_errors.structured_content()["attempted_query"]["arguments"]["origin"],
        four["origin"]
    );
    // serde stops at the first type error; the schema and this crate see both.
    assert_eq!(with_validator::check(types.clone()).err().unwrap().len(), 1);
    assert_eq!(with_garde::check(types.clone()).err().unwrap().len(), 1);
    assert_eq!(by_hand::check(types.clone()).err().unwrap().len(), 1);
    assert_eq!(
        with_jsonschema::check(types.clone()).err().unwrap().len(),
        2
    );
    assert_eq!(
        BookFlight::from_arguments(types)
            .unwrap_err()
            .violations()
            .len(),
        2
    );
    assert!(call_result(valid).contains("PNR-7XQ2KD"));
}
