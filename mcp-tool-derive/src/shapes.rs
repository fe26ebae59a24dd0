//! What a type is made of, as serde reads it: a struct of named fields, a newtype that
//! reads another type (with rules of its own), or an enum with data. Each derive refuses,
//! in its own name, the shapes it cannot take.

use std::borrow::Cow;

use quote::quote;
use serde_derive_internals::{ast as serde_ast, attr as serde_attr};
use syn::DeriveInput;

use crate::attr::{FieldRules, doc_comment};
use crate::ctxt::Errors;
use crate::fields;
use crate::model::{Body, Derive, Inner, Repr, Variant, VariantShape};
use crate::rules::Parsed;

pub fn body<'a>(
    input: &'a DeriveInput,
    container: &serde_ast::Container<'a>,
    derive: Derive,
    transparent: Option<proc_macro2::Span>,
    errors: &mut Errors,
) -> Option<Body<'a, Parsed>> {
    let own = FieldRules::of_type(&input.attrs, errors);
    let serde = &container.attrs;
    if let Some(span) = transparent
        && !serde.transparent()
    {
        return read_by_its_own(container, derive, own, span, errors);
    }
    let is_newtype = serde.transparent()
        || serde.type_from().is_some()
        || serde.type_try_from().is_some()
        || matches!(
            &container.data,
            serde_ast::Data::Struct(serde_ast::Style::Newtype, _)
        );
    let is_enum = matches!(&container.data, serde_ast::Data::Enum(_));
    if !is_newtype
        && !is_enum
        && let Some(rule) = own.own.first()
    {
        errors.at(
            rule.span,
            "#[validate(...)] on a type applies to a newtype (`struct Port(u16);`), whose one value it checks; put these rules on the fields",
        );
    }
    // `from`/`try_from`: serde reads the other type, then converts.
    if let Some(ty) = serde.type_try_from().or(serde.type_from()) {
        if derive == Derive::Tool {
            return None;
        }
        let mut inner = newtype(Cow::Owned(ty.clone()), own, None, errors);
        inner.converts = serde.type_try_from().map(|_| "try_from");
        return Some(Body::Newtype(Box::new(inner)));
    }
    match &container.data {
        serde_ast::Data::Struct(style, fields) => {
            struct_body(input, container, *style, fields, own, derive, errors)
        }
        serde_ast::Data::Enum(variants) => {
            if let Some(rule) = own.own.first() {
                errors.at(
                    rule.span,
                    "#[validate(...)] on an enum: put the rules on its variants' fields",
                );
            }
            union(input, serde, variants, derive, errors)
        }
    }
}

