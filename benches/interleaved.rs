//! The contenders timed as a server meets them: in turn, in short batches, round after
//! round, so that no contender runs hot in a loop of its own (its branches learned, its
//! allocations recycled) while the others are measured cold, and the machine's drift
//! falls on all alike. Every contender consumes an owned `Value` and returns the same
//! output: for invalid input, its list of (path, message).
//!
//! `cargo bench --bench interleaved`; `BENCHMARKS.md` has the table. Criterion's
//! `benches/contenders.rs` times each contender alone, and there `mcp_tool` need not
//! build the list; this harness is the one the targets are judged by.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_tool::__private::{FastPath, only_off};
use mcp_tool::McpTool;
use serde_json::Value;

#[path = "support/contenders.rs"]
mod contenders;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{by_hand, floor, inputs, sanity, with_garde, with_jsonschema, with_validator};
use workload::BookFlight;

/// A contender: its name, the fast paths turned off while it runs, and the arguments
/// in, the number of (path, message) pairs it returned out (0 for valid arguments), the
/// list itself built and dropped inside.
type Contender = (&'static str, &'static [FastPath], fn(Value) -> usize);

fn listed<T>(result: Result<T, Vec<(String, String)>>) -> usize {
    match result {
        Ok(_) => 0,
        Err(list) => black_box(list).len(),
    }
}

fn mcp_tool(args: Value) -> usize {
    listed(BookFlight::from_arguments(args).map_err(|error| {
        error
            .into_violations()
            .into_iter()
            .map(|v| (v.path, v.message))
            .collect()
    }))
}

const CONTENDERS: [Contender; 13] = [
    ("floor", &[], |a| usize::from(floor(a).is_err())),
    ("by_hand", &[], |a| listed(by_hand::check(a))),
    ("validator", &[], |a| listed(with_validator::check(a))),
    ("garde", &[], |a| listed(with_garde::check(a))),
    ("jsonschema", &[], |a| listed(with_jsonschema::check(a))),
    ("mcp_tool", &[], mcp_tool),
    // This crate again with one fast path off, its plain code in its place: what each
    // one earns, measured in the same run as the rest.
    ("mcp_tool, plain patterns", &[FastPath::Patterns], mcp_tool),
    ("mcp_tool, plain dates", &[FastPath::Dates], mcp_tool),
    ("mcp_tool, plain today", &[FastPath::Today], mcp_tool),
    (
        "mcp_tool, plain suggestions",
        &[FastPath::Suggestions],
        mcp_tool,
    ),
    (
        "mcp_tool, plain field slots",
        &[FastPath::FieldSlots],
        mcp_tool,
    ),
    ("mcp_tool, all plain", &FastPath::ALL, mcp_tool),
    ("mcp_tool (again)", &[], mcp_tool),
];

/// Calls per batch, and rounds: each round times one batch of every contender, in an
/// order shuffled anew each round, so that no contender always follows the same one (a
/// contender after another that ran the same code finds it warm).
const BATCH: usize = 64;
const ROUNDS: usize = 400;

fn main() {
    // `cargo bench` passes `--bench`; a filter word narrows the inputs.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    sanity();
    with_jsonschema::warm();
    println!(
        "| input | contender | ns per call (median of {ROUNDS} batches of {BATCH}) | / garde | / jsonschema |"
    );
    println!("|---|---|---|---|---|");
    for (input, args) in inputs() {
        if !filter.is_empty() && !filter.iter().any(|f| input.contains(f.as_str())) {
            continue;
        }
        let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); CONTENDERS.len()];
        let mut copies: Vec<Value> = Vec::with_capacity(BATCH);
        let mut order: Vec<usize> = (0..CONTENDERS.len()).collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..ROUNDS {
            shuffle(&mut order, &mut seed);
            for &i in &order {
                let (_, off, run) = CONTENDERS[i];
                only_off(off);
                copies.extend(std::iter::repeat_n(&args, BATCH).cloned());
                let started = Instant::now();
                for copy in copies.drain(..) {
                    black_box(run(black_box(copy)));
                }
                let took: Duration = started.elapsed();
                samples[i].push(took.as_nanos() as f64 / BATCH as f64);
            }
        }
        let medians: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        let of = |name: &str| medians[CONTENDERS.iter().position(|c| c.0 == name).unwrap()];
        let (garde, jsonschema) = (of("garde"), of("jsonschema"));
        for ((name, ..), ns) in CONTENDERS.iter().zip(&medians) {
            println!(
                "| {input} | {name} | {ns:.0} | {:.2}x | {:.2}x |",
                ns / garde,
                ns / jsonschema
            );
        }
    }
}

/// Fisher-Yates with xorshift64: the same orders on every run.
fn shuffle(order: &mut [usize], seed: &mut u64) {
    for i in (1..order.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        order.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
