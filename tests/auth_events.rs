//! The operator's view of authorization (features `auth` and `tracing`): a refused
//! call's event names the status, the caller's subject and the scopes it lacks, a call's
//! own event its caller, and no event holds a token. Its own test binary: the events
//! are caught by a subscriber of this thread, which tests running beside it would race.

use std::sync::{Arc, Mutex};

use serde_json::json;

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
use issuer::*;

/// Runs `scenario` on one thread with a subscriber of that thread catching every
/// event (the server's tasks run on it too): what the scenario returned, and the
/// events as text.
fn capturing<T>(scenario: impl std::future::Future<Output = T>) -> (T, String) {
    use tracing_subscriber::layer::SubscriberExt;
    let seen = Arc::new(Mutex::new(String::new()));
    let subscriber = tracing_subscriber::registry().with(Capture(Arc::clone(&seen)));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = rt.block_on(async {
        let _guard = tracing::subscriber::set_default(subscriber);
        scenario.await
    });
    let seen = seen.lock().unwrap().clone();
    (out, seen)
}

#[test]
fn the_refusal_event_names_the_subject_and_the_missing_scope_never_the_token() {
    let (token, seen) = capturing(async {
        let issuer = issuer().await;
        let (serving, resource, _) = resource(&issuer).await;
        let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
        let call = json!({"name": "cancel_order", "arguments": {"order_id": "A1"}});
        let (code, _, _) = request(serving.port, &bearer(&token), "tools/call", call).await;
        assert_eq!(code, 403);
        let call = json!({"name": "find_orders", "arguments": {"customer": "alice"}});
        let (code, _, _) = request(serving.port, &bearer(&token), "tools/call", call).await;
        assert_eq!(code, 200);
        serving.stop().await;
        token
    });
    assert!(seen.contains("http.status=403"), "{seen}");
    assert!(seen.contains("subject=\"alice\""), "{seen}");
    assert!(seen.contains("missing_scopes=\"orders:write\""), "{seen}");
    // The call's own event names its caller too.
    assert!(
        seen.lines()
            .any(|l| l.contains("tool=\"find_orders\"") && l.contains("subject=\"alice\"")),
        "{seen}"
    );
    holds_no_token(&seen, &[token.as_str()]);
}

#[test]
fn when_the_issuer_cannot_be_read_the_operator_is_told_why() {
    let (token, seen) = capturing(async {
        let issuer = issuer().await;
        issuer.down.store(true, std::sync::atomic::Ordering::SeqCst);
        let (serving, resource, _) = resource(&issuer).await;
        let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
        let call = json!({"name": "find_orders", "arguments": {"customer": "alice"}});
        let (code, _, _) = request(serving.port, &bearer(&token), "tools/call", call).await;
        assert_eq!(code, 503);
        serving.stop().await;
        token
    });
    let line = seen
        .lines()
        .find(|l| l.contains("the issuer's keys could not be read"))
        .unwrap_or_else(|| panic!("no event says why: {seen}"));
    assert!(line.contains("issuer=http://127.0.0.1:"), "{line}");
    assert!(line.contains("error="), "{line}");
    holds_no_token(&seen, &[token.as_str()]);
}

/// While the issuer is down, a token whose key was never read is refused with the
/// same status on the wire and in the event, each time: 503, never 401.
#[test]
fn while_the_issuer_is_down_the_wire_and_the_event_say_503() {
    let (codes, seen) = capturing(async {
        let issuer = issuer().await;
        let refetch = std::time::Duration::from_secs(1);
        let (serving, resource, _) = resource_refetching(&issuer, refetch).await;
        let good = claims(&issuer.url(), &resource, "orders:read");
        let (code, _, _) = request(
            serving.port,
            &bearer(&mint(&good, "k1")),
            "tools/list",
            json!({}),
        )
        .await;
        assert_eq!(code, 200);
        issuer.down.store(true, std::sync::atomic::Ordering::SeqCst);
        tokio::time::sleep(refetch).await;
        let mut codes = Vec::new();
        for kid in ["k2", "k3"] {
            let token = mint(&good, kid);
            codes.push(
                request(serving.port, &bearer(&token), "tools/list", json!({}))
                    .await
                    .0,
            );
        }
        serving.stop().await;
        codes
    });
    assert_eq!(codes, [503, 503]);
    let refusals: Vec<&str> = seen
        .lines()
        .filter(|l| l.contains("http.status="))
        .collect();
    assert_eq!(refusals.len(), 2, "{seen}");
    assert!(
        refusals.iter().all(|l| l.contains("http.status=503")),
        "{seen}"
    );
}

/// Every event's fields, as text.
struct Capture(Arc<Mutex<String>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Capture {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Fields<'a>(&'a mut String);
        impl tracing::field::Visit for Fields<'_> {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!("{}={:?} ", field.name(), value));
            }
        }
        let mut seen = self.0.lock().unwrap();
        event.record(&mut Fields(&mut seen));
        seen.push('\n');
    }
}
