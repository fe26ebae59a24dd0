use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

static SKU: &str = "^[A-Z]{3}$";
const MAX: u64 = 10;

fn check(_: &str, _: &()) -> garde::Result {
    Ok(())
}

#[derive(McpTool, Deserialize)]
#[garde(context(Settings), allow_unvalidated)]
#[garde(custom(whole))]
struct Refused {
    #[garde(length(bytes, max = 256))]
    bytes: String,
    #[garde(length(graphemes, min = 1))]
    graphemes: String,
    #[garde(pattern(SKU))]
    from_static: String,
    #[garde(prefix(SKU))]
    from_expression: String,
    #[garde(custom(|v: &str, _: &()| check(v, &())))]
    closure: String,
    #[garde(ip)]
    address: String,
    #[garde(matches(address))]
    again: String,
    #[garde(phone_number)]
    phone: String,
    #[garde(if(cond = true, length(max = 3)))]
    conditional: String,
    #[garde(adapt(somewhere))]
    adapted: String,
    #[garde(inner(inner(length(max = 3))))]
    nested_items: Vec<Vec<String>>,
    #[garde(lenght(max = 3))]
    misspelt: String,
    #[garde(prefix("A-"), pattern("^A-[0-9]+$"))]
    two_patterns: String,
    #[garde(length(max = MAX))]
    bound_by_constant: String,
    #[garde(required)]
    required_not_option: String,
}

/// A newtype's value is required by its type.
#[derive(Argument, Deserialize)]
struct Code(#[garde(required)] Option<String>);

fn main() {}
