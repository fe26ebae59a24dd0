//! `range`: a number between bounds, each inclusive (`min`, `max`) or exclusive
//! (`exclusive_min`, `exclusive_max`); a range that leaves no number is an error here.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::literal::{self, Bound, Number};
use super::{Key, Parsed, RuleKind, Target};
use crate::ctxt::Errors;

/// `range(min = 1, max = 9)`: each side a number, and whether it is exclusive.
pub struct Range {
    min: Option<(Number, bool)>,
    max: Option<(Number, bool)>,
}

#[derive(Default)]
pub struct Written {
    min: Option<Bound>,
    max: Option<Bound>,
    exclusive_min: Option<Bound>,
    exclusive_max: Option<Bound>,
}

impl RuleKind for Range {
    type Written = Written;
    const NAME: &'static str = "range";
    const RUNTIME: &'static str = "Range";
    const USAGE: &'static str = "range(min = 1, max = 9)";
    const KEYS: &'static [Key<Written>] = &[
        Key {
            name: "min",
            read: |r, meta| {
                r.min = Some(literal::bound(meta)?);
                Ok(())
            },
        },
        Key {
            name: "max",
            read: |r, meta| {
                r.max = Some(literal::bound(meta)?);
                Ok(())
            },
        },
        Key {
            name: "exclusive_min",
            read: |r, meta| {
                r.exclusive_min = Some(literal::bound(meta)?);
                Ok(())
            },
        },
        Key {
            name: "exclusive_max",
            read: |r, meta| {
                r.exclusive_max = Some(literal::bound(meta)?);
                Ok(())
            },
        },
    ];

    fn vet(r: Written, span: Span, errors: &mut Errors) -> Option<Self> {
        let min = side(r.min, r.exclusive_min, "min", errors)?;
        let max = side(r.max, r.exclusive_max, "max", errors)?;
        if min.is_none() && max.is_none() {
            errors.at(
                span,
                "`range` needs a bound: min, max, exclusive_min or exclusive_max",
            );
            return None;
        }
        if let (Some((lo, lo_excl, _)), Some((hi, hi_excl, hi_span))) = (min, max)
            && (lo.as_f64() > hi.as_f64() || (lo.as_f64() == hi.as_f64() && (lo_excl || hi_excl)))
        {
            errors.at(
                hi_span,
                "`range` is empty: its minimum is not below its maximum",
            );
            return None;
        }
        Some(Range {
            min: min.map(|(v, e, _)| (v, e)),
            max: max.map(|(v, e, _)| (v, e)),
        })
    }

    fn marker(&self) -> Option<&'static str> {
        Some("NumberRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let p = target.p;
        let [min, max] = [self.min, self.max].map(|side| match side {
            Some((n, exclusive)) => {
                let n = n.expand(p);
                quote!(::core::option::Option::Some(#p::Bound {
                    value: #n,
                    exclusive: #exclusive,
                }))
            }
            None => quote!(::core::option::Option::None),
        });
        quote!(&#p::Range { min: #min, max: #max })
    }
}

/// One side of a range: the inclusive or the exclusive bound, not both.
#[allow(clippy::type_complexity)]
fn side(
    inclusive: Option<Bound>,
    exclusive: Option<Bound>,
    side: &str,
    errors: &mut Errors,
) -> Option<Option<(Number, bool, Span)>> {
    match (inclusive, exclusive) {
        (Some(_), Some(e)) => {
            errors.at(
                e.span,
                format!("give `{side}` or `exclusive_{side}`, not both"),
            );
            None
        }
        (Some(b), None) => Some(Some((b.value, false, b.span))),
        (None, Some(b)) => Some(Some((b.value, true, b.span))),
        (None, None) => Some(None),
    }
}

/// The rule `range(min, max)`, both inclusive, as another attribute wrote it (garde's
/// `range(...)`, whose `equal = n` is `min = n, max = n`).
pub fn written(min: Option<Bound>, max: Option<Bound>, span: Span) -> Parsed {
    Parsed::new::<Range>(
        span,
        Written {
            min,
            max,
            ..Written::default()
        },
    )
}
