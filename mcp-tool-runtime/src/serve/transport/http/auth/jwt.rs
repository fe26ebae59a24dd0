//! The built-in verifier of JWT access tokens (RFC 9068): signed by a key of the
//! issuer's JWK set, found through the issuer's metadata (RFC 8414, else OpenID
//! discovery); issued by the issuer, for this server (`aud`), and within its time.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{AlgorithmParameters, JwkSet, KeyAlgorithm};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, Validation};
use serde_json::{Map, Value};

use super::fetch::{BoxFuture, Fetch, PlainHttp};
use super::{Rejected, TokenVerifier, Verified};
use crate::caller::Caller;

/// The algorithms taken unless told otherwise: public-key signatures only. An HMAC
/// algorithm is never taken from a JWK set, so a token signed with the issuer's public
/// key as an HMAC secret (key confusion) finds no key; `none` is no algorithm at all.
const DEFAULT_ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// How far `exp` and `nbf` may be off, for clocks not quite together.
const LEEWAY: Duration = Duration::from_secs(30);

/// The least time between two reads of the JWK set: an unknown `kid` refetches it at
/// most this often, so a flood of made-up `kid`s costs the issuer one request.
const REFETCH_EVERY: Duration = Duration::from_secs(30);

/// The longest token read: a JWT access token is a few hundred bytes to a few KB.
const MAX_TOKEN: usize = 16 * 1024;

/// Verifies JWT access tokens of one issuer for one resource:
///
/// - the signature, by a key of the issuer's JWK set, read from the `jwks_uri` of its
///   metadata (`/.well-known/oauth-authorization-server`, RFC 8414, else
///   `/.well-known/openid-configuration`), cached, and read again when a token names an
///   unknown `kid` (at most every 30 seconds): keys rotate without a restart;
/// - the algorithm, from an allow-list of public-key algorithms (RS*, PS*, ES256,
///   ES384, EdDSA by default): never `none`, never HMAC;
/// - `iss` the issuer, `aud` the resource (this server's canonical URI, RFC 8707),
///   `exp` and `nbf` with 30 seconds of leeway, `sub` present.
///
/// While the issuer cannot be read, no token is taken (fail closed). The caller it
/// gives: `sub`, `client_id` (else `azp`), the scopes of `scope` (or `scp`), and every
/// claim.
///
/// ```no_run
/// use mcp_tool::http::auth::JwtVerifier;
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://mcp.example.com/mcp");
/// ```
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    algorithms: Vec<Algorithm>,
    fetch: Arc<dyn Fetch>,
    jwks_uri: Option<String>,
    refetch: Duration,
    keys: tokio::sync::Mutex<Keys>,
}

