//! `EveryShape`: one arguments struct with every shape besides plain fields (enums with
//! data in serde's four representations, a newtype with rules, a flattened struct, a
//! set, an array, a tuple, a map, the typed foreign values, a schemars type), and
//! `EveryForm`, a whole tool's arguments as a tagged enum. Shared by the profile, property
//! and invariant tests, so that each holds the new shapes as it holds `Everything`.
#![allow(dead_code)] // the fields exist for the derive to read

use std::collections::BTreeSet;

use mcp_tool::{Argument, McpTool};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Argument, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Internal {
    Named {
        #[validate(length(min = 1, max = 5))]
        name: String,
    },
    Counted {
        #[validate(range(max = 9))]
        n: Option<u8>,
    },
    Nothing,
}

#[derive(Argument, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum External {
    Off,
    Num(#[validate(range(min = 1, max = 9))] u8),
    Pair(f32, f32),
    Mail {
        #[validate(email)]
        to: String,
    },
}

#[derive(Argument, Deserialize, Debug)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Text(#[validate(length(max = 3))] String),
    Empty,
}

#[derive(Argument, Deserialize, Debug)]
#[serde(untagged)]
pub enum Untagged {
    Id {
        #[validate(range(min = 1))]
        id: u32,
    },
    Name {
        #[validate(regex = r"^[a-z]+$")]
        name: String,
    },
}

/// A port.
#[derive(Argument, Deserialize, Debug)]
#[validate(range(min = 1024, max = 65534))]
pub struct Port(u16);

#[derive(Argument, Deserialize, Debug)]
pub struct Paging {
    #[validate(range(min = 1, max = 100))]
    limit: Option<u32>,
    cursor: Option<String>,
}

/// Stands for another crate's type: only `Deserialize` and `JsonSchema`.
#[derive(schemars::JsonSchema, Deserialize, Debug)]
pub struct Foreign {
    #[schemars(range(min = 0, max = 10))]
    pub level: u8,
}

/// Every shape besides plain fields.
#[derive(McpTool, Deserialize, Debug)]
pub struct EveryShape {
    pub internal: Internal,
    pub external: Option<External>,
    pub adjacent: Option<Adjacent>,
    pub untagged: Option<Untagged>,
    pub port: Option<Port>,
    #[validate(length(max = 3))]
    pub tags: Option<BTreeSet<String>>,
    pub rgba: Option<[u8; 4]>,
    pub point: Option<(f32, String)>,
    pub meta: Option<Map<String, Value>>,
    pub at: Option<chrono::DateTime<chrono::Utc>>,
    pub day: Option<jiff::civil::Date>,
    pub id: Option<uuid::Uuid>,
    pub link: Option<url::Url>,
    pub ip: Option<std::net::Ipv4Addr>,
    #[mcp_tool(schemars)]
    pub foreign: Option<Foreign>,
    #[serde(flatten)]
    pub paging: Paging,
}

/// A whole tool's arguments as a tagged enum.
#[derive(McpTool, Deserialize, Debug)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum EveryForm {
    Text {
        #[validate(length(min = 2))]
        query: String,
        limit: Option<u8>,
    },
    Sku {
        #[validate(regex = r"^[A-Z]{3}-[0-9]{4}$")]
        sku: String,
        limit: Option<u8>,
    },
    All,
}
