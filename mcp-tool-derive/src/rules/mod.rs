//! The rules of `#[validate(...)]`, one module each, holding everything the derive does
//! with the rule: its keys and how each is read, the vetting of its literals, and what it
//! expands to (the data of the runtime's rule of the same name, in the runtime's file of
//! the same name). This file is the pipeline they plug into, in three steps: a rule is
//! read ([`parse`]: a [`Parsed`]), its literals vetted ([`vet`]: a [`Rule`]), then
//! written out ([`Rule::expand`], [`Rule::assertion`]).
//!
//! The table, [`RULES`], is built from the modules: a rule lists a key only together
//! with the function that reads it, so a key without handling cannot be written. A new
//! rule is a module here that implements [`RuleKind`], and its line in [`RULES`].

pub mod custom;
mod date;
pub mod format;
pub mod length;
pub mod literal;
mod multiple_of;
mod one_of;
mod pieces;
pub mod range;
pub mod regex;
mod unique;

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{LitStr, Token};

use crate::ctxt::{Errors, did_you_mean};
use crate::meta::{path_name, recover, unknown_key};
use crate::tokens::{opt_lit, respan};

/// Every rule, each from its module.
pub const RULES: &[Def] = &[
    Def::of::<regex::Regex>(),
    Def::of::<one_of::OneOf>(),
    Def::of::<date::Date<true>>(),
    Def::of::<date::Date<false>>(),
    Def::of::<range::Range>(),
    Def::of::<length::Length>(),
    Def::of::<multiple_of::MultipleOf>(),
    Def::of::<unique::Unique>(),
    Def::of::<format::Email>(),
    Def::of::<format::Url>(),
    Def::of::<format::Uuid>(),
    Def::of::<custom::Custom>(),
];

/// One rule: how it is written, read, vetted and expanded. The type is the rule with
/// its literals vetted. (The derive vets what the author wrote; the runtime's rule of
/// the same name checks values.)
pub trait RuleKind: Sized + 'static {
    /// The rule as read, before its literals are vetted: a slot for each key.
    type Written: Default;
    /// Its name in `#[validate(...)]`.
    const NAME: &'static str;
    /// The name of the runtime's rule it writes the data of (`Regex` for `regex`,
    /// `Format` for `email`): the runtime matches the derive's list against its own
    /// (`__private::RuleName`), so a rule written by one crate and missing from the
    /// other does not build.
    const RUNTIME: &'static str;
    /// The key the short form `name = value` stands for, if it has one; a rule with one
    /// needs it in the long form too.
    const MAIN: Option<&'static str> = None;
    /// Whether the name alone (`email`) is the whole rule.
    const BARE: bool = false;
    /// The rule written out, for an error that shows how.
    const USAGE: &'static str;
    /// The keys of the long form `name(key = value, ...)`, besides `message` and `hint`,
    /// each with how it is read.
    const KEYS: &'static [Key<Self::Written>] = &[];
    /// The rules this one contradicts on the same value, and what to say.
    const EXCLUDES: &'static [(&'static str, &'static str)] = &[];

    /// The rule with its literals vetted; `None`, with the error recorded, when one is
    /// wrong. `span` is the rule's name.
    fn vet(written: Self::Written, span: Span, errors: &mut Errors) -> Option<Self>;

    /// The runtime's marker trait of the types the rule applies to (`TextRule`), if it
    /// asks anything of its type: asserted at the rule, so that a type it does not fit
    /// is an error there, in the trait's own words.
    fn marker(&self) -> Option<&'static str>;

    /// The runtime's data of the rule, a `&'static` of its struct, every field given.
    fn expand(&self, target: &Target) -> TokenStream;

    /// Compile-time assertions of the rule's own, beside the one of [`RuleKind::marker`].
    fn assert(&self, _target: &Target) -> TokenStream {
        TokenStream::new()
    }
}

/// One key of a rule's long form, and how it is read into the rule as written. The
/// reader need not refuse a key given twice: the parser does, for every rule.
pub struct Key<W: 'static> {
    pub name: &'static str,
    pub read: fn(&mut W, &ParseNestedMeta) -> syn::Result<()>,
}

/// What a rule expands against: the runtime's path and the type whose values it checks
/// (a field's, or its items').
pub struct Target<'a> {
    pub p: &'a TokenStream,
    pub ty: &'a TokenStream,
    /// The rule's name: what an error about the rule and the type points at.
    pub span: Span,
}

