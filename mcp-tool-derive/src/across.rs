//! A rule across fields, all three phases: `#[mcp_tool(require(local_path, when(mode =
//! "download")))]` read, vetted against the struct's fields (a name no field has gets
//! "did you mean"; a value the field's type never has is refused when the struct is
//! compiled, by a `const` the runtime's `refuse_when` judges), and written as the
//! runtime's `Requirement`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::ctxt::{Errors, did_you_mean};
use crate::model::{
    AcrossParsed as Parsed, AcrossRule as Rule, Body, Field, Literal, LiteralValue,
};

const SYNTAX: &str = "a rule across fields reads `require(field, ..., when(other))` (the fields are required when `other` is sent) or `require(field, ..., when(other = value))` (when `other` is `value`, or one of `[a, b]`)";

/// Reads `require(...)` of `#[mcp_tool(...)]`.
pub fn parse(meta: &ParseNestedMeta) -> syn::Result<Parsed> {
    let mut out = Parsed {
        span: meta.path.span(),
        fields: Vec::new(),
        when: None,
    };
    meta.parse_nested_meta(|inner| {
        let mut read = || -> syn::Result<()> {
            if inner.path.is_ident("when") {
                if out.when.is_some() {
                    return Err(inner.error(
                        "one `when(...)` per rule: write another `require(...)` for another condition",
                    ));
                }
                let mut when = None;
                inner.parse_nested_meta(|condition| {
                    if when.is_some() {
                        return Err(condition.error(
                            "`when(...)` reads one field: write another `require(...)` for another",
                        ));
                    }
                    let read = || -> syn::Result<_> {
                        let field = name(&condition.path)?;
                        let values = if condition.input.peek(syn::Token![=]) {
                            literals(condition.value()?)?
                        } else {
                            Vec::new()
                        };
                        Ok((field, values))
                    };
                    when = Some(skipping(condition.input, read())?);
                    Ok(())
                })?;
                out.when = Some(when.ok_or_else(|| inner.error(SYNTAX))?);
                return Ok(());
            }
            if !inner.input.is_empty() && !inner.input.peek(syn::Token![,]) {
                return Err(inner.error(SYNTAX));
            }
            out.fields.push(name(&inner.path)?);
            Ok(())
        };
        let result = read();
        skipping(inner.input, result)
    })?;
    if out.fields.is_empty() || out.when.is_none() {
        return Err(syn::Error::new(out.span, SYNTAX));
    }
    Ok(out)
}

/// `result`; where it is an error, with the rest of `input` skipped, so that the one
/// error is all the author reads (syn reports tokens left in a group as another).
fn skipping<T>(input: syn::parse::ParseStream, result: syn::Result<T>) -> syn::Result<T> {
    if result.is_err() {
        let _ = input.step(|cursor| {
            let mut rest = *cursor;
            while let Some((_, next)) = rest.token_tree() {
                rest = next;
            }
            Ok(((), rest))
        });
    }
    result
}

fn name(path: &syn::Path) -> syn::Result<syn::Ident> {
    path.get_ident()
        .cloned()
        .ok_or_else(|| syn::Error::new_spanned(path, "a field's name, as written in the struct"))
}

/// The values of `when(field = value)`: one literal, or an array of them.
fn literals(input: syn::parse::ParseStream) -> syn::Result<Vec<Literal>> {
    if !input.peek(syn::token::Bracket) {
        return Ok(vec![literal(input)?]);
    }
    let content;
    let bracket = syn::bracketed!(content in input);
    let mut values = Vec::new();
    while !content.is_empty() {
        values.push(literal(&content)?);
        if content.is_empty() {
            break;
        }
        content.parse::<syn::Token![,]>()?;
    }
    if values.is_empty() {
        return Err(syn::Error::new(
            bracket.span.join(),
            "`when(field = [])` would never hold: give at least one value",
        ));
    }
    Ok(values)
}

