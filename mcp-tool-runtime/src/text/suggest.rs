//! "Did you mean": the nearest known name to one a model got wrong.

/// The candidate nearest to `input`, if it is near enough to be a likely slip:
/// the same name in another case or spelling convention (`departureDate` for
/// `departure_date`), or a few edits away.
pub fn nearest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Long inputs cannot be a slip of a short name; don't spend time on them.
    if input.len() > MAX_LEN {
        return None;
    }
    // ASCII names (nearly all) are compared as bytes in buffers on the stack; the
    // others as chars, built only if one comes.
    let ascii = (input.is_ascii()
        && input.len() <= ASCII_MAX
        && crate::fast::on(crate::fast::FastPath::Suggestions))
    .then(|| Ascii::new(input));
    let mut chars: Option<Chars> = None;
    let input_len = if ascii.is_some() {
        input.len()
    } else {
        input.chars().count()
    };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // A third of the length (in characters: an ASCII name's are its bytes), and
        // nothing for names too short to misspell.
        let allowance = |candidate_len: usize| {
            let len = candidate_len.max(input_len);
            let allowed = if len < 4 { 0 } else { (len / 3).max(1) };
            best.map_or(allowed, |(b, _)| allowed.min(b.saturating_sub(1)))
        };
        let verdict = match &ascii {
            Some(ascii) if candidate.is_ascii() && candidate.len() <= ASCII_MAX => {
                ascii.judge(candidate, allowance(candidate.len()))
            }
            _ => chars
                .get_or_insert_with(|| Chars::new(input))
                .judge(candidate, allowance(candidate.chars().count())),
        };
        match verdict {
            // Nothing is nearer: the first such candidate wins.
            Verdict::Same => return Some(candidate),
            Verdict::Within(d) => best = Some((d, candidate)),
            Verdict::Far => {}
        }
    }
    best.map(|(_, c)| c)
}

/// `Did you mean "near"?`, written at the end of `out`.
pub(crate) fn push_did_you_mean(out: &mut String, near: &str) {
    out.push_str("Did you mean ");
    crate::text::push_quoted(out, near);
    out.push('?');
}

/// The longest name compared.
const MAX_LEN: usize = 256;

/// The longest names compared in buffers on the stack (the rest as chars on the heap):
/// every buffer is zeroed when made, so they are kept to the length of real names.
const ASCII_MAX: usize = 64;

/// How a candidate stands to the input.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// The same name once folded.
    Same,
    /// This many edits away, within the allowance.
    Within(usize),
    /// Too far.
    Far,
}

/// An ASCII input, lowercased, and folded (also without `_`, `-` and spaces).
struct Ascii {
    lower: [u8; ASCII_MAX],
    len: usize,
    /// How many times each byte is in `lower`: made once, for the bag distance of
    /// every candidate.
    counts: [u8; 128],
    folded: [u8; ASCII_MAX],
    folded_len: usize,
}

impl Ascii {
    fn new(input: &str) -> Self {
        let mut out = Ascii {
            lower: [0; ASCII_MAX],
            len: input.len(),
            counts: [0; 128],
            folded: [0; ASCII_MAX],
            folded_len: 0,
        };
        for (i, b) in input.bytes().enumerate() {
            let b = b.to_ascii_lowercase();
            out.lower[i] = b;
            out.counts[usize::from(b & 0x7f)] += 1;
            if !matches!(b, b'_' | b'-' | b' ') {
                out.folded[out.folded_len] = b;
                out.folded_len += 1;
            }
        }
        out
    }

    fn judge(&self, candidate: &str, allowed: usize) -> Verdict {
        let candidate = candidate.as_bytes();
        if self.is_folded(candidate) {
            return Verdict::Same;
        }
        // The cheap bounds first, before anything is written out: most candidates are
        // far, and told so here. Each edit changes the length by at most one.
        if self.len.abs_diff(candidate.len()) > allowed || self.bag_distance(candidate) > allowed {
            return Verdict::Far;
        }
        self.edits(candidate, allowed)
    }

    /// [`bag_distance`] from the input's counts, in one pass over the candidate: the
    /// letters the two have in common (with repeats) leave the rest of each to edit.
    fn bag_distance(&self, candidate: &[u8]) -> usize {
        let mut seen = [0u8; 128];
        let mut common = 0;
        for &b in candidate {
            let b = usize::from(b.to_ascii_lowercase() & 0x7f);
            if seen[b] < self.counts[b] {
                common += 1;
            }
            seen[b] += 1;
        }
        (self.len - common).max(candidate.len() - common)
    }

