//! An error a handler did not sort: what `?` makes of any error (an `anyhow::Error`,
//! `rusqlite::Error`, `std::io::Error`, a `String`). The model is told that the tool
//! failed and that repeating the call unchanged is not the way on; for a tool that may
//! have written, that it must check whether the call took effect first. What went wrong
//! (the error's chain, which may hold SQL or paths) goes to the server's log, and to
//! the model only if the author says so.

use std::error::Error;
use std::sync::Arc;

use super::{ErrorSorting, ToolError};
use crate::annotations::Annotations;
use crate::result::violation::ErrorCategory;

/// What the log, and no model unless its author says so, learns of an unexpected error.
#[derive(Debug, Clone)]
pub(super) struct Unexpected {
    /// The Rust type of the error: OpenTelemetry's `error.type`, for the operator's log.
    #[cfg(feature = "tracing")]
    type_name: &'static str,
    /// The error, then each of its sources, joined by ": ".
    chain: String,
    /// The author asked for the chain to be shown to the model.
    cause_shown: bool,
    /// The error itself, for the server's sorts (`Toolbox::sort_errors`) to look at.
    error: Arc<dyn Error + Send + Sync>,
}

impl ToolError {
    /// An error the handler did not sort into a category: what `?` makes of any
    /// error. The model is told that the tool failed with an unexpected error, never
    /// to repeat the same call (`isRetryable` is false); for a tool that is neither
    /// read-only nor idempotent, that it may have taken effect and must be checked
    /// first. The error's chain goes to the server's log as a `tracing` event (feature
    /// `tracing`; without it the library writes nothing), and to the model only after
    /// [`ToolError::with_cause_shown`] (or `Toolbox::show_unexpected_errors`).
    ///
    /// ```
    /// use mcp_tool::{ErrorCategory, ToolError};
    ///
    /// fn load(id: &str) -> Result<String, std::io::Error> {
    ///     Err(std::io::Error::other(format!("SELECT * FROM entities WHERE id = '{id}': no such table")))
    /// }
    ///
    /// fn handler(id: &str) -> Result<String, ToolError> {
    ///     Ok(load(id)?) // any error, sorted by nobody
    /// }
    ///
    /// let error = handler("e-1").unwrap_err();
    /// assert!(error.is_unexpected());
    /// assert!(!error.is_retryable());
    /// assert!(!error.text().contains("SELECT")); // the internals stay in the log
    /// ```
    pub fn unexpected<E>(error: E) -> Self
    where
        E: Into<Box<dyn Error + Send + Sync + 'static>>,
    {
        let boxed = error.into();
        // A question the user did not answer says what it is.
        let boxed = match boxed.downcast::<crate::result::Unanswered>() {
            Ok(unanswered) => return (*unanswered).into_tool_error(),
            Err(other) => other,
        };
        let mut chain = boxed.to_string();
        let mut source = boxed.source();
        while let Some(cause) = source {
            chain.push_str(": ");
            chain.push_str(&cause.to_string());
            source = cause.source();
        }
        let mut err = ToolError::new(
            ErrorCategory::Transient,
            "The tool failed with an unexpected error.",
        );
        err.inner.unexpected = Some(Box::new(Unexpected {
            #[cfg(feature = "tracing")]
            type_name: std::any::type_name::<E>(),
            chain,
            cause_shown: false,
            error: Arc::from(boxed),
        }));
        err
    }

    /// Whether this is an error the handler did not sort (see [`ToolError::unexpected`]).
    pub fn is_unexpected(&self) -> bool {
        self.inner.unexpected.is_some()
    }

    /// Shows the model what went wrong in an unexpected error (its chain of messages),
    /// which is otherwise in the server's log only. For errors whose text is safe for
    /// the model to read and helps it: no SQL, paths or secrets.
    pub fn with_cause_shown(mut self) -> Self {
        if let Some(unexpected) = &mut self.inner.unexpected {
            unexpected.cause_shown = true;
        }
        self
    }

    /// The error as the call of `tool` answers it: an unexpected error is sorted by
    /// the server's `sorting` if one of its sorts takes it, else written for that tool
    /// (whether it may have taken effect follows from its `annotations`) and logged;
    /// any other is as it was.
    pub(crate) fn sorted_for(
        mut self,
        tool: &str,
        annotations: Annotations,
        show: bool,
        sorting: &ErrorSorting,
    ) -> Self {
        let Some(unexpected) = self.inner.unexpected.as_deref() else {
            return self;
        };
        let safe_to_repeat =
            annotations.read_only_hint == Some(true) || annotations.idempotent_hint == Some(true);
        if let Some(sorted) = sorting.sort(&*unexpected.error) {
            return self.sorted_as(sorted, safe_to_repeat);
        }
        log(tool, unexpected);
        let mut message =
            format!("{tool} failed with an unexpected error; the server logged what went wrong.");
        if show || unexpected.cause_shown {
            message.push_str(" The error: ");
            message.push_str(&unexpected.chain);
            message.push('.');
        }
        self.inner.message = message;
        let hint = if safe_to_repeat {
            "Do not make the same call again: it is likely to fail the same way. Tell the user that this tool failed, or try another way."
        } else {
            self.inner.may_have_taken_effect = true;
            "Do not make the same call again before checking whether it took effect; tell the user that this tool failed."
        };
        if self.inner.hint.is_none() {
            self.inner.hint = Some(hint.to_owned());
        }
        self
    }
}

