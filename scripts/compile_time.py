#!/usr/bin/env python3
"""Compile time of 100 tools of 8 fields: #[derive(McpTool)] against garde + schemars.

Generates two crates under target/compile-time/ with the same 100 structs (the
book_flight fields and rules of benches/contenders.rs), builds their dependencies once,
then times a clean debug build of each crate alone (dependencies excluded, incremental
compilation off), several times, and prints the medians.

    python3 scripts/compile_time.py [--runs 5]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "target" / "compile-time"
TOOLS = 100

OURS_HEAD = """use mcp_tool::{Invalid, McpTool};
use serde::Deserialize;

pub const CABINS: &[&str] = &["economy", "premium_economy", "business", "first"];
"""

OURS_STRUCT = """
/// Book flight number {i}.
#[derive(McpTool, Deserialize)]
pub struct BookFlight{i} {{
    #[validate(regex = r"^[A-Z]{{3}}$")]
    pub origin: String,
    #[validate(regex = r"^[A-Z]{{3}}$")]
    pub destination: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    pub departure_date: String,
    #[validate(enum = CABINS)]
    pub cabin: String,
    #[validate(range(min = 1, max = 9))]
    pub passengers: u8,
    #[validate(email)]
    pub email: Option<String>,
    #[validate(length(max = 500))]
    pub notes: Option<String>,
    #[validate(length(max = 9), items(regex = r"^[A-Z]{{2}}[0-9]{{6}}$"))]
    pub loyalty_ids: Option<Vec<String>>,
}}
"""

GARDE_HEAD = """use garde::Validate;
use schemars::JsonSchema;
use serde::Deserialize;

pub const CABINS: &[&str] = &["economy", "premium_economy", "business", "first"];

pub fn future(value: &str, _: &()) -> garde::Result {
    let today = jiff::ZonedDateTime::now().date();
    match jiff::civil::Date::strptime("%d/%m/%Y", value) {
        Ok(date) if date > today => Ok(()),
        _ => Err(garde::Error::new("must be a date in the future")),
    }
}

pub fn known_cabin(value: &str, _: &()) -> garde::Result {
    if CABINS.contains(&value) { Ok(()) } else { Err(garde::Error::new("unknown cabin")) }
}
"""

GARDE_STRUCT = """
/// Book flight number {i}.
#[derive(Deserialize, Validate, JsonSchema)]
pub struct BookFlight{i} {{
    #[garde(pattern(r"^[A-Z]{{3}}$"))]
    pub origin: String,
    #[garde(pattern(r"^[A-Z]{{3}}$"))]
    pub destination: String,
    #[garde(custom(future))]
    pub departure_date: String,
    #[garde(custom(known_cabin))]
    pub cabin: String,
    #[garde(range(min = 1, max = 9))]
    pub passengers: u8,
    #[garde(email)]
    pub email: Option<String>,
    #[garde(length(chars, max = 500))]
    pub notes: Option<String>,
    #[garde(length(max = 9), inner(inner(pattern(r"^[A-Z]{{2}}[0-9]{{6}}$"))))]
    pub loyalty_ids: Option<Vec<String>>,
}}
"""

CRATES = {
    "ours": (
        OURS_HEAD,
        OURS_STRUCT,
        f'mcp-tool = {{ path = "{ROOT}", default-features = false }}\n'
        'serde = { version = "1", features = ["derive"] }\n',
    ),
    "garde": (
        GARDE_HEAD,
        GARDE_STRUCT,
        'garde = { version = "0.23", default-features = false, features = ["derive", "regex", "email"] }\n'
        'schemars = { version = "1", features = ["derive"] }\n'
        'serde = { version = "1", features = ["derive"] }\n'
        'jiff = "1"\n',
    ),
}


def generate(name, head, struct, deps):
    crate = OUT / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "gen-{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f"[dependencies]\n{deps}\n[workspace]\n"
    )
    body = head + "".join(struct.format(i=i) for i in range(TOOLS))
    (crate / "src" / "lib.rs").write_text(body)
    # Reuse the project's lock file so both build what the project builds.
    shutil.copy(ROOT / "Cargo.lock", crate / "Cargo.lock")
    return crate


def cargo(crate, *args):
    env = dict(os.environ, CARGO_INCREMENTAL="0")
    subprocess.run(["cargo", *args], cwd=crate, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    crates = {name: generate(name, *spec) for name, spec in CRATES.items()}
    for crate in crates.values():
        cargo(crate, "build")  # dependencies, once
    times = {name: [] for name in crates}
    for _ in range(runs):  # interleaved, so that both see the same machine
        for name, crate in crates.items():
            cargo(crate, "clean", "-p", f"gen-{name}")
            start = time.perf_counter()
            cargo(crate, "build")
            times[name].append(time.perf_counter() - start)
    print(f"{TOOLS} tools of 8 fields, debug build of the crate alone, {runs} runs (median):")
    for name, samples in times.items():
        print(f"  {name:6} {statistics.median(samples):6.2f} s   (runs: {', '.join(f'{t:.2f}' for t in samples)})")
    print(f"  ratio ours/garde+schemars: {statistics.median(times['ours']) / statistics.median(times['garde']):.2f}")


if __name__ == "__main__":
    main()
