//! What a check finds, in one list, in the order found.
//!
//! Everything the read after the check needs from the walk is one [`Finding`] pushed to
//! one `Vec`: a violation, a repair with the value to put in place, a name read as
//! another, an integer written as a float, a `null` that means "left out", a newtype's
//! conversion to try. So a [trial](super::Checker::trial) (a union's form checked
//! tentatively) undoes all of it with one [`Findings::undo`], a truncate back to its
//! [`Mark`], and the read after the check is one pass over the list
//! ([`Checked`](super::Checked)).
//!
//! What a trial does not undo is not here, and says why where it is kept: where
//! sensitive values are (`Checker::hide`: a form not taken still hides what it would
//! have) and the objects whose names a message listed already (the message writer's
//! memory, put back by the trial itself).
//!
//! A new kind of finding (a rule across fields that leaves something for the read,
//! say): add a variant to [`Finding`], push it with [`Findings::push`] from a method of
//! the checker, and give it its arm in `replay.rs`, whose matches are exhaustive so
//! the compiler asks for it. A trial undoes it like any other. A rule that only
//! reports needs no new kind: [`Checker::report`](super::Checker::report) lists it.

use serde_json::Value;

use crate::result::{Location, Repair, Violation};

/// Reads a value as a newtype through its conversion: the refusal, in its own words.
pub type Convert = fn(&Value) -> Result<(), String>;

/// One thing a check found, where it found it.
#[derive(Debug)]
pub(crate) enum Finding {
    /// A violation listed (past [`MAX_LISTED`](super::MAX_LISTED) they are only
    /// counted). No larger than the violation itself, so that the list of an invalid
    /// call becomes the error's list where it lies (see `replay.rs`).
    Violation(Violation),
    /// The field of the arguments the next violation is about (by wire name; `None` for
    /// a violation of the arguments as a whole): recorded where the checker keeps fields
    /// (a tool that asks its user for fields reads them), just before the violation, so
    /// that a trial undoes the two together.
    Field(Option<&'static str>),
    /// The value at `at` was repaired into `value` (see [`Repair`]). Recorded before
    /// the repaired value's own findings, which are below it: the read puts it in place
    /// first.
    Repaired {
        at: Location,
        repair: Repair,
        value: Value,
    },
    /// A value was read under a former name of its field (`#[serde(alias)]`) or under
    /// its name in another case style, or was itself a former name of an enum's variant:
    /// said, with the repairs.
    Renamed(Repair),
    /// In the object at `parent`, the key `key` (the field's name in another case
    /// style) is renamed `name` before serde reads the arguments.
    Restyled {
        parent: Location,
        key: String,
        name: &'static str,
    },
    /// The integer at this location is written as a float (`3.0`): valid JSON Schema,
    /// but serde wants `3`.
    IntegralFloat(Location),
    /// The `null` at this location means "left out" (the OpenAI profile's optional
    /// properties), and is taken out.
    AbsentNull(Location),
    /// A newtype's conversion to try on the arguments as serde reads them. Recorded
    /// once the value's own checks passed, so after every finding inside it.
    Conversion(Conversion),
}

/// A newtype's conversion that may refuse its value (`#[serde(try_from)]`), to try on
/// the value at `at` once the arguments are fixed up as serde reads them.
#[derive(Debug)]
pub(crate) struct Conversion {
    /// The rule its refusal is reported as: `try_from`, `deserialize_with`.
    pub rule: &'static str,
    pub at: Location,
    pub path: String,
    /// The value may be shown in the violation (it is not sensitive).
    pub value_shown: bool,
    pub convert: Convert,
}

/// The list of findings, and how many violations it lists and only counts.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    list: Vec<Finding>,
    /// The violations in `list`.
    listed: usize,
    /// The violations found past the cap: counted, not listed.
    omitted: usize,
}

/// Where the findings stood: what [`Findings::undo`] goes back to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    len: usize,
    listed: usize,
    omitted: usize,
}

impl Findings {
    /// Records a finding that is not a violation.
    pub(crate) fn push(&mut self, finding: Finding) {
        debug_assert!(!matches!(
            finding,
            Finding::Violation(_) | Finding::Field(_)
        ));
        self.list.push(finding);
    }

    /// Lists a violation, and first the field it is about where fields are kept.
    pub(crate) fn list(&mut self, violation: Violation, field: Option<Option<&'static str>>) {
        self.listed += 1;
        if let Some(field) = field {
            self.list.push(Finding::Field(field));
        }
        self.list.push(Finding::Violation(violation));
    }

    /// Counts a violation past the cap.
    pub(crate) fn omit(&mut self) {
        self.omitted += 1;
    }

    /// How many violations are listed.
    pub(crate) fn listed(&self) -> usize {
        self.listed
    }

    /// How many violations were found: listed and counted.
    pub(crate) fn count(&self) -> usize {
        self.listed + self.omitted
    }

    /// How many violations were found past the cap.
    pub(crate) fn omitted(&self) -> usize {
        self.omitted
    }

    /// Where they stand now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            len: self.list.len(),
            listed: self.listed,
            omitted: self.omitted,
        }
    }

    /// Undoes everything found since `mark`; returns how many violations that was.
    pub(crate) fn undo(&mut self, mark: Mark) -> usize {
        let found = self.count() - (mark.listed + mark.omitted);
        self.list.truncate(mark.len);
        self.listed = mark.listed;
        self.omitted = mark.omitted;
        found
    }

    /// The violations listed since `mark`.
    pub(crate) fn violations_since(&self, mark: Mark) -> impl Iterator<Item = &Violation> {
        self.list[mark.len.min(self.list.len())..]
            .iter()
            .filter_map(|finding| match finding {
                Finding::Violation(violation) => Some(violation),
                _ => None,
            })
    }

    /// The value of the repair at `index` (see [`Findings::next_index`]), once known.
    pub(crate) fn set_repaired(&mut self, index: usize, parsed: Value) {
        if let Some(Finding::Repaired { value, .. }) = self.list.get_mut(index) {
            *value = parsed;
        }
    }

    /// Whether a value was repaired.
    pub(crate) fn has_repairs(&self) -> bool {
        self.list
            .iter()
            .any(|finding| matches!(finding, Finding::Repaired { .. }))
    }

    /// The value the last repair at `at` put in place, if one did.
    pub(crate) fn repaired_at(&self, at: &Location) -> Option<&Value> {
        self.list.iter().rev().find_map(|finding| match finding {
            Finding::Repaired {
                at: here, value, ..
            } if here == at => Some(value),
            _ => None,
        })
    }

    /// The index the next finding pushed will have.
    pub(crate) fn next_index(&self) -> usize {
        self.list.len()
    }

    /// The findings, in the order found.
    pub(crate) fn into_list(self) -> Vec<Finding> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::Finding;
    use crate::result::Violation;

    /// The list of an invalid call's findings becomes the error's list of violations
    /// where it lies (`Checked::listed`) only while a finding takes the room of a
    /// violation: a larger kind of finding would cost every invalid call a second list.
    #[test]
    fn a_finding_takes_the_room_of_a_violation() {
        assert_eq!(
            (size_of::<Finding>(), align_of::<Finding>()),
            (size_of::<Violation>(), align_of::<Violation>())
        );
    }
}
