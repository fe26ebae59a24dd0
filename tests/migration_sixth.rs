//! A sixth set of real servers (issue 59): argument types of public Rust MCP servers
//! nobody here had tried, found by searching public code for `Parameters<...>` and
//! `schemars::JsonSchema` (a search console, an online judge, a genealogy database, a
//! trace analyzer, a blog, a debugger, Hyper-V, a workflow engine, a remote file relay, a
//! coding agent's sessions, multi-checkout workspaces, a randomness tool, a Kaggle
//! client). Each shape is written here in our own words (names, descriptions and code
//! ours), twice from one text: as the server had it (`before`: schemars' derive) and
//! swapped (this crate's derive, nothing else changed). Each compiles, advertises a schema
//! the independent judge compiles that says every constraint schemars said, as strict or
//! stricter, and reads a typical call the server took.
//!
//! The tally: every tool of thirteen servers that takes arguments, its argument type
//! tried with the derive swapped (written out in full in a local trial, not kept: the
//! servers' code is theirs), held to compile, to keep every constraint, required name
//! and refused `null` its schemars schema said, to read a call built from that schema,
//! and to agree with the judge on each property sent wrong or left out:
//!
//! | server | tools | came in |
//! |---|---|---|
//! | search console | 18 | 18 |
//! | online judge | 4 | 4 |
//! | competition client | 2 | 2 |
//! | genealogy database | 36 | 36 (34 before `#[schemars(required)]` on an `Option` lost its "no `null`") |
//! | trace analyzer | 12 | 12 |
//! | personal blog | 5 | 5 |
//! | debugger | 3 | 3 |
//! | hypervisor | 231 | 231 |
//! | workflow engine | 3 | 3 |
//! | coding agent's sessions | 3 | 3 |
//! | multi-checkout workspaces | 3 | 3 |
//! | source of randomness | 1 | 1 |
//! | remote file relay | 13 (by argument type) | 13 |
//! | all | 335 | 335 (104 of 104 without the hypervisor's uniform 231) |
//!
//! Two more servers found were not counted: an SSH server whose derived types are not
//! its tools' schemas (those are written as JSON), and an Android bridge built on
//! another SDK, whose `JsonSchema` derive is that SDK's own, not schemars'.
//!
//! Over every set tried: 160 of the 169 tools of the earlier sets came in when issue 59
//! was filed; since then the six `#[schemars(transparent)]` newtypes, the enum read in
//! any case and the `extend` on an enum came in (each held in
//! `tests/migration_shapes.rs`), so 168 of 169 (the fifth set 34 of 34), and with this
//! set 503 of 504 (99.8%). The one left is the item whose own `Deserialize` fills a
//! missing `value` from its `label`: it takes `#[mcp_tool(lenient)]` on its field, since
//! the derive cannot see whose `Deserialize` that is.
#![allow(dead_code)] // the fields exist for the derives to read

#[path = "support/judge.rs"]
mod judge;
#[path = "support/nothing_lost.rs"]
mod nothing_lost;

use mcp_tool::McpTool;
use nothing_lost::held;
use serde::Deserialize;
use serde_json::{Value, json};

