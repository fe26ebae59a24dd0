//! The rules of `#[validate(...)]` as the derive knows them: the table of how each is
//! written, which keys it takes and what types it applies to, and what a rule is once
//! read. The parser (`attr.rs`), the checks (`check.rs`) and the expansion's type
//! assertions (`expand/`) all read the table; a new rule is a row here, a variant of
//! [`Written`] and of [`RuleKind`], its literal checks in `check.rs` and the runtime
//! struct it expands to. A rule as written is a [`Parsed`] of a [`Written`]; checked, a
//! [`Rule`] of a [`RuleKind`], the names the runtime gives the same things.

use proc_macro2::Span;
use syn::LitStr;

/// A rule as read from the attribute, before its literals are checked.
pub enum Written {
    Regex(LitStr),
    MultipleOf(Option<Bound>),
    Enum(EnumValues),
    Date {
        future: bool,
        format: Option<LitStr>,
    },
    Range(Range),
    Length(Length),
    Email,
    Url,
    Uuid,
    Custom {
        function: syn::Path,
        description: Option<LitStr>,
    },
}

pub enum EnumValues {
    List(Vec<LitStr>, Span),
    Path(syn::Path),
}

#[derive(Default)]
pub struct Range {
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub exclusive_min: Option<Bound>,
    pub exclusive_max: Option<Bound>,
}

#[derive(Clone, Copy)]
pub struct Bound {
    pub value: Number,
    pub span: Span,
}

#[derive(Clone, Copy, PartialEq, PartialOrd)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

#[derive(Default)]
pub struct Length {
    pub min: Option<(u64, Span)>,
    pub max: Option<(u64, Span)>,
    pub equal: Option<(u64, Span)>,
}

/// A rule as written, before its literals are checked.
pub struct Parsed {
    pub name: &'static str,
    pub span: Span,
    pub kind: Written,
    pub message: Option<LitStr>,
    pub hint: Option<LitStr>,
}

/// A rule with its literals checked.
pub struct Rule {
    /// Its row of the rules table.
    pub def: &'static RuleDef,
    pub span: Span,
    pub kind: RuleKind,
    pub message: Option<LitStr>,
    pub hint: Option<LitStr>,
}

/// What a rule checks, its literals checked: the runtime's `RuleKind` to be.
pub enum RuleKind {
    Regex {
        source: LitStr,
        runtime: String,
    },
    Enum(EnumValues),
    Date {
        future: bool,
        format: String,
        /// `format = "..."` was written: the field is a string in that format.
        explicit: bool,
    },
    Range {
        min: Option<(Number, bool)>,
        max: Option<(Number, bool)>,
    },
    Length {
        min: Option<u64>,
        max: Option<u64>,
    },
    MultipleOf(Number),
    Email,
    Url,
    Uuid,
    Custom {
        function: syn::Path,
        description: Option<LitStr>,
    },
}

/// Which kind of type a rule needs, asserted through the runtime's marker traits so
/// that a mismatch is an error at the rule.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Strings (`TextRule`).
    Text,
    /// Numbers (`NumberRule`).
    Number,
    /// Strings or arrays (`LengthRule`).
    Length,
    /// Any type.
    Nothing,
}

/// One rule as it is written.
pub struct RuleDef {
    /// Its name in `#[validate(...)]`.
    pub name: &'static str,
    /// The key the short form `name = value` stands for; `None` when there is none.
    pub main: Option<&'static str>,
    /// Whether the name alone (`email`) is the whole rule.
    pub bare: bool,
    /// The keys of the long form `name(key = value, ...)`, besides `message` and `hint`.
    pub keys: &'static [&'static str],
    /// What its field's type must be.
    pub needs: Needs,
    /// The rule written out, for an error that shows how.
    pub usage: &'static str,
    /// The rule with nothing filled in yet, for the parser to fill.
    pub empty: fn(Span) -> Written,
}

/// Every rule. `items(...)` and `sensitive` apply to the field, not to a value, and are
/// parsed apart.
pub const RULES: &[RuleDef] = &[
    RuleDef {
        name: "regex",
        main: Some("pattern"),
        bare: false,
        keys: &["pattern"],
        needs: Needs::Text,
        usage: r#"regex = r"^[A-Z]{3}$""#,
        empty: |span| Written::Regex(LitStr::new("", span)),
    },
    RuleDef {
        name: "enum",
        main: Some("values"),
        bare: false,
        keys: &["values"],
        needs: Needs::Text,
        usage: r#"enum = ["a", "b"]"#,
        empty: |span| Written::Enum(EnumValues::List(Vec::new(), span)),
    },
    RuleDef {
        name: "future_date",
        main: None,
        bare: true,
        keys: &["format"],
        needs: Needs::Text,
        usage: r#"future_date(format = "%d/%m/%Y")"#,
        empty: |_| Written::Date {
            future: true,
            format: None,
        },
    },
    RuleDef {
        name: "past_date",
        main: None,
        bare: true,
        keys: &["format"],
        needs: Needs::Text,
        usage: r#"past_date(format = "%Y-%m-%d")"#,
        empty: |_| Written::Date {
            future: false,
            format: None,
        },
    },
    RuleDef {
        name: "range",
        main: None,
        bare: false,
        keys: &["min", "max", "exclusive_min", "exclusive_max"],
        needs: Needs::Number,
        usage: "range(min = 1, max = 9)",
        empty: |_| Written::Range(Range::default()),
    },
    RuleDef {
        name: "length",
        main: None,
        bare: false,
        keys: &["min", "max", "equal"],
        needs: Needs::Length,
        usage: "length(min = 1, max = 100)",
        empty: |_| Written::Length(Length::default()),
    },
    RuleDef {
        name: "multiple_of",
        main: Some("factor"),
        bare: false,
        keys: &["factor"],
        needs: Needs::Number,
        usage: "multiple_of = 5",
        empty: |_| Written::MultipleOf(None),
    },
    RuleDef {
        name: "email",
        main: None,
        bare: true,
        keys: &[],
        needs: Needs::Text,
        usage: "email",
        empty: |_| Written::Email,
    },
    RuleDef {
        name: "url",
        main: None,
        bare: true,
        keys: &[],
        needs: Needs::Text,
        usage: "url",
        empty: |_| Written::Url,
    },
    RuleDef {
        name: "uuid",
        main: None,
        bare: true,
        keys: &[],
        needs: Needs::Text,
        usage: "uuid",
        empty: |_| Written::Uuid,
    },
    RuleDef {
        name: "custom",
        main: Some("function"),
        bare: false,
        keys: &["function", "description"],
        needs: Needs::Nothing,
        usage: "custom = path::to::function",
        empty: |span| Written::Custom {
            function: syn::Path::from(syn::Ident::new("missing", span)),
            description: None,
        },
    },
];

/// The rule named `name`.
pub fn rule(name: &str) -> Option<&'static RuleDef> {
    RULES.iter().find(|r| r.name == name)
}

/// Every name `#[validate(...)]` takes, for "did you mean" and the list in an error.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    names.extend(["items", "sensitive", "ask"]);
    names
}
