//! `#[schemars(extend("keyword" = value, ...))]` on a struct, a newtype or an enum:
//! keywords added to its schema, advertised, and enforced by the interpreter of
//! schemars schemas on a value whose own checks (its fields', a newtype's value's, an
//! enum's forms') pass. A keyword the derived schema says otherwise (a `type`, its
//! `properties`) would advertise what serde does not read, and one the interpreter
//! cannot enforce would advertise what nothing keeps: either stops the server where the
//! schema is first built, as a field's `extend` does.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::check::Checker;

/// The keywords a type's `#[schemars(extend(...))]` adds to its schema.
/// Made by `Extend::new`, beside the interpreter it points to (`types/schemars_type.rs`).
#[derive(Debug)]
pub struct Extend {
    pub(super) apply: fn(&mut Map<String, Value>),
    /// The added keywords alone, as a schema the interpreter judges: the rest of the
    /// struct's schema is the struct's own checks'.
    pub(super) judged: OnceLock<Value>,
    /// The interpreter of schemars schemas, reached through these pointers, which only
    /// a struct with `extend` holds: a server without one links none of it (nor the
    /// `regex` it matches patterns with).
    pub(super) enforceable: fn(Value, &str) -> Value,
    pub(super) judge: fn(&Value, &Value, &mut Checker<'_>),
}

impl Extend {
    /// Adds the keywords to `schema`, the derived schema of the struct `name`.
    ///
    /// # Panics
    ///
    /// Where a keyword says otherwise than the derived schema, or cannot be enforced.
    pub(crate) fn advertise(&self, schema: &mut Map<String, Value>, name: &str) {
        let added = self.added();
        for (key, value) in added {
            if let Some(derived) = schema.get(&key)
                && *derived != value
            {
                panic!(
                    "mcp-tool: #[schemars(extend(\"{key}\" = {value}))] on `{name}` says otherwise than the schema of what serde reads ({derived}): the model would be told what the server does not take. Remove it, or change the struct"
                );
            }
            schema.insert(key, value);
        }
        self.judged(name);
    }

    /// Judges `value`, an object whose fields passed, against the added keywords.
    pub(crate) fn judge(&self, value: &Value, name: &str, cx: &mut Checker<'_>) {
        (self.judge)(self.judged(name), value, cx);
    }

    fn added(&self) -> Map<String, Value> {
        let mut added = Map::new();
        (self.apply)(&mut added);
        added
    }

    fn judged(&self, name: &str) -> &Value {
        self.judged
            .get_or_init(|| (self.enforceable)(Value::Object(self.added()), name))
    }
}
