use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

static SKU: &str = "^[A-Z]{3}$";
const MAX: u64 = 10;

fn check(_: &str, _: &()) -> garde::Result {
    Ok(())
}

#[derive(McpTool, Deserialize)]
#[garde(context(Settings), allow_unvalidated)]
#[garde(custom(whole), validate_all)]
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
    #[garde(range(min = 1, equal = 2))]
    equal_and_min: u8,
    #[garde(length(fewest = 1))]
    unknown_length_key: String,
    #[garde(inner(length(max = 3)), inner(pattern("^a")))]
    items_twice: Vec<String>,
    #[validate(length(max = 3))]
    #[garde(length(max = 4))]
    length_twice: String,
    #[garde(inner(required))]
    required_items: Vec<Option<String>>,
}

/// A newtype's value is required by its type.
#[derive(Argument, Deserialize)]
struct Code(#[garde(required)] Option<String>);

fn main() {}
