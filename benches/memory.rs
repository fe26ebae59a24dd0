//! What each contender asks of the allocator per call: allocations and bytes, on the
//! three inputs of `benches/contenders.rs`, counted by a global allocator (which is why
//! this is a binary of its own: counting would slow the timed benchmark;
//! `tests/support/counting.rs`). Prints the
//! table of `BENCHMARKS.md`:
//!
//! ```sh
//! cargo bench --bench memory
//! ```
//!
//! Bytes are what was asked for, not what stays allocated: every contender frees its
//! result before the next call.

use std::hint::black_box;

use mcp_tool::McpTool;
use serde_json::Value;

#[path = "support/contenders.rs"]
mod contenders;
#[path = "../tests/support/counting.rs"]
mod counting;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{
    by_hand, call_result, floor, floor_borrowed, inputs, sanity, with_garde, with_jsonschema,
    with_validator,
};
use workload::BookFlight;

/// Calls per measurement: the counts are the same on every call once warm, but a
/// contender may allocate on some calls only (a cache refilled, a buffer grown).
const CALLS: usize = 1000;

/// Allocations and bytes per call of `f`, each call given its own copy of `args` (made
/// before counting, dropped after), after two calls to warm it.
fn per_call<R>(args: &Value, f: impl Fn(Value) -> R) -> (f64, f64) {
    black_box(f(args.clone()));
    black_box(f(args.clone()));
    let copies: Vec<Value> = (0..CALLS).map(|_| args.clone()).collect();
    let mut results = Vec::with_capacity(CALLS);
    let (n0, b0) = counting::counts();
    for copy in copies {
        results.push(black_box(f(copy)));
    }
    let (n1, b1) = counting::counts();
    drop(results);
    (
        (n1 - n0) as f64 / CALLS as f64,
        (b1 - b0) as f64 / CALLS as f64,
    )
}

type Contender = (&'static str, fn(Value) -> bool);

const CONTENDERS: &[Contender] = &[
    ("floor", |args| floor(args).is_ok()),
    ("floor_borrowed", |args| floor_borrowed(&args).is_ok()),
    ("validator", |args| with_validator::check(args).is_ok()),
    ("garde", |args| with_garde::check(args).is_ok()),
    ("jsonschema", |args| with_jsonschema::check(args).is_ok()),
    ("by_hand (the bound)", |args| by_hand::check(args).is_ok()),
    ("mcp_tool", |args| BookFlight::from_arguments(args).is_ok()),
    ("mcp_tool_result", |args| !call_result(args).is_empty()),
];

fn main() {
    sanity();
    with_jsonschema::warm();
    let inputs = inputs();
    let header: Vec<&str> = inputs.iter().map(|(name, _)| *name).collect();
    println!("allocations per call (bytes asked for), ratio of allocations to the floor's\n");
    println!("| contender | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    let floors: Vec<f64> = inputs
        .iter()
        .map(|(_, args)| per_call(args, |a| floor(a).is_ok()).0)
        .collect();
    for (name, check) in CONTENDERS {
        let cells: Vec<String> = inputs
            .iter()
            .zip(&floors)
            .map(|((_, args), floor)| {
                let (allocations, bytes) = per_call(args, check);
                format!(
                    "{allocations:.0} ({bytes:.0} B, {:.1}x)",
                    allocations / floor
                )
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}
