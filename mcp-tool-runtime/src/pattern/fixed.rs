//! A pattern that is a fixed run of ASCII classes, matched a byte at a time.

/// A pattern that is a fixed run of ASCII classes anchored at both ends, the commonest
/// shape of an ID (`^[A-Z]{3}$`, `^ORD-[0-9]{4}-[0-9]{5}$`): one set of bytes per
/// position, so a match is a length check and a lookup per byte.
#[derive(Debug)]
pub(super) struct Fixed {
    positions: Vec<[u64; 2]>,
}

/// Adds the ASCII byte `b` (below 128) to `set`.
fn insert(set: &mut [u64; 2], b: u32) {
    set[(b >> 6) as usize] |= 1 << (b & 63);
}

/// The set of one ASCII byte.
fn byte_set(b: u8) -> Option<[u64; 2]> {
    let mut set = [0u64; 2];
    b.is_ascii().then(|| {
        insert(&mut set, u32::from(b));
        set
    })
}

/// Runs longer than this are left to `regex`.
const FIXED_MAX: usize = 256;

impl Fixed {
    pub(super) fn new(pattern: &str) -> Option<Fixed> {
        use regex_syntax::hir::{HirKind, Look};
        let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
        let HirKind::Concat(parts) = hir.kind() else {
            return None;
        };
        let (first, rest) = parts.split_first()?;
        let (last, middle) = rest.split_last()?;
        if *first.kind() != HirKind::Look(Look::Start) || *last.kind() != HirKind::Look(Look::End) {
            return None;
        }
        let mut positions = Vec::new();
        for part in middle {
            match part.kind() {
                HirKind::Repetition(rep) if Some(rep.min) == rep.max => {
                    let set = Fixed::set(rep.sub.kind())?;
                    positions.extend(std::iter::repeat_n(set, rep.min as usize));
                }
                HirKind::Literal(literal) => {
                    for &b in literal.0.iter() {
                        positions.push(byte_set(b)?);
                    }
                }
                other => positions.push(Fixed::set(other)?),
            }
            if positions.len() > FIXED_MAX {
                return None;
            }
        }
        Some(Fixed { positions })
    }

    /// The ASCII bytes one position matches, if it is one ASCII character or class.
    fn set(kind: &regex_syntax::hir::HirKind) -> Option<[u64; 2]> {
        use regex_syntax::hir::{Class, HirKind};
        let mut set = [0u64; 2];
        let mut add = |lo: u32, hi: u32| {
            if hi > 0x7f {
                return false;
            }
            for b in lo..=hi {
                insert(&mut set, b);
            }
            true
        };
        let ascii = match kind {
            HirKind::Literal(literal) => match &*literal.0 {
                [b] => return byte_set(*b),
                _ => false,
            },
            HirKind::Class(Class::Unicode(class)) => class
                .iter()
                .all(|r| add(u32::from(r.start()), u32::from(r.end()))),
            HirKind::Class(Class::Bytes(class)) => class
                .iter()
                .all(|r| add(u32::from(r.start()), u32::from(r.end()))),
            _ => false,
        };
        ascii.then_some(set)
    }

    pub(super) fn is_match(&self, s: &str) -> bool {
        // A byte outside ASCII is in no set: a multi-byte character never matches.
        s.len() == self.positions.len()
            && s.bytes()
                .zip(&self.positions)
                .all(|(b, set)| b < 0x80 && set[usize::from(b >> 6)] >> (b & 63) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn fixed_runs_of_ascii_classes_answer_as_regex_does() {
        let fixed = [
            r"^[A-Z]{3}$",
            r"^ORD-[0-9]{4}-[0-9]{5}$",
            r"^[A-Z]{2}[0-9]{6}$",
            r"^[a-zA-Z]{2}x$",
            r"^ab$",
            r"^a{2}[-_.]b$",
            r"^$",
        ];
        let not_fixed = [
            // Unicode case folding adds K (Kelvin) and ſ to [a-z]: not ASCII.
            r"^(?i)[a-z]{2}x$",
            r"^[^a]{2}$",
            r"^\d{3}$",
            r"^[A-Z]{2,3}$",
            r"[A-Z]{3}",
            r"^é{2}$",
            r"^(ab){2}$",
            r"^\w$",
        ];
        let inputs = [
            "",
            "CDG",
            "cdg",
            "CDGX",
            "CD",
            "ORD-2026-00042",
            "ORD-2026-00042\n",
            "ORD-٢٠٢٦-00042",
            "AF123456",
            "AF1234567",
            "ab",
            "Ab",
            "abx",
            "ABX",
            "aK",
            "aa-b",
            "aa.b",
            "aa/b",
            "ÀB",
            "\u{0}",
            "ab\n",
            "1\u{660}2",
            "éé",
        ];
        for pattern in fixed {
            let matcher = Fixed::new(pattern).unwrap_or_else(|| panic!("{pattern} is fixed"));
            let regex = Regex::new(pattern).unwrap();
            for input in inputs {
                assert_eq!(
                    matcher.is_match(input),
                    regex.is_match(input),
                    "{pattern} {input:?}"
                );
            }
        }
        for pattern in not_fixed {
            assert!(Fixed::new(pattern).is_none(), "{pattern}");
        }
    }
}
