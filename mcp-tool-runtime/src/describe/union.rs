//! A derived enum with data: one of several forms, in one of serde's four
//! representations. As a field's type its schema is the `anyOf` of the forms; as a whole
//! tool's arguments it is one object (a portable root takes no union) whose description
//! says which properties go with which form. Its check finds the form the way serde does
//! (by the tag, or for an untagged enum by asking serde), checks that form's fields at
//! their full paths, and names a wrong tag with the nearest right one.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use serde_json::{Map, Value, json};

use super::cut::{self, MAX_RECURSION, Place, reaches_cut};
use super::shapes;
use super::{ArgType, ToolSpec};
use crate::check::{Checker, Report, SpecId};
use crate::result::echo::{self, Limits};
use crate::rules::{self, Rules, one_of_failure};
use crate::text::{push_quoted_list, suggest};

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

/// The schemas of a [`UnionSpec`], each built on first use.
#[derive(Debug)]
pub struct UnionCache {
    schema: OnceLock<Map<String, Value>>,
    root: OnceLock<Map<String, Value>>,
    recursive: AtomicBool,
}

impl UnionCache {
    /// An empty cache.
    pub const fn new() -> Self {
        UnionCache {
            schema: OnceLock::new(),
            root: OnceLock::new(),
            recursive: AtomicBool::new(false),
        }
    }
}

impl Default for UnionCache {
    fn default() -> Self {
        UnionCache::new()
    }
}

impl Variant {
    /// The object schema of a variant that is an object (a struct, or a newtype of
    /// one), for an internal tag to stand beside its fields.
    fn object_schema(&self) -> Option<Map<String, Value>> {
        match &self.shape {
            Shape::Struct(spec) => spec.field_schema(Rules::NONE).into(),
            Shape::Newtype(ty, rules) => {
                let schema = (ty.schema)(*rules);
                (schema.get("type").and_then(Value::as_str) == Some("object")).then_some(schema)
            }
            _ => None,
        }
        .filter(|schema| !schema.is_empty())
    }

    /// The schema of what the variant holds.
    fn content_schema(&self) -> Map<String, Value> {
        match &self.shape {
            Shape::Unit => json_map(json!({"type": "null"})),
            Shape::Newtype(ty, rules) => (ty.schema)(*rules),
            Shape::Tuple(items) => shapes::tuple_schema(
                items.iter().map(|(ty, r)| (ty.schema)(*r)).collect(),
                Rules::NONE,
            ),
            Shape::Struct(spec) => spec.field_schema(Rules::NONE),
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
            Shape::Newtype(ty, _) => match (ty.object)() {
                Some(spec) => spec.check_members(map, cx, &[tag], others),
                None => self.check_content(value, cx),
            },
            Shape::Tuple(_) => self.check_content(value, cx),
        }
    }