/// Each type written twice from one text: in `before`, as the server had it (schemars'
/// derive), and here with this crate's derive (named first) in its place; the types
/// listed first are `before`'s own, written apart.
macro_rules! before_and_after {
    ([$($shared:path),*] $($derive:ident $(#[$m:meta])* $kind:ident $name:ident { $($body:tt)* })*) => {
        mod before {
            use super::*;
            $(pub use $shared;)*
            $(
                #[derive(Debug, Deserialize, schemars::JsonSchema)]
                $(#[$m])*
                pub $kind $name { $($body)* }
            )*
        }
        $(
            #[derive(Debug, Deserialize, mcp_tool::$derive)]
            $(#[$m])*
            pub $kind $name { $($body)* }
        )*
    };
}

/// A reading that takes a number or a string of one, as a trace analyzer's fields do.
fn number_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::Number(n) => Ok(n.as_f64()),
        Value::String(s) => s.parse().map(Some).map_err(serde::de::Error::custom),
        other => Err(serde::de::Error::custom(format!("a number, not {other}"))),
    }
}

fn first_page() -> i32 {
    1
}

fn newest() -> String {
    "newest".into()
}

fn any_object(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object"})
}

before_and_after! {
    // As the server had it, `before` holds the kind of record its own way.
    [super::before_kind::RecordKind]

    // Server 1, a search console: a filter nested in an optional list, a field named
    // with a raw identifier, types visible to the crate only.
    Argument
    /// One condition on a dimension.
    struct RowFilter {
        dimension: String,
        operator: String,
        expression: String,
    }

    McpTool
    /// Query a property's search traffic.
    struct QueryTraffic {
        #[schemars(description = "The property: a URL prefix or a domain property.")]
        pub(crate) site: String,
        #[schemars(description = "First day, YYYY-MM-DD; or use `days`.")]
        pub(crate) from: Option<String>,
        #[schemars(description = "Days to look back. Default: 28.")]
        pub(crate) days: Option<u32>,
        pub(crate) dimensions: Option<Vec<String>>,
        #[schemars(description = "Conditions, all of which hold.")]
        pub(crate) filters: Option<Vec<RowFilter>>,
        #[schemars(description = "Most click-through rate, as a fraction.")]
        pub(crate) max_ctr: Option<f64>,
    }

    McpTool
    /// Ask for a page to be crawled again.
    struct RequestCrawl {
        #[schemars(description = "The page.")]
        url: String,
        #[schemars(description = "What changed: URL_UPDATED or URL_DELETED.")]
        r#type: Option<String>,
    }

    // Server 2, an online judge: an enum of sites with a default variant (derived
    // `Default`), lowercase, optional and defaulted.
    McpEnum
    #[derive(Default, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Site {
        #[default]
        Global,
        China,
    }

    McpTool
    /// The problem of the day.
    struct DailyProblem {
        #[serde(default)]
        #[schemars(description = "Which site: 'global' (the default) or 'china'.")]
        site: Option<Site>,
        #[serde(default)]
        #[schemars(description = "A day, YYYY-MM-DD; today if none.")]
        day: Option<String>,
    }

    // Server 3, a genealogy database: a record kind required though its type is an
    // `Option` (`#[schemars(required)]`), a date as three integers, a whole record as
    // any object (`schema_with`).
    McpTool
    /// Read records.
    struct GetRecord {
        /// The kind of record.
        #[schemars(required)]
        kind: Option<RecordKind>,
        /// One record by its handle.
        handle: Option<String>,
        /// Page, from 1.
        page: Option<u32>,
    }

    McpTool
    /// Add an event.
    struct AddEvent {
        event_type: String,
        /// Day, month, year; 0 where unknown.
        date: Option<[i32; 3]>,
        place_handle: Option<String>,
    }

    McpTool
    /// Replace a record with a new body.
    struct ReplaceRecord {
        handle: String,
        /// The whole record, as read.
        #[schemars(schema_with = "any_object")]
        body: Value,
    }

    // Server 4, a trace analyzer: every tool closed to unknown names, a former name
    // kept as an alias, numbers read from strings too by the server's own function,
    // tools with no arguments.
    McpTool
    #[serde(deny_unknown_fields)]
    /// Open a trace file.
    struct OpenTrace {
        /// The trace's path.
        #[serde(alias = "trace_path")]
        path: String,
    }

    McpTool
    #[serde(deny_unknown_fields)]
    /// List the processes of the trace.
    struct ListProcesses {}

    McpTool
    #[serde(deny_unknown_fields)]
    /// The longest tasks of main threads.
    struct Hotspots {
        /// Only tasks at least this long, in milliseconds; a number or its text.
        #[serde(default, deserialize_with = "number_or_text")]
        min_ms: Option<f64>,
        #[serde(default)]
        process: Option<String>,
    }

    // Server 5, a data-science competition client: defaults from functions, described.
    McpTool
    /// List competitions.
    struct ListCompetitions {
        #[schemars(description = "Words to search for.")]
        #[serde(default)]
        search: String,
        #[schemars(description = "Order: newest, prize or deadline.")]
        #[serde(default = "newest")]
        order: String,
        #[schemars(description = "Page of results.")]
        #[serde(default = "first_page")]
        page: i32,
    }

    // Server 6, a hypervisor: PowerShell's parameter names as camelCase renames, with
    // defaults, on optional fields, flags and counts.
    McpTool
    /// Make a checkpoint of a virtual machine.
    struct CheckpointMachine {
        /// The machine.
        name: Option<String>,
        /// The checkpoint's name.
        #[serde(default, rename = "snapshotName")]
        snapshot_name: Option<String>,
        /// The host; this one if none.
        #[serde(default, rename = "computerName")]
        computer_name: Option<String>,
        #[serde(default, rename = "startupBytes")]
        startup_bytes: u64,
        #[serde(default)]
        passthru: bool,
    }

    // Server 7, a source of randomness: validator's rule beside schemars'.
    McpTool
    #[derive(validator::Validate)]
    /// Draw random values.
    struct Draw {
        kind: String,
        min: Option<f64>,
        max: Option<f64>,
        choices: Option<Vec<String>>,
        #[validate(range(min = 1, max = 1000))]
        count: Option<u32>,
    }

    // Server 8, a debugger: private fields with docs, counts of seconds and a process
    // id, an enum of sections in snake case.
    McpEnum
    #[derive(Clone, Copy, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Section {
        Command,
        MetaCommand,
    }

    McpTool
    /// Start a debugging session.
    struct OpenSession {
        /// launch, attach or kernel.
        mode: String,
        /// For attach: the process id.
        pid: Option<u32>,
        /// Seconds to wait for the attach.
        attach_timeout_secs: Option<u64>,
        /// Which part of the reference to search.
        section: Option<Section>,
    }

    // Server 9, a remote file relay: an execution id, lines from the head or the tail.
    McpTool
    /// The result of a command started earlier.
    struct CommandResult {
        execution_id: u64,
        #[serde(default)]
        head: Option<usize>,
        #[serde(default)]
        tail: Option<usize>,
    }
}

