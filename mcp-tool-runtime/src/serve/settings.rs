//! What a server says once for all its tools, the same for a [`Toolbox`](crate::Toolbox)
//! and for an rmcp router served through [`structured`](crate::rmcp::structured), and
//! what every answer to a `tools/call` goes through last, by either road: the draft
//! failure object stamped where asked, and the operator's event (feature `tracing`).

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::context::Context;
use crate::describe::profile::SchemaProfile;
use crate::result::ErrorSorting;

/// The settings of a server's calls. Each builder method of `Toolbox` and of
/// `Structured` sets one field and documents it.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The profile the schemas are advertised in, unless the client says otherwise.
    pub profile: SchemaProfile,
    /// Whether a client that names itself (`clientInfo`) gets the profile it needs.
    pub profile_from_client: bool,
    /// Whether known client mistakes are repaired before the checks.
    pub repair: bool,
    /// Whether an error may show what came (short, never a sensitive value); else no
    /// value of a call is shown.
    pub echo_values: bool,
    /// Whether an unexpected error's chain is shown to the model.
    pub show_unexpected: bool,
    /// The sorts of well-known errors (`sort_errors`), tried on an unexpected error.
    pub sorting: Arc<ErrorSorting>,
    /// Whether an error result carries the draft `toolFailure` `_meta`.
    pub tool_failure: bool,
    /// The day, or the time zone, date rules are judged in; `None`: the system clock
    /// and zone, read on each call.
    pub context: Option<Context>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            profile: SchemaProfile::Portable,
            profile_from_client: false,
            repair: true,
            echo_values: true,
            show_unexpected: false,
            sorting: Arc::default(),
            tool_failure: false,
            context: None,
        }
    }
}

impl Settings {
    /// The profile of a client that calls itself `client`.
    pub fn profile_for(&self, client: Option<&str>) -> SchemaProfile {
        match client {
            Some(name) if self.profile_from_client => {
                SchemaProfile::for_client(name).unwrap_or(self.profile)
            }
            _ => self.profile,
        }
    }

    /// The last step of every answer that is a result: where no value is shown, an
    /// error's values taken out of its `structuredContent` (whoever made the error: a
    /// handler's own violations and `attempted_query` too); the draft failure object
    /// added to an error's `meta` where asked; then the operator's event.
    pub fn settle(
        &self,
        call: &Started,
        is_error: bool,
        mut structured: Option<&mut Value>,
        meta: &mut Option<Map<String, Value>>,
    ) {
        if is_error
            && !self.echo_values
            && let Some(structured) = structured.as_deref_mut()
        {
            crate::result::echo::withhold(structured);
        }
        let structured = structured.as_deref();
        if is_error && self.tool_failure {
            crate::result::tool_failure::stamp(meta, structured);
        }
        #[cfg(feature = "tracing")]
        super::observe::answered(
            &call.tool,
            call.at,
            is_error,
            structured,
            meta.as_ref(),
            &call.subject,
        );
        #[cfg(not(feature = "tracing"))]
        let _ = call;
    }
}

/// A `tools/call` under way, for its event: the tool as the client named it, the
/// verified caller's subject, and when it came (feature `tracing`; without it, nothing
/// is kept).
pub(crate) struct Started {
    #[cfg(feature = "tracing")]
    tool: String,
    #[cfg(feature = "tracing")]
    subject: String,
    #[cfg(feature = "tracing")]
    at: std::time::Instant,
}

impl Started {
    /// The call of `tool` by the caller `subject` (`None`: nobody verified one).
    pub fn now(_tool: &str, _subject: Option<&str>) -> Self {
        Started {
            #[cfg(feature = "tracing")]
            tool: _tool.to_owned(),
            #[cfg(feature = "tracing")]
            subject: _subject.unwrap_or_default().to_owned(),
            #[cfg(feature = "tracing")]
            at: std::time::Instant::now(),
        }
    }

    /// The event of a call answered with a JSON-RPC error of `kind`.
    pub fn rejected(&self, _kind: &str, _message: &str) {
        #[cfg(feature = "tracing")]
        super::observe::rejected(&self.tool, self.at, _kind, _message, &self.subject);
    }

    /// The event of a call that ends with questions for the user, by their keys.
    pub fn waiting<'k>(&self, _keys: impl Iterator<Item = &'k String>) {
        #[cfg(feature = "tracing")]
        {
            let keys: Vec<&str> = _keys.map(String::as_str).collect();
            super::observe::waiting(&self.tool, self.at, &keys.join(", "), &self.subject);
        }
    }
}
