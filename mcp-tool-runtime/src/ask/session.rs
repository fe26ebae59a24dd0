//! One call's questions to its user: the answers it has (from this round, or carried
//! in the sealed state of the rounds before), and the questions still to put.

use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value, json};

use super::progress::{
    Asked, Given, Pending, Progress, Reply, apply, bind, malformed, question_of, refusal, reply,
    resume,
};
use super::record::{self, Claimed, Ended};
use super::{Answer, Elicit, InputRequired, Reach, Refusal, Sealing, Unanswered};
use crate::result::ToolError;

/// How many times the fields of one call are asked for before the model is told.
const FIELD_ASKS: u32 = 3;
/// How many rounds one call may take (the official clients stop at 10).
const ROUNDS: u32 = 10;
/// How many answers that are none of the choices a question takes.
const STRAY_ANSWERS: u32 = 3;

/// What became of asking for fields or for the confirmation.
pub(crate) enum Step {
    /// Answered: go on.
    Answered,
    /// The call ends with the question (2026-07-28).
    Suspend,
    /// The call ends with this error.
    Stop(ToolError),
}

#[derive(Clone)]
enum Asker {
    Nobody,
    Rounds,
    Live(Arc<dyn Elicit>),
}

/// One call's asking, shared by the toolbox's checks and the handler's [`super::Ask`].
#[derive(Clone)]
pub(crate) struct Session(Arc<Inner>);

struct Inner {
    /// Set at the start; a call that becomes a task asks through it from then on.
    asker: Mutex<Asker>,
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
    /// caller's: a state is bound to it, and its round is claimed for it.
    pub async fn start(
        tool: &'static str,
        arguments: &Value,
        reach: Reach,
        sealing: &Arc<Sealing>,
        may_ask: bool,
        subject: Option<&str>,
    ) -> Begun {
        let mut progress = Progress::default();
        let mut claimed = None;
        let asker = match reach {
            Reach::Nobody => Asker::Nobody,
            Reach::Live(elicit) => Asker::Live(elicit),
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
                        let (resumed, round) =
                            match resume(sealed, answers, sealing, progress).await {
                                Ok(resumed) => resumed,
                                Err(ended) => return ended.into(),
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
                Asker::Rounds
            }
        };
        let session = Session(Arc::new(Inner {
            asker: Mutex::new(asker),
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

    fn asker(&self) -> Asker {
        self.0
            .asker
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn can_ask(&self) -> bool {
        !matches!(self.asker(), Asker::Nobody)
    }

    /// From now on, puts its questions through `elicit` and waits for the answers: a
    /// call that became a task asks through its task. A session that cannot ask still
    /// cannot.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub fn ask_through(&self, elicit: Arc<dyn Elicit>) {
        let mut asker = self.0.asker.lock().unwrap_or_else(|e| e.into_inner());
        if !matches!(*asker, Asker::Nobody) {
            *asker = Asker::Live(elicit);
        }
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
        self.ask(Asked::Fields { names, question }, params).await
    }

    /// Asks the user to confirm `message`.
    pub async fn ask_confirm(&self, message: String) -> Step {
        let params = super::form::request(message.clone(), Map::new(), Vec::new());
        self.ask(Asked::Confirm { message }, params).await
    }

    /// Puts a question of the toolbox's own (fields, the confirmation) and takes its
    /// answer.
    async fn ask(&self, asked: Asked, params: Value) -> Step {
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
        progress.expires = record::expiry(self.0.sealing.lifetime);
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
        match &self.asker() {
            Asker::Nobody => Put::Failed("the client cannot ask its user".into()),
            Asker::Rounds => {
                let mut state = self.state();
                let key = match &asked {
                    Asked::Fields { .. } => "mcp-tool/fields".to_owned(),
                    Asked::Confirm { .. } => "mcp-tool/confirm".to_owned(),
                    Asked::Question { .. } => format!("mcp-tool/question/{}", state.next - 1),
                };
                state.asking.push((Pending { key, asked }, params));
                Put::Suspend
            }
            Asker::Live(elicit) => match elicit.elicit(params).await {
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

impl From<Ended> for Begun {
    fn from(ended: Ended) -> Begun {
        match ended {
            Ended::Stop(error, claimed) => Begun::Stop(error, claimed),
            #[cfg(feature = "ask")]
            Ended::Replay(json) => Begun::Replay(json),
        }
    }
}
