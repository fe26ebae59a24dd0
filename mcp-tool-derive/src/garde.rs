//! `#[garde(...)]`, read so that a struct written for garde migrates by swapping the
//! derive. schemars 1.x reads garde's rules into the schema, so a server that derived
//! both advertised them; here each rule this crate can advertise *and* enforce becomes
//! the same rule as ours, from the one attribute: `length`, `range`, `pattern`, `email`,
//! `url`, `contains`, `prefix`, `suffix`, `ascii`, `alphanumeric` (the last five as a
//! `regex` that says them), `inner` (the items' rules), `custom` (a function with
//! garde's signature), `required` (an `Option` that must hold a value); `skip`, `dive`,
//! `rename` and `code` change nothing here. The rest are refused at the attribute with
//! what to write instead. garde's own derive, if kept, reads the same attribute.
//!
//! One reading is chosen: garde's `length` counts a string's bytes by default, and
//! JSON Schema's `minLength`/`maxLength` count characters (code points), which is what
//! schemars advertised from it. Here the count is characters, advertised and enforced
//! alike: the same as garde's for ASCII text, and no drift between what the model is
//! told and what the server checks. A `length` that names a count JSON Schema cannot
//! say (`bytes`, `graphemes`, `utf16`) is refused.

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr};

use crate::attr::FieldRules;
use crate::ctxt::Errors;
use crate::meta::{path_name, recover, set, unknown_key};
use crate::rules::custom::{self, Garde};
use crate::rules::regex::Text;
use crate::rules::{Parsed, foreign_rule, format, length, literal, range, regex};

/// The keys of `#[garde(...)]` on a field that are read, for the list in an error.
const READ: &[&str] = &[
    "length",
    "range",
    "pattern",
    "email",
    "url",
    "contains",
    "prefix",
    "suffix",
    "ascii",
    "alphanumeric",
    "inner",
    "custom",
    "required",
    "skip",
    "dive",
    "rename",
    "code",
];

