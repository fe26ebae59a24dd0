//! A tool result held against the tool's advertised `outputSchema`, with the `jsonschema`
//! crate as the judge: what a client that validates results (the MCP Inspector for
//! every result, the TypeScript SDK for successes) would find.

use serde_json::Value;

/// Panics unless `result` (a `CallToolResult` as JSON) is what `tool` (its `tools/list`
/// entry) promises: a success of a tool with an `outputSchema` carries
/// `structuredContent`, and any `structuredContent`, of a success or an error, is valid
/// against the `outputSchema`.
pub fn assert_conforms(tool: &Value, result: &Value) {
    let Some(schema) = tool.get("outputSchema") else {
        return;
    };
    let structured = result.get("structuredContent");
    if result["isError"] != true {
        assert!(
            structured.is_some(),
            "{}: a success without structuredContent, though an outputSchema is declared: {result}",
            tool["name"]
        );
    }
    let Some(structured) = structured else {
        return;
    };
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the outputSchema compiles");
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{}: structuredContent does not match the outputSchema: {errors:?}\n{structured}",
        tool["name"]
    );
}