/// The keys as last read, and when.
#[derive(Default)]
struct Keys {
    by_id: HashMap<String, (DecodingKey, Option<Algorithm>)>,
    /// Keys without a `kid`, tried for a token without one.
    unnamed: Vec<(DecodingKey, Option<Algorithm>)>,
    read_at: Option<Instant>,
    /// The JWK set's URL, once the metadata named it.
    jwks_uri: Option<String>,
    fetches: u64,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// Tokens of `issuer` (its identifier, as its metadata and the tokens' `iss` say)
    /// for `audience` (this server's canonical resource URI).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        ensure_provider();
        JwtVerifier {
            issuer: issuer.into(),
            audience: audience.into(),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            fetch: Arc::new(PlainHttp),
            jwks_uri: None,
            refetch: REFETCH_EVERY,
            keys: tokio::sync::Mutex::new(Keys::default()),
        }
    }

    /// Takes only `algorithms` (public-key ones: an HMAC algorithm given is left out,
    /// since its key would be a secret no JWK set publishes).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| a.family() != AlgorithmFamily::Hmac)
            .collect();
        self
    }

    /// Reads the JWK set at `url` instead of the one the issuer's metadata names.
    pub fn jwks_uri(mut self, url: impl Into<String>) -> Self {
        self.jwks_uri = Some(url.into());
        self
    }

    /// Reads the issuer's documents with `fetch` (needed for an `https://` issuer: the
    /// built-in reader speaks plain HTTP only).
    pub fn with_fetch(mut self, fetch: impl Fetch) -> Self {
        self.fetch = Arc::new(fetch);
        self
    }

    /// The least time between two reads of the JWK set (default 30 seconds): a token
    /// with an unknown `kid` reads it again only this long after the last read.
    pub fn refetch_every(mut self, interval: Duration) -> Self {
        self.refetch = interval;
        self
    }

    /// How many times the JWK set has been read (for tests and metrics).
    pub async fn key_fetches(&self) -> u64 {
        self.keys.lock().await.fetches
    }

    async fn verify_jwt(&self, token: &str) -> Result<Verified, Rejected> {
        if token.len() > MAX_TOKEN {
            return Err(Rejected::invalid("the token is too long"));
        }
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| Rejected::invalid("the token is no JWT this server takes"))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(Rejected::invalid("the token's algorithm is not accepted"));
        }
        let key = self.key(header.kid.as_deref(), header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = LEEWAY.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| Rejected::invalid(reason(e.kind())))?;
        Ok(verified(data.claims))
    }

    /// The key of `kid` (or, for a token without one, the only key fit for `alg`),
    /// reading the JWK set again for an unknown one, at most every `self.refetch`.
    async fn key(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, Rejected> {
        let mut keys = self.keys.lock().await;
        if let Some(key) = keys.find(kid, alg) {
            return Ok(key);
        }
        let due = keys.read_at.is_none_or(|at| at.elapsed() >= self.refetch);
        if !due {
            return Err(match keys.read_at {
                Some(_) if keys.by_id.is_empty() && keys.unnamed.is_empty() => {
                    Rejected::Unavailable
                }
                _ => Rejected::invalid("the token's key is not among the issuer's"),
            });
        }
        keys.read_at = Some(Instant::now());
        keys.fetches += 1;
        match self.read_keys(&mut keys).await {
            Ok(()) => keys
                .find(kid, alg)
                .ok_or_else(|| Rejected::invalid("the token's key is not among the issuer's")),
            Err(_why) => {
                // The operator must learn why nobody is let in (an issuer down, a
                // JWK set unreadable, an https:// issuer without a fetcher); the
                // client is told only that the keys cannot be read.
                #[cfg(feature = "tracing")]
                tracing::error!(
                    target: "mcp_tool",
                    issuer = %self.issuer,
                    error = %_why,
                    "the issuer's keys could not be read: tokens they sign are refused (503) until they can"
                );
                // Fail closed: nobody is let in while the keys cannot be read; the keys
                // read before (if any) stay, for the tokens they sign.
                keys.find(kid, alg).ok_or(Rejected::Unavailable)
            }
        }
    }

    async fn read_keys(&self, keys: &mut Keys) -> Result<(), String> {
        let jwks_uri = match self.jwks_uri.clone().or_else(|| keys.jwks_uri.clone()) {
            Some(uri) => uri,
            None => {
                let uri = self.discover().await?;
                keys.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let body = self.fetch.get(&jwks_uri).await?;
        let set: JwkSet =
            serde_json::from_slice(&body).map_err(|e| format!("JWK set unreadable ({e})"))?;
        keys.by_id.clear();
        keys.unnamed.clear();
        for jwk in &set.keys {
            // A symmetric key in a public set is a mistake; taking it would let anyone
            // who read the set sign tokens.
            if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)) {
                continue;
            }
            let Ok(key) = DecodingKey::from_jwk(jwk) else {
                continue;
            };
            let alg = jwk.common.key_algorithm.and_then(algorithm_of);
            match &jwk.common.key_id {
                Some(kid) => {
                    keys.by_id.insert(kid.clone(), (key, alg));
                }
                None => keys.unnamed.push((key, alg)),
            }
        }
        Ok(())
    }

    /// The `jwks_uri` of the issuer's metadata: RFC 8414's well-known path (inserted
    /// before the issuer's path), else OpenID discovery's (appended to it).
    async fn discover(&self) -> Result<String, String> {
        let issuer = self.issuer.trim_end_matches('/');
        let (origin, path) = split_origin(issuer);
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut last = String::new();
        for url in &candidates {
            match self.fetch.get(url).await {
                Ok(body) => {
                    let metadata: Value = serde_json::from_slice(&body)
                        .map_err(|e| format!("metadata unreadable ({e})"))?;
                    // RFC 8414 section 3.3: the metadata must name the issuer asked for.
                    if metadata["issuer"].as_str().map(|i| i.trim_end_matches('/')) != Some(issuer)
                    {
                        return Err("the metadata names another issuer".into());
                    }
                    return metadata["jwks_uri"]
                        .as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| "the metadata names no jwks_uri".into());
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Verified, Rejected>> {
        Box::pin(self.verify_jwt(token))
    }
}

impl Keys {
    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Option<DecodingKey> {
        let fits = |(key, key_alg): &(DecodingKey, Option<Algorithm>)| {
            key.family() == alg.family() && key_alg.is_none_or(|a| a == alg)
        };
        match kid {
            Some(kid) => self
                .by_id
                .get(kid)
                .filter(|k| fits(k))
                .map(|(k, _)| k.clone()),
            None => {
                let mut fit = self
                    .unnamed
                    .iter()
                    .chain(self.by_id.values())
                    .filter(|k| fits(k));
                match (fit.next(), fit.next()) {
                    (Some((key, _)), None) => Some(key.clone()),
                    _ => None,
                }
            }
        }
    }
}

/// jsonwebtoken's default crypto provider is found from its features; a build that
/// also enables its `aws_lc_rs` (features unify) has two, and none by default: this
/// one is installed then, rather than a panic at the first token.
fn ensure_provider() {
    if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
    }
}

/// `https://host:port` and `/path` of a URL.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

fn algorithm_of(key: KeyAlgorithm) -> Option<Algorithm> {
    Some(match key {
        KeyAlgorithm::RS256 => Algorithm::RS256,
        KeyAlgorithm::RS384 => Algorithm::RS384,
        KeyAlgorithm::RS512 => Algorithm::RS512,
        KeyAlgorithm::PS256 => Algorithm::PS256,
        KeyAlgorithm::PS384 => Algorithm::PS384,
        KeyAlgorithm::PS512 => Algorithm::PS512,
        KeyAlgorithm::ES256 => Algorithm::ES256,
        KeyAlgorithm::ES384 => Algorithm::ES384,
        KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}

/// Why a token was refused, in words that say nothing of the token.
fn reason(kind: &jsonwebtoken::errors::ErrorKind) -> &'static str {
    use jsonwebtoken::errors::ErrorKind as K;
    match kind {
        K::ExpiredSignature => "the token has expired",
        K::ImmatureSignature => "the token is not valid yet",
        K::InvalidIssuer => "the token is of another issuer",
        K::InvalidAudience => "the token is for another resource",
        K::InvalidSignature => "the token's signature does not verify",
        K::MissingRequiredClaim(_) => "the token lacks a required claim",
        K::InvalidAlgorithm => "the token's algorithm does not fit its key",
        _ => "the token could not be verified",
    }
}

/// The caller of verified `claims`, and until when it holds.
fn verified(claims: Map<String, Value>) -> Verified {
    let subject = claims
        .get("sub")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let client = ["client_id", "azp"]
        .iter()
        .find_map(|k| claims.get(*k).and_then(Value::as_str));
    let scopes: Vec<String> = match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(Value::String(s)) => s
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(Into::into)
            .collect(),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(Into::into).collect(),
        _ => Vec::new(),
    };
    let expires = claims
        .get("exp")
        .and_then(Value::as_u64)
        .map(|s| UNIX_EPOCH + Duration::from_secs(s));
    let mut caller = Caller::new(subject).with_scopes(scopes);
    if let Some(client) = client {
        caller = caller.with_client_id(client);
    }
    Verified {
        caller: caller.with_claims(claims),
        expires: expires.unwrap_or_else(SystemTime::now),
    }
}
