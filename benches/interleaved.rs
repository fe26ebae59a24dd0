//! The contenders timed as a server meets them: in turn, in short batches, round after
//! round, so that no contender runs hot in a loop of its own (its branches learned, its
//! allocations recycled) while the others are measured cold, and the machine's drift
//! falls on all alike. Every contender consumes an owned `Value` and returns the same
//! output: for invalid input, its list of (path, message).
//!
//! Three workloads of different shapes: `book_flight` (`tests/support/workload.rs`,
//! eight flat fields), `flight_b` (a required email, `i64` passengers, a pattern beside
//! the date check, longer notes) and `order` (nested objects in a list), each with
//! three inputs (valid, four semantic errors, type errors). Every contender but this
//! crate checks a date with one shared function (`contenders::is_future_date`, the date
//! parsed by hand). `by_hand` is not a contender: the same rules written by hand for
//! exactly these fields, the limit.
//!
//! `cargo bench --bench interleaved` (a workload's or an input's name narrows it);
//! `BENCHMARKS.md` has the tables. Criterion's `benches/contenders.rs` times each
//! contender alone, and there `mcp_tool` need not build the list; this harness is the
//! one the targets are judged by.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_tool::__private::{FastPath, only_off};
use mcp_tool::McpTool;
use serde_json::Value;

#[path = "support/contenders.rs"]
mod contenders;
#[path = "support/shapes.rs"]
mod shapes;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{by_hand, floor, inputs, sanity, with_garde, with_jsonschema, with_validator};
use shapes::{flight_b, order};
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

