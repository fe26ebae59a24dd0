//! `#[mcp_tool(scopes("orders:read", "orders:write"))]`: the OAuth scopes a caller needs
//! to call the tool, every one of them. Each is vetted as RFC 6749 (section 3.3) writes
//! a scope-token, one or more printable ASCII characters other than space, `"` and `\`,
//! since a scope that breaks that grammar can be neither granted in a token nor named
//! in a `WWW-Authenticate` challenge. `offline_access` is refused: it asks for a refresh
//! token, it grants nothing at a resource, and the spec says not to list it.

use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{LitStr, Token};

/// The scopes of `scopes(...)`, each vetted; the first bad one is the error.
pub fn read(meta: &ParseNestedMeta) -> syn::Result<Vec<String>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(
            "`scopes` lists the OAuth scopes a caller needs, all of them: `scopes(\"orders:read\")`",
        ));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let list = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
    if list.is_empty() {
        return Err(meta.error(
            "`scopes()` is empty: name the scopes a caller needs, or leave `scopes` out for a tool any authorized caller may call",
        ));
    }
    let mut scopes: Vec<String> = Vec::with_capacity(list.len());
    for lit in &list {
        let scope = lit.value();
        if let Some(problem) = problem(&scope) {
            return Err(syn::Error::new(lit.span(), problem));
        }
        if scopes.contains(&scope) {
            return Err(syn::Error::new(
                lit.span(),
                format!("the scope \"{scope}\" is listed twice: give it once"),
            ));
        }
        scopes.push(scope);
    }
    Ok(scopes)
}

/// What is wrong with `scope` as a tool's scope, if anything.
pub fn problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some("a scope is one or more characters (RFC 6749 scope-token)".into());
    }
    if scope == "offline_access" {
        return Some(
            "`offline_access` asks the authorization server for a refresh token; it grants nothing at this server, and MCP says not to list it: leave it out".into(),
        );
    }
    let bad = scope
        .chars()
        .find(|&c| !(c.is_ascii_graphic() && c != '"' && c != '\\'))?;
    let what = match bad {
        ' ' => "a space, which separates scopes in a token".to_owned(),
        '"' => "`\"`".to_owned(),
        '\\' => "`\\`".to_owned(),
        c if c.is_ascii_control() => format!("the control character U+{:04X}", c as u32),
        c if c.is_ascii_whitespace() => "whitespace".to_owned(),
        c => format!("`{c}`, which is not ASCII"),
    };
    Some(format!(
        "the scope \"{}\" holds {what}: a scope is printable ASCII without space, `\"` or `\\` (RFC 6749 scope-token); give each scope as its own string",
        scope.escape_default()
    ))
}
