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
//!
//! A profile is data: one row, [`ProfileRules`] (its questions in `row.rs`), written
//! below field by field, so that the compiler asks every question of every profile;
//! `SchemaProfile::rules` is the one place profiles are told apart. `adapt.rs`
//! rewrites a schema as the row says, `said.rs` holds the words for what it drops.

mod adapt;
mod row;
mod said;

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

pub(crate) use row::ProfileRules;
use row::{Bounds, Examples, Formats, Keyword, Keywords, NullForm, OneOf};

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

    /// What the profile's clients take of JSON Schema: its row. The one place a
    /// profile is told apart from another; everything else reads a field of the row.
    pub(crate) fn rules(self) -> &'static ProfileRules {
        match self {
            SchemaProfile::Portable => &PORTABLE,
            SchemaProfile::OpenAi => &OPENAI,
            SchemaProfile::Gemini => &GEMINI,
            SchemaProfile::Anthropic => &ANTHROPIC,
        }
    }

    /// The profile's name: `portable`, `openai`, `gemini` or `anthropic`.
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The profile a client that calls itself `client_name` (the `clientInfo.name` of
    /// its `initialize`) needs, if this crate knows it: a name containing `openai`,
    /// `chatgpt` or `codex` is OpenAI's; `gemini`, Gemini's; `anthropic`, Anthropic's
    /// API. Case does not matter. Claude's own apps take the portable schema.
    pub fn for_client(client_name: &str) -> Option<SchemaProfile> {
        let name = client_name.to_ascii_lowercase();
        SchemaProfile::ALL.into_iter().find(|profile| {
            profile
                .rules()
                .clients
                .iter()
                .any(|word| name.contains(word))
        })
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// `portable` (an object schema as this crate advertises it) in this profile's form.
    pub fn adapt(self, portable: &Value) -> Value {
        let mut schema = portable.clone();
        let rules = self.rules();
        if let Value::Object(map) = &mut schema
            && !rules.as_built()
        {
            adapt::adapt_root(map, rules);
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
        write!(f, "unknown schema profile {:?}; the profiles are ", self.0)?;
        let [names @ .., last] = SchemaProfile::ALL.map(SchemaProfile::name);
        write!(f, "{} and {last}", names.join(", "))
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

/// The default: the schema as this crate builds it.
const PORTABLE: ProfileRules = ProfileRules {
    name: "portable",
    clients: &[],
    dialect: true,
    null: NullForm::AnyOf,
    null_is_absent: false,
    all_required: false,
    closed_objects: false,
    formats: Formats::Every,
    bounds: Bounds::Kept,
    lengths: Keyword::Kept,
    item_counts: Keyword::Kept,
    defaults: Keyword::Kept,
    examples: Examples::Kept,
    deprecated: Keyword::Kept,
    across_fields: Keyword::Kept,
    all_of: Keyword::Kept,
    one_of: OneOf::Kept,
    property_names: Keyword::Kept,
    prefix_items: Keyword::Kept,
    unique_items: Keyword::Kept,
    non_string_enum: Keyword::Kept,
    keywords: Keywords::Every,
};

/// OpenAI's strict function calling: every property required and the optional ones
/// nullable (so a `null` is "left out"), objects closed, few formats, lengths and
/// defaults in words; no composition keyword but `anyOf`.
const OPENAI: ProfileRules = ProfileRules {
    name: "openai",
    clients: &["openai", "chatgpt", "codex"],
    dialect: false,
    null: NullForm::TypeArray,
    null_is_absent: true,
    all_required: true,
    closed_objects: true,
    formats: Formats::Named(&[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ]),
    bounds: Bounds::Kept,
    lengths: Keyword::Said,
    item_counts: Keyword::Kept,
    defaults: Keyword::Said,
    examples: Examples::Said,
    deprecated: Keyword::Said,
    across_fields: Keyword::Said,
    all_of: Keyword::Said,
    one_of: OneOf::AnyOf,
    property_names: Keyword::Said,
    prefix_items: Keyword::Said,
    unique_items: Keyword::Said,
    non_string_enum: Keyword::Kept,
    keywords: Keywords::Every,
};

/// Gemini's function declarations, an OpenAPI 3.0 subset: only the keywords it knows,
/// `nullable` for null, one string format, exclusive bounds made inclusive, one
/// `example`, an `enum` of strings only.
const GEMINI: ProfileRules = ProfileRules {
    name: "gemini",
    clients: &["gemini"],
    dialect: false,
    null: NullForm::Nullable,
    null_is_absent: false,
    all_required: false,
    closed_objects: false,
    formats: Formats::Typed(&[
        ("string", "date-time"),
        ("number", "float"),
        ("number", "double"),
        ("integer", "int32"),
        ("integer", "int64"),
    ]),
    bounds: Bounds::Inclusive,
    lengths: Keyword::Kept,
    item_counts: Keyword::Kept,
    defaults: Keyword::Kept,
    examples: Examples::First,
    deprecated: Keyword::Said,
    across_fields: Keyword::Said,
    all_of: Keyword::Said,
    one_of: OneOf::Said,
    property_names: Keyword::Said,
    prefix_items: Keyword::Said,
    unique_items: Keyword::Said,
    non_string_enum: Keyword::Said,
    keywords: Keywords::Only(&[
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
    ]),
};

/// Anthropic's strict tool use: no numeric or length bounds (a `minItems` of 0 or 1
/// only), objects closed, its formats; no composition keyword but `anyOf`.
const ANTHROPIC: ProfileRules = ProfileRules {
    name: "anthropic",
    clients: &["anthropic"],
    dialect: false,
    null: NullForm::AnyOf,
    null_is_absent: false,
    all_required: false,
    closed_objects: true,
    formats: Formats::Named(&[
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
    ]),
    bounds: Bounds::Said,
    lengths: Keyword::Said,
    item_counts: Keyword::Said,
    defaults: Keyword::Kept,
    examples: Examples::Said,
    deprecated: Keyword::Said,
    across_fields: Keyword::Said,
    all_of: Keyword::Said,
    one_of: OneOf::AnyOf,
    property_names: Keyword::Said,
    prefix_items: Keyword::Said,
    unique_items: Keyword::Said,
    non_string_enum: Keyword::Kept,
    keywords: Keywords::Every,
};

#[cfg(test)]
mod tests {
    use super::SchemaProfile;

    #[test]
    fn each_profile_is_found_by_its_name_and_its_place() {
        for (i, profile) in SchemaProfile::ALL.into_iter().enumerate() {
            assert_eq!(profile.index(), i);
            assert_eq!(profile.name().parse(), Ok(profile));
        }
    }

    #[test]
    fn only_the_default_takes_the_schema_as_built() {
        // The schemas are built once in the default's form (`describe/schema.rs`), and
        // adapted for every other profile.
        for profile in SchemaProfile::ALL {
            let as_built = profile.rules().as_built();
            assert_eq!(as_built, profile == SchemaProfile::default(), "{profile}");
        }
    }

    #[test]
    fn a_profile_that_requires_every_property_reads_null_as_left_out() {
        // Its schema makes an optional property nullable, so a model sends `null` for
        // one it leaves out; the runtime must read that as the author's `None`.
        for profile in SchemaProfile::ALL {
            let rules = profile.rules();
            assert!(!rules.all_required || rules.null_is_absent, "{profile}");
        }
    }

    #[test]
    fn a_client_name_names_one_profile() {
        for profile in SchemaProfile::ALL {
            for word in profile.rules().clients {
                assert_eq!(*word, word.to_ascii_lowercase(), "compared lower case");
                assert_eq!(SchemaProfile::for_client(word), Some(profile), "{word}");
            }
        }
    }
}
