use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Signup {
    #[validate(emial)]
    email: String,
    #[validate(pattern = "^[a-z]+$")]
    login: String,
    #[validate(inner(length(max = 20)))]
    tags: Vec<String>,
    #[validate(dive)]
    address: Vec<String>,
}

fn main() {}
