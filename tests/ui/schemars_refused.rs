use mcp_tool::McpTool;
use serde::Deserialize;

fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string"})
}

/// Every key of #[schemars(...)] that would make the schema say what the server does
/// not enforce.
#[derive(McpTool, Deserialize)]
#[schemars(rename = "Other", deny_unknown_fields, crate = "schemars", example = 1)]
struct Refused {
    #[schemars(schema_with = "schema")]
    a: String,
    #[schemars(with = "u8")]
    b: String,
    #[schemars(extend("x-foo" = 1), transform = drop)]
    c: String,
    #[schemars(rename = "d2", skip, default)]
    d: String,
    #[schemars(contains(pattern = "x"), ip, inline, lenght(max = 3))]
    e: String,
    #[schemars(length(max = 3))]
    #[validate(length(max = 4))]
    f: String,
}

fn main() {}