fn struct_body<'a>(
    input: &'a DeriveInput,
    container: &serde_ast::Container<'a>,
    style: serde_ast::Style,
    fields: &[serde_ast::Field<'a>],
    own: FieldRules,
    derive: Derive,
    errors: &mut Errors,
) -> Option<Body<'a, Parsed>> {
    let what = derive.name();
    let serde = &container.attrs;
    match style {
        serde_ast::Style::Struct if !serde.transparent() => {
            let ident = &input.ident;
            let default = match serde.default() {
                serde_attr::Default::None => None,
                serde_attr::Default::Default => {
                    Some(quote!(<#ident as ::core::default::Default>::default()))
                }
                serde_attr::Default::Path(path) => Some(quote!(#path())),
            };
            Some(Body::Struct(fields::fields(
                fields,
                default.as_ref(),
                errors,
            )))
        }
        serde_ast::Style::Struct | serde_ast::Style::Newtype => {
            if derive == Derive::Tool {
                if !serde.transparent() {
                    errors.spanned(
                        &input.ident,
                        "McpTool needs a struct with named fields: a tool's arguments are a JSON object. For a newtype with rules of its own, derive Argument and make it a field",
                    );
                }
                return None;
            }
            let field = fields.iter().find(|f| !f.attrs.skip_deserializing())?;
            let field_rules = FieldRules::validate(&field.original.attrs, errors);
            let mut inner = newtype(Cow::Borrowed(field.ty), own, Some(field_rules), errors);
            inner.member = Some(field.member.clone());
            Some(Body::Newtype(Box::new(inner)))
        }
        serde_ast::Style::Tuple => {
            let message = match derive {
                Derive::Tool => {
                    "McpTool needs a struct with named fields: a tool's arguments are a JSON object, and a tuple struct has no names"
                }
                Derive::Argument => {
                    "Argument needs named fields, or one unnamed field for a newtype: a tuple struct of several is read as an array; write a tuple type `(A, B)` as a field's type instead"
                }
            };
            errors.spanned(&input.ident, message);
            None
        }
        serde_ast::Style::Unit => {
            errors.spanned(
                &input.ident,
                format!(
                    "{what} needs a struct with named fields; for no arguments write `struct {} {{}}`",
                    input.ident
                ),
            );
            None
        }
    }
}

/// `#[schemars(transparent)]` without serde's: the type's JSON is its one field's value,
/// and serde's derive would read an object (of a named field) there, so the type's
/// `Deserialize` is the author's own, which reads the field's value and may refuse some
/// (an id that checks its prefix, a version requirement that parses). Taken as the
/// author says, as a hand-written `JsonSchema` is: the schema is the field's type's with
/// the rules on the type and its field, the check is that schema's, and then the value
/// is read by the type's own `Deserialize` at its path, its refusal reported there
/// (rule `deserialize`) in its own words; the description says the server may refuse
/// some values the schema allows. The author owns that the `Deserialize` reads the
/// field's JSON, nothing wider: a value it takes that the schema refuses is refused.
fn read_by_its_own<'a>(
    container: &serde_ast::Container<'a>,
    derive: Derive,
    own: FieldRules,
    span: proc_macro2::Span,
    errors: &mut Errors,
) -> Option<Body<'a, Parsed>> {
    let serde = &container.attrs;
    if derive == Derive::Tool {
        errors.at(
            span,
            "#[schemars(transparent)] makes the type one value, and McpTool needs an object of named arguments: derive Argument on this type and make it a field of the tool's arguments",
        );
        return None;
    }
    if serde.type_from().is_some() || serde.type_try_from().is_some() {
        errors.at(
            span,
            "#[schemars(transparent)] says the type reads its field's value, and #[serde(from/try_from)] says serde reads another type: keep the serde one, which both read",
        );
        return None;
    }
    let fields = match &container.data {
        serde_ast::Data::Struct(
            serde_ast::Style::Newtype | serde_ast::Style::Struct | serde_ast::Style::Tuple,
            fields,
        ) if fields.len() == 1 => fields,
        data => {
            let what = match data {
                serde_ast::Data::Enum(_) => "an enum is one of several forms",
                serde_ast::Data::Struct(..) => "this struct has not one field",
            };
            errors.at(
                span,
                format!("#[schemars(transparent)] is read on a struct of one field, whose value is the type's JSON, and {what}: remove it, or give the type one field"),
            );
            return None;
        }
    };
    let field = &fields[0];
    let field_rules = FieldRules::validate(&field.original.attrs, errors);
    let mut inner = newtype(Cow::Borrowed(field.ty), own, Some(field_rules), errors);
    inner.member = Some(field.member.clone());
    inner.converts = Some("deserialize");
    Some(Body::Newtype(Box::new(inner)))
}

/// A newtype's one value: `own` (the type's `#[validate(...)]`) and `more` (its field's)
/// together.
fn newtype<'a>(
    ty: Cow<'a, syn::Type>,
    own: FieldRules,
    more: Option<FieldRules>,
    errors: &mut Errors,
) -> Inner<'a, Parsed> {
    let mut rules = own;
    if let Some(more) = more {
        for rule in more.own {
            if let Some(twice) = rules.own.iter().find(|r| r.name() == rule.name()) {
                errors.at(
                    twice.span,
                    format!(
                        "`{}` is given on the type and on its field: keep one",
                        rule.name()
                    ),
                );
            } else {
                rules.own.push(rule);
            }
        }
        rules.items.extend(more.items);
        rules.items_span = rules.items_span.or(more.items_span);
        rules.sensitive = rules.sensitive.or(more.sensitive);
    }
    Inner {
        ty,
        own: rules.own,
        items: rules.items,
        items_span: rules.items_span,
        sensitive: rules.sensitive.is_some(),
        converts: None,
        member: None,
    }
}

