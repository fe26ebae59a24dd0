//! Parsing of `#[mcp_tool(...)]` on the struct and `#[validate(...)]` on its fields (and,
//! through `schemars.rs`, of `#[schemars(...)]`; `dialects.rs` joins them with garde's).
//! `#[validate(...)]` is this crate's rule language, and also reads validator's spellings
//! where they differ (`required`, `nested`, `skip`, `contains`, `non_control_character`,
//! `custom(function = "path")`, `code`). Every error is collected; a bad rule does not
//! hide the ones after it.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr};

use crate::ctxt::Errors;
use crate::meta::{flag, path_name, recover, set, unknown_key};
use crate::rules::{self, Parsed};

/// `#[mcp_tool(...)]` on the struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub allow_unknown_fields: Option<Span>,
    pub krate: Option<syn::Path>,
    /// `confirm = "Cancel {order_id}?"`: the user confirms each call.
    pub confirm: Option<LitStr>,
    /// `unconfirmed = "run"` or `"refuse"`: what a client that cannot ask gets.
    pub unconfirmed: Option<LitStr>,
    /// `unconfirmed_scope = "orders:unattended"`: a caller holding it runs the tool
    /// unconfirmed when its client cannot ask.
    pub unconfirmed_scope: Option<LitStr>,
    /// `require(field, when(other = value))`: the rules across fields.
    pub require: Vec<crate::model::AcrossParsed>,
    /// `scopes("orders:read", ...)`: the OAuth scopes a caller needs, all of them.
    pub scopes: Option<Vec<String>>,
    /// `task_support = "optional"`: whether a call may be answered with a task.
    pub task_support: Option<LitStr>,
}

/// A key of `#[mcp_tool(...)]` on a type: which derives take it, and how it is read.
/// A key is listed only with its reading.
struct ContainerKey {
    name: &'static str,
    /// Taken by `McpTool`, by `Argument`, by `McpEnum`.
    takes: [bool; 3],
    read: fn(&mut ContainerAttrs, &ParseNestedMeta) -> syn::Result<()>,
}

const TOOL: [bool; 3] = [true, false, false];

const CONTAINER_KEYS: &[ContainerKey] = &[
    ContainerKey {
        name: "name",
        takes: TOOL,
        read: |a, meta| set(&mut a.name, meta, meta.value()?.parse()?),
    },
    ContainerKey {
        name: "title",
        takes: [true, true, false],
        read: |a, meta| set(&mut a.title, meta, meta.value()?.parse()?),
    },
    ContainerKey {
        name: "description",
        takes: [true, true, true],
        read: |a, meta| set(&mut a.description, meta, meta.value()?.parse()?),
    },
    ContainerKey {
        name: "read_only",
        takes: TOOL,
        read: |a, meta| set(&mut a.read_only, meta, flag(meta)?),
    },
    ContainerKey {
        name: "destructive",
        takes: TOOL,
        read: |a, meta| set(&mut a.destructive, meta, flag(meta)?),
    },
    ContainerKey {
        name: "idempotent",
        takes: TOOL,
        read: |a, meta| set(&mut a.idempotent, meta, flag(meta)?),
    },
    ContainerKey {
        name: "open_world",
        takes: TOOL,
        read: |a, meta| set(&mut a.open_world, meta, flag(meta)?),
    },
    ContainerKey {
        name: "allow_unknown_fields",
        takes: [true, true, false],
        read: |a, meta| {
            let span = meta.path.span();
            set(&mut a.allow_unknown_fields, meta, span)
        },
    },
    ContainerKey {
        name: "crate",
        takes: [true, true, true],
        read: |a, meta| {
            let lit: LitStr = meta.value()?.parse()?;
            let path = lit.parse()?;
            set(&mut a.krate, meta, path)
        },
    },
    ContainerKey {
        name: "require",
        takes: [true, true, false],
        read: |a, meta| {
            a.require.push(crate::across::parse(meta)?);
            Ok(())
        },
    },
    ContainerKey {
        name: "confirm",
        takes: TOOL,
        read: |a, meta| set(&mut a.confirm, meta, meta.value()?.parse()?),
    },
    ContainerKey {
        name: "unconfirmed",
        takes: TOOL,
        read: |a, meta| {
            let lit: LitStr = meta.value()?.parse()?;
            if !matches!(lit.value().as_str(), "run" | "refuse") {
                return Err(syn::Error::new(
                    lit.span(),
                    "`unconfirmed` is \"refuse\" (the default: a client that cannot ask its user is refused) or \"run\" (the call runs unconfirmed)",
                ));
            }
            set(&mut a.unconfirmed, meta, lit)
        },
    },
    ContainerKey {
        name: "unconfirmed_scope",
        takes: TOOL,
        read: |a, meta| {
            let lit: LitStr = meta.value()?.parse()?;
            if let Some(problem) = crate::scopes::problem(&lit.value()) {
                return Err(syn::Error::new(lit.span(), problem));
            }
            set(&mut a.unconfirmed_scope, meta, lit)
        },
    },
    ContainerKey {
        name: "scopes",
        takes: TOOL,
        read: |a, meta| {
            let scopes = crate::scopes::read(meta)?;
            set(&mut a.scopes, meta, scopes)
        },
    },
    ContainerKey {
        name: "task_support",
        takes: TOOL,
        read: |a, meta| {
            let lit: LitStr = meta.value()?.parse()?;
            if !matches!(lit.value().as_str(), "forbidden" | "optional" | "required") {
                return Err(syn::Error::new(
                    lit.span(),
                    "`task_support` is \"forbidden\" (the default: every call is answered within its request), \"optional\" (a client that declared the tasks extension gets a task) or \"required\" (only such a client may call the tool)",
                ));
            }
            set(&mut a.task_support, meta, lit)
        },
    },
];

