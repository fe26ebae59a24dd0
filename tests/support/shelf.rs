//! `shelf`: a tool whose result is a list (of books), shared by the tests of results
//! that are not objects.

use mcp_tool::{McpTool, ToolError};
use serde::{Deserialize, Serialize};

/// A shelf's books.
#[derive(McpTool, Deserialize, Debug)]
pub struct Shelf {
    #[validate(range(max = 3))]
    count: u8,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Book {
    title: String,
}

pub async fn shelf(args: Shelf) -> Result<Vec<Book>, ToolError> {
    Ok((0..args.count)
        .map(|i| Book {
            title: format!("Book {i}"),
        })
        .collect())
}
