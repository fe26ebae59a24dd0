use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

/// A count.
#[derive(Argument, Deserialize)]
#[validate(range(min = 1))]
struct Count(u32);

/// A place: a struct, not a newtype.
#[derive(Argument, Deserialize)]
struct Place {
    city: String,
}

/// Takes rules that do not fit.
#[derive(McpTool, Deserialize)]
struct Wrong {
    // A newtype over another type than the field's.
    #[validate(like = Count)]
    name: String,
    // A struct has no rules to share.
    #[validate(like = Place)]
    city: Option<String>,
}

fn main() {}
