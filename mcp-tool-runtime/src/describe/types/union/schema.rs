//! The schemas of an enum with data: as a field's type, the `anyOf` of its forms; as a
//! whole tool's arguments, one object of every form's properties, each saying which forms
//! it goes with.

use serde_json::{Map, Value, json};

use super::{Repr, Shape, UnionPlan, UnionSpec, Variant, json_map, tag_schema};
use crate::describe::walk::{Place, Walk};
use crate::rules::{self, Rules};

impl UnionSpec {
    /// The schema of one variant as the union's branch, `None` where it would nest a
    /// recursive type too deep.
    fn branch(&'static self, variant: &Variant, walk: &mut Walk) -> Option<Map<String, Value>> {
        let (mut branch, cut) = walk.reaches_cut(|walk| match self.repr {
            Repr::External => {
                let mut properties = Map::new();
                properties.insert(
                    variant.name.into(),
                    Value::Object(variant.content_schema(walk)),
                );
                json_map(json!({
                    "type": "object",
                    "properties": properties,
                    "required": [variant.name],
                    "additionalProperties": false,
                }))
            }
            Repr::Internal { tag } => {
                let mut object = variant
                    .object_schema(walk)
                    .unwrap_or_else(|| json_map(json!({"type": "object", "properties": {}})));
                with_tag(&mut object, tag, variant.name);
                if matches!(variant.shape, Shape::Unit) {
                    object.insert("additionalProperties".into(), false.into());
                }
                object
            }
            Repr::Adjacent { tag, content } => {
                let mut properties = Map::new();
                properties.insert(tag.into(), tag_schema(&[variant.name]));
                let mut required = vec![Value::from(tag)];
                if !matches!(variant.shape, Shape::Unit) {
                    properties.insert(content.into(), Value::Object(variant.content_schema(walk)));
                    required.push(Value::from(content));
                }
                json_map(json!({
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false,
                }))
            }
            Repr::Untagged => variant.content_schema(walk),
        });
        if cut {
            return None;
        }
        if let Some(doc) = variant.description {
            let mut text = doc.to_owned();
            if let Some(Value::String(more)) = branch.remove("description") {
                crate::text::push_sentence(&mut text, &more);
            }
            branch.insert("description".into(), text.into());
        }
        Some(branch)
    }

    /// The schema as a field's type, built in `walk`, this enum standing inside it.
    fn build_schema(&'static self, walk: &mut Walk) -> Map<String, Value> {
        let mut branches = Vec::new();
        // Unit variants written as plain strings: one branch of all their names.
        let units: Vec<&str> = self
            .variants
            .iter()
            .filter(|v| matches!(v.shape, Shape::Unit))
            .map(|v| v.name)
            .collect();
        let external = matches!(self.repr, Repr::External);
        if external && !units.is_empty() {
            branches.push(tag_schema(&units));
        }
        for variant in self.variants {
            if external && matches!(variant.shape, Shape::Unit) {
                continue;
            }
            if let Some(branch) = self.branch(variant, walk) {
                branches.push(Value::Object(branch));
            }
        }
        let mut schema = match <[Value; 1]>::try_from(branches) {
            Ok([Value::Object(only)]) => only,
            Ok(_) => Map::new(),
            Err(branches) => json_map(json!({ "anyOf": branches })),
        };
        if let Some(description) = self.description {
            let mut text = description.to_owned();
            if let Some(Value::String(more)) = schema.remove("description") {
                crate::text::push_sentence(&mut text, &more);
            }
            schema.insert("description".into(), text.into());
        }
        if let Some(extend) = self.extend {
            extend.advertise(&mut schema, self.name);
        }
        schema
    }

    /// What this enum is as a field's type, built once.
    pub(super) fn plan(&'static self) -> &'static UnionPlan {
        self.cache.plan.get_or_init(|| {
            let mut walk = Walk::new();
            let schema = walk.building(self.id(), |walk| self.build_schema(walk));
            UnionPlan {
                schema,
                recursive: walk.recurs(self.id()),
            }
        })
    }

    /// The schema of this enum as a field's type, where it stands in `walk`.
    pub fn field_schema(&'static self, rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        let mut schema = match walk.place(self.id()) {
            Place::Alone => self.plan().schema.clone(),
            Place::Nested => walk.building(self.id(), |walk| self.build_schema(walk)),
            Place::TooDeep => return Map::new(),
        };
        rules::apply_schema(rules.own, rules::JsonType::Other, &mut schema);
        schema
    }

    /// The schema of this enum as a whole tool's arguments: one object, since a portable
    /// `inputSchema` is an object at the root. Its properties are every variant's, each
    /// property's description saying which forms it goes with. Built in `walk` (the
    /// tool's), the enum standing inside it: the root is the outermost level of a
    /// recursive enum, as in the check.
    pub(crate) fn root_schema(&'static self, walk: &mut Walk) -> Map<String, Value> {
        walk.building(self.id(), |walk| match self.repr {
            Repr::Internal { tag } => self.merged(Some(tag), walk),
            Repr::Untagged => self.merged(None, walk),
            Repr::External => self.external_root(walk),
            Repr::Adjacent { tag, content } => self.adjacent_root(tag, content, walk),
        })
    }

    /// How a form is named in a note: `type = "search"`, or `the "search" form`.
    fn form(&self, tag: Option<&str>, name: &str) -> String {
        match tag {
            Some(tag) => format!("{tag} = {name:?}"),
            None => format!("the {name:?} form"),
        }
    }

