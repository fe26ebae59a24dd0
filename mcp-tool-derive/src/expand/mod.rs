//! Writes the data of a [`ToolSpec`]/`EnumSpec` and thin trait impls that hand it to
//! the runtime. Paths are fully qualified; the user's scope is never assumed.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

mod asking;
pub mod fallback;
mod union;

use crate::model::{Body, Enum, Field, Tool};
use crate::rules::Rule;
use crate::tokens::respan;

fn opt_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    }
}

/// `McpTool`: the type is a tool's arguments.
pub fn tool(tool: &Tool) -> TokenStream {
    expand(tool, true)
}

/// `Argument`: the type is a value inside a tool's arguments, with no tool of its own.
pub fn argument(tool: &Tool) -> TokenStream {
    expand(tool, false)
}

fn annotations(tool: &Tool, p: &TokenStream) -> TokenStream {
    match tool.annotations {
        [None, None, None, None] => quote!(#p::Annotations::NONE),
        [read_only, destructive, idempotent, open_world] => {
            let [a, b, c, d] = [read_only, destructive, idempotent, open_world].map(opt_bool);
            quote!(#p::Annotations {
                read_only_hint: #a,
                destructive_hint: #b,
                idempotent_hint: #c,
                open_world_hint: #d,
            })
        }
    }
}

