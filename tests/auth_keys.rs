//! The issuer and its keys as the HTTP server (feature `auth`) trusts them, against the
//! tests' issuer: the keys of its JWK set taken or passed over, the set read again on
//! its age and never while a known key waits, one answer while it is down, the hosts
//! it is read from; and the tokens taken (`typ`, `iss`, `sub`, `exp`). Each as the
//! client sees it: the status and the `WWW-Authenticate` challenge.

use std::sync::atomic::Ordering;
use std::time::Duration;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_tool::http::HttpServer;
use mcp_tool::http::auth::{
    Authorization, BoxFuture, JwtVerifier, Rejected, TokenVerifier, Verified,
};
use serde_json::{Value, json};

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
use issuer::*;
use raw_http::header;

/// RSA keys of the tests (PKCS#1 DER), and their moduli (JWK `n`; `e` is 65537).
const RSA_1024: &[u8] = include_bytes!("support/keys/rsa1024.der");
const RSA_1024_N: &str = "02VLN09j7rA8EXySbma9oH-oY7l7CtEnKfxRN0q9rdDqzuaAOmn1KBNSYigm__1-w1WBIbphqtTkR9gTDgozpdRp9SoPDzqazWcLTq4zlxR0q7vKz_1YXPB7i5MAdKwIFpslHN8hnnCPiuFg0rsUZ-Fm2sCgETz423w-UuyDAJ0";
const RSA_2048: &[u8] = include_bytes!("support/keys/rsa2048.der");
const RSA_2048_N: &str = "3tPijRw06MsvNDKD1HKDZaBNuLu5FFDKpEUmu1GMK0rurTnCstagLle2tKrRxUQ1cTxljBSIUXYveP60Ev5-aWfDeN6pydvVX3KGDwGuoCiTRNYB82F1xx_eNO7ftaI4DEDrGvHpTO2ECoS2kldSv0Cz6vlWWV2D7jnBo1KLu1rUOp0keW6IOOVuPkkXYBFWHSRBH7T6MUMVSzus-7iBZhoawr4089ENOODoW0Goee0DRrF_MQsrKWUZwUhEmDEfaABJ0dG3PdB7d3WvwAcezagNaFWEgb-ZA1PQVnu2jkWpcd1rfQuiMqIoGW0tw2ui61l7Kp6IU7XUG1WPKU94ZQ";

