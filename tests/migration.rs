//! Migrating from rmcp + schemars by swapping one derive: argument types written the way
//! public Rust MCP servers write them (schemars descriptions and bounds, data enums,
//! `serde_json::Map`, arrays and tuples, flatten, chrono, a newtype read through
//! `try_from`), each with `#[derive(JsonSchema)]` replaced by this crate's derive and
//! nothing else edited. Each compiles, advertises a schema the judge compiles, reads a
//! typical call, and still implements `JsonSchema` for code that asks for it.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{Argument, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, McpTool)]
pub struct QueryRequest {
    #[schemars(description = "SQL query to run")]
    pub sql: String,
    #[schemars(description = "Query parameters")]
    pub params: Option<Vec<serde_json::Value>>,
    #[schemars(description = "Maximum rows to return", range(min = 1, max = 10000))]
    pub limit: Option<u32>,
}

/// Edit a file.
#[derive(Debug, Deserialize, McpTool)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum EditFile {
    /// Replace a span of text.
    Replace {
        path: String,
        old_text: String,
        new_text: String,
    },
    Append {
        path: String,
        text: String,
    },
    Delete {
        path: String,
    },
}

#[derive(Debug, Deserialize, Argument)]
#[serde(untagged)]
pub enum IssueRef {
    Number(u64),
    Key(String),
}

#[derive(Debug, Deserialize, McpTool)]
pub struct GetIssue {
    #[schemars(description = "The issue number, or its key such as PROJ-12")]
    pub issue: IssueRef,
    #[serde(default)]
    pub include_comments: bool,
}

#[derive(Debug, Deserialize, McpTool)]
pub struct SetLight {
    pub entity_id: String,
    pub rgbw_color: Option<[f32; 4]>,
    pub xy_color: Option<(f32, f32)>,
    pub attributes: Option<serde_json::Map<String, Value>>,
}

#[derive(Debug, Deserialize, Argument)]
pub struct TimeRange {
    #[schemars(description = "Start of the range (RFC 3339)")]
    pub start: chrono::DateTime<chrono::Utc>,
    pub end: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, Deserialize, McpTool)]
pub struct QueryLogs {
    #[schemars(length(min = 1))]
    pub query: String,
    #[serde(flatten)]
    pub range: TimeRange,
}

#[derive(Debug, Deserialize, Argument)]
#[serde(try_from = "u16")]
#[validate(range(min = 1024, max = 65534))]
pub struct Port(u16);

impl TryFrom<u16> for Port {
    type Error = String;
    fn try_from(n: u16) -> Result<Self, String> {
        Ok(Port(n))
    }
}

#[derive(Debug, Deserialize, McpTool)]
#[serde(rename_all = "camelCase")]
pub struct StartServer {
    pub port: Port,
    pub bind_address: std::net::IpAddr,
    #[serde(default)]
    pub extra_env: std::collections::HashMap<String, String>,
}

#[derive(Debug, Deserialize, Argument)]
#[serde(rename_all = "snake_case")]
pub enum Notify {
    Email { to: String },
    Webhook { url: String, secret: Option<String> },
}

#[derive(Debug, Deserialize, McpTool)]
pub struct CreateAlert {
    pub name: String,
    pub notify: Vec<Notify>,
}

// The shapes the last fifth of real tools used (issue 27), as their servers write them.

fn trim_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(String::deserialize(d)?.trim().to_owned())
}

fn id_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "pattern": "^[0-9a-f]{24}$"})
}

#[derive(Debug, Deserialize, PartialEq, Eq, Hash, mcp_tool::McpEnum)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Stable,
    Beta,
}

#[derive(Debug, Deserialize, McpTool)]
pub struct UpdateRecords {
    /// The collection's id.
    #[schemars(schema_with = "id_schema")]
    pub collection: String,
    /// Old clients send `recordIds`.
    #[serde(alias = "recordIds", alias = "ids")]
    pub record_ids: Vec<String>,
    #[serde(deserialize_with = "trim_string")]
    pub note: String,
    /// Rows by their index in the sheet.
    pub rows: Option<std::collections::HashMap<usize, String>>,
    pub versions: Option<std::collections::HashMap<Channel, String>>,
    pub checksum: Option<u128>,
    #[schemars(extend("maxItems" = 100))]
    pub tags: Option<Vec<String>>,
}

/// The schema compiles under an independent validator, accepts `valid` (which the
/// runtime reads), and `JsonSchema` gives the same schema to code that asks for it.
fn holds<T: McpTool + schemars::JsonSchema + std::fmt::Debug>(valid: Value) {
    let schema = T::input_schema();
    let judge = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the schema compiles");
    assert!(judge.is_valid(&valid), "{} rejects {valid}", T::NAME);
    T::from_arguments(valid.clone()).unwrap_or_else(|e| panic!("{}: {}", T::NAME, e.text()));
    let via_schemars = serde_json::to_value(schemars::schema_for!(T)).unwrap();
    assert_eq!(
        via_schemars["properties"],
        schema["properties"],
        "{}",
        T::NAME
    );
}

#[test]
fn each_migrated_tool_compiles_advertises_and_reads_its_arguments() {
    holds::<QueryRequest>(json!({"sql": "select 1", "limit": 10, "params": null}));
    holds::<EditFile>(
        json!({"action": "replace", "path": "a.rs", "old_text": "x", "new_text": "y"}),
    );
    holds::<GetIssue>(json!({"issue": "PROJ-12"}));
    holds::<GetIssue>(json!({"issue": 12, "include_comments": true}));
    holds::<SetLight>(
        json!({"entity_id": "light.desk", "rgbw_color": [1, 0.5, 0, 0], "xy_color": [0.3, 0.4], "attributes": {"transition": 2}}),
    );
    holds::<QueryLogs>(json!({"query": "level:error", "start": "2026-11-30T00:00:00Z"}));
    holds::<StartServer>(json!({"port": 8080, "bindAddress": "127.0.0.1"}));
    holds::<CreateAlert>(
        json!({"name": "cpu", "notify": [{"email": {"to": "ops@example.com"}}, {"webhook": {"url": "https://x.example"}}]}),
    );
    holds::<UpdateRecords>(json!({
        "collection": "65a1f0c2b3d4e5f6a7b8c9d0", "record_ids": ["r1"], "note": " moved ",
        "rows": {"2": "b"}, "versions": {"beta": "1.2"}, "checksum": 12, "tags": ["x"]
    }));
}

#[test]
fn what_changes_at_run_time_is_said_to_the_model() {
    // Unknown names are refused where serde ignored them, with the name meant.
    let err = QueryRequest::from_arguments(json!({"sql": "select 1", "limits": 5})).unwrap_err();
    assert!(
        err.violations()[0]
            .message
            .contains("Did you mean \"limit\"?")
    );
    // `null` for an optional field is `None`, as serde read it before the migration.
    assert!(QueryRequest::from_arguments(json!({"sql": "x", "limit": null})).is_ok());
    // And the bounds schemars advertised are now enforced.
    let err = StartServer::from_arguments(json!({"port": 80, "bindAddress": "::1"})).unwrap_err();
    assert_eq!(err.violations()[0].path, "/port");
}
