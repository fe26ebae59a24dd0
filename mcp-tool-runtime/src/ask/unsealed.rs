//! Without the `ask` feature a server asks its users nothing, so it seals no
//! `requestState` and needs no cryptography: there is no key (the type has no value),
//! and a state a client sends is refused unopened (`Sealing::refuse_state`).

use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};

/// The secret that seals a `requestState`; without the `ask` feature nothing is sealed,
/// and no key can be made.
#[derive(Clone, Debug)]
pub struct StateKey(Infallible);

impl StateKey {
    pub(crate) fn seal(&self, _: &[u8]) -> String {
        match self.0 {}
    }
}

/// 128 bits as hex, unique to this call: two hashes under std's `RandomState`, whose
/// keys the standard library draws from the operating system's randomness (and steps
/// for every new state). For ids that must not repeat, not for secrets.
pub(crate) fn random_id() -> Result<String, std::io::Error> {
    let half = || RandomState::new().hash_one(std::process::id());
    Ok(format!("{:016x}{:016x}", half(), half()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_do_not_repeat() {
        let ids: std::collections::HashSet<String> =
            (0..10_000).map(|_| super::random_id().unwrap()).collect();
        assert_eq!(ids.len(), 10_000);
        assert!(ids.iter().all(|id| id.len() == 32));
    }
}
