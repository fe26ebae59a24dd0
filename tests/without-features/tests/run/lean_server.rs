//! A server built with the `rmcp` feature alone (no dates, no asking) checks and
//! answers as any other, and refuses a `requestState`: it never sealed one.

use mcp_tool::ask::Reach;
use mcp_tool::{McpTool, SchemaProfile, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::json;

/// Relate two entities.
#[derive(McpTool, Deserialize)]
struct Relate {
    #[validate(length(min = 1, max = 256))]
    from: String,
    #[validate(regex(pattern = r"^[a-z_]+$", hint = "Use lower-case words joined by _."))]
    relation: String,
    // ECMA-262's `.`, as the derive writes it for `regex`: no Unicode table needed.
    #[validate(regex = r"^.{1,8}$")]
    note: Option<String>,
}

/// Archive a year.
#[derive(McpTool, Deserialize)]
struct Archive {
    // Perl's classes are in this build of `regex`; Unicode's tables are not.
    #[schemars(extend("pattern" = "^\\d{4}$"))]
    year: String,
    // ECMA-262's word boundary, ASCII: spelled `(?-u:\b)`, no table needed either.
    #[schemars(extend("pattern" = "\\bQ[1-4]\\b"))]
    quarter: Option<String>,
}

async fn archive(args: Archive) -> Result<String, ToolError> {
    Ok(args.year)
}

async fn relate(args: Relate) -> Result<String, ToolError> {
    Ok(format!("{} {}", args.from, args.relation))
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let tools = Toolbox::new().tool(relate).tool(archive);

        let done = tools
            .call("relate", json!({"from": "Lyon", "relation": "is_in"}))
            .await
            .unwrap();
        assert!(!done.is_error, "{}", done.text());
        assert_eq!(done.text(), "Lyon is_in");

        let noted = json!({"from": "Lyon", "relation": "is_in", "note": "é–ж"});
        let noted = tools.call("relate", noted).await.unwrap();
        assert!(!noted.is_error, "{}", noted.text());
        let long = json!({"from": "Lyon", "relation": "is_in", "note": "é\u{2028}"});
        let long = tools.call("relate", long).await.unwrap();
        assert!(long.is_error, "{}", long.text());

        let refused = tools
            .call("relate", json!({"from": "Lyon", "relation": "Is In"}))
            .await
            .unwrap();
        assert!(refused.is_error);
        assert!(refused.text().contains("Use lower-case words joined by _."), "{}", refused.text());

        let year = tools.call("archive", json!({"year": "2026"})).await.unwrap();
        assert!(!year.is_error, "{}", year.text());
        let quarter = json!({"year": "2026", "quarter": "éQ4é"});
        let quarter = tools.call("archive", quarter).await.unwrap();
        assert!(!quarter.is_error, "{}", quarter.text());
        let year = tools.call("archive", json!({"year": "٢٠٢٦"})).await.unwrap();
        assert!(year.is_error, "{}", year.text());
        let year = tools.call("archive", json!({"year": "20x6"})).await.unwrap();
        assert!(year.is_error && year.text().contains("pattern"), "{}", year.text());

        let state = Reach::Rounds {
            input_responses: None,
            request_state: Some("mt1.e30.AAAA".into()),
        };
        let arguments = json!({"from": "Lyon", "relation": "is_in"});
        let error = tools
            .call_reaching(SchemaProfile::Portable, "relate", arguments, state)
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32602);
        assert!(error.message().contains("asks its users nothing"), "{}", error.message());
        assert!(error.message().contains("The call was not run."), "{}", error.message());
    });
}
