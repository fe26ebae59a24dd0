//! The model between parsing and expansion: the struct as the client sees it (serde's
//! names, defaults and skips), with each rule checked.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use serde_derive_internals::{Ctxt, ast as serde_ast, attr as serde_attr};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

use crate::attr::{self, ContainerAttrs, FieldRules};
use crate::check;
use crate::ctxt::Errors;
use crate::rules::{self, Bound, EnumValues, Number, RuleDef, RuleKind};

pub struct Tool<'a> {
    pub ident: &'a Ident,
    pub krate: syn::Path,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub annotations: [Option<bool>; 4],
    pub allow_unknown_fields: bool,
    pub body: Body<'a>,
}

/// What the type is made of, as the client sends it.
pub enum Body<'a> {
    /// A struct with named fields: an object.
    Struct(Vec<Field<'a>>),
    /// One value of another type, with rules of its own: a tuple struct of one field,
    /// `#[serde(transparent)]`, or `#[serde(from/try_from = "T")]`.
    Newtype(Box<Inner<'a>>),
    /// An enum with data: one of several forms.
    Union {
        repr: Repr,
        variants: Vec<Variant<'a>>,
    },
}

/// A value of a type that is not named by a field: a newtype's, a variant's.
pub struct Inner<'a> {
    pub ty: std::borrow::Cow<'a, syn::Type>,
    pub own: Vec<Rule>,
    pub items: Vec<Rule>,
    pub items_span: Option<Span>,
    /// Never echoed: a newtype for a secret.
    pub sensitive: bool,
}

/// serde's representation of an enum.
pub enum Repr {
    External,
    Internal(String),
    Adjacent(String, String),
    Untagged,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub name: String,
    pub description: Option<String>,
    pub shape: VariantShape<'a>,
}

pub enum VariantShape<'a> {
    Unit,
    Newtype(Box<Inner<'a>>),
    Tuple(Vec<Inner<'a>>),
    Struct(Vec<Field<'a>>),
}

pub struct Field<'a> {
    pub wire: String,
    pub ty: &'a syn::Type,
    pub description: Option<String>,
    pub title: Option<String>,
    pub examples: Vec<syn::Expr>,
    pub deprecated: bool,
    /// `#[schemars(required)]`: must be sent whatever its type.
    pub force_required: bool,
    /// `#[serde(flatten)]`: its struct's fields (or a map's names) stand in this object.
    pub flatten: bool,
    /// `#[mcp_tool(schemars)]`: its type has no `Argument`, only `JsonSchema`.
    pub schemars: bool,
    pub has_default: bool,
    /// Where serde takes the value from when it is not sent, written as an expression
    /// of the field's type: it becomes the schema's `default`.
    pub default: Option<TokenStream>,
    pub sensitive: bool,
    pub own: Vec<Rule>,
    pub items: Vec<Rule>,
    pub items_span: Option<Span>,
}

pub struct Rule {
    /// Its row of the rules table.
    pub def: &'static RuleDef,
    pub span: Span,
    pub kind: Kind,
    pub message: Option<LitStr>,
    pub hint: Option<LitStr>,
}

pub enum Kind {
    Regex {
        source: LitStr,
        runtime: String,
    },
    Enum(EnumValues),
    Date {
        future: bool,
        format: String,
        /// `format = "..."` was written: the field is a string in that format.
        explicit: bool,
    },
    Range {
        min: Option<(Number, bool)>,
        max: Option<(Number, bool)>,
    },
    Length {
        min: Option<u64>,
        max: Option<u64>,
    },
    MultipleOf(Number),
    Email,
    Url,
    Uuid,
    Custom {
        function: syn::Path,
        description: Option<LitStr>,
    },
}

pub struct Enum<'a> {
    pub ident: &'a Ident,
    pub krate: syn::Path,
    pub description: Option<String>,
    pub values: Vec<String>,
}

