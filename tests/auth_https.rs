//! An `https://` issuer (feature `https`), read as it is: its certificate from a test
//! CA the verifier trusts through `SSL_CERT_FILE` (as an operator trusts a company's
//! private CA), and one from a CA nobody trusts refused. Its own test binary, of one
//! test: `SSL_CERT_FILE` is set for the whole process before anything reads it.

use std::sync::Arc;

use serde_json::json;
use tokio_rustls::rustls;

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/orders_example.rs"]
mod orders_example;
#[path = "support/raw_http.rs"]
mod raw_http;
use issuer::*;
use orders_example::{free_port, orders_binary};

/// A CA, and a certificate it signs for 127.0.0.1 and localhost with its key.
fn ca_and_certificate() -> (String, rustls::ServerConfig) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_pem = ca.self_signed(&ca_key).unwrap().pem();
    let ca = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let certificate = CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    // The test server's TLS, on ring as the runtime's.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let private = rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certificate.der().clone()], private)
        .unwrap();
    (ca_pem, config)
}

/// Connections accepted over TLS, for axum.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    tls: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((stream, addr)) = self.tcp.accept().await else {
                continue;
            };
            // A client that refuses the certificate ends here; the next one is served.
            if let Ok(stream) = self.tls.accept(stream).await {
                return (stream, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// The tests' issuer, served over TLS with `tls`.
async fn https_issuer(tls: rustls::ServerConfig) -> issuer::Issuer {
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = tcp.local_addr().unwrap().port();
    let base = format!("https://127.0.0.1:{port}");
    let issuer = issuer::Issuer {
        scheme: "https",
        port,
        down: Arc::default(),
        fetches: Arc::default(),
        jwks: Arc::new(std::sync::Mutex::new(jwks())),
        metadata: Arc::new(std::sync::Mutex::new(
            json!({"issuer": base, "jwks_uri": format!("{base}/jwks")}),
        )),
        cache_control: Arc::default(),
        hold: Arc::default(),
        most_at_once: Arc::default(),
    };
    let app = issuer_app(&issuer);
    let listener = TlsListener {
        tcp,
        tls: tokio_rustls::TlsAcceptor::from(Arc::new(tls)),
    };
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    issuer
}

/// The `orders` example serving at `port` with `args`, its database in memory, its
/// stderr kept.
fn orders(args: &[&str], port: u16) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(orders_binary())
        .args(["--http", &format!("127.0.0.1:{port}"), "--db", ":memory:"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the orders example starts")
}

#[test]
fn an_https_issuer_is_read_over_tls_with_the_roots_the_operator_trusts() {
    let (ca, trusted) = ca_and_certificate();
    let dir = std::env::temp_dir().join(format!("mcp-tool-auth-https-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ca.pem");
    std::fs::write(&file, ca).unwrap();
    // SAFETY: the one test of this binary, before any thread of its own or read of the
    // environment.
    unsafe { std::env::set_var("SSL_CERT_FILE", &file) };

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let issuer = https_issuer(trusted).await;
        let (serving, resource, _) = resource(&issuer).await;
        let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
        let (code, _, body) = request(serving.port, &bearer(&token), "tools/list", json!({})).await;
        assert_eq!(code, 200, "{body}");
        assert_eq!(listed(&body), ["find_orders"]);
        assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
        serving.stop().await;

        // An issuer whose certificate no trusted CA signed is not read: 503, as for an
        // issuer down.
        let (_, untrusted) = ca_and_certificate();
        let stranger = https_issuer(untrusted).await;
        let (serving, audience, _) = issuer::resource(&stranger).await;
        let token = mint(&claims(&stranger.url(), &audience, "orders:read"), "k1");
        let (code, _, _) = request(serving.port, &bearer(&token), "tools/list", json!({})).await;
        assert_eq!(code, 503);
        assert_eq!(
            stranger.fetches.load(std::sync::atomic::Ordering::SeqCst),
            0
        );
        serving.stop().await;

        // The orders example serves with the https:// issuer as it is.
        let port = free_port();
        let resource = format!("http://127.0.0.1:{port}/mcp");
        let mut serving_orders =
            orders(&["--issuer", &issuer.url(), "--resource", &resource], port);
        let token = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
        let mut answer = None;
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                answer = Some(request(port, &bearer(&token), "tools/list", json!({})).await);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let _ = serving_orders.kill();
        let _ = serving_orders.wait();
        let (code, _, body) = answer.expect("the orders example serves");
        assert_eq!(code, 200, "{body}");
        assert!(listed(&body).contains(&"find_orders".to_owned()), "{body}");

        // And refuses, at its start, an issuer over plain http:// to another host.
        let refused = orders(&["--issuer", "http://auth.example.com"], free_port())
            .wait_with_output()
            .unwrap();
        assert!(!refused.status.success());
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains("allow_plain_http"), "{said}");
    });
    let _ = std::fs::remove_dir_all(&dir);
}
