//! What a check finds, each kind in the order found.
//!
//! Everything the read after the check needs from the walk is kept here: the
//! violations (with, where the checker keeps them, the field each is about), and every
//! other [`Finding`] in one list: a repair with the value to put in place, a name read
//! as another, an integer written as a float, a `null` that means "left out", a
//! newtype's conversion to try. So a [trial](super::Checker::trial) (a union's form
//! checked tentatively) undoes all of it with one [`Findings::undo`], a truncate of
//! each list back to its [`Mark`], and the read after the check is one pass over the
//! other findings ([`Checked`](super::Checked)).
//!
//! The violations have a list of their own because an invalid call's error lists them
//! as they lie: the list is moved into the error whole, nothing copied or sorted out.
//! No read needs a violation's place among the other findings: arguments with a
//! violation are not read at all.
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

/// The findings: the violations listed, how many more were only counted, and the
/// other findings.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    /// The violations listed (past [`MAX_LISTED`](super::MAX_LISTED) they are only
    /// counted), in the order found.
    violations: Vec<Violation>,
    /// The field of the arguments each violation is about (by wire name; `None` for a
    /// violation of the arguments as a whole), one for each where the checker keeps
    /// fields (a tool that asks its user for fields reads them); else empty.
    fields: Vec<Option<&'static str>>,
    /// The violations found past the cap: counted, not listed.
    omitted: usize,
    /// Every other finding, in the order found.
    others: Vec<Finding>,
}

/// Where the findings stood: what [`Findings::undo`] goes back to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    violations: usize,
    fields: usize,
    omitted: usize,
    others: usize,
}

impl Findings {
    /// Records a finding that is not a violation.
    pub(crate) fn push(&mut self, finding: Finding) {
        self.others.push(finding);
    }

    /// Lists a violation, with the field it is about where fields are kept.
    pub(crate) fn list(&mut self, violation: Violation, field: Option<Option<&'static str>>) {
        if let Some(field) = field {
            self.fields.push(field);
        }
        self.violations.push(violation);
    }

    /// Counts a violation past the cap.
    pub(crate) fn omit(&mut self) {
        self.omitted += 1;
    }

    /// How many violations are listed.
    pub(crate) fn listed(&self) -> usize {
        self.violations.len()
    }

    /// How many violations were found: listed and counted.
    pub(crate) fn count(&self) -> usize {
        self.violations.len() + self.omitted
    }

    /// Where they stand now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            violations: self.violations.len(),
            fields: self.fields.len(),
            omitted: self.omitted,
            others: self.others.len(),
        }
    }

    /// Undoes everything found since `mark`; returns how many violations that was.
    pub(crate) fn undo(&mut self, mark: Mark) -> usize {
        let found = self.count() - (mark.violations + mark.omitted);
        self.violations.truncate(mark.violations);
        self.fields.truncate(mark.fields);
        self.omitted = mark.omitted;
        self.others.truncate(mark.others);
        found
    }

    /// The violations listed since `mark`.
    pub(crate) fn violations_since(&self, mark: Mark) -> &[Violation] {
        &self.violations[mark.violations.min(self.violations.len())..]
    }

    /// The value of the repair at `index` (see [`Findings::next_index`]), once known.
    pub(crate) fn set_repaired(&mut self, index: usize, parsed: Value) {
        if let Some(Finding::Repaired { value, .. }) = self.others.get_mut(index) {
            *value = parsed;
        }
    }

    /// Whether a value was repaired.
    pub(crate) fn has_repairs(&self) -> bool {
        self.others
            .iter()
            .any(|finding| matches!(finding, Finding::Repaired { .. }))
    }

    /// The value the last repair at `at` put in place, if one did.
    pub(crate) fn repaired_at(&self, at: &Location) -> Option<&Value> {
        self.others.iter().rev().find_map(|finding| match finding {
            Finding::Repaired {
                at: here, value, ..
            } if here == at => Some(value),
            _ => None,
        })
    }

    /// The index the next finding that is not a violation will have.
    pub(crate) fn next_index(&self) -> usize {
        self.others.len()
    }

    /// The violations listed, the field each is about (where kept), how many more were
    /// counted, and the other findings in the order found.
    pub(crate) fn into_parts(self) -> Parts {
        Parts {
            violations: self.violations,
            fields: self.fields,
            omitted: self.omitted,
            others: self.others,
        }
    }
}

/// What [`Findings::into_parts`] gives.
pub(crate) struct Parts {
    pub violations: Vec<Violation>,
    pub fields: Vec<Option<&'static str>>,
    pub omitted: usize,
    pub others: Vec<Finding>,
}
