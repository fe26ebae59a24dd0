//! `Everything`: one arguments struct that uses every rule on every field shape. Shared by
//! the invariant test, the property tests and the fuzz target (`fuzz/`), so that all of
//! them hold the same struct against the advertised schema.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{Invalid, McpEnum, McpTool};
use serde::Deserialize;

pub const STATUSES: &[&str] = &["PENDING", "PAID", "SHIPPED", "CLOSED"];

pub fn not_blank(s: &str) -> Result<(), Invalid> {
    if s.trim().is_empty() {
        Err(Invalid::new("must not be blank"))
    } else {
        Ok(())
    }
}

#[derive(McpEnum, Deserialize, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Priority {
    Low,
    High,
    RightNow,
}

#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Leg {
    #[validate(regex = r"^[A-Z]{3}$")]
    from_code: String,
    #[validate(range(min = 0, max = 130))]
    age: Option<u8>,
}

/// Every rule on every field shape.
#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    #[validate(regex = r"^ORD-[0-9]{4}-[0-9]{5}$")]
    order_id: String,
    #[validate(regex = r"^a.c$")]
    dotted: Option<String>,
    #[validate(enum = STATUSES)]
    status: String,
    #[validate(enum = ["asc", "desc"])]
    order: Option<String>,
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure: Option<String>,
    #[validate(past_date)]
    born: Option<String>,
    #[validate(range(min = 1, max = 9))]
    passengers: u8,
    #[validate(range(exclusive_min = 0, exclusive_max = 1000.5))]
    price: Option<f64>,
    #[validate(range(min = -5))]
    offset: Option<i64>,
    #[validate(length(min = 2, max = 4))]
    name: Option<String>,
    #[validate(length(equal = 2), items(length(min = 1)))]
    pair: Option<Vec<String>>,
    #[validate(email)]
    email: Option<String>,
    #[validate(url)]
    website: Option<String>,
    #[validate(uuid)]
    id: Option<String>,
    #[validate(custom = not_blank)]
    note: Option<String>,
    #[validate(items(regex = r"^[A-Z]{2}[0-9]{6}$"), length(max = 3))]
    loyalty: Option<Vec<String>>,
    #[serde(rename = "prio")]
    priority: Option<Priority>,
    legs: Option<Vec<Leg>>,
    first_leg: Option<Leg>,
    flag: Option<bool>,
    #[validate(sensitive, length(min = 8))]
    secret: Option<String>,
    #[serde(default)]
    count: u32,
    #[validate(multiple_of = 5)]
    quantity: Option<u32>,
}

/// The rules the runtime may enforce beyond the schema: stated in descriptions, but
/// `integer_range`, a 64-bit type's far end, which no model reaches and nothing tells.
pub const BEYOND_SCHEMA: &[&str] = &["future_date", "past_date", "not_blank", "integer_range"];

/// A toolbox serving `Everything` as the tool `everything`, with "today" fixed at
/// 30/11/2026; its handler answers `{"ok": true}`.
pub fn toolbox() -> mcp_tool::Toolbox {
    async fn everything(_: Everything) -> Result<serde_json::Value, mcp_tool::ToolError> {
        Ok(serde_json::json!({"ok": true}))
    }
    mcp_tool::Toolbox::new()
        .in_context(mcp_tool::Context::on(2026, 11, 30).unwrap())
        .tool(everything)
}
