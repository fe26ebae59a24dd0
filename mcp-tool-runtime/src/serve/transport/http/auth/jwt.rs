//! The built-in verifier of JWT access tokens (RFC 9068): signed by a key of the
//! issuer's JWK set, found through the issuer's metadata (RFC 8414, else OpenID
//! discovery); issued by the issuer, for this server (`aud`), and within its time.
//!
//! The keys are shared by every request and read by one task at a time: a request
//! whose key is known never waits on the issuer; one whose `kid` is unknown waits for
//! the read in flight (or starts one, at most every `refetch`); a set older than its
//! age is read again in the background while its keys go on verifying.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, Validation};
use serde_json::{Map, Value};
use tokio::sync::watch;

use super::claims::{reason, typ_taken, verified};
use super::fetch::{BoxFuture, Builtin, Fetch};
use super::issuer::{Config, Read, read_keys};
use super::jwk::Keys;
use super::{Rejected, TokenVerifier, Verified};

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
pub(super) const LEEWAY: Duration = Duration::from_secs(30);

/// The least time between two reads of the JWK set: an unknown `kid` reads it again at
/// most this often, so a flood of made-up `kid`s costs the issuer one request.
const REFETCH_EVERY: Duration = Duration::from_secs(30);

/// The longest a JWK set is trusted before it is read again, unless the issuer's
/// `Cache-Control` says less: a key removed from the set stops verifying within it.
const MAX_KEY_AGE: Duration = Duration::from_secs(10 * 60);

/// The longest token read: a JWT access token is a few hundred bytes to a few KB.
const MAX_TOKEN: usize = 16 * 1024;

/// Verifies JWT access tokens of one issuer for one resource:
///
/// - the signature, by a key of the issuer's JWK set, read from the `jwks_uri` of its
///   metadata (`/.well-known/oauth-authorization-server`, RFC 8414, else
///   `/.well-known/openid-configuration`) on the issuer's own host. The set is read
///   again when it is older than its `Cache-Control: max-age` allows (at most 10
///   minutes, at least 30 seconds), in the background while its keys go on verifying,
///   and when a token names an unknown `kid` (at most every 30 seconds): keys rotate
///   without a restart, and a removed key stops verifying within 10 minutes (and one
///   read of the set). A key is
///   taken only for signatures (`use`, `key_ops`), only for its own `alg`, and an RSA
///   key only of 2048 bits or more; members of the set this crate does not use are
///   passed over;
/// - the algorithm, from an allow-list of public-key algorithms (RS*, PS*, ES256,
///   ES384, EdDSA by default): never `none`, never HMAC;
/// - the `typ`: `at+jwt` (RFC 9068), or `JWT` or none, as issuers that predate RFC
///   9068 write access tokens ([`require_at_jwt`](Self::require_at_jwt) takes only
///   `at+jwt`); any other type (`id_token+jwt`, `logout+jwt`) is refused;
/// - `iss` the issuer (one string), `aud` the resource (this server's canonical URI,
///   RFC 8707), `exp` and `nbf` with 30 seconds of leeway, `sub` a non-empty string.
///
/// The issuer is read over `https://` with the feature `https`, or over plain
/// `http://` on this host (loopback) unless [`allow_plain_http`](Self::allow_plain_http)
/// says otherwise; any other issuer stops the server at its start
/// ([`TokenVerifier::check`]). While the issuer cannot be read, a token whose key was
/// not read before is refused with 503 (fail closed); keys read before still verify.
/// The caller it gives: `sub`, `client_id` (else `azp`), the scopes of `scope` (or
/// `scp`), and every claim.
///
/// ```
/// use std::time::Duration;
/// use mcp_tool::http::auth::{JwtVerifier, TokenVerifier};
///
/// let resource = "https://mcp.example.com/mcp";
/// // An issuer that publishes its keys on another host, and writes `typ: at+jwt`.
/// let verifier = JwtVerifier::new("https://login.example.com", resource)
///     .allow_jwks_host("keys.example.com")
///     .require_at_jwt()
///     .max_key_age(Duration::from_secs(5 * 60));
/// # let _ = verifier;
///
/// // Plain HTTP to another host is refused when the server starts, unless allowed.
/// let internal = JwtVerifier::new("http://auth.internal", resource);
/// assert!(internal.check().unwrap_err().contains("allow_plain_http"));
/// assert!(internal.allow_plain_http().check().is_ok());
/// ```
pub struct JwtVerifier {
    config: Arc<Config>,
    state: Arc<Mutex<State>>,
}

