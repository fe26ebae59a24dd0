//! One `tools/call` of a registered tool, from its arguments to its answer: the checks,
//! the user asked where the tool says so (fields missing or wrong, the confirmation),
//! then the handler.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, ready};

use serde::Serialize;
use serde_json::Value;

use crate::ask::{Answer, Ask, Begun, Elicit, Reach, Sealing, Session, Step};
use crate::caller::{Caller, Unverified};
use crate::context::Context;
use crate::describe::McpTool;
use crate::describe::asking::{AskField, Asking};
use crate::describe::profile::SchemaProfile;
use crate::describe::read::{Passed, Reading};
use crate::result::echo::Echoed;
use crate::result::{ErrorSorting, ToolError};

use super::handler::{CallParts, Handler};
use super::output::{OutputShape, internal_failure, output_result};
use super::progress::Signals;

/// What a call is served with, besides its arguments.
pub(crate) struct Setup {
    pub context: Context,
    pub profile: SchemaProfile,
    pub repair: bool,
    /// What came may be shown in an error (see `Toolbox::echo_values`).
    pub values_shown: bool,
    pub reach: Reach,
    pub sealing: Arc<Sealing>,
    /// An unexpected error's chain is shown to the model (see
    /// `Toolbox::show_unexpected_errors`).
    pub show_unexpected: bool,
    /// The server's sorts of well-known errors (see `Toolbox::sort_errors`).
    pub sorting: Arc<ErrorSorting>,
    /// Who calls, as the transport verified it (`None`: nobody verified one).
    pub caller: Option<Caller>,
    /// What a call without a verified caller is served as.
    pub unverified: Unverified,
    /// Whether the call becomes a task once its arguments pass (`Some`): its handler
    /// then runs later, as [`Routed::Later`], and asks its user through what is given.
    pub defer: Option<Arc<dyn Elicit>>,
    /// What the request signals: who follows the call's progress, its cancellation.
    pub signals: Signals,
}

/// Where a call's route got to: its answer, or (for a call that becomes a task) the
/// rest of it, to run in the background once its arguments passed.
pub(crate) enum Routed {
    /// The answer.
    Now(Answer),
    /// The handler and what follows it, still to run.
    Later(Later),
}

/// The rest of a call that becomes a task: its answer, or [`Panicked`].
pub(crate) type Later = Pin<Box<dyn Future<Output = Result<Answer, Panicked>> + Send>>;

/// The handler of a task panicked: no result of the tool, so the task fails (a call
/// answered within its request says so in an `isError` result instead).
#[derive(Debug)]
pub(crate) struct Panicked;

