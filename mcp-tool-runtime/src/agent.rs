//! The client side: what an agent loop does with a `tools/call` result.
//!
//! SDK-neutral: it reads the result as JSON (`{"content", "structuredContent",
//! "isError"}`), which every MCP client library can produce.
//!
//! ```
//! use mcp_tool::agent::{Attempts, Next, Stop};
//! use serde_json::json;
//!
//! let mut attempts = Attempts::new(); // 3 failed attempts per tool, then stop
//! let bad_date = json!({
//!     "content": [{"type": "text", "text": "book_flight was not run: ..."}],
//!     "structuredContent": {"errorCategory": "validation", "isRetryable": false},
//!     "isError": true
//! });
//! // Give the text back to the model so that it corrects the arguments:
//! assert!(matches!(attempts.record("book_flight", &bad_date), Next::FixArguments { .. }));
//! assert!(matches!(attempts.record("book_flight", &bad_date), Next::FixArguments { .. }));
//! // The third failure spends the budget: stop and tell the user.
//! let Next::Stop { reason, message } = attempts.record("book_flight", &bad_date) else { panic!() };
//! assert_eq!(reason, Stop::AttemptsSpent);
//! assert!(message.contains("3 times"));
//! ```

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

/// What to do after a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The call succeeded: use its result.
    Done,
    /// The arguments were wrong: give `feedback` to the model, which corrects them and
    /// calls again.
    FixArguments {
        /// The result's text: every problem, with what to do.
        feedback: String,
    },
    /// A passing failure: make the identical call again, after `after` when the server
    /// said so.
    RetryLater {
        /// How long the server asked to wait (`retryAfterSeconds`).
        after: Option<Duration>,
    },
    /// Do not call again: tell the user `message`.
    Stop {
        /// Why.
        reason: Stop,
        /// What to tell the user.
        message: String,
    },
}

/// Why an agent should stop calling a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A rule of the domain forbids the call (`business`).
    Business,
    /// The caller may not do this (`permission`): retrying does not help.
    Permission,
    /// The tool failed as many times in a row as the budget allows.
    AttemptsSpent,
    /// The tool failed and may have taken effect (`transient` with `isRetryable`
    /// false): find out whether it did before calling it again.
    MayHaveTakenEffect,
}

/// Reads one result: what it asks for, ignoring any budget.
///
/// A result with `isError` but without this crate's `errorCategory` (another server's
/// error) is treated as a validation error: the model reads the text and decides.
pub fn next_step(result: &Value) -> Next {
    if result.get("isError").and_then(Value::as_bool) != Some(true) {
        return Next::Done;
    }
    let text = text_of(result);
    let structured = result.get("structuredContent");
    let category = structured
        .and_then(|s| s.get("errorCategory"))
        .and_then(Value::as_str);
    let retryable = structured
        .and_then(|s| s.get("isRetryable"))
        .and_then(Value::as_bool);
    match category {
        // A failure that may have taken effect: repeating it could do it twice.
        Some("transient") if retryable == Some(false) => Next::Stop {
            reason: Stop::MayHaveTakenEffect,
            message: format!(
                "The tool failed and may have taken effect; check before trying again: {text}"
            ),
        },
        Some("transient") => Next::RetryLater {
            after: structured
                .and_then(|s| s.get("retryAfterSeconds"))
                .and_then(Value::as_u64)
                .map(Duration::from_secs),
        },
        Some("business") => Next::Stop {
            reason: Stop::Business,
            message: format!("This cannot be done: {text}"),
        },
        Some("permission") => Next::Stop {
            reason: Stop::Permission,
            message: format!("You do not have access to do this: {text}"),
        },
        _ => Next::FixArguments { feedback: text },
    }
}

/// The failed attempts per tool, against a budget: [`next_step`] plus "stop after N
/// failures in a row".
#[derive(Debug, Clone)]
pub struct Attempts {
    budget: u32,
    failures: HashMap<String, u32>,
}

impl Default for Attempts {
    fn default() -> Self {
        Attempts::new()
    }
}

impl Attempts {
    /// A budget of 3 failed attempts per tool.
    pub fn new() -> Self {
        Attempts::with_budget(3)
    }

    /// A budget of `budget` failed attempts in a row per tool (at least 1).
    pub fn with_budget(budget: u32) -> Self {
        Attempts {
            budget: budget.max(1),
            failures: HashMap::new(),
        }
    }

    /// Records the result of a call to `tool` and says what to do next. A success
    /// resets the tool's count; a failure that spends the budget turns into
    /// [`Stop::AttemptsSpent`].
    pub fn record(&mut self, tool: &str, result: &Value) -> Next {
        let next = next_step(result);
        match next {
            Next::Done => {
                self.failures.remove(tool);
                next
            }
            Next::Stop { .. } => next,
            Next::FixArguments { .. } | Next::RetryLater { .. } => {
                let failures = self.failures.entry(tool.to_owned()).or_insert(0);
                *failures += 1;
                if *failures < self.budget {
                    return next;
                }
                Next::Stop {
                    reason: Stop::AttemptsSpent,
                    message: format!(
                        "The tool {tool} failed {} times in a row; the last error was: {}",
                        *failures,
                        text_of(result)
                    ),
                }
            }
        }
    }

