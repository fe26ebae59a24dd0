//! A schema rewritten for a profile, node by node, each step asked of the profile's row:
//! what it drops or rewrites, and the words that say what it dropped.

use serde_json::{Map, Value};

use super::row::{Bounds, Examples, Formats, Keyword, NullForm, OneOf, ProfileRules};
use super::said::{capitalize, keep_formats, move_bounds, move_lengths, note_format};

/// An object schema as this crate advertises it, rewritten in place as `rules` say.
pub(super) fn adapt_root(schema: &mut Map<String, Value>, rules: &ProfileRules) {
    if !rules.dialect {
        schema.remove("$schema");
    }
    adapt(schema, rules);
    if rules.all_required {
        require_all(schema, rules.null);
    }
}

/// Rewrites one schema node as `rules` say, its children first.
fn adapt(node: &mut Map<String, Value>, rules: &ProfileRules) {
    // "This or null" is rewritten as the thing, then made nullable in the family's form.
    if unwrap_null(node) {
        adapt(node, rules);
        make_nullable(node, rules.null);
        return;
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                adapt(property, rules);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(child)) = node.get_mut(key) {
            adapt(child, rules);
        }
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        for branch in branches {
            if let Value::Object(branch) = branch {
                adapt(branch, rules);
            }
        }
    }
    let mut notes = Vec::new();
    composition(node, rules, &mut notes);
    values(node, rules, &mut notes);
    if rules.null == NullForm::Nullable {
        no_null_type(node);
    }
    if rules.closed_objects {
        close_object(node);
    }
    unknown_keywords(node, rules, &mut notes);
    if !notes.is_empty() {
        let mut text = match node.remove("description") {
            Some(Value::String(text)) => text,
            _ => String::new(),
        };
        for note in notes {
            crate::text::push_sentence(&mut text, &note);
        }
        node.insert("description".into(), text.into());
    }
}

/// The keywords that combine schemas or relate values: kept, or said in words.
fn composition(node: &mut Map<String, Value>, rules: &ProfileRules, notes: &mut Vec<String>) {
    let said = |keyword: Keyword| keyword == Keyword::Said;
    if said(rules.across_fields) {
        // The rules across fields (`describe/across.rs`): the words in each required
        // field's description say them.
        for key in ["dependentRequired", "dependentSchemas", "if", "then"] {
            node.remove(key);
        }
    }
    if said(rules.deprecated) && node.remove("deprecated") == Some(Value::Bool(true)) {
        notes.push("Deprecated.".into());
    }
    if said(rules.all_of)
        && let Some(Value::Array(also)) = node.remove("allOf")
    {
        // A second pattern, format, whitelist or step beside the first (two rules of
        // one value, see `rules::merge`).
        for branch in also.iter().filter_map(Value::as_object) {
            for (key, value) in branch {
                notes.push(match (key.as_str(), value) {
                    ("pattern", Value::String(p)) => format!("Also matches the pattern {p}."),
                    ("format", Value::String(f)) => format!("Also in the format {f}."),
                    ("multipleOf", n) => format!("Also a multiple of {n}."),
                    ("enum", Value::Array(values)) => {
                        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
                        format!("Also one of {}.", listed.join(", "))
                    }
                    (key, value) => format!("Also {key} {value}."),
                });
            }
        }
    }
    if said(rules.property_names)
        && let Some(Value::Object(names)) = node.remove("propertyNames")
    {
        // A map's names (its keys' type).
        if let Some(Value::Array(values)) = names.get("enum") {
            let listed: Vec<String> = values.iter().map(Value::to_string).collect();
            notes.push(format!("Its names are each one of {}.", listed.join(", ")));
        } else if let Some(Value::String(pattern)) = names.get("pattern") {
            notes.push(format!("Its names each match the pattern {pattern}."));
        }
    }
    if said(rules.prefix_items)
        && let Some(Value::Array(order)) = node.remove("prefixItems")
    {
        let kinds: Vec<&str> = order.iter().map(kind_of).collect();
        notes.push(format!("In this order: {}.", kinds.join(", ")));
    }
    if said(rules.unique_items) && node.remove("uniqueItems") == Some(Value::Bool(true)) {
        notes.push("No item may repeat another.".into());
    }
    if rules.one_of != OneOf::Kept
        && let Some(Value::Array(forms)) = node.remove("oneOf")
    {
        // A derived enum's values, each a `const` with its variant's meaning
        // (`enumeration.rs`; no other schema here has a `oneOf`): the values do not
        // overlap, so `anyOf` says the same to a profile that takes no `oneOf`, in the
        // form it takes a union of values in (the `anyOf` alone: each value is a
        // branch, `type` and `enum` said by them); a profile that takes neither `oneOf`
        // nor `const` reads the meanings as words beside the `enum`.
        if rules.one_of == OneOf::Said {
            notes.extend(forms.iter().filter_map(value_meaning));
        } else {
            node.remove("type");
            node.remove("enum");
            node.insert("anyOf".into(), Value::Array(forms));
        }
    }
}

