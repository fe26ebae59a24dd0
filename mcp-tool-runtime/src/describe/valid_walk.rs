//! The fast path of valid arguments: one walk over them that records nothing and stops
//! at the first doubt. Most calls carry valid arguments, and for those the full check
//! (`object.rs`) keeps a path, a field's hint and lists it never uses. Where this walk
//! says the arguments pass, the full check would find nothing and record nothing (no
//! repair, no key read under another name, no `null` read as left out, nothing hidden,
//! nothing read later); anything else, it leaves to the full check, which then runs
//! from the start. `tests/fast_paths.rs` holds the two to the same answers.

use serde_json::Value;

use super::{Field, ToolSpec};
use crate::check::Checker;
use crate::fast::{self, FastPath};
use crate::rules::{self, Rules};

/// The most fields a struct may have for the walk: their slots are cleared for every
/// object, and a larger struct takes the full check, whose slots are more.
const WALKED_FIELDS: usize = 16;

impl ToolSpec {
    /// Whether the struct's fields admit the fast path: none flattened, sensitive,
    /// reshaped or read by a function of their own, the struct not a union's root nor
    /// holding itself, and at most [`WALKED_FIELDS`] of them. Decided once, for the plan.
    pub(super) fn admits_valid_walk(&'static self, recursive: bool) -> bool {
        self.union.is_none()
            && !recursive
            && self.fields.len() <= WALKED_FIELDS
            && self
                .fields
                .iter()
                .all(|f| !f.flatten && !f.sensitive && f.reshape.is_none() && f.reads.is_none())
    }

    /// Whether `value` is an object of this struct that passes every check with
    /// nothing to record: then [`ToolSpec::check`] is not needed. `false` means only
    /// "not sure".
    pub(crate) fn passes(&'static self, value: &Value, cx: &Checker<'_>) -> bool {
        if !fast::on(FastPath::ValidWalk) || !self.plan().valid_walk {
            return false;
        }
        let Value::Object(map) = value else {
            return false;
        };
        let mut slots = [None; WALKED_FIELDS];
        // Maps that keep the order names came in (serde_json's `preserve_order`) take
        // the full check.
        let Some(found) = self.slot_fields(map, &mut slots) else {
            return false;
        };
        // A name no field has is unknown, or a former name, or another case style.
        found == map.len()
            && self
                .fields
                .iter()
                .zip(&slots)
                .all(|(field, value)| field_passes(field, *value, cx))
    }

    /// [`Argument::passes`](crate::Argument::passes) of a derived struct: its fields,
    /// then the field's own rules on the whole.
    pub fn passes_field(&'static self, value: &Value, rules: Rules, cx: &Checker<'_>) -> bool {
        self.passes(value, cx) && rules::pass(rules.own, value, cx)
    }
}

/// Whether the value sent for `field` (if one was) passes with nothing to record.
fn field_passes(field: &Field, value: Option<&Value>, cx: &Checker<'_>) -> bool {
    match value {
        None => !field.required,
        // Read as left out: recorded, and taken out before serde reads the arguments.
        Some(Value::Null) if !field.required && cx.nulls_are_absent() => false,
        Some(value) => (field.ty.passes)(value, field.rules(), cx),
    }
}
