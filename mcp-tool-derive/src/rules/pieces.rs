//! A pattern that a loop over its bytes matches exactly, without `regex`: anchored at
//! both ends, a run of pieces, each a set of ASCII bytes repeated between a least and a
//! most count (`^[A-Z]{3}$`, `^[a-z_]+$`, `^ORD-[0-9]{4}-[0-9]{1,6}$`), where each piece
//! whose count may vary shares no byte with what can follow it. Then each piece takes
//! as many bytes as it may, and no other reading of the string can match: a byte a
//! varying piece could take is one no later piece could start with. Such a pattern is
//! written as its pieces, and a server that has only such patterns does not link
//! `regex` in (about 0.5 MB of binary stripped, `BENCHMARKS.md`).

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// One piece: the bytes it takes, as ranges, and how many times.
#[derive(Debug, PartialEq)]
pub struct Piece {
    /// Inclusive ranges of ASCII bytes, in order.
    pub ranges: Vec<(u8, u8)>,
    /// The least count.
    pub min: u32,
    /// The most count; `None` for no bound.
    pub max: Option<u32>,
}

impl Piece {
    fn set(&self) -> u128 {
        self.ranges.iter().fold(0, |set, &(lo, hi)| {
            (lo..=hi).fold(set, |set, b| set | 1 << b)
        })
    }
}

/// The pieces of `pattern` (in `regex`'s dialect, as the runtime would compile it), if
/// it is such a pattern.
pub fn pieces(pattern: &str) -> Option<Vec<Piece>> {
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut parts = Vec::new();
    flatten(&hir, &mut parts);
    let (first, rest) = parts.split_first()?;
    let (last, middle) = rest.split_last()?;
    if *first.kind() != HirKind::Look(Look::Start) || *last.kind() != HirKind::Look(Look::End) {
        return None;
    }
    let mut pieces = Vec::new();
    for part in middle {
        match part.kind() {
            HirKind::Literal(literal) => {
                for &b in literal.0.iter() {
                    if !b.is_ascii() {
                        return None;
                    }
                    pieces.push(Piece {
                        ranges: vec![(b, b)],
                        min: 1,
                        max: Some(1),
                    });
                }
            }
            HirKind::Repetition(rep) => pieces.push(Piece {
                ranges: ranges(&rep.sub)?,
                min: rep.min,
                max: rep.max,
            }),
            _ => pieces.push(Piece {
                ranges: ranges(part)?,
                min: 1,
                max: Some(1),
            }),
        }
    }
    let sets: Vec<u128> = pieces.iter().map(Piece::set).collect();
    for (i, piece) in pieces.iter().enumerate() {
        if piece.max == Some(piece.min) {
            continue;
        }
        // What can come next: each later piece up to the first that must take a byte.
        let mut next = 0;
        for (later, set) in pieces[i + 1..].iter().zip(&sets[i + 1..]) {
            next |= set;
            if later.min > 0 {
                break;
            }
        }
        if sets[i] & next != 0 {
            return None;
        }
    }
    Some(pieces)
}

/// The parts of a concatenation, groups opened (a group under a repetition is not).
fn flatten<'h>(hir: &'h Hir, parts: &mut Vec<&'h Hir>) {
    match hir.kind() {
        HirKind::Concat(items) => items.iter().for_each(|item| flatten(item, parts)),
        HirKind::Capture(capture) => flatten(&capture.sub, parts),
        _ => parts.push(hir),
    }
}

/// The ASCII bytes one character of `hir` can be, if it is one ASCII character or a
/// class of them.
fn ranges(hir: &Hir) -> Option<Vec<(u8, u8)>> {
    let ascii = |lo: u32, hi: u32| (hi < 0x80).then_some((lo as u8, hi as u8));
    match hir.kind() {
        HirKind::Literal(literal) => match &*literal.0 {
            [b] if b.is_ascii() => Some(vec![(*b, *b)]),
            _ => None,
        },
        HirKind::Class(Class::Unicode(class)) => class
            .iter()
            .map(|r| ascii(u32::from(r.start()), u32::from(r.end())))
            .collect(),
        HirKind::Class(Class::Bytes(class)) => class
            .iter()
            .map(|r| ascii(u32::from(r.start()), u32::from(r.end())))
            .collect(),
        HirKind::Capture(capture) => ranges(&capture.sub),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(ranges: &[(u8, u8)], min: u32, max: Option<u32>) -> Piece {
        Piece {
            ranges: ranges.to_vec(),
            min,
            max,
        }
    }

    #[test]
    fn ids_are_pieces() {
        assert_eq!(
            pieces(r"^[A-Z]{3}$").unwrap(),
            [piece(&[(b'A', b'Z')], 3, Some(3))]
        );
        assert_eq!(
            pieces(r"^[a-z_]+$").unwrap(),
            [piece(&[(b'_', b'_'), (b'a', b'z')], 1, None)]
        );
        // `\d` is Unicode's digits in `regex`'s dialect.
        assert_eq!(pieces(r"^OR-(\d){2,}$"), None);
        assert_eq!(
            pieces(r"^(?:AB)-[0-9]{1,6}x?$").unwrap(),
            [
                piece(&[(b'A', b'A')], 1, Some(1)),
                piece(&[(b'B', b'B')], 1, Some(1)),
                piece(&[(b'-', b'-')], 1, Some(1)),
                piece(&[(b'0', b'9')], 1, Some(6)),
                piece(&[(b'x', b'x')], 0, Some(1)),
            ]
        );
        assert_eq!(pieces(r"^$").unwrap(), []);
    }

    #[test]
    fn what_a_greedy_loop_could_misread_is_left_to_regex() {
        for pattern in [
            // A varying piece that shares a byte with what follows it.
            r"^[a-z]+[a-z0-9]$",
            r"^[a-z]*a?b?[ab]$",
            r"^[0-9]{1,3}[0-9]{2}$",
            r"^[A-Z]+(?:[A-Z]{2})?$",
            // Not anchored at both ends, or not a run of single characters.
            r"[A-Z]{3}",
            r"^[A-Z]{3}",
            r"[A-Z]{3}$",
            r"^(?:ab)+$",
            r"^(a|bc)$",
            r"^(?m)[A-Z]$",
            // Beyond ASCII.
            r"^é$",
            r"^[^a]$",
            r"^[à-ÿ]+$",
        ] {
            assert_eq!(pieces(pattern), None, "{pattern}");
        }
        // A varying piece followed by an optional one and then a different byte.
        assert!(pieces(r"^[a-z]+-?[0-9]$").is_some());
        assert!(pieces(r"^[a-z]+[0-9]?[a-z]$").is_none());
    }
}
