use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

/// A newtype is a value, not a tool's arguments.
#[derive(McpTool, Deserialize)]
struct Port(u16);

/// Tool settings mean nothing to a value inside a tool's arguments.
#[derive(Argument, Deserialize)]
#[mcp_tool(name = "leg", read_only)]
struct Leg {
    from: String,
}

/// Rules on a struct belong on its fields.
#[derive(Argument, Deserialize)]
#[validate(length(max = 3))]
struct Tags {
    tags: Vec<String>,
}

/// A tuple struct of several fields.
#[derive(Argument, Deserialize)]
struct Point(f32, f32);

#[derive(Argument, Deserialize)]
#[serde(tag = "kind")]
enum Shape {
    Circle { radius: f32 },
    #[serde(alias = "box")]
    Square { side: f32 },
    #[serde(other)]
    Unknown,
}

/// An untagged tool's forms must be objects.
#[derive(McpTool, Deserialize)]
#[serde(untagged)]
enum Lookup {
    ById { id: u64 },
    Pair(String, String),
}

/// Rules on an enum belong on its variants' fields: said once.
#[derive(Argument, Deserialize)]
#[validate(length(max = 3))]
enum Mode {
    Fast { level: u8 },
}

/// A rule must fit the newtype's inner type.
#[derive(Argument, Deserialize)]
struct Code(#[validate(regex = r"^[A-Z]+$")] u16);

fn main() {}
