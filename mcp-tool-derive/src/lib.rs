//! The derives of `mcp-tool`. Use them through that crate, which documents
//! the attribute language: `mcp_tool::McpTool`, `mcp_tool::Argument` and
//! `mcp_tool::McpEnum`.
//!
//! Three phases, in this order for every type. Read: `attr.rs`, `schemars.rs` and
//! `garde.rs` (the attributes), `fields.rs`, `shapes.rs` and `ast.rs` (the type through serde's own
//! reading of `#[serde(...)]`, refusing what cannot be read), into `model.rs` (the type
//! as the client sees it, its rules as written). Vet: `vet.rs` (what the author
//! wrote: the tool's name, contradictions, `asking.rs` for what is asked of the user,
//! each rule's literals). Expand: `expand/` (the data and trait impls the runtime turns
//! into a schema and checks). A rule takes part in all three from one module of
//! `rules/`: its keys and how each is read, its vetting, its expansion; the table is built
//! from the modules. Under them all: `ctxt.rs` (the errors), `meta.rs` (reading one key),
//! `tokens.rs` (small generated pieces).

mod across;
mod asking;
mod ast;
mod attr;
mod ctxt;
mod dialects;
mod expand;
mod fields;
mod garde;
mod meta;
mod model;
mod rules;
mod schemars;
mod scopes;
mod shapes;
mod tokens;
mod vet;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// See `mcp_tool::McpTool`.
#[proc_macro_derive(McpTool, attributes(mcp_tool, validate, serde, schemars, garde))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input, model::Derive::Tool).into()
}

/// See `mcp_tool::Argument`.
#[proc_macro_derive(Argument, attributes(mcp_tool, validate, serde, schemars, garde))]
pub fn derive_argument(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input, model::Derive::Argument).into()
}

/// Read, vet, expand. On any error, the errors and impls whose bodies never run, so
/// that a misuse is one error and not one more at every use of the type.
fn derive(input: &DeriveInput, derive: model::Derive) -> proc_macro2::TokenStream {
    let mut errors = ctxt::Errors::default();
    let tool =
        ast::read(input, derive, &mut errors).map(|read| vet::tool(read, derive, &mut errors));
    match (errors.finish(()), tool) {
        (Ok(()), Some(tool)) => match derive {
            model::Derive::Tool => expand::tool(&tool),
            model::Derive::Argument => expand::argument(&tool),
        },
        (Err(errors), _) => {
            let mut out = errors.into_compile_errors();
            out.extend(expand::fallback::tool(input, derive));
            out
        }
        // Reading records an error wherever it gives up.
        (Ok(()), None) => {
            let mut out =
                syn::Error::new_spanned(&input.ident, "mcp-tool-derive could not read this type")
                    .to_compile_error();
            out.extend(expand::fallback::tool(input, derive));
            out
        }
    }
}

/// See `mcp_tool::McpEnum`.
#[proc_macro_derive(McpEnum, attributes(mcp_tool, serde, schemars))]
pub fn derive_mcp_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match model::Enum::from_input(&input) {
        Ok(en) => expand::enumeration(&en),
        Err(errors) => {
            let mut out = errors.into_compile_errors();
            out.extend(expand::fallback::enumeration(&input));
            out
        }
    }
    .into()
}

/// The runtime's rules the derive writes, as the arms of a `match` on the runtime's
/// list of them: `__runtime_rules!(value, Enum)` expands to `match value { Enum::Regex =>
/// {}, ... }`, so that a rule the derive writes and the runtime lacks, or the runtime
/// lists and the derive never writes, stops the runtime's build. Not a stable API.
#[doc(hidden)]
#[proc_macro]
pub fn __runtime_rules(input: TokenStream) -> TokenStream {
    let parsed = syn::parse::Parser::parse(
        syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        input,
    );
    let (value, list) = match parsed.as_ref().map(|p| p.iter().collect::<Vec<_>>()) {
        Ok(args) if args.len() == 2 => (args[0], args[1]),
        _ => {
            return syn::Error::new(
                proc_macro2::Span::call_site(),
                "__runtime_rules!(value, RuleName)",
            )
            .to_compile_error()
            .into();
        }
    };
    let mut names: Vec<&str> = rules::RULES.iter().map(|d| d.runtime).collect();
    names.sort_unstable();
    names.dedup();
    let arms = names.iter().map(|name| {
        let name = syn::Ident::new(name, proc_macro2::Span::call_site());
        quote::quote!(#list::#name => {})
    });
    quote::quote!(match #value { #(#arms)* }).into()
}

#[cfg(test)]
mod tests {
    /// The expansion of the README's struct, pretty-printed: every change to generated
    /// code shows in review. Its date rule needs the `dates` feature, which the
    /// workspace's tests turn on (mcp-tool's dev-dependencies).
    #[test]
    #[cfg_attr(
        not(feature = "dates"),
        ignore = "the date rule needs --features dates"
    )]
    fn expansion_of_book_flight() {
        let input: syn::DeriveInput = syn::parse_quote! {
            /// Book a flight for one or more passengers.
            #[derive(McpTool, Deserialize)]
            #[mcp_tool(name = "book_flight")]
            struct BookFlight {
                /// Departure airport, IATA code.
                #[validate(regex = r"^[A-Z]{3}$")]
                origin: String,
                /// Arrival airport, IATA code.
                #[validate(regex = r"^[A-Z]{3}$")]
                destination: String,
                #[validate(future_date(format = "%d/%m/%Y"))]
                departure_date: String,
                #[validate(enum = ["economy", "premium_economy", "business", "first"])]
                cabin: String,
                #[validate(range(min = 1, max = 9))]
                passengers: u8,
                #[validate(email)]
                email: Option<String>,
            }
        };
        let mut errors = crate::ctxt::Errors::default();
        let read = crate::ast::read(&input, crate::model::Derive::Tool, &mut errors);
        let tool = crate::vet::tool(
            read.expect("valid input"),
            crate::model::Derive::Tool,
            &mut errors,
        );
        assert!(errors.finish(()).is_ok(), "valid input");
        let file: syn::File = syn::parse2(crate::expand::tool(&tool)).expect("expansion parses");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }
}