/// A `ToolSpec` of `fields` (or of a union's forms).
#[allow(clippy::too_many_arguments)]
fn tool_spec(
    p: &TokenStream,
    name: &str,
    title: &Option<String>,
    description: &Option<String>,
    annotations: TokenStream,
    allow_unknown_fields: bool,
    fields: &[Field],
    union: TokenStream,
    asking: TokenStream,
    scopes: &[String],
) -> TokenStream {
    let title = opt_str(title);
    let description = opt_str(description);
    let walk = walk_step(p, fields);
    let count = fields.len();
    let fields = fields.iter().map(|f| field(f, p));
    quote!({
        static __FIELDS: [#p::Field; #count] = [#(#fields),*];
        #p::ToolSpec {
            name: #name,
            title: #title,
            description: #description,
            annotations: #annotations,
            allow_unknown_fields: #allow_unknown_fields,
            fields: &__FIELDS,
            union: #union,
            asking: #asking,
            scopes: &[#(#scopes),*],
            walk: #walk,
            cache: #p::SpecCache::new(),
        }
    })
}

/// The struct's step of the walk of valid arguments (`FieldStep`): a `match` of the key
/// on the fields' names, each arm calling its field's type's `passes` directly with the
/// field read from `__FIELDS`, the static beside it, so that the compiler sees the field's
/// rules and calls each one's check directly too. A struct the walk never takes (a
/// field flattened, sensitive, reshaped or read by a function of its own; two fields of
/// one name) gets the step of no field; a field whose schema is schemars' has no fast
/// path, so it has no arm. How many fields the walk takes is the runtime's to say (its
/// plan), not this step's.
fn walk_step(p: &TokenStream, fields: &[Field]) -> TokenStream {
    let mut names = std::collections::HashSet::new();
    let takes_walk = fields.iter().all(|f| {
        !f.flatten
            && !f.sensitive
            && f.reads.is_none()
            && f.extends.is_empty()
            && f.transforms.is_empty()
            && names.insert(f.wire.as_str())
    });
    if !takes_walk {
        return quote!(#p::no_field);
    }
    let arms = fields.iter().enumerate().filter_map(|(i, f)| {
        if f.schemars || f.schema_from.is_some() {
            return None;
        }
        let (name, ty) = (&f.wire, f.ty);
        Some(quote! {
            #name => judge.field(&__FIELDS[#i], value, <#ty as #p::Argument>::passes).then_some(#i),
        })
    });
    quote!({
        fn step(
            key: &str,
            value: &#p::Value,
            judge: &#p::Judge<'_>,
        ) -> ::core::option::Option<usize> {
            match key {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
        step
    })
}

/// `impl McpTool`, over the `ToolSpec` in `__SPEC`.
fn tool_impl(tool: &Tool) -> TokenStream {
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let ident = tool.ident;
    let name = &tool.name;
    quote! {
        #[automatically_derived]
        impl #krate::McpTool for #ident {
            const NAME: &'static str = #name;

            fn spec() -> &'static #p::ToolSpec {
                &__SPEC
            }
        }
    }
}

/// `impl Argument` whose functions call `schema` and `check` (expressions over `rules`,
/// `value`, `walk` and `cx`), `passes` where the type has the fast path of valid
/// arguments, and `object` when it is a struct's.
fn argument_impl(
    tool: &Tool,
    schema: TokenStream,
    check: TokenStream,
    passes: Option<TokenStream>,
    object: Option<TokenStream>,
) -> TokenStream {
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let ident = tool.ident;
    let passes = passes.map(|passes| {
        quote! {
            fn passes(value: &#p::Value, rules: #p::Rules, judge: &#p::Judge<'_>) -> bool {
                #passes
            }
        }
    });
    let object = object.map(|object| {
        quote! {
            fn object() -> ::core::option::Option<&'static #p::ToolSpec> {
                #object
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #krate::Argument for #ident {
            type Target = Self;

            fn schema(rules: #p::Rules, walk: &mut #p::Walk) -> #p::Map<::std::string::String, #p::Value> {
                #schema
            }

            fn check(value: &#p::Value, rules: #p::Rules, cx: &mut #p::Checker<'_>) -> bool {
                #check
            }

            #passes

            #object
        }
    }
}

fn expand(tool: &Tool, is_tool: bool) -> TokenStream {
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let ident = tool.ident;
    let body = match &tool.body {
        Body::Struct(fields) => {
            let spec = tool_spec(
                &p,
                &tool.name,
                &tool.title,
                &tool.description,
                annotations(tool, &p),
                tool.allow_unknown_fields,
                fields,
                quote!(::core::option::Option::None),
                asking::asking(tool, fields, &p),
                &tool.scopes,
            );
            let tool_impl = is_tool.then(|| tool_impl(tool));
            let argument = argument_impl(
                tool,
                quote!(__SPEC.field_schema(rules, walk)),
                quote!(__SPEC.check_field(value, rules, cx)),
                Some(quote!(__SPEC.passes_field(value, rules, judge))),
                Some(quote!(::core::option::Option::Some(&__SPEC))),
            );
            let json_schema = json_schema_impl(&p, ident, quote!(#p::json_schema(&__SPEC)));
            let assertions = fields.iter().map(|f| field_assertions(f, &p));
            quote! {
                static __SPEC: #p::ToolSpec = #spec;
                #tool_impl
                #argument
                #json_schema
                #[automatically_derived]
                impl #p::Flatten for #ident {}
                #(#assertions)*
            }
        }
        Body::Newtype(inner) => {
            let ty = &inner.ty;
            let own_target = quote!(<#ty as #p::Argument>::Target);
            let item_target = quote!(<<#ty as #p::ItemsRule>::Item as #p::Argument>::Target);
            let own = inner.own.iter().map(|r| r.expand(&p, &own_target));
            let items = inner.items.iter().map(|r| r.expand(&p, &item_target));
            let description = opt_str(&tool.description);
            let title = opt_str(&tool.title);
            let sensitive = inner.sensitive;
            // A conversion that may refuse a value: tried by the check, so that its
            // refusal is reported at the value's own path.
            let converts = if inner.converts {
                quote!(::core::option::Option::Some(#p::converts::<#ident>))
            } else {
                quote!(::core::option::Option::None)
            };
            let argument = argument_impl(
                tool,
                quote!(__NEWTYPE.schema(rules, walk)),
                quote!(__NEWTYPE.check(value, rules, cx)),
                None,
                None,
            );
            let json_schema =
                json_schema_impl(&p, ident, quote!(#p::newtype_json_schema(&__NEWTYPE)));
            let assertions = assertions(
                ty.to_token_stream(),
                &inner.own,
                &inner.items,
                inner.items_span,
                &p,
            );
            // Its rules, for a field of the type it reads: `#[validate(like = Self)]`.
            let rules_for = quote! {
                #[automatically_derived]
                impl #p::RulesFor<#own_target> for #ident {
                    fn rules() -> #p::Rules {
                        __NEWTYPE.rules
                    }
                }
            };
            quote! {
                #rules_for
                static __NEWTYPE: #p::Newtype = #p::Newtype {
                    description: #description,
                    title: #title,
                    sensitive: #sensitive,
                    converts: #converts,
                    ty: #p::ArgType::of::<#ty>(),
                    rules: #p::Rules {
                        own: &[#(#own),*],
                        items: &[#(#items),*],
                    },
                };
                #argument
                #json_schema
                #assertions
            }
        }
        Body::Union { repr, variants } => union::union(tool, is_tool, repr, variants, &p),
    };
    // The rules' calls are spanned at the user's attributes, so their lints would be the
    // user's: a custom rule's error converted to `Invalid` may already be one.
    quote! {
        #[doc(hidden)]
        #[allow(clippy::useless_conversion)]
        const _: () = {
            #body
        };
    }
}

/// The type whose schemars schema a field with `#[schemars(schema_with = "f")]` takes:
/// one of the expansion's own, whose schema is `f`'s.
fn schema_with_marker(field: &Field) -> syn::Ident {
    quote::format_ident!("__McpSchemaWith_{}", field.member)
}

fn field(field: &Field, p: &TokenStream) -> TokenStream {
    let ty = field.ty;
    // Its schema from another type's, or a function's: described by schemars, as a
    // `#[mcp_tool(schemars)]` field.
    let schema_type: Option<TokenStream> = match &field.schema_from {
        Some(crate::attr::SchemaFrom::Type(other)) => Some(quote!(#other)),
        Some(crate::attr::SchemaFrom::Function(_)) => {
            let marker = schema_with_marker(field);
            Some(quote!(#marker))
        }
        None => None,
    };
    let by_schemars = field.schemars || schema_type.is_some();
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
        // No `Argument` to ask: an `Option` is one by its name.
        let optional = matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"));
        quote!(#optional == false)
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
        Some(_) if by_schemars => quote!(::core::option::Option::None),
        Some(value) => {
            quote!(::core::option::Option::Some(|| <#ty as #p::Argument>::to_json(&#value)))
        }
        None => quote!(::core::option::Option::None),
    };
    let arg_type = match &schema_type {
        Some(source) => quote!(#p::ArgType::schemars::<#source>()),
        None if field.schemars => quote!(#p::ArgType::schemars::<#ty>()),
        None => quote!(#p::ArgType::of::<#ty>()),
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

fn field_assertions(field: &Field, p: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(crate::attr::SchemaFrom::Function(function)) = &field.schema_from {
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

/// Compile-time checks that each rule applies to the type `ty`, or to its items.
fn assertions(
    ty: TokenStream,
    own: &[Rule],
    items: &[Rule],
    items_span: Option<Span>,
    p: &TokenStream,
) -> TokenStream {
    let mut out = TokenStream::new();
    for rule in own {
        out.extend(rule.assertion(p, &ty));
    }
    let item = quote!(<#ty as #p::ItemsRule>::Item);
    for rule in items {
        out.extend(rule.assertion(p, &item));
    }
    // `items(...)` with only rules that ask nothing of a type: still needs a type with
    // items.
    if let (Some(span), false) = (items_span, items.iter().any(Rule::needs_a_type)) {
        let ty = respan(ty, span);
        out.extend(quote_spanned!(span=> const _: () = <#ty as #p::ItemsRule>::APPLIES;));
    }
    out
}

/// `schemars::JsonSchema` for a derived type, its schema made by `schema` (an expression
/// of the runtime over `__SPEC`): derived types plug into code that asks for that trait.
fn json_schema_impl(p: &TokenStream, ident: &syn::Ident, schema: TokenStream) -> TokenStream {
    let ident_str = ident.to_string();
    quote! {
        #[automatically_derived]
        impl #p::schemars::JsonSchema for #ident {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#ident_str)
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                #schema
            }
        }
    }
}

pub fn enumeration(en: &Enum) -> TokenStream {
    let krate = &en.krate;
    let p = quote!(#krate::__private);
    let ident = en.ident;
    let description = opt_str(&en.description);
    let values = &en.values;
    let json_schema = json_schema_impl(&p, ident, quote!(#p::enum_json_schema(&__SPEC)));
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
            }

            #json_schema
        };
    }
}