    /// Whether `candidate` folds to the input's folded bytes. Most candidates differ at
    /// their first letter.
    fn is_folded(&self, candidate: &[u8]) -> bool {
        let folded = &self.folded[..self.folded_len];
        let mut at = 0;
        for &b in candidate {
            if matches!(b, b'_' | b'-' | b' ') {
                continue;
            }
            if folded.get(at) != Some(&b.to_ascii_lowercase()) {
                return false;
            }
            at += 1;
        }
        at == folded.len()
    }

    /// Whether `candidate`, past the cheap bounds, is within `allowed` edits.
    fn edits(&self, candidate: &[u8], allowed: usize) -> Verdict {
        let mut lower = [0; ASCII_MAX];
        let lower = &mut lower[..candidate.len()];
        for (l, b) in lower.iter_mut().zip(candidate) {
            *l = b.to_ascii_lowercase();
        }
        let mut rows = [[0; ASCII_MAX + 1]; 3];
        let [prev2, prev, cur] = &mut rows;
        let n = lower.len() + 1;
        within(
            &self.lower[..self.len],
            lower,
            allowed,
            [&mut prev2[..n], &mut prev[..n], &mut cur[..n]],
        )
    }
}

/// A non-ASCII input (or one compared with a non-ASCII name), as chars.
struct Chars {
    lower: Vec<char>,
    /// The [`letter_set`] of `lower`.
    set: u64,
    folded: Vec<char>,
    candidate: Vec<char>,
    rows: [Vec<usize>; 3],
}

impl Chars {
    fn new(input: &str) -> Self {
        let mut lower = Vec::with_capacity(input.len());
        push_lowercase(&mut lower, input);
        Chars {
            set: letter_set(&lower),
            lower,
            folded: fold(input).collect(),
            candidate: Vec::new(),
            rows: Default::default(),
        }
    }

    fn judge(&mut self, candidate: &str, allowed: usize) -> Verdict {
        if fold(candidate).eq(self.folded.iter().copied()) {
            return Verdict::Same;
        }
        self.candidate.clear();
        push_lowercase(&mut self.candidate, candidate);
        let sets = [self.set, letter_set(&self.candidate)];
        if !may_be_within(&self.lower, &self.candidate, sets, allowed) {
            return Verdict::Far;
        }
        let n = self.candidate.len() + 1;
        for row in &mut self.rows {
            row.clear();
            row.resize(n, 0);
        }
        let [prev2, prev, cur] = &mut self.rows;
        within(&self.lower, &self.candidate, allowed, [prev2, prev, cur])
    }
}

/// Whether two names are one name in two case styles (see [`fold`]). Compared letter by
/// letter, with nothing allocated: most names differ at their first letters.
pub(crate) fn same_folded(a: &str, b: &str) -> bool {
    fold(a).eq(fold(b))
}

/// Lowercase, without `_`, `-` and spaces: `departureDate`, `departure_date` and
/// `Departure-Date` fold to the same characters.
fn fold(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
}

/// `s` in lowercase, one character per item.
fn push_lowercase(out: &mut Vec<char>, s: &str) {
    out.extend(s.chars().flat_map(char::to_lowercase));
}

/// Whether the cheap bounds leave `a` and `b`, whose letter sets are `sets` (see
/// [`letter_set`]), possibly within `allowed` edits.
fn may_be_within<T: Copy + Into<u32>>(a: &[T], b: &[T], sets: [u64; 2], allowed: usize) -> bool {
    // Each edit changes the length by at most one.
    a.len().abs_diff(b.len()) <= allowed
        && sets_apart(sets[0], sets[1]) <= allowed
        && bag_distance(a, b) <= allowed
}

/// The characters of a string as a set, each by its value modulo 64, which can merge
/// two but never split one.
fn letter_set<T: Copy + Into<u32>>(chars: &[T]) -> u64 {
    chars.iter().fold(0, |set, &c| set | letter_bit(c))
}

/// The bit of a character in a [`letter_set`].
fn letter_bit(c: impl Into<u32>) -> u64 {
    1 << (c.into() & 63)
}

/// A lower bound of the bag distance, cheaper still, from two strings' letter sets: the
/// distinct characters of one string missing from the other, the larger side. A merged
/// character can only hide a difference: still a lower bound.
fn sets_apart(a: u64, b: u64) -> usize {
    (a & !b).count_ones().max((b & !a).count_ones()) as usize
}

