//! The HTTP server as an OAuth resource server (feature `auth`), against an issuer this
//! test serves (its metadata and JWK set) and tokens it mints, the hostile ones too:
//! each gets the right status, nothing panics, and no token is in any answer or log.

use std::sync::atomic::Ordering;
use std::time::Duration;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
use issuer::*;
use raw_http::{header, post_text};

#[tokio::test]
async fn the_metadata_says_who_issues_tokens_for_what() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let text = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            serving.port
        );
        let (code, _, body) = send(serving.port, &text).await;
        assert_eq!(code, 200, "{path}");
        let body: Value = serde_json::from_str(body.trim()).unwrap();
        assert_eq!(
            body,
            json!({
                "resource": resource,
                "authorization_servers": [issuer.url()],
                "scopes_supported": ["orders:read", "orders:write"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
    serving.stop().await;
}

/// The tools' types are all that names their scopes: the server is given no table
/// (`support/issuer.rs`), so no tool can be forgotten in one and reach a token without
/// its scopes as anything but this 403.
#[tokio::test]
async fn a_token_opens_its_tools_and_a_403_names_every_scope_of_the_others() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let metadata = format!("http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp");

    // No token: 401, and the challenge leads to the metadata.
    let (code, headers, _) = request(port, "", "tools/list", json!({})).await;
    assert_eq!(code, 401);
    assert_eq!(
        header(&headers, "www-authenticate").unwrap(),
        format!("Bearer scope=\"orders:read\", resource_metadata=\"{metadata}\"")
    );

    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let (code, _, body) = request(port, &bearer(&reader), "tools/list", json!({})).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(listed(&body), ["find_orders"]);
    assert_eq!(message(&body)["result"]["cacheScope"], "private");

    let call = json!({"name": "find_orders", "arguments": {"customer": "alice"}});
    let (code, _, body) = request(port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(code, 200);
    assert_eq!(
        message(&body)["result"]["structuredContent"]["for"],
        "alice"
    );

    // The handler's own refusal: a result of the permission category.
    let call = json!({"name": "find_orders", "arguments": {"customer": "bob"}});
    let (_, _, body) = request(port, &bearer(&reader), "tools/call", call).await;
    let result = &message(&body)["result"];
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["errorCategory"], "permission");

    // A tool the token may not call: 403 before the arguments are read (these would
    // fail every check), naming every scope it needs.
    let call = json!({"name": "cancel_order", "arguments": {"order_id": 42}});
    let (code, headers, body) = request(port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(code, 403);
    assert_eq!(
        header(&headers, "www-authenticate").unwrap(),
        format!(
            "Bearer error=\"insufficient_scope\", error_description=\"the token does not grant every scope this tool needs\", scope=\"orders:read orders:write\", resource_metadata=\"{metadata}\""
        )
    );
    holds_no_token(&body, &[reader.as_str()]);

    let writer = mint(
        &claims(&issuer.url(), &resource, "orders:read orders:write"),
        "k1",
    );
    let (_, _, body) = request(port, &bearer(&writer), "tools/list", json!({})).await;
    assert_eq!(listed(&body), ["find_orders", "cancel_order"]);
    let call = json!({"name": "cancel_order", "arguments": {"order_id": "A1"}});
    let (code, _, body) = request(port, &bearer(&writer), "tools/call", call).await;
    assert_eq!(code, 200);
    assert_eq!(
        message(&body)["result"]["content"][0]["text"],
        "cancelled A1"
    );
    serving.stop().await;
}

#[tokio::test]
async fn hostile_tokens_get_401_and_leak_nowhere() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let url = issuer.url();
    let good = claims(&url, &resource, "orders:read");
    let with = |key: &str, value: Value| {
        let mut c = good.clone();
        c[key] = value;
        c
    };
    let none = {
        let head = base64url(r#"{"alg":"none","typ":"JWT","kid":"k1"}"#);
        format!("{head}.{}.", base64url(&good.to_string()))
    };
    // HMAC signed with the issuer's public key as the secret (key confusion).
    let hmac = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("k1".into());
        let secret = PUBLIC_X.as_bytes();
        jsonwebtoken::encode(&header, &good, &EncodingKey::from_secret(secret).unwrap()).unwrap()
    };
    let mut tampered = mint(&good, "k1");
    tampered.truncate(tampered.len() - 4);
    tampered.push_str("AAAA");
    let cases: Vec<(&str, String)> = vec![
        ("alg none", none),
        ("HMAC with the public key", hmac),
        (
            "wrong iss",
            mint(&with("iss", json!("http://evil.example.com")), "k1"),
        ),
        (
            "wrong aud",
            mint(&with("aud", json!("http://127.0.0.1:1/mcp")), "k1"),
        ),
        ("expired", mint(&with("exp", json!(now() - 3600)), "k1")),
        (
            "not yet valid",
            mint(&with("nbf", json!(now() + 3600)), "k1"),
        ),
        ("no sub", {
            let mut c = good.clone();
            c.as_object_mut().unwrap().remove("sub");
            mint(&c, "k1")
        }),
        ("bad base64", "e30.!!!.???".to_owned()),
        ("bad signature", tampered),
    ];
    for (what, token) in &cases {
        let (code, headers, body) = request(port, &bearer(token), "tools/list", json!({})).await;
        assert_eq!(code, 401, "{what}: {body}");
        let challenge = header(&headers, "www-authenticate").unwrap();
        assert!(
            challenge.contains("error=\"invalid_token\""),
            "{what}: {challenge}"
        );
        holds_no_token(&format!("{headers:?}{body}"), &[token.as_str()]);
    }
    // Not a bearer token at all.
    let (code, _, _) = request(
        port,
        "Authorization: Basic YWxpY2U6cHc=\r\n",
        "tools/list",
        json!({}),
    )
    .await;
    assert_eq!(code, 401);
    serving.stop().await;
}

#[tokio::test]
async fn malformed_requests_are_refused_cleanly() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let token = mint(
        &claims(&issuer.url(), &resource, "orders:read orders:write"),
        "k1",
    );

    // Two Authorization headers.
    let two = format!("{}{}", bearer(&token), bearer(&token));
    let (code, _, body) = request(port, &two, "tools/list", json!({})).await;
    assert_eq!(code, 400);
    holds_no_token(&body, &[token.as_str()]);

    // A token in the query string, even with a good one in the header.
    let text = post_text(
        &format!("127.0.0.1:{port}"),
        None,
        &format!("{}Connection: close\r\n", bearer(&token)),
        "{}",
    )
    .replacen("POST /mcp ", &format!("POST /mcp?access_token={token} "), 1);
    let (code, _, body) = send(port, &text).await;
    assert_eq!(code, 400);
    holds_no_token(&body, &[token.as_str()]);

    // A 1 MB Authorization header: refused, no panic, and the server still answers.
    let huge = format!("Authorization: Bearer {}\r\n", "a".repeat(1024 * 1024));
    let text = post_text(
        &format!("127.0.0.1:{port}"),
        None,
        &format!("{huge}Connection: close\r\n"),
        "{}",
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let _ = stream.write_all(text.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 4"),
        "{}",
        &answer[..answer.len().min(200)]
    );

    // An Mcp-Name header that disagrees with the body: 400, whatever the scopes.
    let call = json!({"name": "cancel_order", "arguments": {"order_id": "A1"}});
    let extra = format!("{}Mcp-Name: find_orders\r\n", bearer(&token));
    let (code, _, _) = request(port, &extra, "tools/call", call).await;
    assert_eq!(code, 400);

    let (code, _, _) = request(port, &bearer(&token), "tools/list", json!({})).await;
    assert_eq!(code, 200, "still serving");
    serving.stop().await;
}

#[tokio::test]
async fn under_2025_11_25_the_tool_is_read_from_the_body() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let host = format!("127.0.0.1:{port}");
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let extra = format!("{}Connection: close\r\n", bearer(&reader));
    let (code, headers, _) = send(port, &post_text(&host, None, &extra, &init.to_string())).await;
    assert_eq!(code, 200);
    let session = header(&headers, "mcp-session-id").unwrap().to_owned();
    let in_session = format!(
        "{}Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\nConnection: close\r\n",
        bearer(&reader)
    );
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    send(port, &post_text(&host, None, &in_session, initialized)).await;
    // No Mcp-Name header (this version has none): the body's name decides.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "cancel_order", "arguments": {"order_id": "A1"}}});
    let (code, _, _) = send(
        port,
        &post_text(&host, None, &in_session, &call.to_string()),
    )
    .await;
    assert_eq!(code, 403);
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let (code, _, body) = send(
        port,
        &post_text(&host, None, &in_session, &list.to_string()),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(listed(&body), ["find_orders"]);
    serving.stop().await;
}

#[tokio::test]
async fn unknown_kids_refetch_the_keys_at_a_bounded_rate_and_a_down_issuer_lets_nobody_in() {
    let issuer = issuer().await;
    let refetch = Duration::from_secs(3);
    let (serving, resource, verifier) = resource_refetching(&issuer, refetch).await;
    let port = serving.port;
    let good = claims(&issuer.url(), &resource, "orders:read");
    let (code, _, _) = request(port, &bearer(&mint(&good, "k1")), "tools/list", json!({})).await;
    assert_eq!(code, 200);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // An unknown kid, once the keys are old enough: read again, once, then refused.
    tokio::time::sleep(refetch).await;
    let (code, _, _) = request(port, &bearer(&mint(&good, "k2")), "tools/list", json!({})).await;
    assert_eq!(code, 401);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    // A thousand more: all refused, and the keys read at most once per interval.
    let started = std::time::Instant::now();
    for batch in 0..20 {
        let mut tasks = Vec::new();
        for i in 0..50 {
            let token = mint(&good, &format!("rotated-{batch}-{i}"));
            tasks.push(tokio::spawn(async move {
                request(port, &bearer(&token), "tools/list", json!({}))
                    .await
                    .0
            }));
        }
        for task in tasks {
            assert_eq!(task.await.unwrap(), 401);
        }
    }
    let intervals = started.elapsed().as_secs() / refetch.as_secs() + 1;
    assert!(issuer.fetches.load(Ordering::SeqCst) <= 2 + intervals);
    assert_eq!(
        verifier.key_fetches().await,
        issuer.fetches.load(Ordering::SeqCst)
    );
    serving.stop().await;

    // A server whose issuer is down from the start lets nobody in (503), and says so
    // without the token.
    let down = self::issuer().await;
    down.down.store(true, Ordering::SeqCst);
    let (serving, resource, _) = self::resource(&down).await;
    let token = mint(&claims(&down.url(), &resource, "orders:read"), "k1");
    let (code, _, body) = request(serving.port, &bearer(&token), "tools/list", json!({})).await;
    assert_eq!(code, 503);
    holds_no_token(&body, &[token.as_str()]);
    serving.stop().await;
}

/// An event stream opened with a token ends when the token does (its `exp`, with the
/// 30 seconds of leeway its verification gives): a stream does not outlive the token
/// that opened it. The token here is 28 seconds past its `exp`, still taken.
#[tokio::test]
async fn an_open_event_stream_ends_when_its_token_does() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let mut claims = claims(&issuer.url(), &resource, "orders:read");
    claims["exp"] = json!(now() - 28);
    let token = mint(&claims, "k1");
    let head = format!("{}MCP-Protocol-Version: 2025-11-25\r\n", bearer(&token));
    let (code, headers, _) = send(
        port,
        &post_text(
            &format!("127.0.0.1:{port}"),
            None,
            &format!("{head}Connection: close\r\n"),
            raw_http::INITIALIZE,
        ),
    )
    .await;
    assert_eq!(code, 200);
    let session = header(&headers, "mcp-session-id").unwrap().to_owned();
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n{head}Mcp-Session-Id: {session}\r\nConnection: close\r\n\r\n"
    );
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, get.as_bytes())
        .await
        .unwrap();
    let opened = std::time::Instant::now();
    let (code, _, mut reader) = raw_http::read_head(tokio::io::BufReader::new(stream)).await;
    assert_eq!(code, 200, "the stream opens");
    // Read to its end: it comes when the token's time is up, about 2 seconds on.
    let mut rest = Vec::new();
    let ended = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        tokio::io::AsyncReadExt::read_to_end(&mut reader, &mut rest),
    )
    .await;
    assert!(ended.is_ok(), "the stream outlived its token");
    assert!(
        opened.elapsed() >= std::time::Duration::from_millis(500),
        "{:?}",
        opened.elapsed()
    );
    serving.stop().await;
}