    fn merged(&'static self, tag: Option<&'static str>, walk: &mut Walk) -> Map<String, Value> {
        struct Merged {
            schemas: Vec<Value>,
            with: Vec<&'static str>,
            required_by: Vec<&'static str>,
        }
        let mut order: Vec<String> = Vec::new();
        let mut merged: Vec<Merged> = Vec::new();
        let mut every_required: Option<Vec<String>> = None;
        for variant in self.variants {
            let object = variant.object_schema(walk).unwrap_or_default();
            let properties = object.get("properties").and_then(Value::as_object);
            let required: Vec<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            for (name, property) in properties.into_iter().flatten() {
                let at = match order.iter().position(|n| n == name) {
                    Some(at) => at,
                    None => {
                        order.push(name.clone());
                        merged.push(Merged {
                            schemas: Vec::new(),
                            with: Vec::new(),
                            required_by: Vec::new(),
                        });
                        order.len() - 1
                    }
                };
                let entry = &mut merged[at];
                if !entry.schemas.contains(property) {
                    entry.schemas.push(property.clone());
                }
                entry.with.push(variant.name);
                if required.contains(name) {
                    entry.required_by.push(variant.name);
                }
            }
            every_required = Some(match every_required {
                None => required,
                Some(before) => before
                    .into_iter()
                    .filter(|n| required.contains(n))
                    .collect(),
            });
        }
        let all = self.variants.len();
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        if let Some(tag) = tag {
            let mut schema = json_map(tag_schema(&self.names()));
            let mut text =
                String::from("Which form the call takes; the other properties depend on it.");
            for variant in self.variants.iter().filter(|v| v.description.is_some()) {
                crate::text::push_sentence(
                    &mut text,
                    &format!(
                        "{:?}: {}",
                        variant.name,
                        variant.description.unwrap_or_default()
                    ),
                );
            }
            schema.insert("description".into(), text.into());
            properties.insert(tag.into(), Value::Object(schema));
            required.push(tag.into());
        }
        for (name, entry) in order.into_iter().zip(merged) {
            let mut schema = match <[Value; 1]>::try_from(entry.schemas) {
                Ok([Value::Object(one)]) => one,
                Ok(_) => Map::new(),
                Err(several) => json_map(json!({ "anyOf": several })),
            };
            let mut notes = Vec::new();
            if entry.with.len() < all {
                let forms: Vec<String> = entry.with.iter().map(|v| self.form(tag, v)).collect();
                notes.push(format!("Only with {}.", forms.join(" or ")));
            }
            if !entry.required_by.is_empty() && entry.required_by.len() < all {
                let forms: Vec<String> = entry
                    .required_by
                    .iter()
                    .map(|v| self.form(tag, v))
                    .collect();
                notes.push(format!("Required with {}.", forms.join(" or ")));
            }
            if !notes.is_empty() {
                let mut text = match schema.remove("description") {
                    Some(Value::String(text)) => text,
                    _ => String::new(),
                };
                for note in notes {
                    crate::text::push_sentence(&mut text, &note);
                }
                schema.insert("description".into(), text.into());
            }
            if every_required.as_ref().is_some_and(|r| r.contains(&name)) {
                required.push(Value::from(name.as_str()));
            }
            properties.insert(name, Value::Object(schema));
        }
        let mut root = json_map(json!({"type": "object", "properties": properties}));
        if !required.is_empty() {
            root.insert("required".into(), Value::Array(required));
        }
        root.insert("additionalProperties".into(), false.into());
        root
    }

    fn external_root(&'static self, walk: &mut Walk) -> Map<String, Value> {
        let mut properties = Map::new();
        for variant in self.variants {
            if let Some(Value::Object(branch)) = self
                .branch(variant, walk)
                .and_then(|mut b| b.get_mut("properties").map(Value::take))
                && let Some(mut content) = branch.into_iter().next().map(|(_, v)| v)
            {
                if let (Some(doc), Value::Object(content)) = (variant.description, &mut content) {
                    content.insert("description".into(), doc.into());
                }
                properties.insert(variant.name.into(), content);
            }
        }
        json_map(json!({
            "type": "object",
            "description": "Exactly one of these properties: it names the form the call takes.",
            "properties": properties,
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": false,
        }))
    }

    fn adjacent_root(
        &'static self,
        tag: &str,
        content: &str,
        walk: &mut Walk,
    ) -> Map<String, Value> {
        let mut contents = Vec::new();
        for variant in self.variants {
            if matches!(variant.shape, Shape::Unit) {
                continue;
            }
            let mut schema = variant.content_schema(walk);
            let note = format!("With {tag} = {:?}.", variant.name);
            let mut text = match schema.remove("description") {
                Some(Value::String(text)) => text,
                _ => String::new(),
            };
            crate::text::push_sentence(&mut text, &note);
            schema.insert("description".into(), text.into());
            contents.push(Value::Object(schema));
        }
        let mut properties = Map::new();
        properties.insert(tag.into(), tag_schema(&self.names()));
        let content_schema = match <[Value; 1]>::try_from(contents) {
            Ok([only]) => only,
            Err(several) if several.is_empty() => Value::Null,
            Err(several) => json!({ "anyOf": several }),
        };
        let units = self.variants.iter().any(|v| matches!(v.shape, Shape::Unit));
        if !content_schema.is_null() {
            properties.insert(content.into(), content_schema);
        }
        let mut required = vec![Value::from(tag)];
        if !units && properties.contains_key(content) {
            required.push(Value::from(content));
        }
        json_map(json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        }))
    }
}

/// `object` with the tag `tag` naming `name` among its properties, required.
fn with_tag(object: &mut Map<String, Value>, tag: &str, name: &str) {
    let mut properties = match object.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    properties.insert(tag.into(), tag_schema(&[name]));
    object.insert("properties".into(), Value::Object(properties));
    let mut required = match object.remove("required") {
        Some(Value::Array(r)) => r,
        _ => Vec::new(),
    };
    required.insert(0, Value::from(tag));
    object.insert("required".into(), Value::Array(required));
}
