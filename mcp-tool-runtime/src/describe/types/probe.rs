//! How a field's type is read, chosen where the derive cannot see: by its [`Argument`]
//! where it has one, by its schemars schema where it has only a `JsonSchema` (written by
//! hand, or derived by schemars), so that such a type needs no attribute to be a field.
//!
//! The choice is the compiler's: `<Probe<T>>::READ` names the inherent constant when
//! `T: Argument` holds, and the trait [`BySchemars`]'s otherwise (an inherent item whose
//! bounds do not hold is passed over for a trait's of the same name). The derives take
//! no generic parameters, so `T` is always a type known where the field is written, and
//! the choice is made once, for that type.

use std::marker::PhantomData;

use serde_json::Value;

use super::argument::Argument;
use crate::describe::spec::ArgType;
use crate::describe::spec::Judge;
use crate::rules::Rules;

/// A field's type, for the choice of how it is read.
pub struct Probe<T>(PhantomData<T>);

/// How a field's type is read: what `Probe<T>::READ` gives.
pub struct FieldRead<T> {
    /// The schema and check of the type.
    pub arg_type: ArgType,
    /// Whether the type is an `Option`, where its `Argument` says; `None` where the
    /// derive says it from the type's name.
    pub optional: Option<bool>,
    /// The fast path of valid arguments (a schemars reading has none: `false`, not
    /// sure, sends the value to the full check).
    pub passes: fn(&Value, Rules, &Judge<'_>) -> bool,
    /// A value as JSON, for the schema's `default` (`None` for a schemars reading: the
    /// type may not serialize).
    pub to_json: fn(&T) -> Option<Value>,
}

impl<T: Argument> Probe<T> {
    /// `T`'s own `Argument`.
    pub const READ: FieldRead<T> = FieldRead {
        arg_type: ArgType::of::<T>(),
        optional: Some(T::OPTIONAL),
        passes: T::passes,
        to_json: T::to_json,
    };
}

/// How a type with no `Argument` is read: its schemars schema, advertised and enforced
/// as `#[mcp_tool(schemars)]` reads it.
pub trait BySchemars<T> {
    /// The schemars reading.
    const READ: FieldRead<T>;
}

impl<T: schemars::JsonSchema + 'static> BySchemars<T> for Probe<T> {
    const READ: FieldRead<T> = FieldRead {
        arg_type: ArgType::schemars::<T>(),
        optional: None,
        passes: never_sure,
        to_json: no_json::<T>,
    };
}

fn never_sure(_: &Value, _: Rules, _: &Judge<'_>) -> bool {
    false
}

fn no_json<T>(_: &T) -> Option<Value> {
    None
}