/// The kind of a record, read by the server's own `Deserialize`: the names alone, and a
/// `null` told that the kind is required. As the server had it, schemars derived its
/// schema from the same `rename_all`; swapped, `McpEnum` reads it.
macro_rules! record_kind {
    ($derive:path) => {
        #[derive(Debug, Clone, Copy, PartialEq, $derive)]
        #[serde(rename_all = "lowercase")]
        pub enum RecordKind {
            Person,
            Family,
            Event,
        }

        impl<'de> Deserialize<'de> for RecordKind {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                match Option::<String>::deserialize(d)?.as_deref() {
                    Some("person") => Ok(RecordKind::Person),
                    Some("family") => Ok(RecordKind::Family),
                    Some("event") => Ok(RecordKind::Event),
                    Some(other) => Err(serde::de::Error::custom(format!(
                        "{other:?} is not a kind: person, family or event"
                    ))),
                    None => Err(serde::de::Error::custom("the kind is required")),
                }
            }
        }
    };
}

mod before_kind {
    use super::*;
    record_kind!(schemars::JsonSchema);
}

record_kind!(mcp_tool::McpEnum);

/// The swapped schema compiles under the independent judge and accepts `valid`, which
/// the runtime reads, as the server's own reading did.
fn holds<Before: serde::de::DeserializeOwned, T: McpTool + std::fmt::Debug>(valid: Value) -> T {
    serde_json::from_value::<Before>(valid.clone())
        .unwrap_or_else(|e| panic!("the server refused {valid}: {e}"));
    assert!(
        judge::judge::<T>().is_valid(&valid),
        "{} rejects {valid}",
        T::NAME
    );
    T::from_arguments(valid.clone()).unwrap_or_else(|e| panic!("{}: {}", T::NAME, e.text()))
}

/// The one violation of `args`: its path and rule.
fn refused<T: McpTool + std::fmt::Debug>(args: Value) -> (String, String) {
    let err = T::from_arguments(args).unwrap_err();
    let v = err.violations();
    assert_eq!(v.len(), 1, "{}", err.text());
    (v[0].path.clone(), v[0].rule.to_string())
}

