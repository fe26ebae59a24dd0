//! `email`, `url` and `uuid`: a string in a well-known format, advertised as JSON
//! Schema's `format` and checked by the runtime's own reading of it.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::{Parsed, RuleKind, Target};
use crate::ctxt::Errors;

macro_rules! formats {
    ($($ty:ident $name:literal,)*) => {$(
        #[doc = concat!("`", $name, "`.")]
        pub struct $ty;

        impl RuleKind for $ty {
            type Written = ();
            const NAME: &'static str = $name;
            const RUNTIME: &'static str = "Format";
            const BARE: bool = true;
            const USAGE: &'static str = $name;

            fn vet((): (), _: Span, _: &mut Errors) -> Option<Self> {
                Some($ty)
            }

            fn marker(&self) -> Option<&'static str> {
                Some("TextRule")
            }

            fn expand(&self, target: &Target) -> TokenStream {
                let p = target.p;
                quote!(&#p::Format::$ty)
            }
        }
    )*};
}

formats! {
    Email "email",
    Url "url",
    Uuid "uuid",
}

/// The rule `email` as another attribute wrote it.
pub fn email(span: Span) -> Parsed {
    Parsed::new::<Email>(span, ())
}

/// The rule `url` as another attribute wrote it.
pub fn url(span: Span) -> Parsed {
    Parsed::new::<Url>(span, ())
}
