//! `enum`: a string among a whitelist, listed in the attribute or named by a constant
//! (`enum = CABINS`, a `&[&str]` the server shares with its own code). A list is vetted
//! here; a constant is vetted at compile time by assertions on its value.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::{LitStr, Token};

use super::{Key, RuleKind, Target};
use crate::ctxt::Errors;
use crate::meta::path_name;
use crate::tokens::respan;

/// `enum = ["a", "b"]` or `enum = CONSTANT`.
pub enum OneOf {
    List(Vec<LitStr>),
    Path(syn::Path),
}

/// The values as written, and where.
pub enum Values {
    List(Vec<LitStr>, Span),
    Path(syn::Path),
}

impl RuleKind for OneOf {
    type Written = Option<Values>;
    const NAME: &'static str = "enum";
    const RUNTIME: &'static str = "OneOf";
    const MAIN: Option<&'static str> = Some("values");
    const USAGE: &'static str = r#"enum = ["a", "b"]"#;
    const KEYS: &'static [Key<Self::Written>] = &[Key {
        name: "values",
        read: |values, meta| {
            let input = meta.value()?;
            *values = Some(if input.peek(syn::token::Bracket) {
                let content;
                let bracket = syn::bracketed!(content in input);
                let list = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
                Values::List(list.into_iter().collect(), bracket.span.join())
            } else {
                Values::Path(input.parse()?)
            });
            Ok(())
        },
    }];

    fn vet(values: Self::Written, span: Span, errors: &mut Errors) -> Option<Self> {
        match values.unwrap_or(Values::List(Vec::new(), span)) {
            Values::List(list, list_span) => {
                if list.is_empty() {
                    errors.at(list_span, "empty `enum`: list at least one allowed value");
                    return None;
                }
                for (i, lit) in list.iter().enumerate() {
                    if list[..i].iter().any(|l| l.value() == lit.value()) {
                        errors.spanned(
                            lit,
                            format!("{:?} is listed twice in this `enum`", lit.value()),
                        );
                        return None;
                    }
                }
                Some(OneOf::List(list))
            }
            Values::Path(path) => Some(OneOf::Path(path)),
        }
    }

    fn marker(&self) -> Option<&'static str> {
        Some("TextRule")
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let p = target.p;
        match self {
            OneOf::List(values) => quote!(&#p::OneOf { values: &[#(#values),*] }),
            OneOf::Path(path) => quote!(&#p::OneOf { values: #path }),
        }
    }

    /// A constant's whitelist is checked where the build sees its value: not empty, and
    /// no value twice (the schema's `enum` would repeat it).
    fn assert(&self, target: &Target) -> TokenStream {
        let OneOf::Path(path) = self else {
            return TokenStream::new();
        };
        let span = target.span;
        let name = path_name(path);
        let message = format!("the `enum` whitelist `{name}` is empty: it would accept no value");
        let p = respan(target.p.clone(), span);
        quote_spanned! {span=>
            const _: () = ::core::assert!(!#path.is_empty(), #message);
            const _: () = if let ::core::option::Option::Some(value) = #p::first_repeat(#path) {
                ::core::panic!("{}", #p::repeat_message(#name, value).as_str());
            };
        }
    }
}
