// A derive that fails says why once: the type's uses (a handler, a field, a schema) add
// no errors of their own.
use mcp_tool::{Argument, McpEnum, McpTool, ToolError, Toolbox};
use serde::Deserialize;

#[derive(McpEnum, Deserialize)]
enum Cabin {
    Economy,
    Business(u8),
}

#[derive(Argument, Deserialize)]
struct Passenger {
    #[validate(lenght(max = 40))]
    name: String,
}

/// Book a flight.
#[derive(McpTool, Deserialize)]
struct BookFlight {
    #[validate(regx = "^[A-Z]{3}$")]
    origin: String,
    cabin: Cabin,
    passengers: Vec<Passenger>,
}

/// Book two.
#[derive(McpTool, Deserialize)]
struct BookTwo {
    first: BookFlight,
    cabins: Vec<Cabin>,
}

async fn book(flight: BookFlight) -> Result<String, ToolError> {
    Ok(flight.origin)
}

fn main() {
    let _ = <BookFlight as McpTool>::input_schema();
    let _ = Toolbox::new().tool(book);
}
