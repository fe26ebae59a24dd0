//! Without the `ask` feature a server asks its users nothing, so it seals no
//! `requestState` and needs no cryptography: there is no key (the type has no value),
//! and a state a client sends is refused unopened (`Sealing::refuse_state`).

use std::convert::Infallible;

/// The secret that seals a `requestState`; without the `ask` feature nothing is sealed,
/// and no key can be made.
#[derive(Clone, Debug)]
pub struct StateKey(Infallible);

impl StateKey {
    pub(crate) fn seal(&self, _: &[u8]) -> String {
        match self.0 {}
    }
}
