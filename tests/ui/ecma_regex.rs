use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    // A boundary at the start of a word: Rust's alone.
    #[validate(regex = r"\b{start}ORD-[0-9]{4}$")]
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
