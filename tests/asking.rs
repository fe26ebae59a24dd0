//! Asking the user (`crate::ask`), driven through a `Toolbox` as a transport drives it:
//! the input-required rounds of protocol 2026-07-28 with a client that answers and
//! retries, the questions within the call of 2025-11-25, and clients that cannot ask.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mcp_tool::ask::{Answer, Elicit, InputRequired, Reach};
use mcp_tool::{Ask, Context, McpEnum, McpTool, SchemaProfile, StateKey, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Cancel order {order_id}? Reason: {reason}", destructive)]
struct CancelOrder {
    #[validate(regex = "^ORD-[0-9]+$")]
    order_id: String,
    reason: String,
    /// Checked by the handler, never shown.
    #[validate(sensitive)]
    #[allow(dead_code)]
    token: Option<String>,
}

#[derive(McpEnum, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    Economy,
    PremiumEconomy,
    Business,
}

/// Book a flight.
#[derive(McpTool, Deserialize)]
struct Book {
    #[validate(regex = "^[A-Z]{3}$")]
    origin: String,
    #[validate(ask = "Which day do you fly?", future_date(format = "%d/%m/%Y"))]
    departure_date: String,
    #[validate(ask = "Which cabin?")]
    cabin: Cabin,
    #[validate(ask = "How many passengers?", range(min = 1, max = 9))]
    passengers: Option<u8>,
}

/// Refund an order the customer names.
#[derive(McpTool, Deserialize)]
struct Refund {
    customer: String,
}

struct Shop {
    cancelled: AtomicUsize,
    refunded: Mutex<Vec<String>>,
}

async fn cancel(shop: Arc<Shop>, args: CancelOrder) -> Result<String, ToolError> {
    shop.cancelled.fetch_add(1, Ordering::SeqCst);
    Ok(format!("cancelled {} ({})", args.order_id, args.reason))
}

async fn book(_: Arc<Shop>, args: Book) -> Result<String, ToolError> {
    if args.origin == "ZZZ" {
        return Err(ToolError::transient("No flights leave ZZZ today."));
    }
    let cabin = match args.cabin {
        Cabin::Economy => "economy",
        Cabin::PremiumEconomy => "premium economy",
        Cabin::Business => "business",
    };
    Ok(format!(
        "{} on {} in {cabin} for {}",
        args.origin,
        args.departure_date,
        args.passengers.unwrap_or(1)
    ))
}

async fn refund(shop: Arc<Shop>, ask: Ask, args: Refund) -> Result<String, ToolError> {
    let orders = [("ORD-1", "a lamp"), ("ORD-2", "a chair")];
    let (id, item) = ask
        .choose("Which order do you mean?", &orders, |(id, item)| {
            (id.to_string(), format!("{id}: {item}"))
        })
        .await?;
    ask.confirm(&format!("Refund {item} to {}?", args.customer))
        .await?;
    shop.refunded.lock().unwrap().push(id.to_string());
    Ok(format!("refunded {id}"))
}

fn toolbox() -> (Toolbox<Shop>, Arc<Shop>) {
    let shop = Arc::new(Shop {
        cancelled: AtomicUsize::new(0),
        refunded: Mutex::new(Vec::new()),
    });
    let tools = Toolbox::with_shared_state(Arc::clone(&shop))
        .in_context(Context::on(2026, 11, 30).unwrap())
        .state_key(StateKey::new(*b"a fixed key for the tests only!!").unwrap())
        .tool(cancel)
        .tool(book)
        .tool(refund);
    (tools, shop)
}

async fn call(tools: &Toolbox<Shop>, name: &str, arguments: Value, reach: Reach) -> Answer {
    tools
        .call_reaching(SchemaProfile::Portable, name, arguments, reach)
        .await
        .unwrap()
}

fn rounds(input_responses: Option<Value>, request_state: Option<String>) -> Reach {
    Reach::Rounds {
        input_responses: input_responses.map(|r| r.as_object().unwrap().clone()),
        request_state,
    }
}

