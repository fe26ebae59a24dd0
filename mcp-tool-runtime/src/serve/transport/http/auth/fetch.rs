//! Reading the authorization server's documents (its metadata, its JWK set): a GET
//! bounded in time and size, and how long the issuer says the answer may be kept (its
//! `Cache-Control: max-age`). Built in: plain `http://` on hyper's client, and with the
//! feature `https` the same over TLS (rustls, the system's roots or those of
//! `SSL_CERT_FILE`). A server may give its own reader instead ([`Fetch`]).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper::{Request, StatusCode, Uri, header};
use hyper_util::rt::TokioIo;

/// The largest document read (a JWK set of a few dozen keys is a few kilobytes).
const MAX_DOCUMENT: usize = 512 * 1024;

/// How long a document may take to arrive, connection and TLS handshake included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// A boxed future, as [`Fetch`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A document of the authorization server, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The body of the 200.
    pub body: Vec<u8>,
    /// How long it may be kept, as its `Cache-Control` says (`max-age`; `no-cache` and
    /// `no-store` are zero), if it says.
    pub max_age: Option<Duration>,
}

/// How the JWT verifier reads a document of the authorization server (its metadata,
/// its JWK set) at `url`: the body of a 200, or why not. Implement it to read the
/// issuer with an HTTP client of your own (a proxy, client certificates), or, as here,
/// to give the keys without reading anything:
///
/// ```
/// use mcp_tool::http::auth::{BoxFuture, Document, Fetch, JwtVerifier, TokenVerifier};
/// use std::time::Duration;
///
/// /// A JWK set shipped with the server, said to hold for an hour.
/// struct Shipped(&'static str);
///
/// impl Fetch for Shipped {
///     fn get<'a>(&'a self, _url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>> {
///         Box::pin(async move { Ok(self.0.as_bytes().to_vec()) })
///     }
///
///     fn get_document<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Document, String>> {
///         Box::pin(async move {
///             let body = self.get(url).await?;
///             Ok(Document { body, max_age: Some(Duration::from_secs(3600)) })
///         })
///     }
/// }
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://mcp.example.com/mcp")
///     .jwks_uri("https://auth.example.com/jwks")
///     .with_fetch(Shipped(r#"{"keys": []}"#));
/// // An https:// issuer is read by the server's own reader, with or without `https`.
/// assert_eq!(verifier.check(), Ok(()));
/// ```
pub trait Fetch: Send + Sync + 'static {
    /// The body of `url`, or what went wrong.
    fn get<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>>;

    /// The document at `url` and how long it may be kept: by default the body of
    /// [`get`](Fetch::get), with nothing said of its age (the JWK set is then read
    /// again at the verifier's [`max_key_age`](super::JwtVerifier::max_key_age)).
    fn get_document<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Document, String>> {
        Box::pin(async move {
            Ok(Document {
                body: self.get(url).await?,
                max_age: None,
            })
        })
    }
}

/// The built-in fetcher: plain HTTP/1.1 on hyper, `http://` URLs only.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainHttp;

impl Fetch for PlainHttp {
    fn get<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move { Ok(self.get_document(url).await?.body) })
    }

    fn get_document<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Document, String>> {
        Box::pin(bounded(async move {
            let uri = parse(url)?;
            if uri.scheme_str() != Some("http") {
                return Err("PlainHttp reads http:// only".into());
            }
            get_plain(&uri).await
        }))
    }
}

/// The verifier's own reader: `http://` as [`PlainHttp`], and `https://` over TLS
/// with the feature `https`. Its TLS settings (the roots) are read once, at the
/// server's start or the first read.
#[derive(Default)]
pub(super) struct Builtin {
    #[cfg(feature = "https")]
    tls: std::sync::OnceLock<Result<std::sync::Arc<rustls::ClientConfig>, String>>,
}

impl Builtin {
    /// Whether this build reads `https://` itself.
    pub const READS_HTTPS: bool = cfg!(feature = "https");

    /// The TLS settings, read now if they were not: an error (no root certificate, an
    /// unreadable `SSL_CERT_FILE`) is said at the server's start.
    #[cfg(feature = "https")]
    pub fn tls(&self) -> Result<std::sync::Arc<rustls::ClientConfig>, String> {
        self.tls.get_or_init(tls_config).clone()
    }
}

impl Fetch for Builtin {
    fn get<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move { Ok(self.get_document(url).await?.body) })
    }

    fn get_document<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Document, String>> {
        Box::pin(bounded(async move {
            let uri = parse(url)?;
            match uri.scheme_str() {
                Some("http") => get_plain(&uri).await,
                #[cfg(feature = "https")]
                Some("https") => get_tls(&uri, self.tls()?).await,
                _ => {
                    Err("this build reads http:// only: https:// needs the feature `https`".into())
                }
            }
        }))
    }
}