/// A row of [`RULES`]: a [`RuleKind`] as data, so that rules of different types sit in
/// one table.
pub struct Def {
    pub name: &'static str,
    pub runtime: &'static str,
    excludes: &'static [(&'static str, &'static str)],
    read: fn(&'static Def, &ParseNestedMeta, &mut Errors) -> syn::Result<Parsed>,
}

impl Def {
    const fn of<R: RuleKind>() -> Def {
        Def {
            name: R::NAME,
            runtime: R::RUNTIME,
            excludes: R::EXCLUDES,
            read: read::<R>,
        }
    }
}

/// A rule as written, before its literals are vetted.
pub struct Parsed {
    pub def: &'static Def,
    pub span: Span,
    written: Box<dyn Unvetted>,
    message: Option<LitStr>,
    hint: Option<LitStr>,
}

impl Parsed {
    /// A rule of kind `R` that another attribute wrote (`#[schemars(pattern(...))]`).
    pub fn new<R: RuleKind>(span: Span, written: R::Written) -> Parsed {
        Parsed {
            def: RULES
                .iter()
                .find(|r| r.name == R::NAME)
                .expect("every rule kind has its row in RULES"),
            span,
            written: Box::new(Pending::<R>(written)),
            message: None,
            hint: None,
        }
    }

    pub fn name(&self) -> &'static str {
        self.def.name
    }

    /// The rule with `message` as its expectation, for a rule another attribute wrote
    /// in words of its own (garde's `prefix("ORD-")`: "must start with \"ORD-\"").
    pub fn said(mut self, message: &str) -> Parsed {
        self.message = Some(LitStr::new(message, self.span));
        self
    }
}

/// A rule with its literals vetted.
pub struct Rule {
    pub def: &'static Def,
    pub span: Span,
    kind: Box<dyn Vetted>,
    message: Option<LitStr>,
    hint: Option<LitStr>,
}

/// A rule as written, of any kind: what vetting it takes.
trait Unvetted {
    fn vet(self: Box<Self>, span: Span, errors: &mut Errors) -> Option<Box<dyn Vetted>>;
}

struct Pending<R: RuleKind>(R::Written);

impl<R: RuleKind> Unvetted for Pending<R> {
    fn vet(self: Box<Self>, span: Span, errors: &mut Errors) -> Option<Box<dyn Vetted>> {
        R::vet(self.0, span, errors).map(|rule| Box::new(rule) as Box<dyn Vetted>)
    }
}

/// A vetted rule of any kind: what expanding it takes.
trait Vetted {
    fn marker(&self) -> Option<&'static str>;
    fn expand(&self, target: &Target) -> TokenStream;
    fn assert(&self, target: &Target) -> TokenStream;
}

impl<R: RuleKind> Vetted for R {
    fn marker(&self) -> Option<&'static str> {
        RuleKind::marker(self)
    }

    fn expand(&self, target: &Target) -> TokenStream {
        RuleKind::expand(self, target)
    }

    fn assert(&self, target: &Target) -> TokenStream {
        RuleKind::assert(self, target)
    }
}

/// Every name `#[validate(...)]` takes, for "did you mean" and the list in an error.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    names.extend([
        "items",
        "sensitive",
        "ask",
        // validator's spellings, read as this crate's rules (see `attr.rs`).
        "contains",
        "non_control_character",
        "required",
        "nested",
        "skip",
    ]);
    names
}

/// What a rule of garde or validator is called here, for an author who knows theirs;
/// or, for one this crate has no rule for, what to write instead.
pub fn foreign_rule(key: &str) -> Option<&'static str> {
    Some(match key {
        "pattern" => "a pattern is `regex` here: `regex = r\"^[A-Z]{3}$\"`",
        "inner" => "rules on the items of a list are `items(...)` here: `items(length(max = 20))`",
        "dive" => {
            "a nested struct needs no rule here: derive `mcp_tool::Argument` on it (or \
             `McpTool`) and its own fields' rules are checked, at their full path"
        }
        "one_of" | "oneof" | "in" | "options" => {
            "a whitelist is `enum` here: `enum = [\"a\", \"b\"]` or `enum = CONSTANT`"
        }
        "unique_items" | "distinct" => "a list without repeats is `unique` here",
        "does_not_contain" => {
            "no pattern both Rust and ECMA-262 read can say \"does not contain\" (Rust's \
             regex has no lookahead): check it with `custom(function = ..., description = \
             \"...\")`, whose description tells the model"
        }
        "must_match" | "matches" => {
            "a rule comparing two fields is not one a schema can say: compare them in the \
             handler and return `ToolError::validation` naming the field"
        }
        "credit_card" | "phone" | "phone_number" => {
            "no schema keyword says it: check it with `custom(function = ..., description = \
             \"...\")`, whose description tells the model what is taken"
        }
        "ip" | "ipv4" | "ipv6" => {
            "make the field's type `std::net::IpAddr` (or `Ipv4Addr`, `Ipv6Addr`): it \
             advertises the format `ipv4`/`ipv6` and checks it"
        }
        "schema" => {
            "validator's struct-level function checks the whole struct, which this crate \
             has no rule for: state the parts as rules on the fields and \
             `#[mcp_tool(require(...))]`, or check it in the handler and return \
             `ToolError::validation`"
        }
        _ => return None,
    })
}

