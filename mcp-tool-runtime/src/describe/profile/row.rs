//! The questions asked of a client profile: one field each. A profile is one row
//! (`ProfileRules`, in `mod.rs`), written out field by field, so that a new question is
//! a field every row must answer and a new profile must answer every question.

/// What a client family takes of JSON Schema, and what is said in words instead of
/// what it does not take. Read by `adapt.rs` where the schema is rewritten, and by the
/// judge of arguments (`null_is_absent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProfileRules {
    /// The profile's name, as `FromStr` reads it and `Display` writes it.
    pub name: &'static str,
    /// Words of the `clientInfo.name` of the clients this profile is for (lower case);
    /// none for a profile no client is given by name.
    pub clients: &'static [&'static str],
    /// Whether the schema keeps `$schema` (the dialect is 2020-12 without it; the
    /// strict profiles know no other word).
    pub dialect: bool,
    /// How "this or null" is written.
    pub null: NullForm,
    /// Whether a `null` for an optional property reads as "left out": the runtime
    /// accepts what the profile's schema asks for.
    pub null_is_absent: bool,
    /// Whether every property is in `required`, the optional ones made nullable.
    pub all_required: bool,
    /// Whether an object with properties is closed (`additionalProperties: false`).
    pub closed_objects: bool,
    /// The string formats kept; the others said in words.
    pub formats: Formats,
    /// `minimum`, `maximum`, their exclusive forms and `multipleOf`.
    pub bounds: Bounds,
    /// `minLength` and `maxLength` of a string.
    pub lengths: Keyword,
    /// `minItems` and `maxItems` of an array (said, a `minItems` of 0 or 1 is kept).
    pub item_counts: Keyword,
    /// `default`.
    pub defaults: Keyword,
    /// `examples`.
    pub examples: Examples,
    /// `deprecated: true`.
    pub deprecated: Keyword,
    /// The rules across fields (`describe/across.rs`): `dependentRequired`,
    /// `dependentSchemas`, `if`, `then`. Their words are in each required field's
    /// description already, so "said" drops them.
    pub across_fields: Keyword,
    /// `allOf`: a second pattern, format, whitelist or step beside the first.
    pub all_of: Keyword,
    /// `oneOf`: a derived enum's values, each a `const` with its variant's meaning.
    pub one_of: OneOf,
    /// `propertyNames`: a map's names.
    pub property_names: Keyword,
    /// `prefixItems`: a tuple's items in order.
    pub prefix_items: Keyword,
    /// `uniqueItems: true`.
    pub unique_items: Keyword,
    /// An `enum` of values other than strings.
    pub non_string_enum: Keyword,
    /// The keywords the profile knows at all; the others are dropped, those that have
    /// words (`additionalProperties`, `const`, `multipleOf`) said first.
    pub keywords: Keywords,
}

/// A keyword kept as written, or said in words in the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    Kept,
    Said,
}

/// How a schema says "this or null".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NullForm {
    /// `anyOf` of the schema and `{"type": "null"}` (the portable form).
    AnyOf,
    /// A type array for a scalar (`["string", "null"]`), `anyOf` for the rest.
    TypeArray,
    /// OpenAPI 3.0's `nullable: true`: there is no null type, so a union's null branch
    /// becomes `nullable` and a property that can only be null is left out.
    Nullable,
}

/// The formats a profile keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Formats {
    /// Every format.
    Every,
    /// These, on whatever type.
    Named(&'static [&'static str]),
    /// Each of these on the type beside it (`("string", "date-time")`).
    Typed(&'static [(&'static str, &'static str)]),
}

/// What becomes of numeric bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bounds {
    /// Kept as written.
    Kept,
    /// Every bound and `multipleOf` said in words.
    Said,
    /// Inclusive bounds kept; an exclusive bound made inclusive for an integer (more
    /// than 0 is at least 1), said in words otherwise.
    Inclusive,
}

/// What becomes of `examples`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Examples {
    /// Kept as written.
    Kept,
    /// The first as OpenAPI's one `example`.
    First,
    /// Said in words.
    Said,
}

/// What becomes of a `oneOf` of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OneOf {
    /// Kept as written.
    Kept,
    /// The same branches under `anyOf` (the values do not overlap, so it says the same),
    /// without the `type` and `enum` beside it, which the branches say.
    AnyOf,
    /// Each value's meaning said in words beside the `enum`.
    Said,
}

/// The keywords a profile knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keywords {
    /// Every keyword this crate writes (what the other fields leave).
    Every,
    /// Only these.
    Only(&'static [&'static str]),
}

impl Keywords {
    pub(crate) fn knows(self, keyword: &str) -> bool {
        match self {
            Keywords::Every => true,
            Keywords::Only(known) => known.contains(&keyword),
        }
    }
}

impl ProfileRules {
    /// Whether this profile takes the schema as this crate builds it, so that
    /// adapting it changes nothing. Every field is named: a new one must be answered
    /// here too.
    pub(crate) fn as_built(&self) -> bool {
        let ProfileRules {
            name: _,
            clients: _,
            null_is_absent: _,
            dialect,
            null,
            all_required,
            closed_objects,
            formats,
            bounds,
            lengths,
            item_counts,
            defaults,
            examples,
            deprecated,
            across_fields,
            all_of,
            one_of,
            property_names,
            prefix_items,
            unique_items,
            non_string_enum,
            keywords,
        } = *self;
        let kept = [
            lengths,
            item_counts,
            defaults,
            deprecated,
            across_fields,
            all_of,
            property_names,
            prefix_items,
            unique_items,
            non_string_enum,
        ];
        dialect
            && null == NullForm::AnyOf
            && !all_required
            && !closed_objects
            && formats == Formats::Every
            && bounds == Bounds::Kept
            && examples == Examples::Kept
            && one_of == OneOf::Kept
            && keywords == Keywords::Every
            && kept.iter().all(|k| *k == Keyword::Kept)
    }
}
