//! The repair policy: which known client mistakes the checker reads as what was meant
//! (an array, object, number or boolean sent as a string of its JSON, an allowed value
//! in another letter case, a field under a former name or in another case style), and
//! how each is recorded to be said and put in place.

use std::borrow::Cow;

use serde_json::Value;

use super::Checker;
use super::findings::Finding;
use crate::result::Repair;

impl Checker<'_> {
    /// From now on, known client mistakes are repaired (see [`Repair`]).
    pub(crate) fn repair_mistakes(&mut self) {
        self.repair = true;
    }

    /// Whether known client mistakes are repaired (see `Toolbox::repairs`).
    pub(crate) fn repairs_on(&self) -> bool {
        self.repair
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

    /// The JSON of the array (`array`) or object a string `value` holds, where the check
    /// repairs that mistake; the caller hands it to [`Checker::repairing`].
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

    /// Records that the value at the current path is repaired into `parsed`, then checks
    /// `parsed` with `check`: what the check finds in it is recorded after the repair,
    /// so the read puts the repaired value in place before it fixes anything inside.
    pub(crate) fn repairing<R>(
        &mut self,
        parsed: Value,
        check: impl FnOnce(&Value, &mut Self) -> R,
    ) -> R {
        let index = self.findings.next_index();
        self.record_repair(Value::Null, said(&parsed, self.is_sensitive()));
        let out = check(&parsed, self);
        self.findings.set_repaired(index, parsed);
        out
    }

    /// Records that the value at the current path was repaired into `parsed`, a value
    /// with nothing inside it to check (an allowed value in another letter case).
    pub(crate) fn repaired(&mut self, parsed: Value) {
        let repair = said(&parsed, self.is_sensitive());
        self.record_repair(parsed, repair);
    }

    fn record_repair(&mut self, value: Value, repair: Cow<'static, str>) {
        let path = self.path();
        let at = self.location();
        self.findings.push(Finding::Repaired {
            at,
            repair: Repair { path, repair },
            value,
        });
    }

    /// Records that the value under `key` (at the current path's object), `name` written
    /// in another case style (`departureDate`), was read as `name`: the key is renamed
    /// before serde reads the arguments.
    pub(crate) fn restyled(&mut self, key: &str, name: &'static str) {
        let parent = self.location();
        self.findings.push(Finding::Restyled {
            parent,
            key: key.to_owned(),
            name,
        });
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
        // The value sent, and the allowed one it names: not said of a value not shown.
        let repair = if self.is_sensitive() {
            Cow::Borrowed("read as the allowed value of which the value sent is a former name")
        } else {
            Cow::Owned(format!(
                "read as {value:?}, of which {alias:?} is a former name; send {value:?}"
            ))
        };
        self.findings
            .push(Finding::Renamed(Repair { path, repair }));
    }

    /// Says that the value under `key`, at the current path's object, was read under
    /// another name.
    fn read_as(&mut self, key: &str, repair: String) {
        let mark = self.enter_key(key);
        let path = self.path();
        self.leave(mark);
        self.findings.push(Finding::Renamed(Repair {
            path,
            repair: Cow::Owned(repair),
        }));
    }
}

/// What a repair into `parsed` is said to have done; `hidden`, of a value not shown,
/// which names no value (an allowed value named is the one that was sent, but for
/// its letter case).
fn said(parsed: &Value, hidden: bool) -> Cow<'static, str> {
    match parsed {
        Value::String(_) if hidden => {
            Cow::Borrowed("read as the allowed value this was in another letter case")
        }
        Value::Array(_) => Cow::Borrowed("parsed the JSON array sent as a string"),
        Value::Object(_) => Cow::Borrowed("parsed the JSON object sent as a string"),
        Value::Number(_) => Cow::Borrowed("read the number sent as a string"),
        Value::Bool(_) => Cow::Borrowed("read the boolean sent as a string"),
        // An allowed value, public in the schema: named, to send next time.
        Value::String(allowed) => Cow::Owned(format!(
            "read as {allowed:?}, the allowed value this was in another letter case; send {allowed:?}"
        )),
        Value::Null => Cow::Borrowed("read as null"),
    }
}