/// The answer to a call of `T`: its result, the questions for the user, or (`Err`) a
/// malformed request. A call that resumes a round of questions claims the round: it
/// runs once, and whatever it answers is kept as the round's answer.
pub(crate) async fn call<S, T, M, H>(
    handler: Arc<H>,
    state: Arc<S>,
    arguments: Value,
    setup: Setup,
    shape: OutputShape,
) -> Result<Routed, ToolError>
where
    S: Send + Sync + 'static,
    T: McpTool + Send + 'static,
    H: Handler<S, T, M>,
    H::Output: Serialize,
{
    let may_ask = T::spec().asking.is_some() || H::ASKS;
    let reading = Reading {
        profile: setup.profile,
        repair: setup.repair,
        values_shown: setup.values_shown,
    };
    let show_unexpected = setup.show_unexpected;
    let sorting = Arc::clone(&setup.sorting);
    let reach = setup.reach;
    let setup_defer = setup.defer;
    // Who may call is decided before the arguments are read: a refusal says nothing
    // of them, and costs nothing of the checks.
    let admitted = crate::caller::admit(
        T::NAME,
        T::spec().scopes,
        setup.caller.as_ref(),
        &setup.unverified,
    )
    .and_then(|caller| match caller {
        None if H::CALLER => Err(crate::caller::no_caller(T::NAME, false)),
        caller => Ok(caller),
    });
    let caller = match admitted {
        Ok(caller) => caller,
        Err(error) => {
            // A refusal of who calls, never an unexpected error: nothing to sort.
            let error = error.for_call(T::NAME.to_owned(), Value::Object(Default::default()));
            return Ok(Routed::Now(Answer::Complete(error.into_call_result())));
        }
    };
    let subject = caller.as_ref().map(Caller::subject);
    let (outcome, claimed) =
        match Session::start(T::NAME, &arguments, reach, &setup.sealing, may_ask, subject).await {
            #[cfg(feature = "ask")]
            Begun::Replay(json) => (crate::ask::replayed(&json).map(Routed::Now), None),
            Begun::Stop(error, claimed) => {
                let error = named(error, T::NAME, || {
                    T::spec().attempted_arguments(
                        T::NAME,
                        &arguments,
                        &setup.context,
                        reading.values_shown,
                    )
                });
                (Err(error), claimed)
            }
            Begun::Go(session, claimed) => {
                let setup = Ready {
                    context: setup.context,
                    reading,
                    caller: caller.clone(),
                    signals: setup.signals,
                };
                let defer = setup_defer;
                let outcome = run::<S, T, M, H>(
                    handler, state, arguments, session, setup, shape, caller, defer,
                )
                .await;
                (outcome, claimed)
            }
        };
    let answered = move |outcome: Result<Answer, ToolError>| match outcome {
        Ok(answer) => Ok(answer),
        Err(error) if error.is_malformed_request() => Err(error),
        Err(error) => {
            let error = error.sorted_for(T::NAME, T::spec().annotations, show_unexpected, &sorting);
            Ok(Answer::Complete(error.into_call_result()))
        }
    };
    let answer = match outcome {
        Ok(Routed::Later(later)) => {
            // Its arguments passed: the task is created, and its round (if it resumed
            // one) is over, answered by the task.
            let later = async move {
                let answer = answered(Ok(later.await?));
                Ok(answer.unwrap_or_else(|e| Answer::Complete(e.into_call_result())))
            };
            return Ok(Routed::Later(Box::pin(later)));
        }
        Ok(Routed::Now(answer)) => answered(Ok(answer))?,
        Err(error) => answered(Err(error))?,
    };
    if let Some(claimed) = claimed {
        claimed.keep(&answer).await;
    }
    Ok(Routed::Now(answer))
}

/// What the checks and the handler are run with.
pub(crate) struct Ready {
    pub context: Context,
    pub reading: Reading,
    /// Who calls, if known: a caller may be trusted to run a tool unconfirmed.
    pub caller: Option<Caller>,
    /// What the request signals, for the handler's pieces.
    pub signals: Signals,
}

/// The arguments of a call once its user has answered what the tool asks, or the
/// questions to put first.
pub(crate) enum Prepared {
    /// Checked, and as serde reads them, with the repairs made and what
    /// `attempted_query` shows of them.
    Ready(Passed),
    /// The call ends while the user answers (2026-07-28).
    Asking(Answer),
}