/// The keys as last read, and the reads.
#[derive(Default)]
struct State {
    keys: Arc<Keys>,
    /// When the keys were last read, and how long they hold.
    read_at: Option<Instant>,
    fresh_for: Duration,
    /// When a read last began, and whether it failed.
    tried_at: Option<Instant>,
    failed: bool,
    /// The JWK set's URL, once the metadata named it.
    jwks_uri: Option<String>,
    /// The read in flight: its sender is dropped when it ends.
    in_flight: Option<watch::Receiver<()>>,
    fetches: u64,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.config.issuer)
            .field("audience", &self.config.audience)
            .field("algorithms", &self.config.algorithms)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// Tokens of `issuer` (its identifier, as its metadata and the tokens' `iss` say)
    /// for `audience` (this server's canonical resource URI).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        ensure_provider();
        let builtin = Arc::new(Builtin::default());
        JwtVerifier {
            config: Arc::new(Config {
                issuer: issuer.into(),
                audience: audience.into(),
                algorithms: DEFAULT_ALGORITHMS.to_vec(),
                fetch: Arc::clone(&builtin) as Arc<dyn Fetch>,
                builtin: Some(builtin),
                jwks_uri: None,
                refetch: REFETCH_EVERY,
                max_key_age: MAX_KEY_AGE,
                plain_http: false,
                jwks_hosts: Vec::new(),
                at_jwt_only: false,
            }),
            state: Arc::default(),
        }
    }

    fn config(&mut self) -> &mut Config {
        Arc::make_mut(&mut self.config)
    }

    /// Takes only `algorithms` (public-key ones: an HMAC algorithm given is left out,
    /// since its key would be a secret no JWK set publishes).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.config().algorithms = algorithms
            .into_iter()
            .filter(|a| a.family() != AlgorithmFamily::Hmac)
            .collect();
        self
    }

    /// Reads the JWK set at `url` instead of the one the issuer's metadata names (on
    /// any host: the operator names it).
    pub fn jwks_uri(mut self, url: impl Into<String>) -> Self {
        self.config().jwks_uri = Some(url.into());
        self
    }

    /// Takes a `jwks_uri` of the issuer's metadata on `host` too (by default only one
    /// on the issuer's own host is read: the metadata cannot send the verifier to
    /// another server). Some issuers publish their keys elsewhere, such as
    /// `https://accounts.google.com`, whose keys are on `www.googleapis.com`.
    pub fn allow_jwks_host(mut self, host: impl Into<String>) -> Self {
        self.config().jwks_hosts.push(host.into());
        self
    }

    /// Reads an `http://` issuer on another host than this one (by default plain HTTP
    /// is read only on loopback): where a proxy on a trusted network terminates TLS.
    /// On any other network the keys could be replaced on the way, and with them every
    /// token.
    pub fn allow_plain_http(mut self) -> Self {
        self.config().plain_http = true;
        self
    }

    /// Takes only tokens of `typ` `at+jwt` (or `application/at+jwt`), as RFC 9068
    /// section 4 says; by default `JWT` and no `typ` are taken too, as many issuers
    /// still write access tokens, since `aud` must name this server anyway (an ID
    /// token names its client).
    pub fn require_at_jwt(mut self) -> Self {
        self.config().at_jwt_only = true;
        self
    }

    /// Reads the issuer's documents with `fetch` instead of the built-in reader (a
    /// proxy, client certificates, or an `https://` issuer without the feature
    /// `https`).
    pub fn with_fetch(mut self, fetch: impl Fetch) -> Self {
        let config = self.config();
        config.fetch = Arc::new(fetch);
        config.builtin = None;
        self
    }

    /// The least time between two reads of the JWK set (default 30 seconds): a token
    /// with an unknown `kid` reads it again only this long after the last read began.
    pub fn refetch_every(mut self, interval: Duration) -> Self {
        self.config().refetch = interval;
        self
    }

    /// The longest the keys of a JWK set are trusted before it is read again (default
    /// 10 minutes; the set's `Cache-Control: max-age` may shorten it, not below
    /// [`refetch_every`](Self::refetch_every)). A verified token is kept for reuse no
    /// longer than the keys that verified it, so a key removed from the set stops
    /// opening the server within this time (and one read of the set).
    pub fn max_key_age(mut self, age: Duration) -> Self {
        self.config().max_key_age = age;
        self
    }

    /// How many times the JWK set has been read (for tests and metrics).
    pub async fn key_fetches(&self) -> u64 {
        self.lock().fetches
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn verify_jwt(&self, token: &str) -> Result<Verified, Rejected> {
        if token.len() > MAX_TOKEN {
            return Err(Rejected::invalid("the token is too long"));
        }
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| Rejected::invalid("the token is no JWT this server takes"))?;
        if !typ_taken(header.typ.as_deref(), self.config.at_jwt_only) {
            return Err(Rejected::invalid(
                "the token's typ is not that of an access token (at+jwt, RFC 9068)",
            ));
        }
        if !self.config.algorithms.contains(&header.alg) {
            return Err(Rejected::invalid("the token's algorithm is not accepted"));
        }
        let (key, fresh_until) = self.key(header.kid.as_deref(), header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = LEEWAY.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.config.issuer]);
        validation.set_audience(&[&self.config.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| Rejected::invalid(reason(e.kind())))?;
        // jsonwebtoken takes an `iss` that is a list holding the issuer, and any `sub`
        // that is a string: RFC 7519 makes `iss` one StringOrURI, and a caller needs a
        // subject to be anyone.
        if data.claims.get("iss").and_then(Value::as_str) != Some(self.config.issuer.as_str()) {
            return Err(Rejected::invalid("the token's iss is not the issuer"));
        }
        if data
            .claims
            .get("sub")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            return Err(Rejected::invalid("the token's sub is empty"));
        }
        Ok(verified(data.claims, fresh_until))
    }

    /// The key of `kid` (or, for a token without one, the only key fit for `alg`), and
    /// until when the set it is of holds. Never waits for a key it has; for an unknown
    /// one, waits for the read in flight or begins one, at most every `refetch`.
    async fn key(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<(DecodingKey, SystemTime), Rejected> {
        let mut read = {
            let mut state = self.lock();
            if let Some(found) = state.found(kid, alg)? {
                if state.stale() && state.due(self.config.refetch) && state.in_flight.is_none() {
                    // Read again in the background; meanwhile these keys verify.
                    drop(self.begin_read(&mut state));
                }
                return Ok(found);
            }
            match &state.in_flight {
                Some(read) => read.clone(),
                None if state.due(self.config.refetch) => self.begin_read(&mut state),
                None => return Err(state.missing()),
            }
        };
        // The read ends by dropping its sender, whatever its outcome.
        let _ = read.changed().await;
        let state = self.lock();
        match state.found(kid, alg)? {
            Some(found) => Ok(found),
            None => Err(state.missing()),
        }
    }

    /// Begins a read of the JWK set on a task of its own (so that a request which
    /// goes away does not cancel it), the only one in flight.
    fn begin_read(&self, state: &mut State) -> watch::Receiver<()> {
        let (sender, receiver) = watch::channel(());
        state.in_flight = Some(receiver.clone());
        state.tried_at = Some(Instant::now());
        state.fetches += 1;
        let config = Arc::clone(&self.config);
        let ending = Ending {
            state: Arc::clone(&self.state),
            _sender: sender,
        };
        let known = state.jwks_uri.clone();
        tokio::spawn(async move {
            let outcome = read_keys(&config, known).await;
            ending.record(&config, outcome);
        });
        receiver
    }
}

