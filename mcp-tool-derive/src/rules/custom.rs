//! `custom`: the author's own function judges the typed value, and `description` says
//! in the schema what it checks (no keyword can).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::{Key, RuleKind, Target};
use crate::ctxt::Errors;
use crate::tokens::{opt_lit, respan};

/// `custom = path::to::function` or `custom(function = ..., description = "...")`.
pub struct Custom {
    function: syn::Path,
    description: Option<LitStr>,
}

#[derive(Default)]
pub struct Written {
    function: Option<syn::Path>,
    description: Option<LitStr>,
}

impl RuleKind for Custom {
    type Written = Written;
    const NAME: &'static str = "custom";
    const RUNTIME: &'static str = "Custom";
    const MAIN: Option<&'static str> = Some("function");
    const USAGE: &'static str = "custom = path::to::function";
    const KEYS: &'static [Key<Written>] = &[
        Key {
            name: "function",
            read: |c, meta| {
                c.function = Some(meta.value()?.parse()?);
                Ok(())
            },
        },
        Key {
            name: "description",
            read: |c, meta| {
                c.description = Some(meta.value()?.parse()?);
                Ok(())
            },
        },
    ];

    fn vet(written: Written, span: Span, errors: &mut Errors) -> Option<Self> {
        let Some(function) = written.function else {
            errors.at(
                span,
                "`custom` needs a function: `custom = path::to::function`",
            );
            return None;
        };
        Some(Custom {
            function,
            description: written.description,
        })
    }

    fn marker(&self) -> Option<&'static str> {
        None
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let (p, function) = (target.p, &self.function);
        let last = function.segments.last();
        let name = last.map(|s| s.ident.to_string()).unwrap_or_default();
        // Spanned at the function, so a signature that does not fit points there: the
        // function meets the field's type here, at the rule, and an error is about that
        // function and that type.
        let span = last.map_or_else(Span::call_site, |s| s.ident.span());
        let ty = respan(target.ty.clone(), span);
        let call = quote_spanned! {span=>
            match #p::read_lent::<#ty>(value) {
                ::core::option::Option::Some(typed) => #function(
                    ::core::borrow::Borrow::borrow(typed.get()),
                )
                .map_err(::core::convert::Into::into),
                ::core::option::Option::None => ::core::result::Result::Ok(()),
            }
        };
        let description = opt_lit(self.description.as_ref());
        quote!(&#p::Custom {
            name: #name,
            description: #description,
            check: |value, _| #call,
        })
    }
}