/// Checks `arguments` of the tool `spec` (called as `tool`), asking the user where it
/// says so: for the asked fields missing or wrong (only when nothing else is wrong:
/// the model's own mistakes go back to the model), then for the confirmation. The same
/// for every tool, whatever serves it: a `Toolbox`, or an rmcp router through
/// `structured`.
pub(crate) async fn prepare(
    spec: &'static crate::describe::ToolSpec,
    tool: &str,
    session: &Session,
    mut arguments: Value,
    setup: &Ready,
) -> Result<Prepared, ToolError> {
    let context = &setup.context;
    let values_shown = setup.reading.values_shown;
    if let Some(refused) = session.refused() {
        return Err(named(refused, tool, || {
            spec.attempted_arguments(tool, &arguments, context, values_shown)
        }));
    }
    let asking = spec.asking;
    let confirm = asking.and_then(|a| a.confirm.as_ref());
    // What the model sent, for `attempted_query`: the answers of the user filled in
    // below went to the server, not to the model.
    let sent = asking
        .filter(|a| !a.fields.is_empty())
        .map(|_| arguments.clone());
    let (mut passed, confirmation) = loop {
        session.fill(&mut arguments);
        // Written only when it will be shown: to the user, or in a refusal.
        let confirmation = confirm
            .filter(|c| {
                !session.confirmed()
                    && (session.can_ask() || c.unconfirmed.refuses(setup.caller.as_ref()))
            })
            .map(|c| crate::ask::form::confirmation(c, &arguments));
        let kept = asking
            .filter(|a| !a.fields.is_empty() && session.may_ask_fields())
            .map(|_| arguments.clone());
        let echo = sent.is_none();
        let checked = spec.checked(tool, arguments, context, setup.reading, echo);
        let error = match checked {
            Ok(passed) => break (passed, confirmation),
            Err(error) => error,
        };
        let (Some(asking), Some(kept)) = (asking, kept) else {
            return Err(error);
        };
        let Some(asked) = fields_to_ask(asking, &error) else {
            return Err(error);
        };
        let names = asked.iter().map(|(f, _)| f.name.to_owned()).collect();
        let question = asked
            .iter()
            .map(|(f, _)| f.question)
            .collect::<Vec<_>>()
            .join(" ");
        let params = crate::ask::form::fields(spec.input_schema(), &asked);
        let shown = || spec.attempted_arguments(tool, &kept, context, values_shown);
        match session.ask_fields(names, question, params).await {
            Step::Answered => arguments = kept,
            Step::Suspend => {
                return match session.suspend() {
                    Ok(answer) => Ok(Prepared::Asking(answer)),
                    Err(error) => Err(named(error, tool, shown)),
                };
            }
            Step::Stop(error) => return Err(named(error, tool, shown)),
        }
    };
    if let Some(sent) = &sent {
        passed.echoed = Some(Echoed::of(sent, &passed.hidden));
    }
    if let Some(message) = confirmation {
        let shown = || {
            passed
                .echoed
                .as_ref()
                .map(Echoed::value)
                .unwrap_or_default()
        };
        if !session.can_ask() {
            // The message shows values of the call, for the user: not to the model
            // where values are not shown.
            let said = values_shown.then_some(message.as_str());
            return Err(named(needs_confirmation(said), tool, shown));
        }
        match session.ask_confirm(message).await {
            Step::Answered => {}
            Step::Suspend => {
                return match session.suspend() {
                    Ok(answer) => Ok(Prepared::Asking(answer)),
                    Err(error) => Err(named(error, tool, shown)),
                };
            }
            Step::Stop(error) => return Err(named(error, tool, shown)),
        }
    }
    Ok(Prepared::Ready(passed))
}

/// `error`, saying which call failed (its `attempted_query`: `shown`) unless it says so
/// already.
pub(crate) fn named(error: ToolError, tool: &str, shown: impl FnOnce() -> Value) -> ToolError {
    if error.has_call() {
        error
    } else {
        error.for_call(tool.to_owned(), shown())
    }
}

#[allow(clippy::too_many_arguments)]
async fn run<S, T, M, H>(
    handler: Arc<H>,
    state: Arc<S>,
    arguments: Value,
    session: Session,
    setup: Ready,
    shape: OutputShape,
    caller: Option<Caller>,
    defer: Option<Arc<dyn Elicit>>,
) -> Result<Routed, ToolError>
where
    S: Send + Sync + 'static,
    T: McpTool + Send + 'static,
    H: Handler<S, T, M>,
    H::Output: Serialize,
{
    let spec = T::spec();
    let passed = match prepare(spec, T::NAME, &session, arguments, &setup).await? {
        Prepared::Ready(passed) => passed,
        Prepared::Asking(answer) => return Ok(Routed::Now(answer)),
    };
    let Passed {
        arguments,
        repairs,
        echoed,
        ..
    } = passed;
    let args: T = spec
        .deserialize(T::NAME, arguments, setup.reading.values_shown)
        .map_err(|error| error.with_repairs(repairs.clone()))?;
    let parts = CallParts {
        tool: T::NAME,
        state,
        ask: Ask::new(session.clone()),
        caller,
        context: setup.context.clone(),
        signals: setup.signals.clone(),
    };
    // Both creating and polling the handler's future may panic.
    let running = CatchUnwind(Box::pin(async move { handler.call(&parts, args)?.await }));
    if let Some(through) = defer {
        // The questions of the call (its fields, its confirmation) were asked before
        // the task exists; its handler's own questions go through the task.
        session.ask_through(through);
        let later = async move {
            let outcome = running.await;
            if outcome.is_err() {
                return Err(Panicked);
            }
            let answer = finished::<T, _>(outcome, &session, echoed, repairs, shape);
            Ok(answer.unwrap_or_else(|error| Answer::Complete(error.into_call_result())))
        };
        return Ok(Routed::Later(Box::pin(later)));
    }
    let outcome = running.await;
    finished::<T, _>(outcome, &session, echoed, repairs, shape).map(Routed::Now)
}

