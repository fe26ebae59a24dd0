//! Schema profiles: one definition of a tool's arguments, advertised in the form each
//! client family takes, and enforced the same way whatever the form.
//!
//! The portable schema is right for most clients. Three families want another form:
//! OpenAI's strict function calling (every property required, optional ones nullable,
//! no other properties, few formats), Gemini's function declarations (an OpenAPI 3.0
//! subset that rejects unknown keywords) and Anthropic's strict tool use (no numeric or
//! length bounds). A constraint a profile cannot carry is written into the property's
//! description, so the model still reads it; the runtime enforces every rule in every
//! profile, and reports a violation exactly as in the portable one.

mod said;

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use said::{keep_formats, move_bounds, move_lengths, note_format};

/// The form of the advertised schemas. The runtime's checks are the same in every
/// profile; only [`SchemaProfile::OpenAi`] changes what it accepts: `null` for an
/// optional property, which its schema makes nullable, reads as "left out".
///
/// ```
/// use mcp_tool::{McpTool, SchemaProfile};
/// use serde::Deserialize;
///
/// /// Book seats.
/// #[derive(McpTool, Deserialize)]
/// struct Book {
///     #[validate(range(min = 1, max = 9))]
///     seats: u8,
///     #[validate(email)]
///     email: Option<String>,
/// }
///
/// let anthropic = Book::input_schema_for(SchemaProfile::Anthropic);
/// assert!(anthropic["properties"]["seats"].get("maximum").is_none());
/// assert_eq!(anthropic["properties"]["seats"]["description"], "From 1 to 9.");
///
/// let openai = Book::input_schema_for(SchemaProfile::OpenAi);
/// assert_eq!(openai["required"], serde_json::json!(["email", "seats"]));
/// assert_eq!(openai["properties"]["email"]["type"], serde_json::json!(["string", "null"]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SchemaProfile {
    /// The default: JSON Schema 2020-12 in the subset every client reads (no `$ref`, no
    /// type arrays, `Option` as "may be left out").
    #[default]
    Portable,
    /// OpenAI strict function calling: every object `additionalProperties: false` with
    /// every property in `required`, optional properties nullable; only the formats
    /// strict mode knows; length bounds and defaults in the description.
    OpenAi,
    /// Gemini function declarations (an OpenAPI 3.0 subset): only the keywords it knows,
    /// `date-time` as the only string format, exclusive bounds made inclusive for
    /// integers; the rest in the description.
    Gemini,
    /// Anthropic strict tool use: no numeric bounds, no length bounds, `minItems` 0 or
    /// 1 only, `additionalProperties: false` on every object; those in the description.
    Anthropic,
}

impl SchemaProfile {
    /// Every profile, the default first.
    pub const ALL: [SchemaProfile; 4] = [
        SchemaProfile::Portable,
        SchemaProfile::OpenAi,
        SchemaProfile::Gemini,
        SchemaProfile::Anthropic,
    ];

    /// The profile's name: `portable`, `openai`, `gemini` or `anthropic`.
    pub fn name(self) -> &'static str {
        match self {
            SchemaProfile::Portable => "portable",
            SchemaProfile::OpenAi => "openai",
            SchemaProfile::Gemini => "gemini",
            SchemaProfile::Anthropic => "anthropic",
        }
    }

    /// The profile a client that calls itself `client_name` (the `clientInfo.name` of
    /// its `initialize`) needs, if this crate knows it: a name containing `openai`,
    /// `chatgpt` or `codex` is OpenAI's; `gemini`, Gemini's; `anthropic`, Anthropic's
    /// API. Case does not matter. Claude's own apps take the portable schema.
    pub fn for_client(client_name: &str) -> Option<SchemaProfile> {
        let name = client_name.to_ascii_lowercase();
        let has = |word: &str| name.contains(word);
        if has("openai") || has("chatgpt") || has("codex") {
            Some(SchemaProfile::OpenAi)
        } else if has("gemini") {
            Some(SchemaProfile::Gemini)
        } else if has("anthropic") {
            Some(SchemaProfile::Anthropic)
        } else {
            None
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// `portable` (an object schema as this crate advertises it) in this profile's form.
    pub fn adapt(self, portable: &Value) -> Value {
        let mut schema = portable.clone();
        if let Value::Object(map) = &mut schema
            && self != SchemaProfile::Portable
        {
            // The dialect is 2020-12 without it; the strict profiles know no other word.
            map.remove("$schema");
            adapt(map, self);
            if self == SchemaProfile::OpenAi {
                openai_required(map);
            }
        }
        schema
    }
}

impl fmt::Display for SchemaProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no profile's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown schema profile {:?}; the profiles are portable, openai, gemini and anthropic",
            self.0
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for SchemaProfile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<Self, UnknownProfile> {
        SchemaProfile::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| UnknownProfile(name.to_owned()))
    }
}

