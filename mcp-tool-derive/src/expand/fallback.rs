//! What a derive that failed still emits beside its errors: the traits it would have
//! implemented, with bodies that never run (the build stops at the errors). Without
//! them, every use of the type would add an error of its own ("`McpTool` is not
//! implemented for `BookFlight`") and bury the one that says what to fix.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;
use syn::punctuated::Punctuated;

use crate::model::Derive;

/// `#[mcp_tool(crate = "...")]` if it reads, else `::mcp_tool`: the attributes may be
/// what failed.
fn krate(input: &DeriveInput) -> syn::Path {
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("mcp_tool")) {
        let Ok(items) =
            attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        for item in items {
            if let syn::Meta::NameValue(pair) = item
                && pair.path.is_ident("crate")
                && let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(path),
                    ..
                }) = &pair.value
                && let Ok(path) = path.parse()
            {
                return path;
            }
        }
    }
    syn::parse_quote!(::mcp_tool)
}

const NEVER: &str = "mcp-tool: the derive of this type failed, so this is never built";

/// The impls of `McpTool` (for that derive), `JsonSchema` and `Argument`.
pub fn tool(input: &DeriveInput, derive: Derive) -> TokenStream {
    // A generic type is refused; an impl for it would only add errors.
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let krate = krate(input);
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let tool = (derive == Derive::Tool).then(|| {
        let name = crate::ast::snake_case(&ident.to_string());
        quote! {
            #[automatically_derived]
            impl #krate::McpTool for #ident {
                const NAME: &'static str = #name;
                fn spec() -> &'static #p::ToolSpec {
                    ::core::unreachable!(#NEVER)
                }
            }
        }
    });
    let rest = common(input, &krate);
    quote! {
        #[doc(hidden)]
        const _: () = {
            #tool
            #rest
        };
    }
}

/// The `McpEnum`, `JsonSchema` and `Argument` impls of an enum of names.
pub fn enumeration(input: &DeriveInput) -> TokenStream {
    if !input.generics.params.is_empty() || !matches!(input.data, syn::Data::Enum(_)) {
        return TokenStream::new();
    }
    let krate = krate(input);
    let ident = &input.ident;
    let rest = common(input, &krate);
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #krate::McpEnum for #ident {
                const VALUES: &'static [&'static str] = &[];
            }
            #[automatically_derived]
            impl #krate::__private::Compared for #ident {
                const TAKES: #krate::__private::Takes = #krate::__private::Takes::Text(::core::option::Option::None);
            }
            #rest
        };
    }
}

/// `JsonSchema` and `Argument`, which every derive implements.
fn common(input: &DeriveInput, krate: &syn::Path) -> TokenStream {
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let name = ident.to_string();
    quote! {
        #[automatically_derived]
        impl #p::schemars::JsonSchema for #ident {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn json_schema(_: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                ::core::unreachable!(#NEVER)
            }
        }
        #[automatically_derived]
        impl #krate::Argument for #ident {
            type Target = Self;
            fn schema(_: #p::Rules, _: &mut #p::Walk) -> #p::Map<::std::string::String, #p::Value> {
                ::core::unreachable!(#NEVER)
            }
            fn check(_: &#p::Value, _: #p::Rules, _: &mut #p::Checker<'_>) -> bool {
                ::core::unreachable!(#NEVER)
            }
        }
    }
}
