//! A field's rules from every attribute that writes them: `#[mcp_tool(...)]` on the
//! field, `#[validate(...)]` (this crate's rules and validator's spellings, `attr.rs`)
//! and `#[garde(...)]` (`garde.rs`), read into one [`FieldRules`].

use syn::Attribute;
use syn::spanned::Spanned;

use crate::attr::FieldRules;
use crate::ctxt::Errors;
use crate::meta::set;

impl FieldRules {
    /// What the attributes of a field say. `option`: its type is written `Option<T>`
    /// (garde calls a custom function with the value as the field holds it).
    pub fn parse(attrs: &[Attribute], option: bool, errors: &mut Errors) -> Self {
        let mut schemars = None;
        let mut lenient = None;
        for attr in attrs.iter().filter(|a| a.path().is_ident("mcp_tool")) {
            let result = attr.parse_nested_meta(|meta| {
                let span = meta.path.span();
                if meta.path.is_ident("schemars") {
                    return set(&mut schemars, &meta, span);
                }
                if meta.path.is_ident("lenient") {
                    return set(&mut lenient, &meta, span);
                }
                Err(meta.error(
                    "on a field, #[mcp_tool(...)] takes `schemars` (the field's type is described by its schemars schema) and `lenient` (its type's own Deserialize takes more than its schema says); tool settings go on the struct, rules in #[validate(...)]",
                ))
            });
            if let Err(e) = result {
                errors.push(e);
            }
        }
        let mut out = FieldRules::rules(attrs, option, errors);
        out.schemars = schemars;
        out.lenient = lenient;
        out.deprecated = attrs.iter().any(|a| a.path().is_ident("deprecated"));
        out
    }

    /// The rules of one value that is not a struct's field (a newtype's, a tuple's item,
    /// a newtype variant's): `#[validate(...)]` and `#[garde(...)]`.
    pub fn validate(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let out = FieldRules::rules(attrs, false, errors);
        out.refuse_present(errors);
        out
    }

    fn rules(attrs: &[Attribute], option: bool, errors: &mut Errors) -> Self {
        let mut out = FieldRules::validated(attrs, errors);
        crate::garde::field(attrs, &mut out, option, errors);
        out
    }
}
