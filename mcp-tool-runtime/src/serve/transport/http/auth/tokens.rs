//! The cache of verified tokens: each kept by its SHA-256 (the token itself is not
//! kept) until it expires, never more than [`CACHE`] of them, so that a token's next
//! use costs no verification and no client can grow the cache.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::SystemTime;

use super::Verified;
use crate::caller::Caller;

/// How many verified tokens are kept.
const CACHE: usize = 10_000;

/// The verified tokens, by their SHA-256 (the token itself is not kept), each until it
/// expires, at most [`CACHE`] of them.
#[derive(Default)]
pub(super) struct Tokens(Mutex<HashMap<[u8; 32], Verified>>);

impl Tokens {
    /// The caller of the token with this digest, if it was verified and has not expired.
    pub(super) fn get(&self, key: &[u8; 32], now: SystemTime) -> Option<Caller> {
        let cache = self.0.lock().ok()?;
        let hit = cache.get(key)?;
        (hit.expires > now).then(|| hit.caller.clone())
    }

    /// Keeps a token just verified, unless it has expired already. Full, the expired
    /// tokens go first; full of live ones, all go: the cache never grows past [`CACHE`].
    pub(super) fn keep(&self, key: [u8; 32], verified: Verified, now: SystemTime) {
        if verified.expires <= now {
            return;
        }
        let Ok(mut cache) = self.0.lock() else {
            return;
        };
        if cache.len() >= CACHE {
            cache.retain(|_, v| v.expires > now);
        }
        if cache.len() >= CACHE {
            cache.clear();
        }
        cache.insert(key, verified);
    }
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::*;

    fn verified(subject: &str, expires: SystemTime) -> Verified {
        Verified {
            caller: Caller::new(subject),
            expires,
        }
    }

    fn key(i: usize) -> [u8; 32] {
        Sha256::digest(i.to_string()).into()
    }

    /// A token is served from the cache until it expires, and one expired when verified
    /// is not kept.
    #[test]
    fn a_verified_token_is_kept_until_it_expires() {
        let tokens = Tokens::default();
        let now = SystemTime::now();
        let hour = std::time::Duration::from_secs(3600);
        tokens.keep(key(1), verified("ada", now + hour), now);
        assert_eq!(
            tokens
                .get(&key(1), now)
                .map(|c| c.subject().to_owned())
                .as_deref(),
            Some("ada")
        );
        assert!(tokens.get(&key(1), now + 2 * hour).is_none(), "expired");
        assert!(tokens.get(&key(2), now).is_none(), "never verified");
        tokens.keep(key(3), verified("bob", now - hour), now);
        assert!(
            tokens.get(&key(3), now - 2 * hour).is_none(),
            "expired when verified: not kept"
        );
    }

    /// The manual's promise: at most 10 000 tokens, the expired ones dropped first.
    #[test]
    fn the_cache_holds_at_most_its_bound() {
        let tokens = Tokens::default();
        let now = SystemTime::now();
        let later = now + std::time::Duration::from_secs(60);
        let hour = std::time::Duration::from_secs(3600);
        for i in 0..CACHE {
            let expires = if i % 2 == 0 { later } else { later + 2 * hour };
            tokens.keep(key(i), verified("either", expires), now);
        }
        assert_eq!(tokens.0.lock().unwrap().len(), CACHE);
        // Once half of them have expired, a new token makes room by dropping those, not
        // the live ones.
        let then = later + hour;
        tokens.keep(key(CACHE), verified("new", then + hour), then);
        assert_eq!(tokens.0.lock().unwrap().len(), CACHE / 2 + 1);
        assert!(tokens.get(&key(1), then).is_some(), "a live one is kept");
        // Full of live tokens, it starts again rather than grow.
        for i in 0..=CACHE {
            tokens.keep(key(CACHE + 1 + i), verified("live", later + hour), now);
        }
        let len = tokens.0.lock().unwrap().len();
        assert!(len <= CACHE, "{len}");
        assert!(
            tokens.get(&key(2 * CACHE + 1), now).is_some(),
            "the last one is kept"
        );
    }
}
