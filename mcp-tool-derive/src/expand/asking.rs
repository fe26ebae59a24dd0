//! What a tool asks of its user, as data: the confirmation's pieces and the asked
//! fields; and the check that an asked field's type fits a form.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::model::{Field, Piece, Tool, Unconfirmed};
use crate::tokens::respan;

/// What the tool asks of its user, if anything: `Some(&Asking { .. })`.
pub(super) fn asking(tool: &Tool, fields: &[Field], p: &TokenStream) -> TokenStream {
    let asked: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let name = &f.wire;
            let question = f.ask.as_ref()?;
            Some(quote!(#p::AskField { name: #name, question: #question }))
        })
        .collect();
    if tool.confirm.is_none() && asked.is_empty() {
        return quote!(::core::option::Option::None);
    }
    let confirm = match &tool.confirm {
        Some(confirm) => {
            let pieces = confirm.pieces.iter().map(|piece| match piece {
                Piece::Text(text) => quote!(#p::Piece::Text(#text)),
                Piece::Field(name) => quote!(#p::Piece::Field(#name)),
            });
            let unconfirmed = match &confirm.unconfirmed {
                Unconfirmed::Refuse => quote!(#p::Unconfirmed::Refuse),
                Unconfirmed::Run => quote!(#p::Unconfirmed::Run),
                Unconfirmed::RunWithScope(scope) => quote!(#p::Unconfirmed::RunWithScope(#scope)),
            };
            quote!(::core::option::Option::Some(#p::Confirm {
                message: &[#(#pieces),*],
                unconfirmed: #unconfirmed,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(::core::option::Option::Some(&#p::Asking {
        confirm: #confirm,
        fields: &[#(#asked),*],
    }))
}

/// `<T as Askable>::APPLIES` for a field with `ask`, spanned at the question: a type no
/// form can ask for fails there.
pub(super) fn askable(field: &Field, p: &TokenStream) -> TokenStream {
    let Some(ask) = &field.ask else {
        return TokenStream::new();
    };
    let span = ask.span();
    let ty = respan(field.ty.to_token_stream(), span);
    let p = respan(p.clone(), span);
    quote_spanned!(span=> const _: () = <#ty as #p::Askable>::APPLIES;)
}
