//! The workload of `benches/contenders.rs`: `book_flight` with eight fields, and its
//! unchecked twin, the floor. Shared with `tests/allocations.rs`, which holds the
//! workload to allocating nothing beyond its value.
#![allow(dead_code)] // most fields exist only for the derive and serde to read

use mcp_tool::McpTool;
use serde::Deserialize;

pub const CABINS: &[&str] = &["economy", "premium_economy", "business", "first"];

/// Book a flight.
#[derive(McpTool, Deserialize, Debug)]
pub struct BookFlight {
    #[validate(regex = r"^[A-Z]{3}$")]
    pub origin: String,
    #[validate(regex = r"^[A-Z]{3}$")]
    pub destination: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    pub departure_date: String,
    #[validate(enum = CABINS)]
    pub cabin: String,
    #[validate(range(min = 1, max = 9))]
    pub passengers: u8,
    #[validate(email)]
    pub email: Option<String>,
    #[validate(length(max = 500))]
    pub notes: Option<String>,
    #[validate(length(max = 9), items(regex = r"^[A-Z]{2}[0-9]{6}$"))]
    pub loyalty_ids: Option<Vec<String>>,
}

/// The floor: the same fields, no checks.
#[derive(Deserialize)]
pub struct Plain {
    pub origin: String,
    pub destination: String,
    pub departure_date: String,
    pub cabin: String,
    pub passengers: u8,
    pub email: Option<String>,
    pub notes: Option<String>,
    pub loyalty_ids: Option<Vec<String>>,
}
