//! The rule-fit markers: which Rust types each rule applies to. The derive names the
//! trait of each rule on the field's type (`<T as TextRule>::APPLIES`), so a rule on a
//! type it cannot apply to (`regex` on a `u32`) is a compile error at the attribute,
//! in the words of the trait's `on_unimplemented`.

use std::collections::{BTreeMap, HashMap};

use crate::rules::Rules;

/// Types `future_date` and `past_date` apply to with no format given: a string written
/// yyyy-mm-dd, or a date type of `chrono` or `jiff` (features of those names), whose
/// written form is fixed.
#[diagnostic::on_unimplemented(
    message = "`future_date` and `past_date` apply to dates, and `{Self}` is not one",
    label = "needs a `String` (give `format = \"...\"` for another shape than yyyy-mm-dd), or a date type of chrono or jiff"
)]
pub trait DateRule {
    /// The value is a date and time that starts with its date (yyyy-mm-dd): the rule
    /// judges that date.
    const AT_START: bool = false;

    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl DateRule for String {}
impl<T: DateRule> DateRule for Option<T> {
    const AT_START: bool = T::AT_START;
}
impl<T: DateRule> DateRule for Box<T> {
    const AT_START: bool = T::AT_START;
}

/// Types the string rules apply to: `regex`, `enum`, `email`, `url`, `uuid`,
/// `future_date` and `past_date`.
#[diagnostic::on_unimplemented(
    message = "this rule applies to strings, and `{Self}` is not a string",
    label = "needs a `String` field (or `Option<String>`, or `items(...)` of a `Vec<String>`)"
)]
pub trait TextRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types `range` applies to.
#[diagnostic::on_unimplemented(
    message = "this rule applies to numbers (`range`, `multiple_of`), and `{Self}` is not a number",
    label = "needs an integer or float field (or an `Option` of one)"
)]
pub trait NumberRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types `length` applies to: code points of a string, items of an array.
#[diagnostic::on_unimplemented(
    message = "`length` applies to strings and arrays, and `{Self}` is neither",
    label = "needs a `String` or `Vec<T>` field (or an `Option` of one)"
)]
pub trait LengthRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types whose items `items(...)` applies rules to.
#[diagnostic::on_unimplemented(
    message = "`items(...)` applies to arrays and maps, and `{Self}` is neither",
    label = "needs a `Vec<T>` field (or an `Option` of one)"
)]
pub trait ItemsRule {
    /// The type of one item.
    type Item;

    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl TextRule for String {}
impl<T: TextRule> TextRule for Option<T> {}
impl<T: TextRule> TextRule for Box<T> {}

macro_rules! numeric {
    ($($t:ty),*) => {$( impl NumberRule for $t {} )*};
}
numeric!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);
impl<T: NumberRule> NumberRule for Option<T> {}
impl<T: NumberRule> NumberRule for Box<T> {}

impl LengthRule for String {}
impl<T> LengthRule for Vec<T> {}
impl<T: LengthRule> LengthRule for Option<T> {}
impl<T: LengthRule> LengthRule for Box<T> {}

impl<T> ItemsRule for Vec<T> {
    type Item = T;
}
impl<K, T, S> ItemsRule for HashMap<K, T, S> {
    type Item = T;
}
impl<K, T> ItemsRule for BTreeMap<K, T> {
    type Item = T;
}
impl<T: ItemsRule> ItemsRule for Option<T> {
    type Item = T::Item;
}
impl<T: ItemsRule> ItemsRule for Box<T> {
    type Item = T::Item;
}

/// A type whose rules a field of type `T` takes with `#[validate(like = Type)]`: a
/// newtype over `T` that derives `Argument`, its rules written once for the whole
/// server, the field's type left as it is.
#[diagnostic::on_unimplemented(
    message = "a field of type `{T}` cannot take the rules of `{Self}` with `like`",
    label = "`like` takes a newtype over the field's own type",
    note = "`like = Type` takes the rules of a newtype that derives `mcp_tool::Argument` over the field's type (`struct Name(String)` for a `String` or `Option<String>` field), such as `#[derive(Argument, Deserialize)] #[validate(length(min = 1, max = 256))] struct Name(String);`"
)]
pub trait RulesFor<T> {
    /// The newtype's rules.
    fn rules() -> Rules;
}