/// Reads `#[garde(...)]` on a field into `rules`. `option`: the field's type is written
/// `Option<T>`, so that a custom function takes `&Option<T>`, as garde calls it.
pub fn field(attrs: &[Attribute], rules: &mut FieldRules, option: bool, errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("garde")) {
        let result = attr.parse_nested_meta(|meta| {
            let result = rule(&meta, rules, option, errors, false);
            recover(result, &meta, errors);
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

/// Reads `#[garde(...)]` on a type: garde's settings of the type, which change nothing
/// here (`allow_unvalidated`, `transparent`) or cannot be read (`context`, `custom`).
pub fn container(attrs: &[Attribute], errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("garde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = path_name(&meta.path);
            let result = match key.as_str() {
                // Every field is read whether it has rules or not; a newtype is read as
                // serde reads it.
                "allow_unvalidated" | "transparent" => Ok(()),
                "context" => Err(meta.error(
                    "garde's `context` is not read here: a custom rule's function takes the value alone (garde's `fn(&T, &()) -> garde::Result`). Read what it needs from a static, or check it in the handler and return `ToolError::validation`; then remove `context`",
                )),
                "custom" => Err(meta.error(
                    "garde's `custom` on a type checks the whole value, which no schema can say: state the parts as rules on the fields and `#[mcp_tool(require(...))]`, or check it in the handler and return `ToolError::validation`",
                )),
                _ => Err(unknown_key(
                    &meta,
                    &key,
                    &["allow_unvalidated", "transparent"],
                    "type-level #[garde(...)]",
                )),
            };
            recover(result, &meta, errors);
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

/// What to write instead of a garde rule this crate has none for.
fn instead(key: &str) -> Option<String> {
    Some(match key {
        "phone_number" | "credit_card" | "ip" | "ipv4" | "ipv6" | "matches" => {
            foreign_rule(key)?.to_owned()
        }
        "if" => "a rule that holds under a condition on the Rust value is not one a schema can say: when it requires a field, write `#[mcp_tool(require(field, when(other = value)))]` on the struct; otherwise check it in the handler and return `ToolError::validation`".into(),
        "adapt" => "an adapter gives garde's rules to a foreign type; here the field's type implements `mcp_tool::Argument` (see the argument types), and the rules apply to it: remove `adapt`".into(),
        _ => return None,
    })
}

/// One rule of `#[garde(...)]`, on the field or (`in_inner`) on its items.
fn rule(
    meta: &ParseNestedMeta,
    rules: &mut FieldRules,
    option: bool,
    errors: &mut Errors,
    in_inner: bool,
) -> syn::Result<()> {
    let key = path_name(&meta.path);
    let span = meta.path.span();
    let push = |rules: &mut FieldRules, rule: Parsed| {
        rules.push(rule, |name| {
            if name == "regex" {
                format!(
                    "`{key}` is a pattern here, and this value has one already (`pattern`, `contains`, `prefix`, `suffix`, `ascii` and `alphanumeric` are each one, as is #[validate(regex)]): write one `pattern(...)` that says both"
                )
            } else {
                format!(
                    "`{name}` is given twice on this value (in #[garde] and #[validate], or twice): keep one"
                )
            }
        })
    };
    match key.as_str() {
        "skip" | "dive" | "rename" | "code" | "required" | "inner" if in_inner => Err(meta.error(
            format!(
                "`{key}` inside `inner(...)` is not read here: rules on the items of items, or on their presence, are a newtype's that derives `mcp_tool::Argument` with `#[validate(items(...))]`"
            ),
        )),
        // No rules; the field is read by its type, as every field is.
        "skip" => Ok(()),
        // The nested type's own rules are checked already: it derives `Argument`.
        "dive" => skip_group(meta),
        // The names in garde's report; a violation's path here is the name on the wire.
        "rename" | "code" => skip_group(meta),
        "required" => set(&mut rules.present, meta, span),
        // `None` where a key was refused, and said so: not again as a rule without one.
        "length" => read_length(meta, errors)?.map_or(Ok(()), |rule| push(rules, rule)),
        "range" => read_range(meta, errors)?.map_or(Ok(()), |rule| push(rules, rule)),
        "email" => push(rules, format::email(span)),
        "url" => push(rules, format::url(span)),
        "ascii" => push(rules, Text::Ascii.rule(span)),
        "alphanumeric" => push(rules, Text::Alphanumeric.rule(span)),
        "pattern" => {
            let pattern = text(meta, "a compiled regex (a static), which the derive cannot read: the schema is written at compile time. Write the pattern itself: `pattern(r\"^[a-z]+$\")`, the text the static compiles")?;
            push(rules, regex::written(pattern, span))
        }
        "contains" | "prefix" | "suffix" => {
            let lit = text(meta, "an expression, which the derive cannot read: the schema is written at compile time. Write the text itself as a string literal")?;
            let text = lit.value();
            let said = match key.as_str() {
                "contains" => Text::Contains(&text),
                "prefix" => Text::Prefix(&text),
                _ => Text::Suffix(&text),
            };
            push(rules, said.rule(span))
        }
        "custom" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let function: syn::Expr = content.parse()?;
            let syn::Expr::Path(function) = function else {
                return Err(syn::Error::new(
                    function.span(),
                    "garde's `custom` is read here with a function named by its path (`custom(check_sku)`), of garde's signature `fn(&T, &()) -> garde::Result`: move the closure's body, or the call's, into such a function",
                ));
            };
            let garde = Garde {
                option: option && !in_inner,
            };
            push(rules, custom::garde(function.path, garde, span))
        }
        "inner" => {
            if rules.items_span.replace(span).is_some() {
                return Err(meta.error(
                    "rules on the items given twice: put them in one `inner(...)` (or #[validate(items(...))])",
                ));
            }
            let mut items = FieldRules::default();
            meta.parse_nested_meta(|inner| {
                let result = rule(&inner, &mut items, false, errors, true);
                recover(result, &inner, errors);
                Ok(())
            })?;
            rules.items.extend(items.own);
            Ok(())
        }
        _ => Err(match instead(&key) {
            Some(advice) => meta.error(format!("garde's `{key}` is not read here: {advice}")),
            None => unknown_key(meta, &key, READ, "#[garde(...)]"),
        }),
    }
}

/// `(...)` after a key, if there is one, passed over: what it says changes nothing here.
fn skip_group(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

/// `("...")`: the string a rule takes; anything else is `what`, refused.
fn text(meta: &ParseNestedMeta, what: &str) -> syn::Result<LitStr> {
    let content;
    syn::parenthesized!(content in meta.input);
    if content.peek(LitStr) {
        let lit: LitStr = content.parse()?;
        if content.is_empty() {
            return Ok(lit);
        }
    }
    let rest: proc_macro2::TokenStream = content.parse()?;
    Err(syn::Error::new_spanned(
        rest,
        format!("`{}` names {what}", path_name(&meta.path)),
    ))
}

/// What a bound that is not a literal is told.
const LITERAL: &str = "the schema is written at compile time, so a bound here is a number literal: write the constant's value";

/// garde's `length(mode, min = .., max = .., equal = ..)`, counted in characters.
fn read_length(meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<Option<Parsed>> {
    let mode = |key: &str, inner: &ParseNestedMeta| {
        match key {
        // `simple` (the default) counts a string's bytes in garde, `chars` its
        // characters; read as characters, the count JSON Schema has (see above).
        "simple" | "chars" => Some(Ok(())),
        "bytes" | "graphemes" | "utf16" => Some(Err(inner.error(format!(
            "garde's `length({key}, ...)` counts what JSON Schema cannot say (its minLength and maxLength count characters), so the model would be told one bound and held to another: count characters with `length(chars, ...)`, or keep this bound in a `custom` function whose #[validate(custom(function = ..., description = \"...\"))] says it"
        )))),
        _ => None,
    }
    };
    let bounds = bounds(meta, errors, literal::count, &["chars", "simple"], mode)?;
    Ok(bounds.map(|[min, max, equal]| length::written(min, max, equal, meta.path.span())))
}

/// garde's `range(min = .., max = ..)` or `range(equal = ..)`, both sides inclusive.
fn read_range(meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<Option<Parsed>> {
    let span = meta.path.span();
    Ok(
        match bounds(meta, errors, literal::bound, &[], |_, _| None)? {
            None => None,
            Some([Some(_), _, Some(_)] | [_, Some(_), Some(_)]) => {
                return Err(meta.error("garde's `range(equal)` excludes `min` and `max`"));
            }
            Some([_, _, Some(bound)]) => Some(range::written(Some(bound), Some(bound), span)),
            Some([min, max, None]) => Some(range::written(min, max, span)),
        },
    )
}

/// The `min`, `max` and `equal` of garde's `length(...)` or `range(...)`, each read by
/// `value`; `other` reads the rule's other keys (`more`), `None` for one it has not.
/// `None` when a key was refused (the error recorded).
fn bounds<T>(
    meta: &ParseNestedMeta,
    errors: &mut Errors,
    value: fn(&ParseNestedMeta) -> syn::Result<T>,
    more: &[&str],
    other: impl Fn(&str, &ParseNestedMeta) -> Option<syn::Result<()>>,
) -> syn::Result<Option<[Option<T>; 3]>> {
    let (mut min, mut max, mut equal) = (None, None, None);
    let mut refused = false;
    meta.parse_nested_meta(|inner| {
        let key = path_name(&inner.path);
        let read = || value(&inner).map_err(|e| syn::Error::new(e.span(), LITERAL));
        let result = match key.as_str() {
            "min" => read().and_then(|v| set(&mut min, &inner, v)),
            "max" => read().and_then(|v| set(&mut max, &inner, v)),
            "equal" => read().and_then(|v| set(&mut equal, &inner, v)),
            _ => other(&key, &inner).unwrap_or_else(|| {
                let known: Vec<&str> = ["min", "max", "equal"]
                    .iter()
                    .chain(more)
                    .copied()
                    .collect();
                let place = format!("`{}(...)`", path_name(&meta.path));
                Err(unknown_key(&inner, &key, &known, &place))
            }),
        };
        refused |= result.is_err();
        recover(result, &inner, errors);
        Ok(())
    })?;
    Ok((!refused).then_some([min, max, equal]))
}
