//! The derives of `mcp-tool`. Use them through that crate, which documents
//! the attribute language: `mcp_tool::McpTool` and `mcp_tool::McpEnum`.
//!
//! The derive reads in three steps, each in its own file: `ast.rs` builds a model of the
//! struct from serde's own reading of `#[serde(...)]` and ours of `#[mcp_tool(...)]` and
//! `#[validate(...)]` (in `attr.rs`), `check.rs` rejects at compile time what the model
//! could not keep (bad regexes, formats, bounds), and `expand.rs` writes the data and
//! trait impls that the runtime turns into a schema and checks.

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod rules;
mod schemars;
mod shapes;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// See `mcp_tool::McpTool`.
#[proc_macro_derive(McpTool, attributes(mcp_tool, validate, serde, schemars))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match ast::Tool::from_input(&input, ast::Derive::Tool) {
        Ok(tool) => expand::tool(&tool),
        Err(errors) => errors.into_compile_errors(),
    }
    .into()
}

/// See `mcp_tool::Argument`.
#[proc_macro_derive(Argument, attributes(mcp_tool, validate, serde, schemars))]
pub fn derive_argument(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match ast::Tool::from_input(&input, ast::Derive::Argument) {
        Ok(tool) => expand::argument(&tool),
        Err(errors) => errors.into_compile_errors(),
    }
    .into()
}

/// See `mcp_tool::McpEnum`.
#[proc_macro_derive(McpEnum, attributes(mcp_tool, serde, schemars))]
pub fn derive_mcp_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match ast::Enum::from_input(&input) {
        Ok(en) => expand::enumeration(&en),
        Err(errors) => errors.into_compile_errors(),
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
        let tool = crate::ast::Tool::from_input(&input, crate::ast::Derive::Tool)
            .unwrap_or_else(|_| panic!("valid input"));
        let file: syn::File = syn::parse2(crate::expand::tool(&tool)).expect("expansion parses");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }
}
