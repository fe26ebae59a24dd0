//! The fields serde reads of a struct or of a struct variant, and a variant's name: each
//! field's attributes read (`#[validate]`, `#[schemars]`, `#[deprecated]`), and what
//! serde would read that no schema can say refused.

use proc_macro2::TokenStream;
use quote::quote;
use serde_derive_internals::{ast as serde_ast, attr as serde_attr};
use syn::LitStr;

use crate::attr::{FieldRules, doc_comment};
use crate::ctxt::Errors;
use crate::model::Field;
use crate::rules::Parsed;

/// What the attributes of a field of type `ty` say: `#[mcp_tool(schemars)]`,
/// `#[validate(...)]` and `#[garde(...)]`, then `#[schemars(...)]`.
pub fn attributes(attrs: &[syn::Attribute], ty: &syn::Type, errors: &mut Errors) -> FieldRules {
    let mut rules = FieldRules::parse(attrs, option_of(ty).is_some(), errors);
    crate::schemars::field(attrs, &mut rules, errors);
    rules
}

/// `T`, for a type written `Option<T>` (or `std::option::Option<T>`).
fn option_of(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match (last.ident == "Option", args.args.first(), args.args.len()) {
        (true, Some(syn::GenericArgument::Type(inner)), 1) => Some(inner),
        _ => None,
    }
}

/// The fields serde reads of a struct or a struct variant, each with its rules as
/// written.
/// `container_default` is the struct's `#[serde(default)]` value, whose fields stand in
/// for the ones not sent.
pub fn fields<'a>(
    serde_fields: &[serde_ast::Field<'a>],
    container_default: Option<&TokenStream>,
    errors: &mut Errors,
) -> Vec<Field<'a, Parsed>> {
    let mut fields = Vec::new();
    for field in serde_fields {
        let rules = attributes(&field.original.attrs, field.ty, errors);
        // garde's and validator's `required`: an `Option<T>` that must hold a value is
        // read as the `T` it holds (sent, and not `null`), which serde puts in `Some`.
        // schemars' `required` on an `Option<T>` means the same: its schema is `T`'s,
        // with no `null`.
        let schemars_present = rules.required.filter(|_| option_of(field.ty).is_some());
        let present = match (rules.present.or(schemars_present), option_of(field.ty)) {
            (Some(_), Some(inner)) => Some(inner),
            (Some(span), None) => {
                errors.at(
                    span,
                    "`required` (garde's and validator's) applies to a field of type `Option<T>`, which must then be sent with a value: write the type as `Option<...>`, or remove `required` (a field of another type is required already, unless it has #[serde(default)])",
                );
                None
            }
            (None, _) => None,
        };
        if field.attrs.skip_deserializing() {
            if let Some(rule) = rules.own.first() {
                errors.at(
                    rule.span,
                    "this field is skipped by serde, so its rules would never run",
                );
            }
            continue;
        }
        if let (Some(span), Some(_)) = (rules.lenient, field.attrs.deserialize_with()) {
            errors.at(
                span,
                "`lenient` makes the type's own Deserialize the field's reading, and #[serde(deserialize_with)] is a reading already, which the checks defer to: remove `lenient`",
            );
        }
        let flatten = field.attrs.flatten();
        if let (true, Some(rule)) = (flatten, rules.own.first().or(rules.items.first())) {
            errors.at(
                rule.span,
                "a flattened field has no value of its own to check: put the rules on the fields of the struct it flattens",
            );
        }
        fields.push(Field {
            wire: field.attrs.name().deserialize_name().value.clone(),
            member: match &field.member {
                syn::Member::Named(ident) => ident.to_string().trim_start_matches("r#").to_owned(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            },
            ask: rules.ask,
            like: rules.like,
            reads: field.attrs.deserialize_with().cloned(),
            lenient: rules.lenient.is_some(),
            schema_from: rules.schema_from,
            extends: rules.extends,
            transforms: rules.transforms,
            aliases: {
                let name = &field.attrs.name().deserialize_name().value;
                let mut aliases: Vec<String> = field
                    .attrs
                    .aliases()
                    .iter()
                    .map(|a| a.value.clone())
                    .filter(|a| a != name)
                    .collect();
                aliases.sort();
                aliases
            },
            ty: present.unwrap_or(field.ty),
            description: rules
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_comment(&field.original.attrs)),
            title: rules.title.as_ref().map(LitStr::value),
            examples: rules.examples,
            deprecated: rules.deprecated,
            force_required: rules.required.is_some() || present.is_some(),
            flatten,
            schemars: rules.schemars.is_some(),
            has_default: present.is_none()
                && (container_default.is_some() || !field.attrs.default().is_none()),
            default: match field.attrs.default() {
                // What serde would default to is `None` or not, and never taken: the
                // value is required.
                _ if present.is_some() => None,
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
            schemars_default: rules.schemars_default.is_some(),
            sensitive: rules.sensitive.is_some(),
            own: rules.own,
            items: rules.items,
            items_span: rules.items_span,
        });
    }
    fields
}

/// A variant's name on the wire and its former names (`#[serde(alias)]`), `None` for
/// one serde skips; what serde would read that no schema can list (`other`) is refused.
pub fn variant_name(
    variant: &serde_ast::Variant,
    errors: &mut Errors,
) -> Option<(String, Vec<String>)> {
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
    let mut aliases: Vec<String> = variant
        .attrs
        .aliases()
        .iter()
        .map(|a| a.value.clone())
        .filter(|a| *a != name)
        .collect();
    aliases.sort();
    Some((name, aliases))
}
