//! `future_date` and `past_date`: a date after (or before) today, in a strftime format
//! that names a whole date, vetted at compile time. Without a format the field's type
//! says how its date is written (a string is yyyy-mm-dd; `chrono`'s and `jiff`'s dates
//! are their own).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::{Key, RuleKind, Target};
use crate::ctxt::{Errors, needs_feature};
use crate::tokens::respan;

/// `future_date(format = "%d/%m/%Y")` when `FUTURE`, else `past_date(...)`.
pub struct Date<const FUTURE: bool> {
    format: String,
    /// `format = "..."` was written: the field is a string in that format.
    explicit: bool,
}

impl<const FUTURE: bool> RuleKind for Date<FUTURE> {
    type Written = Option<LitStr>;
    const NAME: &'static str = if FUTURE { "future_date" } else { "past_date" };
    const RUNTIME: &'static str = "Date";
    const BARE: bool = true;
    const USAGE: &'static str = if FUTURE {
        r#"future_date(format = "%d/%m/%Y")"#
    } else {
        r#"past_date(format = "%Y-%m-%d")"#
    };
    const KEYS: &'static [Key<Self::Written>] = &[Key {
        name: "format",
        read: |format, meta| {
            *format = Some(meta.value()?.parse()?);
            Ok(())
        },
    }];
    const EXCLUDES: &'static [(&'static str, &'static str)] = if FUTURE {
        &[]
    } else {
        &[(
            "future_date",
            "`future_date` and `past_date` together accept no date",
        )]
    };

    fn vet(format: Self::Written, span: Span, errors: &mut Errors) -> Option<Self> {
        // Set by mcp-tool's `dates` feature, with the runtime's date rules behind it.
        if !cfg!(feature = "dates") {
            errors.at(
                span,
                needs_feature(Self::NAME, "dates", "jiff and the system's time zones"),
            );
            return None;
        }
        let text = format
            .as_ref()
            .map_or_else(|| "%Y-%m-%d".to_owned(), LitStr::value);
        if let Err(message) = date_format(&text) {
            match &format {
                Some(lit) => errors.spanned(lit, message),
                None => errors.at(span, message),
            }
            return None;
        }
        Some(Date {
            format: text,
            explicit: format.is_some(),
        })
    }

    fn marker(&self) -> Option<&'static str> {
        if self.explicit {
            Some("TextRule")
        } else {
            Some("DateRule")
        }
    }

    fn expand(&self, target: &Target) -> TokenStream {
        let Target { p, ty, span } = *target;
        // No format given: the field's type says how its date is written.
        // Spanned at the rule: a type that is no date fails there, once.
        let at_start = if self.explicit {
            quote!(false)
        } else {
            let ty = respan((*ty).clone(), span);
            let p = respan((*p).clone(), span);
            quote_spanned!(span=> <#ty as #p::DateRule>::AT_START)
        };
        let format = &self.format;
        quote!(&#p::Date {
            future: #FUTURE,
            format: #format,
            at_start: #at_start,
        })
    }
}

/// Vets a strftime format for a date rule: known directives only, and a whole date
/// (year, month and day, or year and day of the year), no time of day.
fn date_format(format: &str) -> Result<(), String> {
    let (mut year, mut month, mut day, mut yday) = (false, false, false, false);
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        while matches!(chars.peek(), Some('-' | '_' | '0' | '^' | '#')) {
            chars.next();
        }
        let Some(d) = chars.next() else {
            return Err(format!(
                "date format {format:?} ends in a lone `%`; write %% for a percent sign"
            ));
        };
        match d {
            'Y' | 'y' => year = true,
            'm' | 'b' | 'B' | 'h' => month = true,
            'd' | 'e' => day = true,
            'j' => yday = true,
            'F' | 'D' => (year, month, day) = (true, true, true),
            'a' | 'A' | '%' | 'n' | 't' => {}
            'H' | 'I' | 'M' | 'S' | 'p' | 'P' | 'T' | 'R' | 'f' | 'N' | 'z' | 'Z' | 'Q' | 'c'
            | 'r' | 'X' | 'x' | 'k' | 'l' | 's' => {
                return Err(format!(
                    "date format {format:?}: `%{d}` is a time or zone field; a date rule reads dates only"
                ));
            }
            other => {
                return Err(format!(
                    "date format {format:?}: `%{other}` is not a known strftime directive (use %Y, %m, %d, %b, %B, %j...)"
                ));
            }
        }
    }
    if year && ((month && day) || yday) {
        Ok(())
    } else {
        Err(format!(
            "date format {format:?} does not name a whole date: it needs a year (%Y) with a month (%m) and day (%d), or a day of the year (%j)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_formats() {
        assert!(date_format("%Y-%m-%d").is_ok());
        assert!(date_format("%d/%m/%Y").is_ok());
        assert!(date_format("%F").is_ok());
        assert!(date_format("%Y-%j").is_ok());
        assert!(date_format("%d %B %Y").is_ok());
        assert!(date_format("%Y-%m").is_err());
        assert!(date_format("%Y-%m-%d %H:%M").is_err());
        assert!(date_format("%Y-%m-%Q").is_err());
        assert!(date_format("%Y-%m-%d%").is_err());
    }
}
