//! Reading one `key = value` of an attribute: the helpers every attribute reader shares
//! (`#[mcp_tool]`, `#[validate]` and each rule's keys, `#[schemars]`).

use proc_macro2::TokenTree;
use syn::Token;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;

use crate::ctxt::{Errors, did_you_mean};

/// `read_only` or `read_only = false`.
pub fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        let lit: syn::LitBool = meta.value()?.parse()?;
        Ok(lit.value)
    } else {
        Ok(true)
    }
}

/// Fills `slot`, refusing a key given twice.
pub fn set<T>(slot: &mut Option<T>, meta: &ParseNestedMeta, value: T) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!(
            "duplicate `{}`: give it once",
            path_name(&meta.path)
        )));
    }
    *slot = Some(value);
    Ok(())
}

pub fn path_name(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// A key `place` does not take: the nearest one it does, and all of them.
pub fn unknown_key(meta: &ParseNestedMeta, key: &str, known: &[&str], place: &str) -> syn::Error {
    let list = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match did_you_mean(key, known) {
        Some(near) => meta.error(format!(
            "unknown {place} key `{key}`; did you mean `{near}`? Known: {list}"
        )),
        None => meta.error(format!("unknown {place} key `{key}`; known: {list}")),
    }
}

/// Records `result`'s error and skips the rest of the item, so parsing goes on with
/// the next one.
pub fn recover(result: syn::Result<()>, meta: &ParseNestedMeta, errors: &mut Errors) {
    if let Err(e) = result {
        errors.push(e);
        skip_item(meta.input);
    }
}

/// Skips to the next top-level `,`.
fn skip_item(input: ParseStream) {
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            if let TokenTree::Punct(p) = &tt
                && p.as_char() == ','
            {
                return Ok(((), rest));
            }
            rest = next;
        }
        Ok(((), rest))
    });
}
