//! One call's questions to its user: the answers it has (from this round, or carried
//! in the sealed state of the rounds before), and the questions still to put.

use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

#[cfg(feature = "ask")]
use super::StateKey;
use super::store;
#[cfg(feature = "ask")]
use super::store::Claim;
use super::{Answer, Elicit, InputRequired, Reach, Refusal, Sealing, Unanswered};
use crate::result::ToolError;

/// How many times the fields of one call are asked for before the model is told.
const FIELD_ASKS: u32 = 3;
/// How many rounds one call may take (the official clients stop at 10).
const ROUNDS: u32 = 10;
/// How many answers that are none of the choices a question takes.
const STRAY_ANSWERS: u32 = 3;

/// What the rounds before learned, sealed into the `requestState`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Progress {
    /// The tool, and a digest of its arguments: the state is good for this call only.
    tool: String,
    args: String,
    /// The verified caller who began the call (its subject; empty: none was verified):
    /// a state is a name, not a capability, so another caller's resend is refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    subject: String,
    /// This call's id, and the round: a state is spent once.
    call: String,
    round: u32,
    /// Milliseconds since the Unix epoch.
    expires: u64,
    /// The user's values for asked fields.
    #[serde(default)]
    fields: Map<String, Value>,
    #[serde(default)]
    field_asks: u32,
    #[serde(default)]
    confirmed: bool,
    /// The answers to the handler's questions, in the order it asked them.
    #[serde(default)]
    answers: Vec<Given>,
    /// The user said no to a field or to the confirmation.
    #[serde(default)]
    refused: Option<(Reply, String)>,
    /// The questions of the last round, whose answers the retry brings.
    #[serde(default)]
    pending: Vec<Pending>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Given {
    question: String,
    reply: Reply,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Accept(Map<String, Value>),
    Decline,
    Cancel,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Pending {
    key: String,
    asked: Asked,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Asked {
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

/// What became of asking for fields or for the confirmation.
pub(crate) enum Step {
    /// Answered: go on.
    Answered,
    /// The call ends with the question (2026-07-28).
    Suspend,
    /// The call ends with this error.
    Stop(ToolError),
}

enum Way {
    Nobody,
    Rounds,
    Live(Arc<dyn Elicit>),
}

/// One call's asking, shared by the toolbox's checks and the handler's [`super::Ask`].
#[derive(Clone)]
pub(crate) struct Session(Arc<Inner>);

struct Inner {
    way: Way,
    sealing: Arc<Sealing>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    progress: Progress,
    /// The handler's next question, as an index into `progress.answers`.
    next: usize,
    stray: u32,
    /// This round's questions, each with its request's `params`.
    asking: Vec<(Pending, Value)>,
}

impl Session {
    /// A call's session: fresh, or where the sealed `request_state` of a retry left
    /// it, with the retry's answers in. A state that was changed, belongs to another
    /// call or is answered by other keys is a malformed request. A retry claims its
    /// round: a round claimed before is not run again (its answer is given again, or,
    /// while it runs, a transient error), and one whose state expired ends with a
    /// transient error. `may_ask` says whether the tool or its handler asks anything:
    /// if not, a fresh call is not bound to its arguments. `subject` is the verified
    /// caller's: a state is bound to it.
    pub fn start(
        tool: &'static str,
        arguments: &Value,
        reach: Reach,
        sealing: &Arc<Sealing>,
        may_ask: bool,
        subject: Option<&str>,
    ) -> Begun {
        let mut progress = Progress::default();
        let mut claimed = None;
        let way = match reach {
            Reach::Nobody => Way::Nobody,
            Reach::Live(elicit) => Way::Live(elicit),
            Reach::Rounds {
                input_responses,
                request_state,
            } => {
                if may_ask || request_state.is_some() {
                    progress.tool = tool.to_owned();
                    progress.args = bind(tool, arguments);
                    progress.subject = subject.unwrap_or_default().to_owned();
                }
                match request_state {
                    Some(sealed) => {
                        let answers = input_responses.unwrap_or_default();
                        let (resumed, round) = match resume(sealed, answers, sealing, progress) {
                            Ok(resumed) => resumed,
                            Err(ends) => return ends,
                        };
                        progress = resumed;
                        claimed = Some(round);
                    }
                    None if input_responses.is_some() => {
                        return Begun::Stop(
                            malformed(
                                "The inputResponses came without the requestState they answer.",
                            ),
                            None,
                        );
                    }
                    None => {}
                }
                Way::Rounds
            }
        };
        let session = Session(Arc::new(Inner {
            way,
            sealing: Arc::clone(sealing),
            state: Mutex::new(State {
                progress,
                ..State::default()
            }),
        }));
        Begun::Go(session, claimed)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn can_ask(&self) -> bool {
        !matches!(self.0.way, Way::Nobody)
    }

    /// The user's no to a field or to the confirmation, in the round before.
    pub fn refused(&self) -> Option<ToolError> {
        let state = self.state();
        let (reply, question) = state.progress.refused.as_ref()?;
        Some(refusal(reply, question).into())
    }

    /// The user's values for the asked fields, over the model's.
    pub fn fill(&self, arguments: &mut Value) {
        let state = self.state();
        if state.progress.fields.is_empty() {
            return;
        }
        if arguments.is_null() {
            *arguments = Value::Object(Map::new());
        }
        if let Value::Object(arguments) = arguments {
            for (name, value) in &state.progress.fields {
                match value {
                    Value::Null => arguments.remove(name),
                    value => arguments.insert(name.clone(), value.clone()),
                };
            }
        }
    }

    pub fn may_ask_fields(&self) -> bool {
        self.can_ask() && self.state().progress.field_asks < FIELD_ASKS
    }

    pub fn confirmed(&self) -> bool {
        self.state().progress.confirmed
    }

    /// Asks for the fields `names` with the form `params`.
    pub async fn ask_fields(&self, names: Vec<String>, question: String, params: Value) -> Step {
        self.state().progress.field_asks += 1;
        self.settle(Asked::Fields { names, question }, params).await
    }

    /// Asks the user to confirm `message`.
    pub async fn ask_confirm(&self, message: String) -> Step {
        let params = super::form::request(message.clone(), Map::new(), Vec::new());
        self.settle(Asked::Confirm { message }, params).await
    }

    /// Puts a question of the toolbox's own (fields, the confirmation) and takes its
    /// answer.
    async fn settle(&self, asked: Asked, params: Value) -> Step {
        match self.put(asked.clone(), params).await {
            Put::Suspend => Step::Suspend,
            Put::Failed(why) => {
                Step::Stop(Unanswered::new(Refusal::NoAnswer(why), question_of(&asked)).into())
            }
            Put::Replied(reply) => {
                let mut state = self.state();
                apply(&mut state.progress, &asked, reply);
                match &state.progress.refused {
                    Some((reply, question)) => Step::Stop(refusal(reply, question).into()),
                    None => Step::Answered,
                }
            }
        }
    }

    /// The handler's next question: its answer if a round before brought it, else the
    /// question is put.
    pub async fn question(
        &self,
        question: &str,
        params: Value,
    ) -> Result<Map<String, Value>, Unanswered> {
        {
            let mut state = self.state();
            let i = state.next;
            state.next += 1;
            match state.progress.answers.get(i) {
                Some(given) if given.question == question => {
                    return match &given.reply {
                        Reply::Accept(content) => Ok(content.clone()),
                        other => Err(refusal(other, question)),
                    };
                }
                // The handler took another path than on the round before: what it
                // was told after this point no longer applies.
                Some(_) => state.progress.answers.truncate(i),
                None => {}
            }
        }
        if !self.can_ask() {
            return Err(Unanswered::new(Refusal::CannotAsk, question));
        }
        let asked = Asked::Question {
            question: question.to_owned(),
        };
        match self.put(asked, params).await {
            Put::Suspend => Err(Unanswered::new(Refusal::Asking, question)),
            Put::Failed(why) => Err(Unanswered::new(Refusal::NoAnswer(why), question)),
            Put::Replied(reply) => {
                self.state().progress.answers.push(Given {
                    question: question.to_owned(),
                    reply: reply.clone(),
                });
                match reply {
                    Reply::Accept(content) => Ok(content),
                    other => Err(refusal(&other, question)),
                }
            }
        }
    }

    /// Forgets the answer to the last question, which was none of its choices.
    pub fn discard_answer(&self, question: &str) -> Result<(), Unanswered> {
        let mut state = self.state();
        state.next -= 1;
        let i = state.next;
        state.progress.answers.truncate(i);
        state.stray += 1;
        if state.stray >= STRAY_ANSWERS {
            return Err(Unanswered::new(
                Refusal::NoAnswer(format!("{STRAY_ANSWERS} answers were none of the choices")),
                question,
            ));
        }
        Ok(())
    }

    pub fn has_pending(&self) -> bool {
        !self.state().asking.is_empty()
    }

    /// The call's end while the user answers: this round's questions, and the state
    /// that resumes it.
    pub fn suspend(&self) -> Result<Answer, ToolError> {
        let mut state = self.state();
        let state = &mut *state;
        if state.progress.round + 1 >= ROUNDS {
            return Err(ToolError::transient(format!(
                "The user was asked {ROUNDS} times in this call without an end; nothing was done."
            ))
            .with_hint("Call again, or ask the user yourself."));
        }
        let mut input_requests = Map::new();
        let mut pending = Vec::new();
        for (asked, params) in state.asking.drain(..) {
            input_requests.insert(
                asked.key.clone(),
                json!({ "method": "elicitation/create", "params": params }),
            );
            pending.push(asked);
        }
        let progress = &mut state.progress;
        if progress.call.is_empty() {
            progress.call = super::random_id().map_err(|e| {
                ToolError::transient(format!("The server cannot ask the user now: {e}."))
            })?;
        }
        progress.pending = pending;
        progress.refused = None;
        progress.round += 1;
        progress.expires = store::expiry(self.0.sealing.lifetime);
        let payload = serde_json::to_vec(&progress).map_err(|e| {
            ToolError::transient(format!("The server cannot ask the user now: {e}."))
        })?;
        let request_state = self.0.sealing.key()?.seal(&payload);
        Ok(Answer::InputRequired(InputRequired {
            input_requests,
            request_state,
        }))
    }

    async fn put(&self, asked: Asked, params: Value) -> Put {
        match &self.0.way {
            Way::Nobody => Put::Failed("the client cannot ask its user".into()),
            Way::Rounds => {
                let mut state = self.state();
                let key = match &asked {
                    Asked::Fields { .. } => "mcp-tool/fields".to_owned(),
                    Asked::Confirm { .. } => "mcp-tool/confirm".to_owned(),
                    Asked::Question { .. } => format!("mcp-tool/question/{}", state.next - 1),
                };
                state.asking.push((Pending { key, asked }, params));
                Put::Suspend
            }
            Way::Live(elicit) => match elicit.elicit(params).await {
                Ok(result) => match reply(&result) {
                    Some(reply) => Put::Replied(reply),
                    None => Put::Failed("the client's answer was no ElicitResult".into()),
                },
                Err(why) => Put::Failed(why),
            },
        }
    }
}

enum Put {
    Suspend,
    Replied(Reply),
    Failed(String),
}

fn question_of(asked: &Asked) -> &str {
    match asked {
        Asked::Fields { question, .. } | Asked::Question { question } => question,
        Asked::Confirm { message } => message,
    }
}

fn refusal(reply: &Reply, question: &str) -> Unanswered {
    let refusal = match reply {
        Reply::Cancel => Refusal::Cancelled,
        _ => Refusal::Declined,
    };
    Unanswered::new(refusal, question)
}

/// An `ElicitResult` as JSON, read.
fn reply(result: &Value) -> Option<Reply> {
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

fn apply(progress: &mut Progress, asked: &Asked, reply: Reply) {
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
fn bind(tool: &str, arguments: &Value) -> String {
    super::seal::digest(tool, arguments)
}

/// Without the `ask` feature no state is sealed, so none is bound to a call.
#[cfg(not(feature = "ask"))]
fn bind(_: &str, _: &Value) -> String {
    String::new()
}

/// The progress a retry resumes, its answers in, and its round claimed; or how the call
/// ends instead: a malformed state, an expired question, a round that ran before.
#[cfg(feature = "ask")]
fn resume(
    sealed: String,
    answers: Map<String, Value>,
    sealing: &Arc<Sealing>,
    fresh: Progress,
) -> Result<(Progress, Claimed), Begun> {
    let mut progress = open(sealed, sealing, fresh).map_err(|e| Begun::Stop(e, None))?;
    answer(&mut progress, answers).map_err(|e| Begun::Stop(e, None))?;
    let round = Claimed::claim(&progress, sealing)?;
    if let Some(expired) = expired(&progress, sealing) {
        return Err(Begun::Stop(expired, Some(round)));
    }
    Ok((progress, round))
}

/// Without the `ask` feature nothing here sealed a state: it is refused, unopened.
#[cfg(not(feature = "ask"))]
fn resume(
    _: String,
    _: Map<String, Value>,
    sealing: &Arc<Sealing>,
    _: Progress,
) -> Result<(Progress, Claimed), Begun> {
    Err(Begun::Stop(sealing.refuse_state(), None))
}

fn malformed(message: &str) -> ToolError {
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
    if store::time_of(progress.expires) >= std::time::SystemTime::now() {
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

/// How a call that resumes a round begins.
pub(crate) enum Begun {
    /// It goes on in this session, having claimed its round if it resumes one.
    Go(Session, Option<Claimed>),
    /// It ends with this error: a malformed request (nothing claimed), or, for a
    /// claimed round, an error that is the round's answer.
    Stop(ToolError, Option<Claimed>),
    /// The round ran before: its first answer, given again, as it was kept (the JSON
    /// of the result, or of the `InputRequiredResult`).
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
    /// Claims the round `progress` resumes; if it was claimed before, how the call
    /// ends instead.
    #[cfg(feature = "ask")]
    fn claim(progress: &Progress, sealing: &Arc<Sealing>) -> Result<Claimed, Begun> {
        // Per caller: a record one caller's round made is never another's answer.
        let id = match progress.subject.as_str() {
            "" => format!("{}/{}", progress.call, progress.round),
            subject => format!("{}/{}@{subject}", progress.call, progress.round),
        };
        // Kept past the state's own expiry: a client whose connection dropped just
        // before it may send the state again a little after.
        let keep_until = store::time_of(progress.expires) + sealing.lifetime;
        match sealing.used.claim(&id, keep_until) {
            Claim::First => Ok(Claimed {
                id,
                keep_until,
                sealing: Arc::clone(sealing),
                kept: false,
            }),
            Claim::Running => Err(Begun::Stop(
                ToolError::transient(
                    "This call is running now, from an earlier request with the same requestState (sent again after a connection dropped?). It runs once.",
                )
                .with_hint("Call again with the same requestState and inputResponses in a few seconds to get its answer.")
                .retry_after(std::time::Duration::from_secs(2)),
                None,
            )),
            Claim::Answered(answer) => Err(Begun::Replay(answer)),
        }
    }

    /// Keeps `answer` as the round's.
    pub fn keep(self, answer: &Answer) {
        self.keep_json(answer.to_json());
    }

    /// Keeps the answer written as `json` (a result, or an `InputRequiredResult`) as
    /// the round's.
    pub fn keep_json(mut self, json: String) {
        self.kept = true;
        self.sealing.used.keep(&self.id, json, self.keep_until);
    }
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
        self.sealing.used.keep(&self.id, json, self.keep_until);
    }
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
