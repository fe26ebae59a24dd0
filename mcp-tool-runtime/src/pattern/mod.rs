//! Patterns: a `regex` rule's pattern, advertised as written and matched by the cheapest
//! engine that answers for it. Most ID patterns are a fixed run of ASCII classes
//! (`^[A-Z]{3}$`), matched a byte at a time; other short patterns run on a small DFA;
//! the rest on `regex`'s own engines. All three are `regex`'s: linear time, whatever
//! string a model sends. `BENCHMARKS.md` has what each one saves.

mod dfa;
mod fixed;

use std::sync::OnceLock;

use regex::Regex;

use dfa::Dfa;
use fixed::Fixed;

/// A regex, advertised as written and compiled once, on first use.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    runtime: &'static str,
    compiled: OnceLock<Result<Matcher, String>>,
}

/// A compiled pattern, in the cheapest engine that answers for it.
#[derive(Debug)]
enum Matcher {
    /// A fixed run of ASCII classes: a length check and a lookup per byte.
    Fixed(Fixed),
    /// A small pattern: a dense DFA (boxed: it is most of a kilobyte), and `regex` for
    /// the searches it gives up on.
    Dfa(Box<Dfa>, Regex),
    /// Any other: `regex`'s own engines.
    Regex(Regex),
}

impl Matcher {
    fn new(pattern: &str) -> Result<Matcher, String> {
        // Compiled first in every case: it is what says whether the pattern is valid.
        let regex = Regex::new(pattern).map_err(|e| e.to_string())?;
        if let Some(fixed) = Fixed::new(pattern) {
            return Ok(Matcher::Fixed(fixed));
        }
        Ok(match Dfa::build(pattern) {
            Some(dfa) => Matcher::Dfa(Box::new(dfa), regex),
            None => Matcher::Regex(regex),
        })
    }

    fn is_match(&self, s: &str) -> bool {
        match self {
            Matcher::Fixed(fixed) => fixed.is_match(s),
            Matcher::Dfa(dfa, regex) => dfa.is_match(s).unwrap_or_else(|| regex.is_match(s)),
            Matcher::Regex(regex) => regex.is_match(s),
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
    fn each_pattern_gets_the_cheapest_engine_that_can_answer() {
        let iata = Matcher::new(r"^[A-Z]{3}$").unwrap();
        assert!(matches!(iata, Matcher::Fixed(_)));
        let variable = Matcher::new(r"^[A-Z]{2,3}$").unwrap();
        assert!(matches!(variable, Matcher::Dfa(..)));
        assert!(variable.is_match("CDG") && !variable.is_match("C"));
    }

    #[test]
    fn a_large_pattern_keeps_regex() {
        // Unicode word characters, many times over: too big for a small DFA.
        let matcher = Matcher::new(r"^[\p{L}\p{N}]{20}x[\p{L}]{20}$").unwrap();
        assert!(matches!(matcher, Matcher::Regex(_)));
        assert!(matcher.is_match(&format!("{}x{}", "é".repeat(20), "ж".repeat(20))));
    }
}
