//! The README's quick start, built as a new user builds it: a crate of its own whose
//! `Cargo.toml` has exactly the README's dependency lines (with `mcp-tool` taken from
//! this checkout), and whose `main.rs` is the README's first Rust block.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The body of the first fenced block in `markdown` opened with "```" + `lang`, alone or
/// followed by rustdoc's attributes (`rust,no_run`: the README's Rust blocks are also
/// doctests).
fn first_block(markdown: &str, lang: &str) -> String {
    let fence = format!("```{lang}");
    let start = markdown
        .match_indices(&fence)
        .map(|(at, _)| at + fence.len())
        .find(|&end| markdown[end..].starts_with('\n') || markdown[end..].starts_with(','))
        .unwrap_or_else(|| panic!("the README has a ```{lang} block"));
    let line_end = markdown[start..]
        .find('\n')
        .expect("the fence ends its line");
    let start = start + line_end + 1;
    let end = start + markdown[start..].find("```").expect("the block is closed");
    markdown[start..end].to_owned()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_readme_quick_start_builds_as_a_crate_of_its_own() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dependencies = first_block(&readme, "toml");
    assert!(
        dependencies.starts_with("[dependencies]\n"),
        "the README's first toml block is the dependency section:\n{dependencies}"
    );
    for line in ["mcp-tool", "rmcp", "tokio", "serde"] {
        assert!(
            dependencies
                .lines()
                .any(|l| l.starts_with(&format!("{line} = "))),
            "the README's dependencies name {line}"
        );
    }
    let main = first_block(&readme, "rust");

    let dir = root().join("target/tests/readme-quick-start");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    // The README's lines as they are; only where mcp-tool comes from is added, since
    // this checkout is not published. The workspace's lock file keeps the versions
    // that the rest of the tests were built with.
    let manifest = format!(
        "[package]\nname = \"quick-start\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         {dependencies}\n\
         [patch.crates-io]\n\
         mcp-tool = {{ path = {root:?} }}\n\
         mcp-tool-runtime = {{ path = {runtime:?} }}\n\
         mcp-tool-derive = {{ path = {derive:?} }}\n\n\
         [workspace]\n",
        root = root(),
        runtime = root().join("mcp-tool-runtime"),
        derive = root().join("mcp-tool-derive"),
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(&dir.join("src/main.rs"), &main);
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--quiet"])
        .current_dir(&dir)
        .env_remove("RUSTFLAGS")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the README's quick start does not build with the README's dependencies:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

#[path = "../examples/common/flight.rs"]
mod flight;

/// The manual's schemas page shows `book_flight`'s schema in every profile: each block
/// is what the code advertises, word for word.
#[test]
fn the_manual_shows_each_profile_s_schema_as_advertised() {
    use mcp_tool::{McpTool, SchemaProfile};
    let page = std::fs::read_to_string(root().join("docs/schemas.md")).unwrap();
    for profile in SchemaProfile::ALL {
        let heading = format!("## `{profile}`\n");
        let at = page
            .find(&heading)
            .unwrap_or_else(|| panic!("docs/schemas.md has a heading {heading:?}"));
        let shown: serde_json::Value =
            serde_json::from_str(&first_block(&page[at..], "json")).unwrap();
        assert_eq!(
            &shown,
            flight::BookFlight::input_schema_for(profile),
            "the manual's {profile} schema is not what the code advertises:\n{}",
            serde_json::to_string_pretty(flight::BookFlight::input_schema_for(profile)).unwrap()
        );
    }
}

/// The README's `tools/list` entry and its five-mistakes result are what the code
/// gives, word for word (the README leaves out the entry's `outputSchema`).
#[tokio::test]
async fn the_readme_shows_the_entry_and_the_error_as_they_are() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = |heading: &str| -> serde_json::Value {
        let at = readme.find(heading).expect("the README has the section");
        serde_json::from_str(&first_block(&readme[at..], "json")).unwrap()
    };
    let tools = mcp_tool::Toolbox::new()
        .in_context(mcp_tool::Context::on(2026, 11, 30).unwrap())
        .tool(flight::book_flight);
    let mut entry = serde_json::to_value(&tools.list()[0]).unwrap();
    entry.as_object_mut().unwrap().remove("outputSchema");
    assert_eq!(block("## What the model is told"), entry);
    let mistakes = serde_json::json!({
        "origin": "Paris", "destination": "JFK", "departure_date": "12/12/2024",
        "cabin": "PROCESSING", "passengers": "two", "email": "not-an-address",
    });
    let result = tools
        .call("book_flight", mistakes)
        .await
        .unwrap()
        .to_value();
    assert_eq!(block("## What the model gets back"), result);
}

/// The lowest and highest ratio (over garde, or jsonschema for type errors) in a row of
/// BENCHMARKS.md's targets table, across its three workloads' cells; a range in
/// parentheses (the spread of a median's runs) is not a measurement of its own and is
/// left out.
fn ratio_range(benchmarks: &str, row: &str) -> (String, String) {
    let targets = &benchmarks[benchmarks
        .find("\n## Targets\n")
        .expect("BENCHMARKS.md has its targets")..];
    let line = targets
        .lines()
        .find(|line| line.starts_with(&format!("| {row} |")))
        .unwrap_or_else(|| panic!("the targets table has the row {row:?}"));
    let mut ratios: Vec<f64> = Vec::new();
    for cell in line.split('|').skip(2).take(3) {
        let mut depth = 0;
        let outside: String = cell
            .chars()
            .filter(|&c| {
                depth += i32::from(c == '(') - i32::from(c == ')');
                depth == 0 && c != ')'
            })
            .collect();
        ratios.extend(
            outside
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter_map(|word| word.strip_suffix('x')?.parse::<f64>().ok()),
        );
    }
    assert!(!ratios.is_empty(), "no ratio in the row {line:?}");
    let lowest = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (format!("{lowest:.2}x"), format!("{highest:.2}x"))
}

/// The README's and the performance page's ratios are the ranges of
/// BENCHMARKS.md's targets table, so a new measurement written there and not in them
/// fails here rather than leaving two different numbers.
#[test]
fn the_ratios_in_short_are_those_of_the_targets_table() {
    let read = |path: &str| std::fs::read_to_string(root().join(path)).unwrap();
    let (benchmarks, readme, performance) = (
        read("BENCHMARKS.md"),
        read("README.md"),
        read("docs/performance.md"),
    );
    let (low, high) = ratio_range(&benchmarks, "valid input no slower than garde");
    let valid = format!("{low} to {high} garde's");
    let (low, high) = ratio_range(&benchmarks, "four errors within 1.25x garde");
    let invalid = format!("four errors at once in {low} to {high} garde's");
    // The README's paragraph is wrapped: read it as one line.
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        readme.contains(&format!("valid arguments are checked in {valid}")),
        "the README's valid input is not {valid}"
    );
    assert!(
        readme.contains(&invalid),
        "the README does not say {invalid:?}"
    );
    assert!(
        performance.contains(&format!("- Valid input: {valid}")),
        "the performance page's valid input is not {valid}"
    );
    let (low, high) = ratio_range(&benchmarks, "type errors within 0.75x jsonschema");
    let types = format!("- Type errors: {low} to {high} the jsonschema crate's");
    assert!(
        performance.contains(&types),
        "the performance page's type errors are not {types:?}"
    );
    for (workload, ratio) in ["book_flight", "flight_b", "order"]
        .iter()
        .zip(ratio_cells(&benchmarks, "four errors within 1.25x garde"))
    {
        let performance = performance.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            performance.contains(&format!("{ratio} on `{workload}`"))
                || performance.contains(&format!("{ratio} garde's on `{workload}`")),
            "the performance page does not give {workload}'s four errors as {ratio}"
        );
    }
}

/// The first ratio of each workload's cell in a row of the targets table.
fn ratio_cells(benchmarks: &str, row: &str) -> Vec<String> {
    let line = benchmarks
        .lines()
        .find(|line| line.starts_with(&format!("| {row} |")))
        .unwrap();
    line.split('|')
        .skip(2)
        .take(3)
        .map(|cell| {
            cell.split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches(',')
                .to_owned()
        })
        .collect()
}
