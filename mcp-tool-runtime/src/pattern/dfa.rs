//! A small pattern as a dense DFA, run a byte at a time.

/// A dense DFA with its start state, which is the same for every search: a search
/// always starts at the beginning of a value.
#[derive(Debug)]
pub(super) struct Dfa {
    dfa: regex_automata::dfa::dense::DFA<Vec<u32>>,
    start: regex_automata::util::primitives::StateID,
}

/// The most memory one pattern's DFA may take.
const DFA_SIZE_LIMIT: usize = 64 * 1024;

impl Dfa {
    /// The DFA of `pattern`, unless it would be larger than [`DFA_SIZE_LIMIT`].
    pub(super) fn build(pattern: &str) -> Option<Dfa> {
        use regex_automata::dfa::{Automaton, dense};
        use regex_automata::util::start;
        let dfa = dense::Builder::new()
            .configure(
                dense::DFA::config()
                    .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                    .determinize_size_limit(Some(4 * DFA_SIZE_LIMIT)),
            )
            .build(pattern)
            .ok()?;
        let start = dfa.start_state(&start::Config::new()).ok()?;
        Some(Dfa { dfa, start })
    }

    /// Runs the DFA over `s` a byte at a time: the search `try_search_fwd` would do,
    /// without its setup, which costs more than the walk on a short value. `None` if
    /// the DFA gives up (a Unicode word boundary on non-ASCII text).
    pub(super) fn is_match(&self, s: &str) -> Option<bool> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let mut state = self.start;
        // Match states come one byte late: seeing one means a match ended before.
        for &byte in s.as_bytes() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                if dfa.is_quit_state(state) {
                    return None;
                }
            }
        }
        Some(dfa.is_match_state(dfa.next_eoi_state(state)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn the_dfa_answers_as_regex_does() {
        let patterns = [
            r"^[A-Z]{3}$",
            r"^ORD-[0-9]{4}-[0-9]{5}$",
            "^a[^\n\r\u{2028}\u{2029}]c$",
            r"colou?r",
            r"^[A-Z]{2}[0-9]{6}$",
            r"(foo|bar)+$",
            r"^$",
            r"^é+[^a-z]?$",
        ];
        let inputs = [
            "",
            "CDG",
            "cdg",
            "CDGX",
            "ORD-2026-00042",
            "ORD-2026-00042\n",
            "ORD-٢٠٢٦-00042",
            "abc",
            "a\nc",
            "a\u{2028}c",
            "aéc",
            "a😀c",
            "the colour",
            "color",
            "AF123456",
            "AF1234567",
            "foobar",
            "barfoo!",
            "é",
            "éé!",
            "ÉÉ",
            "\u{0}",
        ];
        for pattern in patterns {
            let dfa = Dfa::build(pattern).unwrap_or_else(|| panic!("{pattern} gets a DFA"));
            let regex = Regex::new(pattern).unwrap();
            for input in inputs {
                assert_eq!(
                    dfa.is_match(input),
                    Some(regex.is_match(input)),
                    "{pattern} {input:?}"
                );
            }
        }
    }
}
