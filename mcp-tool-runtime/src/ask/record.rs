//! The at-most-once record of a round: where the rounds of calls that asked their user
//! are claimed and their answers kept, the claim one request holds while its round runs,
//! and the times a `requestState` carries.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::{Answer, Sealing};
use crate::result::ToolError;

/// What a [`UsedStates`] store gives, once it has it: a future that can be sent
/// between threads, so that a network store waits on its replies without blocking the
/// server's threads.
pub type Stored<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where each round of a call that asked its user is marked begun when a retry brings
/// its answers, and its answer kept: a round runs at most once, and a client that sends
/// the same `requestState` again (its connection dropped before the answer came) gets
/// the first answer again, not a second run. The user confirmed one cancellation, and
/// one is done.
///
/// The toolbox's own ([`Toolbox::used_states`](crate::Toolbox::used_states) not
/// called) is [`UsedHere`]: this process's memory. Replicas behind a load balancer
/// share a store that implements this trait, so that a round begun on one is begun on
/// all: `RedisStates` (feature `redis`) is one, where `claim` is
/// `SET id "running" NX PX ms` (and a `GET` when it is not set), and `keep` is
/// `SET id answer PX ms`.
///
/// A store that cannot answer says so ([`Claim::Unavailable`]): the round is then not
/// run, and the client is told to send it again. A round is never run without its
/// claim.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
/// use mcp_tool::ask::{Claim, Stored, UsedStates};
///
/// /// A store shared by every replica (here, a map behind a lock).
/// #[derive(Default)]
/// struct Shared(Mutex<HashMap<String, Option<String>>>);
///
/// impl UsedStates for Shared {
///     fn claim<'a>(&'a self, id: &'a str, _keep_until: SystemTime) -> Stored<'a, Claim> {
///         let mut rounds = self.0.lock().unwrap();
///         let claim = match rounds.get(id) {
///             None => {
///                 rounds.insert(id.to_owned(), None);
///                 Claim::First
///             }
///             Some(None) => Claim::Running,
///             Some(Some(answer)) => Claim::Answered(answer.clone()),
///         };
///         Box::pin(async move { claim })
///     }
///
///     fn keep<'a>(&'a self, id: &'a str, answer: String, _keep_until: SystemTime) -> Stored<'a, ()> {
///         self.0.lock().unwrap().insert(id.to_owned(), Some(answer));
///         Box::pin(async {})
///     }
/// }
///
/// let tools = mcp_tool::Toolbox::new().used_states(Shared::default());
/// # let _ = tools;
/// ```
///
/// Without a shared store, each replica knows only the rounds it ran: a retry that a
/// load balancer sends to another replica runs the round again. A tool whose handler
/// must not do its work twice whatever the store then needs an idempotency key of its
/// own (the request's, or one the tool takes as an argument), checked where the work
/// is done.
pub trait UsedStates: Send + Sync + 'static {
    /// Marks the round `id` begun, if it was not: [`Claim::First`] then, and this
    /// request runs it. Otherwise what is known of it: running now, or its answer; or
    /// that the store cannot be reached ([`Claim::Unavailable`]). Remember it until
    /// `keep_until`. Every future a store returns ends in a bounded time.
    fn claim<'a>(&'a self, id: &'a str, keep_until: SystemTime) -> Stored<'a, Claim>;

    /// Keeps `answer` (the JSON of the answer to the round `id`, claimed before) until
    /// `keep_until`, for a request that sends the same state again. A store that cannot
    /// keep it leaves the round claimed as running until it expires: a request that
    /// sends the state again is told it is running, and it is never run twice.
    ///
    /// The future is driven to its end even when the request that kept the answer is
    /// gone: at once if it needs no waiting, else on the Tokio runtime the server runs
    /// on.
    fn keep<'a>(&'a self, id: &'a str, answer: String, keep_until: SystemTime) -> Stored<'a, ()>;
}

/// What a store knows of a round when a request claims it (see [`UsedStates`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Claim {
    /// The round had not begun: the request that claimed it runs it.
    First,
    /// An earlier request is running it now.
    Running,
    /// It ran, and this was its answer (as given to [`UsedStates::keep`]).
    Answered(String),
    /// The store could not be reached, or did not answer in time (what went wrong, for
    /// the server's operators): the round is not run, and the client is told to send it
    /// again.
    Unavailable(String),
}

/// [`UsedStates`] in this process's memory, each round forgotten once its time is up.
#[derive(Debug, Default)]
pub struct UsedHere {
    rounds: Mutex<HashMap<String, (SystemTime, Option<String>)>>,
}

