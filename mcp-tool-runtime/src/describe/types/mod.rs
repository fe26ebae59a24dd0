//! What a Rust type means in JSON: the [`Argument`](argument::Argument) trait and its
//! impls for std's types (`argument.rs`), numbers (`numbers.rs`), maps and their keys
//! (`maps.rs`), sets, arrays and tuples (`shapes.rs`), foreign crates' types
//! (`foreign.rs`), newtypes (`newtype.rs`), enums of names (`enumeration.rs`) and with
//! data (`union/`), a type known only by its schemars schema (`schemars_type.rs`), the
//! choice between the two (`probe.rs`), and the markers of which rules fit a type
//! (`fit.rs`). Each is a schema and a check; the struct around them is the folder
//! above's.

pub(crate) mod argument;
pub(super) mod enumeration;
pub(crate) mod fit;
mod foreign;
pub(crate) mod maps;
pub(super) mod newtype;
pub(super) mod numbers;
pub(super) mod probe;
pub(super) mod schemars_type;
mod shapes;
pub(super) mod union;
