//! Parsing of `#[mcp_tool(...)]` on the struct and `#[validate(...)]` on its fields (and,
//! through `schemars.rs`, of `#[schemars(...)]`). Every error is collected; a bad rule
//! does not hide the ones after it.

use proc_macro2::{Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, LitBool, LitStr, Token};

use crate::ctxt::{Errors, did_you_mean};
use crate::rules::{self, Bound, EnumValues, Number, Parsed, Written};

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
}

const CONTAINER_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "allow_unknown_fields",
    "crate",
    "confirm",
    "unconfirmed",
];

/// The keys an enum of names accepts.
const ENUM_KEYS: &[&str] = &["description", "crate"];

/// The keys a value inside a tool's arguments accepts: no tool settings.
const ARGUMENT_KEYS: &[&str] = &["title", "description", "allow_unknown_fields", "crate"];

/// Which derive reads the attributes, and so which keys it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    Tool,
    Argument,
    Enum,
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
        let keys = match which {
            Keys::Tool => CONTAINER_KEYS,
            Keys::Argument => ARGUMENT_KEYS,
            Keys::Enum => ENUM_KEYS,
        };
        for attr in attrs {
            if !attr.path().is_ident("mcp_tool") {
                continue;
            }
            let result = attr.parse_nested_meta(|meta| {
                let key = path_name(&meta.path);
                let result = if !keys.contains(&key.as_str()) {
                    if which == Keys::Argument && CONTAINER_KEYS.contains(&key.as_str()) {
                        Err(meta.error(format!(
                            "`{key}` is a tool setting, and Argument derives a value inside a tool's arguments, not a tool: derive McpTool for a tool"
                        )))
                    } else {
                        Err(unknown_key(&meta, &key, keys, "#[mcp_tool(...)]"))
                    }
                } else {
                    out.parse_key(&key, &meta)
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

    fn parse_key(&mut self, key: &str, meta: &ParseNestedMeta) -> syn::Result<()> {
        match key {
            "name" => set(&mut self.name, meta, meta.value()?.parse()?),
            "title" => set(&mut self.title, meta, meta.value()?.parse()?),
            "description" => set(&mut self.description, meta, meta.value()?.parse()?),
            "read_only" => set(&mut self.read_only, meta, flag(meta)?),
            "destructive" => set(&mut self.destructive, meta, flag(meta)?),
            "idempotent" => set(&mut self.idempotent, meta, flag(meta)?),
            "open_world" => set(&mut self.open_world, meta, flag(meta)?),
            "allow_unknown_fields" => {
                let span = meta.path.span();
                set(&mut self.allow_unknown_fields, meta, span)
            }
            "crate" => {
                let lit: LitStr = meta.value()?.parse()?;
                let path = lit.parse()?;
                set(&mut self.krate, meta, path)
            }
            "confirm" => set(&mut self.confirm, meta, meta.value()?.parse()?),
            "unconfirmed" => {
                let lit: LitStr = meta.value()?.parse()?;
                if !matches!(lit.value().as_str(), "run" | "refuse") {
                    return Err(syn::Error::new(
                        lit.span(),
                        "`unconfirmed` is \"refuse\" (the default: a client that cannot ask its user is refused) or \"run\" (the call runs unconfirmed)",
                    ));
                }
                set(&mut self.unconfirmed, meta, lit)
            }
            _ => Ok(()),
        }
    }
}

/// `read_only` or `read_only = false`.
fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        let lit: LitBool = meta.value()?.parse()?;
        Ok(lit.value)
    } else {
        Ok(true)
    }
}

pub(crate) fn set<T>(slot: &mut Option<T>, meta: &ParseNestedMeta, value: T) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!(
            "duplicate `{}`: give it once",
            path_name(&meta.path)
        )));
    }
    *slot = Some(value);
    Ok(())
}

pub fn path_name(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

fn unknown_key(meta: &ParseNestedMeta, key: &str, known: &[&str], place: &str) -> syn::Error {
    let list = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match did_you_mean(key, known) {
        Some(near) => meta.error(format!(
            "unknown {place} key `{key}`; did you mean `{near}`? Known: {list}"
        )),
        None => meta.error(format!("unknown {place} key `{key}`; known: {list}")),
    }
}

/// Records `result`'s error and skips the rest of the item, so parsing goes on with
/// the next one.
pub(crate) fn recover(result: syn::Result<()>, meta: &ParseNestedMeta, errors: &mut Errors) {
    if let Err(e) = result {
        errors.push(e);
        skip_item(meta.input);
    }
}

/// Skips to the next top-level `,`.
fn skip_item(input: ParseStream) {
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            if let TokenTree::Punct(p) = &tt
                && p.as_char() == ','
            {
                return Ok(((), rest));
            }
            rest = next;
        }
        Ok(((), rest))
    });
}

