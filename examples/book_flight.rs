//! The tool from the README, served by a [`Toolbox`].
//!
//! ```sh
//! cargo run --example book_flight                            # prints what a client receives
//! cargo run --example book_flight -- --stdio                 # serves it over MCP stdio (rmcp)
//! cargo run --example book_flight -- --http 127.0.0.1:8080   # over MCP Streamable HTTP, at /mcp
//! cargo run --example book_flight -- --schema-profile gemini # the schema as Gemini takes it
//! ```

use std::error::Error;

use mcp_tool::ask::{Answer, Reach};
use mcp_tool::{Context, Toolbox};
use serde_json::{Value, json};

#[path = "common/flight.rs"]
mod flight;
#[path = "common/serve.rs"]
mod serve;

use flight::book_flight;

fn toolbox(command: &serve::CommandLine) -> Toolbox {
    let tools = Toolbox::new()
        .named("book-flight", env!("CARGO_PKG_VERSION"))
        .tool(book_flight);
    serve::state_key(serve::profiled(tools, command))
}

fn print(title: &str, value: &Value) {
    println!("== {title}");
    println!(
        "{}\n",
        serde_json::to_string_pretty(value).expect("JSON values serialize")
    );
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    // Served, dates are judged by the system clock.
    let command = serve::command_line("book_flight", &[]);
    let profile = command.profile;
    match command.mode {
        serve::Mode::Stdio => return serve::stdio(toolbox(&command)).await,
        serve::Mode::Http(addr) => return serve::http(toolbox(&command), addr).await,
        serve::Mode::Demo => {}
    }

    // Fixed so that the output is the same every day; a server uses the system clock
    // (the default) or Context::in_time_zone("Europe/Paris").
    let tools = toolbox(&command).in_context(Context::on(2026, 11, 30)?);

    print("tools/list entry", &serde_json::to_value(tools.list())?[0]);

    let valid = json!({
        "origin": "CDG",
        "destination": "JFK",
        "departure_date": "15/01/2027",
        "cabin": "business",
        "passengers": 2,
    });
    let result = tools.call("book_flight", valid.clone()).await?;
    print("tools/call with valid arguments", &result.to_value());

    let mistakes = json!({
        "origin": "Paris",
        "destination": "JFK",
        "departure_date": "12/12/2024",
        "cabin": "PROCESSING",
        "passengers": "two",
        "email": "not-an-address",
    });
    let result = tools.call("book_flight", mistakes).await?;
    print("tools/call with several mistakes", &result.to_value());

    // A client of protocol 2026-07-28 that can ask its user: the date the model left
    // out is asked of the user, and the call resumes with the answer.
    let mut without_date = valid.clone();
    without_date
        .as_object_mut()
        .expect("an object")
        .remove("departure_date");
    let first = tools
        .call_reaching(
            profile,
            "book_flight",
            without_date.clone(),
            Reach::Rounds {
                input_responses: None,
                request_state: None,
            },
        )
        .await?;
    let Answer::InputRequired(asked) = first else {
        return Err("the date was asked of the user".into());
    };
    // The state is sealed with this process's key: shown cut short.
    let mut shown = asked.to_value();
    shown["requestState"] = format!("{}...", &asked.request_state[..24]).into();
    print(
        "tools/call without departure_date, from a client that can ask its user",
        &shown,
    );
    let (key, _) = asked.input_requests.iter().next().expect("one question");
    let answers = json!({ key: {"action": "accept", "content": {"departure_date": "15/01/2027"}} });
    let retry = Reach::Rounds {
        input_responses: answers.as_object().cloned(),
        request_state: Some(asked.request_state.clone()),
    };
    print(
        "the retry, with the user's answer and the requestState",
        &json!({"inputResponses": answers, "requestState": "(as received)"}),
    );
    if let Answer::Complete(result) = tools
        .call_reaching(profile, "book_flight", without_date, retry)
        .await?
    {
        print("its result", &result.to_value());
    }

    let error = tools.call("book_flights", valid).await.unwrap_err();
    print(
        "tools/call of an unknown tool: a JSON-RPC error",
        &error.to_jsonrpc_error(),
    );
    Ok(())
}
