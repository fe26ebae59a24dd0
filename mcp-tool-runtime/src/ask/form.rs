//! What the user is shown: the form of `elicitation/create` for asked fields (made
//! from the fields' own schemas, in the flat form MCP's form elicitation takes), the
//! confirmation of a call, and the business layer's questions.

use serde_json::{Map, Value, json};

use crate::describe::asking::{AskField, Confirm, Piece};
use crate::result::echo;

/// The formats a form may carry; any other is said in the description.
const FORM_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The `params` of an `elicitation/create` in form mode.
pub(crate) fn request(
    message: String,
    properties: Map<String, Value>,
    required: Vec<String>,
) -> Value {
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    json!({ "mode": "form", "message": message, "requestedSchema": schema })
}

/// The form asking for `fields` of the tool whose portable `inputSchema` is `schema`,
/// each with what was wrong with the value the model (or the user) gave, if anything.
pub(crate) fn fields(schema: &Value, fields: &[(&AskField, Option<String>)]) -> Value {
    let mut message = String::new();
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (field, problem) in fields {
        if !message.is_empty() {
            message.push('\n');
        }
        message.push_str(field.question);
        if let Some(problem) = problem {
            message.push_str(&format!(" ({problem})"));
        }
        let property = schema
            .pointer(&format!("/properties/{}", escape(field.name)))
            .unwrap_or(&Value::Null);
        let (property, optional) = flat(schema, property, field.name);
        if !optional {
            required.push(field.name.to_owned());
        }
        properties.insert(field.name.to_owned(), Value::Object(property));
    }
    request(message, properties, required)
}

/// A JSON pointer token.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// `property` in a form's flat terms, and whether it may be left empty. What the form
/// cannot carry is said in its description, so the user still reads every rule the
/// answer is checked by.
fn flat(root: &Value, property: &Value, name: &str) -> (Map<String, Value>, bool) {
    let mut notes = Vec::new();
    let (property, optional) = without_null(root, property);
    let mut out = Map::new();
    out.insert(
        "title".into(),
        property
            .get("title")
            .cloned()
            .unwrap_or_else(|| Value::String(humane(name))),
    );
    let kind = property
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    match kind {
        "array" => {
            let items = property.get("items").map(|i| resolve(root, i));
            let values = items.and_then(choices).unwrap_or_default();
            out.insert("type".into(), "array".into());
            out.insert("items".into(), json!({ "anyOf": titled(&values) }));
            for key in ["minItems", "maxItems"] {
                if let Some(n) = property.get(key) {
                    out.insert(key.into(), n.clone());
                }
            }
            if property.get("uniqueItems") == Some(&Value::Bool(true)) {
                notes.push("Each choice at most once.".to_owned());
            }
        }
        "integer" | "number" | "boolean" => {
            out.insert("type".into(), kind.into());
            numeric(property, kind, &mut out, &mut notes);
        }
        _ => {
            out.insert("type".into(), "string".into());
            if let Some(values) = choices(property) {
                out.insert("oneOf".into(), Value::Array(titled(&values)));
            }
            for key in ["minLength", "maxLength"] {
                if let Some(n) = property.get(key) {
                    out.insert(key.into(), n.clone());
                }
            }
            if let Some(format) = property.get("format").and_then(Value::as_str) {
                if FORM_FORMATS.contains(&format) {
                    out.insert("format".into(), format.into());
                } else {
                    notes.push(format!("Written in the format {format}."));
                }
            }
            // A date's pattern is its format's, which the form carries.
            let dated = matches!(
                out.get("format").and_then(Value::as_str),
                Some("date" | "date-time")
            );
            if let Some(pattern) = property.get("pattern").and_then(Value::as_str)
                && !dated
            {
                notes.push(format!("It must match the pattern {pattern}."));
            }
        }
    }
    if let Some(default) = property.get("default").filter(|d| !d.is_object()) {
        out.insert("default".into(), default.clone());
    }
    let mut description = property
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    for note in notes {
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&note);
    }
    if !description.is_empty() {
        out.insert("description".into(), description.into());
    }
    (out, optional)
}

