//! The checker: walks the arguments once, collecting every violation with its path.

pub(crate) mod across;
mod path;

use std::borrow::Cow;

use serde_json::Value;

use crate::context::Context;
use crate::result::echo;
use crate::result::{Repair, Violation};

pub(crate) use crate::result::Location;
use crate::result::Segment;
use path::{Step, Steps, push_escaped};

/// Which struct a value is one of, for counting how deep a recursive one nests: the
/// address of the struct's description, which is a `static`.
pub(crate) type SpecId = usize;

/// At most this many violations are listed in one result; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// Collects the violations of one arguments object, each at its JSON pointer. The
/// derives' code only hands it on to this crate's checks: none of its methods is for
/// use outside this crate, so its workings can change freely.
#[derive(Debug)]
pub struct Checker<'a> {
    context: &'a Context,
    /// Where the checker is; turned into a JSON pointer only when a violation needs it.
    path: Steps,
    violations: Vec<Violation>,
    /// The field of the arguments each violation is about, by wire name, when
    /// `keep_fields` (a tool that asks its user for fields reads them).
    fields: Vec<Option<&'static str>>,
    keep_fields: bool,
    omitted: usize,
    sensitive: u32,
    /// Where sensitive values are: hidden in the echo of the arguments.
    hidden: Vec<Location>,
    integral_floats: Vec<Location>,
    /// The objects whose argument names an unknown-name violation has listed already.
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
    /// The paths of those `null`s, taken out before serde reads the arguments.
    absent_nulls: Vec<Location>,
    /// Known client mistakes are repaired: an array or object sent as a string of its
    /// JSON (see [`Repair`]).
    repair: bool,
    /// The repairs made, each where it was made and with the value put in place of
    /// what came.
    repairs: Vec<(Location, Repair, Value)>,
    /// The author's hint on the field being checked (its rules' first): said in the
    /// messages of its rules that have none of their own, not in a type error.
    field_hint: Option<&'static str>,
    /// The conversions to try once the arguments are as serde reads them.
    conversions: Vec<Conversion>,
    /// The values read under a former name of their field (`#[serde(alias)]`), or under
    /// their name in another case style.
    renamed: Vec<Repair>,
    /// The keys to rename before serde reads the arguments: in the object at the
    /// location, from the key sent to the field's name.
    restyled: Vec<(Location, String, &'static str)>,
    /// The root object's fields the walk of valid arguments found to pass before it
    /// stopped (bit `i` for the field at `i`): nothing to find there, so not judged
    /// again. Taken by the first struct checked, the root.
    passed: u64,
}

/// Reads a value as a newtype through its conversion: the refusal, in its own words.
pub type Convert = fn(&Value) -> Result<(), String>;

/// A newtype's conversion that may refuse its value (`#[serde(try_from)]`), to try on
/// the value at `at` once the arguments are fixed up as serde reads them.
#[derive(Debug)]
pub(crate) struct Conversion {
    /// The rule its refusal is reported as: `try_from`, `deserialize_with`.
    pub rule: &'static str,
    pub at: Location,
    pub path: String,
    /// The value may be shown in the violation (it is not sensitive).
    pub shown: bool,
    pub convert: Convert,
}