impl ToolError {
    /// This unexpected error as the server's sort made it: its category, message, hint
    /// and the rest are the sort's; the call it answers (the tool, the arguments as
    /// shown, the repairs) stays. A sort does not know the tool: a transient error of a
    /// tool that may write (neither read-only nor idempotent) may have taken effect,
    /// as an unexpected one may, so the identical call is not offered as safe.
    fn sorted_as(mut self, sorted: ToolError, safe_to_repeat: bool) -> Self {
        let sorted = *sorted.inner;
        let inner = &mut *self.inner;
        inner.category = sorted.category;
        inner.message = sorted.message;
        inner.hint = sorted.hint;
        inner.partial_results = sorted.partial_results;
        inner.retry_after = sorted.retry_after;
        inner.may_have_taken_effect = sorted.may_have_taken_effect
            || (sorted.category == ErrorCategory::Transient && !safe_to_repeat);
        if !sorted.violations.is_empty() {
            inner.violations = sorted.violations;
            inner.fields = sorted.fields;
            inner.omitted = sorted.omitted;
        }
        inner.unexpected = None;
        self
    }
}

/// Every error converts into a `ToolError` with `?`: an unexpected one (see
/// [`ToolError::unexpected`]), unless it is an [`Unanswered`](crate::Unanswered)
/// question. Sort the errors you know into their categories
/// (`.map_err(|e| ToolError::business(...))`) before that.
impl<E> From<E> for ToolError
where
    E: Into<Box<dyn Error + Send + Sync + 'static>>,
{
    fn from(error: E) -> Self {
        ToolError::unexpected(error)
    }
}

/// Writes an unexpected error to the operator's log (feature `tracing`; without it
/// nothing is written: a library does not print), with OpenTelemetry's `error.type`
/// (the error's Rust type) and its chain as `exception.message`.
fn log(tool: &str, unexpected: &Unexpected) {
    #[cfg(feature = "tracing")]
    tracing::error!(
        target: "mcp_tool",
        tool,
        error.type = unexpected.type_name,
        exception.type = unexpected.type_name,
        exception.message = unexpected.chain.as_str(),
        "tool handler failed with an unexpected error",
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (tool, unexpected);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("loading the graph")
        }
    }

    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    fn failing() -> Result<(), ToolError> {
        Err(Outer(std::io::Error::other(
            "UPDATE entities SET x = 1: disk I/O error",
        )))?;
        Ok(())
    }

    #[test]
    fn an_unsorted_error_never_invites_an_unchanged_retry() {
        let destructive = Annotations {
            destructive_hint: Some(true),
            ..Annotations::NONE
        };
        let error = failing().unwrap_err().sorted_for(
            "delete_entity",
            destructive,
            false,
            ErrorSorting::NONE,
        );
        assert!(error.is_unexpected());
        assert!(!error.is_retryable());
        let text = error.text();
        assert!(
            text.starts_with("delete_entity failed with an unexpected error"),
            "{text}"
        );
        assert!(
            text.contains("check whether it did before calling it again"),
            "{text}"
        );
        assert!(
            !text.contains("UPDATE") && !text.contains("may succeed"),
            "{text}"
        );
        assert_eq!(error.structured_content()["isRetryable"], false);

        let read_only = Annotations {
            read_only_hint: Some(true),
            ..Annotations::NONE
        };
        let error =
            failing()
                .unwrap_err()
                .sorted_for("read_graph", read_only, false, ErrorSorting::NONE);
        assert!(!error.text().contains("took effect"), "{}", error.text());
        assert!(error.text().contains("Do not make the same call again"));
    }

    #[test]
    fn the_chain_reaches_the_model_only_when_the_author_says_so() {
        let shown = failing().unwrap_err().with_cause_shown().sorted_for(
            "t",
            Annotations::NONE,
            false,
            ErrorSorting::NONE,
        );
        assert!(
            shown
                .message()
                .contains("loading the graph: UPDATE entities SET x = 1: disk I/O error"),
            "{}",
            shown.message()
        );
        let by_toolbox =
            failing()
                .unwrap_err()
                .sorted_for("t", Annotations::NONE, true, ErrorSorting::NONE);
        assert!(by_toolbox.message().contains("disk I/O error"));
    }

    #[test]
    fn strings_and_sorted_errors_convert_as_what_they_are() {
        let from_text: ToolError = "no such entity".into();
        assert!(from_text.is_unexpected());
        let sorted =
            ToolError::business("x").sorted_for("t", Annotations::NONE, true, ErrorSorting::NONE);
        assert!(!sorted.is_unexpected());
        assert_eq!(sorted.message(), "x");
    }
}
