//! The `book_flight` example's results, successes and errors, held against its
//! advertised `outputSchema` (the orders and travel desk examples test theirs).

#[path = "support/conforms.rs"]
mod conforms;
#[path = "../examples/common/flight.rs"]
mod flight;

use mcp_tool::{Context, Toolbox};
use serde_json::json;

#[tokio::test]
async fn every_book_flight_result_matches_its_output_schema() {
    let tools = Toolbox::new()
        .tool(flight::book_flight)
        .in_context(Context::on(2026, 11, 30).unwrap());
    let tool = serde_json::to_value(&tools.list()[0]).unwrap();
    let schema = tool["outputSchema"].to_string();
    for word in ["uint8", "$ref", "$defs", "\"type\":[", "$schema"] {
        assert!(
            !schema.contains(word),
            "{word} in the outputSchema: {schema}"
        );
    }
    let calls = [
        // A success, with and without the optional e-mail.
        json!({"origin": "CDG", "destination": "JFK", "departure_date": "15/01/2027",
               "cabin": "business", "passengers": 2, "email": "ada@example.com"}),
        json!({"origin": "CDG", "destination": "JFK", "departure_date": "15/01/2027",
               "cabin": "business", "passengers": 2}),
        // Invalid arguments, and a business error from the handler.
        json!({"origin": "Paris", "departure_date": "12/12/2024", "passengers": "two"}),
        json!({"origin": "CDG", "destination": "CDG", "departure_date": "15/01/2027",
               "cabin": "first", "passengers": 1}),
    ];
    let mut errors = 0;
    for arguments in calls {
        let result = tools
            .call("book_flight", arguments)
            .await
            .unwrap()
            .to_value();
        errors += usize::from(result["isError"] == true);
        conforms::assert_conforms(&tool, &result);
    }
    assert_eq!(errors, 2);
}
