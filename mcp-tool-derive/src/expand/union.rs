//! The expansion of an enum with data: a `ToolSpec` per struct variant, the `UnionSpec`
//! over them, and for a tool the `ToolSpec` whose forms they are.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

use super::field::field_assertions;
use super::{
    annotations, argument_impl, assertions, json_schema_impl, opt_str, tool_impl, tool_spec,
};
use crate::model::{Inner, Repr, Tool, Variant, VariantShape};

/// An enum with data: a `ToolSpec` per struct variant, the `UnionSpec` over them, and for
/// a tool the `ToolSpec` whose forms they are.
pub(super) fn union(
    tool: &Tool,
    is_tool: bool,
    repr: &Repr,
    variants: &[Variant],
    p: &TokenStream,
) -> TokenStream {
    let ident = tool.ident;
    let mut statics = Vec::new();
    let mut entries = Vec::new();
    let mut checks = Vec::new();
    for (i, variant) in variants.iter().enumerate() {
        let name = &variant.name;
        let description = opt_str(&variant.description);
        let shape = match &variant.shape {
            VariantShape::Unit => quote!(#p::Shape::Unit),
            VariantShape::Newtype(inner) => {
                let value = inner_value(inner, p);
                checks.push(inner_assertions(inner, p));
                quote!(#p::Shape::Newtype(#value))
            }
            VariantShape::Tuple(items) => {
                let values = items.iter().map(|inner| inner_value(inner, p));
                checks.extend(items.iter().map(|inner| inner_assertions(inner, p)));
                quote!(#p::Shape::Tuple(&[#((#values)),*]))
            }
            VariantShape::Struct(fields) => {
                let spec_ident = syn::Ident::new(&format!("__VARIANT_{i}"), Span::call_site());
                let spec = tool_spec(
                    p,
                    name,
                    &None,
                    &None,
                    quote!(#p::Annotations::NONE),
                    tool.allow_unknown_fields,
                    fields,
                    quote!(::core::option::Option::None),
                    quote!(::core::option::Option::None),
                    quote!(::core::option::Option::None),
                    quote!(&[]),
                    &[],
                    quote!(#p::TaskSupport::Forbidden),
                );
                statics.push(quote!(static #spec_ident: #p::ToolSpec = #spec;));
                checks.extend(fields.iter().map(|f| field_assertions(f, p)));
                quote!(#p::Shape::Struct(&#spec_ident))
            }
        };
        entries.push(quote!(#p::Variant { name: #name, description: #description, shape: #shape }));
    }
    let repr_tokens = match repr {
        Repr::External => quote!(#p::Repr::External),
        Repr::Internal(tag) => quote!(#p::Repr::Internal { tag: #tag }),
        Repr::Adjacent(tag, content) => quote!(#p::Repr::Adjacent { tag: #tag, content: #content }),
        Repr::Untagged => quote!(#p::Repr::Untagged),
    };
    // Untagged: serde's own choice of variant, so that the rules checked are that one's.
    let which = match repr {
        Repr::Untagged => {
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let variant = v.ident;
                let pattern = match v.shape {
                    VariantShape::Unit => quote!(#ident::#variant),
                    VariantShape::Newtype(_) | VariantShape::Tuple(_) => {
                        quote!(#ident::#variant(..))
                    }
                    VariantShape::Struct(_) => quote!(#ident::#variant { .. }),
                };
                quote!(::core::result::Result::Ok(#pattern) => ::core::option::Option::Some(#i),)
            });
            quote!(::core::option::Option::Some(|value| {
                #[allow(unreachable_patterns)]
                match <#ident as #p::serde::Deserialize>::deserialize(value) {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            }))
        }
        _ => quote!(::core::option::Option::None),
    };
    let union_name = ident.to_string();
    let description = opt_str(&tool.description);
    // A tool's `extend` is refused when the type is read (`ast.rs`): none here then.
    let extend = super::extend_with(&tool.extends, p);
    let spec = is_tool.then(|| {
        let spec = tool_spec(
            p,
            &tool.name,
            &tool.title,
            &tool.description,
            annotations(tool, p),
            tool.allow_unknown_fields,
            &[],
            quote!(::core::option::Option::Some(&__UNION)),
            quote!(::core::option::Option::None),
            quote!(::core::option::Option::None),
            quote!(&[]),
            &tool.scopes,
            super::task_support(tool, p),
        );
        quote!(static __SPEC: #p::ToolSpec = #spec;)
    });
    let tool_impl = is_tool.then(|| tool_impl(tool));
    let argument = argument_impl(
        tool,
        quote!(__UNION.field_schema(rules, walk)),
        quote!(__UNION.check_field(value, rules, cx)),
        None,
        None,
    );
    let schema = if is_tool {
        quote!(#p::json_schema(&__SPEC))
    } else {
        quote!(#p::union_json_schema(&__UNION))
    };
    let json_schema = json_schema_impl(p, ident, schema);
    quote! {
        #(#statics)*
        static __UNION: #p::UnionSpec = #p::UnionSpec {
            name: #union_name,
            description: #description,
            repr: #repr_tokens,
            variants: &[#(#entries),*],
            which: #which,
            extend: #extend,
            cache: #p::UnionCache::new(),
        };
        #spec
        #tool_impl
        #argument
        #json_schema
        #(#checks)*
    }
}

/// A value that no field names (a newtype variant's, a tuple variant's items): its type's
/// functions and its rules.
fn inner_value(inner: &Inner, p: &TokenStream) -> TokenStream {
    let ty = &inner.ty;
    let own_target = quote!(<#ty as #p::Argument>::Target);
    let item_target = quote!(<<#ty as #p::ItemsRule>::Item as #p::Argument>::Target);
    let own = inner.own.iter().map(|r| r.expand(p, &own_target));
    let items = inner.items.iter().map(|r| r.expand(p, &item_target));
    quote!(#p::ArgType::of::<#ty>(), #p::Rules { own: &[#(#own),*], items: &[#(#items),*] })
}

fn inner_assertions(inner: &Inner, p: &TokenStream) -> TokenStream {
    assertions(
        inner.ty.to_token_stream(),
        &inner.own,
        &inner.items,
        inner.items_span,
        p,
    )
}
