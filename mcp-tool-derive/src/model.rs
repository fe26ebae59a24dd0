//! The model between the phases: the type as the client sees it (serde's names,
//! defaults, skips and shape). Reading (`ast.rs`, `shapes.rs`, `fields.rs`) builds it
//! with each rule as written (`R` = [`Parsed`]); vetting (`vet.rs`) examines what the
//! author wrote and gives it with each rule vetted (`R` = [`Rule`]); `expand/` writes
//! that out.

use proc_macro2::{Ident, Span, TokenStream};

use crate::rules::{Parsed, Rule};

/// Which derive reads the type: its name starts every message about what it refuses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// `McpTool`: the type is a tool's arguments.
    Tool,
    /// `Argument`: the type is a value inside them.
    Argument,
}

impl Derive {
    pub fn name(self) -> &'static str {
        match self {
            Derive::Tool => "McpTool",
            Derive::Argument => "Argument",
        }
    }
}

pub struct Tool<'a, R = Rule> {
    pub ident: &'a Ident,
    pub krate: syn::Path,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub annotations: [Option<bool>; 4],
    pub allow_unknown_fields: bool,
    /// `#[mcp_tool(confirm)]`, its `{field}`s read.
    pub confirm: Option<Confirm>,
    /// `#[schemars(extend(...))]` on a struct: keywords added to its schema.
    pub extends: Vec<(syn::LitStr, syn::Expr)>,
    /// `#[mcp_tool(require(...))]`: the rules across fields, vetted (none while read).
    pub across: Vec<AcrossRule<'a>>,
    /// `#[mcp_tool(scopes(...))]`: every scope a caller needs, vetted as scope-tokens.
    pub scopes: Vec<String>,
    /// `#[mcp_tool(task_support = "...")]`: `forbidden`, `optional` or `required`.
    pub task_support: Option<String>,
    pub body: Body<'a, R>,
}

/// The confirmation a tool asks of its user before each call.
pub struct Confirm {
    pub pieces: Vec<Piece>,
    /// What a client that cannot ask gets.
    pub unconfirmed: Unconfirmed,
}

/// `unconfirmed = "..."` and `unconfirmed_scope = "..."`, read together.
pub enum Unconfirmed {
    /// The call is refused (the default).
    Refuse,
    /// `unconfirmed = "run"`: the call runs.
    Run,
    /// `unconfirmed_scope = "..."`: the call runs for a caller holding this scope.
    RunWithScope(String),
}

pub enum Piece {
    Text(String),
    /// A field, by its wire name.
    Field(String),
}

/// What the type is made of, as the client sends it.
pub enum Body<'a, R = Rule> {
    /// A struct with named fields: an object.
    Struct(Vec<Field<'a, R>>),
    /// One value of another type, with rules of its own: a tuple struct of one field,
    /// `#[serde(transparent)]`, or `#[serde(from/try_from = "T")]`.
    Newtype(Box<Inner<'a, R>>),
    /// An enum with data: one of several forms.
    Union {
        repr: Repr,
        variants: Vec<Variant<'a, R>>,
    },
}

/// A value of a type that is not named by a field: a newtype's, a variant's.
pub struct Inner<'a, R = Rule> {
    pub ty: std::borrow::Cow<'a, syn::Type>,
    pub own: Vec<R>,
    pub items: Vec<R>,
    pub items_span: Option<Span>,
    /// Never echoed: a newtype for a secret.
    pub sensitive: bool,
    /// The rule a refusal of the type's own reading is reported under, where it may
    /// refuse a value of `T`: `try_from` (`#[serde(try_from = "T")]`), or `deserialize`
    /// (`#[schemars(transparent)]`: the author's `Deserialize` reads the value).
    pub converts: Option<&'static str>,
    /// Where a wrapper holds its value (`0`, or a transparent struct's field): the
    /// generated code reads it, so that a newtype named only by `like` is used.
    pub member: Option<syn::Member>,
}

/// serde's representation of an enum.
pub enum Repr {
    External,
    Internal(String),
    Adjacent(String, String),
    Untagged,
}

pub struct Variant<'a, R = Rule> {
    pub ident: &'a Ident,
    pub name: String,
    pub description: Option<String>,
    pub shape: VariantShape<'a, R>,
}

