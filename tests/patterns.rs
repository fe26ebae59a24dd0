//! A `regex` rule answers as `regex` does, whichever way the derive chose to match it:
//! by its pieces (a run of ASCII sets, each taking as many bytes as it may) or by
//! `regex`. Among the patterns are ones a greedy loop would misread, which must go to
//! `regex`: were one taken for pieces, some input here would be answered otherwise.

use mcp_tool::McpTool;
use serde::Deserialize;
use serde_json::json;

macro_rules! patterns {
    ($($name:ident = $pattern:literal,)*) => {
        $(
            #[derive(McpTool, Deserialize)]
            #[allow(dead_code)]
            struct $name {
                #[validate(regex = $pattern)]
                s: String,
            }
        )*

        /// Each pattern, and whether a string passes its tool's check.
        const PATTERNS: &[(&str, fn(&str) -> bool)] = &[$(
            ($pattern, |s| $name::from_arguments(json!({ "s": s })).is_ok()),
        )*];
    };
}

patterns! {
    // Pieces.
    Iata = r"^[A-Z]{3}$",
    Snake = r"^[a-z_]+$",
    Order = r"^ORD-[0-9]{4}-[0-9]{1,6}$",
    Optional = r"^[a-z]+-?[0-9]{0,2}$",
    Captured = r"^([A-Z]{2})([0-9]{6})$",
    Empty = r"^$",
    Spaced = r"^[a-z]{1,3} [0-9]*$",
    Ascii = r"^[ -~]{0,5}$",
    Lazy = r"^[a-z]+?[0-9]$",
    // A greedy loop would misread these: `regex` matches them.
    Shared = r"^[a-z]+[a-z0-9]$",
    SharedAfterOptional = r"^[a-z]*a?b?[ab]$",
    Counts = r"^[0-9]{1,3}[0-9]{2}$",
    OptionalGroup = r"^[A-Z]+(?:[A-Z]{2})?$",
    // Not runs of single characters, or not anchored at both ends.
    Hosts = r"^(?:[a-z]+\.)*[a-z]+$",
    Either = r"^(ab|c)$",
    Unanchored = r"[0-9]{2}",
    Start = r"^[0-9]{2}",
    Beyond = r"^[à-ÿ]{1,2}$",
    Negated = r"^[^a]{2}$",
    Dot = r"^a.b$",
}

/// Every string of up to four characters over `alphabet`.
fn strings(alphabet: &[&str]) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..4 {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn every_pattern_answers_as_regex_does() {
    let mut inputs = strings(&["a", "b", "Z", "0", "9", "-", " ", "é", "\n"]);
    inputs.extend(
        [
            "CDG",
            "ORD-2026-000042",
            "ORD-2026-0000421",
            "ORD-٢٠٢٦-00042",
            "AF123456",
            "abc 123",
            "snake_case_name",
            "a\u{2028}b",
            "a\rb",
            "a.b",
            "ab.cd.ef",
            "~~~~~",
            "\u{0}",
        ]
        .map(String::from),
    );
    for &(pattern, passes) in PATTERNS {
        // As the runtime compiles it: ECMA-262's `.` stops at every line terminator.
        let runtime = match pattern {
            r"^a.b$" => r"^a[^\n\r\u{2028}\u{2029}]b$",
            other => other,
        };
        let regex = regex::Regex::new(runtime).unwrap();
        for input in &inputs {
            assert_eq!(
                passes(input),
                regex.is_match(input),
                "{pattern} on {input:?}"
            );
        }
    }
}