/// Reads validator's spelling of a rule this crate writes otherwise: `contains(pattern
/// = "x")` (or `contains = "x"`) and `non_control_character` are each a `regex` here.
fn validator_rule(
    meta: &ParseNestedMeta,
    key: &str,
    errors: &mut Errors,
) -> Option<syn::Result<Parsed>> {
    let span = meta.path.span();
    let read = |errors: &mut Errors| -> syn::Result<Parsed> {
        let mut needle: Option<LitStr> = None;
        let mut message: Option<LitStr> = None;
        if key == "contains" && meta.input.peek(Token![=]) {
            needle = Some(meta.value()?.parse()?);
        } else if meta.input.peek(syn::token::Paren) {
            meta.parse_nested_meta(|inner| {
                let result = match path_name(&inner.path).as_str() {
                    "pattern" if key == "contains" => inner
                        .value()
                        .and_then(|v| v.parse())
                        .map(|n| needle = Some(n)),
                    "message" => inner
                        .value()
                        .and_then(|v| v.parse())
                        .map(|m| message = Some(m)),
                    // validator's error code: a violation's `rule` names the rule here.
                    "code" => inner.value().and_then(|v| v.parse::<LitStr>()).map(drop),
                    other => {
                        let known: &[&str] = if key == "contains" {
                            &["pattern", "message", "code"]
                        } else {
                            &["message", "code"]
                        };
                        Err(unknown_key(&inner, other, known, &format!("`{key}(...)`")))
                    }
                };
                recover(result, &inner, errors);
                Ok(())
            })?;
        }
        let rule = if key == "contains" {
            let Some(needle) = needle else {
                return Err(meta.error("`contains` is written like `contains(pattern = \"x\")`"));
            };
            regex::Text::Contains(&needle.value()).rule(span)
        } else {
            regex::Text::NonControl.rule(span)
        };
        Ok(match message {
            Some(message) => rule.said(&message.value()),
            None => rule,
        })
    };
    matches!(key, "contains" | "non_control_character").then(|| read(errors))
}

/// Reads the rule `key` at `meta`, in its short form (`regex = "..."`), its long form
/// (`range(min = 1)`) or bare (`email`).
pub fn parse(meta: &ParseNestedMeta, key: &str, errors: &mut Errors) -> syn::Result<Parsed> {
    if let Some(rule) = validator_rule(meta, key, errors) {
        return rule;
    }
    let Some(def) = RULES.iter().find(|r| r.name == key) else {
        if let Some(advice) = foreign_rule(key) {
            return Err(meta.error(format!("unknown rule `{key}`; {advice}")));
        }
        let names = names();
        let list = names.join(", ");
        return Err(match did_you_mean(key, &names) {
            Some(near) => meta.error(format!(
                "unknown rule `{key}`; did you mean `{near}`? Rules: {list}"
            )),
            None => meta.error(format!("unknown rule `{key}`; rules: {list}")),
        });
    };
    (def.read)(def, meta, errors)
}

/// What every rule takes besides its own keys.
#[derive(Default)]
struct Said {
    message: Option<LitStr>,
    hint: Option<LitStr>,
    /// The keys read so far: one given twice is refused.
    seen: Vec<&'static str>,
}

fn read<R: RuleKind>(
    def: &'static Def,
    meta: &ParseNestedMeta,
    errors: &mut Errors,
) -> syn::Result<Parsed> {
    let span = meta.path.span();
    let usage = || meta.error(format!("`{}` is written like `{}`", R::NAME, R::USAGE));
    let mut written = R::Written::default();
    let mut said = Said::default();
    if meta.input.peek(Token![=]) {
        let Some(main) = R::MAIN else {
            return Err(usage());
        };
        read_key::<R>(main, meta, &mut written, &mut said)?;
    } else if meta.input.peek(syn::token::Paren) {
        let fork = meta.input.fork();
        let content;
        syn::parenthesized!(content in fork);
        if content.is_empty() {
            return Err(usage());
        }
        meta.parse_nested_meta(|inner| {
            let key = path_name(&inner.path);
            let result = read_key::<R>(&key, &inner, &mut written, &mut said);
            recover(result, &inner, errors);
            Ok(())
        })?;
        if let Some(main) = R::MAIN
            && !said.seen.contains(&main)
        {
            return Err(syn::Error::new(
                span,
                format!("`{}(...)` needs `{main} = ...`", R::NAME),
            ));
        }
    } else if !R::BARE {
        return Err(usage());
    }
    Ok(Parsed {
        def,
        span,
        written: Box::new(Pending::<R>(written)),
        message: said.message,
        hint: said.hint,
    })
}