/// The keywords about values: examples, formats, bounds, lengths, defaults.
fn values(node: &mut Map<String, Value>, rules: &ProfileRules, notes: &mut Vec<String>) {
    match node.remove("examples") {
        // OpenAPI takes one `example`.
        Some(Value::Array(mut examples))
            if rules.examples == Examples::First && !examples.is_empty() =>
        {
            node.insert("example".into(), examples.swap_remove(0));
        }
        Some(Value::Array(_)) if rules.examples == Examples::First => {}
        Some(Value::Array(examples)) if rules.examples == Examples::Said => {
            let listed: Vec<String> = examples.iter().map(Value::to_string).collect();
            if !listed.is_empty() {
                notes.push(format!("For example: {}.", listed.join(", ")));
            }
        }
        Some(examples) => {
            node.insert("examples".into(), examples);
        }
        None => {}
    }
    let ty = node.get("type").and_then(Value::as_str).map(str::to_owned);
    match rules.formats {
        Formats::Every => {}
        Formats::Named(known) => keep_formats(node, known, notes),
        Formats::Typed(known) => {
            if let Some(Value::String(format)) = node.get("format")
                && !known
                    .iter()
                    .any(|&(t, f)| Some(t) == ty.as_deref() && f == format)
            {
                note_format(node, notes);
            }
        }
    }
    match rules.bounds {
        Bounds::Kept => {}
        Bounds::Said => move_bounds(node, notes),
        Bounds::Inclusive => inclusive_bounds(node, ty.as_deref(), notes),
    }
    move_lengths(
        node,
        rules.lengths == Keyword::Said,
        rules.item_counts == Keyword::Said,
        notes,
    );
    if rules.defaults == Keyword::Said
        && let Some(default) = node.remove("default")
    {
        notes.push(format!("Default: {default}."));
    }
}

/// Exclusive bounds made inclusive where that is exact (an integer: more than 0 is at
/// least 1), said in words otherwise.
fn inclusive_bounds(node: &mut Map<String, Value>, ty: Option<&str>, notes: &mut Vec<String>) {
    let mut said = Vec::new();
    for (exclusive, inclusive, step, words) in [
        ("exclusiveMinimum", "minimum", 1i64, "more than"),
        ("exclusiveMaximum", "maximum", -1, "less than"),
    ] {
        let Some(bound) = node.remove(exclusive) else {
            continue;
        };
        match (ty, bound.as_i64()) {
            (Some("integer"), Some(n)) if n.checked_add(step).is_some() => {
                node.insert(inclusive.into(), (n + step).into());
            }
            _ => said.push(format!("{words} {bound}")),
        }
    }
    if !said.is_empty() {
        notes.push(capitalize(&format!("{}.", said.join(" and "))));
    }
}

/// OpenAPI 3.0 has no null type: a union that also takes null (an untagged unit
/// variant) is nullable; a property that can only be null (a recursive struct's last
/// level) is left out.
fn no_null_type(node: &mut Map<String, Value>) {
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        let before = branches.len();
        branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        if branches.len() < before {
            node.insert("nullable".into(), true.into());
        }
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        properties.retain(|_, p| p.get("type").and_then(Value::as_str) != Some("null"));
    }
}

/// The keywords the profile does not know, those that have words said, then all
/// dropped; and an `enum` of other values than strings said where the profile takes
/// only strings.
fn unknown_keywords(node: &mut Map<String, Value>, rules: &ProfileRules, notes: &mut Vec<String>) {
    let known = rules.keywords;
    if !known.knows("additionalProperties") {
        match node.remove("additionalProperties") {
            Some(Value::Bool(false)) => notes.push("No other properties.".into()),
            Some(Value::Object(_)) => notes.push("Any property names.".into()),
            _ => {}
        }
    }
    if rules.non_string_enum == Keyword::Said
        && let Some(Value::Array(values)) = node.get("enum")
        && !values.iter().all(Value::is_string)
    {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        notes.push(format!("One of {}.", listed.join(", ")));
        node.remove("enum");
    }
    if !known.knows("const")
        && let Some(value) = node.remove("const")
    {
        notes.push(format!("Exactly {value}."));
    }
    if !known.knows("multipleOf")
        && let Some(multiple) = node.remove("multipleOf")
    {
        notes.push(format!("A multiple of {multiple}."));
    }
    if let super::row::Keywords::Only(list) = known {
        node.retain(|key, _| list.contains(&key.as_str()));
    }
}