/// Bounds a form carries, and those it says: an integer's exclusive bound is the next
/// integer; a number's is written out, as is a factor.
fn numeric(property: &Value, kind: &str, out: &mut Map<String, Value>, notes: &mut Vec<String>) {
    for key in ["minimum", "maximum"] {
        if let Some(n) = property.get(key) {
            out.insert(key.into(), n.clone());
        }
    }
    for (key, inclusive, step, words) in [
        ("exclusiveMinimum", "minimum", 1, "above"),
        ("exclusiveMaximum", "maximum", -1, "below"),
    ] {
        let Some(bound) = property.get(key) else {
            continue;
        };
        match bound.as_i64() {
            Some(n) if kind == "integer" => {
                out.insert(inclusive.into(), (n + step).into());
            }
            _ => notes.push(format!("It must be {words} {bound}.")),
        }
    }
    if let Some(factor) = property.get("multipleOf") {
        notes.push(format!("It must be a multiple of {factor}."));
    }
}

/// The schema without its "or null" (an `Option`), and whether it had one.
fn without_null<'a>(root: &'a Value, schema: &'a Value) -> (&'a Value, bool) {
    let schema = resolve(root, schema);
    if let Some(forms) = schema.get("anyOf").and_then(Value::as_array) {
        let other: Vec<&Value> = forms
            .iter()
            .filter(|f| f.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let [one] = other[..]
            && other.len() < forms.len()
        {
            return (resolve(root, one), true);
        }
    }
    if let Some(Value::Array(types)) = schema.get("type")
        && types.iter().any(|t| t == "null")
    {
        return (schema, true);
    }
    (schema, false)
}

/// The schema a local `$ref` names, or the schema itself.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .unwrap_or(schema),
        None => schema,
    }
}

/// The values an `enum` (or `const`, or `anyOf` of `const`s) allows.
fn choices(schema: &Value) -> Option<Vec<Value>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    if let Some(value) = schema.get("const") {
        return Some(vec![value.clone()]);
    }
    let forms = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))?
        .as_array()?;
    forms.iter().map(|f| f.get("const").cloned()).collect()
}

/// `[{"const": value, "title": "Value"}]`: a choice as the user reads it.
fn titled(values: &[Value]) -> Vec<Value> {
    values
        .iter()
        .map(|v| {
            let title = v.as_str().map_or_else(|| v.to_string(), humane);
            json!({ "const": v, "title": title })
        })
        .collect()
}

/// `premium_economy` as `Premium economy`.
fn humane(name: &str) -> String {
    let words = name.replace(['_', '-'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}

/// The confirmation message, its fields' values taken from the checked `arguments`.
pub(crate) fn confirmation(confirm: &Confirm, arguments: &Value) -> String {
    let mut message = String::new();
    for piece in confirm.message {
        match piece {
            Piece::Text(text) => message.push_str(text),
            Piece::Field(name) => match arguments.get(name) {
                None | Some(Value::Null) => message.push_str("(none)"),
                Some(value) => match echo::truncate(value, echo::RECEIVED) {
                    Value::String(s) => message.push_str(&s),
                    other => message.push_str(&other.to_string()),
                },
            },
        }
    }
    message
}

/// A question with choices: one of `options`, each `(value, label)`.
pub(crate) fn choice(question: &str, options: &[(String, String)]) -> Value {
    let one_of: Vec<Value> = options
        .iter()
        .map(|(value, label)| json!({ "const": value, "title": label }))
        .collect();
    let mut properties = Map::new();
    properties.insert(
        "choice".into(),
        json!({ "type": "string", "title": "Choice", "oneOf": one_of }),
    );
    request(question.to_owned(), properties, vec!["choice".into()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_words() {
        assert_eq!(humane("premium_economy"), "Premium economy");
        assert_eq!(humane("departureDate"), "DepartureDate");
        assert_eq!(humane(""), "");
    }

    #[test]
    fn an_integers_exclusive_bounds_are_the_next_integers() {
        let (form, optional) = flat(
            &Value::Null,
            &json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 2}),
            "n",
        );
        assert!(!optional);
        assert_eq!(form["minimum"], 1);
        assert_eq!(form["maximum"], 9);
        assert_eq!(form["description"], "It must be a multiple of 2.");
        let (form, _) = flat(
            &Value::Null,
            &json!({"type": "number", "exclusiveMinimum": 0.5}),
            "x",
        );
        assert_eq!(form.get("minimum"), None);
        assert_eq!(form["description"], "It must be above 0.5.");
    }

    #[test]
    fn an_option_may_be_left_empty() {
        let (form, optional) = flat(
            &Value::Null,
            &json!({"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}]}),
            "id",
        );
        assert!(optional);
        assert_eq!(form.get("format"), None);
        assert_eq!(form["description"], "Written in the format uuid.");
    }
}