/// The one request of an input-required answer: its key and its `params`.
fn only_request(answer: &Answer) -> (String, Value, String) {
    let Answer::InputRequired(InputRequired {
        input_requests,
        request_state,
    }) = answer
    else {
        panic!("expected input required, got {answer:?}");
    };
    assert_eq!(input_requests.len(), 1, "{input_requests:?}");
    let (key, request) = input_requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");
    (
        key.clone(),
        request["params"].clone(),
        request_state.clone(),
    )
}

fn complete(answer: Answer) -> mcp_tool::CallToolResult {
    match answer {
        Answer::Complete(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

const ORDER: &str = r#"{"order_id": "ORD-42", "reason": "changed my mind", "token": "s3cret"}"#;

fn order() -> Value {
    serde_json::from_str(ORDER).unwrap()
}

#[tokio::test]
async fn a_confirmed_cancel_runs_once_after_the_user_accepts() {
    let (tools, shop) = toolbox();
    let first = call(&tools, "cancel_order", order(), rounds(None, None)).await;
    let (key, params, state) = only_request(&first);
    assert_eq!(key, "mcp-tool/confirm");
    assert_eq!(params["mode"], "form");
    assert_eq!(
        params["message"],
        "Cancel order ORD-42? Reason: changed my mind"
    );
    assert!(!state.contains("s3cret"));
    assert_eq!(
        shop.cancelled.load(Ordering::SeqCst),
        0,
        "nothing before the answer"
    );

    let responses = json!({ key: accept(json!({})) });
    let done = complete(
        call(
            &tools,
            "cancel_order",
            order(),
            rounds(Some(responses.clone()), Some(state.clone())),
        )
        .await,
    );
    assert!(!done.is_error, "{done:?}");
    assert_eq!(done.text(), "cancelled ORD-42 (changed my mind)");
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);

    // The same retry again (the client's connection dropped before the answer came):
    // the first answer again, and the order is not cancelled twice.
    for _ in 0..2 {
        let again = complete(
            call(
                &tools,
                "cancel_order",
                order(),
                rounds(Some(responses.clone()), Some(state.clone())),
            )
            .await,
        );
        assert_eq!(again, done);
    }
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn declined_and_dismissed_confirmations_are_not_retryable_and_run_nothing() {
    let (tools, shop) = toolbox();
    for (action, words) in [("decline", "declined"), ("cancel", "dismissed")] {
        let first = call(&tools, "cancel_order", order(), rounds(None, None)).await;
        let (key, _, state) = only_request(&first);
        let responses = json!({ key: {"action": action} });
        let result = complete(
            call(
                &tools,
                "cancel_order",
                order(),
                rounds(Some(responses), Some(state)),
            )
            .await,
        );
        assert!(result.is_error);
        let content = result.structured_content.clone().unwrap();
        assert_eq!(content["errorCategory"], "permission");
        assert_eq!(content["isRetryable"], false);
        let text = result.text();
        assert!(text.contains(words), "{text}");
        assert!(text.contains("Nothing was done"), "{text}");
        assert!(!text.contains("s3cret"), "{text}");
    }
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_tampered_foreign_or_mismatched_state_runs_nothing() {
    let (tools, shop) = toolbox();
    let first = call(&tools, "cancel_order", order(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    let yes = json!({ key.clone(): accept(json!({})) });

    let (body, tag) = state.rsplit_once('.').unwrap();
    let mut forged = body.to_owned();
    forged.push('A');
    let other_key = Toolbox::with_state(())
        .state_key(StateKey::new(vec![9; 32]).unwrap())
        .tool(|_: Arc<()>, _: CancelOrder| async { Ok("x") });
    let foreign = only_request(
        &other_key
            .call_reaching(
                SchemaProfile::Portable,
                "cancel_order",
                order(),
                rounds(None, None),
            )
            .await
            .unwrap(),
    )
    .2;
    let mut other_order = order();
    other_order["order_id"] = json!("ORD-43");
    let cases = [
        (
            "changed",
            order(),
            Some(yes.clone()),
            Some(format!("{forged}.{tag}")),
            "not one this server sealed",
        ),
        (
            "another key",
            order(),
            Some(yes.clone()),
            Some(foreign),
            "not one this server sealed",
        ),
        (
            "other arguments",
            other_order,
            Some(yes.clone()),
            Some(state.clone()),
            "another call",
        ),
        (
            "answers to other requests",
            order(),
            Some(json!({"other": accept(json!({}))})),
            Some(state.clone()),
            "do not answer",
        ),
        (
            "no ElicitResult",
            order(),
            Some(json!({ key.clone(): {"action": "yes"} })),
            Some(state.clone()),
            "no ElicitResult",
        ),
        (
            "answers without a state",
            order(),
            Some(yes.clone()),
            None,
            "without the requestState",
        ),
    ];
    for (what, arguments, responses, sent_state, words) in cases {
        let error = tools
            .call_reaching(
                SchemaProfile::Portable,
                "cancel_order",
                arguments,
                rounds(responses, sent_state),
            )
            .await
            .unwrap_err();
        assert!(
            error.message().contains(words),
            "{what}: {}",
            error.message()
        );
        assert!(error.message().contains("The call was not run"), "{what}");
    }
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_expired_state_tells_the_model_to_call_again() {
    let shop = Arc::new(Shop {
        cancelled: AtomicUsize::new(0),
        refunded: Mutex::new(Vec::new()),
    });
    let tools = Toolbox::with_shared_state(Arc::clone(&shop))
        .state_lifetime(std::time::Duration::ZERO)
        .tool(cancel);
    let first = call(&tools, "cancel_order", order(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    std::thread::sleep(std::time::Duration::from_millis(5));
    let result = complete(
        call(
            &tools,
            "cancel_order",
            order(),
            rounds(Some(json!({ key: accept(json!({})) })), Some(state)),
        )
        .await,
    );
    assert!(result.is_error);
    assert!(result.text().contains("expired"), "{}", result.text());
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["isRetryable"], true);
    // The round ended before the checks ran: what they would find sensitive is hidden
    // all the same.
    let shown = &structured["attempted_query"]["arguments"];
    assert_eq!(shown["token"], "[redacted]", "{structured}");
    assert_eq!(shown["order_id"], "ORD-42");
    assert!(!structured.to_string().contains("s3cret"));
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_client_that_cannot_ask_gets_a_refusal_for_a_confirmation() {
    let (tools, shop) = toolbox();
    let result = tools.call("cancel_order", order()).await.unwrap();
    assert!(result.is_error);
    let text = result.text();
    assert!(text.contains("cannot ask its user"), "{text}");
    assert!(text.contains("Cancel order ORD-42?"), "{text}");
    assert_eq!(
        result.structured_content.unwrap()["errorCategory"],
        "permission"
    );
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);

    /// Archive a note.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(confirm = "Archive {id}?", unconfirmed = "run")]
    struct Archive {
        id: String,
    }
    let tools = Toolbox::new().tool(|a: Archive| async move { Ok(format!("archived {}", a.id)) });
    let result = tools.call("archive", json!({"id": "n1"})).await.unwrap();
    assert_eq!(result.text(), "archived n1");
}

#[tokio::test]
async fn confirmation_fails_first_on_the_models_mistakes() {
    let (tools, shop) = toolbox();
    let mut bad = order();
    bad["order_id"] = json!("42");
    let result = complete(call(&tools, "cancel_order", bad, rounds(None, None)).await);
    assert!(result.is_error);
    assert_eq!(
        result.structured_content.unwrap()["errorCategory"],
        "validation"
    );
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_missing_asked_field_is_asked_in_a_form_made_from_its_rules() {
    let (tools, _) = toolbox();
    let first = call(
        &tools,
        "book",
        json!({"origin": "CDG", "cabin": "economy"}),
        rounds(None, None),
    )
    .await;
    let (key, params, _) = only_request(&first);
    assert_eq!(key, "mcp-tool/fields");
    insta::assert_json_snapshot!("asked_departure_date", params);

    // Every asked field missing: one form for all.
    let first = call(&tools, "book", json!({"origin": "CDG"}), rounds(None, None)).await;
    insta::assert_json_snapshot!("asked_departure_date_and_cabin", only_request(&first).1);
}

#[tokio::test]
async fn an_invalid_answer_is_asked_again_saying_why_then_a_valid_one_runs() {
    let (tools, _) = toolbox();
    // The model's value is in the past: the user is asked, told why.
    let args = json!({"origin": "CDG", "cabin": "economy", "departure_date": "12/12/2024"});
    let first = call(&tools, "book", args.clone(), rounds(None, None)).await;
    let (key, params, state) = only_request(&first);
    assert!(
        params["message"]
            .as_str()
            .unwrap()
            .starts_with("Which day do you fly? (must be a date in the future"),
        "{params}"
    );

    let past = json!({ key.clone(): accept(json!({"departure_date": "01/01/2020"})) });
    let second = call(
        &tools,
        "book",
        args.clone(),
        rounds(Some(past), Some(state)),
    )
    .await;
    let (key, params, state) = only_request(&second);
    assert!(
        params["message"]
            .as_str()
            .unwrap()
            .contains("\"01/01/2020\""),
        "{params}"
    );

    let good = json!({ key: accept(json!({"departure_date": "15/01/2027"})) });
    let done = complete(call(&tools, "book", args, rounds(Some(good), Some(state))).await);
    assert_eq!(done.text(), "CDG on 15/01/2027 in economy for 1");
}

#[tokio::test]
async fn a_failed_call_shows_the_model_what_it_sent_not_what_the_user_answered() {
    let (tools, _) = toolbox();
    let args = json!({"origin": "ZZZ", "cabin": "economy"});
    let first = call(&tools, "book", args.clone(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    let answer = json!({ key: accept(json!({"departure_date": "15/01/2027"})) });
    let failed = complete(
        call(
            &tools,
            "book",
            args.clone(),
            rounds(Some(answer), Some(state)),
        )
        .await,
    );
    assert!(failed.is_error);
    let structured = failed.structured_content.unwrap();
    assert_eq!(structured["errorCategory"], "transient");
    // The user's answer went to the server, not to the model.
    assert_eq!(
        structured["attempted_query"]["arguments"], args,
        "{structured}"
    );
}

#[tokio::test]
async fn asking_stops_after_three_invalid_answers_and_the_model_is_told() {
    let (tools, _) = toolbox();
    let args = json!({"origin": "CDG", "cabin": "economy"});
    let mut answer = call(&tools, "book", args.clone(), rounds(None, None)).await;
    for _ in 0..3 {
        let (key, _, state) = only_request(&answer);
        let bad = json!({ key: accept(json!({"departure_date": "yesterday"})) });
        answer = call(&tools, "book", args.clone(), rounds(Some(bad), Some(state))).await;
    }
    let result = complete(answer);
    assert!(result.is_error);
    assert!(
        result.text().contains("departure_date"),
        "{}",
        result.text()
    );
}

#[tokio::test]
async fn the_models_own_mistakes_go_back_to_the_model_first() {
    let (tools, _) = toolbox();
    let result = complete(
        call(
            &tools,
            "book",
            json!({"origin": "Paris"}),
            rounds(None, None),
        )
        .await,
    );
    assert!(result.is_error);
    let paths: Vec<String> = result.structured_content.unwrap()["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["path"].as_str().unwrap().to_owned())
        .collect();
    assert!(paths.contains(&"/origin".to_owned()), "{paths:?}");
}

#[tokio::test]
async fn a_declined_field_tells_the_model_not_to_guess() {
    let (tools, _) = toolbox();
    let args = json!({"origin": "CDG", "cabin": "economy"});
    let first = call(&tools, "book", args.clone(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    let result = complete(
        call(
            &tools,
            "book",
            args,
            rounds(Some(json!({ key: {"action": "decline"} })), Some(state)),
        )
        .await,
    );
    assert!(result.is_error);
    assert!(
        result.text().contains("Which day do you fly?"),
        "{}",
        result.text()
    );
    assert_eq!(result.structured_content.unwrap()["isRetryable"], false);
}

#[tokio::test]
async fn a_client_that_cannot_ask_gets_the_validation_error() {
    let (tools, _) = toolbox();
    let result = tools
        .call("book", json!({"origin": "CDG", "cabin": "economy"}))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.structured_content.unwrap()["errorCategory"],
        "validation"
    );
}

#[tokio::test]
async fn the_handler_asks_across_rounds_and_runs_its_action_once() {
    let (tools, shop) = toolbox();
    let args = json!({"customer": "ada"});
    let first = call(&tools, "refund", args.clone(), rounds(None, None)).await;
    let (key, params, state) = only_request(&first);
    assert_eq!(key, "mcp-tool/question/0");
    assert_eq!(
        params["requestedSchema"]["properties"]["choice"]["oneOf"],
        json!([{"const": "ORD-1", "title": "ORD-1: a lamp"}, {"const": "ORD-2", "title": "ORD-2: a chair"}])
    );
    let second = call(
        &tools,
        "refund",
        args.clone(),
        rounds(
            Some(json!({ key: accept(json!({"choice": "ORD-2"})) })),
            Some(state),
        ),
    )
    .await;
    let (key, params, state) = only_request(&second);
    assert_eq!(key, "mcp-tool/question/1");
    assert_eq!(params["message"], "Refund a chair to ada?");
    assert!(shop.refunded.lock().unwrap().is_empty());
    let done = complete(
        call(
            &tools,
            "refund",
            args,
            rounds(Some(json!({ key: accept(json!({})) })), Some(state)),
        )
        .await,
    );
    assert_eq!(done.text(), "refunded ORD-2");
    assert_eq!(*shop.refunded.lock().unwrap(), ["ORD-2"]);
}

#[tokio::test]
async fn a_choice_that_is_none_of_the_options_is_asked_again() {
    let (tools, _) = toolbox();
    let args = json!({"customer": "ada"});
    let first = call(&tools, "refund", args.clone(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    let stray = call(
        &tools,
        "refund",
        args,
        rounds(
            Some(json!({ key: accept(json!({"choice": "ORD-9"})) })),
            Some(state),
        ),
    )
    .await;
    let (key, params, _) = only_request(&stray);
    assert_eq!(key, "mcp-tool/question/0");
    assert_eq!(params["message"], "Which order do you mean?");
}

/// A 2025-11-25 client: answers each `elicitation/create` from a script.
struct Scripted(Mutex<VecDeque<Result<Value, String>>>, Mutex<Vec<Value>>);

impl Scripted {
    fn new(replies: Vec<Result<Value, String>>) -> Arc<Self> {
        Arc::new(Scripted(Mutex::new(replies.into()), Mutex::new(Vec::new())))
    }
    fn asked(&self) -> Vec<Value> {
        self.1.lock().unwrap().clone()
    }
}

impl Elicit for Scripted {
    fn elicit(&self, params: Value) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send>> {
        self.1.lock().unwrap().push(params);
        let reply = self
            .0
            .lock()
            .unwrap()
            .pop_front()
            .expect("a scripted reply");
        Box::pin(async move { reply })
    }
}

#[tokio::test]
async fn live_asking_waits_for_each_answer_within_the_call() {
    let (tools, shop) = toolbox();
    let client = Scripted::new(vec![Ok(accept(json!({})))]);
    let done = complete(call(&tools, "cancel_order", order(), Reach::Live(client.clone())).await);
    assert_eq!(done.text(), "cancelled ORD-42 (changed my mind)");
    assert_eq!(
        client.asked()[0]["message"],
        "Cancel order ORD-42? Reason: changed my mind"
    );
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);

    let client = Scripted::new(vec![
        Ok(accept(json!({"departure_date": "01/01/2020"}))),
        Ok(accept(json!({"departure_date": "15/01/2027"}))),
    ]);
    let done = complete(
        call(
            &tools,
            "book",
            json!({"origin": "CDG", "cabin": "business"}),
            Reach::Live(client.clone()),
        )
        .await,
    );
    assert_eq!(done.text(), "CDG on 15/01/2027 in business for 1");
    assert_eq!(client.asked().len(), 2);

    let client = Scripted::new(vec![
        Ok(accept(json!({"choice": "ORD-1"}))),
        Ok(json!({"action": "decline"})),
    ]);
    let result = complete(
        call(
            &tools,
            "refund",
            json!({"customer": "bo"}),
            Reach::Live(client),
        )
        .await,
    );
    assert!(result.is_error);
    assert!(result.text().contains("declined"), "{}", result.text());
    assert!(shop.refunded.lock().unwrap().is_empty());
}

#[tokio::test]
async fn no_answer_over_the_connection_is_a_transient_error() {
    let (tools, shop) = toolbox();
    let client = Scripted::new(vec![Err("request timed out".into())]);
    let result = complete(call(&tools, "cancel_order", order(), Reach::Live(client)).await);
    assert!(result.is_error);
    assert!(
        result.text().contains("request timed out"),
        "{}",
        result.text()
    );
    let content = result.structured_content.unwrap();
    assert_eq!(content["errorCategory"], "transient");
    assert_eq!(content["isRetryable"], true);
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_replica_with_the_same_key_resumes_the_call() {
    let (first_replica, _) = toolbox();
    let (second_replica, shop) = toolbox();
    let first = call(&first_replica, "cancel_order", order(), rounds(None, None)).await;
    let (key, _, state) = only_request(&first);
    let done = complete(
        call(
            &second_replica,
            "cancel_order",
            order(),
            rounds(Some(json!({ key: accept(json!({})) })), Some(state)),
        )
        .await,
    );
    assert!(!done.is_error, "{done:?}");
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);
}

/// Plan a trip.
#[derive(McpTool, Deserialize)]
#[allow(dead_code)]
struct Plan {
    #[validate(ask = "Which cabins would do?", length(min = 1))]
    cabins: Vec<Cabin>,
    #[validate(ask = "How many nights?", range(min = 1, max = 30))]
    nights: u8,
    #[validate(ask = "Window seat?")]
    window: bool,
    #[validate(ask = "Your email?", email)]
    email: String,
    #[validate(
        ask = "Budget?",
        range(exclusive_min = 0, max = 10000),
        multiple_of = 50
    )]
    budget: u32,
    #[validate(ask = "From which day?", future_date)]
    from: String,
    #[validate(ask = "Anything else?", length(max = 200))]
    notes: Option<String>,
}

#[tokio::test]
async fn every_kind_of_field_a_form_takes_is_asked_in_its_flat_form() {
    let tools = Toolbox::new().tool(|_: Arc<()>, plan: Plan| async move {
        Ok(format!(
            "{} cabins, {} nights",
            plan.cabins.len(),
            plan.nights
        ))
    });
    let first = call_plain(&tools, json!({}), rounds(None, None)).await;
    let (key, params, state) = only_request(&first);
    insta::assert_json_snapshot!("asked_every_kind", params);
    // rmcp reads it as the form it sends: no kind of field is lost on the way.
    let typed: rmcp::model::ElicitRequestParams = serde_json::from_value(params.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(typed).unwrap()["requestedSchema"],
        params["requestedSchema"]
    );
    // The answers are checked by the fields' rules, an array of choices among them.
    let answers = json!({ key: accept(json!({
        "cabins": ["economy", "business"], "nights": 3, "window": true,
        "email": "ada@example.com", "budget": 500, "from": "2099-01-15",
    })) });
    let done = complete(call_plain(&tools, json!({}), rounds(Some(answers), Some(state))).await);
    assert_eq!(done.text(), "2 cabins, 3 nights");
}

async fn call_plain(tools: &Toolbox, arguments: Value, reach: Reach) -> Answer {
    tools
        .call_reaching(SchemaProfile::Portable, "plan", arguments, reach)
        .await
        .unwrap()
}

/// A store of rounds shared by replicas (keys with an expiry in Redis, say).
#[derive(Clone, Default)]
struct SharedStore(Arc<Mutex<std::collections::HashMap<String, Option<String>>>>);

impl mcp_tool::ask::UsedStates for SharedStore {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        _keep_until: std::time::SystemTime,
    ) -> mcp_tool::ask::Stored<'a, mcp_tool::ask::Claim> {
        use mcp_tool::ask::Claim;
        let mut rounds = self.0.lock().unwrap();
        let claim = match rounds.get(id) {
            None => {
                rounds.insert(id.to_owned(), None);
                Claim::First
            }
            Some(None) => Claim::Running,
            Some(Some(answer)) => Claim::Answered(answer.clone()),
        };
        Box::pin(async move { claim })
    }

    fn keep<'a>(
        &'a self,
        id: &'a str,
        answer: String,
        _keep_until: std::time::SystemTime,
    ) -> mcp_tool::ask::Stored<'a, ()> {
        self.0.lock().unwrap().insert(id.to_owned(), Some(answer));
        Box::pin(async {})
    }
}

#[tokio::test]
async fn replicas_that_share_their_rounds_run_a_round_once_on_either() {
    let store = SharedStore::default();
    let replica = |store: SharedStore| {
        let (tools, shop) = toolbox();
        (tools.used_states(store), shop)
    };
    let (first, _) = replica(store.clone());
    let (second, shop) = replica(store);
    let asked = call(&first, "cancel_order", order(), rounds(None, None)).await;
    let (key, _, state) = only_request(&asked);
    let yes = json!({ key: accept(json!({})) });
    let done = complete(
        call(
            &first,
            "cancel_order",
            order(),
            rounds(Some(yes.clone()), Some(state.clone())),
        )
        .await,
    );
    assert!(!done.is_error);
    let replayed = complete(
        call(
            &second,
            "cancel_order",
            order(),
            rounds(Some(yes), Some(state)),
        )
        .await,
    );
    assert_eq!(replayed, done, "the first replica's answer");
    assert_eq!(
        shop.cancelled.load(Ordering::SeqCst),
        0,
        "the second replica ran nothing"
    );
}

/// A tool a caller holding a named scope may run unconfirmed: an agent with no human
/// (a client-credentials grant, no elicitation capability) passes `confirm` only with
/// that scope; any other caller of a client that cannot ask is refused, and a client
/// that can ask still asks its user.
#[tokio::test]
async fn a_caller_holding_the_trusted_scope_runs_a_confirmed_tool_unconfirmed() {
    use mcp_tool::{Caller, Unverified};

    /// Ship an order.
    #[derive(McpTool, Deserialize)]
    #[mcp_tool(confirm = "Ship {id}?", unconfirmed_scope = "orders:unattended")]
    struct Ship {
        id: String,
    }
    let shipped = Arc::new(AtomicUsize::new(0));
    let tools = |unverified: Unverified| {
        let shipped = Arc::clone(&shipped);
        Toolbox::new()
            .unverified_calls(unverified)
            .tool(move |a: Ship| {
                let shipped = Arc::clone(&shipped);
                async move {
                    shipped.fetch_add(1, Ordering::SeqCst);
                    Ok(format!("shipped {}", a.id))
                }
            })
    };
    let agent = Caller::new("robot").with_scopes(["orders:unattended"]);
    let served = tools(Unverified::Refused);
    let result = served
        .call_as(&agent, "ship", json!({"id": "o1"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "shipped o1");
    // Another caller, whose client cannot ask either: refused, nothing done.
    let other = Caller::new("bob").with_scopes(["orders:write"]);
    let result = served
        .call_as(&other, "ship", json!({"id": "o2"}))
        .await
        .unwrap();
    assert!(result.is_error);
    assert!(
        result.text().contains("cannot ask its user"),
        "{}",
        result.text()
    );
    // No caller at all.
    let result = served.call("ship", json!({"id": "o3"})).await.unwrap();
    assert!(result.is_error);
    assert_eq!(shipped.load(Ordering::SeqCst), 1);
    // Over stdio, the operator's named caller holds the scope: trusted as a token's.
    let stdio = tools(Unverified::As(agent.clone()));
    let result = stdio.call("ship", json!({"id": "o4"})).await.unwrap();
    assert_eq!(result.text(), "shipped o4");
    // A client that can ask: its user is asked, whoever calls.
    let asked = served
        .call_reaching_as(
            Some(&agent),
            SchemaProfile::Portable,
            "ship",
            json!({"id": "o5"}),
            rounds(None, None),
        )
        .await
        .unwrap();
    assert!(
        matches!(asked, Answer::InputRequired(_)),
        "the user is asked"
    );
    assert_eq!(shipped.load(Ordering::SeqCst), 2);
}