/// Which derive reads the attributes, and so which keys it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    Tool = 0,
    Argument = 1,
    Enum = 2,
}

impl From<crate::model::Derive> for Keys {
    fn from(derive: crate::model::Derive) -> Self {
        match derive {
            crate::model::Derive::Tool => Keys::Tool,
            crate::model::Derive::Argument => Keys::Argument,
        }
    }
}

impl ContainerAttrs {
    pub fn parse(attrs: &[Attribute], errors: &mut Errors, keys: impl Into<Keys>) -> Self {
        let mut out = ContainerAttrs::default();
        let which = keys.into();
        let taken = |k: &&ContainerKey| k.takes[which as usize];
        let names: Vec<&str> = CONTAINER_KEYS
            .iter()
            .filter(taken)
            .map(|k| k.name)
            .collect();
        for attr in attrs {
            if !attr.path().is_ident("mcp_tool") {
                continue;
            }
            let result = attr.parse_nested_meta(|meta| {
                let key = path_name(&meta.path);
                let result = match CONTAINER_KEYS.iter().find(|k| k.name == key) {
                    Some(k) if taken(&k) => (k.read)(&mut out, &meta),
                    Some(_) if which == Keys::Argument => Err(meta.error(format!(
                        "`{key}` is a tool setting, and Argument derives a value inside a tool's arguments, not a tool: derive McpTool for a tool"
                    ))),
                    _ => Err(unknown_key(&meta, &key, &names, "#[mcp_tool(...)]")),
                };
                recover(result, &meta, errors);
                Ok(())
            });
            if let Err(e) = result {
                errors.push(e);
            }
        }
        out
    }
}

/// What the attributes of one field say: its rules, on its value and on its items, and
/// what `#[schemars(...)]` and `#[deprecated]` add to its schema.
#[derive(Default)]
pub struct FieldRules {
    pub sensitive: Option<Span>,
    /// `ask = "Which day do you fly?"`: asked of the user when missing or wrong.
    pub ask: Option<LitStr>,
    /// `like = Type`: the rules of a newtype over the field's type, before its own.
    pub like: Option<syn::Path>,
    pub own: Vec<Parsed>,
    pub items: Vec<Parsed>,
    pub items_span: Option<Span>,
    /// `#[schemars(description)]`: replaces the doc comment, as in schemars.
    pub description: Option<LitStr>,
    pub title: Option<LitStr>,
    /// `#[schemars(example = ...)]`: expressions of anything `Serialize`.
    pub examples: Vec<syn::Expr>,
    /// `#[schemars(required)]`: must be sent even though it is defaulted; an `Option` must
    /// be sent with a value, as schemars' schema (the `T`'s, no `null`) says.
    pub required: Option<Span>,
    /// garde's and validator's `required`: an `Option` field that must hold a value, so
    /// sent, and not `null`: read as the `T` it holds.
    pub present: Option<Span>,
    /// `#[deprecated]`.
    pub deprecated: bool,
    /// `#[mcp_tool(schemars)]`: the type's schemars schema is advertised and enforced.
    pub schemars: Option<Span>,
    /// `#[mcp_tool(lenient)]`: the type's own `Deserialize` takes more than its schema
    /// says, and decides a value its checks refuse.
    pub lenient: Option<Span>,
    /// `#[schemars(with = "Type")]` or `#[schemars(schema_with = "path")]`.
    pub schema_from: Option<crate::model::SchemaFrom>,
    /// `#[schemars(extend("keyword" = value, ...))]`.
    pub extends: Vec<(LitStr, syn::Expr)>,
    /// `#[schemars(transform = path)]`.
    pub transforms: Vec<syn::Expr>,
    /// `#[schemars(default)]`: serde's default, where it has one, is advertised even for
    /// a field whose schema is schemars'.
    pub schemars_default: Option<Span>,
}