#[test]
fn each_tool_of_the_sixth_set_comes_in_by_swapping_derives() {
    holds::<before::QueryTraffic, QueryTraffic>(json!({
        "site": "sc-domain:example.com", "days": 7, "dimensions": ["query", "page"],
        "filters": [{"dimension": "country", "operator": "equals", "expression": "fin"}],
        "max_ctr": 0.03,
    }));
    let crawl = holds::<before::RequestCrawl, RequestCrawl>(
        json!({"url": "https://example.com/a", "type": "URL_UPDATED"}),
    );
    assert_eq!(crawl.r#type.as_deref(), Some("URL_UPDATED"));
    let daily = holds::<before::DailyProblem, DailyProblem>(json!({"site": "china"}));
    assert_eq!(daily.site, Some(Site::China));
    holds::<before::DailyProblem, DailyProblem>(json!({}));
    let record = holds::<before::GetRecord, GetRecord>(json!({"kind": "family", "page": 2}));
    assert_eq!(record.kind, Some(RecordKind::Family));
    holds::<before::AddEvent, AddEvent>(json!({"event_type": "Birth", "date": [7, 11, 1867]}));
    holds::<before::ReplaceRecord, ReplaceRecord>(
        json!({"handle": "h1", "body": {"gramps_id": "I0001"}}),
    );
    holds::<before::OpenTrace, OpenTrace>(json!({"path": "/tmp/a.pftrace"}));
    holds::<before::ListProcesses, ListProcesses>(json!({}));
    holds::<before::Hotspots, Hotspots>(json!({"min_ms": 16, "process": "Renderer"}));
    let list = holds::<before::ListCompetitions, ListCompetitions>(json!({"search": "titanic"}));
    assert_eq!((list.order.as_str(), list.page), ("newest", 1));
    let checkpoint = holds::<before::CheckpointMachine, CheckpointMachine>(
        json!({"name": "web-1", "snapshotName": "before-upgrade", "passthru": true}),
    );
    assert_eq!(checkpoint.snapshot_name.as_deref(), Some("before-upgrade"));
    holds::<before::Draw, Draw>(json!({"kind": "dice", "count": 3}));
    holds::<before::OpenSession, OpenSession>(
        json!({"mode": "attach", "pid": 4242, "section": "meta_command"}),
    );
    holds::<before::CommandResult, CommandResult>(json!({"execution_id": 7, "tail": 20}));
}

#[test]
fn nothing_the_servers_schemas_said_is_lost() {
    let held = [
        held::<before::QueryTraffic, QueryTraffic>(),
        held::<before::RequestCrawl, RequestCrawl>(),
        held::<before::DailyProblem, DailyProblem>(),
        held::<before::GetRecord, GetRecord>(),
        held::<before::AddEvent, AddEvent>(),
        held::<before::ReplaceRecord, ReplaceRecord>(),
        held::<before::OpenTrace, OpenTrace>(),
        held::<before::ListProcesses, ListProcesses>(),
        held::<before::Hotspots, Hotspots>(),
        held::<before::ListCompetitions, ListCompetitions>(),
        held::<before::CheckpointMachine, CheckpointMachine>(),
        held::<before::Draw, Draw>(),
        held::<before::OpenSession, OpenSession>(),
        held::<before::CommandResult, CommandResult>(),
    ];
    // Counted: each unsigned integer's 0 (days, page, startup_bytes, pid, the seconds,
    // the execution id, the lines), the enums' names (site, kind, section), the date's
    // three items (minItems and maxItems), and validator's 1 to 1000 on `count`.
    assert_eq!(
        held,
        [1, 0, 1, 2, 2, 0, 0, 0, 0, 0, 1, 2, 3, 3],
        "constraints held per tool"
    );
}

#[test]
fn what_the_servers_enforced_is_enforced_and_said() {
    // `#[schemars(required)]` on an `Option`: the schema said a kind is sent, with a
    // value (no `null`); the kind is now enforced as said, where serde read a missing
    // one, or `null`, as `None`.
    let (path, rule) = refused::<GetRecord>(json!({"handle": "h1"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/kind", "required"));
    let err = GetRecord::from_arguments(json!({"kind": null})).unwrap_err();
    assert_eq!(err.violations()[0].path, "/kind");
    assert!(err.text().contains("required"), "{}", err.text());
    // A kind outside the names, refused with them.
    let (path, rule) = refused::<GetRecord>(json!({"kind": "place"}));
    assert_eq!((path.as_str(), rule.as_str()), ("/kind", "enum"));
    // Closed to unknown names, as `deny_unknown_fields` was; the former name read.
    let (path, rule) = refused::<OpenTrace>(json!({"path": "a", "min_ms": 16}));
    assert_eq!((path.as_str(), rule.as_str()), ("/min_ms", "unknown"));
    let open = OpenTrace::from_arguments(json!({"trace_path": "/tmp/b.pftrace"})).unwrap();
    assert_eq!(open.path, "/tmp/b.pftrace");
    // validator's range, enforced with the rest.
    let (path, rule) = refused::<Draw>(json!({"kind": "dice", "count": 0}));
    assert_eq!((path.as_str(), rule.as_str()), ("/count", "range"));
    // A date is three integers, not two.
    let (path, _) = refused::<AddEvent>(json!({"event_type": "Birth", "date": [1867, 11]}));
    assert_eq!(path, "/date");
    // A body that is no object.
    let (path, _) = refused::<ReplaceRecord>(json!({"handle": "h", "body": "x"}));
    assert_eq!(path, "/body");
    // The raw identifier's field is `type` on the wire, in the schema and the messages.
    assert!(RequestCrawl::input_schema()["properties"]["type"].is_object());
    let (path, _) = refused::<RequestCrawl>(json!({"url": "u", "type": 1}));
    assert_eq!(path, "/type");
}

#[test]
fn a_number_sent_as_its_text_is_read_by_the_server_s_function() {
    // The trace analyzer's own reading takes "16" for a number: a value the declared
    // type refuses goes to the author's function, as it did before the swap.
    let hot = Hotspots::from_arguments(json!({"min_ms": "16"})).unwrap();
    assert_eq!(hot.min_ms, Some(16.0));
    let err = Hotspots::from_arguments(json!({"min_ms": "soon"})).unwrap_err();
    assert_eq!(err.violations()[0].path, "/min_ms");
}