/// One `key = value` of rule `R`.
fn read_key<R: RuleKind>(
    key: &str,
    meta: &ParseNestedMeta,
    written: &mut R::Written,
    said: &mut Said,
) -> syn::Result<()> {
    // validator's spellings: its error code, read and dropped (a violation's `rule`
    // names the rule); a key this crate cannot read, refused with what to write.
    match (R::NAME, key) {
        (_, "code") => {
            let _: LitStr = meta.value()?.parse()?;
            return Ok(());
        }
        ("regex", "path") => {
            // Said once: not again as a missing pattern.
            said.seen.extend(R::MAIN);
            return Err(meta.error(
                "validator's `regex(path = ...)` names a compiled Regex, which the derive \
                 cannot read: the schema is written at compile time. Write the pattern \
                 itself: `regex = r\"^[a-z]+$\"` (the same text the static compiles)",
            ));
        }
        ("custom", "use_context") => {
            return Err(meta.error(
                "a custom function here takes the value alone, with no context: read what \
                 it needs from a static, or check it in the handler and return \
                 `ToolError::validation`",
            ));
        }
        _ => {}
    }
    let own = R::KEYS.iter().find(|k| k.name == key);
    let Some(name) = own
        .map(|k| k.name)
        .or_else(|| ["message", "hint"].into_iter().find(|k| *k == key))
    else {
        let known: Vec<&str> = R::KEYS
            .iter()
            .map(|k| k.name)
            .chain(["message", "hint"])
            .collect();
        return Err(unknown_key(
            meta,
            key,
            &known,
            &format!("`{}(...)`", R::NAME),
        ));
    };
    if said.seen.contains(&name) {
        return Err(meta.error(format!("duplicate `{name}`: give it once")));
    }
    said.seen.push(name);
    match own {
        Some(own) => (own.read)(written, meta),
        None if name == "message" => {
            said.message = Some(meta.value()?.parse()?);
            Ok(())
        }
        None => {
            said.hint = Some(meta.value()?.parse()?);
            Ok(())
        }
    }
}

/// Each rule with its literals vetted, the wrong ones reported and left out, and the
/// rules that contradict each other reported.
pub fn vet(rules: Vec<Parsed>, errors: &mut Errors) -> Vec<Rule> {
    let rules: Vec<Rule> = rules
        .into_iter()
        .filter_map(|parsed| {
            let kind = parsed.written.vet(parsed.span, errors)?;
            Some(Rule {
                def: parsed.def,
                span: parsed.span,
                kind,
                message: parsed.message,
                hint: parsed.hint,
            })
        })
        .collect();
    for rule in &rules {
        for (other, why) in rule.def.excludes {
            if rules.iter().any(|r| r.def.name == *other) {
                errors.at(rule.span, why);
            }
        }
    }
    rules
}

impl Rule {
    /// The runtime's `Rule` of the values of type `ty`.
    pub fn expand(&self, p: &TokenStream, ty: &TokenStream) -> TokenStream {
        let target = Target {
            p,
            ty,
            span: self.span,
        };
        let kind = self.kind.expand(&target);
        let message = opt_lit(self.message.as_ref());
        let hint = opt_lit(self.hint.as_ref());
        quote::quote!(#p::Rule { kind: #kind, message: #message, hint: #hint })
    }

    /// Whether the rule asks anything of its type.
    pub fn needs_a_type(&self) -> bool {
        self.kind.marker().is_some()
    }

    /// Compile-time checks that the rule applies to the type `ty`, re-spanned at the
    /// rule so that a mismatch points at the rule, not the type. `<T as Trait>::APPLIES`:
    /// an unmet bound is the trait's own message, with no note that points into this
    /// crate.
    pub fn assertion(&self, p: &TokenStream, ty: &TokenStream) -> TokenStream {
        let span = self.span;
        let ty = respan(ty.clone(), span);
        let target = Target { p, ty: &ty, span };
        let mut out = TokenStream::new();
        if let Some(marker) = self.kind.marker() {
            let marker = syn::Ident::new(marker, span);
            out.extend(quote_spanned!(span=> const _: () = <#ty as #p::#marker>::APPLIES;));
        }
        out.extend(self.kind.assert(&target));
        out
    }
}
