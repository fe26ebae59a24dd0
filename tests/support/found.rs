//! What the tests of each shape read: the day they are judged on, and an error's
//! violations as (path, rule), (path, message) or all three.
#![allow(dead_code)] // each test uses its part

use mcp_tool::{Context, ToolError};

/// The day every date rule of these tests is judged on.
pub fn today() -> Context {
    Context::on(2026, 11, 30).unwrap()
}

/// Each violation's path and rule, in order.
pub fn rules(err: &ToolError) -> Vec<(&str, &str)> {
    err.violations()
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_ref()))
        .collect()
}

/// Each violation's path and message, in order.
pub fn messages(err: &ToolError) -> Vec<(&str, &str)> {
    err.violations()
        .iter()
        .map(|v| (v.path.as_str(), v.message.as_str()))
        .collect()
}

/// Each violation's path, rule and message, in order.
pub fn all(err: &ToolError) -> Vec<(&str, &str, &str)> {
    err.violations()
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_ref(), v.message.as_str()))
        .collect()
}
