//! The schema of a derived struct: its object schema, built once, a recursive struct
//! inlined level by level; the tool entry; a field's property schema.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::profile::SchemaProfile;
use super::spec::{Field, Plan, Reshape, Tool, ToolSpec};
use super::types::schemars_type;
use super::walk::{Place, Walk};
use crate::rules::{self, Rules};
use crate::text::push_sentence;

impl ToolSpec {
    /// What this struct is, built once: its schema in every profile, its tool entry,
    /// the lookup of its fields and whether it holds itself, all from one walk of its
    /// schema.
    pub(crate) fn plan(&'static self) -> &'static Plan {
        self.cache.plan.get_or_init(|| self.build_plan())
    }

    /// Out of line: every check reads the plan, and only the first builds it.
    #[cold]
    #[inline(never)]
    fn build_plan(&'static self) -> Plan {
        let mut walk = Walk::new();
        let schema = Value::Object(walk.building(self.id(), |walk| self.build_schema(walk)));
        let recursive = walk.recurs(self.id()) || self.union.is_some_and(|u| walk.recurs(u.id()));
        let property = |name: &str| schema.get("properties")?.get(name)?.as_object();
        let summaries: Box<[String]> = self
            .fields
            .iter()
            .map(|f| {
                property(f.name).map_or_else(
                    || "a value".to_owned(),
                    |p| summarize(p, f.hint().is_none()),
                )
            })
            .collect();
        let advice = (self.fields.iter().zip(&summaries))
            .map(|(field, summary)| {
                let mut advice = format!("Send {summary}.");
                if let Some(hint) = field.hint() {
                    push_sentence(&mut advice, hint);
                }
                advice
            })
            .collect();
        let mut by_name: Vec<usize> = (0..self.fields.len()).collect();
        by_name.sort_by_key(|&i| self.fields[i].name);
        let root_names = match self.union {
            Some(union) => union.root_names(&schema),
            None => Box::default(),
        };
        let [_, rest @ ..] = SchemaProfile::ALL;
        let profiles = rest.map(|profile| profile.adapt(&schema));
        let tool = Tool {
            name: self.name.into(),
            title: self.title.map(Into::into),
            description: self.description.map(Into::into),
            input_schema: schema.clone(),
            output_schema: None,
            annotations: self.annotations,
            execution: crate::task_support::Execution::of(self.task_support),
        };
        Plan {
            schema,
            profiles,
            tool,
            by_name: by_name.into_boxed_slice(),
            summaries,
            advice,
            names: self.collect_names(),
            root_names,
            valid_walk: self.admits_valid_walk(recursive),
            required: self.fields.iter().filter(|f| f.required).count(),
            required_bits: (self.fields.iter().enumerate())
                .filter(|(_, f)| f.required)
                .fold(0, |bits, (i, _)| bits | crate::check::Checker::field_bit(i)),
            recursive,
        }
    }

    /// The object schema of this struct: `type`, `properties`, `required`,
    /// `additionalProperties`. Built once.
    pub fn object_schema(&'static self) -> &'static Value {
        &self.plan().schema
    }

    /// The object schema of this struct where it stands in `walk`: a struct that holds
    /// itself is inlined again, level by level, and past
    /// [`MAX_RECURSION`](super::walk::MAX_RECURSION) levels it is cut (`None`).
    fn nested_schema(&'static self, walk: &mut Walk) -> Option<Map<String, Value>> {
        match walk.place(self.id()) {
            Place::Alone => match self.object_schema() {
                Value::Object(map) => Some(map.clone()),
                _ => None,
            },
            Place::Nested => Some(walk.building(self.id(), |walk| self.build_schema(walk))),
            Place::TooDeep => None,
        }
    }

    /// The object schema, built in `walk`, this struct standing inside it.
    fn build_schema(&'static self, walk: &mut Walk) -> Map<String, Value> {
        if let Some(union) = self.union {
            return union.root_schema(walk);
        }
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
                        rest =
                            (field.ty.schema)(field.rules(), walk).remove("additionalProperties");
                    }
                }
                continue;
            }
            // A field whose value would nest past the limit is left out: with
            // `additionalProperties: false`, sending it is invalid, as the runtime says.
            let (property, cut) = walk.reaches_cut(|walk| field.schema(walk));
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
        self.advertise_across(&mut schema);
        if let Some(extend) = self.extend {
            extend.advertise(&mut schema, self.name);
        }
        schema
    }

    /// The tool's `inputSchema`. Built once; later calls return the same value.
    pub fn input_schema(&'static self) -> &'static Value {
        self.object_schema()
    }

    /// The tool's `inputSchema` in `profile`'s form. Built once.
    pub fn input_schema_for(&'static self, profile: SchemaProfile) -> &'static Value {
        match profile.index().checked_sub(1) {
            None => self.object_schema(),
            Some(i) => &self.plan().profiles[i],
        }
    }

    /// The tool as `tools/list` lists it. Built once.
    pub fn tool(&'static self) -> &'static Tool {
        &self.plan().tool
    }

    /// The schema of this struct as a field's type, where it stands in `walk`: the
    /// object schema with the struct's doc comment as description, and the notes of
    /// custom `rules`.
    pub fn field_schema(&'static self, rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        let Some(mut schema) = self.nested_schema(walk) else {
            return Map::new();
        };
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        if let Some(title) = self.title {
            schema.insert("title".into(), title.into());
        }
        rules::apply_schema(rules.own, rules::JsonType::Other, &mut schema);
        schema
    }

    /// The fields' indices in the order of their names, the order of a JSON map's keys.
    pub(super) fn by_name(&'static self) -> &'static [usize] {
        &self.plan().by_name
    }

    /// The schema of field `index` in a few words: "a string (Departure airport)".
    pub(super) fn summary(&'static self, index: usize) -> &'static str {
        &self.plan().summaries[index]
    }

    /// What field `index`, not sent, is told to do: "Send a string (Departure
    /// airport).", and the author's hint.
    pub(super) fn advice(&'static self, index: usize) -> &'static str {
        &self.plan().advice[index]
    }

    /// The names the root object of an enum with data lists (see `check_root`).
    pub(super) fn root_names(&'static self) -> &'static [&'static str] {
        &self.plan().root_names
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
    pub fn schema(&self, walk: &mut Walk) -> Map<String, Value> {
        let mut schema = (self.ty.schema)(self.rules(), walk);
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
        if let Some(reshape) = self.reshape {
            // An `Option`'s: changes to its value's schema, beside the `null`.
            let target = match schema.get_mut("anyOf") {
                Some(Value::Array(branches))
                    if branches.len() == 2
                        && branches[1] == serde_json::json!({"type": "null"}) =>
                {
                    branches[0].as_object_mut()
                }
                _ => None,
            };
            match target {
                Some(value) => (reshape.apply)(value),
                None => (reshape.apply)(&mut schema),
            }
            // A keyword the judge cannot enforce stops the server here, as the schema
            // of a tool that holds this field, at any depth, is first built (where its
            // tools are registered or listed), not at the first call.
            reshape.vet(&schema, self.name);
        }
        schema
    }

    /// The reshaped schema a value of this field is judged against (see [`Reshape`]),
    /// made portable once. A keyword the judge cannot enforce stops the server at its
    /// start: advertised and not enforced is what this crate never does.
    pub(crate) fn reshaped(&self, reshape: &Reshape) -> &'static Value {
        reshape.judged.get_or_init(|| {
            let schema = Value::Object(self.schema(&mut Walk::new()));
            schemars_type::enforceable(schema, self.name)
        })
    }
}

impl Reshape {
    /// The changes `apply` makes, the schema they make kept in `judged`.
    pub const fn new(apply: fn(&mut Map<String, Value>), judged: &'static OnceLock<Value>) -> Self {
        Reshape {
            apply,
            judged,
            schema: Field::reshaped,
            judge: schemars_type::judge,
            vet: schemars_type::vet,
        }
    }
}

/// A property schema in a few words: "a string (Departure airport, IATA code.)". Its
/// pattern is said unless the author's `hint` says it better: a raw regex is no
/// advice.
pub(super) fn summarize(schema: &Map<String, Value>, with_pattern: bool) -> String {
    let mut out = match schema.get("enum").and_then(Value::as_array) {
        Some(values) => format!(
            "one of {}",
            values
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => match schema.get("type").and_then(Value::as_str) {
            Some("string") => "a string".to_owned(),
            Some("integer") => "an integer".to_owned(),
            Some("number") => "a number".to_owned(),
            Some("boolean") => "true or false".to_owned(),
            Some("array") => "an array".to_owned(),
            Some("object") => "an object".to_owned(),
            _ => "a value".to_owned(),
        },
    };
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && with_pattern
    {
        out.push_str(&format!(" matching {pattern}"));
    }
    if let Some(description) = schema.get("description").and_then(Value::as_str) {
        // As the author wrote it: a name or an acronym ("S3 object key") keeps its case.
        let description = description.trim_end_matches('.');
        if !description.is_empty() {
            out.push_str(" (");
            out.push_str(description);
            out.push(')');
        }
    }
    out
}
