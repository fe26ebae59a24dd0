//! The `requestState` of a call that waits for its user: what the server needs to go on
//! when the client retries, sealed so that the client (which the spec says to treat as
//! an attacker) can carry it but not change it. The server keeps nothing between
//! rounds: any replica holding the same key resumes a call another replica began.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Mixed into every tag, so that a tag made with the same key for another purpose is
/// never taken for a `requestState`'s.
const DOMAIN: &[u8] = b"mcp-tool/request-state/v1";
const VERSION: &str = "mt1";

/// The secret that seals the `requestState` of calls waiting for the user's answer
/// (HMAC-SHA256). Give every replica of a server the same key, from its configuration,
/// and a call begun on one replica is resumed on any other.
///
/// ```
/// use mcp_tool::StateKey;
///
/// let key = StateKey::new(*b"0123456789abcdef0123456789abcdef").unwrap();
/// assert!(StateKey::new(*b"too short").is_err());
/// // Rotating: seal with the new key, still open what the old one sealed.
/// let rotated = StateKey::new(vec![7; 32]).unwrap().with_previous(key);
/// # let _ = rotated;
/// ```
#[derive(Clone)]
pub struct StateKey {
    /// The key that seals, then older keys that still open.
    keys: Vec<Box<[u8]>>,
}

/// A key shorter than [`StateKey::MIN_LENGTH`] bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortKey {
    /// How many bytes it had.
    pub length: usize,
}

impl fmt::Display for ShortKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a request-state key needs at least {} bytes, and this one has {}",
            StateKey::MIN_LENGTH,
            self.length
        )
    }
}

impl std::error::Error for ShortKey {}

/// A key written in hex that is not one (see [`StateKey::from_hex`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BadKey {
    /// The key at this place in the list (from 0) has something other than hex digits,
    /// or an odd number of them.
    NotHex {
        /// Which key of the list.
        key: usize,
    },
    /// The key at this place in the list is too short.
    Short {
        /// Which key of the list.
        key: usize,
        /// How short.
        short: ShortKey,
    },
}

impl fmt::Display for BadKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadKey::NotHex { key } => write!(
                f,
                "request-state key {} of the list is not hex digits (64 of them: 32 bytes)",
                key + 1
            ),
            BadKey::Short { key, short } => write!(f, "request-state key {}: {short}", key + 1),
        }
    }
}

impl std::error::Error for BadKey {}

impl StateKey {
    /// The shortest key taken: 32 bytes, the size of the tag.
    pub const MIN_LENGTH: usize = 32;

    /// A key of these bytes (at least [`StateKey::MIN_LENGTH`]).
    pub fn new(key: impl Into<Vec<u8>>) -> Result<Self, ShortKey> {
        let key = key.into();
        if key.len() < Self::MIN_LENGTH {
            return Err(ShortKey { length: key.len() });
        }
        Ok(StateKey {
            keys: vec![key.into_boxed_slice()],
        })
    }

    /// The key written in hex (64 digits for 32 bytes, as `openssl rand -hex 32`
    /// writes one), as a server's configuration gives it; or several, separated by
    /// commas, during a rotation: the first seals, and every one opens.
    ///
    /// ```
    /// use mcp_tool::StateKey;
    ///
    /// let old = "00".repeat(32);
    /// let new = "ab".repeat(32);
    /// assert!(StateKey::from_hex(&old).is_ok());
    /// // Rotating: every replica first opens with both, then seals with the new one.
    /// assert!(StateKey::from_hex(&format!("{new},{old}")).is_ok());
    /// assert!(StateKey::from_hex("abc").is_err());
    /// ```
    pub fn from_hex(hex: &str) -> Result<Self, BadKey> {
        let mut keys = Vec::new();
        for (key, digits) in hex.split(',').enumerate() {
            let digits = digits.trim().as_bytes();
            if digits.len() % 2 != 0 || !digits.iter().all(u8::is_ascii_hexdigit) {
                return Err(BadKey::NotHex { key });
            }
            let digit = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
            let bytes: Vec<u8> = digits
                .chunks(2)
                .map(|pair| digit(pair[0]) << 4 | digit(pair[1]))
                .collect();
            let one = StateKey::new(bytes).map_err(|short| BadKey::Short { key, short })?;
            keys.extend(one.keys);
        }
        Ok(StateKey { keys })
    }