/// What a finished check found.
#[derive(Default)]
pub(crate) struct Checked {
    /// The violations listed, in the order found.
    pub violations: Vec<Violation>,
    /// The field of the arguments each is about.
    pub fields: Vec<Option<&'static str>>,
    /// How many more were found and only counted.
    pub omitted: usize,
    /// Where sensitive values are.
    pub hidden: Vec<Location>,
    /// Where integers are written as floats (`3.0`).
    pub integral_floats: Vec<Location>,
    /// Where `null`s mean "left out".
    pub absent_nulls: Vec<Location>,
    /// The repairs made, where, with the values to put in place.
    pub repairs: Vec<(Location, Repair, Value)>,
    /// The conversions to try on the arguments as serde reads them.
    pub conversions: Vec<Conversion>,
    /// The values read under a former name of their field.
    pub renamed: Vec<Repair>,
    /// The keys to rename, in the object at the location, from the key sent to a name.
    pub restyled: Vec<(Location, String, &'static str)>,
}

/// What a rule wanted and what came, for [`Checker::report`].
#[derive(Debug)]
pub(crate) struct Report<'v> {
    /// The rule's name on the wire.
    pub rule: Cow<'static, str>,
    /// The expectation, as the start of a sentence: "must be one of ...".
    pub expectation: Cow<'v, str>,
    /// The expectation, as data.
    pub expected: Value,
    /// What came, if anything did.
    pub received: Option<&'v Value>,
    /// More to say after what came: "Current date is 30/11/2026."
    pub detail: Option<Cow<'v, str>>,
    /// What to do, written by the tool's author.
    pub hint: Option<&'v str>,
}

impl<'a> Checker<'a> {
    /// A checker judging dates against `context`.
    pub(crate) fn new(context: &'a Context) -> Self {
        Checker {
            context,
            path: Steps::new(),
            violations: Vec::new(),
            fields: Vec::new(),
            keep_fields: false,
            hidden: Vec::new(),
            omitted: 0,
            sensitive: 0,
            integral_floats: Vec::new(),
            names_listed: Vec::new(),
            optional_at: None,
            tool: None,
            specs: Vec::new(),
            nulls_are_absent: false,
            absent_nulls: Vec::new(),
            repair: false,
            repairs: Vec::new(),
            field_hint: None,
            conversions: Vec::new(),
            renamed: Vec::new(),
            restyled: Vec::new(),
            passed: 0,
        }
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

    /// From now on, known client mistakes are repaired (see [`Repair`]).
    pub(crate) fn repair_mistakes(&mut self) {
        self.repair = true;
    }

    /// The JSON of the array (`array`) or object a string `value` holds, where the check
    /// repairs that mistake; the caller checks it, then hands it to [`Checker::repaired`].
    pub(crate) fn unstringify(&self, value: &Value, array: bool) -> Option<Value> {
        let Value::String(text) = value else {
            return None;
        };
        if !self.repair {
            return None;
        }
        let first = text.trim_start().as_bytes().first().copied();
        if first != Some(if array { b'[' } else { b'{' }) {
            return None;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(parsed @ Value::Array(_)) if array => Some(parsed),
            Ok(parsed @ Value::Object(_)) if !array => Some(parsed),
            _ => None,
        }
    }

    /// `value` read as the number (`number`) or the boolean a client sent as a string
    /// of exactly its JSON (`"10"`, `"true"`), where the checker repairs that mistake.
    pub(crate) fn unstringify_scalar(&self, value: &Value, number: bool) -> Option<Value> {
        let Value::String(text) = value else {
            return None;
        };
        if !self.repair || text.trim() != text || text.is_empty() {
            return None;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(parsed @ Value::Number(_)) if number => Some(parsed),
            Ok(parsed @ Value::Bool(_)) if !number => Some(parsed),
            _ => None,
        }
    }

    /// Records that the value at the current path was repaired into `parsed`.
    pub(crate) fn repaired(&mut self, parsed: Value) {
        let repair = match &parsed {
            Value::Array(_) => Cow::Borrowed("parsed the JSON array sent as a string"),
            Value::Object(_) => Cow::Borrowed("parsed the JSON object sent as a string"),
            Value::Number(_) => Cow::Borrowed("read the number sent as a string"),
            Value::Bool(_) => Cow::Borrowed("read the boolean sent as a string"),
            // An allowed value, public in the schema: named, to send next time.
            Value::String(allowed) => Cow::Owned(format!(
                "read as {allowed:?}, the allowed value this was in another letter case; send {allowed:?}"
            )),
            Value::Null => Cow::Borrowed("read as null"),
        };
        let path = self.path();
        let at = self.location();
        self.repairs.push((at, Repair { path, repair }, parsed));
    }

    /// Runs `f` with no repairs made: where a repaired value could be read as another
    /// form than the one checked (the variants of an untagged enum, which serde picks
    /// from the value as sent).
    pub(crate) fn without_repairs<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let repair = std::mem::replace(&mut self.repair, false);
        let out = f(self);
        self.repair = repair;
        out
    }