/// A token of `claims` signed with the RSA key `der` by `alg`, named `kid`.
fn mint_rsa(claims: &Value, kid: &str, alg: Algorithm, der: &[u8]) -> String {
    let mut header = Header::new(alg);
    header.kid = Some(kid.to_owned());
    header.typ = Some("at+jwt".into());
    let key = EncodingKey::from_rsa_der(der);
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

/// A `tools/list` with `token`: the status and the challenge, if any.
async fn list(port: u16, token: &str) -> (u16, Option<String>, Vec<String>) {
    let (code, headers, _) = request(port, &bearer(token), "tools/list", json!({})).await;
    let challenge = header(&headers, "www-authenticate").map(str::to_owned);
    (code, challenge, headers)
}

/// Asserts a 401 `invalid_token` whose description says `why`.
fn assert_invalid(answer: &(u16, Option<String>, Vec<String>), why: &str, what: &str) {
    assert_eq!(answer.0, 401, "{what}: {answer:?}");
    let challenge = answer.1.as_deref().unwrap_or_default();
    assert!(
        challenge.starts_with("Bearer error=\"invalid_token\"") && challenge.contains(why),
        "{what}: {challenge}"
    );
}

#[tokio::test]
async fn only_keys_for_signatures_of_their_own_algorithm_and_strength_verify() {
    let issuer = issuer().await;
    *issuer.jwks.lock().unwrap() = json!({"keys": [
        // Members this crate does not use: another key type, a field it cannot read.
        {"kty": "AKP", "alg": "ML-DSA-44", "pub": "AAAA", "kid": "pq"},
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "odd", "x5c": "not a list"},
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "k1", "alg": "EdDSA", "use": "sig"},
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "enc", "use": "enc"},
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "wrap", "key_ops": ["wrapKey"]},
        {"kty": "RSA", "n": RSA_1024_N, "e": "AQAB", "kid": "small", "alg": "RS256"},
        {"kty": "RSA", "n": RSA_2048_N, "e": "AQAB", "kid": "oaep", "alg": "RSA-OAEP-256"},
        {"kty": "RSA", "n": RSA_2048_N, "e": "AQAB", "kid": "rs256", "alg": "RS256", "key_ops": ["verify"]},
    ]});
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let good = claims(&issuer.url(), &resource, "orders:read");

    // The set is read although some members are nothing this crate uses.
    assert_eq!(list(port, &mint(&good, "k1")).await.0, 200);
    let rs256 = mint_rsa(&good, "rs256", Algorithm::RS256, RSA_2048);
    assert_eq!(list(port, &rs256).await.0, 200);

    let refused = [
        ("use enc", mint(&good, "enc"), "use is not sig"),
        ("key_ops without verify", mint(&good, "wrap"), "key_ops"),
        (
            "RSA of 1024 bits",
            mint_rsa(&good, "small", Algorithm::RS256, RSA_1024),
            "under 2048 bits",
        ),
        (
            "a key for encryption by its alg",
            mint_rsa(&good, "oaep", Algorithm::RS256, RSA_2048),
            "no signature",
        ),
        (
            "another algorithm than the key's alg",
            mint_rsa(&good, "rs256", Algorithm::PS256, RSA_2048),
            "not among the issuer's",
        ),
        ("a member unread", mint(&good, "odd"), "cannot read"),
    ];
    for (what, token, why) in &refused {
        assert_invalid(&list(port, token).await, why, what);
    }
    serving.stop().await;
}

#[tokio::test]
async fn only_access_tokens_are_taken() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let good = claims(&issuer.url(), &resource, "orders:read");
    // RFC 9068's own, and what issuers that predate it write.
    for typ in [
        Some("at+jwt"),
        Some("application/at+jwt"),
        Some("JWT"),
        None,
    ] {
        let (code, _, _) = list(port, &mint_typed(&good, "k1", typ)).await;
        assert_eq!(code, 200, "{typ:?}");
    }
    // An ID token or a logout token is no access token, whatever it holds.
    for typ in ["id_token+jwt", "logout+jwt", "secevent+jwt"] {
        let answer = list(port, &mint_typed(&good, "k1", Some(typ))).await;
        assert_invalid(&answer, "typ is not that of an access token", typ);
    }
    serving.stop().await;

    // RFC 9068 read strictly: at+jwt only.
    let (serving, resource, _) = resource_with(&issuer, JwtVerifier::require_at_jwt).await;
    let good = claims(&issuer.url(), &resource, "orders:read");
    assert_eq!(list(serving.port, &mint(&good, "k1")).await.0, 200);
    for typ in [Some("JWT"), None] {
        let answer = list(serving.port, &mint_typed(&good, "k1", typ)).await;
        assert_invalid(&answer, "typ is not that of an access token", "strict");
    }
    serving.stop().await;
}

#[tokio::test]
async fn claims_no_caller_can_be_made_of_are_refused_and_none_panics() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let good = claims(&issuer.url(), &resource, "orders:read");
    let with = |key: &str, value: Value| {
        let mut c = good.clone();
        c[key] = value;
        c
    };
    assert_invalid(
        &list(port, &mint(&with("sub", json!("")), "k1")).await,
        "sub is empty",
        "empty sub",
    );
    assert_invalid(
        &list(port, &mint(&with("iss", json!([issuer.url()])), "k1")).await,
        "iss is not the issuer",
        "iss as a list",
    );
    // An `exp` past what the clock holds: taken (it is in the future), and the
    // connection's task does not panic on it.
    let far = mint(&with("exp", json!((1u64 << 63) + 5)), "k1");
    assert_eq!(list(port, &far).await.0, 200);
    assert_eq!(list(port, &far).await.0, 200, "and again, from the cache");
    serving.stop().await;
}