impl FieldRules {
    /// The rules a type states of its own value (a newtype's): `#[validate(...)]`. Its
    /// `#[garde(...)]` are garde's settings of the type, read by `garde::container`.
    pub fn of_type(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let out = FieldRules::validated(attrs, errors);
        out.refuse_present(errors);
        out
    }

    pub(crate) fn refuse_present(&self, errors: &mut Errors) {
        if let Some(span) = self.present {
            errors.at(
                span,
                "`required` applies to a struct's field of type `Option<T>`, which must then be sent with a value: a value here is required by its type already",
            );
        }
    }

    /// `#[validate(...)]` alone.
    pub(crate) fn validated(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut out = FieldRules::default();
        for attr in attrs {
            if !attr.path().is_ident("validate") {
                continue;
            }
            let result = attr.parse_nested_meta(|meta| {
                let result = out.parse_rule(&meta, errors, false);
                recover(result, &meta, errors);
                Ok(())
            });
            if let Err(e) = result {
                errors.push(e);
            }
        }
        out
    }

    /// Adds a rule another attribute wrote, refusing a second of its kind with `twice`.
    pub fn push(&mut self, rule: Parsed, twice: impl FnOnce(&str) -> String) -> syn::Result<()> {
        if self.own.iter().any(|r| r.name() == rule.name()) {
            return Err(syn::Error::new(rule.span, twice(rule.name())));
        }
        self.own.push(rule);
        Ok(())
    }

    fn parse_rule(
        &mut self,
        meta: &ParseNestedMeta,
        errors: &mut Errors,
        in_items: bool,
    ) -> syn::Result<()> {
        let key = path_name(&meta.path);
        let span = meta.path.span();
        match key.as_str() {
            "sensitive" if !in_items => {
                if self.sensitive.replace(span).is_some() {
                    return Err(meta.error("duplicate rule `sensitive`"));
                }
                Ok(())
            }
            "items" if !in_items => {
                if self.items_span.replace(span).is_some() {
                    return Err(meta
                        .error("duplicate rule `items`: put all item rules in one `items(...)`"));
                }
                let mut items = FieldRules::default();
                meta.parse_nested_meta(|inner| {
                    let result = items.parse_rule(&inner, errors, true);
                    recover(result, &inner, errors);
                    Ok(())
                })?;
                self.items = items.own;
                Ok(())
            }
            "ask" if !in_items => {
                let question: LitStr = meta.value()?.parse()?;
                if question.value().trim().is_empty() {
                    return Err(syn::Error::new(
                        question.span(),
                        "`ask` needs the question the user reads, such as \"Which day do you fly?\"",
                    ));
                }
                set(&mut self.ask, meta, question)
            }
            "like" if !in_items => {
                let ty: syn::Path = meta.value()?.parse()?;
                set(&mut self.like, meta, ty)
            }
            // validator's: an `Option` that must hold a value.
            "required" if !in_items => set(&mut self.present, meta, span),
            // validator's: a nested struct is checked already (it derives `Argument`);
            // `skip`: no rules, which is what no `#[validate]` says.
            "nested" | "skip" if !in_items => flag(meta).map(drop),
            "sensitive" | "items" | "ask" | "like" | "required" | "nested" | "skip" => Err(meta
                .error(format!(
                    "`{key}` applies to the field, not inside `items(...)`"
                ))),
            _ => {
                let rule = rules::parse(meta, &key, errors)?;
                if self.own.iter().any(|r| r.name() == rule.name()) {
                    return Err(syn::Error::new(
                        rule.span,
                        format!(
                            "duplicate rule `{}` on this field: merge them into one",
                            rule.name()
                        ),
                    ));
                }
                self.own.push(rule);
                Ok(())
            }
        }
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
