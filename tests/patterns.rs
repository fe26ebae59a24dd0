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

/// `\d`, `\w`, `\s` and `\b`, written as users of other crates write them: taken, the
/// classes advertised spelled out (a class escape is what llama.cpp's converter
/// refuses), and every one matched as ECMA-262 means it (ASCII digits and letters, its
/// own list of spaces), which the schema's judge does as well.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)]
struct Shorthands {
    #[validate(regex = r"^\d{4}-\d{2}-\d{2}$")]
    date: String,
    #[validate(regex = r"^\w+$")]
    word: String,
    #[validate(regex = r"^\w+\s\w+$")]
    words: String,
    #[validate(regex = r"^[\d-]+$")]
    digits_and_dashes: String,
    #[validate(regex = r"^\bid\b")]
    boundary: String,
}

#[test]
fn shorthand_classes_mean_what_ecma_262_means() {
    let schema = Shorthands::input_schema();
    let pattern = |field: &str| schema["properties"][field]["pattern"].as_str().unwrap();
    assert_eq!(pattern("date"), "^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
    assert_eq!(pattern("word"), "^[0-9A-Za-z_]+$");
    assert_eq!(pattern("digits_and_dashes"), "^[0-9-]+$");
    assert_eq!(pattern("boundary"), r"^\bid\b");
    assert!(!pattern("words").contains("\\s") && !pattern("words").contains("\\S"));
    let judge = jsonschema::options().build(schema).unwrap();
    let valid = json!({
        "date": "2026-12-06",
        "word": "user_01",
        "words": "two words",
        "digits_and_dashes": "12-31",
        "boundary": "id-7",
    });
    assert!(Shorthands::from_arguments(valid.clone()).is_ok());
    assert!(judge.is_valid(&valid));
    for (field, bad) in [
        // Arabic-Indic digits are digits to Unicode, not to ECMA-262.
        ("date", "٢٠٢٦-12-06"),
        ("word", "café"),
        // U+0085 is a space to Unicode, not to ECMA-262.
        ("words", "two\u{85}words"),
        ("words", "two  words"),
        ("digits_and_dashes", "12/31"),
        ("boundary", "idx"),
    ] {
        let mut args = valid.clone();
        args[field] = json!(bad);
        let err = Shorthands::from_arguments(args.clone()).unwrap_err();
        assert_eq!(err.violations()[0].path, format!("/{field}"), "{bad:?}");
        assert_eq!(err.violations()[0].rule, "regex");
        assert!(!judge.is_valid(&args), "the judge takes {field}: {bad:?}");
    }
    // ECMA-262's spaces that Unicode's lack: U+FEFF.
    let mut args = valid.clone();
    args["words"] = json!("two\u{FEFF}words");
    assert!(Shorthands::from_arguments(args.clone()).is_ok());
    assert!(judge.is_valid(&args));
    // ECMA-262's word boundary is ASCII's: `é` is no word character there.
    let mut args = valid;
    args["boundary"] = json!("idé");
    assert!(Shorthands::from_arguments(args).is_ok());
}