pub enum VariantShape<'a, R = Rule> {
    Unit,
    Newtype(Box<Inner<'a, R>>),
    Tuple(Vec<Inner<'a, R>>),
    Struct(Vec<Field<'a, R>>),
}

/// Where a field's schema comes from, other than its type.
pub enum SchemaFrom {
    /// Another type's schemars schema.
    Type(syn::Type),
    /// A function's: `fn(&mut SchemaGenerator) -> Schema`.
    Function(syn::Path),
}

pub struct Field<'a, R = Rule> {
    pub wire: String,
    /// Its name in Rust, as a confirmation message names it.
    pub member: String,
    /// `#[validate(ask = "...")]`: the question, spanned at it.
    pub ask: Option<syn::LitStr>,
    /// `#[validate(like = Type)]`: the newtype whose rules the field takes.
    pub like: Option<syn::Path>,
    /// `#[serde(deserialize_with/with)]`: the function serde reads the value with.
    pub reads: Option<syn::ExprPath>,
    /// `#[mcp_tool(lenient)]`: the type's own `Deserialize` is the field's reading.
    pub lenient: bool,
    /// `#[serde(alias)]`: the former names serde reads too.
    pub aliases: Vec<String>,
    /// `#[schemars(with/schema_with)]`: where its schema comes from instead of its type.
    pub schema_from: Option<SchemaFrom>,
    /// `#[schemars(extend(...))]` and `#[schemars(transform = ...)]`.
    pub extends: Vec<(syn::LitStr, syn::Expr)>,
    pub transforms: Vec<syn::Expr>,
    pub ty: &'a syn::Type,
    pub description: Option<String>,
    pub title: Option<String>,
    pub examples: Vec<syn::Expr>,
    pub deprecated: bool,
    /// `#[schemars(required)]`: must be sent whatever its type.
    pub force_required: bool,
    /// `#[serde(flatten)]`: its struct's fields (or a map's names) stand in this object.
    pub flatten: bool,
    /// `#[mcp_tool(schemars)]`: its type has no `Argument`, only `JsonSchema`.
    pub schemars: bool,
    pub has_default: bool,
    /// Where serde takes the value from when it is not sent, written as an expression
    /// of the field's type: it becomes the schema's `default`.
    pub default: Option<TokenStream>,
    /// `#[schemars(default)]`: the default is advertised even where the field's schema is
    /// schemars' (serialized, as schemars does).
    pub schemars_default: bool,
    pub sensitive: bool,
    pub own: Vec<R>,
    pub items: Vec<R>,
    pub items_span: Option<Span>,
}

/// A type as read, before what its author wrote is vetted: its rules as written, and
/// the attributes the vetting reads.
pub struct Read<'a> {
    pub tool: Tool<'a, Parsed>,
    /// `#[mcp_tool(name = "...")]`, if given.
    pub name: Option<syn::LitStr>,
    /// `#[mcp_tool(allow_unknown_fields)]`, where it was written.
    pub allow_unknown_fields: Option<Span>,
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
    /// `#[mcp_tool(confirm = "...")]` and `unconfirmed = "..."`.
    pub confirm: Option<syn::LitStr>,
    pub unconfirmed: Option<syn::LitStr>,
    /// `unconfirmed_scope = "..."`.
    pub unconfirmed_scope: Option<syn::LitStr>,
    /// `#[mcp_tool(require(...))]`, as written.
    pub require: Vec<AcrossParsed>,
}

pub struct Enum<'a> {
    pub ident: &'a Ident,
    pub krate: syn::Path,
    pub description: Option<String>,
    /// The variants serde reads, in declaration order: the value on the wire for each.
    pub values: Vec<String>,
    /// `#[serde(alias)]` on variants: each former name, and the value it is read as.
    pub aliases: Vec<(String, String)>,
    /// Each variant's doc comment (or `#[schemars(description)]`), as `values`.
    pub docs: Vec<Option<String>>,
    /// Each variant's name in Rust, as `values`: a default is written from it.
    pub idents: Vec<&'a Ident>,
    /// `#[schemars(extend(...))]` on the enum.
    pub extends: Vec<(syn::LitStr, syn::Expr)>,
}

// Rules across fields (`#[mcp_tool(require(...))]`): read, vetted and written by
// `across.rs`.

/// A rule as written: the fields it requires and its condition, names as written.
pub struct AcrossParsed {
    pub span: proc_macro2::Span,
    pub fields: Vec<syn::Ident>,
    pub when: Option<(syn::Ident, Vec<Literal>)>,
}

/// A value in `when(field = value)`.
#[derive(Clone)]
pub struct Literal {
    pub value: LiteralValue,
    pub span: proc_macro2::Span,
}

#[derive(Clone)]
pub enum LiteralValue {
    Str(String),
    Int(i128),
    Bool(bool),
}

/// A rule vetted: its fields by their names on the wire, and the condition's field
/// with its type, for the `const` that judges each value against it.
pub struct AcrossRule<'a> {
    pub fields: Vec<String>,
    pub when: String,
    pub when_ty: &'a syn::Type,
    pub values: Vec<Literal>,
}
