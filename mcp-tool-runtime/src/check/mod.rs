//! The checker: walks the arguments once, collecting every finding with its path.
//!
//! Four parts, each with its own invariant:
//!
//! - `path.rs`, the cursor: where the checker is, as steps kept in place and written
//!   out (a JSON pointer, a typed location) only for a finding;
//! - `findings.rs`, the findings: lists in the order found, which a trial undoes by
//!   truncates, and `replay.rs`, the one pass that reads them after the check;
//! - `repair.rs`, the repair policy: which client mistakes are read as what was meant,
//!   and how each is recorded;
//! - `report.rs`, the message writer: a violation's sentence, and what it remembers.
//!
//! This file holds the checker's state and the scopes a check runs in (a field's
//! default, a sensitive value, a recursive struct, a trial).

pub(crate) mod across;
mod findings;
mod path;
mod repair;
mod replay;
mod report;

use crate::context::Context;
pub(crate) use crate::result::Location;
use findings::{Finding, Findings};
use path::Steps;

pub(crate) use findings::Conversion;
pub use findings::Convert;
pub(crate) use replay::{Checked, Listed};
pub(crate) use report::Report;

/// Which struct a value is one of, for counting how deep a recursive one nests: the
/// address of the struct's description, which is a `static`.
pub(crate) type SpecId = usize;

/// At most this many violations are listed in one result; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// Collects the findings of one arguments object, each at its JSON pointer. The
/// derives' code only hands it on to this crate's checks: none of its methods is for
/// use outside this crate, so its workings can change freely.
#[derive(Debug)]
pub struct Checker<'a> {
    context: &'a Context,
    /// Where the checker is; turned into a JSON pointer only when a finding needs it.
    path: Steps,
    /// What the check found (see `findings.rs`).
    findings: Findings,
    /// Where sensitive values are: hidden in the echo of the arguments. Not a finding:
    /// a [trial](Checker::trial) keeps it (a form not taken still hides what it would
    /// have).
    hidden: Vec<Location>,
    /// Each violation keeps the field of the arguments it is about, by wire name (a
    /// tool that asks its user for fields reads them).
    keep_fields: bool,
    sensitive: u32,
    /// No value is shown at all (the server's `echo_values(false)`): every value is
    /// treated as a sensitive one, the arguments as a whole hidden.
    withheld: bool,
    /// The objects whose argument names an unknown-name violation has listed already:
    /// the message writer's memory, which a trial puts back.
    names_listed: Vec<&'static str>,
    /// The depth of the path at which the value being checked is a field with a
    /// default: a `null` there is advice to leave it out; elsewhere, to send a value.
    optional_at: Option<usize>,
    /// The tool's name as the client called it.
    tool: Option<&'a str>,
    /// The recursive structs the value being checked is inside, outermost first: how
    /// many levels of each it is nested in.
    specs: Vec<SpecId>,
    /// `null` for an optional property means "left out" (the OpenAI profile's schema
    /// makes optional properties nullable).
    nulls_are_absent: bool,
    /// Known client mistakes are repaired (see `repair.rs`).
    repair: bool,
    /// The author's hint on the field being checked (its rules' first): said in the
    /// messages of its rules that have none of their own, not in a type error.
    field_hint: Option<&'static str>,
    /// The root object's fields the walk of valid arguments found to pass (bit `i` for
    /// the field at `i`): nothing to find there, so not judged again. Taken by the
    /// first struct checked, the root.
    passed: u64,
}

impl<'a> Checker<'a> {
    /// A checker judging dates against `context`.
    pub(crate) fn new(context: &'a Context) -> Self {
        Checker {
            context,
            path: Steps::new(),
            findings: Findings::default(),
            hidden: Vec::new(),
            keep_fields: false,
            sensitive: 0,
            withheld: false,
            names_listed: Vec::new(),
            optional_at: None,
            tool: None,
            specs: Vec::new(),
            nulls_are_absent: false,
            repair: false,
            field_hint: None,
            passed: 0,
        }
    }

    /// A checker for the arguments of the tool the client called `tool`: the name its
    /// violations use for the tool.
    pub(crate) fn for_tool(context: &'a Context, tool: &'a str) -> Self {
        let mut cx = Checker::new(context);
        cx.tool = Some(tool);
        cx
    }