    /// Whether known client mistakes are repaired (see `Toolbox::repairs`).
    pub(crate) fn repairs_on(&self) -> bool {
        self.repair
    }

    /// Records that the value under `key` (at the current path's object), `name` written
    /// in another case style (`departureDate`), was read as `name`: the key is renamed
    /// before serde reads the arguments.
    pub(crate) fn restyled(&mut self, key: &str, name: &'static str) {
        self.restyled.push((self.location(), key.to_owned(), name));
        self.read_as(
            key,
            format!("read as `{name}`, the argument's name in this tool's case style; send it as `{name}`"),
        );
    }

    /// Records that the value under `alias`, a former name of `name`, was read as it
    /// (serde reads a former name itself).
    pub(crate) fn renamed(&mut self, alias: &'static str, name: &'static str) {
        self.read_as(
            alias,
            format!("read as `{name}`, of which `{alias}` is a former name; send it as `{name}`"),
        );
    }

    /// Records that the value at the current path, `alias`, a former name of the
    /// allowed value `value` (`#[serde(alias)]` on an enum's variant), was read as it
    /// (serde reads a former name itself).
    pub(crate) fn read_value_as(&mut self, alias: &str, value: &'static str) {
        let path = self.path();
        self.renamed.push(Repair {
            path,
            repair: Cow::Owned(format!(
                "read as {value:?}, of which {alias:?} is a former name; send {value:?}"
            )),
        });
    }

    /// Says that the value under `key`, at the current path's object, was read under
    /// another name.
    fn read_as(&mut self, key: &str, repair: String) {
        let mark = self.enter_key(key);
        let path = self.path();
        self.leave(mark);
        self.renamed.push(Repair {
            path,
            repair: Cow::Owned(repair),
        });
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
        self.absent_nulls.push(at);
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

    /// Runs `f` on the value of a field that may be left out, serde then taking its
    /// default: a wrong `null` there is told to leave the field out.
    pub(crate) fn optional<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = self.optional_at.replace(self.path.len);
        let out = f(self);
        self.optional_at = outer;
        out
    }

    /// True the first time it is asked for `object` (a struct's name) in this check:
    /// its argument names are listed once, not with every unknown name.
    pub(crate) fn first_listing(&mut self, object: &'static str) -> bool {
        if self.names_listed.contains(&object) {
            return false;
        }
        self.names_listed.push(object);
        true
    }

    /// The clock of the date rules.
    pub(crate) fn context(&self) -> &Context {
        self.context
    }

    /// How many violations have been reported so far.
    pub(crate) fn count(&self) -> usize {
        self.violations.len() + self.omitted
    }

    /// Whether the list of violations is full, so that a new one would only be counted:
    /// callers can skip the work of describing it.
    pub(crate) fn is_full(&self) -> bool {
        self.violations.len() >= MAX_LISTED
    }

    /// The JSON pointer of the value being checked, in the names the client sent.
    pub(crate) fn path(&self) -> String {
        // Room for most pointers; a deep one grows.
        let mut pointer = String::with_capacity(32);
        for step in self.path.iter() {
            pointer.push('/');
            match (step, self.path.name(step)) {
                (_, Some(name)) => push_escaped(&mut pointer, name),
                (Step::Index(index), None) => crate::number::push_int(&mut pointer, *index as i128),
                _ => {}
            }
        }
        pointer
    }