/// The end of a read: its outcome recorded, then (even if it panicked) no read in
/// flight, and its waiters woken.
struct Ending {
    state: Arc<Mutex<State>>,
    _sender: watch::Sender<()>,
}

impl Ending {
    fn record(&self, config: &Config, outcome: Result<Read, String>) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match outcome {
            Ok(read) => {
                let floor = config.refetch.min(config.max_key_age);
                state.fresh_for = read.max_age.map_or(config.max_key_age, |age| {
                    age.max(floor).min(config.max_key_age)
                });
                state.keys = Arc::new(read.keys);
                state.read_at = Some(Instant::now());
                state.jwks_uri = Some(read.jwks_uri);
                state.failed = false;
            }
            Err(_why) => {
                // The operator must learn why tokens are refused (an issuer down, a JWK
                // set unreadable, a jwks_uri on another host); the client is told only
                // that the keys cannot be read. The keys read before (if any) stay, for
                // the tokens they sign.
                #[cfg(feature = "tracing")]
                tracing::error!(
                    target: "mcp_tool",
                    issuer = %config.issuer,
                    error = %_why,
                    "the issuer's keys could not be read: a token whose key was not read before is refused (503) until they can"
                );
                state.failed = true;
            }
        }
    }
}

impl Drop for Ending {
    fn drop(&mut self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .in_flight = None;
    }
}