    fn echo(&self, value: &Value, limits: Limits) -> Value {
        match &self.shape {
            Shape::Struct(spec) => spec.echo(value, limits),
            Shape::Newtype(ty, _) => (ty.echo)(value, limits),
            _ => echo::truncate(value, limits),
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
    fn id(&'static self) -> SpecId {
        std::ptr::from_ref(self) as SpecId
    }

    fn names(&self) -> Vec<&'static str> {
        self.variants.iter().map(|v| v.name).collect()
    }

    fn variant(&self, name: &str) -> Option<&'static Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// Whether this enum holds itself, directly or through others.
    fn is_recursive(&'static self) -> bool {
        self.field_schema(Rules::NONE);
        self.cache
            .recursive
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The schema of one variant as the union's branch, `None` where it would nest a
    /// recursive type too deep.
    fn branch(&'static self, variant: &Variant) -> Option<Map<String, Value>> {
        let (mut branch, cut) = reaches_cut(|| match self.repr {
            Repr::External => {
                let mut properties = Map::new();
                properties.insert(variant.name.into(), Value::Object(variant.content_schema()));
                json_map(json!({
                    "type": "object",
                    "properties": properties,
                    "required": [variant.name],
                    "additionalProperties": false,
                }))
            }
            Repr::Internal { tag } => {
                let mut object = variant
                    .object_schema()
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
                    properties.insert(content.into(), Value::Object(variant.content_schema()));
                    required.push(Value::from(content));
                }
                json_map(json!({
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false,
                }))
            }
            Repr::Untagged => variant.content_schema(),
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

    fn build_schema(&'static self) -> Map<String, Value> {
        cut::building(self.id(), &self.cache.recursive, || {
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
                if let Some(branch) = self.branch(variant) {
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
            schema
        })
    }

    /// The schema of this enum as a field's type.
    pub fn field_schema(&'static self, rules: Rules) -> Map<String, Value> {
        let mut schema = match cut::place(self.id()) {
            Place::Alone => self
                .cache
                .schema
                .get_or_init(|| self.build_schema())
                .clone(),
            Place::Nested => self.build_schema(),
            Place::TooDeep => return Map::new(),
        };
        rules::apply_schema(rules.own, rules::Kind::Other, &mut schema);
        schema
    }

    /// The schema of this enum as a whole tool's arguments: one object, since a portable
    /// `inputSchema` is an object at the root. Its properties are every variant's, each
    /// property's description saying which forms it goes with.
    pub fn root_schema(&'static self) -> Map<String, Value> {
        self.cache
            .root
            .get_or_init(|| {
                // The root is the outermost level of a recursive enum, as in the check.
                cut::building(self.id(), &self.cache.recursive, || match self.repr {
                    Repr::Internal { tag } => self.merged(Some(tag)),
                    Repr::Untagged => self.merged(None),
                    Repr::External => self.external_root(),
                    Repr::Adjacent { tag, content } => self.adjacent_root(tag, content),
                })
            })
            .clone()
    }

    /// How a form is named in a note: `type = "search"`, or `the "search" form`.
    fn form(&self, tag: Option<&str>, name: &str) -> String {
        match tag {
            Some(tag) => format!("{tag} = {name:?}"),
            None => format!("the {name:?} form"),
        }
    }

    fn merged(&'static self, tag: Option<&'static str>) -> Map<String, Value> {
        struct Merged {
            schemas: Vec<Value>,
            with: Vec<&'static str>,
            required_by: Vec<&'static str>,
        }
        let mut order: Vec<String> = Vec::new();
        let mut merged: Vec<Merged> = Vec::new();
        let mut every_required: Option<Vec<String>> = None;
        for variant in self.variants {
            let object = variant.object_schema().unwrap_or_default();
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

    fn external_root(&'static self) -> Map<String, Value> {
        let mut properties = Map::new();
        for variant in self.variants {
            if let Some(Value::Object(branch)) = self
                .branch(variant)
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

    fn adjacent_root(&'static self, tag: &str, content: &str) -> Map<String, Value> {
        let mut contents = Vec::new();
        for variant in self.variants {
            if matches!(variant.shape, Shape::Unit) {
                continue;
            }
            let mut schema = variant.content_schema();
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

    /// Checks this enum as a whole tool's arguments.
    pub(crate) fn check_root(&'static self, value: &Value, cx: &mut Checker<'_>) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            cx.enter_spec(self.id());
        }
        let others = self.root_names();
        let shaped = self.check(value, &others, cx);
        if recursive {
            cx.leave_spec();
        }
        shaped
    }

    /// The names the root object lists: every form's properties, and for an external
    /// tag the forms' names.
    fn root_names(&'static self) -> Vec<&'static str> {
        let root = self.root_schema();
        let names = root
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        // The names are those of fields and variants, all `'static` in the description.
        self.variants
            .iter()
            .flat_map(|v| {
                let spec = match &v.shape {
                    Shape::Struct(spec) => Some(*spec),
                    Shape::Newtype(ty, _) => (ty.object)(),
                    _ => None,
                };
                spec.map(|s| s.names())
                    .unwrap_or_default()
                    .into_iter()
                    .chain([v.name])
            })
            .filter(|name| names.iter().any(|n| n == name))
            .collect()
    }

    /// Checks this enum as a field's value, then the field's custom `rules` if the form
    /// was right. Returns whether `value` had a JSON type some form takes.
    pub fn check_field(&'static self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            if cx.levels_of(self.id()) >= MAX_RECURSION {
                cx.report(Report {
                    rule: Cow::Borrowed("depth"),
                    expected: Value::String(format!("at most {MAX_RECURSION} levels of {}", self.name)),
                    expectation: Cow::Owned(format!(
                        "is nested too deep: a {} may hold others to {MAX_RECURSION} levels, counting the outermost",
                        self.name
                    )),
                    received: Some(value),
                    detail: Some(Cow::Borrowed(
                        "Flatten this part, or split the request into several calls.",
                    )),
                    hint: None,
                });
                return true;
            }
            cx.enter_spec(self.id());
        }
        let before = cx.count();
        let shaped = self.check(value, &[], cx);
        if shaped && cx.count() == before {
            rules::check(rules.own, value, cx);
        }
        if recursive {
            cx.leave_spec();
        }
        shaped
    }

    /// `others`: see [`ToolSpec::check_members`].
    fn check(&'static self, value: &Value, others: &[&str], cx: &mut Checker<'_>) -> bool {
        match self.repr {
            Repr::External => self.check_external(value, others, cx),
            Repr::Internal { tag } => {
                let Value::Object(map) = value else {
                    cx.type_mismatch("an object", value);
                    return false;
                };
                match self.tagged(map, tag, cx) {
                    Some(variant) => variant.check_beside(tag, map, value, others, cx),
                    // At the root every form's properties are listed, each judged by its
                    // own schema whatever the tag: so are they here.
                    None if !others.is_empty() => self.check_untagged_members(map, tag, others, cx),
                    None => {}
                }
                true
            }
            Repr::Adjacent { tag, content } => {
                let Value::Object(map) = value else {
                    cx.type_mismatch("an object", value);
                    return false;
                };
                let variant = self.tagged(map, tag, cx);
                for (key, v) in map {
                    if key == tag || key == content {
                        continue;
                    }
                    self.not_a_member(key, v, &[tag, content], cx);
                }
                match (variant, map.get(content)) {
                    (Some(variant), Some(v)) if !matches!(variant.shape, Shape::Unit) => {
                        let mark = cx.enter_key(content);
                        variant.check_content(v, cx);
                        cx.leave(mark);
                    }
                    (Some(variant), None) if !matches!(variant.shape, Shape::Unit) => {
                        let mark = cx.enter_key(content);
                        cx.report(Report {
                            rule: Cow::Borrowed("required"),
                            expectation: Cow::Borrowed("is required but was not sent"),
                            expected: Value::Object(variant.content_schema()),
                            received: None,
                            detail: Some(Cow::Owned(format!(
                                "It holds the {:?} form's values.",
                                variant.name
                            ))),
                            hint: None,
                        });
                        cx.leave(mark);
                    }
                    (Some(_), Some(v)) if !v.is_null() => {
                        self.not_a_member(content, v, &[tag], cx);
                    }
                    _ => {}
                }
                true
            }
            Repr::Untagged => self.check_untagged(value, cx),
        }
    }

    /// The members of a root object whose tag is missing or names no form: checked as
    /// the form the tag most likely meant, or else each as the forms that have it.
    fn check_untagged_members(
        &'static self,
        map: &Map<String, Value>,
        tag: &str,
        others: &[&str],
        cx: &mut Checker<'_>,
    ) {
        let meant = map.get(tag).and_then(Value::as_str).and_then(|s| {
            suggest::nearest(s, self.variants.iter().map(|v| v.name))
                .and_then(|name| self.variant(name))
                .or_else(|| self.form_holding(s))
        });
        if let Some(variant) = meant {
            return variant.check_beside(tag, map, &Value::Null, others, cx);
        }
        for (key, value) in map {
            if key == tag {
                continue;
            }
            let fields = self.variants.iter().filter_map(|v| {
                let spec = match &v.shape {
                    Shape::Struct(spec) => Some(*spec),
                    Shape::Newtype(ty, _) => (ty.object)(),
                    _ => None,
                }?;
                spec.field_named(key).map(|f| (spec, f))
            });
            let mut first = None;
            let mut fits = false;
            for (spec, field) in fields {
                first.get_or_insert((spec, field));
                if cx.trial(|cx| spec.check_value(field, value, cx)) == 0 {
                    fits = true;
                    break;
                }
            }
            match first {
                Some((spec, field)) if !fits => spec.check_value(field, value, cx),
                Some(_) => {}
                None => self.not_a_member(key, value, others, cx),
            }
        }
    }

    /// The variant `map`'s tag names; reports a missing or wrong tag.
    fn tagged(
        &'static self,
        map: &Map<String, Value>,
        tag: &str,
        cx: &mut Checker<'_>,
    ) -> Option<&'static Variant> {
        let names = self.names();
        let mark = cx.enter_key(tag);
        let found = match map.get(tag) {
            None => {
                let mut detail = String::from("It names the form the call takes: send one of ");
                push_quoted_list(&mut detail, names.iter().copied());
                detail.push('.');
                cx.report(Report {
                    rule: Cow::Borrowed("required"),
                    expectation: Cow::Borrowed("is required but was not sent"),
                    expected: names.iter().map(|n| Value::from(*n)).collect(),
                    received: None,
                    detail: Some(Cow::Owned(detail)),
                    hint: None,
                });
                None
            }
            Some(Value::String(s)) => match self.variant(s) {
                Some(variant) => Some(variant),
                None => {
                    let mut failure = one_of_failure(&names, s);
                    // The name of a form's property sent as the tag: that form is meant.
                    if failure.detail.is_none()
                        && let Some(form) = self.form_holding(s)
                    {
                        let mut detail = String::new();
                        suggest::push_did_you_mean(&mut detail, form.name);
                        detail.push_str(&format!(" That form holds {s:?}."));
                        failure.detail = Some(Cow::Owned(detail));
                    }
                    failure.report(cx, &map[tag], None, None);
                    None
                }
            },
            Some(other) => {
                let mut expected = String::from("one of ");
                push_quoted_list(&mut expected, names.iter().copied());
                cx.type_mismatch(&expected, other);
                None
            }
        };
        cx.leave(mark);
        found
    }

    /// The one form that has a property named `name`.
    fn form_holding(&'static self, name: &str) -> Option<&'static Variant> {
        let mut holding = self.variants.iter().filter(|v| {
            let spec = match &v.shape {
                Shape::Struct(spec) => Some(*spec),
                Shape::Newtype(ty, _) => (ty.object)(),
                _ => None,
            };
            spec.is_some_and(|spec| spec.field_named(name).is_some())
        });
        match (holding.next(), holding.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// Reports `key`, which is none of `known`: with the nearest of them when it looks
    /// like a slip.
    fn not_a_member(&self, key: &str, value: &Value, known: &[&str], cx: &mut Checker<'_>) {
        let mark = cx.enter_key(key);
        {
            let mut detail = String::new();
            match suggest::nearest(key, known.iter().copied()) {
                Some(near) => suggest::push_did_you_mean(&mut detail, near),
                None => {
                    detail.push_str("Remove it; the properties are ");
                    push_quoted_list(&mut detail, known.iter().copied());
                    detail.push('.');
                }
            }
            cx.report(Report {
                rule: Cow::Borrowed("unknown"),
                expectation: Cow::Borrowed("is not a property of this object"),
                expected: known.iter().map(|n| Value::from(*n)).collect(),
                received: Some(value),
                detail: Some(Cow::Owned(detail)),
                hint: None,
            });
        }
        cx.leave(mark);
    }

    fn check_external(&'static self, value: &Value, listed: &[&str], cx: &mut Checker<'_>) -> bool {
        let units: Vec<&str> = self
            .variants
            .iter()
            .filter(|v| matches!(v.shape, Shape::Unit))
            .map(|v| v.name)
            .collect();
        let others: Vec<&str> = self
            .variants
            .iter()
            .filter(|v| !matches!(v.shape, Shape::Unit))
            .map(|v| v.name)
            .collect();
        match value {
            Value::String(s) if !units.is_empty() => {
                if others.contains(&s.as_str()) {
                    // The name of a form that holds values, sent alone.
                    cx.type_mismatch(
                        &format!("an object {{{s:?}: ...}}: the {s:?} form holds values"),
                        value,
                    );
                } else if !units.contains(&s.as_str()) {
                    one_of_failure(&units, s).report(cx, value, None, None);
                }
                true
            }
            Value::Object(map) => {
                // Strict mode's `null` for the forms not taken: left out.
                let sent: Vec<(&String, &Value)> = map
                    .iter()
                    .filter(|(key, v)| {
                        let absent =
                            v.is_null() && cx.nulls_are_absent() && listed.contains(&key.as_str());
                        if absent {
                            let mark = cx.enter_key(key);
                            cx.absent_null();
                            cx.leave(mark);
                        }
                        !absent
                    })
                    .collect();
                let names = self.names();
                match sent.as_slice() {
                    [(key, _)] => match self.variant(key) {
                        Some(variant) if matches!(variant.shape, Shape::Unit) => {
                            // serde also reads {"log": null}; the schema says "log".
                            let expected =
                                format!("the string {:?}: this form holds nothing", variant.name);
                            cx.type_mismatch(&expected, value);
                        }
                        Some(variant) => {
                            let mark = cx.enter_key(key);
                            variant.check_content(&map[key.as_str()], cx);
                            cx.leave(mark);
                        }
                        None => {
                            let mark = cx.enter_key(key);
                            let mut failure = one_of_failure(&names, key);
                            failure.expectation = Cow::Owned({
                                let mut text =
                                    String::from("is not a form of this call; the forms are ");
                                push_quoted_list(&mut text, names.iter().copied());
                                text
                            });
                            failure.rule = Cow::Borrowed("variant");
                            failure.report(cx, &Value::String((*key).clone()), None, None);
                            cx.leave(mark);
                        }
                    },
                    _ => {
                        let mut expectation =
                            String::from("must hold exactly one of the properties ");
                        push_quoted_list(&mut expectation, others.iter().copied());
                        let detail = match sent.len() {
                            0 => "It holds none: name the form the call takes.".to_owned(),
                            n => format!("It holds {n}: send one form per call."),
                        };
                        cx.report(Report {
                            rule: Cow::Borrowed("variant"),
                            expectation: Cow::Owned(expectation),
                            expected: others.iter().map(|n| Value::from(*n)).collect(),
                            received: Some(value),
                            detail: Some(Cow::Owned(detail)),
                            hint: None,
                        });
                    }
                }
                true
            }
            other => {
                let mut expected = String::from("an object with one of the properties ");
                push_quoted_list(&mut expected, others.iter().copied());
                if !units.is_empty() {
                    expected.push_str(", or one of ");
                    push_quoted_list(&mut expected, units.iter().copied());
                }
                cx.type_mismatch(&expected, other);
                false
            }
        }
    }

    /// An untagged enum: serde reads the first variant it can, and so the rules checked
    /// are that variant's. With none, the problems reported are the closest variant's.
    fn check_untagged(&'static self, value: &Value, cx: &mut Checker<'_>) -> bool {
        let probe = probe_copy(value, cx.nulls_are_absent());
        let chosen = self.which.and_then(|which| which(&probe));
        if let Some(variant) = chosen.and_then(|i| self.variants.get(i)) {
            variant.check_content(value, cx);
            return true;
        }
        let mut closest: Option<(usize, &Variant)> = None;
        for variant in self.variants {
            let found = cx.trial(|cx| variant.check_content(value, cx));
            if closest.is_none_or(|(best, _)| found < best) {
                closest = Some((found, variant));
            }
        }
        let names = self.names();
        let mut expectation = format!("must take one of the forms of {}: ", self.name);
        push_quoted_list(&mut expectation, names.iter().copied());
        let detail = closest.map(|(_, v)| {
            format!(
                "It comes closest to the {:?} form, whose problems follow.",
                v.name
            )
        });
        cx.report(Report {
            rule: Cow::Borrowed("variant"),
            expectation: Cow::Owned(expectation),
            expected: names.iter().map(|n| Value::from(*n)).collect(),
            received: Some(value),
            detail: detail.map(Cow::Owned),
            hint: None,
        });
        if let Some((_, variant)) = closest {
            variant.check_content(value, cx);
        }
        true
    }

    /// A copy of an arguments value safe to echo: the form's sensitive fields hidden.
    pub fn echo(&'static self, value: &Value, limits: Limits) -> Value {
        let by_name = |name: &str| self.variant(name);
        match (self.repr, value) {
            (Repr::External, Value::Object(map)) if map.len() == 1 => {
                echo::object(map, limits, |key, v, inner| match by_name(key) {
                    Some(variant) => variant.echo(v, inner),
                    None => echo::truncate(v, inner),
                })
            }
            (Repr::Internal { tag }, Value::Object(map)) => {
                match map.get(tag).and_then(Value::as_str).and_then(by_name) {
                    Some(variant) => variant.echo(value, limits),
                    None => self.echo_any(value, limits),
                }
            }
            (Repr::Adjacent { tag, content }, Value::Object(map)) => {
                let variant = map.get(tag).and_then(Value::as_str).and_then(by_name);
                echo::object(map, limits, |key, v, inner| match variant {
                    Some(variant) if key == content => variant.echo(v, inner),
                    _ => echo::truncate(v, inner),
                })
            }
            (Repr::Untagged, _) => {
                let probe = probe_copy(value, false);
                match self
                    .which
                    .and_then(|which| which(&probe))
                    .and_then(|i| self.variants.get(i))
                {
                    Some(variant) => variant.echo(value, limits),
                    None => self.echo_any(value, limits),
                }
            }
            _ => echo::truncate(value, limits),
        }
    }

    /// The echo of a value no form was found for: whatever any form hides, hidden.
    fn echo_any(&'static self, value: &Value, limits: Limits) -> Value {
        let mut out = echo::truncate(value, limits);
        for variant in self.variants {
            out = variant.echo(&out, limits);
        }
        out
    }
}

/// What serde is asked to read, to learn which variant it takes: `value` with integral
/// floats written as integers (the runtime hands serde `3` for `3.0` once the checks
/// pass), and with strict mode's `null`s for left-out members taken out.
fn probe_copy(value: &Value, strip_nulls: bool) -> Cow<'_, Value> {
    fn needs(value: &Value, strip_nulls: bool) -> bool {
        match value {
            Value::Number(n) => n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0),
            Value::Array(items) => items.iter().any(|v| needs(v, strip_nulls)),
            Value::Object(map) => map
                .values()
                .any(|v| (strip_nulls && v.is_null()) || needs(v, strip_nulls)),
            _ => false,
        }
    }
    fn normalize(value: &mut Value, strip_nulls: bool) {
        match value {
            Value::Number(n) => {
                if let Some(f) = n
                    .as_f64()
                    .filter(|f| n.is_f64() && f.fract() == 0.0 && f.abs() < 9e15)
                {
                    *value = if f < 0.0 {
                        Value::from(f as i64)
                    } else {
                        Value::from(f as u64)
                    };
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| normalize(v, strip_nulls)),
            Value::Object(map) => {
                if strip_nulls {
                    map.retain(|_, v| !v.is_null());
                }
                map.values_mut().for_each(|v| normalize(v, strip_nulls));
            }
            _ => {}
        }
    }
    if !needs(value, strip_nulls) {
        return Cow::Borrowed(value);
    }
    let mut copy = value.clone();
    normalize(&mut copy, strip_nulls);
    Cow::Owned(copy)
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
