//! What a verified token says: whether its `typ` is an access token's, who the caller
//! is and until when, and why a token was refused, in words that say nothing of it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::Verified;
use crate::caller::Caller;

/// Whether a token of header `typ` is taken: `at+jwt` (RFC 9068 section 4, the media
/// type's `application/` optional and its case not significant, RFC 7515 section
/// 4.1.9), and unless only that is, `JWT` or none.
pub(super) fn typ_taken(typ: Option<&str>, at_jwt_only: bool) -> bool {
    let Some(typ) = typ else {
        return !at_jwt_only;
    };
    let typ = typ.to_ascii_lowercase();
    let typ = typ.strip_prefix("application/").unwrap_or(&typ);
    typ == "at+jwt" || (!at_jwt_only && typ == "jwt")
}

/// Why a token was refused, in words that say nothing of the token.
pub(super) fn reason(kind: &jsonwebtoken::errors::ErrorKind) -> &'static str {
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

/// The caller of verified `claims`, and until when it holds: its `exp`, or sooner
/// when the keys that verified it must be read again (`fresh_until`), so that a token
/// kept for reuse is verified again against the keys as they are then. An `exp` past
/// what the clock can hold is read as `fresh_until`.
pub(super) fn verified(claims: Map<String, Value>, fresh_until: SystemTime) -> Verified {
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
        .and_then(|s| UNIX_EPOCH.checked_add(Duration::from_secs(s)))
        .map_or(fresh_until, |exp| exp.min(fresh_until));
    let mut caller = Caller::new(subject).with_scopes(scopes);
    if let Some(client) = client {
        caller = caller.with_client_id(client);
    }
    Verified {
        caller: caller.with_claims(claims),
        expires,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_access_tokens_typ_is_taken() {
        for typ in ["at+jwt", "AT+JWT", "application/at+jwt"] {
            assert!(typ_taken(Some(typ), true), "{typ}");
            assert!(typ_taken(Some(typ), false), "{typ}");
        }
        for typ in [None, Some("JWT"), Some("jwt")] {
            assert!(typ_taken(typ, false), "{typ:?}");
            assert!(!typ_taken(typ, true), "{typ:?}");
        }
        for typ in ["id_token+jwt", "logout+jwt", "secevent+jwt", "JOSE", ""] {
            assert!(!typ_taken(Some(typ), false), "{typ}");
        }
    }

    /// An `exp` the clock cannot hold is no panic: the token holds until its keys do.
    #[test]
    fn an_exp_past_the_clock_holds_until_the_keys_do() {
        let fresh_until = SystemTime::now() + Duration::from_secs(60);
        for exp in [u64::MAX, 1 << 63, (1 << 63) + 5] {
            let claims = serde_json::json!({"sub": "alice", "exp": exp});
            let Value::Object(claims) = claims else {
                unreachable!()
            };
            assert_eq!(verified(claims, fresh_until).expires, fresh_until, "{exp}");
        }
        let soon = SystemTime::now() + Duration::from_secs(10);
        let exp = soon.duration_since(UNIX_EPOCH).unwrap().as_secs();
        let Value::Object(claims) = serde_json::json!({"sub": "a", "exp": exp}) else {
            unreachable!()
        };
        assert!(verified(claims, fresh_until).expires < fresh_until);
    }
}