/// The authorization page's "On the wire" shows what this server sends, word for word:
/// its 401, metadata, 403 and 503 in order, with this test's addresses written as the
/// page's `https://mcp.example.com` (the resource) and `https://auth.example.com` (the
/// issuer). A header's name is shown in its usual casing (HTTP's names are not
/// case-sensitive; hyper writes them in lower case).
#[tokio::test]
async fn the_authorization_page_shows_the_wire_as_it_is() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/authorization.md"
    ))
    .unwrap();
    let section = &page[page
        .find("## On the wire\n")
        .expect("the page has the section")..];
    let section = &section[..section[1..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 1)];
    let blocks: Vec<&str> = section
        .split("```")
        .skip(1)
        .step_by(2)
        .map(|block| block.split_once('\n').expect("a fence ends its line").1)
        .collect();
    assert_eq!(blocks.len(), 4, "the 401, the metadata, the 403, the 503");

    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let as_shown = |text: &str| {
        text.replace(
            &format!("http://127.0.0.1:{port}"),
            "https://mcp.example.com",
        )
        .replace(&issuer.url(), "https://auth.example.com")
    };
    let head = |code: u16, headers: &[String], names: &[&str]| {
        let reason = hyper::StatusCode::from_u16(code)
            .unwrap()
            .canonical_reason()
            .unwrap();
        let mut text = format!("HTTP/1.1 {code} {reason}\n");
        for name in names {
            let value = header(headers, name).unwrap_or_else(|| panic!("no {name}"));
            text.push_str(&format!("{name}: {}\n", as_shown(value)));
        }
        text
    };

    let (code, headers, _) = request(port, "", "tools/list", json!({})).await;
    assert_eq!(blocks[0], head(code, &headers, &["WWW-Authenticate"]));

    let text = format!(
        "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    let (_, _, body) = send(port, &text).await;
    let shown: Value = serde_json::from_str(blocks[1]).unwrap();
    let served: Value = serde_json::from_str(&as_shown(body.trim())).unwrap();
    assert_eq!(shown, served);

    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let call = json!({"name": "cancel_order", "arguments": {"order_id": "ORD-1"}});
    let (code, headers, _) = request(port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(blocks[2], head(code, &headers, &["WWW-Authenticate"]));
    serving.stop().await;

    let down = self::issuer().await;
    down.down.store(true, Ordering::SeqCst);
    let (serving, resource, _) = self::resource(&down).await;
    let token = mint(&claims(&down.url(), &resource, "orders:read"), "k1");
    let (code, headers, _) = request(serving.port, &bearer(&token), "tools/list", json!({})).await;
    assert_eq!(blocks[3], head(code, &headers, &["Retry-After"]));
    serving.stop().await;
}