/// Rewrites one schema node for `profile`, its children first.
fn adapt(node: &mut Map<String, Value>, profile: SchemaProfile) {
    // "This or null" is rewritten as the thing, then made nullable in the family's form.
    if unwrap_null(node) {
        adapt(node, profile);
        match profile {
            SchemaProfile::Gemini => {
                node.insert("nullable".into(), true.into());
            }
            SchemaProfile::OpenAi => nullable(node),
            SchemaProfile::Portable | SchemaProfile::Anthropic => {
                *node = crate::describe::argument::nullable(std::mem::take(node));
            }
        }
        return;
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                adapt(property, profile);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(child)) = node.get_mut(key) {
            adapt(child, profile);
        }
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        for branch in branches {
            if let Value::Object(branch) = branch {
                adapt(branch, profile);
            }
        }
    }
    let mut notes = Vec::new();
    if profile != SchemaProfile::Portable {
        // The rules across fields (`describe/across.rs`): no strict mode nor Gemini takes
        // these keywords; the words in each required field's description say them.
        for key in ["dependentRequired", "dependentSchemas", "if", "then"] {
            node.remove(key);
        }
    }
    if profile != SchemaProfile::Portable && node.remove("deprecated") == Some(Value::Bool(true)) {
        notes.push("Deprecated.".into());
    }
    if profile != SchemaProfile::Portable
        && let Some(Value::Array(also)) = node.remove("allOf")
    {
        // A second pattern, format, whitelist or step beside the first (two rules of
        // one value, see `rules::merge`): no strict mode nor Gemini takes `allOf`.
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
    if profile != SchemaProfile::Portable
        && let Some(Value::Object(names)) = node.remove("propertyNames")
    {
        // A map's names (its keys' type): no strict mode nor Gemini takes the keyword.
        if let Some(Value::Array(values)) = names.get("enum") {
            let listed: Vec<String> = values.iter().map(Value::to_string).collect();
            notes.push(format!("Its names are each one of {}.", listed.join(", ")));
        } else if let Some(Value::String(pattern)) = names.get("pattern") {
            notes.push(format!("Its names each match the pattern {pattern}."));
        }
    }
    if profile != SchemaProfile::Portable {
        // Neither strict mode nor Gemini knows these array keywords: said in words.
        if let Some(Value::Array(order)) = node.remove("prefixItems") {
            let kinds: Vec<&str> = order.iter().map(kind_of).collect();
            notes.push(format!("In this order: {}.", kinds.join(", ")));
        }
        if node.remove("uniqueItems") == Some(Value::Bool(true)) {
            notes.push("No item may repeat another.".into());
        }
    }
    if profile != SchemaProfile::Portable
        && let Some(Value::Array(forms)) = node.remove("oneOf")
    {
        // A derived enum's values, each a `const` with its variant's meaning
        // (`enumeration.rs`; no other schema here has a `oneOf`): the values do not
        // overlap, so `anyOf` says the same to the strict modes, which take no `oneOf`,
        // in the form they take a union of values in (the `anyOf` alone: each value is
        // a branch, `type` and `enum` said by them); Gemini takes neither `oneOf` nor
        // `const`, and reads the meanings as words beside the `enum`.
        if profile == SchemaProfile::Gemini {
            notes.extend(forms.iter().filter_map(value_meaning));
        } else {
            node.remove("type");
            node.remove("enum");
            node.insert("anyOf".into(), Value::Array(forms));
        }
    }
    match node.remove("examples") {
        // Gemini takes one `example`; the strict families read examples as words.
        Some(Value::Array(mut examples))
            if profile == SchemaProfile::Gemini && !examples.is_empty() =>
        {
            node.insert("example".into(), examples.swap_remove(0));
        }
        Some(Value::Array(_)) if profile == SchemaProfile::Gemini => {}
        Some(Value::Array(examples)) if profile != SchemaProfile::Portable => {
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
    match profile {
        SchemaProfile::Portable => {}
        SchemaProfile::OpenAi => {
            keep_formats(node, OPENAI_FORMATS, &mut notes);
            move_lengths(node, false, &mut notes);
            if let Some(default) = node.remove("default") {
                notes.push(format!("Default: {default}."));
            }
            strict_object(node);
        }
        SchemaProfile::Gemini => gemini(node, &mut notes),
        SchemaProfile::Anthropic => {
            keep_formats(node, ANTHROPIC_FORMATS, &mut notes);
            move_bounds(node, &mut notes);
            move_lengths(node, true, &mut notes);
            strict_object(node);
        }
    }
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

const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The keywords Gemini's function declarations know.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "properties",
    "required",
    "anyOf",
    "propertyOrdering",
    "items",
    "default",
    "example",
];

/// An object with properties, as strict modes want it: no other properties. (A map,
/// whose `additionalProperties` is the schema of its values, keeps it: no strict form
/// says "any names".)
fn strict_object(node: &mut Map<String, Value>) {
    let Some(Value::Object(_)) = node.get("properties") else {
        return;
    };
    if !node.contains_key("additionalProperties") {
        node.insert("additionalProperties".into(), false.into());
    }
}

/// OpenAI's form of an object: every property required, the optional ones nullable.
fn openai_required(node: &mut Map<String, Value>) {
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(child)) = node.get_mut(key) {
            openai_required(child);
        }
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        for branch in branches {
            if let Value::Object(branch) = branch {
                openai_required(branch);
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
            openai_required(property);
            if !required.contains(name) {
                nullable(property);
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

/// `node` that also accepts `null`: a type array for a scalar, `anyOf` for the rest.
fn nullable(node: &mut Map<String, Value>) {
    if crate::describe::argument::is_nullable(node) {
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

/// Gemini's subset: unknown keywords out (their meaning in words), exclusive integer
/// bounds made inclusive, one format.
fn gemini(node: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let ty = node.get("type").and_then(Value::as_str).map(str::to_owned);
    if let Some(Value::String(format)) = node.get("format") {
        let known = match ty.as_deref() {
            Some("string") => format == "date-time",
            Some("number") => format == "float" || format == "double",
            Some("integer") => format == "int32" || format == "int64",
            _ => false,
        };
        if !known {
            note_format(node, notes);
        }
    }
    let mut said = Vec::new();
    for (exclusive, inclusive, step, words) in [
        ("exclusiveMinimum", "minimum", 1i64, "more than"),
        ("exclusiveMaximum", "maximum", -1, "less than"),
    ] {
        let Some(bound) = node.remove(exclusive) else {
            continue;
        };
        // Exact for integers: more than 0 is at least 1.
        match (ty.as_deref(), bound.as_i64()) {
            (Some("integer"), Some(n)) if n.checked_add(step).is_some() => {
                node.insert(inclusive.into(), (n + step).into());
            }
            _ => said.push(format!("{words} {bound}")),
        }
    }
    if !said.is_empty() {
        notes.push(capitalize(&format!("{}.", said.join(" and "))));
    }
    // OpenAPI 3.0 has no null type: a union that also takes null (an untagged unit
    // variant) is nullable; a property that can only be null (a recursive struct's last
    // level) is left out.
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
    match node.remove("additionalProperties") {
        Some(Value::Bool(false)) => notes.push("No other properties.".into()),
        Some(Value::Object(_)) => notes.push("Any property names.".into()),
        _ => {}
    }
    if let Some(Value::Array(values)) = node.get("enum")
        && !values.iter().all(Value::is_string)
    {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        notes.push(format!("One of {}.", listed.join(", ")));
        node.remove("enum");
    }
    if let Some(value) = node.remove("const") {
        notes.push(format!("Exactly {value}."));
    }
    if let Some(multiple) = node.remove("multipleOf") {
        notes.push(format!("A multiple of {multiple}."));
    }
    node.retain(|key, _| GEMINI_KEYWORDS.contains(&key.as_str()));
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

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