/// A verifier of its own whose refusals are not in ASCII.
struct InOtherLetters;

impl TokenVerifier for InOtherLetters {
    fn verify<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Verified, Rejected>> {
        Box::pin(async { Err(Rejected::invalid("clé inconnue — refusée")) })
    }
}

#[tokio::test]
async fn a_refusal_in_other_letters_keeps_its_challenge() {
    let resource = "http://127.0.0.1:1/mcp";
    let auth = Authorization::new(InOtherLetters, resource, "http://127.0.0.1:2");
    let serving = raw_http::start(
        HttpServer::new().authorization(auth),
        mcp_tool::Toolbox::new(),
    )
    .await;
    let (code, headers, body) =
        request(serving.port, &bearer("abc"), "tools/list", json!({})).await;
    assert_eq!(code, 401);
    assert_eq!(
        header(&headers, "www-authenticate"),
        Some(
            "Bearer error=\"invalid_token\", error_description=\"cl? inconnue ? refus?e\", resource_metadata=\"http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp\""
        )
    );
    // The body, which is JSON, says it as it was written.
    assert!(body.contains("clé inconnue — refusée"), "{body}");
    serving.stop().await;
}

/// Requests `tokens()` until the answer is `code`, for at most 20 seconds: a read of
/// the JWK set in the background lands when it lands.
async fn until(
    code: u16,
    mut tokens: impl FnMut() -> String,
    port: u16,
) -> (u16, Option<String>, Vec<String>) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let answer = list(port, &tokens()).await;
        if answer.0 == code || tokio::time::Instant::now() > deadline {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_key_removed_from_the_set_stops_verifying_within_its_max_age() {
    let issuer = issuer().await;
    // The issuer says its set may be kept a second; the verifier reads it again no
    // sooner than a second after the last read.
    *issuer.cache_control.lock().unwrap() = Some("public, max-age=1".into());
    let (serving, resource, _) = resource_refetching(&issuer, Duration::from_secs(1)).await;
    let port = serving.port;
    let good = claims(&issuer.url(), &resource, "orders:read");
    let kept = mint(&good, "k1");
    assert_eq!(list(port, &kept).await.0, 200);

    // The key is rotated out (k2 is the same key, under another name).
    *issuer.jwks.lock().unwrap() = json!({"keys": [
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "k2", "alg": "EdDSA"}
    ]});
    let mut n = 0;
    let fresh = move || {
        // A new token each time, so that none is answered from the cache.
        n += 1;
        let mut c = good.clone();
        c["jti"] = json!(n);
        mint(&c, "k1")
    };
    let answer = until(401, fresh, port).await;
    assert_invalid(
        &answer,
        "not among the issuer's",
        "a new token of the removed key",
    );
    // A token verified before is kept no longer than the keys that verified it.
    assert_invalid(
        &list(port, &kept).await,
        "not among the issuer's",
        "a token kept",
    );
    assert!(issuer.fetches.load(Ordering::SeqCst) >= 2);
    serving.stop().await;
}

/// How often the servers of [`keys_read_once`] may read the keys again.
const REFETCH: Duration = Duration::from_secs(1);

/// The tests' issuer, a server that reads its keys again at most every [`REFETCH`],
/// and the claims of a good token, whose first use read the keys once.
async fn keys_read_once() -> (Issuer, raw_http::Serving, Value) {
    let issuer = issuer().await;
    let (serving, resource, _) = resource_refetching(&issuer, REFETCH).await;
    let good = claims(&issuer.url(), &resource, "orders:read");
    assert_eq!(list(serving.port, &mint(&good, "k1")).await.0, 200);
    (issuer, serving, good)
}

