//! Patterns: a `regex` rule's pattern, advertised as written. The derive chooses how it
//! is matched, at compile time. A pattern that is a run of ASCII pieces whose counts a
//! greedy loop reads exactly (`^[A-Z]{3}$`, `^[a-z_]+$`, most ID patterns) is written
//! as its pieces and matched a byte at a time ([`Piece`]); any other is compiled by
//! `regex`, in linear time whatever string a model sends. A server whose patterns are
//! all pieces does not build `regex`'s engines into its binary (`BENCHMARKS.md`: what
//! that saves, and what the loop earns against `regex`).

pub(crate) mod ecma;

use std::fmt;
use std::sync::OnceLock;

use regex::Regex;

/// A pattern, advertised as written, and what matches it.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    matcher: Matcher,
}

#[derive(Debug)]
enum Matcher {
    Pieces(&'static [Piece]),
    /// Behind a reference to a trait object so that only a server with such a pattern
    /// links `regex` in.
    Regex(&'static dyn IsMatch),
}

impl Pattern {
    /// A pattern matched by its pieces, which the derive has found to be read exactly by
    /// taking, for each piece in turn, as many bytes as it may.
    pub const fn pieces(source: &'static str, pieces: &'static [Piece]) -> Self {
        Pattern {
            source,
            matcher: Matcher::Pieces(pieces),
        }
    }

    /// A pattern matched by `regex`.
    pub const fn regex(source: &'static str, compiled: &'static CompiledPattern) -> Self {
        Pattern {
            source,
            matcher: Matcher::Regex(compiled),
        }
    }

    /// The pattern as advertised.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `s` matches; `Err` if the pattern could not be compiled (the derive
    /// checks it, so only a regex over the size limit gets here).
    #[inline]
    pub fn is_match(&self, s: &str) -> Result<bool, &str> {
        match self.matcher {
            Matcher::Pieces(pieces) => Ok(pieces_match(pieces, s)),
            Matcher::Regex(compiled) => compiled.is_match(s),
        }
    }
}

/// A piece of a pattern: a set of ASCII bytes, taken between a least and a most number
/// of times (`[A-Z]{3}`, `[a-z_]+`, a literal `-`).
#[derive(Clone, Copy)]
pub struct Piece {
    set: [u64; 2],
    min: u32,
    /// `u32::MAX` for no bound: a string of four billion characters is not an argument.
    max: u32,
}

impl Piece {
    /// `ranges` are pairs of inclusive bounds of ASCII bytes (`b"AZaz"` is `[A-Za-z]`);
    /// a count of `min` to `max` (`None`: no bound).
    pub const fn new(ranges: &[u8], min: u32, max: Option<u32>) -> Piece {
        let mut set = [0u64; 2];
        let mut i = 0;
        while i + 1 < ranges.len() {
            let mut b = ranges[i];
            while b <= ranges[i + 1] {
                assert!(b < 0x80, "a piece holds ASCII bytes only");
                set[(b >> 6) as usize] |= 1 << (b & 63);
                b += 1;
            }
            i += 2;
        }
        let max = match max {
            Some(max) => max,
            None => u32::MAX,
        };
        Piece { set, min, max }
    }

    #[inline]
    fn holds(&self, b: u8) -> bool {
        // A byte outside ASCII is in no set: a multi-byte character never matches.
        b < 0x80 && self.set[usize::from(b >> 6)] >> (b & 63) & 1 == 1
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes: String = (0..0x80u8)
            .filter(|&b| self.holds(b))
            .map(char::from)
            .collect();
        write!(f, "[{bytes:?}]{{{},{}}}", self.min, self.max)
    }
}

/// Each piece takes as many bytes as it may in turn; the derive writes pieces only
/// where no other reading of `s` could match. Inlined, with `Pattern::is_match` and the
/// rule's `holds`, into the derive's step of the walk, where the pieces are constants
/// and the compiler writes the loop for this one pattern (`BENCHMARKS.md`).
#[inline]
fn pieces_match(pieces: &[Piece], s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut at: usize = 0;
    for piece in pieces {
        let start = at;
        let end = bytes.len().min(start.saturating_add(piece.max as usize));
        while at < end && piece.holds(bytes[at]) {
            at += 1;
        }
        if at - start < piece.min as usize {
            return false;
        }
    }
    at == bytes.len()
}

/// A pattern compiled by `regex` once, on first use. `runtime` is the pattern in Rust's
/// dialect, with `.` spelled as ECMA-262 means it; the derive writes it.
pub struct CompiledPattern {
    runtime: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl CompiledPattern {
    /// The pattern in `regex`'s dialect.
    pub const fn new(runtime: &'static str) -> Self {
        CompiledPattern {
            runtime,
            compiled: OnceLock::new(),
        }
    }
}

impl fmt::Debug for CompiledPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CompiledPattern")
            .field(&self.runtime)
            .finish()
    }
}

/// What a matcher behind a trait object does.
trait IsMatch: fmt::Debug + Sync {
    fn is_match(&self, s: &str) -> Result<bool, &str>;
}

impl IsMatch for CompiledPattern {
    fn is_match(&self, s: &str) -> Result<bool, &str> {
        let compiled = self
            .compiled
            .get_or_init(|| Regex::new(self.runtime).map_err(|e| e.to_string()));
        match compiled {
            Ok(regex) => Ok(regex.is_match(s)),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_take_their_counts() {
        static IATA: [Piece; 1] = [Piece::new(b"AZ", 3, Some(3))];
        let iata = Pattern::pieces("^[A-Z]{3}$", &IATA);
        for (input, expected) in [
            ("CDG", true),
            ("CD", false),
            ("CDGX", false),
            ("cdg", false),
            ("", false),
            ("ÀBC", false),
        ] {
            assert_eq!(iata.is_match(input), Ok(expected), "{input:?}");
        }
        static CODE: [Piece; 3] = [
            Piece::new(b"az__", 1, None),
            Piece::new(b"--", 0, Some(1)),
            Piece::new(b"09", 1, Some(3)),
        ];
        let code = Pattern::pieces("^[a-z_]+-?[0-9]{1,3}$", &CODE);
        let regex = Regex::new(code.source()).unwrap();
        for input in [
            "a1", "a-1", "a--1", "_b-123", "ab1234", "-1", "a", "a-", "1", "é1", "a1\n", "",
        ] {
            assert_eq!(code.is_match(input), Ok(regex.is_match(input)), "{input:?}");
        }
    }

    #[test]
    fn the_rest_is_compiled_by_regex_on_first_use() {
        static VARIABLE: CompiledPattern = CompiledPattern::new(r"^[a-z]+[a-z0-9]$");
        static PATTERN: Pattern = Pattern::regex(r"^[a-z]+[a-z0-9]$", &VARIABLE);
        assert_eq!(PATTERN.is_match("ab"), Ok(true));
        assert_eq!(PATTERN.is_match("a"), Ok(false));
        static TOO_BIG: CompiledPattern = CompiledPattern::new(r"^(?:[a-z]{1000}){1000}$");
        static BIG: Pattern = Pattern::regex(r"^(?:[a-z]{1000}){1000}$", &TOO_BIG);
        assert!(BIG.is_match("a").is_err());
    }
}