/// The answer of a call whose handler ran, with `outcome`.
fn finished<T: McpTool, O: Serialize>(
    outcome: Result<Result<O, ToolError>, Box<dyn Any + Send>>,
    session: &Session,
    echoed: Option<Echoed>,
    repairs: Vec<crate::result::Repair>,
    shape: OutputShape,
) -> Result<Answer, ToolError> {
    let spec = T::spec();
    let shown = || echoed.as_ref().map(Echoed::value).unwrap_or_default();
    if session.has_pending() {
        return session
            .suspend()
            .map_err(|error| named(error, T::NAME, shown));
    }
    match outcome {
        Ok(Ok(output)) => Ok(Answer::Complete(
            output_result(T::NAME, spec.annotations, &output, shape).with_repairs(&repairs),
        )),
        Ok(Err(error)) => Err(named(error, T::NAME, shown).with_repairs(repairs)),
        Err(_panic) => Err(named(
            internal_failure(T::NAME, spec.annotations),
            T::NAME,
            shown,
        )),
    }
}

/// The asked fields that `error` is about, each with what was wrong with its value
/// (`None` when it was not sent); `None` if anything else is wrong too: the model's own
/// mistakes go back to the model.
fn fields_to_ask<'a>(
    asking: &'a Asking,
    error: &ToolError,
) -> Option<Vec<(&'a AskField, Option<String>)>> {
    let mut asked: Vec<(&AskField, Option<String>)> = Vec::new();
    if error.violations().is_empty() || error.omitted_violations() > 0 {
        return None;
    }
    for (violation, field) in error.violations_by_field() {
        let field = asking.fields.iter().find(|f| Some(f.name) == field)?;
        let problem = (violation.rule != "required").then(|| violation.message.clone());
        match asked.iter_mut().find(|(f, _)| f.name == field.name) {
            Some((_, seen)) => {
                if let (Some(seen), Some(problem)) = (seen.as_mut(), problem) {
                    seen.push_str("; ");
                    seen.push_str(&problem);
                }
            }
            None => asked.push((field, problem)),
        }
    }
    Some(asked)
}

/// A call that needs the user's confirmation, from a client that cannot ask; with the
/// confirmation's `message` (values of the call in it) unless values are not shown.
pub(crate) fn needs_confirmation(message: Option<&str>) -> ToolError {
    let mut text = String::from(
        "This call runs only once the user confirms it, and this client cannot ask its user (it supports no elicitation)",
    );
    match message {
        Some(message) => {
            text.push_str(": ");
            text.push_str(message);
        }
        None => text.push('.'),
    }
    text.push_str(" Nothing was done.");
    ToolError::permission(text)
    .with_hint("Tell the user what you were about to do; they can confirm it from a client that supports elicitation, or do it themselves.")
}

/// Polls a future, turning a panic into an `Err`.
pub(crate) struct CatchUnwind<F>(pub(crate) Pin<Box<F>>);

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        let future = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(poll) => Poll::Ready(Ok(ready!(poll))),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}
