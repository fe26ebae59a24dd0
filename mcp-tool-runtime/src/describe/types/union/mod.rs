//! A derived enum with data: one of several forms, in one of serde's four
//! representations. As a field's type its schema is the `anyOf` of the forms; as a whole
//! tool's arguments it is one object (a portable root takes no union) whose description
//! says which properties go with which form. Its check finds the form the way serde does
//! (by the tag, or for an untagged enum by asking serde), checks that form's fields at
//! their full paths, and names a wrong tag with the nearest right one.

mod check;
mod schema;

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::shapes;
use crate::check::{Checker, Report, SpecId};
use crate::describe::spec::{ArgType, RootUnion, ToolSpec};
use crate::describe::walk::Walk;
use crate::rules::Rules;

impl RootUnion for UnionSpec {
    fn id(&'static self) -> SpecId {
        UnionSpec::id(self)
    }

    fn check_root(
        &'static self,
        value: &Value,
        names: &[&'static str],
        cx: &mut Checker<'_>,
    ) -> bool {
        UnionSpec::check_root(self, value, names, cx)
    }

    fn root_names(&'static self, root: &Value) -> Box<[&'static str]> {
        UnionSpec::root_names(self, root)
    }

    fn root_schema(&'static self, walk: &mut Walk) -> Map<String, Value> {
        UnionSpec::root_schema(self, walk)
    }
}

/// A derived enum with data.
#[derive(Debug)]
pub struct UnionSpec {
    /// The enum's name, for messages.
    pub name: &'static str,
    /// The doc comment.
    pub description: Option<&'static str>,
    /// How serde writes a variant.
    pub repr: Repr,
    /// The variants serde reads, in declaration order.
    pub variants: &'static [Variant],
    /// For an untagged enum, the variant serde reads a value as (`None`: no variant).
    pub which: Option<fn(&Value) -> Option<usize>>,
    /// `#[schemars(extend(...))]` on the enum as a field's type: keywords added beside
    /// its forms, and enforced on a value one of them takes.
    pub extend: Option<&'static crate::describe::extend::Extend>,
    /// Built once per process.
    pub cache: UnionCache,
}

/// serde's representation of an enum.
#[derive(Debug, Clone, Copy)]
pub enum Repr {
    /// `{"Variant": ...}`, and a unit variant as the string `"Variant"`.
    External,
    /// `#[serde(tag = "...")]`: the tag beside the variant's fields.
    Internal {
        /// The tag's name.
        tag: &'static str,
    },
    /// `#[serde(tag = "...", content = "...")]`.
    Adjacent {
        /// The tag's name.
        tag: &'static str,
        /// The content's name.
        content: &'static str,
    },
    /// `#[serde(untagged)]`: the first variant serde can read.
    Untagged,
}

/// One variant.
#[derive(Debug)]
pub struct Variant {
    /// Its name on the wire (the tag's value), after serde's renames.
    pub name: &'static str,
    /// Its doc comment.
    pub description: Option<&'static str>,
    /// What it holds.
    pub shape: Shape,
}

/// What a variant holds.
#[derive(Debug)]
pub enum Shape {
    /// Nothing.
    Unit,
    /// One value, with the rules of its field.
    Newtype(ArgType, Rules),
    /// Several values in order.
    Tuple(&'static [(ArgType, Rules)]),
    /// Named fields, described as a struct of their own.
    Struct(&'static ToolSpec),
}

/// What a [`UnionSpec`] is as a field's type, built once, on first use: its schema,
/// and whether it holds itself, from one walk.
#[derive(Debug)]
pub struct UnionCache {
    plan: OnceLock<UnionPlan>,
}

#[derive(Debug)]
struct UnionPlan {
    schema: Map<String, Value>,
    recursive: bool,
}

impl UnionCache {
    /// An empty cache.
    pub const fn new() -> Self {
        UnionCache {
            plan: OnceLock::new(),
        }
    }
}

impl Default for UnionCache {
    fn default() -> Self {
        UnionCache::new()
    }
}

impl Variant {
    /// The description of the struct whose fields the variant holds: its own, or its
    /// newtype's.
    fn spec(&self) -> Option<&'static ToolSpec> {
        match &self.shape {
            Shape::Struct(spec) => Some(*spec),
            Shape::Newtype(ty, _) => (ty.object)(),
            _ => None,
        }
    }

    /// The object schema of a variant that is an object (a struct, or a newtype of
    /// one), for an internal tag to stand beside its fields.
    fn object_schema(&self, walk: &mut Walk) -> Option<Map<String, Value>> {
        match &self.shape {
            Shape::Struct(spec) => spec.field_schema(Rules::NONE, walk).into(),
            Shape::Newtype(ty, rules) => {
                let schema = (ty.schema)(*rules, walk);
                (schema.get("type").and_then(Value::as_str) == Some("object")).then_some(schema)
            }
            _ => None,
        }
        .filter(|schema| !schema.is_empty())
    }

    /// The schema of what the variant holds.
    fn content_schema(&self, walk: &mut Walk) -> Map<String, Value> {
        match &self.shape {
            Shape::Unit => json_map(json!({"type": "null"})),
            Shape::Newtype(ty, rules) => (ty.schema)(*rules, walk),
            Shape::Tuple(items) => shapes::tuple_schema(
                items
                    .iter()
                    .map(|(ty, r)| (ty.schema)(*r, &mut *walk))
                    .collect(),
                Rules::NONE,
            ),
            Shape::Struct(spec) => spec.field_schema(Rules::NONE, walk),
        }
    }

    /// Checks what the variant holds: `value` at the current path.
    fn check_content(&self, value: &Value, cx: &mut Checker<'_>) {
        match &self.shape {
            Shape::Unit => {
                if !value.is_null() {
                    cx.type_mismatch("null (this form holds nothing)", value);
                }
            }
            Shape::Newtype(ty, rules) => {
                (ty.check)(value, *rules, cx);
            }
            Shape::Tuple(items) => {
                let Some(values) = shapes::exactly(value, items.len(), cx) else {
                    return;
                };
                for (i, ((ty, rules), item)) in items.iter().zip(values).enumerate() {
                    let mark = cx.enter_index(i);
                    (ty.check)(item, *rules, cx);
                    cx.leave(mark);
                }
            }
            Shape::Struct(spec) => {
                spec.check(value, cx);
            }
        }
    }

    /// Checks a variant whose fields stand beside the tag `tag` in `map`.
    fn check_beside(
        &self,
        tag: &str,
        map: &Map<String, Value>,
        value: &Value,
        others: &[&str],
        cx: &mut Checker<'_>,
    ) {
        match &self.shape {
            Shape::Unit => {
                for (key, v) in map {
                    if v.is_null() && cx.nulls_are_absent() && others.contains(&key.as_str()) {
                        let mark = cx.enter_key(key);
                        cx.absent_null();
                        cx.leave(mark);
                    } else if key != tag {
                        let mark = cx.enter_key(key);
                        let expectation = format!("is not a property of the {:?} form", self.name);
                        cx.report(Report {
                            rule: Cow::Borrowed("unknown"),
                            expectation: Cow::Owned(expectation),
                            expected: Value::Null,
                            received: Some(v),
                            detail: Some(Cow::Borrowed("It holds nothing but the tag: remove it.")),
                            hint: None,
                        });
                        cx.leave(mark);
                    }
                }
            }
            Shape::Struct(spec) => spec.check_members(map, cx, &[tag], others),
            Shape::Newtype(..) => match self.spec() {
                Some(spec) => spec.check_members(map, cx, &[tag], others),
                None => self.check_content(value, cx),
            },
            Shape::Tuple(_) => self.check_content(value, cx),
        }
    }
}

fn json_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `{"type": "string", "enum": [name]}`: a tag's value.
fn tag_schema(names: &[&str]) -> Value {
    json!({"type": "string", "enum": names})
}

impl UnionSpec {
    pub(crate) fn id(&'static self) -> SpecId {
        std::ptr::from_ref(self) as SpecId
    }

    fn names(&self) -> Vec<&'static str> {
        self.variants.iter().map(|v| v.name).collect()
    }

    fn variant(&self, name: &str) -> Option<&'static Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The names of the forms that hold nothing (`unit`), or of the others.
    fn forms(&self, unit: bool) -> Vec<&'static str> {
        self.variants
            .iter()
            .filter(|v| matches!(v.shape, Shape::Unit) == unit)
            .map(|v| v.name)
            .collect()
    }

    /// Whether a form that holds nothing (`unit`), or another, is named `name` (any
    /// name, for `None`).
    fn has_form(&self, name: Option<&str>, unit: bool) -> bool {
        self.variants
            .iter()
            .any(|v| matches!(v.shape, Shape::Unit) == unit && name.is_none_or(|n| n == v.name))
    }

    /// Whether this enum holds itself, directly or through others.
    fn is_recursive(&'static self) -> bool {
        self.plan().recursive
    }
}
