//! A derived newtype: one value of another type with rules of its own, defined once and
//! used by every tool (`struct Port(u16)` in 1024..=65534, `struct OrderId(String)` with
//! its pattern). serde reads the inner type (a tuple struct of one field,
//! `#[serde(transparent)]`, or `#[serde(from/try_from = "T")]`), so the schema is the
//! inner type's with the newtype's rules, and so is the check.

use serde_json::{Map, Value};

use crate::check::Checker;
use crate::describe::spec::ArgType;
use crate::describe::walk::Walk;
use crate::rules::{self, Rules};

/// What the description says of a value read through a conversion that may refuse it.
const CONVERTS: &str = "The server may refuse some values this schema allows, saying why.";

/// A derived newtype.
#[derive(Debug)]
pub struct Newtype {
    /// The doc comment.
    pub description: Option<&'static str>,
    /// `#[mcp_tool(title)]`.
    pub title: Option<&'static str>,
    /// `#[validate(sensitive)]`: its values are never echoed.
    pub sensitive: bool,
    /// A reading that may refuse a value of the inner type, tried on the value as the
    /// newtype so that its refusal is known where the value is (see
    /// `__private::converts`), with the rule it is reported under: `try_from` for
    /// `#[serde(try_from = "T")]`, `deserialize` for a type whose own `Deserialize`
    /// reads its one field's value (`#[schemars(transparent)]`).
    pub converts: Option<(&'static str, crate::check::Convert)>,
    /// The newtype's name, for what `extend` says of it.
    pub name: &'static str,
    /// `#[schemars(extend(...))]` on the newtype: keywords added to its schema, and
    /// enforced on a value that passes the rest.
    pub extend: Option<&'static crate::describe::extend::Extend>,
    /// The type serde reads.
    pub ty: ArgType,
    /// The newtype's own rules.
    pub rules: Rules,
}

impl Newtype {
    /// The inner type's schema with the newtype's rules, then a field's `rules`.
    pub fn schema(&self, rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        let mut schema = (self.ty.schema)(self.rules, walk);
        if let Some(extend) = self.extend {
            extend.advertise(&mut schema, self.name);
        }
        if let Some(title) = self.title {
            schema.insert("title".into(), title.into());
        }
        if let Some(doc) = self.description {
            let mut text = doc.to_owned();
            if let Some(Value::String(notes)) = schema.remove("description") {
                crate::text::push_sentence(&mut text, &notes);
            }
            schema.insert("description".into(), text.into());
        }
        let kind = match schema.get("type").and_then(Value::as_str) {
            Some("string") => rules::JsonType::String,
            Some("integer" | "number") => rules::JsonType::Number,
            Some("array") => rules::JsonType::Array,
            _ => rules::JsonType::Other,
        };
        rules::apply_schema(rules.own, kind, &mut schema);
        if self.converts.is_some() {
            let mut text = match schema.remove("description") {
                Some(Value::String(s)) => s,
                _ => String::new(),
            };
            crate::text::push_sentence(&mut text, CONVERTS);
            schema.insert("description".into(), text.into());
        }
        schema
    }

    /// Checks the inner value with the newtype's rules, then a field's `rules`.
    pub fn check(&self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let check = |cx: &mut Checker<'_>| {
            let before = cx.count();
            let typed = (self.ty.check)(value, self.rules, cx);
            if typed && cx.count() == before {
                if let Some(extend) = self.extend {
                    extend.judge(value, self.name, cx);
                }
                rules::check(rules.own, value, cx);
                // Tried on the value as serde will read it, once every check passed.
                if let Some((rule, convert)) = self.converts {
                    cx.convert_later(rule, convert);
                }
            }
            typed
        };
        if self.sensitive {
            cx.sensitive(check)
        } else {
            check(cx)
        }
    }
}
