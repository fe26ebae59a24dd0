//! `multiple_of`: a number that is a whole multiple of a factor greater than zero.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::literal::{self, Bound, Number};
use super::{Key, RuleKind, Target};
use crate::ctxt::Errors;

/// `multiple_of = 5`.
pub struct MultipleOf(Number);

impl RuleKind for MultipleOf {
    type Written = Option<Bound>;
    const NAME: &'static str = "multiple_of";
    const RUNTIME: &'static str = "MultipleOf";
    const MAIN: Option<&'static str> = Some("factor");
    const USAGE: &'static str = "multiple_of = 5";
    const KEYS: &'static [Key<Self::Written>] = &[Key {
        name: "factor",
        read: |factor, meta| {
            *factor = Some(literal::bound(meta)?);
            Ok(())
        },
    }];

    fn vet(factor: Self::Written, span: Span, errors: &mut Errors) -> Option<Self> {
        match factor {
            Some(Bound { value, .. }) if value.as_f64() > 0.0 => Some(MultipleOf(value)),
            Some(Bound { span, .. }) => {
                errors.at(span, "`multiple_of` needs a factor greater than zero");
                None
            }
            None => {
                errors.at(span, "`multiple_of` needs a factor: `multiple_of = 5`");
                None
            }
        }
    }

    fn marker(&self) -> Option<&'static str> {
        Some("NumberRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let p = target.p;
        let factor = self.0.expand(p);
        quote!(&#p::MultipleOf { factor: #factor })
    }
}
