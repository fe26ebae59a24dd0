//! `custom`: the author's own function judges the typed value, and `description` says
//! in the schema what it checks (no keyword can). garde's `custom(function)` is the same
//! rule with garde's signature, `fn(&T, &()) -> garde::Result`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::{Key, Parsed, RuleKind, Target};
use crate::ctxt::Errors;
use crate::tokens::{opt_lit, respan};

/// `custom = path::to::function` or `custom(function = ..., description = "...")`.
pub struct Custom {
    function: syn::Path,
    description: Option<LitStr>,
    garde: Option<Garde>,
}

/// How garde calls a custom function: with the field's value as the field holds it (an
/// `Option` field's function takes `&Option<T>`) and garde's context, here always `()`
/// (garde's `context(...)` is refused on the type); its `garde::Error` is read by its
/// `Display`, so the runtime needs nothing of garde.
#[derive(Clone, Copy)]
pub struct Garde {
    /// The field is an `Option<T>`: the function takes `&Option<T>`, and is called with
    /// the value sent (never with `None`: rules hold where there is a value).
    pub option: bool,
}

#[derive(Default)]
pub struct Written {
    function: Option<syn::Path>,
    description: Option<LitStr>,
    garde: Option<Garde>,
}

/// garde's `custom(function)`, on a field (`option`: of an `Option` type) or on items.
pub fn garde(function: syn::Path, garde: Garde, span: Span) -> Parsed {
    Parsed::new::<Custom>(
        span,
        Written {
            function: Some(function),
            description: None,
            garde: Some(garde),
        },
    )
}

/// The function: a path, or a string of one (`function = "check"`, validator's older
/// spelling).
fn function(meta: &syn::meta::ParseNestedMeta) -> syn::Result<syn::Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse()
    } else {
        value.parse()
    }
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
                c.function = Some(function(meta)?);
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
            garde: written.garde,
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
        // The closure's parameter, named at the call site: the call is spanned at the
        // author's function, whose hygiene (a `macro_rules!` of theirs) may not see it.
        let value = quote!(value);
        let call = match self.garde {
            Some(garde) => garde_call(p, function, &ty, &value, garde, span),
            None => own_call(p, function, &ty, &value, span),
        };
        let description = opt_lit(self.description.as_ref());
        quote!(&#p::Custom {
            name: #name,
            description: #description,
            check: |#value, _| #call,
        })
    }
}

/// This crate's signature: `fn(&T) -> Result<(), E>` with `E: Into<Invalid>`, or any
/// error that can be shown (validator's `ValidationError`), `T` in any borrowed form.
fn own_call(
    p: &TokenStream,
    function: &syn::Path,
    ty: &TokenStream,
    value: &TokenStream,
    span: Span,
) -> TokenStream {
    quote_spanned! {span=>
            match #p::read_lent::<#ty>(#value) {
                ::core::option::Option::Some(typed) => #function(
                    ::core::borrow::Borrow::borrow(typed.get()),
                )
                .map_err(|error| {
                    // One of the two is the one method lookup takes.
                    #[allow(unused_imports)]
                    use #p::{OwnVerdict as _, ShownVerdict as _};
                    #p::Verdict(error).invalid()
                }),
                ::core::option::Option::None => ::core::result::Result::Ok(()),
            }
    }
}

/// garde's: `fn(&T, &()) -> garde::Result`, the value as the field holds it, borrowed as
/// garde borrows it (by deref coercion), the error's text (its `Display`) as the
/// expectation.
fn garde_call(
    p: &TokenStream,
    function: &syn::Path,
    ty: &TokenStream,
    value: &TokenStream,
    garde: Garde,
    span: Span,
) -> TokenStream {
    let read = if garde.option {
        quote_spanned!(span=> ::core::option::Option<#ty>)
    } else {
        ty.clone()
    };
    quote_spanned! {span=>
        match #p::read_lent::<#read>(#value) {
            ::core::option::Option::Some(typed) => #function(typed.get(), &())
                .map_err(|error| {
                    #[allow(unused_imports)]
                    use #p::ShownVerdict as _;
                    (&#p::Verdict(error)).invalid()
                }),
            ::core::option::Option::None => ::core::result::Result::Ok(()),
        }
    }
}