impl UsedHere {
    fn rounds(&self) -> std::sync::MutexGuard<'_, HashMap<String, (SystemTime, Option<String>)>> {
        self.rounds.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn claim_now(&self, id: &str, keep_until: SystemTime) -> Claim {
        let mut rounds = self.rounds();
        if rounds.len() >= 1024 {
            let now = SystemTime::now();
            rounds.retain(|_, (until, _)| *until > now);
        }
        match rounds.get(id) {
            None => {
                rounds.insert(id.to_owned(), (keep_until, None));
                Claim::First
            }
            Some((_, None)) => Claim::Running,
            Some((_, Some(answer))) => Claim::Answered(answer.clone()),
        }
    }
}

impl UsedStates for UsedHere {
    fn claim<'a>(&'a self, id: &'a str, keep_until: SystemTime) -> Stored<'a, Claim> {
        let claim = self.claim_now(id, keep_until);
        Box::pin(std::future::ready(claim))
    }

    fn keep<'a>(&'a self, id: &'a str, answer: String, keep_until: SystemTime) -> Stored<'a, ()> {
        self.rounds()
            .insert(id.to_owned(), (keep_until, Some(answer)));
        Box::pin(std::future::ready(()))
    }
}

/// The name the round `round` of the call `call` is claimed under in a [`UsedStates`]
/// store; with the `subject` of the caller where the call has one (an authorized
/// request's), so that no caller's round is ever another's. The call's id is random
/// base64url and the round a number, so the name cannot be read two ways.
#[cfg(feature = "ask")]
pub(crate) fn round_id(subject: Option<&str>, call: &str, round: u32) -> String {
    match subject {
        None => format!("{call}/{round}"),
        Some(subject) => format!("{call}/{round}/{subject}"),
    }
}

