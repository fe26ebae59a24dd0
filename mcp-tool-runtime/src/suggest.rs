//! "Did you mean": the nearest known name to one a model got wrong.

/// The candidate nearest to `input`, if it is near enough to be a likely slip:
/// the same name in another case or spelling convention (`departureDate` for
/// `departure_date`), or a few edits away.
pub fn nearest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Long inputs cannot be a slip of a short name; don't spend time on them.
    if input.len() > 256 {
        return None;
    }
    let mut folded = Vec::with_capacity(input.len());
    if input.is_ascii() {
        folded.extend(
            input
                .bytes()
                .filter(|b| !matches!(b, b'_' | b'-' | b' '))
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
    } else {
        folded.extend(fold(input));
    }
    let mut lower = Vec::with_capacity(input.len());
    push_lowercase(&mut lower, input);
    let input_len = chars_count(input);
    let mut scratch = Scratch::default();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if same_folded(candidate, &folded) {
            // Nothing is nearer: the first such candidate wins.
            return Some(candidate);
        }
        // A third of the length, and nothing for names too short to misspell.
        let len = chars_count(candidate).max(input_len);
        let allowed = if len < 4 { 0 } else { (len / 3).max(1) };
        let allowed = best.map_or(allowed, |(b, _)| allowed.min(b.saturating_sub(1)));
        scratch.candidate.clear();
        push_lowercase(&mut scratch.candidate, candidate);
        if let Some(d) = scratch.distance_within(&lower, allowed) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Lowercase, without `_`, `-` and spaces: `departureDate`, `departure_date` and
/// `Departure-Date` fold to the same characters.
fn fold(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
}

/// Whether `candidate` folds to `folded`; ASCII names without building anything.
fn same_folded(candidate: &str, folded: &[char]) -> bool {
    if candidate.is_ascii() {
        let mut rest = folded.iter();
        candidate
            .bytes()
            .filter(|b| !matches!(b, b'_' | b'-' | b' '))
            .all(|b| rest.next() == Some(&char::from(b.to_ascii_lowercase())))
            && rest.next().is_none()
    } else {
        fold(candidate).eq(folded.iter().copied())
    }
}

fn chars_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// `s` in lowercase, one character per item.
fn push_lowercase(out: &mut Vec<char>, s: &str) {
    if s.is_ascii() {
        out.extend(s.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        out.extend(s.chars().flat_map(char::to_lowercase));
    }
}

/// Buffers reused across the candidates of one [`nearest`].
#[derive(Default)]
struct Scratch {
    candidate: Vec<char>,
    rows: [Vec<usize>; 3],
}

impl Scratch {
    /// The distance between `a` and the candidate if it is at most `allowed`.
    fn distance_within(&mut self, a: &[char], allowed: usize) -> Option<usize> {
        let b = &self.candidate;
        // Each edit changes the length by at most one.
        if a.len().abs_diff(b.len()) > allowed || bag_distance(a, b) > allowed {
            return None;
        }
        let [prev2, prev, cur] = &mut self.rows;
        for row in [&mut *prev2, &mut *prev, &mut *cur] {
            row.clear();
            row.resize(b.len() + 1, 0);
        }
        for (j, cell) in prev.iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            cur[0] = i;
            let mut row_min = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(prev2[j - 2] + 1);
                }
                cur[j] = d;
                row_min = row_min.min(d);
            }
            // Distances never shrink down the rows: past the bound, stop.
            if row_min > allowed {
                return None;
            }
            std::mem::swap(prev2, prev);
            std::mem::swap(prev, cur);
        }
        let d = prev[b.len()];
        (d <= allowed).then_some(d)
    }
}

/// A lower bound of the edit distance, cheap to compute: the characters of one string
/// that the other lacks (counted with repeats), the larger side. An insertion, deletion
/// or substitution fixes at most one on each side; a transposition none is needed for.
/// Only for ASCII; 0 (no bound) otherwise.
fn bag_distance(a: &[char], b: &[char]) -> usize {
    let mut counts = [0i32; 128];
    for (chars, step) in [(a, 1), (b, -1)] {
        for &c in chars {
            let Some(slot) = counts.get_mut(c as usize) else {
                return 0;
            };
            *slot += step;
        }
    }
    // Only the characters of the two strings can have a count: sum those, each once.
    let mut extra = [0i32; 2];
    for (side, chars) in [(0, a), (1, b)] {
        for &c in chars {
            let slot = &mut counts[c as usize];
            if (side == 0 && *slot > 0) || (side == 1 && *slot < 0) {
                extra[side] += slot.abs();
                *slot = 0;
            }
        }
    }
    extra[0].max(extra[1]) as usize
}

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
#[cfg(test)]
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let mut scratch = Scratch {
        candidate: b.chars().collect(),
        ..Scratch::default()
    };
    scratch.distance_within(&a, usize::MAX).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: [&str; 4] = ["origin", "destination", "departure_date", "cabin"];

    #[test]
    fn spelling_conventions_fold_together() {
        assert_eq!(nearest("departureDate", FIELDS), Some("departure_date"));
        assert_eq!(nearest("DepartureDate", FIELDS), Some("departure_date"));
        assert_eq!(nearest("departure-date", FIELDS), Some("departure_date"));
    }

    #[test]
    fn typos_within_a_third_of_the_length() {
        assert_eq!(nearest("orign", FIELDS), Some("origin"));
        assert_eq!(nearest("destinaiton", FIELDS), Some("destination"));
        assert_eq!(nearest("cabn", FIELDS), Some("cabin"));
        assert_eq!(nearest("seat", FIELDS), None);
        assert_eq!(nearest("", FIELDS), None);
        assert_eq!(nearest("c", ["a", "b"]), None);
        assert_eq!(nearest("B", ["a", "b"]), Some("b"));
    }

    #[test]
    fn the_bag_bound_never_exceeds_the_distance() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "cab",
            "economy",
            "PROCESSING",
            "premium_economy",
            "business",
            "first",
            "kitten",
            "sitting",
            "aaaa",
            "aab",
            "é",
            "e",
        ];
        for x in words {
            for y in words {
                let (a, b): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
                assert!(bag_distance(&a, &b) <= distance(x, y), "{x} {y}");
            }
        }
        assert_eq!(
            nearest(
                "PROCESSING",
                ["economy", "premium_economy", "business", "first"]
            ),
            None
        );
        assert_eq!(
            nearest("busines", ["economy", "business"]),
            Some("business")
        );
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("é", "e"), 1);
    }
}
