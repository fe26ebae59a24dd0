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