/// What the attributes of one field say: its rules, on its value and on its items, and
/// what `#[schemars(...)]` and `#[deprecated]` add to its schema.
#[derive(Default)]
pub struct FieldRules {
    pub sensitive: Option<Span>,
    /// `ask = "Which day do you fly?"`: asked of the user when missing or wrong.
    pub ask: Option<LitStr>,
    pub own: Vec<Parsed>,
    pub items: Vec<Parsed>,
    pub items_span: Option<Span>,
    /// `#[schemars(description)]`: replaces the doc comment, as in schemars.
    pub description: Option<LitStr>,
    pub title: Option<LitStr>,
    /// `#[schemars(example = ...)]`: expressions of anything `Serialize`.
    pub examples: Vec<syn::Expr>,
    /// `#[schemars(required)]`: must be sent even though it is an `Option` or defaulted.
    pub required: Option<Span>,
    /// `#[deprecated]`.
    pub deprecated: bool,
    /// `#[mcp_tool(schemars)]`: the type's schemars schema is advertised and enforced.
    pub schemars: Option<Span>,
}

impl FieldRules {
    /// What the attributes of a field say.
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut schemars = None;
        for attr in attrs.iter().filter(|a| a.path().is_ident("mcp_tool")) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("schemars") {
                    let span = meta.path.span();
                    return set(&mut schemars, &meta, span);
                }
                Err(meta.error(
                    "on a field, #[mcp_tool(...)] takes only `schemars` (the field's type is described by its schemars schema); tool settings go on the struct, rules in #[validate(...)]",
                ))
            });
            if let Err(e) = result {
                errors.push(e);
            }
        }
        let mut out = FieldRules::validate(attrs, errors);
        out.schemars = schemars;
        out.deprecated = attrs.iter().any(|a| a.path().is_ident("deprecated"));
        out
    }

    /// The rules of `#[validate(...)]` alone: on a newtype, whose other attributes are
    /// the type's.
    pub fn validate(attrs: &[Attribute], errors: &mut Errors) -> Self {
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
            "sensitive" | "items" | "ask" => Err(meta.error(format!(
                "`{key}` applies to the field, not inside `items(...)`"
            ))),
            _ => {
                let rule = parse_rule(meta, &key, errors)?;
                if self.own.iter().any(|r| r.name == rule.name) {
                    return Err(syn::Error::new(
                        rule.span,
                        format!(
                            "duplicate rule `{}` on this field: merge them into one",
                            rule.name
                        ),
                    ));
                }
                self.own.push(rule);
                Ok(())
            }
        }
    }
}

/// What a rule of garde or validator is called here, for an author who knows theirs.
fn foreign_rule(key: &str) -> Option<&'static str> {
    Some(match key {
        "pattern" => "a pattern is `regex` here: `regex = r\"^[A-Z]{3}$\"`",
        "inner" => "rules on the items of a list are `items(...)` here: `items(length(max = 20))`",
        "dive" | "nested" => {
            "a nested struct needs no rule here: derive `mcp_tool::Argument` on it (or \
             `McpTool`) and its own fields' rules are checked, at their full path"
        }
        "one_of" | "oneof" | "in" | "options" => {
            "a whitelist is `enum` here: `enum = [\"a\", \"b\"]` or `enum = CONSTANT`"
        }
        "required" => {
            "a field is required unless it is an `Option` or has `#[serde(default)]`; no rule \
             is needed"
        }
        _ => return None,
    })
}

pub(crate) fn parse_rule(
    meta: &ParseNestedMeta,
    key: &str,
    errors: &mut Errors,
) -> syn::Result<Parsed> {
    let span = meta.path.span();
    let Some(def) = rules::rule(key) else {
        let names = rules::names();
        let list = names.join(", ");
        if let Some(advice) = foreign_rule(key) {
            return Err(meta.error(format!("unknown rule `{key}`; {advice}")));
        }
        return Err(match did_you_mean(key, &names) {
            Some(near) => meta.error(format!(
                "unknown rule `{key}`; did you mean `{near}`? Rules: {list}"
            )),
            None => meta.error(format!("unknown rule `{key}`; rules: {list}")),
        });
    };
    let name = def.name;
    let usage = || meta.error(format!("`{name}` is written like `{}`", def.usage));
    let mut rule = Parsed {
        name,
        span,
        kind: (def.empty)(span),
        message: None,
        hint: None,
    };
    let mut seen_main = false;
    if meta.input.peek(Token![=]) {
        // `name = value` is the long form's main key.
        let Some(main) = def.main else {
            return Err(usage());
        };
        rule_key(main, meta, &mut rule, &mut seen_main)?;
    } else if meta.input.peek(syn::token::Paren) {
        let fork = meta.input.fork();
        let content;
        syn::parenthesized!(content in fork);
        if content.is_empty() {
            return Err(usage());
        }
        let known: Vec<&str> = def
            .keys
            .iter()
            .copied()
            .chain(["message", "hint"])
            .collect();
        meta.parse_nested_meta(|inner| {
            let key = path_name(&inner.path);
            let result = if known.contains(&key.as_str()) {
                rule_key(&key, &inner, &mut rule, &mut seen_main)
            } else {
                Err(unknown_key(&inner, &key, &known, &format!("`{name}(...)`")))
            };
            recover(result, &inner, errors);
            Ok(())
        })?;
        if let (Some(main), false) = (def.main, seen_main) {
            return Err(syn::Error::new(
                span,
                format!("`{name}(...)` needs `{main} = ...`"),
            ));
        }
    } else if !def.bare {
        return Err(usage());
    }
    Ok(rule)
}

