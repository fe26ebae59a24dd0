//! A question the user did not answer, as the error the model is told: the asking (the
//! `ask` module above) makes one, and `?` turns it into a [`ToolError`] like any other
//! error a handler returns.

use std::fmt;

use super::ToolError;

/// A question the user did not answer. Converted into a [`ToolError`] with `?`, it
/// tells the model what happened and that the same call will not do better (each is a
/// `permission` error, not retryable, except [`Unanswered::no_answer`], which is
/// `transient`).
///
/// Under protocol 2026-07-28 an `Unanswered` also stands for "the user is being asked":
/// return it (with `?`) and the call ends with the question, to resume with the answer.
/// None of the `is_` methods is true for it.
#[derive(Debug, Clone)]
pub struct Unanswered {
    refusal: Refusal,
    question: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    Declined,
    Cancelled,
    CannotAsk,
    NoAnswer(String),
    NothingToChoose,
    /// Being asked: the call ends with the question (2026-07-28).
    Asking,
}

impl Unanswered {
    /// The client of a call to `tool` cannot ask its user.
    pub(crate) fn cannot(tool: &str) -> Self {
        Unanswered::new(
            Refusal::CannotAsk,
            &format!("{tool} needs the user's answer."),
        )
    }

    pub(crate) fn new(refusal: Refusal, question: &str) -> Self {
        Unanswered {
            refusal,
            question: question.to_owned(),
        }
    }

    /// The user said no.
    pub fn is_declined(&self) -> bool {
        self.refusal == Refusal::Declined
    }

    /// The user dismissed the question without answering.
    pub fn is_cancelled(&self) -> bool {
        self.refusal == Refusal::Cancelled
    }

    /// The client cannot ask its user: a handler may fall back on asking the model.
    pub fn cannot_ask(&self) -> bool {
        self.refusal == Refusal::CannotAsk
    }

    /// The question could not be put or got no answer (the client failed, the
    /// connection closed, no answer in time, or too many invalid answers).
    pub fn no_answer(&self) -> bool {
        matches!(self.refusal, Refusal::NoAnswer(_))
    }

    /// The question asked.
    pub fn question(&self) -> &str {
        &self.question
    }
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.clone().into_tool_error().message())
    }
}

impl std::error::Error for Unanswered {}

impl Unanswered {
    /// What the model is told (with `?`, through `From` for every error).
    pub(crate) fn into_tool_error(self) -> ToolError {
        let unanswered = self;
        let question = &unanswered.question;
        match unanswered.refusal {
            Refusal::Declined => ToolError::permission(format!(
                "The user declined when asked: {question} Nothing was done."
            ))
            .with_hint(
                "Do not call again with the same arguments; ask the user what they want instead.",
            ),
            Refusal::Cancelled => ToolError::permission(format!(
                "The user dismissed the question without answering: {question} Nothing was done."
            ))
            .with_hint("Do not retry unless the user asks you to."),
            Refusal::CannotAsk => ToolError::permission(format!(
                "This needs the user's answer, and this client cannot ask its user: {question}"
            ))
            .with_hint("Ask the user yourself, then call again with what they said."),
            Refusal::NoAnswer(why) => ToolError::transient(format!(
                "The user could not be asked ({why}): {question} Nothing was done."
            ))
            .with_hint("Call again to ask again."),
            Refusal::NothingToChoose => {
                ToolError::business(format!("There is nothing to choose from: {question}"))
            }
            Refusal::Asking => ToolError::transient(format!("Waiting for the user: {question}")),
        }
    }
}
