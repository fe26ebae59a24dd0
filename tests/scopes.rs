//! Who may call what, over any transport: the scopes a tool declares, the caller a
//! handler receives, and what a call without a verified caller is served as.

use std::sync::Arc;

use mcp_tool::{Caller, McpTool, ToolError, ToolScopes, Toolbox, Unverified};
use serde::Deserialize;
use serde_json::{Value, json};

/// Find an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read"))]
struct FindOrder {
    order_id: String,
}

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read", "orders:write"), destructive)]
struct CancelOrder {
    order_id: String,
}

/// Say hello.
#[derive(McpTool, Deserialize)]
struct Ping {}

struct Shop;

async fn find(_: Arc<Shop>, caller: Caller, args: FindOrder) -> Result<Value, ToolError> {
    if !args.order_id.starts_with(caller.subject()) {
        return Err(ToolError::permission("This order is not yours."));
    }
    Ok(json!({"order": args.order_id, "for": caller.subject(), "client": caller.client_id()}))
}

async fn cancel(args: CancelOrder) -> Result<String, ToolError> {
    Ok(args.order_id)
}

async fn ping(_: Ping) -> Result<&'static str, ToolError> {
    Ok("pong")
}

fn shop() -> Toolbox<Shop> {
    Toolbox::with_state(Shop).tool(find).tool(cancel).tool(ping)
}

fn category(result: &mcp_tool::CallToolResult) -> &str {
    result.structured_content.as_ref().unwrap()["errorCategory"]
        .as_str()
        .unwrap()
}

#[test]
fn the_scopes_are_declared_on_the_tool() {
    assert_eq!(FindOrder::scopes(), ["orders:read"]);
    assert_eq!(CancelOrder::scopes(), ["orders:read", "orders:write"]);
    assert!(Ping::scopes().is_empty());
    let scopes = shop().tool_scopes();
    assert_eq!(scopes.of("cancel_order"), ["orders:read", "orders:write"]);
    assert!(scopes.of("ping").is_empty());
    assert_eq!(scopes.supported(), ["orders:read", "orders:write"]);
}

#[tokio::test]
async fn a_caller_without_a_scope_is_refused_before_the_arguments_are_read() {
    let reader = Caller::new("alice").with_scopes(["orders:read"]);
    // Arguments that would fail every check: the refusal comes first, and says nothing
    // of them.
    let result = shop()
        .call_as(
            &reader,
            "cancel_order",
            json!({"order_id": 42, "extra": true}),
        )
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(category(&result), "permission");
    let text = result.text();
    assert!(text.contains("orders:read orders:write"), "{text}");
    assert!(!text.contains("extra"), "{text}");
    let writer = Caller::new("alice").with_scopes(["orders:read", "orders:write"]);
    let result = shop()
        .call_as(&writer, "cancel_order", json!({"order_id": "alice-1"}))
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
}

#[tokio::test]
async fn a_handler_reads_its_caller_and_refuses_as_permission() {
    let alice = Caller::new("alice")
        .with_client_id("desk")
        .with_scopes(["orders:read"]);
    let tools = shop();
    let mine = tools
        .call_as(&alice, "find_order", json!({"order_id": "alice-7"}))
        .await
        .unwrap();
    assert_eq!(
        mine.structured_content.unwrap(),
        json!({"order": "alice-7", "for": "alice", "client": "desk"})
    );
    let theirs = tools
        .call_as(&alice, "find_order", json!({"order_id": "bob-7"}))
        .await
        .unwrap();
    assert!(theirs.is_error);
    assert_eq!(category(&theirs), "permission");
}

#[tokio::test]
async fn without_a_verified_caller_the_operator_decides() {
    // By default: the scoped tools are refused and not listed; the rest run.
    let tools = shop();
    let refused = tools
        .call("find_order", json!({"order_id": "alice-1"}))
        .await
        .unwrap();
    assert_eq!(category(&refused), "permission");
    assert!(!tools.call("ping", json!({})).await.unwrap().is_error);
    let listed: Vec<&str> = tools
        .list_to(None)
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(listed, ["ping"]);

    // Scopes ignored: the scoped tool without a caller runs; the handler that needs a
    // caller is still refused.
    let ignored = shop().unverified_calls(Unverified::ignore_scopes_over_stdio());
    let cancel = ignored
        .call("cancel_order", json!({"order_id": "x"}))
        .await
        .unwrap();
    assert!(!cancel.is_error);
    let find = ignored
        .call("find_order", json!({"order_id": "x"}))
        .await
        .unwrap();
    assert_eq!(category(&find), "permission");

    // A caller named by the operator, its scopes checked like a token's.
    let env = shop().unverified_calls(Unverified::As(
        Caller::new("alice").with_scopes(["orders:read"]),
    ));
    let find = env
        .call("find_order", json!({"order_id": "alice-2"}))
        .await
        .unwrap();
    assert!(!find.is_error, "{}", find.text());
    let cancel = env
        .call("cancel_order", json!({"order_id": "alice-2"}))
        .await
        .unwrap();
    assert_eq!(category(&cancel), "permission");
    let listed: Vec<&str> = env.list_to(None).iter().map(|t| t.name.as_str()).collect();
    assert_eq!(listed, ["find_order", "ping"]);
}