/// `read`, given [`FETCH_TIMEOUT`] to finish.
async fn bounded(read: impl Future<Output = Result<Document, String>>) -> Result<Document, String> {
    match tokio::time::timeout(FETCH_TIMEOUT, read).await {
        Ok(result) => result,
        Err(_) => Err(format!(
            "no answer within {} seconds",
            FETCH_TIMEOUT.as_secs()
        )),
    }
}

fn parse(url: &str) -> Result<Uri, String> {
    url.parse().map_err(|e| format!("not a URL ({e})"))
}

/// The host of `uri` as a socket address takes it (an IPv6 one without brackets).
fn host(uri: &Uri) -> Result<&str, String> {
    let host = uri.host().ok_or("the URL has no host")?;
    Ok(host.trim_start_matches('[').trim_end_matches(']'))
}

async fn get_plain(uri: &Uri) -> Result<Document, String> {
    let stream = tokio::net::TcpStream::connect((host(uri)?, uri.port_u16().unwrap_or(80)))
        .await
        .map_err(|e| format!("cannot connect ({e})"))?;
    get_over(stream, uri).await
}

#[cfg(feature = "https")]
async fn get_tls(uri: &Uri, tls: std::sync::Arc<rustls::ClientConfig>) -> Result<Document, String> {
    let name = rustls::pki_types::ServerName::try_from(host(uri)?.to_owned())
        .map_err(|e| format!("no TLS server name ({e})"))?;
    let stream = tokio::net::TcpStream::connect((host(uri)?, uri.port_u16().unwrap_or(443)))
        .await
        .map_err(|e| format!("cannot connect ({e})"))?;
    let stream = tokio_rustls::TlsConnector::from(tls)
        .connect(name, stream)
        .await
        .map_err(|e| format!("TLS handshake failed ({e})"))?;
    get_over(stream, uri).await
}

/// The client's TLS settings: rustls on `ring` (named here, so that a build which also
/// has rustls's aws-lc-rs does not leave the default provider undecided), the roots
/// rustls-native-certs finds: the system's store, or the certificates of the file
/// `SSL_CERT_FILE` (or the folders of `SSL_CERT_DIR`) where set, as OpenSSL reads them.
#[cfg(feature = "https")]
fn tls_config() -> Result<std::sync::Arc<rustls::ClientConfig>, String> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = rustls::RootCertStore::empty();
    let (_added, _unreadable) = roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        let why: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        return Err(format!(
            "no root certificate to trust an https:// issuer with (the system's store, or SSL_CERT_FILE): {}",
            if why.is_empty() {
                "none found".to_owned()
            } else {
                why.join("; ")
            }
        ));
    }
    // rustls deprecates ring's provider for its want of post-quantum key exchange,
    // which protects secrets recorded now from a later quantum computer: the issuer's
    // documents are public, and what TLS must give them (that nobody changed them on
    // the way) is not what such a recording threatens.
    #[allow(deprecated)]
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS settings refused ({e})"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(std::sync::Arc::new(config))
}

/// One GET of `uri` over `stream`, HTTP/1.1: the body of a 200 of at most
/// [`MAX_DOCUMENT`] bytes, and its `Cache-Control`.
async fn get_over<S>(stream: S, uri: &Uri) -> Result<Document, String>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let authority = uri
        .authority()
        .map(|a| a.as_str().to_owned())
        .unwrap_or_default();
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
    let max_age = max_age(
        response
            .headers()
            .get_all(header::CACHE_CONTROL)
            .iter()
            .filter_map(|v| v.to_str().ok()),
    );
    let body = Limited::new(response.into_body(), MAX_DOCUMENT)
        .collect()
        .await
        .map_err(|e| format!("body unreadable or over {MAX_DOCUMENT} bytes ({e})"))?;
    Ok(Document {
        body: body.to_bytes().to_vec(),
        max_age,
    })
}

/// How long `Cache-Control` lets a response be kept: its `max-age`, zero for
/// `no-cache` or `no-store`, nothing if it says neither.
fn max_age<'a>(values: impl Iterator<Item = &'a str>) -> Option<Duration> {
    let mut age = None;
    for directive in values.flat_map(|v| v.split(',')) {
        let directive = directive.trim();
        let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
        if name.eq_ignore_ascii_case("no-store") || name.eq_ignore_ascii_case("no-cache") {
            return Some(Duration::ZERO);
        }
        if name.eq_ignore_ascii_case("max-age")
            && let Ok(seconds) = value.trim_matches('"').parse::<u64>()
        {
            age = Some(Duration::from_secs(seconds));
        }
    }
    age
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_control_says_how_long_a_document_is_kept() {
        let age = |v: &[&str]| max_age(v.iter().copied());
        assert_eq!(
            age(&["public, max-age=300"]),
            Some(Duration::from_secs(300))
        );
        assert_eq!(age(&["Max-Age=\"60\""]), Some(Duration::from_secs(60)));
        assert_eq!(age(&["max-age=300, no-cache"]), Some(Duration::ZERO));
        assert_eq!(age(&["public", "no-store"]), Some(Duration::ZERO));
        assert_eq!(age(&["public", "max-age=x"]), None);
        assert_eq!(age(&[]), None);
    }
}