/// Milliseconds since the Unix epoch, `lifetime` from now.
pub(crate) fn expiry(lifetime: Duration) -> u64 {
    let at = SystemTime::now() + lifetime;
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The time of an expiry in milliseconds since the Unix epoch.
#[cfg(feature = "ask")]
pub(crate) fn time_of(expiry: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(expiry)
}

/// How a call that resumes a round ends before it runs: a malformed request (nothing
/// claimed), or, for a claimed round, an error that is the round's answer; or the
/// round ran before, and its first answer is given again.
pub(crate) enum Ended {
    /// The call ends with this error.
    Stop(ToolError, Option<Claimed>),
    /// The round ran before: its first answer, as it was kept (the JSON of the result,
    /// or of the `InputRequiredResult`).
    #[cfg(feature = "ask")]
    Replay(String),
}

/// The answer a round kept, read back; `None` when it cannot be (then the model is
/// told, by [`unreadable_replay`], that it ran).
#[cfg(feature = "ask")]
pub(crate) fn replayed(json: &str) -> Result<Answer, ToolError> {
    Answer::from_json(json).ok_or_else(unreadable_replay)
}

/// The answer to a round that ran, whose kept answer cannot be read back.
#[cfg(feature = "ask")]
pub(crate) fn unreadable_replay() -> ToolError {
    ToolError::transient(
        "This call ran already, from an earlier request with the same requestState, and its answer can no longer be read.",
    )
    .may_have_taken_effect()
}

/// A round of a call, claimed by this request: whatever the call ends with is kept as
/// the round's answer, for a client that sends the same state again.
pub(crate) struct Claimed {
    id: String,
    keep_until: std::time::SystemTime,
    sealing: Arc<Sealing>,
    kept: bool,
}

impl Claimed {
    /// Claims the round `progress` resumes (for the caller `subject`, where the call
    /// has one); if it was claimed before, or cannot be, how the call ends instead.
    #[cfg(feature = "ask")]
    pub(crate) async fn claim(
        subject: Option<&str>,
        call: &str,
        round: u32,
        expires: u64,
        sealing: &Arc<Sealing>,
    ) -> Result<Claimed, Ended> {
        let id = round_id(subject, call, round);
        // Kept past the state's own expiry: a client whose connection dropped just
        // before it may send the state again a little after. A claim that outlives its
        // state is what makes a claim lost in a store (its answer never kept) safe: by
        // the time the store forgets it, the state it claimed is refused as expired.
        let keep_until = time_of(expires) + sealing.lifetime;
        match sealing.used.claim(&id, keep_until).await {
            Claim::First => Ok(Claimed {
                id,
                keep_until,
                sealing: Arc::clone(sealing),
                kept: false,
            }),
            Claim::Running => Err(Ended::Stop(
                ToolError::transient(
                    "This call is running now, from an earlier request with the same requestState (sent again after a connection dropped?). It runs once.",
                )
                .with_hint("Call again with the same requestState and inputResponses in a few seconds to get its answer.")
                .retry_after(Duration::from_secs(2)),
                None,
            )),
            Claim::Answered(answer) => Err(Ended::Replay(answer)),
            Claim::Unavailable(_why) => {
                #[cfg(feature = "tracing")]
                tracing::warn!(target: "mcp_tool", reason = %_why, "a confirmed round was not run: its record cannot be reached");
                Err(Ended::Stop(unrecorded(), None))
            }
        }
    }

    /// Keeps `answer` as the round's.
    pub async fn keep(self, answer: &Answer) {
        self.keep_json(answer.to_json()).await;
    }

    /// Keeps the answer written as `json` (a result, or an `InputRequiredResult`) as
    /// the round's. If the request is dropped while the store keeps it, the store goes
    /// on without it.
    pub async fn keep_json(mut self, json: String) {
        self.kept = true;
        let used = Arc::clone(&self.sealing.used);
        let id = std::mem::take(&mut self.id);
        let keep_until = self.keep_until;
        Finishing(Some(Box::pin(async move {
            used.keep(&id, json, keep_until).await;
        })))
        .await;
    }
}

/// The answer to a confirmed round whose record cannot be reached: it was not run.
#[cfg(feature = "ask")]
fn unrecorded() -> ToolError {
    ToolError::transient(
        "The call was NOT run: the server cannot reach its record of confirmed calls now, and runs a confirmed call only once it is recorded. Nothing was done.",
    )
    .with_hint("Call again with the same requestState and inputResponses in a few seconds; the user's answer still holds.")
    .retry_after(Duration::from_secs(2))
}

/// Work that must end even if whoever waits for it is gone: dropped unfinished, it is
/// handed to [`finish`].
struct Finishing(Option<Stored<'static, ()>>);

impl Future for Finishing {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let Some(work) = self.0.as_mut() else {
            return Poll::Ready(());
        };
        let done = work.as_mut().poll(cx);
        if done.is_ready() {
            self.0 = None;
        }
        done
    }
}

impl Drop for Finishing {
    fn drop(&mut self) {
        if let Some(work) = self.0.take() {
            finish(work);
        }
    }
}

/// Drives `work` to its end from code that cannot wait: at once if it needs no
/// waiting (the memory of [`UsedHere`]), else on the Tokio runtime this runs on (a
/// server built without one, on no runtime, drops what is left).
fn finish(mut work: Stored<'static, ()>) {
    let done = work
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
        .is_ready();
    #[cfg(any(feature = "rmcp", feature = "redis"))]
    if !done && let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(work);
    }
    #[cfg(not(any(feature = "rmcp", feature = "redis")))]
    let _ = done;
}

impl Drop for Claimed {
    /// A round whose call ended with no answer (its future dropped while the handler
    /// ran) may have done its work: a request that sends its state again is told so.
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let interrupted = ToolError::transient(
            "An earlier request with the same requestState was cut off while this call ran: it may have taken effect.",
        )
        .may_have_taken_effect()
        .into_call_result();
        let json = Answer::Complete(interrupted).to_json();
        let used = Arc::clone(&self.sealing.used);
        let id = std::mem::take(&mut self.id);
        let keep_until = self.keep_until;
        finish(Box::pin(async move {
            used.keep(&id, json, keep_until).await;
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_claimed_once_and_then_answers_as_it_did() {
        let used = UsedHere::default();
        let later = SystemTime::now() + Duration::from_secs(60);
        assert_eq!(used.claim_now("a", later), Claim::First);
        assert_eq!(used.claim_now("a", later), Claim::Running);
        assert_eq!(used.claim_now("b", later), Claim::First);
        // Kept at once, in memory: the future has nothing left to do.
        drop(used.keep("a", "{}".into(), later));
        assert_eq!(used.claim_now("a", later), Claim::Answered("{}".into()));
    }

    #[test]
    fn rounds_past_their_time_are_forgotten_when_many_are_kept() {
        let used = UsedHere::default();
        let past = SystemTime::now() - Duration::from_secs(1);
        let later = SystemTime::now() + Duration::from_secs(60);
        for i in 0..1024 {
            assert_eq!(used.claim_now(&format!("old{i}"), past), Claim::First);
        }
        assert_eq!(used.claim_now("kept", later), Claim::First);
        assert_eq!(used.rounds().len(), 1);
        assert_eq!(used.claim_now("kept", later), Claim::Running);
    }
}
