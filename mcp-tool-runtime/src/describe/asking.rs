//! What a tool asks of its user, as the derive writes it: the confirmation of
//! `#[mcp_tool(confirm = "...")]` and the fields of `#[validate(ask = "...")]`. The
//! asking itself is `crate::ask`'s.

use std::collections::{BTreeSet, HashSet};

/// What a tool asks of its user.
#[derive(Debug)]
pub struct Asking {
    /// `#[mcp_tool(confirm = "...")]`: the user confirms every call before it runs.
    pub confirm: Option<Confirm>,
    /// `#[validate(ask = "...")]`: the fields asked of the user when the model leaves
    /// them out or sends a value that fails their rules.
    pub fields: &'static [AskField],
}

/// The confirmation a tool asks for before it runs.
#[derive(Debug)]
pub struct Confirm {
    /// The message, its `{field}`s replaced by the checked values.
    pub message: &'static [Piece],
    /// What happens when the client cannot ask its user.
    pub unconfirmed: Unconfirmed,
}

/// A part of a confirmation message.
#[derive(Debug, Clone, Copy)]
pub enum Piece {
    /// Written as is.
    Text(&'static str),
    /// The value of the field of this wire name.
    Field(&'static str),
}

/// What a tool that needs the user's confirmation does when the client cannot ask
/// (it declared no `elicitation` capability).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unconfirmed {
    /// Refuse the call, telling the model that the user must confirm it (the default).
    Refuse,
    /// Run it unconfirmed (`#[mcp_tool(unconfirmed = "run")]`).
    Run,
    /// Run it unconfirmed for a caller trusted to act without a user, who holds this
    /// scope (`#[mcp_tool(unconfirmed_scope = "orders:unattended")]`: an agent of the
    /// client-credentials grant, with no human to ask); refuse it to any other.
    RunWithScope(&'static str),
}

impl Unconfirmed {
    /// Whether a call by `caller` (`None`: no caller known) whose client cannot ask
    /// its user is refused.
    pub fn refuses(self, caller: Option<&crate::caller::Caller>) -> bool {
        match self {
            Unconfirmed::Refuse => true,
            Unconfirmed::Run => false,
            Unconfirmed::RunWithScope(scope) => !caller.is_some_and(|c| c.has_scope(scope)),
        }
    }
}

/// A field asked of the user.
#[derive(Debug)]
pub struct AskField {
    /// Its wire name.
    pub name: &'static str,
    /// The question the user is asked.
    pub question: &'static str,
}

/// Types a form can ask the user for: text, numbers, booleans, a choice among an enum's
/// values, or several of them (MCP's form elicitation takes flat values only).
#[diagnostic::on_unimplemented(
    message = "`ask` asks the user in a form, which takes text, numbers, booleans and choices, and `{Self}` is none of them",
    label = "needs a `String`, number, `bool`, `McpEnum` (or a `Vec` of one), or an `Option` of one of these"
)]
pub trait Askable {
    /// Names the trait in a constant, for the derive's check that `ask` fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types of which a form can offer several: an `McpEnum`'s values.
#[diagnostic::on_unimplemented(
    message = "a form asks for several values only among an enum's names, and `{Self}` is no `McpEnum`",
    label = "a `Vec` asked of the user needs `McpEnum` items"
)]
pub trait AskableItem {}

impl Askable for String {}
impl Askable for bool {}
impl<T: Askable> Askable for Option<T> {}
impl<T: AskableItem> Askable for Vec<T> {}
impl<T: AskableItem, S> Askable for HashSet<T, S> {}
impl<T: AskableItem> Askable for BTreeSet<T> {}

macro_rules! askable {
    ($($t:ty),*) => {$( impl Askable for $t {} )*};
}
askable!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);
askable!(std::net::IpAddr, std::net::Ipv4Addr, std::net::Ipv6Addr);
#[cfg(feature = "chrono")]
askable!(
    chrono::NaiveDate,
    chrono::NaiveDateTime,
    chrono::DateTime<chrono::Utc>
);
#[cfg(feature = "jiff")]
askable!(jiff::civil::Date, jiff::civil::DateTime, jiff::Timestamp);
#[cfg(feature = "uuid")]
askable!(uuid::Uuid);
#[cfg(feature = "url")]
askable!(url::Url);