/// A workload: its name, its three inputs, and its contenders.
type Workload = (
    &'static str,
    [(&'static str, Value); 3],
    &'static [Contender],
);

/// This crate's contender for the tool `T`.
fn mcp_tool_of<T: McpTool>(args: Value) -> usize {
    listed(T::from_arguments(args).map_err(|error| {
        error
            .into_violations()
            .into_iter()
            .map(|v| (v.path, v.message))
            .collect()
    }))
}

fn mcp_tool(args: Value) -> usize {
    mcp_tool_of::<BookFlight>(args)
}

const FLIGHT_B: [Contender; 8] = [
    ("floor", &[], |a| {
        usize::from(serde_json::from_value::<flight_b::Plain>(a).is_err())
    }),
    ("by_hand", &[], |a| listed(flight_b::by_hand::check(a))),
    ("validator", &[], |a| {
        listed(flight_b::with_validator::check(a))
    }),
    ("garde", &[], |a| listed(flight_b::with_garde::check(a))),
    ("jsonschema", &[], |a| {
        listed(flight_b::with_jsonschema::check(a))
    }),
    ("mcp_tool", &[], mcp_tool_of::<flight_b::BookFlightB>),
    (
        "mcp_tool, plain valid walk",
        &[FastPath::ValidWalk],
        mcp_tool_of::<flight_b::BookFlightB>,
    ),
    (
        "mcp_tool (again)",
        &[],
        mcp_tool_of::<flight_b::BookFlightB>,
    ),
];

const ORDER: [Contender; 8] = [
    ("floor", &[], |a| {
        usize::from(serde_json::from_value::<order::Plain>(a).is_err())
    }),
    ("by_hand", &[], |a| listed(order::by_hand::check(a))),
    ("validator", &[], |a| {
        listed(order::with_validator::check(a))
    }),
    ("garde", &[], |a| listed(order::with_garde::check(a))),
    ("jsonschema", &[], |a| {
        listed(order::with_jsonschema::check(a))
    }),
    ("mcp_tool", &[], mcp_tool_of::<order::CreateOrder>),
    (
        "mcp_tool, plain valid walk",
        &[FastPath::ValidWalk],
        mcp_tool_of::<order::CreateOrder>,
    ),
    ("mcp_tool (again)", &[], mcp_tool_of::<order::CreateOrder>),
];

const BOOK_FLIGHT: [Contender; 13] = [
    ("floor", &[], |a| usize::from(floor(a).is_err())),
    ("by_hand", &[], |a| listed(by_hand::check(a))),
    ("validator", &[], |a| listed(with_validator::check(a))),
    ("garde", &[], |a| listed(with_garde::check(a))),
    ("jsonschema", &[], |a| listed(with_jsonschema::check(a))),
    ("mcp_tool", &[], mcp_tool),
    // This crate again with one fast path off, its plain code in its place: what each
    // one earns, measured in the same run as the rest.
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
    (
        "mcp_tool, plain valid walk",
        &[FastPath::ValidWalk],
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
    // `cargo bench` passes `--bench`; a filter word narrows the workloads or inputs.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    sanity();
    shapes_sanity();
    with_jsonschema::warm();
    flight_b::with_jsonschema::warm();
    order::with_jsonschema::warm();
    let workloads: [Workload; 3] = [
        ("book_flight", inputs(), &BOOK_FLIGHT),
        ("flight_b", flight_b::inputs(), &FLIGHT_B),
        ("order", order::inputs(), &ORDER),
    ];
    if let Ok(probe) = std::env::var("PROBE") {
        return probe_one(&workloads, &probe, &filter);
    }
    println!(
        "| workload | input | contender | ns per call (median of {ROUNDS} batches of {BATCH}) | / garde | / jsonschema |"
    );
    println!("|---|---|---|---|---|---|");
    for (workload, inputs, contenders) in workloads {
        for (input, args) in inputs {
            if !filter.is_empty()
                && !filter
                    .iter()
                    .any(|f| *f == workload || input.contains(f.as_str()))
            {
                continue;
            }
            let medians = interleave(contenders, &args);
            let of = |name: &str| medians[contenders.iter().position(|c| c.0 == name).unwrap()];
            let (garde, jsonschema) = (of("garde"), of("jsonschema"));
            for ((name, ..), ns) in contenders.iter().zip(&medians) {
                println!(
                    "| {workload} | {input} | {name} | {ns:.0} | {:.2}x | {:.2}x |",
                    ns / garde,
                    ns / jsonschema
                );
            }
        }
    }
}

/// `PROBE=<workload>/<contender>`: that contender alone on the inputs the filter names,
/// `PROBE_CALLS` times each (20 000 unless set), for counting instructions under
/// callgrind, where the machine's noise does not reach. The copies of the arguments are
/// made before [`probe_calls`], so `--toggle-collect=*probe_calls*` counts the calls
/// alone, as the harness times them.
fn probe_one(workloads: &[Workload], probe: &str, filter: &[String]) {
    let (workload, contender) = probe.split_once('/').expect("PROBE=<workload>/<contender>");
    let (_, inputs, contenders) = workloads
        .iter()
        .find(|w| w.0 == workload)
        .expect("a workload: book_flight, flight_b or order");
    let (_, off, run) = contenders
        .iter()
        .find(|c| c.0 == contender)
        .expect("a contender of that workload");
    let calls: usize = std::env::var("PROBE_CALLS").map_or(20_000, |n| n.parse().expect("a count"));
    only_off(off);
    for (input, args) in inputs {
        if filter.is_empty() || filter.iter().any(|f| input.contains(f.as_str())) {
            probe_calls(*run, std::iter::repeat_n(args, calls).cloned().collect());
        }
    }
}

#[inline(never)]
fn probe_calls(run: fn(Value) -> usize, copies: Vec<Value>) {
    for copy in copies {
        black_box(run(black_box(copy)));
    }
}

/// The median ns per call of each contender on `args`, the contenders taking turns.
fn interleave(contenders: &[Contender], args: &Value) -> Vec<f64> {
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); contenders.len()];
    let mut copies: Vec<Value> = Vec::with_capacity(BATCH);
    let mut order: Vec<usize> = (0..contenders.len()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..ROUNDS {
        shuffle(&mut order, &mut seed);
        for &i in &order {
            let (_, off, run) = contenders[i];
            only_off(off);
            copies.extend(std::iter::repeat_n(args, BATCH).cloned());
            let started = Instant::now();
            for copy in copies.drain(..) {
                black_box(run(black_box(copy)));
            }
            let took: Duration = started.elapsed();
            samples[i].push(took.as_nanos() as f64 / BATCH as f64);
        }
    }
    only_off(&[]);
    samples.iter_mut().map(|s| median(s)).collect()
}

/// Each contender of the other workloads finds what it should: nothing in the valid
/// input, four problems in the second, and in the third one (serde stops at the first
/// type error) or both (the schema, and this crate).
fn shapes_sanity() {
    for (workload, inputs, contenders) in [
        ("flight_b", flight_b::inputs(), &FLIGHT_B),
        ("order", order::inputs(), &ORDER),
    ] {
        for ((input, args), expected) in inputs.into_iter().zip([[0, 0, 0], [4, 4, 4], [1, 2, 2]]) {
            for (name, _, run) in contenders.iter() {
                let found = run(args.clone());
                let want = match *name {
                    "floor" => usize::from(input == "type_errors"),
                    "jsonschema" => expected[1],
                    n if n.starts_with("mcp_tool") => expected[2],
                    _ => expected[0],
                };
                assert_eq!(found, want, "{workload}, {input}, {name}");
            }
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
