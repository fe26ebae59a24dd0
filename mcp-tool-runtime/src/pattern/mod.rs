//! Patterns: a `regex` rule's pattern, advertised as written and matched by `regex`,
//! linear time whatever string a model sends. A pattern that is a fixed run of ASCII
//! classes (`^[A-Z]{3}$`, most ID patterns) is matched a byte at a time in front of it:
//! `BENCHMARKS.md` has what that earns, against `regex` alone, in the same run.

pub(crate) mod ecma;
mod fixed;

use std::sync::OnceLock;

use regex::Regex;

use crate::fast::FastPath;
use fixed::Fixed;

/// A regex, advertised as written and compiled once, on first use.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    runtime: &'static str,
    compiled: OnceLock<Result<Matcher, String>>,
}

/// A compiled pattern: `regex`, and in front of it the byte-at-a-time matcher of a
/// fixed run of ASCII classes, when the pattern is one.
#[derive(Debug)]
struct Matcher {
    regex: Regex,
    fixed: Option<Fixed>,
}

impl Matcher {
    fn new(pattern: &str) -> Result<Matcher, String> {
        // Compiled first in every case: it is what says whether the pattern is valid.
        let regex = Regex::new(pattern).map_err(|e| e.to_string())?;
        Ok(Matcher {
            regex,
            fixed: Fixed::new(pattern),
        })
    }

    fn is_match(&self, s: &str) -> bool {
        match &self.fixed {
            Some(fixed) if crate::fast::on(FastPath::Patterns) => fixed.is_match(s),
            _ => self.regex.is_match(s),
        }
    }
}

impl Pattern {
    /// `source` is advertised as the schema's `pattern`; `runtime` is the same pattern in
    /// Rust's dialect, with `.` spelled as ECMA-262 means it. The derive writes both.
    pub const fn new(source: &'static str, runtime: &'static str) -> Self {
        Pattern {
            source,
            runtime,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as advertised.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `s` matches; `Err` if the pattern could not be compiled (the derive
    /// checks it, so only a regex over the size limit gets here).
    pub fn is_match(&self, s: &str) -> Result<bool, &str> {
        match self.compiled.get_or_init(|| Matcher::new(self.runtime)) {
            Ok(matcher) => Ok(matcher.is_match(s)),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_run_is_matched_a_byte_at_a_time_and_the_rest_by_regex() {
        let iata = Matcher::new(r"^[A-Z]{3}$").unwrap();
        assert!(iata.fixed.is_some());
        assert!(iata.is_match("CDG") && !iata.is_match("CD") && !iata.is_match("cdg"));
        let variable = Matcher::new(r"^[A-Z]{2,3}$").unwrap();
        assert!(variable.fixed.is_none());
        assert!(variable.is_match("CDG") && !variable.is_match("C"));
        // Letters beyond ASCII, as ranges: Unicode's tables are not in this build.
        let unicode = Matcher::new(r"^[à-ÿ0-9]{20}x[а-я]{20}$").unwrap();
        assert!(unicode.fixed.is_none());
        assert!(unicode.is_match(&format!("{}x{}", "é".repeat(20), "ж".repeat(20))));
        assert!(!unicode.is_match(&format!("{}x{}", "e".repeat(20), "ж".repeat(20))));
    }
}