fn serde_container<'a>(
    input: &'a DeriveInput,
    errors: &mut Errors,
) -> Option<serde_ast::Container<'a>> {
    let cx = Ctxt::new();
    let private = Ident::new("__private", Span::call_site());
    let container = serde_ast::Container::from_ast(
        &cx,
        input,
        serde_derive_internals::Derive::Deserialize,
        &private,
    );
    if let Err(e) = cx.check() {
        errors.push(e);
        return None;
    }
    container
}

fn krate(attrs: &ContainerAttrs) -> syn::Path {
    attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcp_tool))
}

fn reject_generics(input: &DeriveInput, what: &str, errors: &mut Errors) {
    if !input.generics.params.is_empty() {
        errors.spanned(
            &input.generics,
            format!("{what} does not support generic parameters or lifetimes: the schema is built once per type"),
        );
    }
}

/// Which derive reads the type: its name starts every message about what it refuses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// `McpTool`: the type is a tool's arguments.
    Tool,
    /// `Argument`: the type is a value inside them.
    Argument,
}

impl Derive {
    pub fn name(self) -> &'static str {
        match self {
            Derive::Tool => "McpTool",
            Derive::Argument => "Argument",
        }
    }
}

impl<'a> Tool<'a> {
    pub fn from_input(input: &'a DeriveInput, derive: Derive) -> Result<Self, Errors> {
        let mut errors = Errors::default();
        let what = derive.name();
        if let syn::Data::Union(_) = &input.data {
            errors.spanned(
                &input.ident,
                format!("{what} needs a struct or an enum, not a union"),
            );
            return Err(errors);
        }
        reject_generics(input, what, &mut errors);
        let attrs = ContainerAttrs::parse(&input.attrs, &mut errors, derive);
        let Some(container) = serde_container(input, &mut errors) else {
            return Err(errors);
        };
        check_serde_container(&container.attrs, input, derive, &mut errors);
        if let (Some(span), true) = (
            attrs.allow_unknown_fields,
            container.attrs.deny_unknown_fields(),
        ) {
            errors.at(
                span,
                "`allow_unknown_fields` contradicts #[serde(deny_unknown_fields)]: serde would reject what the schema allows",
            );
        }
        let body = match crate::shapes::body(input, &container, derive, &mut errors) {
            Some(body) => body,
            None => return Err(errors),
        };
        let name = match &attrs.name {
            Some(lit) => {
                let name = lit.value();
                if name.is_empty()
                    || name.len() > 128
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    errors.spanned(
                        lit,
                        "a tool name is 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
                    );
                }
                name
            }
            None => snake_case(&input.ident.to_string()),
        };
        let tool = Tool {
            ident: &input.ident,
            krate: krate(&attrs),
            name,
            title: attrs.title.as_ref().map(LitStr::value),
            description: attrs
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_comment(&input.attrs)),
            annotations: [
                attrs.read_only,
                attrs.destructive,
                attrs.idempotent,
                attrs.open_world,
            ],
            allow_unknown_fields: attrs.allow_unknown_fields.is_some(),
            body,
        };
        errors.finish(tool)
    }
}