    /// The name the client called the tool by (`None` for a checker not made for a call).
    pub(crate) fn tool(&self) -> Option<&'a str> {
        self.tool
    }

    /// The clock of the date rules.
    pub(crate) fn context(&self) -> &Context {
        self.context
    }

    /// The root object's fields found to pass by the walk of valid arguments
    /// (`describe/valid_walk.rs`), bit `i` for the field at `i`: the check skips them.
    pub(crate) fn skip_passed(&mut self, fields: u64) {
        self.passed = fields;
    }

    /// The fields to skip, for the root object's check; none for any other.
    pub(crate) fn take_passed(&mut self) -> u64 {
        std::mem::take(&mut self.passed)
    }

    /// How many fields have a bit in [`Checker::skip_passed`]'s set: the first 64.
    pub(crate) const FIELD_BITS: usize = u64::BITS as usize;

    /// The bit of the field at `index` in [`Checker::skip_passed`]'s set: none past the
    /// [`Checker::FIELD_BITS`]th, whose fields are always judged.
    pub(crate) fn field_bit(index: usize) -> u64 {
        u32::try_from(index)
            .ok()
            .and_then(|i| 1u64.checked_shl(i))
            .unwrap_or(0)
    }

    /// Keeps, for each violation, the field of the arguments it is about.
    pub(crate) fn keep_fields(&mut self) {
        self.keep_fields = true;
    }

    /// From now on, `null` for an optional property means "left out".
    pub(crate) fn read_nulls_as_absent(&mut self) {
        self.nulls_are_absent = true;
    }

    /// Whether `null` for an optional property means "left out".
    pub(crate) fn nulls_are_absent(&self) -> bool {
        self.nulls_are_absent
    }

    /// Records that the property at the current path is a `null` meaning "left out".
    pub(crate) fn absent_null(&mut self) {
        let at = self.location();
        self.findings.push(Finding::AbsentNull(at));
    }

    /// Records that the integer at the current path is written as a float (`3.0`): valid
    /// JSON Schema, but serde wants `3`, so the value is rewritten before deserializing.
    pub(crate) fn integral_float(&mut self) {
        let at = self.location();
        self.findings.push(Finding::IntegralFloat(at));
    }

    /// Records `convert` for the value being checked, to try once the checks pass.
    pub(crate) fn convert_later(&mut self, rule: &'static str, convert: Convert) {
        let conversion = Conversion {
            rule,
            at: self.location(),
            path: self.path(),
            value_shown: !self.is_sensitive(),
            convert,
        };
        self.findings.push(Finding::Conversion(conversion));
    }

    /// How many levels of `spec` the value being checked is inside.
    pub(crate) fn levels_of(&self, spec: SpecId) -> usize {
        self.specs.iter().filter(|s| **s == spec).count()
    }

    /// Enters one level of the recursive struct `spec`.
    pub(crate) fn enter_spec(&mut self, spec: SpecId) {
        self.specs.push(spec);
    }

    /// Leaves the level entered last.
    pub(crate) fn leave_spec(&mut self) {
        self.specs.pop();
    }

    /// Runs `f` on the value of a field that may be left out, serde then taking its
    /// default: a wrong `null` there is told to leave the field out.
    pub(crate) fn optional<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = self.optional_at.replace(self.path.len);
        let out = f(self);
        self.optional_at = outer;
        out
    }

    /// Runs `f` with values echoed as hidden: for fields marked sensitive.
    pub(crate) fn sensitive<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.hide();
        self.sensitive += 1;
        let out = f(self);
        self.sensitive -= 1;
        out
    }

    /// From now on no value is shown: every value is checked as a sensitive one is (its
    /// violations say its JSON type, never what it holds, and nothing derived from it),
    /// and the arguments as a whole are hidden in the echo, for `attempted_query`.
    pub(crate) fn withhold_values(&mut self) {
        self.hide();
        self.withheld = true;
    }

    /// Records that the value being checked is sensitive (a field or a type marked so,
    /// a misspelt name of one): the echo of the arguments hides it. [`Checker::sensitive`]
    /// records where it runs. Kept through a [trial](Checker::trial): a form not taken
    /// still hides what it would have.
    pub(crate) fn hide(&mut self) {
        if self.is_sensitive() {
            return;
        }
        let at = self.location();
        if self.hidden.last() != Some(&at) {
            self.hidden.push(at);
        }
    }

    /// Whether the value being checked is not to be shown: it is sensitive, or no value
    /// is (see [`Checker::withhold_values`]).
    pub(crate) fn is_sensitive(&self) -> bool {
        self.sensitive > 0 || self.withheld
    }

    /// How many violations have been reported so far.
    pub(crate) fn count(&self) -> usize {
        self.findings.count()
    }

    /// Whether the list of violations is full, so that a new one would only be counted:
    /// callers can skip the work of describing it.
    pub(crate) fn is_full(&self) -> bool {
        self.findings.listed() >= MAX_LISTED
    }

    /// Runs `f` as a trial: every finding it makes is undone after, and the names its
    /// messages listed are forgotten; where sensitive values are is kept (see
    /// [`Checker::hide`]). Returns how many violations it found: how far a value is
    /// from one form of a union.
    pub(crate) fn trial(&mut self, f: impl FnOnce(&mut Self)) -> usize {
        let mark = self.findings.mark();
        let listed = self.names_listed.len();
        f(self);
        self.names_listed.truncate(listed);
        self.findings.undo(mark)
    }

    /// Runs `f` as a [trial](Checker::trial), and returns the messages of what it found.
    pub(crate) fn trial_messages<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Vec<String> {
        let start = self.findings.mark();
        let mut messages = Vec::new();
        self.trial(|cx| {
            f(cx);
            messages = cx
                .findings
                .violations_since(start)
                .iter()
                .map(|v| v.message.clone())
                .collect();
        });
        messages
    }

    /// What the check found.
    pub(crate) fn finish(self) -> Checked {
        Checked {
            findings: self.findings,
            hidden: self.hidden,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::Checker;
    use crate::context::Context;

    fn refuse(_: &Value) -> Result<(), String> {
        Err("no".into())
    }

    /// A trial is tentative through and through: what a form not taken found is not
    /// said, not repaired, not converted, and its listing of names is forgotten. Only
    /// where it found a sensitive value stays hidden.
    #[test]
    fn a_trial_undoes_every_finding_and_keeps_what_it_hid() {
        let context = Context::on(2026, 11, 30).unwrap();
        let mut cx = Checker::new(&context);
        cx.repair_mistakes();
        let found = cx.trial(|cx| {
            let mark = cx.enter_field("a");
            cx.type_mismatch("a string", &json!(1));
            cx.integral_float();
            cx.absent_null();
            cx.repaired(json!("x"));
            cx.renamed("old", "a");
            cx.read_value_as("Old", "new");
            cx.restyled("A", "a");
            cx.convert_later("try_from", refuse);
            cx.sensitive(|cx| cx.type_mismatch("a string", &json!(2)));
            assert!(cx.first_listing("Object"));
            cx.leave(mark);
        });
        assert_eq!(found, 2);
        assert_eq!(cx.count(), 0);
        assert!(cx.first_listing("Object"), "the listing was forgotten");
        let checked = cx.finish();
        assert!(!checked.is_invalid());
        assert_eq!(
            checked.hidden().len(),
            1,
            "the sensitive value stays hidden"
        );
        let mut arguments = json!({"a": 1.0, "A": 2});
        let applied = checked.apply(&mut arguments);
        assert!(
            applied.refused.is_empty(),
            "no conversion of a form not taken"
        );
        assert!(applied.repairs.is_empty());
        assert_eq!(arguments, json!({"a": 1.0, "A": 2}));
    }

    /// Past the cap a violation is only counted, and a trial gives the count back too.
    #[test]
    fn a_trial_counts_and_undoes_the_violations_past_the_cap() {
        let context = Context::on(2026, 11, 30).unwrap();
        let mut cx = Checker::new(&context);
        for _ in 0..super::MAX_LISTED {
            cx.type_mismatch("a string", &json!(1));
        }
        assert!(cx.is_full());
        let found = cx.trial(|cx| {
            cx.type_mismatch("a string", &json!(1));
            cx.type_mismatch("a string", &json!(1));
        });
        assert_eq!(found, 2);
        assert_eq!(cx.count(), super::MAX_LISTED);
        let (listed, _) = cx.finish().listed();
        assert_eq!(
            (listed.violations.len(), listed.omitted),
            (super::MAX_LISTED, 0)
        );
    }

    /// A repaired value is put in place before what was found inside it: an integral
    /// float in an array sent as a string is written as an integer in the array parsed.
    #[test]
    fn a_repair_is_put_in_place_before_the_findings_inside_it() {
        let context = Context::on(2026, 11, 30).unwrap();
        let mut cx = Checker::new(&context);
        cx.repair_mistakes();
        let mark = cx.enter_field("ids");
        let parsed = cx.unstringify(&json!("[1.0, 2]"), true).unwrap();
        cx.repairing(parsed, |parsed, cx| {
            let item = cx.enter_index(0);
            assert_eq!(parsed[0], json!(1.0));
            cx.integral_float();
            cx.leave(item);
        });
        cx.leave(mark);
        let mut arguments = json!({"ids": "[1.0, 2]"});
        let applied = cx.finish().apply(&mut arguments);
        assert_eq!(arguments, json!({"ids": [1, 2]}));
        assert_eq!(applied.repairs[0].path, "/ids");
    }
}
