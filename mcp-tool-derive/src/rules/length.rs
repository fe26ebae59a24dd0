//! `length`: how many characters a string has, or items an array: `min`, `max`, or
//! `equal` alone.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::literal;
use super::{Key, Parsed, RuleKind, Target};
use crate::ctxt::Errors;

/// `length(min = 1, max = 100)`, `length(equal = 3)`.
pub struct Length {
    min: Option<u64>,
    max: Option<u64>,
}

#[derive(Default)]
pub struct Written {
    min: Option<(u64, Span)>,
    max: Option<(u64, Span)>,
    equal: Option<(u64, Span)>,
}

impl RuleKind for Length {
    type Written = Written;
    const NAME: &'static str = "length";
    const RUNTIME: &'static str = "Length";
    const USAGE: &'static str = "length(min = 1, max = 100)";
    const KEYS: &'static [Key<Written>] = &[
        Key {
            name: "min",
            read: |l, meta| {
                l.min = Some(literal::count(meta)?);
                Ok(())
            },
        },
        Key {
            name: "max",
            read: |l, meta| {
                l.max = Some(literal::count(meta)?);
                Ok(())
            },
        },
        Key {
            name: "equal",
            read: |l, meta| {
                l.equal = Some(literal::count(meta)?);
                Ok(())
            },
        },
    ];

    fn vet(l: Written, span: Span, errors: &mut Errors) -> Option<Self> {
        let (min, max) = match (l.equal, l.min, l.max) {
            (Some((n, _)), None, None) => (Some(n), Some(n)),
            (Some((_, s)), _, _) => {
                errors.at(s, "`length(equal)` excludes `min` and `max`");
                return None;
            }
            (None, None, None) => {
                errors.at(span, "`length` needs min, max or equal");
                return None;
            }
            (None, min, max) => {
                if let (Some((lo, _)), Some((hi, s))) = (min, max)
                    && lo > hi
                {
                    errors.at(
                        s,
                        format!("`length` is empty: min {lo} is more than max {hi}"),
                    );
                    return None;
                }
                (min.map(|m| m.0), max.map(|m| m.0))
            }
        };
        Some(Length { min, max })
    }

    fn marker(&self) -> Option<&'static str> {
        Some("LengthRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let p = target.p;
        let [min, max] = [self.min, self.max].map(|side| match side {
            Some(n) => quote!(::core::option::Option::Some(#n)),
            None => quote!(::core::option::Option::None),
        });
        quote!(&#p::Length { min: #min, max: #max })
    }
}

/// The rule `length(min, max)` or `length(equal)` as another attribute wrote it
/// (garde's `length(...)`), each count with where it was written.
pub fn written(
    min: Option<(u64, Span)>,
    max: Option<(u64, Span)>,
    equal: Option<(u64, Span)>,
    span: Span,
) -> Parsed {
    Parsed::new::<Length>(span, Written { min, max, equal })
}
