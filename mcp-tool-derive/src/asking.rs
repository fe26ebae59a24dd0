//! What a tool asks of its user, vetted: the `{field}`s of `#[mcp_tool(confirm)]`
//! name fields that may be shown, and `#[validate(ask)]` stands on a tool's own field
//! that may be asked for. (Whether the field's type fits a form the compiler vets,
//! through the `Askable` trait.)

use syn::LitStr;

use crate::ctxt::{Errors, did_you_mean, needs_feature};
use crate::model::{self, Body, Confirm, Derive, Field, Piece, VariantShape};

/// What mcp-tool's `ask` feature brings, for the error where it is off.
const ASK_BRINGS: &str = "asking the user: the sealed requestState of input-required rounds, and elicitation within the call";

/// What a client that cannot ask its user gets, as written: `unconfirmed = "..."` and
/// `unconfirmed_scope = "..."`.
pub struct Unconfirmed<'a> {
    pub said: Option<&'a LitStr>,
    pub scope: Option<&'a LitStr>,
}

/// The confirmation `confirm = "..."` asks for, its fields looked up in `body`, and
/// `unconfirmed` what a client that cannot ask gets.
pub fn confirm<R>(
    confirm: Option<&LitStr>,
    unconfirmed: Unconfirmed<'_>,
    body: &Body<'_, R>,
    errors: &mut Errors,
) -> Option<Confirm> {
    // Set by mcp-tool's `ask` feature, with the runtime's asking behind it.
    if !cfg!(feature = "ask") {
        if let Some((lit, key)) = confirm
            .map(|lit| (lit, "confirm"))
            .or(unconfirmed.said.map(|lit| (lit, "unconfirmed")))
            .or(unconfirmed.scope.map(|lit| (lit, "unconfirmed_scope")))
        {
            errors.spanned(lit, needs_feature(key, "ask", ASK_BRINGS));
        }
        return None;
    }
    let Some(lit) = confirm else {
        for (key, given) in [
            ("unconfirmed", unconfirmed.said),
            ("unconfirmed_scope", unconfirmed.scope),
        ] {
            if let Some(given) = given {
                errors.spanned(
                    given,
                    format!("`{key}` says what a client that cannot ask its user gets, and there is no `confirm` to ask"),
                );
            }
        }
        return None;
    };
    let run = unconfirmed.said.is_some_and(|u| u.value() == "run");
    let unconfirmed = match (unconfirmed.scope, run) {
        (Some(scope), true) => {
            errors.spanned(
                scope,
                "`unconfirmed = \"run\"` runs every call a client cannot confirm; `unconfirmed_scope` runs only those of a caller holding the scope: keep one",
            );
            return None;
        }
        (Some(scope), false) => model::Unconfirmed::RunWithScope(scope.value()),
        (None, true) => model::Unconfirmed::Run,
        (None, false) => model::Unconfirmed::Refuse,
    };
    if lit.value().trim().is_empty() {
        errors.spanned(
            lit,
            "`confirm` needs the message the user reads, such as \"Cancel order {order_id}?\"",
        );
        return None;
    }
    let Body::Struct(fields) = body else {
        errors.spanned(
            lit,
            "`confirm` needs a struct with named fields, whose values the message shows",
        );
        return None;
    };
    let pieces = pieces(lit, fields, errors)?;
    Some(Confirm {
        pieces,
        unconfirmed,
    })
}

/// `"Cancel {order_id}? {{sure}}"` as text and fields; `{{` and `}}` are braces.
fn pieces<R>(lit: &LitStr, fields: &[Field<'_, R>], errors: &mut Errors) -> Option<Vec<Piece>> {
    let template = lit.value();
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    let mut ok = true;
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let name = name.trim();
                match fields.iter().find(|f| f.member == name || f.wire == name) {
                    Some(field) if field.sensitive => {
                        errors.spanned(
                            lit,
                            format!("`{{{name}}}` is sensitive, and a sensitive value is never shown: leave it out of the confirmation"),
                        );
                        ok = false;
                    }
                    Some(field) if field.flatten => {
                        errors.spanned(
                            lit,
                            format!("`{{{name}}}` is flattened and has no value of its own: name the fields it holds"),
                        );
                        ok = false;
                    }
                    Some(field) => {
                        if !text.is_empty() {
                            pieces.push(Piece::Text(std::mem::take(&mut text)));
                        }
                        pieces.push(Piece::Field(field.wire.clone()));
                    }
                    None => {
                        let names: Vec<&str> = fields.iter().map(|f| f.member.as_str()).collect();
                        let near = did_you_mean(name, &names)
                            .map(|n| format!("did you mean `{{{n}}}`? "))
                            .unwrap_or_default();
                        errors.spanned(
                            lit,
                            format!(
                                "`{{{name}}}` in `confirm` names no field; {near}Fields: {} (write `{{{{` and `}}}}` for braces)",
                                names.join(", ")
                            ),
                        );
                        ok = false;
                    }
                }
            }
            '}' => {
                errors.spanned(
                    lit,
                    "a `}` in `confirm` closes no `{field}`: write `}}` for a brace",
                );
                ok = false;
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    ok.then_some(pieces)
}

/// Refuses `ask` where it cannot be asked: on a sensitive or flattened field, and on a
/// field of anything but a tool's own struct.
pub fn vet_asks<R>(body: &Body<'_, R>, derive: Derive, errors: &mut Errors) {
    match body {
        Body::Struct(fields) if derive == Derive::Tool => {
            for field in fields {
                let Some(ask) = &field.ask else { continue };
                if !cfg!(feature = "ask") {
                    errors.spanned(ask, needs_feature("ask", "ask", ASK_BRINGS));
                } else if field.sensitive {
                    errors.spanned(
                        ask,
                        "a sensitive field cannot be asked: MCP forbids asking the user for secrets in a form",
                    );
                } else if field.flatten {
                    errors.spanned(
                        ask,
                        "a flattened field has no value of its own to ask for: ask for the fields of the struct it flattens",
                    );
                }
            }
        }
        Body::Struct(fields) => refuse_all(fields, derive, errors),
        Body::Union { variants, .. } => {
            for variant in variants {
                if let VariantShape::Struct(fields) = &variant.shape {
                    refuse_all(fields, derive, errors);
                }
            }
        }
        Body::Newtype(_) => {}
    }
}

fn refuse_all<R>(fields: &[Field<'_, R>], derive: Derive, errors: &mut Errors) {
    for ask in fields.iter().filter_map(|f| f.ask.as_ref()) {
        errors.spanned(
            ask,
            format!(
                "`ask` applies to the fields of a struct that derives McpTool, and this is {}: only a tool's own arguments are asked of the user",
                match derive {
                    Derive::Tool => "a form of an enum",
                    Derive::Argument => "a field of an Argument, inside a tool's arguments",
                }
            ),
        );
    }
}
