use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    // `\d` matches Arabic-Indic digits in Rust, only 0-9 in ECMA-262.
    #[validate(regex = r"^ORD-\d{4}$")]
    id: String,
    #[validate(regex = r"(?i)^ord$")]
    kind: String,
    #[validate(regex = r"^(?P<year>[0-9]{4})$")]
    year: String,
    // A letter of any script: no pattern every client reads says it.
    #[validate(regex = r"^\p{L}+$")]
    name: String,
    #[validate(regex = r"^[[:alpha:]]+$")]
    word: String,
}

fn main() {}
