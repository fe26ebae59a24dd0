//! How far a handler's work got, said to whoever follows the call ([`Progress`]), and
//! what the request that carries a call signals besides its arguments ([`Signals`]).

#[cfg(feature = "rmcp")]
use std::future::Future;
#[cfg(feature = "rmcp")]
use std::pin::Pin;
#[cfg(feature = "rmcp")]
use std::sync::Arc;

/// One report of progress, as MCP's `notifications/progress` carries it.
#[cfg(feature = "rmcp")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    /// How much is done: it grows with each report.
    pub done: f64,
    /// How much there is to do, if known.
    pub total: Option<f64>,
    /// What is being done, for a person; `None` when the handler said nothing.
    pub message: Option<String>,
}

#[cfg(feature = "rmcp")]
impl Step {
    /// The step in words, for a follower that takes only words (a task's
    /// `statusMessage`): the handler's message, or "3 of 10 done".
    pub(crate) fn said(self) -> String {
        match (self.message, self.total) {
            (Some(message), _) => message,
            (None, Some(total)) => format!("{} of {} done", self.done, total),
            (None, None) => format!("{} done", self.done),
        }
    }
}

/// Whoever follows a call's progress: the client that sent a `progressToken`, or the
/// task the call runs as. Only a transport or a task (feature `rmcp`) gives a call one.
#[cfg(feature = "rmcp")]
pub(crate) trait Follower: Send + Sync {
    /// Tells the follower of `step`; never fails the call (a client gone is not the
    /// handler's problem).
    fn follow(&self, step: Step) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// What the request that carries a call signals besides its arguments: who follows its
/// progress, and its cancellation by the client (`notifications/cancelled`).
#[derive(Clone, Default)]
pub(crate) struct Signals {
    /// Where the call's progress goes, if anyone follows it.
    #[cfg(feature = "rmcp")]
    pub progress: Option<Arc<dyn Follower>>,
    /// Cancelled when the client cancels the request.
    #[cfg(feature = "rmcp")]
    pub cancelled: Option<tokio_util::sync::CancellationToken>,
}

/// Says how far a handler's work got, to whoever follows the call: the client, by
/// `notifications/progress`, where its request asked for them (a `progressToken` in its
/// `_meta`: rmcp's client sends one with every request, the official SDKs where the
/// caller asked to hear of progress); the task's `statusMessage`, which `tasks/get`
/// shows, where the call runs as a task. Nobody else: reporting to a call nobody
/// follows costs nothing.
///
/// MCP asks that the progress grow with each notification: a report that does not
/// (the same count again, fewer, not a number) is not sent, so a handler need not
/// keep count of what it said. A total that is not a number is left out. And it allows
/// a token only of a request in progress: a report made after the answer went out, or
/// after the client cancelled the request (by work the handler left running with a
/// clone), is not sent either.
///
/// A handler takes it before its arguments, as it takes its state or its caller:
///
/// ```
/// use mcp_tool::{McpTool, Progress, ToolError, Toolbox};
/// use serde::Deserialize;
///
/// /// Exports the orders of a month.
/// #[derive(McpTool, Deserialize)]
/// struct Export { month: u8 }
///
/// async fn export(progress: Progress, args: Export) -> Result<String, ToolError> {
///     for day in 1..=28u8 {
///         // ... export the orders of `day` ...
///         progress
///             .report(f64::from(day), Some(28.0), format!("Exported day {day} of 28"))
///             .await;
///     }
///     Ok(format!("Exported month {}", args.month))
/// }
///
/// let tools = Toolbox::new().tool(export);
/// # let _ = tools;
/// ```
#[derive(Clone, Default)]
pub struct Progress {
    /// Only a transport (feature `rmcp`) or a task gives a call a follower.
    #[cfg(feature = "rmcp")]
    followed: Option<Arc<Followed>>,
}

/// A call's follower, and the last `done` sent to it, shared by the clones of the
/// call's `Progress`.
#[cfg(feature = "rmcp")]
struct Followed {
    follower: Arc<dyn Follower>,
    /// Held across the sending, so that two clones reporting at once reach the
    /// follower in the order of their counts.
    last: tokio::sync::Mutex<Option<f64>>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("followed", &self.is_followed())
            .finish()
    }
}

