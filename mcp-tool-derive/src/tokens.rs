//! Small pieces of generated code that every expansion writes the same way.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::quote;
use syn::LitStr;

/// `tokens` with every span set to `span`: a type re-spanned at a rule makes an error
/// about the two point at the rule.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                TokenTree::Group(group)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// `Some("...")` or `None`.
pub fn opt_lit(lit: Option<&LitStr>) -> TokenStream {
    match lit {
        Some(lit) => quote!(::core::option::Option::Some(#lit)),
        None => quote!(::core::option::Option::None),
    }
}