    /// Failed attempts in a row so far for `tool`.
    pub fn failures(&self, tool: &str) -> u32 {
        self.failures.get(tool).copied().unwrap_or(0)
    }
}

/// The text blocks of a result, joined by new lines.
fn text_of(result: &Value) -> String {
    let blocks = result.get("content").and_then(Value::as_array);
    let texts: Vec<&str> = blocks
        .into_iter()
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    if texts.is_empty() {
        "(the tool gave no message)".to_owned()
    } else {
        texts.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(category: &str, text: &str) -> Value {
        json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": {"errorCategory": category, "isRetryable": category == "transient"},
            "isError": true
        })
    }

    #[test]
    fn success_and_absent_is_error_are_done() {
        assert_eq!(next_step(&json!({"content": []})), Next::Done);
        assert_eq!(
            next_step(&json!({"content": [], "isError": false})),
            Next::Done
        );
        // Not a result at all: nothing says it failed.
        assert_eq!(next_step(&json!(null)), Next::Done);
    }

    #[test]
    fn each_category_says_its_next_step() {
        assert_eq!(
            next_step(&error("validation", "fix the date")),
            Next::FixArguments {
                feedback: "fix the date".into()
            }
        );
        assert_eq!(
            next_step(&error("transient", "busy")),
            Next::RetryLater { after: None }
        );
        let Next::Stop { reason, message } = next_step(&error("business", "order is SHIPPED"))
        else {
            panic!("business must stop")
        };
        assert_eq!(reason, Stop::Business);
        assert!(message.contains("order is SHIPPED"));
        let Next::Stop { reason, .. } = next_step(&error("permission", "not yours")) else {
            panic!("permission must stop")
        };
        assert_eq!(reason, Stop::Permission);
    }

    #[test]
    fn a_failure_that_may_have_taken_effect_stops() {
        let mut result = error("transient", "book_flight failed with an internal error");
        result["structuredContent"]["isRetryable"] = json!(false);
        let Next::Stop { reason, message } = next_step(&result) else {
            panic!("a call that may have taken effect is not repeated blindly")
        };
        assert_eq!(reason, Stop::MayHaveTakenEffect);
        assert!(message.contains("check before trying again"));
    }

    #[test]
    fn retry_after_is_read() {
        let mut result = error("transient", "busy");
        result["structuredContent"]["retryAfterSeconds"] = json!(30);
        assert_eq!(
            next_step(&result),
            Next::RetryLater {
                after: Some(Duration::from_secs(30))
            }
        );
    }

    #[test]
    fn a_foreign_error_goes_back_to_the_model() {
        let foreign = json!({"content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}], "isError": true});
        assert_eq!(
            next_step(&foreign),
            Next::FixArguments {
                feedback: "a\nb".into()
            }
        );
        assert_eq!(
            next_step(&json!({"isError": true})),
            Next::FixArguments {
                feedback: "(the tool gave no message)".into()
            }
        );
    }

    #[test]
    fn the_budget_counts_failures_in_a_row_per_tool() {
        let mut attempts = Attempts::with_budget(2);
        let bad = error("validation", "bad");
        assert!(matches!(
            attempts.record("a", &bad),
            Next::FixArguments { .. }
        ));
        // Another tool has its own count.
        assert!(matches!(
            attempts.record("b", &bad),
            Next::FixArguments { .. }
        ));
        // A success resets the count.
        assert_eq!(attempts.record("a", &json!({"content": []})), Next::Done);
        assert_eq!(attempts.failures("a"), 0);
        assert!(matches!(
            attempts.record("a", &error("transient", "busy")),
            Next::RetryLater { .. }
        ));
        let Next::Stop { reason, message } = attempts.record("a", &bad) else {
            panic!("the budget is spent")
        };
        assert_eq!(reason, Stop::AttemptsSpent);
        assert_eq!(
            message,
            "The tool a failed 2 times in a row; the last error was: bad"
        );
        assert_eq!(attempts.failures("b"), 1);
    }

    #[test]
    fn business_and_permission_stop_at_once_whatever_the_budget() {
        let mut attempts = Attempts::with_budget(10);
        assert!(matches!(
            attempts.record("a", &error("permission", "no")),
            Next::Stop {
                reason: Stop::Permission,
                ..
            }
        ));
        assert_eq!(attempts.failures("a"), 0);
    }

    #[test]
    fn a_zero_budget_means_one_attempt() {
        let mut attempts = Attempts::with_budget(0);
        assert!(matches!(
            attempts.record("a", &error("validation", "bad")),
            Next::Stop {
                reason: Stop::AttemptsSpent,
                ..
            }
        ));
    }
}
