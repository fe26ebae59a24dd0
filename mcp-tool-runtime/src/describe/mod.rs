//! The description the derive emits, and what is built from it: one [`ToolSpec`] per
//! struct and one [`EnumSpec`] per enum, data that the schema (`schema.rs`, and its
//! profiles and the output schema), the checks of a struct (`object.rs`) and the one
//! route from arguments to a struct (`read.rs`) all read, so that what a model is told
//! and what the server enforces come from one description of each field.
//!
//! This file is only the folder's face. The types the derive fills in are in
//! `spec.rs`, at the bottom; what a Rust type means in JSON in `types/`; the schema,
//! the profiles, the checks and the route from arguments above them.

mod across;
pub(crate) mod asking;
mod extend;
mod object;
pub mod output;
pub(crate) mod profile;
pub(crate) mod read;
mod reading;
mod schema;
pub(crate) mod spec;
mod traits;
pub(crate) mod types;
pub(crate) mod valid_walk;
mod walk;

pub use across::{Compared, Takes};
pub use extend::Extend;
pub use traits::{McpEnum, McpTool};
pub use types::enumeration::{EnumSpec, NoOwnReading, OwnReading};
pub use types::newtype::Newtype;
pub use types::probe::{BySchemars, FieldRead, Probe};
pub use types::union::{Repr, Shape, UnionCache, UnionSpec, Variant};
pub use walk::{MAX_RECURSION, Walk};

pub use crate::annotations::Annotations;
pub use spec::{ArgType, Field, Like, Reshape, SpecCache, Tool, ToolSpec};
