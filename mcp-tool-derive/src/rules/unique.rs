//! `unique`: an array in which no item repeats another, as JSON Schema's `uniqueItems`
//! says (the runtime compares items as that keyword does, and reports each repeat at its
//! own index).

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::{RuleKind, Target};
use crate::ctxt::Errors;

/// `unique`.
pub struct Unique;

impl RuleKind for Unique {
    type Written = ();
    const NAME: &'static str = "unique";
    const RUNTIME: &'static str = "Unique";
    const BARE: bool = true;
    const USAGE: &'static str = "unique";

    fn vet((): (), _: Span, _: &mut Errors) -> Option<Self> {
        Some(Unique)
    }

    fn marker(&self) -> Option<&'static str> {
        Some("UniqueRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let p = target.p;
        quote!(&#p::Unique)
    }
}