/// One `key = value` inside a rule's parentheses.
fn rule_key(
    key: &str,
    inner: &ParseNestedMeta,
    rule: &mut Parsed,
    seen_main: &mut bool,
) -> syn::Result<()> {
    match (key, &mut rule.kind) {
        ("message", _) => set(&mut rule.message, inner, inner.value()?.parse()?),
        ("hint", _) => set(&mut rule.hint, inner, inner.value()?.parse()?),
        ("pattern", Written::Regex(lit)) => {
            *seen_main = true;
            *lit = inner.value()?.parse()?;
            Ok(())
        }
        ("values", Written::Enum(values)) => {
            *seen_main = true;
            *values = parse_enum_values(inner.value()?)?;
            Ok(())
        }
        ("function", Written::Custom { function, .. }) => {
            *seen_main = true;
            *function = inner.value()?.parse()?;
            Ok(())
        }
        ("description", Written::Custom { description, .. }) => {
            set(description, inner, inner.value()?.parse()?)
        }
        ("format", Written::Date { format, .. }) => set(format, inner, inner.value()?.parse()?),
        ("min", Written::Range(r)) => set(&mut r.min, inner, parse_bound(inner)?),
        ("max", Written::Range(r)) => set(&mut r.max, inner, parse_bound(inner)?),
        ("exclusive_min", Written::Range(r)) => {
            set(&mut r.exclusive_min, inner, parse_bound(inner)?)
        }
        ("exclusive_max", Written::Range(r)) => {
            set(&mut r.exclusive_max, inner, parse_bound(inner)?)
        }
        ("factor", Written::MultipleOf(factor)) => {
            *seen_main = true;
            set(factor, inner, parse_bound(inner)?)
        }
        ("min", Written::Length(l)) => set(&mut l.min, inner, parse_count(inner)?),
        ("max", Written::Length(l)) => set(&mut l.max, inner, parse_count(inner)?),
        ("equal", Written::Length(l)) => set(&mut l.equal, inner, parse_count(inner)?),
        _ => Ok(()),
    }
}

fn parse_enum_values(input: ParseStream) -> syn::Result<EnumValues> {
    if input.peek(syn::token::Bracket) {
        let content;
        let bracket = syn::bracketed!(content in input);
        let values = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
        Ok(EnumValues::List(
            values.into_iter().collect(),
            bracket.span.join(),
        ))
    } else {
        Ok(EnumValues::Path(input.parse()?))
    }
}

fn parse_bound(meta: &ParseNestedMeta) -> syn::Result<Bound> {
    let input = meta.value()?;
    let neg: Option<Token![-]> = input.parse()?;
    let lit: syn::Lit = input.parse()?;
    let value = match &lit {
        syn::Lit::Int(i) => Number::Int(i.base10_parse::<i128>()?),
        syn::Lit::Float(f) => {
            let v = f.base10_parse::<f64>()?;
            if !v.is_finite() {
                return Err(syn::Error::new(f.span(), "a bound must be a finite number"));
            }
            Number::Float(v)
        }
        other => {
            return Err(syn::Error::new(
                other.span(),
                "a bound must be a number literal",
            ));
        }
    };
    let value = match (neg, value) {
        (None, v) => v,
        (Some(_), Number::Int(i)) => Number::Int(-i),
        (Some(_), Number::Float(f)) => Number::Float(-f),
    };
    Ok(Bound {
        value,
        span: lit.span(),
    })
}

fn parse_count(meta: &ParseNestedMeta) -> syn::Result<(u64, Span)> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    Ok((lit.base10_parse::<u64>()?, lit.span()))
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
