//! Reading a type: serde's reading of its container, our container attributes, its
//! name and description; what it is made of is `shapes.rs`'s, its fields `fields.rs`'s.
//! What cannot be read (a union, generics, serde attributes no schema can say) is
//! refused here; what the author wrote is vetted after, in `vet.rs`.

use proc_macro2::{Ident, Span};
use serde_derive_internals::{Ctxt, ast as serde_ast, attr as serde_attr};
use syn::{DeriveInput, LitStr};

use crate::attr::{ContainerAttrs, doc_comment};
use crate::ctxt::Errors;
use crate::model::{Derive, Enum, Read, Tool};

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

/// `#[mcp_tool(...)]` on the type, with `#[schemars(description, title)]` where it does
/// not say them.
/// Also gives the rest of `#[schemars(...)]`: `extend(...)`'s keywords, `transparent`.
fn container_attrs(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
    keys: impl Into<crate::attr::Keys>,
) -> (ContainerAttrs, crate::schemars::ContainerMeta) {
    let mut schemars = crate::schemars::container(attrs, errors);
    crate::garde::container(attrs, errors);
    let mut out = ContainerAttrs::parse(attrs, errors, keys);
    for (ours, theirs, key) in [
        (
            &mut out.description,
            schemars.description.take(),
            "description",
        ),
        (&mut out.title, schemars.title.take(), "title"),
    ] {
        match (ours.is_some(), theirs) {
            (true, Some(lit)) => errors.spanned(
                &lit,
                format!("`{key}` is given in #[mcp_tool] and #[schemars]: keep one"),
            ),
            (false, Some(lit)) => *ours = Some(lit),
            (_, None) => {}
        }
    }
    (out, schemars)
}

/// `#[schemars(extend(...))]` on an enum with data that is a whole tool's arguments:
/// refused, at its first keyword. The tool's schema is one object merging the forms
/// (a portable root takes no union), where keywords written for the union would say
/// something else; on the enum as a field's type (`Argument`) they are read.
fn refuse_extend(extends: &[(LitStr, syn::Expr)], errors: &mut Errors) {
    if let Some((key, _)) = extends.first() {
        errors.spanned(
            key,
            "#[schemars(extend(...))] on a tool's arguments that are an enum with data is not read: the tool's schema merges the forms into one object, where keywords written for the union would say something else. Put the keywords on the variants' fields, or make the enum a field's type (`#[derive(Argument)]`), where they are read",
        );
    }
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

/// Reads a struct or an enum with data for `derive`: what it is as serde reads it, each
/// rule as written; `None` (with the errors recorded) where it cannot be read. What the
/// author wrote is vetted next, by `vet.rs`.
pub fn read<'a>(input: &'a DeriveInput, derive: Derive, errors: &mut Errors) -> Option<Read<'a>> {
    let what = derive.name();
    if let syn::Data::Union(_) = &input.data {
        errors.spanned(
            &input.ident,
            format!("{what} needs a struct or an enum, not a union"),
        );
        return None;
    }
    reject_generics(input, what, errors);
    let (attrs, schemars) = container_attrs(&input.attrs, errors, derive);
    let extends = schemars.extends;
    let container = serde_container(input, errors)?;
    vet_serde_container(&container.attrs, input, derive, errors);
    let body = crate::shapes::body(input, &container, derive, schemars.transparent, errors)?;
    if derive == Derive::Tool && matches!(body, crate::model::Body::Union { .. }) {
        refuse_extend(&extends, errors);
    }
    let tool = Tool {
        ident: &input.ident,
        krate: krate(&attrs),
        name: match &attrs.name {
            Some(lit) => lit.value(),
            None => snake_case(&input.ident.to_string()),
        },
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
        confirm: None,
        extends,
        across: Vec::new(),
        scopes: attrs.scopes.unwrap_or_default(),
        task_support: attrs.task_support.as_ref().map(LitStr::value),
        body,
    };
    Some(Read {
        tool,
        name: attrs.name,
        allow_unknown_fields: attrs.allow_unknown_fields,
        deny_unknown_fields: container.attrs.deny_unknown_fields(),
        confirm: attrs.confirm,
        unconfirmed: attrs.unconfirmed,
        unconfirmed_scope: attrs.unconfirmed_scope,
        require: attrs.require,
    })
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
        // One error for the enum, at its first variant with data: the way out is the
        // same for all of them.
        if let Some(variant) = data
            .variants
            .iter()
            .find(|v| !matches!(v.fields, syn::Fields::Unit))
        {
            errors.spanned(
                variant,
                format!(
                    "McpEnum is for an enum of unit variants, each one allowed string value, and `{}` carries data: derive `Argument` on `{}` instead (an enum with data is one of several forms, each with its fields, in any of serde's representations)",
                    variant.ident, input.ident
                ),
            );
        }
        if data.variants.is_empty() {
            errors.spanned(
                &input.ident,
                "McpEnum needs at least one variant: an empty enum accepts no value",
            );
        }
        reject_generics(input, "McpEnum", &mut errors);
        let (attrs, schemars) = container_attrs(&input.attrs, &mut errors, crate::attr::Keys::Enum);
        if let Some(span) = schemars.transparent {
            errors.at(
                span,
                "#[schemars(transparent)] is read on a struct of one field (derive Argument): an enum of unit variants is a string already; remove it",
            );
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let Some(container) = serde_container(input, &mut errors) else {
            return Err(errors);
        };
        if !matches!(container.attrs.tag(), serde_attr::TagType::External) {
            errors.spanned(
                &input.ident,
                "McpEnum reads plain string values; #[serde(tag, content, untagged)] change that shape: remove it, or derive Argument, which reads an enum in any of serde's shapes",
            );
        }
        let serde_ast::Data::Enum(variants) = &container.data else {
            return Err(errors);
        };
        let mut aliases = Vec::new();
        let mut at = Vec::new();
        let (mut values, mut docs, mut idents) = (Vec::new(), Vec::new(), Vec::new());
        for variant in variants {
            let Some((name, former)) = crate::fields::variant_name(variant, &mut errors) else {
                continue;
            };
            for alias in former {
                aliases.push((alias, name.clone()));
                at.push(&variant.original.ident);
            }
            // What the variant means, said with its value in every profile's schema.
            let meta = crate::schemars::container(&variant.original.attrs, &mut errors);
            let doc = meta
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_comment(&variant.original.attrs));
            values.push(name);
            docs.push(doc);
            idents.push(&variant.original.ident);
        }
        // A former name that is another variant's name, or two variants': serde reads
        // the first variant that takes it, which the schema could not say.
        for ((alias, name), variant) in aliases.iter().zip(at) {
            let taken = values.contains(alias)
                || aliases.iter().filter(|(other, _)| other == alias).count() > 1;
            if taken {
                errors.spanned(
                    variant,
                    format!("the former name {alias:?} of {name:?} is also another variant's name: keep it on one"),
                );
            }
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
            aliases,
            docs,
            idents,
            extends: schemars.extends,
        };
        errors.finish(en)
    }
}

fn vet_serde_container(
    attrs: &serde_attr::Container,
    input: &DeriveInput,
    derive: Derive,
    errors: &mut Errors,
) {
    if attrs.remote().is_some() {
        errors.spanned(
            &input.ident,
            "#[serde(remote)] describes another crate's type, which the derived schema could not follow: make a field's type a newtype of your own that derives Argument, or mark the field #[mcp_tool(schemars)] if the type has a JsonSchema",
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
