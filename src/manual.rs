//! The manual: one page per topic, beside the API's own docs. The README is the short
//! way in; these pages are the rest, and every Rust block in them is a doctest, so
//! what they show compiles and runs as shown.
//!
//! - [`attributes`]: the rules a field can carry, argument types, misuse.
//! - [`schemas`]: what the model is told, in each client family's profile.
//! - [`errors`]: what the model gets back, per category; unexpected errors.
//! - [`serving`]: a Toolbox, stdio, HTTP, serving in production.
//! - [`rmcp`]: a server already written with rmcp's macros; migrating one.
//! - [`asking`]: asking the user (feature `ask`).
//! - [`tasks`]: long calls as tasks, polled and cancelled by their client (feature
//!   `rmcp`).
//! - [`authorization`]: who may call what: a tool's scopes, the caller in its handler,
//!   the HTTP server as an OAuth resource server (feature `auth`).
//! - [`deploying`]: a remote server: both routes, the issuer, replicas, the balancer.
//! - [`operators`]: what an operator sees (feature `tracing`).
//! - [`agent`]: the client side of a tool call (feature `agent`).
//! - [`clients`]: what each client receives and what is repaired on the way in.
//! - [`invariant`]: what the schema and the runtime agree on, and how it is tested.
//! - [`performance`]: what checking costs, in short.

#[doc = include_str!("../docs/attributes.md")]
pub mod attributes {}

#[doc = include_str!("../docs/schemas.md")]
pub mod schemas {}

#[doc = include_str!("../docs/errors.md")]
pub mod errors {}

#[doc = include_str!("../docs/serving.md")]
pub mod serving {}

#[doc = include_str!("../docs/rmcp.md")]
pub mod rmcp {}

#[doc = include_str!("../docs/asking.md")]
pub mod asking {}

#[doc = include_str!("../docs/tasks.md")]
pub mod tasks {}

#[doc = include_str!("../docs/authorization.md")]
pub mod authorization {}

#[doc = include_str!("../docs/deploying.md")]
pub mod deploying {}

#[doc = include_str!("../docs/operators.md")]
pub mod operators {}

#[doc = include_str!("../docs/agent.md")]
pub mod agent {}

#[doc = include_str!("../docs/clients.md")]
pub mod clients {}

#[doc = include_str!("../docs/invariant.md")]
pub mod invariant {}

#[doc = include_str!("../docs/performance.md")]
pub mod performance {}