impl Progress {
    /// The progress of a call that `follower` follows (nobody, if `None`).
    #[cfg(feature = "rmcp")]
    pub(crate) fn to(follower: Option<Arc<dyn Follower>>) -> Progress {
        Progress {
            followed: follower.map(|follower| {
                Arc::new(Followed {
                    follower,
                    last: tokio::sync::Mutex::new(None),
                })
            }),
        }
    }

    /// The progress of a call whose request signals `signals`.
    #[cfg_attr(not(feature = "rmcp"), allow(unused_variables))]
    pub(crate) fn of(signals: &Signals) -> Progress {
        #[cfg(feature = "rmcp")]
        return Progress::to(signals.progress.clone());
        #[cfg(not(feature = "rmcp"))]
        Progress::default()
    }

    /// Whether anyone follows the call: a handler may skip working out what to say
    /// when nobody does.
    pub fn is_followed(&self) -> bool {
        #[cfg(feature = "rmcp")]
        return self.followed.is_some();
        #[cfg(not(feature = "rmcp"))]
        false
    }

    /// Says that `done` of `total` (if known) is done, and what is being done
    /// (`message`; an empty one says nothing). Not sent when nobody follows the call,
    /// or when `done` is not more than the last sent.
    #[cfg_attr(not(feature = "rmcp"), allow(unused_variables))]
    pub async fn report(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        #[cfg(feature = "rmcp")]
        if let Some(followed) = &self.followed {
            let mut last = followed.last.lock().await;
            if !done.is_finite() || last.is_some_and(|last| done <= last) {
                return;
            }
            *last = Some(done);
            let message = message.into();
            let step = Step {
                done,
                total: total.filter(|t| t.is_finite()),
                message: (!message.is_empty()).then_some(message),
            };
            followed.follower.follow(step).await;
        }
    }
}

#[cfg(all(test, feature = "rmcp"))]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Keeps every step it is told of.
    #[derive(Default)]
    struct Kept(Mutex<Vec<Step>>);

    impl Follower for Kept {
        fn follow(&self, step: Step) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
            self.0.lock().unwrap().push(step);
            Box::pin(std::future::ready(()))
        }
    }

    fn run(f: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f);
    }

    #[test]
    fn only_growing_finite_counts_are_sent_by_every_clone_alike() {
        let kept = Arc::new(Kept::default());
        let progress = Progress::to(Some(kept.clone() as Arc<dyn Follower>));
        let clone = progress.clone();
        run(async {
            progress.report(1.0, Some(4.0), "one").await;
            clone.report(1.0, Some(4.0), "one again").await;
            progress.report(0.5, None, "fewer").await;
            clone.report(f64::NAN, None, "not a number").await;
            clone.report(2.5, Some(f64::INFINITY), "").await;
        });
        let steps = kept.0.lock().unwrap();
        assert_eq!(
            *steps,
            [
                Step {
                    done: 1.0,
                    total: Some(4.0),
                    message: Some("one".into())
                },
                Step {
                    done: 2.5,
                    total: None,
                    message: None
                },
            ]
        );
        assert_eq!(steps[0].clone().said(), "one");
        assert_eq!(steps[1].clone().said(), "2.5 done");
    }

    /// Keeps each step after giving way to the other reports of the call, the longer
    /// the smaller its count: left to themselves, the later would overtake.
    #[derive(Default)]
    struct Slow(Mutex<Vec<f64>>);

    impl Follower for Slow {
        fn follow(&self, step: Step) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
            Box::pin(async move {
                for _ in 0..(4 - step.done as usize) {
                    tokio::task::yield_now().await;
                }
                self.0.lock().unwrap().push(step.done);
            })
        }
    }

    #[test]
    fn reports_made_at_once_reach_the_follower_in_the_order_of_their_counts() {
        let slow = Arc::new(Slow::default());
        let progress = Progress::to(Some(slow.clone() as Arc<dyn Follower>));
        let (first, second) = (progress.clone(), progress.clone());
        run(async {
            tokio::join!(
                first.report(1.0, None, ""),
                second.report(2.0, None, ""),
                progress.report(3.0, None, ""),
            );
        });
        assert_eq!(*slow.0.lock().unwrap(), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn a_call_nobody_follows_says_nothing_and_says_so() {
        let progress = Progress::default();
        assert!(!progress.is_followed());
        run(progress.report(1.0, None, "unheard"));
        let said = Step {
            done: 3.0,
            total: Some(10.0),
            message: None,
        };
        assert_eq!(said.said(), "3 of 10 done");
    }
}
