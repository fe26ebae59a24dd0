//! The schema of a derived struct: its object schema, built once, a recursive struct
//! inlined level by level; the tool entry; a field's property schema.

use serde_json::{Map, Value};

use super::cut::{self, Place, reaches_cut};
use super::profile::SchemaProfile;
use super::{Field, Tool, ToolSpec};
use crate::rules::{self, Rules};
use crate::text::push_sentence;

impl ToolSpec {
    /// The object schema of this struct: `type`, `properties`, `required`,
    /// `additionalProperties`. Built once.
    pub fn object_schema(&'static self) -> &'static Value {
        self.cache
            .schema
            .get_or_init(|| Value::Object(self.build_schema()))
    }

    /// The object schema of this struct where it stands inside the structs being built:
    /// a struct that holds itself is inlined again, level by level, and past
    /// [`MAX_RECURSION`](super::MAX_RECURSION) levels it is cut (`None`).
    fn nested_schema(&'static self) -> Option<Map<String, Value>> {
        match cut::place(self.id()) {
            Place::Alone => match self.object_schema() {
                Value::Object(map) => Some(map.clone()),
                _ => None,
            },
            Place::Nested => Some(self.build_schema()),
            Place::TooDeep => None,
        }
    }

    fn build_schema(&'static self) -> Map<String, Value> {
        if let Some(union) = self.union {
            return union.root_schema();
        }
        cut::building(self.id(), &self.cache.recursive, || {
            let mut schema = Map::new();
            schema.insert("type".into(), "object".into());
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut rest = None;
            for field in self.fields {
                if field.flatten {
                    // Its struct's properties stand here; a map's values take the rest.
                    match (field.ty.object)() {
                        Some(spec) => flatten_into(spec, &mut properties, &mut required),
                        None => {
                            rest = (field.ty.schema)(field.rules).remove("additionalProperties");
                        }
                    }
                    continue;
                }
                // A field whose value would nest past the limit is left out: with
                // `additionalProperties: false`, sending it is invalid, as the runtime says.
                let (property, cut) = reaches_cut(|| field.schema());
                if !cut {
                    properties.insert(field.name.into(), Value::Object(property));
                } else if field.ty.optional {
                    // Its `None` nests nothing, and stays allowed.
                    properties.insert(field.name.into(), serde_json::json!({"type": "null"}));
                }
                if field.required {
                    required.push(Value::from(field.name));
                }
            }
            schema.insert("properties".into(), Value::Object(properties));
            if !required.is_empty() {
                schema.insert("required".into(), Value::Array(required));
            }
            match rest {
                Some(values) => {
                    schema.insert("additionalProperties".into(), values);
                }
                None if !self.allow_unknown_fields => {
                    schema.insert("additionalProperties".into(), false.into());
                }
                None => {}
            }
            schema
        })
    }

    /// The tool's `inputSchema`. Built once; later calls return the same value.
    pub fn input_schema(&'static self) -> &'static Value {
        self.object_schema()
    }

    /// The tool's `inputSchema` in `profile`'s form. Built once per profile.
    pub fn input_schema_for(&'static self, profile: SchemaProfile) -> &'static Value {
        match profile.index().checked_sub(1) {
            None => self.object_schema(),
            Some(i) => self.cache.profiles[i].get_or_init(|| profile.adapt(self.object_schema())),
        }
    }

    /// The tool as `tools/list` lists it. Built once.
    pub fn tool(&'static self) -> &'static Tool {
        self.cache.tool.get_or_init(|| Tool {
            name: self.name.into(),
            title: self.title.map(Into::into),
            description: self.description.map(Into::into),
            input_schema: self.input_schema().clone(),
            output_schema: None,
            annotations: self.annotations,
        })
    }

    /// The schema of this struct as a field's type: the object schema with the
    /// struct's doc comment as description, and the notes of custom `rules`.
    pub fn field_schema(&'static self, rules: Rules) -> Map<String, Value> {
        let Some(mut schema) = self.nested_schema() else {
            return Map::new();
        };
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        if let Some(title) = self.title {
            schema.insert("title".into(), title.into());
        }
        rules::apply_schema(rules.own, rules::Kind::Other, &mut schema);
        schema
    }

    pub(super) fn property(&'static self, name: &str) -> Option<&'static Map<String, Value>> {
        self.object_schema()
            .get("properties")?
            .get(name)?
            .as_object()
    }
}

/// The properties and required names of the flattened struct `spec`, added to those of
/// the struct it stands in.
fn flatten_into(
    spec: &'static ToolSpec,
    properties: &mut Map<String, Value>,
    required: &mut Vec<Value>,
) {
    let schema = spec.object_schema();
    if let Some(Value::Object(theirs)) = schema.get("properties") {
        for (name, property) in theirs {
            properties.insert(name.clone(), property.clone());
        }
    }
    if let Some(Value::Array(names)) = schema.get("required") {
        required.extend(names.iter().cloned());
    }
}

impl Field {
    /// The property schema: the type's, with the rules applied and the doc comment
    /// before any rule notes.
    pub fn schema(&self) -> Map<String, Value> {
        let mut schema = (self.ty.schema)(self.rules);
        if let Some(doc) = self.description {
            let mut text = doc.to_owned();
            if let Some(notes) = schema.get("description").and_then(Value::as_str) {
                push_sentence(&mut text, notes);
            }
            schema.insert("description".into(), text.into());
        }
        if let Some(value) = self.default.and_then(|default| default()) {
            schema.insert("default".into(), value);
        }
        if let Some(title) = self.title {
            schema.insert("title".into(), title.into());
        }
        if let Some(examples) = self.examples {
            schema.insert("examples".into(), Value::Array(examples()));
        }
        if self.deprecated {
            schema.insert("deprecated".into(), true.into());
        }
        schema
    }
}
