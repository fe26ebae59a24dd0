//! `#[schemars(...)]`, read so that a struct written for schemars migrates by swapping the
//! derive. What it says that this crate can advertise *and* enforce becomes the same rule
//! as ours (`length`, `range`, `regex`/`pattern`, `email`, `url`, `inner`) or the same
//! metadata (`description`, `title`, `example`, `required`); every other key changes the
//! schema alone, which would let the advertised schema and the server drift apart, and is
//! refused at the attribute with what to write instead.

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr};

use crate::attr::FieldRules;
use crate::ctxt::Errors;
use crate::meta;
use crate::rules::Parsed;

/// What `#[schemars(...)]` on a struct, enum or variant says.
#[derive(Default)]
pub struct ContainerMeta {
    pub description: Option<LitStr>,
    pub title: Option<LitStr>,
    /// `extend("keyword" = value, ...)`: read on every type but a tool's arguments that
    /// are an enum with data, refused there by the reading of the type.
    pub extends: Vec<(LitStr, syn::Expr)>,
    /// `transparent`: the type's JSON is its one field's, read by the type's own
    /// `Deserialize` (see `shapes::read_by_its_own`).
    pub transparent: Option<proc_macro2::Span>,
}

/// Keys that serde also reads: in `#[schemars(...)]` they change the schema and not what
/// serde reads.
const SERDE_KEYS: &[&str] = &[
    "rename",
    "rename_all",
    "rename_all_fields",
    "deny_unknown_fields",
    "tag",
    "content",
    "untagged",
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "skip_deserializing",
    "flatten",
    "remote",
    "transparent",
    "into",
    "from",
    "try_from",
    "serialize_with",
    "deserialize_with",
    "alias",
];

/// What to write instead of a key that is not read.
fn instead(key: &str) -> Option<String> {
    Some(match key {
        k if SERDE_KEYS.contains(&k) => format!(
            "`{k}` in #[schemars(...)] changes the schema but not what serde reads, so the \
             schema and the server would disagree; write it in #[serde(...)], which both read"
        ),
        "with" | "schema_with" | "transform" => format!(
            "`{key}` is read on a field here (its schema is advertised and enforced), not on a \
             type: put it on the fields, or state the rule with #[validate(...)]"
        ),
        "inline" => "every schema is inlined here already (no `$ref`); remove it".into(),
        "bound" => "the derives take no generic parameters; remove it".into(),
        "crate" => "the path of this crate is #[mcp_tool(crate = \"...\")]".into(),
        "contains" => "`contains` is not a rule here; use `regex = \"...\"` on the string".into(),
        "ip" => "use `std::net::IpAddr` (or `Ipv4Addr`, `Ipv6Addr`) as the field's type: it \
            advertises and checks the address"
            .into(),
        "example" => "examples go on fields here: #[schemars(example = ...)] on the field".into(),
        _ => return None,
    })
}

fn refuse(meta: &ParseNestedMeta, key: &str, known: &[&str]) -> syn::Error {
    match instead(key) {
        Some(advice) => meta.error(format!("#[schemars({key})] is not read here: {advice}")),
        None => {
            let list = known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            match crate::ctxt::did_you_mean(key, known) {
                Some(near) => meta.error(format!(
                    "unknown #[schemars(...)] key `{key}`; did you mean `{near}`? This crate reads {list}"
                )),
                None => meta.error(format!(
                    "unknown #[schemars(...)] key `{key}`; this crate reads {list}"
                )),
            }
        }
    }
}

const CONTAINER_KEYS: &[&str] = &["description", "title", "default", "extend", "transparent"];

const FIELD_KEYS: &[&str] = &[
    "description",
    "title",
    "example",
    "required",
    "length",
    "range",
    "regex",
    "pattern",
    "email",
    "url",
    "inner",
    "with",
    "schema_with",
    "extend",
    "transform",
    "default",
];

/// `default` or `default = "path"`: schemars' default, which serde does not read. What
/// serde requires stays required, and the schema's `default` is serde's, where serde
/// has one: so the key is read and its path dropped.
fn schemars_default(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    }
    Ok(())
}

/// Reads `#[schemars(...)]` on a container.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerMeta {
    let mut out = ContainerMeta::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta::path_name(&meta.path);
            let result = match key.as_str() {
                "description" => meta::set(&mut out.description, &meta, meta.value()?.parse()?),
                "title" => meta::set(&mut out.title, &meta, meta.value()?.parse()?),
                "default" => schemars_default(&meta),
                "extend" => extend(&meta, &mut out.extends),
                "transparent" => {
                    let span = meta.path.span();
                    meta::set(&mut out.transparent, &meta, span)
                }
                _ => Err(refuse(&meta, &key, CONTAINER_KEYS)),
            };
            meta::recover(result, &meta, errors);
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
    out
}