    /// Where the value being checked is, typed.
    pub(crate) fn location(&self) -> Location {
        Location::new(
            self.path
                .iter()
                .map(|step| match (step, self.path.name(step)) {
                    (Step::Field(name), _) => Segment::Field(name),
                    (Step::Index(i), _) => Segment::Index(*i),
                    (Step::Key { .. }, name) => Segment::Key(name.unwrap_or_default().into()),
                })
                .collect(),
        )
    }

    /// True at the arguments object itself.
    pub(crate) fn is_root(&self) -> bool {
        self.path.is_empty()
    }

    /// Enters the field `name` of a struct; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_field(&mut self, name: &'static str) -> usize {
        self.path.push(Step::Field(name))
    }

    /// Enters the property `key` of a map; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_key(&mut self, key: &str) -> usize {
        let start = self.path.keys.len();
        self.path.keys.push_str(key);
        let end = self.path.keys.len();
        self.path.push(Step::Key { start, end })
    }

    /// Enters the array item `index`; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_index(&mut self, index: usize) -> usize {
        self.path.push(Step::Index(index))
    }

    /// Leaves what was entered at `mark`.
    #[inline]
    pub(crate) fn leave(&mut self, mark: usize) {
        self.path.truncate(mark);
    }

    /// Runs `f` with values echoed as hidden: for fields marked sensitive.
    pub(crate) fn sensitive<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.hide();
        self.sensitive += 1;
        let out = f(self);
        self.sensitive -= 1;
        out
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

    /// Whether the value being checked is sensitive.
    pub(crate) fn is_sensitive(&self) -> bool {
        self.sensitive > 0
    }

    /// Records that the integer at the current path is written as a float (`3.0`): valid
    /// JSON Schema, but serde wants `3`, so the value is rewritten before deserializing.
    pub(crate) fn integral_float(&mut self) {
        let at = self.location();
        self.integral_floats.push(at);
    }

    /// Reports a value of the wrong JSON type; `expected` names the right one with its
    /// article: "a string", "an integer from 1 to 9".
    pub(crate) fn type_mismatch(&mut self, expected: &str, value: &Value) {
        let detail = if !value.is_null() {
            None
        } else if self.optional_at == Some(self.path.len) {
            Some(Cow::Owned(format!(
                "Leave it out to take its default, or send {expected}."
            )))
        } else {
            Some(Cow::Owned(format!(
                "It is required: send {expected}, not null."
            )))
        };
        self.report(Report {
            rule: Cow::Borrowed("type"),
            expectation: Cow::Owned(crate::text::expectation(&["must be ", expected])),
            expected: Value::String(expected.to_owned()),
            received: Some(value),
            detail,
            // A hint is written for its rules ("remove line breaks and tabs"): a value of
            // another type, or null, is told the type, which is what there is to fix.
            hint: None,
        });
    }

    /// Checks with `hint` as the hint of the field being checked (see
    /// [`Checker::field_hint`]); gives the one it replaced, for [`Checker::end_hint`].
    pub(crate) fn begin_hint(&mut self, hint: Option<&'static str>) -> Option<&'static str> {
        std::mem::replace(&mut self.field_hint, hint)
    }

    /// The author's hint on the field being checked, if it has one.
    pub(crate) fn field_hint(&self) -> Option<&'static str> {
        self.field_hint
    }

    /// Puts back the hint [`Checker::begin_hint`] replaced.
    pub(crate) fn end_hint(&mut self, outer: Option<&'static str>) {
        self.field_hint = outer;
    }

    /// Reports a violation at the current path.
    pub(crate) fn report(&mut self, report: Report<'_>) {
        // Past the cap a violation is only counted: 100 000 bad items cost no text.
        if self.is_full() {
            self.omitted += 1;
            return;
        }
        let path = self.path();
        let short = match report.received {
            Some(value) if !self.is_sensitive() => Some(echo::truncate(value, echo::RECEIVED)),
            _ => None,
        };
        // The message is written once, into room for all of it.
        let received_len = match &short {
            Some(Value::String(s)) => s.len() + 2,
            Some(_) => 64,
            None => 48,
        };
        let rest = 8
            + received_len
            + report.detail.as_ref().map_or(0, |d| d.len() + 1)
            + report.hint.map_or(0, |h| h.len() + 1);
        // A rule's own expectation is written with room for the rest (see
        // `text::expectation`): the message goes on in it.
        let mut message = match report.expectation {
            Cow::Owned(mut text) => {
                text.truncate(text.trim_end_matches('.').len());
                text.reserve(rest);
                text
            }
            Cow::Borrowed(text) => {
                let text = text.trim_end_matches('.');
                let mut message = String::with_capacity(text.len() + rest);
                message.push_str(text);
                message
            }
        };
        let received = match report.received {
            None => None,
            Some(value) if self.is_sensitive() => {
                message.push_str("; got ");
                message.push_str(echo::json_type(value));
                message.push_str(" (not shown: the field is sensitive).");
                None
            }
            Some(value) => {
                let short = short.unwrap_or(Value::Null);
                message.push_str("; got ");
                echo::describe_into(&mut message, value, &short);
                message.push('.');
                Some(short)
            }
        };
        if report.received.is_none() {
            message.push('.');
        }
        if let Some(detail) = report.detail {
            message.push(' ');
            message.push_str(&detail);
        }
        if let Some(hint) = report.hint {
            message.push(' ');
            message.push_str(hint);
        }
        if self.keep_fields {
            let field = match self.path.iter().next() {
                Some(Step::Field(name)) => Some(*name),
                _ => None,
            };
            self.fields.push(field);
        }
        self.violations.push(Violation {
            path,
            rule: report.rule,
            message,
            expected: report.expected,
            received,
        });
    }

    /// Runs `f` as a trial: everything it reports or records is undone after. Returns
    /// how many violations it found: how far a value is from one form of a union.
    pub(crate) fn trial(&mut self, f: impl FnOnce(&mut Self)) -> usize {
        let violations = self.violations.len();
        let omitted = self.omitted;
        let floats = self.integral_floats.len();
        let nulls = self.absent_nulls.len();
        let listed = self.names_listed.len();
        let repairs = self.repairs.len();
        let renamed = self.renamed.len();
        let restyled = self.restyled.len();
        f(self);
        let found = self.violations.len() - violations + self.omitted - omitted;
        self.violations.truncate(violations);
        self.fields.truncate(violations);
        self.omitted = omitted;
        self.integral_floats.truncate(floats);
        self.absent_nulls.truncate(nulls);
        self.names_listed.truncate(listed);
        self.repairs.truncate(repairs);
        self.renamed.truncate(renamed);
        self.restyled.truncate(restyled);
        found
    }

    /// Runs `f` as a [trial](Checker::trial), and returns the messages of what it found.
    pub(crate) fn trial_messages<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Vec<String> {
        let start = self.violations.len();
        let mut messages = Vec::new();
        self.trial(|cx| {
            f(cx);
            messages = cx.violations[start..]
                .iter()
                .map(|v| v.message.clone())
                .collect();
        });
        messages
    }

    /// What the check found.
    /// Records `convert` for the value being checked, to try once the checks pass.
    pub(crate) fn convert_later(&mut self, rule: &'static str, convert: Convert) {
        let conversion = Conversion {
            rule,
            at: self.location(),
            path: self.path(),
            shown: !self.is_sensitive(),
            convert,
        };
        self.conversions.push(conversion);
    }

    pub(crate) fn finish(self) -> Checked {
        Checked {
            conversions: self.conversions,
            renamed: self.renamed,
            restyled: self.restyled,
            violations: self.violations,
            fields: self.fields,
            hidden: self.hidden,
            omitted: self.omitted,
            integral_floats: self.integral_floats,
            absent_nulls: self.absent_nulls,
            repairs: self.repairs,
        }
    }
}