/// The distance between `a` and `b` if it is at most `allowed`, with three rows of
/// `b.len() + 1` cells to work in.
fn within<T: Copy + Eq>(a: &[T], b: &[T], allowed: usize, rows: [&mut [usize]; 3]) -> Verdict {
    let [mut prev2, mut prev, mut cur] = rows;
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
            return Verdict::Far;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    if d <= allowed {
        Verdict::Within(d)
    } else {
        Verdict::Far
    }
}

/// A lower bound of the edit distance, cheap to compute: the characters of one string
/// that the other lacks (counted with repeats), the larger side. An insertion, deletion
/// or substitution fixes at most one on each side; a transposition none is needed for.
/// Only for ASCII; 0 (no bound) otherwise.
fn bag_distance<T: Copy + Into<u32>>(a: &[T], b: &[T]) -> usize {
    // Called past the length bound: the input is at most `MAX_LEN` characters and the
    // candidate at most half as long again, so a count fits in 16 bits.
    let mut counts = [0i16; 128];
    for (chars, step) in [(a, 1), (b, -1)] {
        for &c in chars {
            let Some(slot) = counts.get_mut(c.into() as usize) else {
                return 0;
            };
            *slot += step;
        }
    }
    // Only the characters of the two strings can have a count: sum those, each once.
    let mut extra = [0usize; 2];
    for (side, chars) in [(0, a), (1, b)] {
        for &c in chars {
            let slot = &mut counts[c.into() as usize];
            if (side == 0 && *slot > 0) || (side == 1 && *slot < 0) {
                extra[side] += slot.unsigned_abs() as usize;
                *slot = 0;
            }
        }
    }
    extra[0].max(extra[1])
}

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
#[cfg(test)]
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = [
        vec![0; b.len() + 1],
        vec![0; b.len() + 1],
        vec![0; b.len() + 1],
    ];
    let [prev2, prev, cur] = &mut rows;
    match within(&a, &b, usize::MAX, [prev2, prev, cur]) {
        Verdict::Within(d) => d,
        _ => unreachable!("no bound"),
    }
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
                let sets_apart = sets_apart(letter_set(&a), letter_set(&b));
                assert!(sets_apart <= distance(x, y), "{x} {y}");
                if x.is_ascii() && y.is_ascii() {
                    let lower = |s: &str| s.to_ascii_lowercase().chars().collect::<Vec<_>>();
                    assert_eq!(
                        Ascii::new(x).bag_distance(y.as_bytes()),
                        bag_distance(&lower(x), &lower(y)),
                        "{x} {y}"
                    );
                }
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
    fn ascii_names_are_judged_as_chars_are() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "cab",
            "economy",
            "Economy",
            "PROCESSING",
            "premium_economy",
            "premiumEconomy",
            "Premium-Economy",
            "premium economy",
            "business",
            "busines",
            "first",
            "kitten",
            "sitting",
            "departure_date",
            "departureDate",
            "a_b",
            "_ab",
        ];
        for x in words {
            for y in words {
                for allowed in 0..6 {
                    assert_eq!(
                        Ascii::new(x).judge(y, allowed),
                        Chars::new(x).judge(y, allowed),
                        "{x} {y} {allowed}"
                    );
                }
            }
        }
    }

    #[test]
    fn ascii_and_other_names_meet() {
        assert_eq!(nearest("cafe", ["café"]), Some("café"));
        assert_eq!(nearest("café", ["cafe"]), Some("cafe"));
        assert_eq!(nearest("Straße", ["strasse", "strase"]), Some("strase"));
        let long = "x".repeat(MAX_LEN + 1);
        assert_eq!(nearest("xxxx", [long.as_str(), "xxx"]), Some("xxx"));
        assert_eq!(nearest(&long, ["x"]), None);
    }

    #[test]
    fn names_longer_than_the_stack_buffers_are_still_compared() {
        let name = format!("{}{}", "a".repeat(40), "b".repeat(ASCII_MAX));
        let typo = name.replacen('b', "c", 1);
        assert_eq!(nearest(&typo, [name.as_str(), "b"]), Some(name.as_str()));
        assert_eq!(nearest("aaaa", ["aaab", typo.as_str()]), Some("aaab"));
        let short = &name[..ASCII_MAX];
        assert_eq!(nearest(&typo, [short]), None);
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("é", "e"), 1);
    }
}
