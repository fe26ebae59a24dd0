//! Where an issuer's keys are read from, and whether they may be: the issuer's metadata
//! (RFC 8414, else OpenID discovery) on its own host, read over `https://` or over
//! plain `http://` on loopback unless allowed; and one read of its JWK set.

use std::sync::Arc;
use std::time::Duration;

use hyper::Uri;
use jsonwebtoken::Algorithm;
use serde_json::Value;

use super::fetch::{Builtin, Fetch};
use super::jwk::Keys;

/// What the verifier was told.
#[derive(Clone)]
pub(super) struct Config {
    pub(super) issuer: String,
    pub(super) audience: String,
    pub(super) algorithms: Vec<Algorithm>,
    pub(super) fetch: Arc<dyn Fetch>,
    /// The built-in reader, while no other was given.
    pub(super) builtin: Option<Arc<Builtin>>,
    pub(super) jwks_uri: Option<String>,
    pub(super) refetch: Duration,
    pub(super) max_key_age: Duration,
    pub(super) plain_http: bool,
    pub(super) jwks_hosts: Vec<String>,
    pub(super) at_jwt_only: bool,
}

/// What one read of the JWK set gave.
pub(super) struct Read {
    pub(super) keys: Keys,
    pub(super) max_age: Option<Duration>,
    pub(super) jwks_uri: String,
}

impl Config {
    /// Whether `url` may be read: `https://` where this build or the server's reader
    /// can, `http://` on loopback or where allowed.
    pub(super) fn admit(&self, url: &str, what: &str) -> Result<(), String> {
        let uri: Uri = url
            .parse()
            .map_err(|e| format!("{what} {url} is no URL ({e})"))?;
        match uri.scheme_str() {
            Some("https") if self.builtin.is_some() && !Builtin::READS_HTTPS => Err(format!(
                "{what} {url} is https://, which this build does not read: enable the feature \
                 `https` of mcp-tool (or give JwtVerifier::with_fetch a reader of your own)"
            )),
            Some("https") => Ok(()),
            Some("http") if self.plain_http || loopback(uri.host().unwrap_or_default()) => Ok(()),
            Some("http") => Err(format!(
                "{what} {url} is plain http:// on another host, where its keys (and so every \
                 token) could be replaced on the way: use https://, or \
                 JwtVerifier::allow_plain_http() where a trusted network carries it"
            )),
            _ => Err(format!("{what} {url} is no http:// or https:// URL")),
        }
    }

    /// Whether the metadata's `jwks_uri` may be read: on the issuer's host, or one
    /// allowed.
    pub(super) fn admit_jwks(&self, url: &str) -> Result<(), String> {
        self.admit(url, "the metadata's jwks_uri")?;
        let host = |u: &str| {
            u.parse::<Uri>()
                .ok()
                .and_then(|u| u.host().map(str::to_ascii_lowercase))
        };
        let jwks_host = host(url).unwrap_or_default();
        if host(&self.issuer).as_deref() == Some(jwks_host.as_str())
            || self
                .jwks_hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(&jwks_host))
        {
            return Ok(());
        }
        Err(format!(
            "the metadata's jwks_uri {url} is on another host than the issuer's: \
             JwtVerifier::allow_jwks_host({jwks_host:?}) takes it"
        ))
    }

    /// The `jwks_uri` of the issuer's metadata: RFC 8414's well-known path (inserted
    /// before the issuer's path), else OpenID discovery's (appended to it).
    async fn discover(&self) -> Result<String, String> {
        self.admit(&self.issuer, "the issuer")?;
        let issuer = self.issuer.trim_end_matches('/');
        let (origin, path) = split_origin(issuer);
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut last = String::new();
        for url in &candidates {
            match self.fetch.get_document(url).await {
                Ok(document) => {
                    let metadata: Value = serde_json::from_slice(&document.body)
                        .map_err(|e| format!("metadata unreadable ({e})"))?;
                    // RFC 8414 section 3.3: the metadata must name the issuer asked for.
                    if metadata["issuer"].as_str().map(|i| i.trim_end_matches('/')) != Some(issuer)
                    {
                        return Err("the metadata names another issuer".into());
                    }
                    let jwks_uri = metadata["jwks_uri"]
                        .as_str()
                        .ok_or("the metadata names no jwks_uri")?;
                    self.admit_jwks(jwks_uri)?;
                    return Ok(jwks_uri.to_owned());
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }
}

/// One read of the JWK set (its URL found first, if not known).
pub(super) async fn read_keys(config: &Config, known: Option<String>) -> Result<Read, String> {
    let jwks_uri = match config.jwks_uri.clone() {
        Some(uri) => {
            config.admit(&uri, "the jwks_uri")?;
            uri
        }
        None => match known {
            Some(uri) => uri,
            None => config.discover().await?,
        },
    };
    let document = config.fetch.get_document(&jwks_uri).await?;
    let keys = Keys::read(&document.body)?;
    #[cfg(feature = "tracing")]
    if !keys.refused.is_empty() {
        let passed: Vec<String> = keys
            .refused
            .iter()
            .map(|(kid, why)| format!("{kid}: {why}"))
            .collect();
        tracing::warn!(
            target: "mcp_tool",
            issuer = %config.issuer,
            keys = %passed.join("; "),
            "keys of the issuer's JWK set this server does not take"
        );
    }
    Ok(Read {
        keys,
        max_age: document.max_age,
        jwks_uri,
    })
}

/// Whether `host` (of a URL) is this machine.
fn loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `https://host:port` and `/path` of a URL.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_this_machine() {
        for host in ["127.0.0.1", "127.8.9.1", "[::1]", "localhost", "LOCALHOST"] {
            assert!(loopback(host), "{host}");
        }
        for host in ["10.0.0.1", "auth.example.com", "localhost.example.com", ""] {
            assert!(!loopback(host), "{host}");
        }
    }
}