#[tokio::test]
async fn a_known_key_never_waits_for_a_read_of_the_set() {
    let (issuer, serving, good) = keys_read_once().await;
    let (port, refetch) = (serving.port, REFETCH);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // The issuer hangs; a token of an unknown kid makes the verifier read the set.
    tokio::time::sleep(refetch).await;
    let held = issuer.hold.write().await;
    let unknown: Vec<_> = (0..5)
        .map(|i| {
            let token = mint(&good, &format!("random-{i}"));
            tokio::spawn(async move { list(port, &token).await.0 })
        })
        .collect();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while issuer.fetches.load(Ordering::SeqCst) < 2 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2, "the read began");

    // Meanwhile a new token of the known key is answered: nothing waits on that read.
    // (The bound only tells "answered" from "waited until the read gave up", which the
    // reader does after 5 seconds; an answer takes milliseconds.)
    let mut known = good.clone();
    known["jti"] = json!("new");
    let answered =
        tokio::time::timeout(Duration::from_secs(4), list(port, &mint(&known, "k1"))).await;
    assert_eq!(
        answered.map(|a| a.0).ok(),
        Some(200),
        "a known key waited for the issuer"
    );

    drop(held);
    for task in unknown {
        // 401 once the set is read without their keys (503 only if the machine was so
        // slow that the read gave up, after 5 seconds, before the issuer was let go).
        let code = task.await.unwrap();
        assert!(code == 401 || code == 503, "{code}");
    }
    // Five unknown kids, one read, and never two at once.
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    assert_eq!(issuer.most_at_once.load(Ordering::SeqCst), 1);
    serving.stop().await;
}

#[tokio::test]
async fn while_the_issuer_is_down_an_unseen_key_gets_503_every_time() {
    let (issuer, serving, good) = keys_read_once().await;
    let (port, refetch) = (serving.port, REFETCH);

    issuer.down.store(true, Ordering::SeqCst);
    tokio::time::sleep(refetch).await;
    // The read this token begins fails, and so does the next one's, which comes before
    // the set may be read again: both are told the same.
    for kid in ["k2", "k3", "k4"] {
        let (code, challenge, headers) = list(port, &mint(&good, kid)).await;
        assert_eq!(code, 503, "{kid}");
        assert_eq!(challenge, None, "{kid}");
        assert_eq!(header(&headers, "retry-after"), Some("30"), "{kid}");
    }
    // The keys read before still verify.
    let mut known = good.clone();
    known["jti"] = json!("while down");
    assert_eq!(list(port, &mint(&known, "k1")).await.0, 200);
    serving.stop().await;
}

#[tokio::test]
async fn the_keys_are_read_on_the_issuers_host_unless_another_is_allowed() {
    let issuer = issuer().await;
    // The metadata sends the verifier to another host (here loopback by another name).
    let elsewhere = format!("http://localhost:{}/jwks", issuer.port);
    issuer.metadata.lock().unwrap()["jwks_uri"] = json!(elsewhere);
    let (serving, resource, _) = resource(&issuer).await;
    let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    assert_eq!(list(serving.port, &token).await.0, 503);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 0, "never read");
    serving.stop().await;

    let (serving, resource, _) = resource_with(&issuer, |v| v.allow_jwks_host("localhost")).await;
    let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    assert_eq!(list(serving.port, &token).await.0, 200);
    serving.stop().await;
}

#[tokio::test]
async fn a_plain_http_issuer_on_another_host_stops_the_server_at_its_start() {
    let start = |verifier: JwtVerifier| async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let resource = "http://127.0.0.1:1/mcp";
        let auth = Authorization::new(verifier, resource, "http://auth.example.com");
        HttpServer::new()
            .authorization(auth)
            .serve_until(mcp_tool::Toolbox::new(), listener, async {})
            .await
    };
    let resource = "http://127.0.0.1:1/mcp";
    let refused = start(JwtVerifier::new("http://auth.example.com", resource))
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::InvalidInput);
    assert!(
        refused.to_string().contains("allow_plain_http"),
        "{refused}"
    );
    // Said explicitly (a trusted network), it starts (and stops at once).
    let allowed = JwtVerifier::new("http://auth.example.com", resource).allow_plain_http();
    start(allowed).await.unwrap();
    // A jwks_uri given by the operator is held to the same.
    let jwks =
        JwtVerifier::new("http://127.0.0.1:9", resource).jwks_uri("http://keys.example.com/");
    assert!(start(jwks).await.is_err());
}
