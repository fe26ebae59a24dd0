//! Reading the authorization server's documents (its metadata, its JWK set): a GET
//! bounded in time and size. Built in: plain `http://` on hyper's client, enough for an
//! issuer on the same host or behind a TLS-terminating proxy; an `https://` issuer is
//! read through a [`Fetch`] the server gives (its own HTTP client), so that this
//! feature links no TLS stack of its own choosing.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper::{Request, StatusCode, Uri, header};
use hyper_util::rt::TokioIo;

/// The largest document read (a JWK set of a few dozen keys is a few kilobytes).
const MAX_DOCUMENT: usize = 512 * 1024;

/// How long a document may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// A boxed future, as [`Fetch`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How the JWT verifier reads a document of the authorization server (its metadata,
/// its JWK set) at `url`: the body of a 200, or why not. Implement it with the HTTP
/// client the server already uses for an `https://` issuer.
pub trait Fetch: Send + Sync + 'static {
    /// The body of `url`, or what went wrong.
    fn get<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>>;
}

/// The built-in fetcher: plain HTTP/1.1 on hyper, `http://` URLs only.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainHttp;

impl Fetch for PlainHttp {
    fn get<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            match tokio::time::timeout(FETCH_TIMEOUT, get(url)).await {
                Ok(result) => result,
                Err(_) => Err(format!(
                    "no answer within {} seconds",
                    FETCH_TIMEOUT.as_secs()
                )),
            }
        })
    }
}

async fn get(url: &str) -> Result<Vec<u8>, String> {
    let uri: Uri = url.parse().map_err(|e| format!("not a URL ({e})"))?;
    if uri.scheme_str() != Some("http") {
        return Err(
            "the built-in fetcher reads http:// only; give JwtVerifier::with_fetch a fetcher for https://"
                .into(),
        );
    }
    let host = uri.host().ok_or("the URL has no host")?.to_owned();
    let port = uri.port_u16().unwrap_or(80);
    let authority = uri
        .authority()
        .map(|a| a.as_str().to_owned())
        .unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let stream = tokio::net::TcpStream::connect((host, port))
        .await
        .map_err(|e| format!("cannot connect ({e})"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("HTTP handshake failed ({e})"))?;
    tokio::spawn(async move {
        // The connection ends with the one request; its error is the request's.
        let _ = connection.await;
    });
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let request = Request::get(path)
        .header(header::HOST, authority)
        .header(header::ACCEPT, "application/json")
        .body(Empty::<Bytes>::new())
        .map_err(|e| format!("bad request ({e})"))?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| format!("request failed ({e})"))?;
    if response.status() != StatusCode::OK {
        return Err(format!("answered {}", response.status()));
    }
    let body = Limited::new(response.into_body(), MAX_DOCUMENT)
        .collect()
        .await
        .map_err(|e| format!("body unreadable or over {MAX_DOCUMENT} bytes ({e})"))?;
    Ok(body.to_bytes().to_vec())
}