/// Reads `#[schemars(...)]` on a field into `rules`: its rules, and its metadata.
pub fn field(attrs: &[Attribute], rules: &mut FieldRules, errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        let result = attr.parse_nested_meta(|meta| {
            let result = field_key(&meta, rules, errors, false);
            meta::recover(result, &meta, errors);
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

fn field_key(
    meta: &ParseNestedMeta,
    rules: &mut FieldRules,
    errors: &mut Errors,
    in_inner: bool,
) -> syn::Result<()> {
    let key = meta::path_name(&meta.path);
    match key.as_str() {
        "description" if !in_inner => {
            meta::set(&mut rules.description, meta, meta.value()?.parse()?)
        }
        "title" if !in_inner => meta::set(&mut rules.title, meta, meta.value()?.parse()?),
        "example" if !in_inner => {
            rules.examples.push(meta.value()?.parse()?);
            Ok(())
        }
        "required" if !in_inner => {
            let span = meta.path.span();
            meta::set(&mut rules.required, meta, span)
        }
        "inner" if !in_inner => {
            let span = meta.path.span();
            if rules.items_span.replace(span).is_some() {
                return Err(meta.error(
                    "rules on the items given twice: put them in one `inner(...)` or `items(...)`",
                ));
            }
            let mut items = FieldRules::default();
            meta.parse_nested_meta(|inner| {
                let result = field_key(&inner, &mut items, errors, true);
                meta::recover(result, &inner, errors);
                Ok(())
            })?;
            rules.items.extend(items.own);
            Ok(())
        }
        // schemars' `pattern(r"...")` is this crate's `regex`.
        "pattern" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let lit: LitStr = content.parse()?;
            push(rules, crate::rules::regex::written(lit, meta.path.span()))
        }
        "length" | "range" | "regex" | "email" | "url" => {
            let rule = crate::rules::parse(meta, &key, errors)?;
            push(rules, rule)
        }
        // The field's schema from another type's, or a function's: advertised, and the
        // value judged against it.
        "with" if !in_inner => {
            let ty: LitStr = meta.value()?.parse()?;
            let ty: syn::Type = ty.parse()?;
            meta::set(
                &mut rules.schema_from,
                meta,
                crate::model::SchemaFrom::Type(ty),
            )
        }
        "schema_with" if !in_inner => {
            let path: LitStr = meta.value()?.parse()?;
            let path: syn::Path = path.parse()?;
            meta::set(
                &mut rules.schema_from,
                meta,
                crate::model::SchemaFrom::Function(path),
            )
        }
        // Changes to the field's schema: advertised, and enforced by the same schema.
        "extend" if !in_inner => extend(meta, &mut rules.extends),
        "transform" if !in_inner => {
            rules.transforms.push(meta.value()?.parse()?);
            Ok(())
        }
        // Where serde has a default too, the schema says it (as schemars would); a
        // schemars-described field's default is then serialized for the schema.
        "default" if !in_inner => {
            let span = meta.path.span();
            schemars_default(meta)?;
            meta::set(&mut rules.schemars_default, meta, span)
        }
        _ => Err(refuse(meta, &key, FIELD_KEYS)),
    }
}

/// `extend("keyword" = value, ...)`, into `out`.
fn extend(meta: &ParseNestedMeta, out: &mut Vec<(LitStr, syn::Expr)>) -> syn::Result<()> {
    let content;
    syn::parenthesized!(content in meta.input);
    while !content.is_empty() {
        let key: LitStr = content.parse()?;
        content.parse::<syn::Token![=]>()?;
        let value: syn::Expr = content.parse()?;
        out.push((key, value));
        if content.is_empty() {
            break;
        }
        content.parse::<syn::Token![,]>()?;
    }
    Ok(())
}

fn push(rules: &mut FieldRules, rule: Parsed) -> syn::Result<()> {
    if rules.own.iter().any(|r| r.name() == rule.name()) {
        return Err(syn::Error::new(
            rule.span,
            format!(
                "`{}` is given twice on this field (in #[schemars] and #[validate], or twice): \
                 keep one",
                rule.name()
            ),
        ));
    }
    rules.own.push(rule);
    Ok(())
}
