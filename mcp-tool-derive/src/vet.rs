//! The second phase: what the author wrote, vetted on the type as read. Each rule's
//! literals (by its own module in `rules/`, which also refuses rules that contradict
//! each other), the tool's name, settings that contradict serde's, and what the tool
//! asks of its user (`asking.rs`). Every error is collected; the type comes out with its
//! rules vetted, for `expand/` to write out. (The derive vets what the author wrote;
//! the runtime checks values.)

use crate::ctxt::Errors;
use crate::model::{Body, Derive, Field, Inner, Read, Tool, Variant, VariantShape};
use crate::rules::{self, Parsed, Rule};

/// The type `read` for `derive`, vetted.
pub fn tool<'a>(read: Read<'a>, derive: Derive, errors: &mut Errors) -> Tool<'a> {
    let Read {
        tool,
        name,
        allow_unknown_fields,
        deny_unknown_fields,
        confirm,
        unconfirmed,
        unconfirmed_scope,
        require,
    } = read;
    match &name {
        Some(lit) if !is_tool_name(&lit.value()) => errors.spanned(
            lit,
            "a tool name is 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.` (and for OpenAI's clients at most 64, with no `.`)",
        ),
        None if tool.name.len() > 128 => errors.spanned(
            tool.ident,
            "the tool's name, this type's in snake_case, is over 128 characters: give a shorter one with #[mcp_tool(name = \"...\")]",
        ),
        _ => {}
    }
    if let (Some(span), true) = (allow_unknown_fields, deny_unknown_fields) {
        errors.at(
            span,
            "`allow_unknown_fields` contradicts #[serde(deny_unknown_fields)]: serde would reject what the schema allows",
        );
    }
    crate::asking::vet_asks(&tool.body, derive, errors);
    let unconfirmed = crate::asking::Unconfirmed {
        said: unconfirmed.as_ref(),
        scope: unconfirmed_scope.as_ref(),
    };
    let confirm = crate::asking::confirm(confirm.as_ref(), unconfirmed, &tool.body, errors);
    let across = crate::across::vet(require, &tool.body, errors);
    Tool {
        ident: tool.ident,
        krate: tool.krate,
        name: tool.name,
        title: tool.title,
        description: tool.description,
        annotations: tool.annotations,
        allow_unknown_fields: tool.allow_unknown_fields,
        confirm,
        extends: tool.extends,
        across,
        scopes: tool.scopes,
        task_support: tool.task_support,
        body: body(tool.body, errors),
    }
}

fn is_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn body<'a>(body: Body<'a, Parsed>, errors: &mut Errors) -> Body<'a, Rule> {
    match body {
        Body::Struct(fields) => Body::Struct(self::fields(fields, errors)),
        Body::Newtype(inner) => Body::Newtype(Box::new(self::inner(*inner, errors))),
        Body::Union { repr, variants } => Body::Union {
            repr,
            variants: variants
                .into_iter()
                .map(|variant| Variant {
                    ident: variant.ident,
                    name: variant.name,
                    description: variant.description,
                    shape: match variant.shape {
                        VariantShape::Unit => VariantShape::Unit,
                        VariantShape::Newtype(inner) => {
                            VariantShape::Newtype(Box::new(self::inner(*inner, errors)))
                        }
                        VariantShape::Tuple(items) => VariantShape::Tuple(
                            items.into_iter().map(|i| self::inner(i, errors)).collect(),
                        ),
                        VariantShape::Struct(fields) => {
                            VariantShape::Struct(self::fields(fields, errors))
                        }
                    },
                })
                .collect(),
        },
    }
}

fn fields<'a>(fields: Vec<Field<'a, Parsed>>, errors: &mut Errors) -> Vec<Field<'a, Rule>> {
    fields
        .into_iter()
        .map(|field| Field {
            own: rules::vet(field.own, errors),
            items: rules::vet(field.items, errors),
            wire: field.wire,
            member: field.member,
            ask: field.ask,
            like: field.like,
            reads: field.reads,
            lenient: field.lenient,
            aliases: field.aliases,
            schema_from: field.schema_from,
            extends: field.extends,
            transforms: field.transforms,
            ty: field.ty,
            description: field.description,
            title: field.title,
            examples: field.examples,
            deprecated: field.deprecated,
            force_required: field.force_required,
            flatten: field.flatten,
            schemars: field.schemars,
            has_default: field.has_default,
            default: field.default,
            schemars_default: field.schemars_default,
            sensitive: field.sensitive,
            items_span: field.items_span,
        })
        .collect()
}

fn inner<'a>(inner: Inner<'a, Parsed>, errors: &mut Errors) -> Inner<'a, Rule> {
    Inner {
        ty: inner.ty,
        own: rules::vet(inner.own, errors),
        items: rules::vet(inner.items, errors),
        items_span: inner.items_span,
        sensitive: inner.sensitive,
        converts: inner.converts,
        member: inner.member,
    }
}