    /// A key of 32 random bytes, from the operating system: what a toolbox uses when
    /// none is configured. States it seals open only in this process, until it ends.
    pub fn random() -> Result<Self, std::io::Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(StateKey {
            keys: vec![Box::new(key)],
        })
    }

    /// Also opens what `previous` sealed (and the keys it still opens): for rotating a
    /// key without failing the calls that wait for an answer.
    pub fn with_previous(mut self, previous: StateKey) -> Self {
        self.keys.extend(previous.keys);
        self
    }

    fn tag(key: &[u8], body: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(DOMAIN);
        mac.update(body);
        mac
    }

    /// `payload`, sealed: `mt1.<payload>.<tag>`, base64url.
    pub(crate) fn seal(&self, payload: &[u8]) -> String {
        let body = URL_SAFE_NO_PAD.encode(payload);
        let tag = Self::tag(&self.keys[0], body.as_bytes())
            .finalize()
            .into_bytes();
        format!("{VERSION}.{body}.{}", URL_SAFE_NO_PAD.encode(tag))
    }

    /// The payload of a state this key (or a previous one) sealed; `None` for anything
    /// else. The tags are compared in constant time.
    pub(crate) fn open(&self, sealed: &str) -> Option<Vec<u8>> {
        let mut parts = sealed.split('.');
        let (Some(VERSION), Some(body), Some(tag), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        self.keys
            .iter()
            .any(|key| Self::tag(key, body.as_bytes()).verify_slice(&tag).is_ok())
            .then(|| URL_SAFE_NO_PAD.decode(body).ok())
            .flatten()
    }
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKey")
            .field("keys", &self.keys.len())
            .finish_non_exhaustive()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A digest of a tool's name and arguments that does not depend on the order of an
/// object's keys: the state is bound to the call it was made for.
pub(crate) fn digest(tool: &str, arguments: &Value) -> String {
    fn feed(hasher: &mut Sha256, value: &Value) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                hasher.update(b"{");
                for key in keys {
                    feed(hasher, &Value::String(key.clone()));
                    hasher.update(b":");
                    feed(hasher, &map[key]);
                }
                hasher.update(b"}");
            }
            Value::Array(items) => {
                hasher.update(b"[");
                for item in items {
                    feed(hasher, item);
                    hasher.update(b",");
                }
                hasher.update(b"]");
            }
            scalar => hasher.update(scalar.to_string().as_bytes()),
        }
    }
    let mut hasher = Sha256::new();
    feed(&mut hasher, &Value::String(tool.to_owned()));
    feed(&mut hasher, arguments);
    hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> StateKey {
        StateKey::new(vec![byte; 32]).unwrap()
    }

    #[test]
    fn a_sealed_state_opens_with_its_key_only() {
        let sealed = key(1).seal(b"payload");
        assert_eq!(key(1).open(&sealed).as_deref(), Some(&b"payload"[..]));
        assert_eq!(key(2).open(&sealed), None);
        assert_eq!(
            key(2).with_previous(key(1)).open(&sealed).as_deref(),
            Some(&b"payload"[..])
        );
    }

    #[test]
    fn a_key_in_hex_reads_as_its_bytes_and_a_list_rotates() {
        let sealed = key(1).seal(b"payload");
        let one = "01".repeat(32);
        assert_eq!(
            StateKey::from_hex(&one).unwrap().open(&sealed).as_deref(),
            Some(&b"payload"[..])
        );
        let rotated = StateKey::from_hex(&format!("{} , {one}", "02".repeat(32))).unwrap();
        assert_eq!(rotated.open(&sealed).as_deref(), Some(&b"payload"[..]));
        assert_eq!(key(2).open(&rotated.seal(b"x")).as_deref(), Some(&b"x"[..]));
        assert_eq!(
            StateKey::from_hex(&"0g".repeat(32)).unwrap_err(),
            BadKey::NotHex { key: 0 }
        );
        assert_eq!(
            StateKey::from_hex(&format!("{one},{}", "1".repeat(63))).unwrap_err(),
            BadKey::NotHex { key: 1 }
        );
        assert!(matches!(
            StateKey::from_hex(&"ab".repeat(31)),
            Err(BadKey::Short { key: 0, .. })
        ));
        assert!(StateKey::from_hex("").is_err());
        // A sign or a space inside a pair is no hex digit.
        assert!(StateKey::from_hex(&"+1".repeat(32)).is_err());
    }

    #[test]
    fn any_change_breaks_the_seal() {
        let sealed = key(1).seal(br#"{"confirmed":false}"#);
        let (head, tag) = sealed.rsplit_once('.').unwrap();
        let forged = URL_SAFE_NO_PAD.encode(br#"{"confirmed":true}"#);
        assert_eq!(key(1).open(&format!("mt1.{forged}.{tag}")), None);
        let mut flipped = tag.as_bytes().to_vec();
        flipped[0] = if flipped[0] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert_eq!(key(1).open(&format!("{head}.{flipped}")), None);
        for broken in ["", "mt1", "mt1..", "mt2.e30.AAAA", &format!("{sealed}.x")] {
            assert_eq!(key(1).open(broken), None, "{broken}");
        }
    }

    #[test]
    fn the_digest_ignores_key_order_and_sees_every_value() {
        let a = serde_json::json!({"a": 1, "b": [1, {"c": "x"}]});
        let b = serde_json::json!({"b": [1, {"c": "x"}], "a": 1});
        assert_eq!(digest("t", &a), digest("t", &b));
        assert_ne!(digest("t", &a), digest("u", &a));
        assert_ne!(
            digest("t", &a),
            digest("t", &serde_json::json!({"a": 2, "b": [1, {"c": "x"}]}))
        );
        assert_ne!(
            digest("t", &serde_json::json!(["ab"])),
            digest("t", &serde_json::json!(["a", "b"]))
        );
    }
}
