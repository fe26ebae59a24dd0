//! The endpoint as a tower `Service` (`mcp_tool::http::Endpoint`) in an axum
//! application answers as `HttpServer` does: the `axum_app` example (the `orders` desk
//! mounted beside `GET /health`) and `orders --http` itself, both as processes with the
//! same flags and the same issuer, are sent the same requests of an authorization check
//! (no token, a bad one, too narrow a token, a wide one, the metadata, a token in the
//! URL, two headers, a foreign `Host` and `Origin`, a body that is no JSON) and
//! must give the same status, challenge and body, the port aside.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::net::TcpStream;

#[path = "support/example.rs"]
mod example;
#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
use example::example;
use issuer::*;

/// A process ended when dropped, with its database.
struct Served {
    port: u16,
    child: Child,
    db: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.db.display()));
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start(binary: &Path, issuer: &Issuer) -> Served {
    let port = free_port();
    let db = std::env::temp_dir().join(format!(
        "axum-app-test-{}-{port}.sqlite3",
        std::process::id()
    ));
    let child = Command::new(binary)
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--issuer", &issuer.url()])
        .args(["--resource", &format!("http://127.0.0.1:{port}/mcp")])
        .args(["--db", db.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example starts");
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "nothing on {port}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Served { port, child, db }
}

/// What a response says, its port written `PORT`: the status, the challenge and the
/// body (an event stream's message, or the body as sent).
fn seen(port: u16, (code, headers, body): (u16, Vec<String>, String)) -> (u16, String, String) {
    let challenge = raw_http::header(&headers, "www-authenticate").unwrap_or_default();
    let body = if body.contains("data:") {
        message(&body).to_string()
    } else {
        body.trim().to_owned()
    };
    let port = port.to_string();
    (
        code,
        challenge.replace(&port, "PORT"),
        body.replace(&port, "PORT"),
    )
}

#[tokio::test]
async fn the_mounted_endpoint_answers_every_authorization_request_as_the_server_does() {
    let issuer = issuer().await;
    let (orders, axum_app) = (example("orders"), example("axum_app"));
    let (a, b) = (
        start(&orders, &issuer).await,
        start(&axum_app, &issuer).await,
    );

    // The application's own route is the application's.
    let health = format!(
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        b.port
    );
    let (code, _, body) = send(b.port, &health).await;
    assert_eq!((code, body.trim()), (200, "ok"));

    // Tokens are minted per server: the audience is each one's own resource.
    let token = |port: u16, scope: &str| {
        let resource = format!("http://127.0.0.1:{port}/mcp");
        mint(&claims(&issuer.url(), &resource, scope), "k1")
    };
    let list = json!({});
    let cancel =
        json!({"name": "cancel_order", "arguments": {"orderId": "ORD-2026-00042", "reason": "x"}});
    let find =
        json!({"name": "find_order", "arguments": {"by": "id", "orderId": "ORD-2026-00042"}});
    let mut compared = 0;
    type Case<'a> = (&'a str, Box<dyn Fn(u16) -> String + 'a>);
    let host = |port: u16| format!("127.0.0.1:{port}");
    let cases: Vec<Case> = vec![
        ("no token", Box::new(|_| String::new())),
        (
            "not a bearer token",
            Box::new(|_| "Authorization: Basic YTpi\r\n".into()),
        ),
        (
            "a forged token",
            Box::new(|_| bearer("eyJhbGciOiJFZERTQSJ9.e30.c2ln")),
        ),
        (
            "a reader's token",
            Box::new(|p| bearer(&token(p, "orders:read"))),
        ),
        (
            "a writer's token",
            Box::new(|p| bearer(&token(p, "orders:read orders:write"))),
        ),
        (
            "two Authorization headers",
            Box::new(|p| {
                let t = token(p, "orders:read");
                format!("{}{}", bearer(&t), bearer(&t))
            }),
        ),
    ];
    for (case, extra) in &cases {
        for (method, params) in [
            ("tools/list", &list),
            ("tools/call", &cancel),
            ("tools/call", &find),
        ] {
            let ra = seen(
                a.port,
                request(a.port, &extra(a.port), method, params.clone()).await,
            );
            let rb = seen(
                b.port,
                request(b.port, &extra(b.port), method, params.clone()).await,
            );
            assert_eq!(ra, rb, "{case}, {method} {params}");
            let cancelling = params.to_string().contains("cancel_order");
            let expected = match *case {
                "a reader's token" if cancelling => 403,
                "a reader's token" | "a writer's token" => 200,
                "two Authorization headers" => 400,
                _ => 401,
            };
            assert_eq!(ra.0, expected, "{case}, {method} {params}: {ra:?}");
            compared += 1;
        }
    }
    // The metadata, where RFC 9728 puts it, and a path that is neither.
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let get = |port: u16| {
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                host(port)
            )
        };
        let ra = seen(a.port, send(a.port, &get(a.port)).await);
        let rb = seen(b.port, send(b.port, &get(b.port)).await);
        assert_eq!(ra.0, 200, "{path}: {ra:?}");
        assert_eq!(ra, rb, "{path}");
        compared += 1;
    }
    // What the transport refuses: a token in the URL, a foreign Host or Origin, a body
    // too large, a body that is no JSON.
    let raw = |port: u16, case: &str| -> String {
        let h = host(port);
        let t = token(port, "orders:read");
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
        match case {
            "query" => raw_http::post_text(&h, None, "Connection: close\r\n", body).replacen(
                "POST /mcp",
                "POST /mcp?access_token=abc",
                1,
            ),
            "host" => raw_http::post_text(
                "evil.example",
                None,
                &format!("{}Connection: close\r\n", bearer(&t)),
                body,
            ),
            "origin" => raw_http::post_text(
                &h,
                Some("https://evil.example"),
                &format!("{}Connection: close\r\n", bearer(&t)),
                body,
            ),
            _ => raw_http::post_text(
                &h,
                None,
                &format!("{}Connection: close\r\n", bearer(&t)),
                "{not json",
            ),
        }
    };
    for case in ["query", "host", "origin", "unreadable"] {
        let ra = seen(a.port, send(a.port, &raw(a.port, case)).await);
        let rb = seen(b.port, send(b.port, &raw(b.port, case)).await);
        assert_ne!(ra.0, 200, "{case}: {ra:?}");
        assert_eq!(ra, rb, "{case}");
        compared += 1;
    }
    assert_eq!(compared, 6 * 3 + 2 + 4);
}
