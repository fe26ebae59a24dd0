//! A field's data in the `ToolSpec` (`Field`), and the items beside it that its
//! attributes need: the type of a `schema_with` function, the checks that each rule
//! applies to the field's type.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::{asking, assertions, opt_str};
use crate::model::Field;

/// Whether the field's type is read through `Probe`: by its `Argument` where it has
/// one, by its schemars schema otherwise (a type with only a `JsonSchema`, written by
/// hand). A field with rules, a question or a flattening names `Argument` itself: those
/// need a type's `Target` and items, which the schemars reading does not give.
pub(super) fn probes(field: &Field) -> bool {
    !field.schemars
        && field.schema_from.is_none()
        && field.own.is_empty()
        && field.items.is_empty()
        && field.items_span.is_none()
        && field.like.is_none()
        && field.ask.is_none()
        && !field.flatten
}

/// The constant that holds how a probed field's type is read (see [`probes`]).
pub(super) fn read_const(field: &Field) -> syn::Ident {
    quote::format_ident!("__READ_{}", field.member)
}

/// `const __READ_member = <Probe<T>>::READ;` for each probed field, spanned at its
/// type: a type with neither reading is one error there, which names both.
pub(super) fn read_consts(fields: &[Field], p: &TokenStream) -> TokenStream {
    let consts = fields.iter().filter(|f| probes(f)).map(|f| {
        let ty = f.ty;
        let name = read_const(f);
        let span = ty.span();
        quote_spanned!(span=>
            #[allow(non_upper_case_globals)]
            const #name: #p::FieldRead<#ty> = <#p::Probe<#ty>>::READ;
        )
    });
    quote!(#(#consts)*)
}

/// The type whose schemars schema a field with `#[schemars(schema_with = "f")]` takes:
/// one of the expansion's own, whose schema is `f`'s.
fn schema_with_marker(field: &Field) -> syn::Ident {
    quote::format_ident!("__McpSchemaWith_{}", field.member)
}

pub(super) fn field(field: &Field, p: &TokenStream) -> TokenStream {
    let ty = field.ty;
    // Its schema from another type's, or a function's: described by schemars, as a
    // `#[mcp_tool(schemars)]` field.
    let schema_type: Option<TokenStream> = match &field.schema_from {
        Some(crate::model::SchemaFrom::Type(other)) => Some(quote!(#other)),
        Some(crate::model::SchemaFrom::Function(_)) => {
            let marker = schema_with_marker(field);
            Some(quote!(#marker))
        }
        None => None,
    };
    let by_schemars = field.schemars || schema_type.is_some();
    let probe = probes(field).then(|| read_const(field));
    // No `Argument` to ask: an `Option` is one by its name.
    let named_option = matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"));
    let name = &field.wire;
    let description = opt_str(&field.description);
    let title = opt_str(&field.title);
    let deprecated = field.deprecated;
    let flatten = field.flatten;
    let required = if field.force_required {
        quote!(true)
    } else if field.has_default {
        quote!(false)
    } else if by_schemars {
        quote!(#named_option == false)
    } else if let Some(probe) = &probe {
        quote!(match #probe.optional {
            ::core::option::Option::Some(optional) => !optional,
            ::core::option::Option::None => #named_option == false,
        })
    } else {
        quote!(!<#ty as #p::Argument>::OPTIONAL)
    };
    let examples = if field.examples.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        let examples = &field.examples;
        quote!(::core::option::Option::Some(
            || ::std::vec![#(#p::example(&#examples)),*]
        ))
    };
    let sensitive = field.sensitive;
    // A closure that captures nothing: a plain function, called once for the schema.
    let default = match &field.default {
        Some(value) if by_schemars && field.schemars_default => {
            quote!(::core::option::Option::Some(|| ::core::option::Option::Some(#p::example(&#value))))
        }
        Some(_) if by_schemars => quote!(::core::option::Option::None),
        Some(value) if probe.is_some() => {
            quote!(::core::option::Option::Some(|| (#probe.to_json)(&#value)))
        }
        Some(value) => {
            quote!(::core::option::Option::Some(|| <#ty as #p::Argument>::to_json(&#value)))
        }
        None => quote!(::core::option::Option::None),
    };
    let arg_type = match &schema_type {
        Some(source) => quote!(#p::ArgType::schemars::<#source>()),
        None if field.schemars => quote!(#p::ArgType::schemars::<#ty>()),
        None => match &probe {
            Some(probe) => quote!(#probe.arg_type),
            None => quote!(#p::ArgType::of::<#ty>()),
        },
    };
    let own_target = if by_schemars {
        quote!(#ty)
    } else {
        quote!(<#ty as #p::Argument>::Target)
    };
    let item_target = quote!(<<#ty as #p::ItemsRule>::Item as #p::Argument>::Target);
    let own = field.own.iter().map(|r| r.expand(p, &own_target));
    let items = field.items.iter().map(|r| r.expand(p, &item_target));
    // Spanned at the type named: one that does not fit is an error there.
    let like = match &field.like {
        Some(path) => {
            let span = path.span();
            let source = quote_spanned!(span=> <#path as #p::RulesFor<#own_target>>::rules);
            quote!(#p::Like::of(#source, {
                static JOINED: ::std::sync::OnceLock<#p::Rules> = ::std::sync::OnceLock::new();
                &JOINED
            }))
        }
        None => quote!(#p::Like::NONE),
    };
    let aliases = &field.aliases;
    // What `extend` and `transform` make of the field's schema: advertised, and the
    // value judged against it.
    let reshape = if field.extends.is_empty() && field.transforms.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        let keys = field.extends.iter().map(|(k, _)| k);
        let values = field.extends.iter().map(|(_, v)| v);
        let transforms = &field.transforms;
        quote!(::core::option::Option::Some(#p::Reshape::new(
            |schema: &mut #p::Map<::std::string::String, #p::Value>| {
                #( schema.insert(::std::string::String::from(#keys), #p::example(&#values)); )*
                #({
                    let mut whole = #p::to_schemars(::core::mem::take(schema));
                    (#transforms)(&mut whole);
                    *schema = #p::from_schemars(whole);
                })*
            },
            {
                static JUDGED: ::std::sync::OnceLock<#p::Value> = ::std::sync::OnceLock::new();
                &JUDGED
            },
        )))
    };
    // The function serde reads the value with, tried once the checks pass: its refusal
    // is then reported at the field.
    let reads = match &field.reads {
        Some(path) => quote!(::core::option::Option::Some(
            |value: &#p::Value| -> ::core::result::Result<(), ::std::string::String> {
                #path(value).map(drop).map_err(|e| ::std::string::ToString::to_string(&e))
            }
        )),
        None if field.lenient => quote!(::core::option::Option::Some(#p::reads_as::<#ty>)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #p::Field {
            name: #name,
            description: #description,
            title: #title,
            examples: #examples,
            deprecated: #deprecated,
            flatten: #flatten,
            required: #required,
            sensitive: #sensitive,
            default: #default,
            ty: #arg_type,
            rules: #p::Rules {
                own: &[#(#own),*],
                items: &[#(#items),*],
            },
            like: #like,
            reads: #reads,
            reshape: #reshape,
            aliases: &[#(#aliases),*],
        }
    }
}

pub(super) fn field_assertions(field: &Field, p: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(crate::model::SchemaFrom::Function(function)) = &field.schema_from {
        let marker = schema_with_marker(field);
        let name = marker.to_string();
        out.extend(quote! {
            #[allow(non_camel_case_types)]
            struct #marker;
            #[automatically_derived]
            impl #p::schemars::JsonSchema for #marker {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#name)
                }

                fn json_schema(generator: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                    #function(generator)
                }
            }
        });
    }
    out.extend(assertions(
        field.ty.to_token_stream(),
        &field.own,
        &field.items,
        field.items_span,
        p,
    ));
    if field.flatten {
        let ty = field.ty;
        out.extend(quote_spanned!(ty.span()=> const _: () = <#ty as #p::Flatten>::APPLIES;));
    }
    out.extend(asking::askable(field, p));
    out
}