/// A string, an integer (maybe negative), `true` or `false`.
fn literal(input: syn::parse::ParseStream) -> syn::Result<Literal> {
    let start = input.span();
    let negative = input.parse::<Option<syn::Token![-]>>()?.is_some();
    let lit: syn::Lit = input.parse().map_err(|_| {
        syn::Error::new(
            start,
            "`when(field = value)` compares with a string, an integer, `true` or `false`",
        )
    })?;
    let value = match &lit {
        syn::Lit::Str(s) if !negative => LiteralValue::Str(s.value()),
        syn::Lit::Bool(b) if !negative => LiteralValue::Bool(b.value),
        syn::Lit::Int(n) => {
            let n: i128 = n.base10_parse()?;
            LiteralValue::Int(if negative { -n } else { n })
        }
        _ => {
            return Err(syn::Error::new_spanned(
                &lit,
                "`when(field = value)` compares with a string, an integer, `true` or `false`",
            ));
        }
    };
    Ok(Literal {
        value,
        span: lit.span(),
    })
}

/// The rules `parsed`, vetted against the fields of `body`.
pub fn vet<'a, R>(parsed: Vec<Parsed>, body: &Body<'a, R>, errors: &mut Errors) -> Vec<Rule<'a>> {
    let fields = match body {
        Body::Struct(fields) => fields,
        _ => {
            for rule in parsed {
                errors.at(
                    rule.span,
                    "a rule across fields reads a struct's named fields: an enum's forms or a newtype have none",
                );
            }
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for rule in parsed {
        let Some((when_ident, values)) = rule.when else {
            continue;
        };
        let when = find(fields, &when_ident, errors);
        let required: Vec<Option<&Field<'a, R>>> = rule
            .fields
            .iter()
            .map(|f| find(fields, f, errors))
            .collect();
        let (Some(when), Some(required)) = (when, required.into_iter().collect::<Option<Vec<_>>>())
        else {
            continue;
        };
        if let Some(at) = rule
            .fields
            .iter()
            .zip(&required)
            .find(|(_, f)| f.wire == when.wire)
        {
            errors.spanned(
                at.0,
                format!("`{}` is the field the condition reads: a rule across fields requires other fields", when.member),
            );
            continue;
        }
        out.push(Rule {
            fields: required.iter().map(|f| f.wire.clone()).collect(),
            when: when.wire.clone(),
            when_ty: when.ty,
            values,
        });
    }
    out
}

/// The field `ident` names, by its name in Rust or on the wire; an error where none.
fn find<'f, 'a, R>(
    fields: &'f [Field<'a, R>],
    ident: &syn::Ident,
    errors: &mut Errors,
) -> Option<&'f Field<'a, R>> {
    let name = ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name);
    let found = fields
        .iter()
        .find(|f| f.member == name)
        .or_else(|| fields.iter().find(|f| f.wire == name));
    match found {
        Some(field) if field.flatten => {
            errors.spanned(
                ident,
                format!("`{name}` is flattened: its fields stand in this object, and a rule across fields names one of them in the struct that declares it"),
            );
            None
        }
        Some(field) => Some(field),
        None => {
            let members: Vec<&str> = fields.iter().map(|f| f.member.as_str()).collect();
            let mut message = format!("no field `{name}` in this struct");
            if let Some(near) = did_you_mean(name, &members) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            errors.spanned(ident, message);
            None
        }
    }
}

/// The runtime's `Requirement`s of `rules`, and the `const`s that judge each value
/// written against its field's type, spanned at the value.
pub fn expand(rules: &[Rule], p: &TokenStream) -> (TokenStream, TokenStream) {
    let mut assertions = TokenStream::new();
    let specs = rules.iter().map(|rule| {
        let fields = &rule.fields;
        let when = &rule.when;
        let values = rule.values.iter().map(|literal| {
            let value = match &literal.value {
                LiteralValue::Str(s) => quote!(#p::Literal::Str(#s)),
                LiteralValue::Int(n) => {
                    let n = proc_macro2::Literal::i128_unsuffixed(*n);
                    quote!(#p::Literal::Int(#n))
                }
                LiteralValue::Bool(b) => quote!(#p::Literal::Bool(#b)),
            };
            let ty = rule.when_ty;
            let span = literal.span;
            let p = crate::tokens::respan(p.clone(), span);
            assertions.extend(quote_spanned! {span=>
                const _: () = if let ::core::option::Option::Some(message) =
                    #p::refuse_when(<#ty as #p::Compared>::TAKES, #when, #value)
                {
                    ::core::panic!("{}", message.as_str());
                };
            });
            value
        });
        let values: Vec<TokenStream> = values.collect();
        quote!(#p::Requirement {
            fields: &[#(#fields),*],
            when: #when,
            values: &[#(#values),*],
        })
    });
    let specs: Vec<TokenStream> = specs.collect();
    (quote!(&[#(#specs),*]), assertions)
}
