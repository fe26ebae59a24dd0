//! Writes the data of a [`ToolSpec`]/`EnumSpec` and thin trait impls that hand it to
//! the runtime. Paths are fully qualified; the user's scope is never assumed.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

mod asking;
mod enumeration;
pub mod fallback;
mod field;
mod union;

pub use enumeration::enumeration;

use crate::model::{Body, Field, Tool};
use crate::rules::Rule;
use crate::tokens::respan;
use field::{field, field_assertions, probes};

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
    extend: TokenStream,
    across: TokenStream,
    scopes: &[String],
    task_support: TokenStream,
) -> TokenStream {
    let title = opt_str(title);
    let description = opt_str(description);
    let walk = walk_step(p, fields);
    let count = fields.len();
    let reads = field::read_consts(fields, p);
    let fields = fields.iter().map(|f| field(f, p));
    quote!({
        #reads
        static __FIELDS: [#p::Field; #count] = [#(#fields),*];
        #p::ToolSpec {
            name: #name,
            title: #title,
            description: #description,
            annotations: #annotations,
            allow_unknown_fields: #allow_unknown_fields,
            fields: &__FIELDS,
            across: #across,
            union: #union,
            asking: #asking,
            extend: #extend,
            scopes: &[#(#scopes),*],
            task_support: #task_support,
            walk: #walk,
            cache: #p::SpecCache::new(),
        }
    })
}

/// `#[mcp_tool(task_support = "...")]`, as the runtime's `TaskSupport`.
pub(crate) fn task_support(tool: &Tool, p: &TokenStream) -> TokenStream {
    match tool.task_support.as_deref() {
        Some("optional") => quote!(#p::TaskSupport::Optional),
        Some("required") => quote!(#p::TaskSupport::Required),
        _ => quote!(#p::TaskSupport::Forbidden),
    }
}

/// `#[schemars(extend(...))]` on a struct or a newtype: its keywords, added to the
/// type's schema by the runtime, which enforces them too.
fn extend(tool: &Tool, p: &TokenStream) -> TokenStream {
    extend_with(&tool.extends, p)
}

/// `Option<&'static Extend>` of `extends`, the keywords of `#[schemars(extend(...))]`.
pub(crate) fn extend_with(extends: &[(syn::LitStr, syn::Expr)], p: &TokenStream) -> TokenStream {
    if extends.is_empty() {
        return quote!(::core::option::Option::None);
    }
    let keys = extends.iter().map(|(k, _)| k);
    let values = extends.iter().map(|(_, v)| v);
    quote!(::core::option::Option::Some({
        static EXTEND: #p::Extend = #p::Extend::new(
            |schema: &mut #p::Map<::std::string::String, #p::Value>| {
                #( schema.insert(::std::string::String::from(#keys), #p::example(&#values)); )*
            },
        );
        &EXTEND
    }))
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
            && !f.lenient
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
        let passes = if probes(f) {
            let read = field::read_const(f);
            quote!(#read.passes)
        } else {
            quote!(<#ty as #p::Argument>::passes)
        };
        Some(quote! {
            #name => judge.field(&__FIELDS[#i], value, #passes).then_some(#i),
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
            let (across, across_assertions) = crate::across::expand(&tool.across, &p);
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
                extend(tool, &p),
                across,
                &tool.scopes,
                task_support(tool, &p),
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
                #across_assertions
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
            let converts = match inner.converts {
                Some(rule) => quote!(::core::option::Option::Some((#rule, #p::converts::<#ident>))),
                None => quote!(::core::option::Option::None),
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
            let extend = extend(tool, &p);
            let name = ident.to_string();
            let assertions = assertions(
                ty.to_token_stream(),
                &inner.own,
                &inner.items,
                inner.items_span,
                &p,
            );
            // Its rules, for a field of the type it reads: `#[validate(like = Self)]`.
            // The wrapped value is read here as serde's impl reads it, so that a newtype
            // only `like` names is not dead code to rustc.
            let read = inner
                .member
                .as_ref()
                .map(|member| quote!(let _ = |value: &Self| { let _ = &value.#member; };));
            let rules_for = quote! {
                #[automatically_derived]
                impl #p::RulesFor<#own_target> for #ident {
                    fn rules() -> #p::Rules {
                        #read
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
                    name: #name,
                    extend: #extend,
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
    // `BySchemars` in scope: a field's type with no `Argument` is read by its schemars
    // schema (see `probes`).
    quote! {
        #[doc(hidden)]
        #[allow(clippy::useless_conversion)]
        const _: () = {
            #[allow(unused_imports)]
            use #p::BySchemars as _;
            #body
        };
    }
}

/// Compile-time checks that each rule applies to the type `ty`, or to its items.
pub(super) fn assertions(
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