#[test]
fn the_list_follows_the_token() {
    let tools = shop();
    let names = |caller: &Caller| -> Vec<String> {
        tools
            .list_to(Some(caller))
            .iter()
            .map(|t| t.name.clone())
            .collect()
    };
    assert_eq!(names(&Caller::new("a")), ["ping"]);
    assert_eq!(
        names(&Caller::new("a").with_scopes(["orders:read"])),
        ["find_order", "ping"]
    );
    assert_eq!(
        names(&Caller::new("a").with_scopes(["orders:write", "orders:read"])),
        ["find_order", "cancel_order", "ping"]
    );
}

#[test]
fn claims_read_into_the_authors_type() {
    #[derive(Deserialize)]
    struct Claims {
        tenant: String,
    }
    let claims = json!({"sub": "alice", "tenant": "acme"});
    let caller = Caller::new("alice").with_claims(claims.as_object().unwrap().clone());
    assert_eq!(caller.claims::<Claims>().unwrap().tenant, "acme");
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Needs {
        region: String,
    }
    // The server's mistake, not the model's: an unexpected error (sent as transient).
    let error = caller.claims::<Needs>().unwrap_err();
    assert_eq!(
        error.to_call_result().structured_content.unwrap()["errorCategory"],
        "transient"
    );
    // The claims stay out of the caller's Debug (they may be personal data).
    assert!(!format!("{caller:?}").contains("acme"));
}

#[test]
#[should_panic(expected = "no RFC 6749 scope-token")]
fn a_table_with_a_bad_scope_is_refused_at_start() {
    let _ = ToolScopes::from_table(&[("find", &["orders read"])]);
}

/// Close an account.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Close {account}?", scopes("accounts:write"))]
struct CloseAccount {
    account: String,
}

#[tokio::test]
async fn a_sealed_state_is_bound_to_the_caller_who_began_the_call() {
    use mcp_tool::SchemaProfile;
    use mcp_tool::ask::{Answer, Reach};
    let closed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = Arc::clone(&closed);
    let tools = Toolbox::new().tool(move |args: CloseAccount| {
        let count = Arc::clone(&count);
        async move {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok::<_, ToolError>(args.account)
        }
    });
    let alice = Caller::new("alice").with_scopes(["accounts:write"]);
    let bob = Caller::new("bob").with_scopes(["accounts:write"]);
    let args = json!({"account": "A-1"});
    let call = |caller: &'static Caller, state: Option<String>| {
        let responses = state.as_ref().map(|_| {
            json!({"mcp-tool/confirm": {"action": "accept", "content": {}}})
                .as_object()
                .unwrap()
                .clone()
        });
        let reach = Reach::Rounds {
            input_responses: responses,
            request_state: state,
        };
        tools.call_reaching_as(
            Some(caller),
            SchemaProfile::Portable,
            "close_account",
            args.clone(),
            reach,
        )
    };
    let alice: &'static Caller = Box::leak(Box::new(alice));
    let bob: &'static Caller = Box::leak(Box::new(bob));
    let Answer::InputRequired(asked) = call(alice, None).await.unwrap() else {
        panic!("the call asks first");
    };
    let state = asked.request_state;
    // Bob holds Alice's state: a name, not a capability.
    let stolen = call(bob, Some(state.clone())).await.unwrap_err();
    assert!(
        stolen.message().contains("another caller"),
        "{}",
        stolen.message()
    );
    assert_eq!(closed.load(std::sync::atomic::Ordering::SeqCst), 0);
    // Alice's own answer runs the call, once.
    let Answer::Complete(done) = call(alice, Some(state.clone())).await.unwrap() else {
        panic!("answered");
    };
    assert!(!done.is_error, "{}", done.text());
    let Answer::Complete(again) = call(alice, Some(state.clone())).await.unwrap() else {
        panic!("answered");
    };
    assert_eq!(again.text(), done.text());
    assert_eq!(closed.load(std::sync::atomic::Ordering::SeqCst), 1);
    // And after it ran, Bob's resend is still refused, not given Alice's answer.
    assert!(call(bob, Some(state)).await.is_err());
}

/// An unknown tool's error tells a caller no more than its `tools/list` does: its "did
/// you mean" and its list of tools name only the tools this caller may call.
#[tokio::test]
async fn an_unknown_tools_error_names_only_the_tools_the_caller_is_listed() {
    let message = |caller: Caller| async move {
        let error = shop()
            .call_as(&caller, "cancel_ordr", json!({}))
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32602);
        error.message().to_owned()
    };
    let nobody = message(Caller::new("eve")).await;
    assert!(!nobody.contains("cancel_order"), "{nobody}");
    assert!(!nobody.contains("find_order"), "{nobody}");
    assert!(nobody.contains("ping"), "{nobody}");
    let reader = message(Caller::new("bob").with_scopes(["orders:read"])).await;
    assert!(!reader.contains("cancel_order"), "{reader}");
    assert!(reader.contains("find_order"), "{reader}");
    let writer = message(Caller::new("ada").with_scopes(["orders:read", "orders:write"])).await;
    assert!(
        writer.contains("Did you mean \"cancel_order\"?"),
        "{writer}"
    );
    // Without a verified caller, as the operator serves such calls.
    let unverified = shop().call("cancel_ordr", json!({})).await.unwrap_err();
    assert!(
        !unverified.message().contains("cancel_order"),
        "{unverified:?}"
    );
}
