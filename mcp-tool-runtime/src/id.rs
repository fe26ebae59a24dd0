//! Ids nobody can guess or repeat: a call's id (which a sealed `requestState` carries)
//! and the correlation id of a failure.

/// 128 random bits as hex, from the operating system (feature `ask`, which builds its
/// randomness for the sealing anyway).
#[cfg(feature = "ask")]
pub(crate) fn random_id() -> Result<String, std::io::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// 128 bits as hex, unique to this call, without the system's randomness (a build
/// without `ask` seals nothing, so nothing depends on these being unguessable): two
/// hashes under std's `RandomState`, whose keys are random per process and advance
/// with every instance.
#[cfg(not(feature = "ask"))]
pub(crate) fn random_id() -> Result<String, std::io::Error> {
    use std::hash::{BuildHasher, RandomState};
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