impl State {
    /// The key for a token of `kid` and `alg`, and until when it holds; an error if the
    /// set has that `kid` and this crate refused it.
    fn found(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<Option<(DecodingKey, SystemTime)>, Rejected> {
        if let Some(key) = self.keys.find(kid, alg) {
            let left = self.read_at.map_or(Duration::ZERO, |at| {
                self.fresh_for.saturating_sub(at.elapsed())
            });
            return Ok(Some((key, SystemTime::now() + left)));
        }
        match kid.and_then(|kid| self.keys.refused.get(kid)) {
            Some(why) => Err(Rejected::Invalid(format!(
                "the token's key is not one this server takes: {why}"
            ))),
            None => Ok(None),
        }
    }

    fn stale(&self) -> bool {
        self.read_at
            .is_some_and(|at| at.elapsed() >= self.fresh_for)
    }

    fn due(&self, refetch: Duration) -> bool {
        self.tried_at.is_none_or(|at| at.elapsed() >= refetch)
    }

    /// Why a key that is not there is refused: the issuer cannot be read (503, as long
    /// as its last read failed), or it does not have it (401).
    fn missing(&self) -> Rejected {
        if self.failed || self.read_at.is_none() {
            Rejected::Unavailable
        } else {
            Rejected::invalid("the token's key is not among the issuer's")
        }
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Verified, Rejected>> {
        Box::pin(self.verify_jwt(token))
    }

    /// What is read (the `jwks_uri` given, else the issuer's metadata) must be
    /// `https://` (with the feature `https`, or a reader of your own) or `http://` on
    /// loopback (or allowed), and with the feature, the roots to trust it readable.
    fn check(&self) -> Result<(), String> {
        let config = &self.config;
        let (read, what) = match &config.jwks_uri {
            Some(uri) => (uri, "the jwks_uri"),
            None => (&config.issuer, "the issuer"),
        };
        config.admit(read, what)?;
        #[cfg(feature = "https")]
        if let Some(builtin) = &config.builtin
            && read.starts_with("https://")
        {
            builtin.tls()?;
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An `https://` issuer without the feature, a plain `http://` one off loopback:
    /// refused when the server starts, the refusal naming what to do.
    #[test]
    fn an_issuer_is_refused_at_the_start_where_it_cannot_be_read_safely() {
        let resource = "http://127.0.0.1:1/mcp";
        let https = JwtVerifier::new("https://auth.example.com", resource);
        if cfg!(feature = "https") {
            // Taken, unless this machine has no root certificate to trust it with.
            if let Err(refused) = https.check() {
                assert!(refused.contains("no root certificate"), "{refused}");
            }
        } else {
            let refused = https.check().unwrap_err();
            assert!(refused.contains("the feature `https`"), "{refused}");
            // A reader of the server's own reads it.
            let own = JwtVerifier::new("https://auth.example.com", resource)
                .with_fetch(super::super::PlainHttp);
            assert_eq!(own.check(), Ok(()));
        }
        let remote = JwtVerifier::new("http://auth.example.com", resource);
        let refused = remote.check().unwrap_err();
        assert!(refused.contains("allow_plain_http"), "{refused}");
        let allowed = JwtVerifier::new("http://auth.example.com", resource).allow_plain_http();
        assert_eq!(allowed.check(), Ok(()));
        for local in [
            "http://127.0.0.1:9000",
            "http://localhost:9000/realms/a",
            "http://[::1]",
        ] {
            assert_eq!(JwtVerifier::new(local, resource).check(), Ok(()), "{local}");
        }
        let jwks = JwtVerifier::new("http://127.0.0.1:9000", resource)
            .jwks_uri("http://keys.example.com/jwks");
        assert!(jwks.check().is_err());
        assert!(
            JwtVerifier::new("ftp://auth.example.com", resource)
                .check()
                .is_err()
        );
    }

    /// The metadata's `jwks_uri` is read on the issuer's host, or one allowed.
    #[test]
    fn a_jwks_uri_on_another_host_is_refused_unless_allowed() {
        let verifier = JwtVerifier::new("http://127.0.0.1:9000", "http://127.0.0.1:1/mcp");
        assert_eq!(
            verifier.config.admit_jwks("http://127.0.0.1:9001/keys"),
            Ok(())
        );
        let refused = verifier
            .config
            .admit_jwks("http://localhost:9000/keys")
            .unwrap_err();
        assert!(
            refused.contains("allow_jwks_host(\"localhost\")"),
            "{refused}"
        );
        let allowed = verifier.allow_jwks_host("LocalHost");
        assert_eq!(
            allowed.config.admit_jwks("http://localhost:9000/keys"),
            Ok(())
        );
    }
}
