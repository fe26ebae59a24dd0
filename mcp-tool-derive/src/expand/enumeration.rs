//! `McpEnum`: the data of an `EnumSpec` (the values, each variant's doc) and the thin
//! impls that hand it to the runtime.

use proc_macro2::TokenStream;
use quote::quote;

use super::{json_schema_impl, opt_str};
use crate::model::Enum;

pub fn enumeration(en: &Enum) -> TokenStream {
    let krate = &en.krate;
    let p = quote!(#krate::__private);
    let ident = en.ident;
    let description = opt_str(&en.description);
    let values = &en.values;
    let docs = en.docs.iter().map(opt_str);
    let aliases = en.aliases.iter().map(|(alias, _)| alias);
    let canonical = en.aliases.iter().map(|(_, name)| name);
    // The value on the wire of each variant serde reads: the schema's `default` of a
    // field that takes one; a variant serde never reads (`skip_deserializing`) has none.
    let idents = &en.idents;
    let json_schema = json_schema_impl(&p, ident, quote!(#p::enum_json_schema(&__SPEC)));
    let extend = super::extend_with(&en.extends, &p);
    let name = ident.to_string();
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #krate::McpEnum for #ident {
                const VALUES: &'static [&'static str] = &[#(#values),*];
            }
            #[automatically_derived]
            impl #p::Askable for #ident {}
            #[automatically_derived]
            impl #p::AskableItem for #ident {}
            #[automatically_derived]
            impl #p::Compared for #ident {
                const TAKES: #p::Takes = #p::Takes::Text(::core::option::Option::Some(
                    <#ident as #krate::McpEnum>::VALUES,
                ));
            }

            #[automatically_derived]
            impl #p::MapKey for #ident {
                fn names() -> ::core::option::Option<#p::Map<::std::string::String, #p::Value>> {
                    ::core::option::Option::Some(#p::enum_names(<#ident as #krate::McpEnum>::VALUES))
                }

                fn refuse(name: &str) -> ::core::option::Option<::std::string::String> {
                    #p::refuse_enum_name(<#ident as #krate::McpEnum>::VALUES, name)
                }
            }

            static __SPEC: #p::EnumSpec = #p::EnumSpec {
                description: #description,
                values: <#ident as #krate::McpEnum>::VALUES,
                aliases: &[#((#aliases, #canonical)),*],
                docs: &[#(#docs),*],
                name: #name,
                extend: #extend,
                reads: {
                    use #p::NoOwnReading as _;
                    <#p::OwnReading<#ident>>::READS
                },
            };

            #[automatically_derived]
            impl #krate::Argument for #ident {
                type Target = Self;

                fn schema(rules: #p::Rules, _: &mut #p::Walk) -> #p::Map<::std::string::String, #p::Value> {
                    __SPEC.schema(rules)
                }

                fn check(value: &#p::Value, rules: #p::Rules, cx: &mut #p::Checker<'_>) -> bool {
                    __SPEC.check(value, rules, cx)
                }

                fn passes(value: &#p::Value, rules: #p::Rules, judge: &#p::Judge<'_>) -> bool {
                    __SPEC.passes(value, rules, judge)
                }

                fn to_json(value: &Self) -> ::core::option::Option<#p::Value> {
                    #[allow(unreachable_patterns)]
                    match value {
                        #(Self::#idents => ::core::option::Option::Some(#p::Value::from(#values)),)*
                        _ => ::core::option::Option::None,
                    }
                }
            }

            #json_schema
        };
    }
}
