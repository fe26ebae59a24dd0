//! "Did you mean": the nearest known name to one a model got wrong.

/// The candidate nearest to `input`, if it is near enough to be a likely slip:
/// the same name in another case or spelling convention (`departureDate` for
/// `departure_date`), or a few edits away.
pub fn nearest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Long inputs cannot be a slip of a short name; don't spend time on them.
    if input.len() > 256 {
        return None;
    }
    let folded = fold(input);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = if fold(candidate) == folded {
            0
        } else {
            let d = distance(&input.to_lowercase(), &candidate.to_lowercase());
            // A third of the length, and nothing for names too short to misspell.
            let len = candidate.chars().count().max(input.chars().count());
            let allowed = if len < 4 { 0 } else { (len / 3).max(1) };
            if d > allowed {
                continue;
            }
            d
        };
        if best.is_none_or(|(b, _)| distance < b) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Lowercase, without `_`, `-` and spaces: `departureDate`, `departure_date` and
/// `Departure-Date` fold to the same string.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
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
    fn distance_counts_transpositions_once() {
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("é", "e"), 1);
    }
}