fn union<'a>(
    input: &'a DeriveInput,
    serde: &serde_attr::Container,
    variants: &[serde_ast::Variant<'a>],
    derive: Derive,
    errors: &mut Errors,
) -> Option<Body<'a, Parsed>> {
    let repr = match serde.tag() {
        serde_attr::TagType::External => Repr::External,
        serde_attr::TagType::Internal { tag } => Repr::Internal(tag.clone()),
        serde_attr::TagType::Adjacent { tag, content } => {
            Repr::Adjacent(tag.clone(), content.clone())
        }
        serde_attr::TagType::None => Repr::Untagged,
    };
    let all_units = variants
        .iter()
        .all(|v| matches!(v.style, serde_ast::Style::Unit));
    if derive == Derive::Tool && all_units && matches!(repr, Repr::External | Repr::Untagged) {
        errors.spanned(
            &input.ident,
            "McpTool needs an object of named arguments, and an enum of unit variants is one string: for a field's type derive McpEnum; for a tool, give it a struct with a field of that type",
        );
        return None;
    }
    let mut out = Vec::new();
    for variant in variants {
        let Some((name, aliases)) = fields::variant_name(variant, errors) else {
            continue;
        };
        if !aliases.is_empty() {
            errors.spanned(
                variant.original,
                "#[serde(alias)] on a variant is read on an enum of unit variants (derive McpEnum), not on an enum with data, whose tags the schema lists: remove it; a value sent under the old name is told \"did you mean\" the new one",
            );
        }
        let meta = crate::schemars::container(&variant.original.attrs, errors);
        if let Some((key, _)) = meta.extends.first() {
            errors.spanned(
                key,
                "#[schemars(extend(...))] on a variant is not read: put the keywords on its fields",
            );
        }
        let description = meta
            .description
            .as_ref()
            .map(syn::LitStr::value)
            .or_else(|| doc_comment(&variant.original.attrs));
        let own = FieldRules::validate(&variant.original.attrs, errors);
        let own_span = own.own.first().map(|r| r.span);
        let shape = match variant.style {
            serde_ast::Style::Unit => VariantShape::Unit,
            serde_ast::Style::Newtype => {
                let field = &variant.fields[0];
                let more = FieldRules::validate(&field.original.attrs, errors);
                VariantShape::Newtype(Box::new(newtype(
                    Cow::Borrowed(field.ty),
                    own,
                    Some(more),
                    errors,
                )))
            }
            serde_ast::Style::Tuple => VariantShape::Tuple(
                variant
                    .fields
                    .iter()
                    .map(|field| {
                        let rules = FieldRules::validate(&field.original.attrs, errors);
                        newtype(Cow::Borrowed(field.ty), rules, None, errors)
                    })
                    .collect(),
            ),
            serde_ast::Style::Struct => {
                VariantShape::Struct(fields::fields(&variant.fields, None, errors))
            }
        };
        if !matches!(shape, VariantShape::Newtype(_))
            && let Some(span) = own_span
        {
            errors.at(
                span,
                "#[validate(...)] on a variant applies to the one value of a newtype variant; put these rules on the fields",
            );
        }
        if derive == Derive::Tool {
            let refused = match (&repr, &shape) {
                (Repr::External, VariantShape::Unit) => Some(
                    "a tool's arguments are an object, and this variant would be a bare string: tag the enum with #[serde(tag = \"...\")]",
                ),
                (Repr::Untagged, VariantShape::Unit | VariantShape::Tuple(_)) => Some(
                    "a tool's arguments are an object, and this variant of an untagged enum is not one: give it named fields",
                ),
                _ => None,
            };
            if let Some(message) = refused {
                errors.spanned(&variant.original.ident, message);
            }
        }
        out.push(Variant {
            ident: &variant.original.ident,
            name,
            description,
            shape,
        });
    }
    if out.is_empty() {
        errors.spanned(
            &input.ident,
            format!(
                "{} needs an enum with at least one variant serde reads",
                derive.name()
            ),
        );
        return None;
    }
    Some(Body::Union {
        repr,
        variants: out,
    })
}
