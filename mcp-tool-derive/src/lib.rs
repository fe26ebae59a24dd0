//! The derives of `mcp-tool`. Use them through that crate, which documents
//! the attribute language: `mcp_tool::McpTool`, `mcp_tool::Argument` and
//! `mcp_tool::McpEnum`.
//!
//! Read, check, expand, each file using only the ones before it: `ctxt.rs`, `meta.rs`
//! and `tokens.rs` (errors, reading one key, small generated pieces), `rules/` (each
//! rule of `#[validate(...)]` in a module of its own: its keys, the checks of its
//! literals, its expansion; the table is built from them), `attr.rs` and `schemars.rs`
//! (the attributes), `model.rs` (the type as the client sees it), `fields.rs`,
//! `shapes.rs`, `asking.rs` and `ast.rs` (reading the type through serde's own reading
//! of `#[serde(...)]`), and `expand/` (the data and trait impls the runtime turns into
//! a schema and checks).

mod asking;
mod ast;
mod attr;
mod ctxt;
mod expand;
mod fields;
mod meta;
mod model;
mod rules;
mod schemars;
mod shapes;
mod tokens;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// See `mcp_tool::McpTool`.
#[proc_macro_derive(McpTool, attributes(mcp_tool, validate, serde, schemars))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match model::Tool::from_input(&input, model::Derive::Tool) {
        Ok(tool) => expand::tool(&tool),
        Err(errors) => {
            let mut out = errors.into_compile_errors();
            out.extend(expand::fallback::tool(&input, model::Derive::Tool));
            out
        }
    }
    .into()
}

/// See `mcp_tool::Argument`.
#[proc_macro_derive(Argument, attributes(mcp_tool, validate, serde, schemars))]
pub fn derive_argument(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match model::Tool::from_input(&input, model::Derive::Argument) {
        Ok(tool) => expand::argument(&tool),
        Err(errors) => {
            let mut out = errors.into_compile_errors();
            out.extend(expand::fallback::tool(&input, model::Derive::Argument));
            out
        }
    }
    .into()
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

#[cfg(test)]
mod tests {
    /// The expansion of the README's struct, pretty-printed: every change to generated
    /// code shows in review.
    #[test]
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
        let tool = crate::model::Tool::from_input(&input, crate::model::Derive::Tool)
            .unwrap_or_else(|_| panic!("valid input"));
        let file: syn::File = syn::parse2(crate::expand::tool(&tool)).expect("expansion parses");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }
}
