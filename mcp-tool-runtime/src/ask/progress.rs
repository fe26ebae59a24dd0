//! The sealed progress of a call that asks its user: what the rounds before learned,
//! carried in the `requestState`, and how a retry's state is opened, bound to its call,
//! answered and claimed.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[cfg(feature = "ask")]
use super::StateKey;
use super::record::{Claimed, Ended};
use super::{Refusal, Sealing, Unanswered};
use crate::result::ToolError;

/// What the rounds before learned, sealed into the `requestState`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Progress {
    /// The tool, and a digest of its arguments: the state is good for this call only.
    pub(super) tool: String,
    pub(super) args: String,
    /// The verified caller who began the call (its subject; empty: none was verified):
    /// a state is a name, not a capability, so another caller's resend is refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(super) subject: String,
    /// This call's id, and the round: a state is spent once.
    pub(super) call: String,
    pub(super) round: u32,
    /// Milliseconds since the Unix epoch.
    pub(super) expires: u64,
    /// The user's values for asked fields.
    #[serde(default)]
    pub(super) fields: Map<String, Value>,
    #[serde(default)]
    pub(super) field_asks: u32,
    #[serde(default)]
    pub(super) confirmed: bool,
    /// The answers to the handler's questions, in the order it asked them.
    #[serde(default)]
    pub(super) answers: Vec<Given>,
    /// The user said no to a field or to the confirmation.
    #[serde(default)]
    pub(super) refused: Option<(Reply, String)>,
    /// The questions of the last round, whose answers the retry brings.
    #[serde(default)]
    pub(super) pending: Vec<Pending>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Given {
    pub(super) question: String,
    pub(super) reply: Reply,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Reply {
    Accept(Map<String, Value>),
    Decline,
    Cancel,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Pending {
    pub(super) key: String,
    pub(super) asked: Asked,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Asked {
    Fields {
        names: Vec<String>,
        question: String,
    },
    Confirm {
        message: String,
    },
    Question {
        question: String,
    },
}

pub(super) fn question_of(asked: &Asked) -> &str {
    match asked {
        Asked::Fields { question, .. } | Asked::Question { question } => question,
        Asked::Confirm { message } => message,
    }
}

pub(super) fn refusal(reply: &Reply, question: &str) -> Unanswered {
    let refusal = match reply {
        Reply::Cancel => Refusal::Cancelled,
        _ => Refusal::Declined,
    };
    Unanswered::new(refusal, question)
}

/// An `ElicitResult` as JSON, read.
pub(super) fn reply(result: &Value) -> Option<Reply> {
    match result.get("action")?.as_str()? {
        "accept" => match result.get("content") {
            None | Some(Value::Null) => Some(Reply::Accept(Map::new())),
            Some(Value::Object(content)) => Some(Reply::Accept(content.clone())),
            Some(_) => None,
        },
        "decline" => Some(Reply::Decline),
        "cancel" => Some(Reply::Cancel),
        _ => None,
    }
}

pub(super) fn apply(progress: &mut Progress, asked: &Asked, reply: Reply) {
    match (asked, reply) {
        (Asked::Fields { names, .. }, Reply::Accept(content)) => {
            for name in names {
                let value = content.get(name).cloned().unwrap_or(Value::Null);
                progress.fields.insert(name.clone(), value);
            }
        }
        (Asked::Confirm { .. }, Reply::Accept(_)) => progress.confirmed = true,
        (Asked::Question { question }, reply) => progress.answers.push(Given {
            question: question.clone(),
            reply,
        }),
        (asked, reply) => progress.refused = Some((reply, question_of(asked).to_owned())),
    }
}

/// What binds a state to its call: a digest of the tool's name and arguments.
#[cfg(feature = "ask")]
pub(super) fn bind(tool: &str, arguments: &Value) -> String {
    super::seal::digest(tool, arguments)
}

/// Without the `ask` feature no state is sealed, so none is bound to a call.
#[cfg(not(feature = "ask"))]
pub(super) fn bind(_: &str, _: &Value) -> String {
    String::new()
}

/// The progress a retry resumes, its answers in, and its round claimed; or how the call
/// ends instead: a malformed state, an expired question, a round that ran before.
#[cfg(feature = "ask")]
pub(super) async fn resume(
    sealed: String,
    answers: Map<String, Value>,
    sealing: &Arc<Sealing>,
    fresh: Progress,
) -> Result<(Progress, Claimed), Ended> {
    let mut progress = open(sealed, sealing, fresh).map_err(|e| Ended::Stop(e, None))?;
    answer(&mut progress, answers).map_err(|e| Ended::Stop(e, None))?;
    let subject = Some(progress.subject.as_str()).filter(|s| !s.is_empty());
    let round = Claimed::claim(
        subject,
        &progress.call,
        progress.round,
        progress.expires,
        sealing,
    )
    .await?;
    if let Some(expired) = expired(&progress, sealing) {
        return Err(Ended::Stop(expired, Some(round)));
    }
    Ok((progress, round))
}

/// Without the `ask` feature nothing here sealed a state: it is refused, unopened.
#[cfg(not(feature = "ask"))]
pub(super) async fn resume(
    _: String,
    _: Map<String, Value>,
    sealing: &Arc<Sealing>,
    _: Progress,
) -> Result<(Progress, Claimed), Ended> {
    Err(Ended::Stop(sealing.refuse_state(), None))
}

pub(super) fn malformed(message: &str) -> ToolError {
    ToolError::malformed_request(format!(
        "{message} The call was not run. Call the tool again without requestState and inputResponses to start over."
    ))
}

/// The progress a retry's `requestState` carries, checked: sealed by this server, for
/// this call.
#[cfg(feature = "ask")]
fn open(sealed: String, sealing: &Sealing, fresh: Progress) -> Result<Progress, ToolError> {
    let key: &StateKey = sealing.key()?;
    let progress: Progress = key
        .open(&sealed)
        .and_then(|payload| super::exact::from_slice(&payload))
        .ok_or_else(|| {
            malformed("The requestState sent back is not one this server sealed: it was changed, cut short, or sealed with another key.")
        })?;
    if progress.subject != fresh.subject {
        return Err(malformed(
            "The requestState sent back was sealed for another caller: a call's questions are answered by the caller who began it.",
        ));
    }
    if progress.tool != fresh.tool || progress.args != fresh.args {
        return Err(malformed(
            "The requestState sent back belongs to another call: another tool, or other arguments.",
        ));
    }
    Ok(progress)
}

/// The error of a state whose question was not answered in time, if it was not.
#[cfg(feature = "ask")]
fn expired(progress: &Progress, sealing: &Sealing) -> Option<ToolError> {
    if super::record::time_of(progress.expires) >= std::time::SystemTime::now() {
        return None;
    }
    let minutes = sealing.lifetime.as_secs().div_ceil(60);
    Some(
        ToolError::transient(format!(
            "The question to the user expired before the answer came back (a question is good for {minutes} minutes). Nothing was done with this answer."
        ))
        .with_hint("Call the tool again, without requestState, to ask again."),
    )
}

/// Takes the retry's answers to the questions the state says were put.
#[cfg(feature = "ask")]
fn answer(progress: &mut Progress, mut responses: Map<String, Value>) -> Result<(), ToolError> {
    let pending = std::mem::take(&mut progress.pending);
    let mut expected: Vec<&str> = pending.iter().map(|p| p.key.as_str()).collect();
    let mut sent: Vec<&str> = responses.keys().map(String::as_str).collect();
    expected.sort_unstable();
    sent.sort_unstable();
    if expected != sent {
        return Err(malformed(&format!(
            "The inputResponses do not answer the requests of the requestState: they answer {sent:?}, and the requests were {expected:?}."
        )));
    }
    for asked in pending {
        let result = responses.remove(&asked.key).unwrap_or_default();
        let Some(reply) = reply(&result) else {
            return Err(malformed(&format!(
                "The inputResponses' {:?} is no ElicitResult ({{\"action\": \"accept\" | \"decline\" | \"cancel\", \"content\": {{...}}}}).",
                asked.key
            )));
        };
        apply(progress, &asked.asked, reply);
    }
    Ok(())
}

#[cfg(all(test, feature = "ask"))]
mod tests {
    use super::*;
    use crate::ask::Sealing;
    use crate::result::echo::tests::doubles;

    /// The user's values for asked fields travel in the sealed `requestState` as JSON
    /// text; the retry reads every number back as it was sealed, so that the handler
    /// is given what the user's client sent. (Fails without the exact read where
    /// serde_json's default reader is built: `cargo test -p mcp-tool-runtime --lib`.)
    #[test]
    fn the_users_values_come_back_from_the_state_as_they_were_sealed() {
        let sealing = Sealing::new();
        let call = |fields| Progress {
            tool: "book".into(),
            args: bind("book", &Value::Object(Map::new())),
            fields,
            ..Progress::default()
        };
        let values = doubles(500);
        let fields = (values.iter().enumerate())
            .map(|(i, &x)| (format!("budget{i}"), Value::from(x)))
            .collect();
        let payload = serde_json::to_vec(&call(fields)).unwrap();
        let sealed = sealing.key().unwrap().seal(&payload);
        let opened = open(sealed, &sealing, call(Map::new())).unwrap();
        let changed = (values.iter().enumerate())
            .filter(|&(i, x)| {
                opened.fields[&format!("budget{i}")]
                    .as_f64()
                    .map(f64::to_bits)
                    != Some(x.to_bits())
            })
            .count();
        assert_eq!(changed, 0, "values the user did not give");
    }
}
