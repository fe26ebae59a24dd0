//! The questions an HTTP endpoint asked its clients (`elicitation/create` within a call
//! of protocol 2025-11-25) and waits to hear answered. The call that asks says here
//! that it waits; the endpoint reads it when an answer reaches a replica that did not
//! ask, to hand the answer over (`serve/transport/http/sessions.rs`).

#[cfg(feature = "ask")]
use std::sync::Arc;
use std::sync::Mutex;

/// The questions an endpoint asked a client (`elicitation/create` within a call of
/// protocol 2025-11-25) and waits to hear answered, by session and request id (as
/// JSON text). Each endpoint has its own, in every request it answers, so that the
/// call that asks can say it waits.
#[derive(Default)]
pub(crate) struct Waiters(
    #[cfg_attr(not(feature = "ask"), allow(dead_code))] Mutex<Vec<(String, String)>>,
);

impl Waiters {
    /// The question `request` asked in the session `session`, waited for while the
    /// guard lives.
    #[cfg(feature = "ask")]
    pub(crate) fn wait(self: &Arc<Self>, session: &str, request: String) -> Waiting {
        let key = (session.to_owned(), request);
        if let Ok(mut waiting) = self.0.lock() {
            waiting.push(key.clone());
        }
        Waiting(Arc::clone(self), key)
    }

    /// Whether the answer `request` in the session `session` is waited for here.
    #[cfg(feature = "redis")]
    pub(crate) fn waits_for(&self, session: &str, request: &str) -> bool {
        (self.0.lock()).is_ok_and(|w| w.iter().any(|(s, r)| s == session && r == request))
    }
}

/// A question waited for, until dropped.
#[cfg(feature = "ask")]
pub(crate) struct Waiting(Arc<Waiters>, (String, String));

#[cfg(feature = "ask")]
impl Drop for Waiting {
    fn drop(&mut self) {
        if let Ok(mut waiting) = self.0.0.lock()
            && let Some(i) = waiting.iter().position(|k| *k == self.1)
        {
            waiting.swap_remove(i);
        }
    }
}
