//! The literals rules are written with: bounds (numbers, negative or not) and counts.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use syn::Token;
use syn::meta::ParseNestedMeta;

/// A number as written: integers kept exact.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    /// The runtime's `Num::Int(..)`/`Num::Float(..)`.
    pub fn expand(self, p: &TokenStream) -> TokenStream {
        match self {
            Number::Int(i) => {
                let lit = Literal::i128_unsuffixed(i);
                quote!(#p::Num::Int(#lit))
            }
            Number::Float(f) => {
                let lit = Literal::f64_unsuffixed(f);
                quote!(#p::Num::Float(#lit))
            }
        }
    }
}

/// A number and where it was written.
#[derive(Clone, Copy)]
pub struct Bound {
    pub value: Number,
    pub span: Span,
}

/// `key = 5`, `key = -2.5`: a finite number.
pub fn bound(meta: &ParseNestedMeta) -> syn::Result<Bound> {
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

/// `key = 3`: a count, and where it was written.
pub fn count(meta: &ParseNestedMeta) -> syn::Result<(u64, Span)> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    Ok((lit.base10_parse::<u64>()?, lit.span()))
}