/// An object with properties, as strict modes want it: no other properties. (A map,
/// whose `additionalProperties` is the schema of its values, keeps it: no strict form
/// says "any names".)
fn close_object(node: &mut Map<String, Value>) {
    let Some(Value::Object(_)) = node.get("properties") else {
        return;
    };
    if !node.contains_key("additionalProperties") {
        node.insert("additionalProperties".into(), false.into());
    }
}

/// Every property required, the optional ones made nullable in `null`'s form.
fn require_all(node: &mut Map<String, Value>, null: NullForm) {
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(child)) = node.get_mut(key) {
            require_all(child, null);
        }
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        for branch in branches {
            if let Value::Object(branch) = branch {
                require_all(branch, null);
            }
        }
    }
    let required: Vec<String> = match node.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = node.get_mut("properties") else {
        return;
    };
    let mut all = Vec::with_capacity(properties.len());
    for (name, property) in properties.iter_mut() {
        if let Value::Object(property) = property {
            require_all(property, null);
            if !required.contains(name) {
                make_nullable(property, null);
            }
        }
        all.push(Value::from(name.as_str()));
    }
    node.insert("required".into(), Value::Array(all));
}

/// The portable "this or null" (`anyOf` of a schema and `{"type": "null"}`) turned into
/// the schema alone, the outer description and title kept; whether it was one.
fn unwrap_null(node: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(branches)) = node.get("anyOf") else {
        return false;
    };
    let is_null = |v: &Value| v == &serde_json::json!({"type": "null"});
    let [Value::Object(_), null] = branches.as_slice() else {
        return false;
    };
    if !is_null(null) {
        return false;
    }
    let Some(Value::Array(mut branches)) = node.remove("anyOf") else {
        return false;
    };
    let Some(Value::Object(mut inner)) = branches.drain(..).next() else {
        return false;
    };
    for (key, value) in std::mem::take(node) {
        inner.insert(key, value);
    }
    *node = inner;
    true
}

/// `node` that also accepts `null`, in `form`.
fn make_nullable(node: &mut Map<String, Value>, form: NullForm) {
    match form {
        NullForm::AnyOf => *node = crate::describe::types::argument::nullable(std::mem::take(node)),
        NullForm::TypeArray => type_array(node),
        NullForm::Nullable => {
            node.insert("nullable".into(), true.into());
        }
    }
}

/// `node` that also accepts `null`: a type array for a scalar, `anyOf` for the rest.
fn type_array(node: &mut Map<String, Value>) {
    if crate::describe::types::argument::is_nullable(node) {
        return;
    }
    // An enum's values with their meanings (`anyOf` of `const`s): `null` is one more.
    if let Some(Value::Array(forms)) = node.get_mut("anyOf")
        && forms.iter().all(|form| form.get("const").is_some())
    {
        forms.push(serde_json::json!({"type": "null"}));
        return;
    }
    match node.get("type").and_then(Value::as_str) {
        Some(ty @ ("string" | "integer" | "number" | "boolean")) => {
            let ty = ty.to_owned();
            node.insert("type".into(), serde_json::json!([ty, "null"]));
            if let Some(Value::Array(values)) = node.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        _ => {
            let description = node.remove("description");
            let inner = std::mem::take(node);
            node.insert(
                "anyOf".into(),
                serde_json::json!([Value::Object(inner), {"type": "null"}]),
            );
            if let Some(description) = description {
                node.insert("description".into(), description);
            }
        }
    }
}

/// One value of a derived enum with its variant's doc, in words: `"read": Read it.`
fn value_meaning(form: &Value) -> Option<String> {
    let value = form.get("const")?;
    let doc = form.get("description")?.as_str()?;
    let mut text = format!("{value}: {doc}");
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    Some(text)
}

/// A schema's kind in a word or two, with its article: "a string", "an integer".
fn kind_of(schema: &Value) -> &'static str {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "a string",
        Some("integer") => "an integer",
        Some("number") => "a number",
        Some("boolean") => "true or false",
        Some("array") => "an array",
        Some("object") => "an object",
        _ => "a value",
    }
}
