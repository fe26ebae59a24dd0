//! A derived enum of unit variants: a string with a fixed set of values.

use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::check::Checker;
use crate::describe::spec::Judge;
use crate::rules::{self, Rules};

/// A derived enum of unit variants: a string with a fixed set of values.
#[derive(Debug)]
pub struct EnumSpec {
    /// The doc comment.
    pub description: Option<&'static str>,
    /// The variants' names on the wire, after serde's renames.
    pub values: &'static [&'static str],
    /// `#[serde(alias)]` on a variant: each former name, with the value it is read as.
    /// The schema lists `values` alone; a value sent under a former name is read, and
    /// the answer says so.
    pub aliases: &'static [(&'static str, &'static str)],
    /// Each variant's doc comment (or `#[schemars(description)]`), as `values`.
    pub docs: &'static [Option<&'static str>],
    /// The enum's name, for what `extend` says of it.
    pub name: &'static str,
    /// `#[schemars(extend(...))]` on the enum: keywords added to its schema, and
    /// enforced on a value that is one of `values`.
    pub extend: Option<&'static crate::describe::extend::Extend>,
    /// Whether the enum's own `Deserialize` reads a value (`None` where it has none):
    /// [`OwnReading`]'s choice.
    pub reads: Option<fn(&Value) -> bool>,
}

/// An enum's own `Deserialize`, where it has one: `<OwnReading<T>>::READS` names the
/// inherent constant when `T: DeserializeOwned` holds, and [`NoOwnReading`]'s otherwise
/// (an enum derived for what a tool returns may not read), as
/// [`Probe`](super::probe::Probe) chooses. The derives take no generic parameters, so the
/// choice is made once, for the enum.
pub struct OwnReading<T>(PhantomData<T>);

impl<T: serde::de::DeserializeOwned> OwnReading<T> {
    /// `T`'s own reading.
    pub const READS: Option<fn(&Value) -> bool> = Some(reads::<T>);
}

fn reads<T: serde::de::DeserializeOwned>(value: &Value) -> bool {
    T::deserialize(value).is_ok()
}

/// No reading: what [`OwnReading`] gives a type that has no `Deserialize`.
pub trait NoOwnReading {
    /// None.
    const READS: Option<fn(&Value) -> bool> = None;
}

impl<T> NoOwnReading for OwnReading<T> {}

impl EnumSpec {
    /// `{"type": "string", "enum": [...]}`; where a variant has a doc comment, also
    /// `oneOf` the values, each a `const` with its variant's description, as schemars
    /// writes it. The `enum` stays beside it for the clients that read no `oneOf`; a
    /// profile that takes no `oneOf` gets it as `anyOf`, or in words
    /// (`profile/mod.rs`).
    pub fn schema(&self, rules: Rules) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".into(), "string".into());
        schema.insert("enum".into(), self.values.into());
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        if self.docs.iter().any(Option::is_some) {
            let forms = self.values.iter().zip(self.docs).map(|(value, doc)| {
                let mut form = Map::new();
                form.insert("type".into(), "string".into());
                form.insert("const".into(), (*value).into());
                if let Some(doc) = doc {
                    form.insert("description".into(), (*doc).into());
                }
                Value::Object(form)
            });
            schema.insert("oneOf".into(), forms.collect());
        }
        if let Some(extend) = self.extend {
            extend.advertise(&mut schema, self.name);
        }
        rules::apply_schema(rules.own, rules::JsonType::String, &mut schema);
        schema
    }

    /// Checks that `value` is one of the values; suggests the nearest when not.
    pub fn check(&self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let Value::String(s) = value else {
            let expected = self
                .values
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            cx.type_mismatch(&format!("one of {expected}"), value);
            return false;
        };
        if !self.values.contains(&s.as_str()) {
            // A former name is read as serde reads it, repairs or not, as a field's
            // former name is: the author declared it; the answer says to send the value.
            if let Some(&(alias, allowed)) =
                self.aliases.iter().find(|(alias, _)| *alias == s.as_str())
            {
                cx.read_value_as(alias, allowed);
                return self.check(&Value::from(allowed), rules, cx);
            }
            if let Some(allowed) = rules::case_repair(self.values, s, cx) {
                let allowed = Value::from(allowed);
                return cx.repairing(allowed, |allowed, cx| self.check(allowed, rules, cx));
            }
            // A name the enum's own `Deserialize` reads though the schema lists it not
            // ("full" for "Full"): a reading the author wrote, since serde's derived
            // one reads the listed names and their aliases alone. Taken, as the server
            // took it before it derived the enum; the rest is judged as of a name.
            if !self.reads.is_some_and(|reads| reads(value)) {
                rules::one_of_failure(self.values, s, !cx.is_sensitive())
                    .report(cx, value, None, None);
                return false;
            }
        }
        if let Some(extend) = self.extend {
            let before = cx.count();
            extend.judge(value, self.name, cx);
            if cx.count() != before {
                return false;
            }
        }
        rules::check(rules.own, value, cx);
        true
    }

    /// [`Argument::passes`](crate::Argument::passes): one of the values as written,
    /// passing the field's rules (a former name has its reading to report).
    pub fn passes(&self, value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        self.extend.is_none()
            && value.as_str().is_some_and(|s| self.values.contains(&s))
            && rules::pass(rules.own, value, judge.context)
    }
}