/// The fields serde reads of a struct or a struct variant, each with its rules checked.
/// `container_default` is the struct's `#[serde(default)]` value, whose fields stand in
/// for the ones not sent.
pub fn fields<'a>(
    serde_fields: &[serde_ast::Field<'a>],
    container_default: Option<&TokenStream>,
    errors: &mut Errors,
) -> Vec<Field<'a>> {
    let mut fields = Vec::new();
    for field in serde_fields {
        let rules = FieldRules::parse(&field.original.attrs, errors);
        if field.attrs.skip_deserializing() {
            if let Some(rule) = rules.own.first() {
                errors.at(
                    rule.span,
                    "this field is skipped by serde, so its rules would never run",
                );
            }
            continue;
        }
        check_serde_field(field, errors);
        let flatten = field.attrs.flatten();
        if let (true, Some(rule)) = (flatten, rules.own.first().or(rules.items.first())) {
            errors.at(
                rule.span,
                "a flattened field has no value of its own to check: put the rules on the fields of the struct it flattens",
            );
        }
        let own = checked_rules(rules.own, errors);
        let items = checked_rules(rules.items, errors);
        fields.push(Field {
            wire: field.attrs.name().deserialize_name().value.clone(),
            ty: field.ty,
            description: rules
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_comment(&field.original.attrs)),
            title: rules.title.as_ref().map(LitStr::value),
            examples: rules.examples,
            deprecated: rules.deprecated,
            force_required: rules.required.is_some(),
            flatten,
            schemars: rules.schemars.is_some(),
            has_default: container_default.is_some() || !field.attrs.default().is_none(),
            default: match field.attrs.default() {
                serde_attr::Default::Default => {
                    let ty = field.ty;
                    Some(quote!(<#ty as ::core::default::Default>::default()))
                }
                serde_attr::Default::Path(path) => Some(quote!(#path())),
                serde_attr::Default::None => container_default.map(|value| {
                    let member = &field.member;
                    quote!(#value.#member)
                }),
            },
            sensitive: rules.sensitive.is_some(),
            own,
            items,
            items_span: rules.items_span,
        });
    }
    fields
}

/// Each rule with its literals checked, the wrong ones reported and left out.
pub fn checked_rules(rules: Vec<attr::Rule>, errors: &mut Errors) -> Vec<Rule> {
    let rules: Vec<Rule> = rules
        .into_iter()
        .filter_map(|r| checked(r, errors))
        .collect();
    check_combinations(&rules, errors);
    rules
}

impl<'a> Enum<'a> {
    pub fn from_input(input: &'a DeriveInput) -> Result<Self, Errors> {
        let mut errors = Errors::default();
        let syn::Data::Enum(data) = &input.data else {
            errors.spanned(
                &input.ident,
                "McpEnum derives a string whitelist from an enum of unit variants; for a struct, derive McpTool",
            );
            return Err(errors);
        };
        for variant in &data.variants {
            if !matches!(variant.fields, syn::Fields::Unit) {
                errors.spanned(
                    variant,
                    "McpEnum needs unit variants: each variant is one allowed string value",
                );
            }
        }
        if data.variants.is_empty() {
            errors.spanned(
                &input.ident,
                "McpEnum needs at least one variant: an empty enum accepts no value",
            );
        }
        reject_generics(input, "McpEnum", &mut errors);
        let attrs = ContainerAttrs::parse(&input.attrs, &mut errors, crate::attr::Keys::Enum);
        if !errors.is_empty() {
            return Err(errors);
        }
        let Some(container) = serde_container(input, &mut errors) else {
            return Err(errors);
        };
        if !matches!(container.attrs.tag(), serde_attr::TagType::External) {
            errors.spanned(
                &input.ident,
                "McpEnum reads plain string values; #[serde(tag, content, untagged)] change that shape",
            );
        }
        let serde_ast::Data::Enum(variants) = &container.data else {
            return Err(errors);
        };
        let mut values = Vec::new();
        for variant in variants {
            let Some(name) = variant_name(variant, &mut errors) else {
                continue;
            };
            values.push(name);
        }
        let en = Enum {
            ident: &input.ident,
            krate: krate(&attrs),
            description: attrs
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_comment(&input.attrs)),
            values,
        };
        errors.finish(en)
    }
}

/// A variant's name on the wire, `None` for one serde skips; what serde would read that
/// no schema can list (`other`, `alias`) is refused.
pub fn variant_name(variant: &serde_ast::Variant, errors: &mut Errors) -> Option<String> {
    if variant.attrs.skip_deserializing() {
        return None;
    }
    if variant.attrs.other() {
        errors.spanned(
            variant.original,
            "#[serde(other)] accepts any value, which no schema can list: name every variant",
        );
    }
    let name = variant.attrs.name().deserialize_name().value.clone();
    if variant.attrs.aliases().iter().any(|a| a.value != name) {
        errors.spanned(
            variant.original,
            "#[serde(alias)] would accept a name the schema does not list, so the model would never learn it: remove it; a value sent under the old name is told \"did you mean\" the new one",
        );
    }
    Some(name)
}

fn check_serde_container(
    attrs: &serde_attr::Container,
    input: &DeriveInput,
    derive: Derive,
    errors: &mut Errors,
) {
    if attrs.remote().is_some() {
        errors.spanned(
            &input.ident,
            "#[serde(remote)] describes another crate's type, which the derived schema could not follow",
        );
    }
    let reads_another =
        attrs.transparent() || attrs.type_from().is_some() || attrs.type_try_from().is_some();
    if derive == Derive::Tool && reads_another {
        errors.spanned(
            &input.ident,
            "McpTool needs an object of named arguments, and #[serde(transparent/from/try_from)] reads another type: derive Argument on this type and make it a field of the tool's arguments",
        );
    }
}

fn check_serde_field(field: &serde_ast::Field, errors: &mut Errors) {
    let original = field.original;
    let span_of = || {
        original
            .ident
            .as_ref()
            .map_or_else(|| original.span(), Ident::span)
    };
    if field.attrs.deserialize_with().is_some() {
        errors.at(
            span_of(),
            "#[serde(deserialize_with/with)] reads the value in a way the schema cannot describe; use a type that derives McpTool or McpEnum, or implement Argument",
        );
    }
    let name = &field.attrs.name().deserialize_name().value;
    if field.attrs.aliases().iter().any(|a| &a.value != name) {
        errors.at(
            span_of(),
            "#[serde(alias)] would accept a name the schema does not list, so the model would never learn it: remove it; a client that sends the old name is then told \"did you mean\" the new one",
        );
    }
}

/// Checks a rule's literals; `None` (with the error recorded) when one is wrong.
fn checked(rule: attr::Rule, errors: &mut Errors) -> Option<Rule> {
    let span = rule.span;
    let kind = match rule.kind {
        RuleKind::Regex(lit) => match check::regex(&lit.value()) {
            Ok(runtime) => Kind::Regex {
                source: lit,
                runtime,
            },
            Err(message) => {
                errors.spanned(&lit, message);
                return None;
            }
        },
        RuleKind::Enum(values) => {
            if let EnumValues::List(list, list_span) = &values {
                if list.is_empty() {
                    errors.at(*list_span, "empty `enum`: list at least one allowed value");
                    return None;
                }
                for (i, lit) in list.iter().enumerate() {
                    if list[..i].iter().any(|l| l.value() == lit.value()) {
                        errors.spanned(
                            lit,
                            format!("{:?} is listed twice in this `enum`", lit.value()),
                        );
                        return None;
                    }
                }
            }
            Kind::Enum(values)
        }
        RuleKind::Date { future, format } => {
            let text = format
                .as_ref()
                .map_or_else(|| "%Y-%m-%d".to_owned(), LitStr::value);
            if let Err(message) = check::date_format(&text) {
                match &format {
                    Some(lit) => errors.spanned(lit, message),
                    None => errors.at(span, message),
                }
                return None;
            }
            Kind::Date {
                future,
                explicit: format.is_some(),
                format: text,
            }
        }
        RuleKind::Range(r) => {
            let min = bound(r.min, r.exclusive_min, "min", errors)?;
            let max = bound(r.max, r.exclusive_max, "max", errors)?;
            if min.is_none() && max.is_none() {
                errors.at(
                    span,
                    "`range` needs a bound: min, max, exclusive_min or exclusive_max",
                );
                return None;
            }
            if let (Some((lo, lo_excl, _)), Some((hi, hi_excl, hi_span))) = (min, max)
                && (lo.as_f64() > hi.as_f64()
                    || (lo.as_f64() == hi.as_f64() && (lo_excl || hi_excl)))
            {
                errors.at(
                    hi_span,
                    "`range` is empty: its minimum is not below its maximum",
                );
                return None;
            }
            Kind::Range {
                min: min.map(|(v, e, _)| (v, e)),
                max: max.map(|(v, e, _)| (v, e)),
            }
        }
        RuleKind::Length(l) => {
            let (min, max) = match (l.equal, l.min, l.max) {
                (Some((n, _)), None, None) => (Some(n), Some(n)),
                (Some((_, s)), _, _) => {
                    errors.at(s, "`length(equal)` excludes `min` and `max`");
                    return None;
                }
                (None, None, None) => {
                    errors.at(span, "`length` needs min, max or equal");
                    return None;
                }
                (None, min, max) => {
                    if let (Some((lo, _)), Some((hi, s))) = (min, max)
                        && lo > hi
                    {
                        errors.at(
                            s,
                            format!("`length` is empty: min {lo} is more than max {hi}"),
                        );
                        return None;
                    }
                    (min.map(|m| m.0), max.map(|m| m.0))
                }
            };
            Kind::Length { min, max }
        }
        RuleKind::MultipleOf(factor) => match factor {
            Some(Bound { value, .. }) if value.as_f64() > 0.0 => Kind::MultipleOf(value),
            Some(Bound { span, .. }) => {
                errors.at(span, "`multiple_of` needs a factor greater than zero");
                return None;
            }
            None => {
                errors.at(span, "`multiple_of` needs a factor: `multiple_of = 5`");
                return None;
            }
        },
        RuleKind::Email => Kind::Email,
        RuleKind::Url => Kind::Url,
        RuleKind::Uuid => Kind::Uuid,
        RuleKind::Custom {
            function,
            description,
        } => Kind::Custom {
            function,
            description,
        },
    };
    Some(Rule {
        def: rules::rule(rule.name).expect("the parser read the rule from the table"),
        span,
        kind,
        message: rule.message,
        hint: rule.hint,
    })
}

/// One side of a range: the inclusive or the exclusive bound, not both.
#[allow(clippy::type_complexity)]
fn bound(
    inclusive: Option<Bound>,
    exclusive: Option<Bound>,
    side: &str,
    errors: &mut Errors,
) -> Option<Option<(Number, bool, Span)>> {
    match (inclusive, exclusive) {
        (Some(_), Some(e)) => {
            errors.at(
                e.span,
                format!("give `{side}` or `exclusive_{side}`, not both"),
            );
            None
        }
        (Some(b), None) => Some(Some((b.value, false, b.span))),
        (None, Some(b)) => Some(Some((b.value, true, b.span))),
        (None, None) => Some(None),
    }
}

fn check_combinations(rules: &[Rule], errors: &mut Errors) {
    let future = rules
        .iter()
        .find(|r| matches!(r.kind, Kind::Date { future: true, .. }));
    let past = rules
        .iter()
        .find(|r| matches!(r.kind, Kind::Date { future: false, .. }));
    if let (Some(_), Some(past)) = (future, past) {
        errors.at(
            past.span,
            "`future_date` and `past_date` together accept no date",
        );
    }
}

/// The doc comment as one text: lines joined, paragraphs kept apart.
pub fn doc_comment(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            lines.push(s.value());
        }
    }
    let mut out = String::new();
    let mut paragraph_break = false;
    for line in lines.iter().flat_map(|l| l.lines()) {
        let line = line.trim();
        if line.is_empty() {
            paragraph_break = !out.is_empty();
            continue;
        }
        if paragraph_break {
            out.push_str("\n\n");
            paragraph_break = false;
        } else if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}

/// `BookFlight` -> `book_flight`, `HTTPRequest` -> `http_request`.
pub fn snake_case(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
