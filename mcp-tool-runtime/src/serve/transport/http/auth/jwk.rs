//! Which keys of an issuer's JWK set are taken, member by member: keys for signatures
//! only, each for the one algorithm its `alg` names, RSA of 2048 bits or more, never a
//! symmetric key; a member passed over is kept with why, for the refusal of a token
//! that names it.

use std::collections::HashMap;

use base64::Engine as _;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, KeyAlgorithm, KeyOperations, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

/// The shortest RSA modulus taken (RFC 7518 section 3.3: 2048 bits or more).
const MIN_RSA_BITS: usize = 2048;

/// The keys of one read of the JWK set.
#[derive(Default)]
pub(super) struct Keys {
    pub(super) by_id: HashMap<String, Usable>,
    /// Keys without a `kid`, tried for a token without one.
    pub(super) unnamed: Vec<Usable>,
    /// The `kid`s of members not taken, and why.
    pub(super) refused: HashMap<String, &'static str>,
}

/// A key taken, and the one algorithm it is for, if its `alg` says.
#[derive(Clone)]
pub(super) struct Usable {
    key: DecodingKey,
    alg: Option<Algorithm>,
}

impl Keys {
    /// The keys of a JWK set, member by member: one this crate does not use (another
    /// key type, a field it cannot read) is passed over, not the whole set.
    pub(super) fn read(body: &[u8]) -> Result<Keys, String> {
        let set: Value =
            serde_json::from_slice(body).map_err(|e| format!("JWK set unreadable ({e})"))?;
        let members = set["keys"]
            .as_array()
            .ok_or("the JWK set has no list of keys")?;
        let mut keys = Keys::default();
        for member in members {
            let kid = member.get("kid").and_then(Value::as_str);
            match (usable(member), kid) {
                (Ok(key), Some(kid)) => {
                    keys.by_id.insert(kid.to_owned(), key);
                }
                (Ok(key), None) => keys.unnamed.push(key),
                (Err(why), Some(kid)) => {
                    keys.refused.entry(kid.to_owned()).or_insert(why);
                }
                (Err(_), None) => {}
            }
        }
        Ok(keys)
    }

    pub(super) fn find(&self, kid: Option<&str>, alg: Algorithm) -> Option<DecodingKey> {
        let fits = |usable: &&Usable| {
            usable.key.family() == alg.family() && usable.alg.is_none_or(|a| a == alg)
        };
        match kid {
            Some(kid) => self.by_id.get(kid).filter(fits).map(|u| u.key.clone()),
            None => {
                let mut fit = self.unnamed.iter().chain(self.by_id.values()).filter(fits);
                match (fit.next(), fit.next()) {
                    (Some(usable), None) => Some(usable.key.clone()),
                    _ => None,
                }
            }
        }
    }
}

/// The key of one member of a JWK set, if this crate takes it for signatures: not a
/// symmetric key (taking it would let anyone who read the set sign tokens), not one
/// for encryption (`use`, `key_ops`, RFC 7517 section 4), not one for an algorithm
/// that is no signature this crate verifies (RFC 8725 section 3.1), not an RSA key
/// under 2048 bits (RFC 7518 section 3.3).
pub(super) fn usable(member: &Value) -> Result<Usable, &'static str> {
    let jwk: Jwk =
        serde_json::from_value(member.clone()).map_err(|_| "a member this server cannot read")?;
    match &jwk.algorithm {
        AlgorithmParameters::OctetKey(_) => {
            return Err("a symmetric key, which a public set must not hold");
        }
        AlgorithmParameters::RSA(rsa) if modulus_bits(&rsa.n) < MIN_RSA_BITS => {
            return Err("an RSA key under 2048 bits (RFC 7518 section 3.3)");
        }
        AlgorithmParameters::RSA(_)
        | AlgorithmParameters::EllipticCurve(_)
        | AlgorithmParameters::OctetKeyPair(_) => {}
        _ => return Err("a key type this server does not use"),
    }
    if !matches!(
        jwk.common.public_key_use,
        None | Some(PublicKeyUse::Signature)
    ) {
        return Err("a key whose use is not sig");
    }
    if let Some(ops) = &jwk.common.key_operations
        && !ops.iter().any(|op| matches!(op, KeyOperations::Verify))
    {
        return Err("a key whose key_ops do not include verify");
    }
    let alg = match jwk.common.key_algorithm {
        None => None,
        Some(alg) => Some(
            algorithm_of(alg)
                .ok_or("a key for an algorithm that is no signature this server verifies")?,
        ),
    };
    let key = DecodingKey::from_jwk(&jwk).map_err(|_| "a key this server cannot read")?;
    Ok(Usable { key, alg })
}

/// The length in bits of an RSA modulus written in base64url (0 if unreadable).
pub(super) fn modulus_bits(n: &str) -> usize {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(n.trim_end_matches('='))
        .unwrap_or_default();
    match bytes.iter().position(|b| *b != 0) {
        Some(first) => (bytes.len() - first) * 8 - bytes[first].leading_zeros() as usize,
        None => 0,
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

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::*;

    #[test]
    fn an_rsa_modulus_is_measured_in_bits() {
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        assert_eq!(modulus_bits(&b64(&[0x80; 256])), 2048);
        assert_eq!(modulus_bits(&b64(&[0x7f; 256])), 2047);
        assert_eq!(modulus_bits(&b64(&[0, 0xff, 0xff])), 16);
        assert_eq!(modulus_bits("!!"), 0);
    }

    /// A member this crate does not use is passed over, and the rest of the set read.
    #[test]
    fn a_jwk_set_is_read_member_by_member() {
        let x = "YnoN4y_H6nAviTlnJKWxArxrSFjYMJD_b5gawS77WmI";
        let set = serde_json::json!({"keys": [
            null,
            {"kty": "AKP", "alg": "ML-DSA-44", "pub": "AAAA", "kid": "pq"},
            {"kty": "EC", "crv": "secp256k1", "x": "AA", "y": "AA", "kid": "k256"},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "odd", "x5c": "not a list"},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "enc", "use": "enc"},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "ops", "key_ops": ["encrypt"]},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "oaep", "alg": "RSA-OAEP-256"},
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "k1", "alg": "EdDSA", "extra": {"a": [1]}},
        ]});
        let keys = Keys::read(set.to_string().as_bytes()).unwrap();
        assert!(keys.find(Some("k1"), Algorithm::EdDSA).is_some());
        for kid in ["pq", "k256", "odd", "enc", "ops", "oaep", "hmac"] {
            assert!(keys.find(Some(kid), Algorithm::EdDSA).is_none(), "{kid}");
            assert!(keys.refused.contains_key(kid), "{kid}");
        }
        assert!(Keys::read(b"{\"keys\": 1}").is_err());
    }
}
