//! What a server says once for all its calls: the [`Toolbox`]'s setters. Each is also
//! `structured(..)`'s, by the same name, where the setting is one both have
//! (`Settings`); `tasks` and the sealing of rounds are the Toolbox's alone.

use std::sync::Arc;
#[cfg(any(feature = "ask", feature = "rmcp"))]
use std::time::Duration;

use super::Toolbox;
#[cfg(feature = "ask")]
use crate::ask::{StateKey, UsedStates};
use crate::context::Context;
use crate::describe::profile::SchemaProfile;
use crate::result::ToolError;

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Judges date rules in `context` instead of the system clock on each call: a fixed
    /// day for tests and demos, or the users' time zone.
    pub fn in_context(mut self, context: Context) -> Self {
        self.settings.context = Some(context);
        self
    }

    /// Advertises every schema in `profile`'s form (see [`SchemaProfile`]); the checks
    /// stay the same, and with [`SchemaProfile::OpenAi`] a `null` for an optional
    /// property reads as "left out", as its schema says.
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.settings.profile = profile;
        self
    }

    /// Whether known client mistakes are repaired before the checks (the default:
    /// `true`). Clients send values that admit exactly one reading, and send them again
    /// the same way whatever the model is told:
    ///
    /// - an array or object as a string holding its JSON (`"[\"a\", \"b\"]"`);
    /// - a number or boolean as a string that is exactly its JSON (`"10"`, `"true"`;
    ///   `" 10"`, `"2.5"` for an integer, or `"yes"` are not read);
    /// - a name in another case style than the tool's (`departureDate` for
    ///   `departure_date`), when exactly one field has that name folded and it was not
    ///   also sent by its own name or a former one;
    /// - an allowed value in another letter case (`"paid"` for `"PAID"`), when exactly
    ///   one allowed value matches.
    ///
    /// A field's former name (a serde `alias`) is read whatever this says, as serde and
    /// [`McpTool::from_arguments`](crate::McpTool::from_arguments) read it: it is its author's, not a guess; the answer
    /// says it as it says a repair.
    ///
    /// The repaired value is checked and used, and each repair is said in the result's
    /// `_meta` under `"mcp-tool/repairs"` (its path and what was done, naming what to
    /// send), so the model learns the contract from a call that worked. A repair runs
    /// for a destructive tool too: each has one reading only, and a tool that needs a
    /// person's yes asks for it as it would for any call.
    ///
    /// ```
    /// use mcp_tool::{McpTool, ToolError, Toolbox};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Tag a post.
    /// #[derive(McpTool, Deserialize)]
    /// struct Tag {
    ///     tags: Vec<String>,
    /// }
    ///
    /// async fn tag(args: Tag) -> Result<serde_json::Value, ToolError> {
    ///     Ok(json!({ "count": args.tags.len() }))
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let tools = Toolbox::new().tool(tag);
    /// let result = tools.call("tag", json!({"tags": "[\"a\", \"b\"]"})).await.unwrap();
    /// assert!(!result.is_error);
    /// assert_eq!(result.structured_content.unwrap()["count"], 2);
    /// assert_eq!(
    ///     result.meta.unwrap()["mcp-tool/repairs"][0],
    ///     json!({"path": "/tags", "repair": "parsed the JSON array sent as a string"})
    /// );
    ///
    /// let strict = Toolbox::new().repairs(false).tool(tag);
    /// let result = strict.call("tag", json!({"tags": "[\"a\"]"})).await.unwrap();
    /// assert!(result.is_error);
    /// # });
    /// ```
    pub fn repairs(mut self, on: bool) -> Self {
        self.settings.repair = on;
        self
    }

    /// Whether an error may show what the call sent (the default: `true`). A server that
    /// handles health or payment data may not send a rejected value back into the
    /// model's context, nor into the transcripts and logs that keep it: with `false`,
    /// no value of a call is shown in any error result, as a field marked `sensitive`
    /// never is. Each violation still names the field (`path`, in the names the client
    /// sent) and the rule, with what the rule expects; then:
    ///
    /// - no violation has a `received`, and its message says only the JSON type of what
    ///   came (`got a string (not shown).`): a type says nothing of the content, and is
    ///   what there is to fix in a type error;
    /// - nothing derived from a value is said: no "did you mean" for a value outside a
    ///   list (the list is said), no count of a string's characters, and a repair names
    ///   no value (`read as the allowed value this was in another letter case`). An
    ///   unknown argument's name is a name, not a value: it is in the path, and the
    ///   nearest argument's name is suggested;
    /// - words made at run time from a value are not shown: a custom rule's message
    ///   built as a `String` (one written as a `&'static str` is shown; so are the
    ///   rule's `description`, `message` and `hint`), the refusal of a `try_from` or
    ///   `deserialize_with`, serde's own error, and the confirmation message of a tool
    ///   the client cannot ask its user to confirm;
    /// - `attempted_query.arguments` is `"[redacted]"`, whoever made the error (the
    ///   checks, a handler, a panic), and a handler's own
    ///   [`Violation::with_received`](crate::Violation::with_received) is left out.
    ///
    /// A handler's own messages are its author's to keep free of values. Without the
    /// feature `tracing` nothing is logged; with it, the call's event never holds a
    /// value either way.
    ///
    /// ```
    /// use mcp_tool::{McpTool, ToolError, Toolbox};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Record a blood pressure reading.
    /// #[derive(McpTool, Deserialize)]
    /// struct Record {
    ///     #[validate(regex = r"^P-[0-9]{6}$")]
    ///     patient: String,
    ///     #[validate(range(min = 40, max = 250))]
    ///     systolic: u16,
    /// }
    ///
    /// async fn record(_: Record) -> Result<&'static str, ToolError> {
    ///     Ok("recorded")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let tools = Toolbox::new().echo_values(false).tool(record);
    /// let result = tools
    ///     .call("record", json!({"patient": "Jane Doe", "systolic": 999}))
    ///     .await
    ///     .unwrap()
    ///     .to_value();
    /// let text = result.to_string();
    /// assert!(!text.contains("Jane Doe") && !text.contains("999"), "{text}");
    /// let error = &result["structuredContent"];
    /// assert_eq!(error["violations"][0]["path"], "/patient");
    /// assert_eq!(error["violations"][0]["rule"], "regex");
    /// assert_eq!(error["violations"][1]["rule"], "range");
    /// assert_eq!(error["attempted_query"]["arguments"], "[redacted]");
    /// # });
    /// ```
    pub fn echo_values(mut self, on: bool) -> Self {
        self.settings.echo_values = on;
        self
    }

    /// Whether the model reads what went wrong in an error a handler did not sort
    /// (what `?` makes of any error; see [`ToolError::unexpected`]): its chain of
    /// messages, which may hold SQL, paths or other internals. The default, `false`,
    /// keeps them in the server's log; a single error can be shown with
    /// [`ToolError::with_cause_shown`].
    pub fn show_unexpected_errors(mut self, on: bool) -> Self {
        self.settings.show_unexpected = on;
        self
    }

    /// Sorts the errors of type `E` once for the whole server: wherever a handler's `?`
    /// returns one unsorted (an unexpected error, see [`ToolError::unexpected`]), or
    /// one holds it as a source (an SDK's error wrapped in the author's context),
    /// `sort` makes the error the model reads of it: its category and a summary that is
    /// safe to show, never the error's own text unless the sort puts it there. `None`
    /// leaves it to the next sort, then unexpected. Sorts are tried in the order
    /// given, each on the error, then on each of its sources.
    ///
    /// A sort does not know the tool: a transient error of a tool that is neither
    /// read-only nor idempotent may have taken effect, so the model is told to check
    /// before calling again (`isRetryable` false), as for an unexpected error.
    ///
    /// ```
    /// use mcp_tool::{ErrorCategory, McpTool, ToolError, Toolbox};
    /// use serde::Deserialize;
    ///
    /// /// The errors of a storage SDK.
    /// #[derive(Debug)]
    /// enum StoreError {
    ///     Throttled { account: u64 },
    ///     NoSuchKey(String),
    ///     AccessDenied,
    ///     Corrupt,
    /// }
    /// # impl std::fmt::Display for StoreError {
    /// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    /// #         write!(f, "{self:?}")
    /// #     }
    /// # }
    /// impl std::error::Error for StoreError {}
    ///
    /// /// Read an object.
    /// #[derive(McpTool, Deserialize)]
    /// #[mcp_tool(read_only)]
    /// struct GetObject {
    ///     key: String,
    /// }
    ///
    /// async fn get_object(args: GetObject) -> Result<String, ToolError> {
    ///     Err(StoreError::Throttled { account: 1234 })?
    /// }
    ///
    /// let tools = Toolbox::new()
    ///     .sort_errors(|e: &StoreError| match e {
    ///         StoreError::Throttled { .. } => Some(
    ///             ToolError::transient("The store is busy.")
    ///                 .retry_after(std::time::Duration::from_secs(2)),
    ///         ),
    ///         StoreError::NoSuchKey(_) => Some(ToolError::business("No object has this key.")),
    ///         StoreError::AccessDenied => {
    ///             Some(ToolError::permission("This server may not read that bucket."))
    ///         }
    ///         StoreError::Corrupt => None, // unexpected: logged, never shown
    ///     })
    ///     .tool(get_object);
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let result = tools.call("get_object", serde_json::json!({"key": "a"})).await.unwrap();
    /// let content = result.structured_content.unwrap();
    /// assert_eq!(content["errorCategory"], "transient");
    /// assert_eq!(content["isRetryable"], true);
    /// assert!(!content["message"].as_str().unwrap().contains("1234"));
    /// # });
    /// ```
    pub fn sort_errors<E, F>(mut self, sort: F) -> Self
    where
        E: std::error::Error + 'static,
        F: Fn(&E) -> Option<ToolError> + Send + Sync + 'static,
    {
        Arc::make_mut(&mut self.settings.sorting).add(sort);
        self
    }

    /// Whether an error result also carries the draft standard's failure object,
    /// `_meta["io.modelcontextprotocol/toolFailure"]` (SEP-3313, a draft: the default
    /// is `false`): `class` (`capability`, `reliability` or `governance`), `code`,
    /// `retryable`, `retryNotBefore` (an RFC 3339 time, from a transient error's
    /// [`retry_after`](ToolError::retry_after)), `correlationId` (also in the call's
    /// `tracing` event, as `correlation_id`) and `agentGuidance`. The categories map as
    /// the README's table says; nothing else of the result changes.
    ///
    /// ```
    /// use mcp_tool::{McpTool, ToolError, Toolbox, TOOL_FAILURE_KEY};
    /// use serde::Deserialize;
    /// use serde_json::json;
    ///
    /// /// Track a parcel.
    /// #[derive(McpTool, Deserialize)]
    /// struct Track {
    ///     #[validate(regex = r"^[A-Z]{2}[0-9]{9}$")]
    ///     parcel: String,
    /// }
    ///
    /// async fn track(_: Track) -> Result<String, ToolError> {
    ///     Err(ToolError::transient("The carrier does not answer.")
    ///         .retry_after(std::time::Duration::from_secs(30)))
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let tools = Toolbox::new().tool_failure_meta(true).tool(track);
    /// let result = tools.call("track", json!({"parcel": "RP123456789"})).await.unwrap();
    /// let failure = &result.meta.as_ref().unwrap()[TOOL_FAILURE_KEY];
    /// assert_eq!(failure["class"], "reliability");
    /// assert_eq!(failure["retryable"], true);
    /// assert!(failure["retryNotBefore"].as_str().unwrap().ends_with('Z'));
    ///
    /// let result = tools.call("track", json!({"parcel": "42"})).await.unwrap();
    /// let failure = &result.meta.as_ref().unwrap()[TOOL_FAILURE_KEY];
    /// assert_eq!((&failure["class"], &failure["code"]), (&json!("capability"), &json!("invalid_arguments")));
    /// # });
    /// ```
    pub fn tool_failure_meta(mut self, on: bool) -> Self {
        self.settings.tool_failure = on;
        self
    }

    /// The key that seals the `requestState` of calls waiting for the user's answer
    /// (protocol 2026-07-28; see [`crate::ask`]). Without one, a random key is made for
    /// this process: calls resume only here, and not after a restart. Give every
    /// replica the same key, from its configuration, so that any replica resumes a call
    /// another began.
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn state_key(mut self, key: StateKey) -> Self {
        Arc::make_mut(&mut self.sealing).key = Some(key);
        self
    }

    /// How long the user has to answer, from the question (the default: 10 minutes).
    /// A later answer is refused, and the model is told to call again.
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn state_lifetime(mut self, lifetime: Duration) -> Self {
        Arc::make_mut(&mut self.sealing).lifetime = lifetime;
        self
    }

    /// How long a question to the user may wait for the answer.
    #[cfg(feature = "rmcp")]
    pub(crate) fn answer_within(&self) -> Duration {
        self.sealing.lifetime
    }

    /// Where the states already used are remembered, so that none is used twice (the
    /// default: this process's memory; see [`UsedStates`]).
    #[cfg(feature = "ask")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
    pub fn used_states(mut self, used: impl UsedStates) -> Self {
        Arc::make_mut(&mut self.sealing).used = Arc::new(used);
        self
    }

    /// Where and how long the calls that become tasks are kept (the tasks extension:
    /// a tool with `#[mcp_tool(task_support = "optional")]` or `"required"`, called by
    /// a client that declared `io.modelcontextprotocol/tasks`). By default, in this
    /// process's memory within [`TaskLimits::default`](crate::tasks::TaskLimits).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_tool::Toolbox;
    /// use mcp_tool::tasks::{MemoryTasks, TaskLimits, Tasks};
    ///
    /// let limits = TaskLimits::default().ttl(Duration::from_secs(600)).per_caller(8);
    /// let tools = Toolbox::new().tasks(Tasks::new(MemoryTasks::new(), limits));
    /// # let _ = tools;
    /// ```
    #[cfg(feature = "rmcp")]
    pub fn tasks(mut self, tasks: crate::serve::tasks::Tasks) -> Self {
        self.tasks = Arc::new(tasks);
        self
    }

    /// Whether a tool supports tasks, so that the server serves them.
    #[cfg(feature = "rmcp")]
    pub(crate) fn serves_tasks(&self) -> bool {
        self.task_support.iter().any(|t| t.allows_tasks())
    }

    /// The tool `name`'s support of tasks (`None`: no such tool).
    #[cfg(feature = "rmcp")]
    pub(crate) fn task_support_of(&self, name: &str) -> Option<crate::task_support::TaskSupport> {
        self.index.get(name).map(|&i| self.task_support[i])
    }

    /// Served over rmcp, gives a client that names a family in its `clientInfo` the
    /// profile that family needs ([`SchemaProfile::for_client`]); other clients get the
    /// toolbox's profile.
    pub fn schema_profile_from_client(mut self) -> Self {
        self.settings.profile_from_client = true;
        self
    }
}
