//! A second harness, written as an outsider would: `book_flight` where EVERY contender,
//! this crate included, checks the date with the one shared function
//! (`contenders::is_future_date`, this crate through a `custom` rule), each consuming an
//! owned `Value` and returning its list of (path, message), in short batches taken in
//! turn. `benches/interleaved.rs` gives this crate its own `future_date` rule; here it
//! pays for the date what garde pays, and the two rows of this crate side by side say
//! what the rule itself is worth.
//!
//! `cargo bench --bench shared_date` (an input's name narrows it: `four_errors`). With
//! `PROBE=<contender>` set, it runs only that contender on the inputs chosen, 20 000
//! calls, for a profiler (`valgrind --tool=callgrind`).

use std::hint::black_box;
use std::time::Instant;

use mcp_tool::{Invalid, McpTool};
use serde::Deserialize;
use serde_json::Value;

#[path = "support/contenders.rs"]
#[allow(dead_code)] // the other contenders are the other harnesses'
mod contenders;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{floor, inputs, is_future_date, with_garde};
use workload::CABINS;

fn future(date: &str) -> Result<(), Invalid> {
    if is_future_date(date) {
        Ok(())
    } else {
        Err(Invalid::new("must be a date in the future, as dd/mm/yyyy"))
    }
}

/// `book_flight` with the date checked by the shared function.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)] // the fields are for serde and the derive
struct BookFlight {
    #[validate(regex = r"^[A-Z]{3}$")]
    origin: String,
    #[validate(regex = r"^[A-Z]{3}$")]
    destination: String,
    #[validate(custom = future)]
    departure_date: String,
    #[validate(enum = CABINS)]
    cabin: String,
    #[validate(range(min = 1, max = 9))]
    passengers: u8,
    #[validate(email)]
    email: Option<String>,
    #[validate(length(max = 500))]
    notes: Option<String>,
    #[validate(length(max = 9), items(regex = r"^[A-Z]{2}[0-9]{6}$"))]
    loyalty_ids: Option<Vec<String>>,
}

fn listed<T>(result: Result<T, Vec<(String, String)>>) -> usize {
    result.map_or_else(|list| black_box(list).len(), |_| 0)
}

fn mcp_tool_of<T: McpTool>(args: Value) -> usize {
    listed(T::from_arguments(args).map_err(|error| {
        let violations = error.into_violations().into_iter();
        violations.map(|v| (v.path, v.message)).collect()
    }))
}

type Contender = (&'static str, fn(Value) -> usize);

const CONTENDERS: [Contender; 4] = [
    ("floor", |a| usize::from(floor(a).is_err())),
    ("garde", |a| listed(with_garde::check(a))),
    ("mcp_tool, shared date", mcp_tool_of::<BookFlight>),
    (
        "mcp_tool, own date rule",
        mcp_tool_of::<workload::BookFlight>,
    ),
];

const BATCH: usize = 32;
const ROUNDS: usize = 600;

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for ((_, args), want) in inputs().into_iter().zip([0, 4]) {
        for (name, run) in &CONTENDERS[1..] {
            assert_eq!(run(args.clone()), want, "{name}");
        }
    }
    if let Ok(probe) = std::env::var("PROBE") {
        let (_, run) = CONTENDERS
            .iter()
            .find(|(name, _)| *name == probe)
            .expect("a contender");
        for (input, args) in inputs() {
            if filter.is_empty() || filter.iter().any(|f| input.contains(f.as_str())) {
                for _ in 0..20_000 {
                    black_box(run(black_box(args.clone())));
                }
            }
        }
        return;
    }
    println!(
        "| input | contender | ns per call (median of {ROUNDS} batches of {BATCH}) | / garde |"
    );
    println!("|---|---|---|---|");
    for (input, args) in inputs() {
        if !filter.is_empty() && !filter.iter().any(|f| input.contains(f.as_str())) {
            continue;
        }
        let medians = interleave(&args);
        for ((name, _), ns) in CONTENDERS.iter().zip(&medians) {
            println!("| {input} | {name} | {ns:.0} | {:.2}x |", ns / medians[1]);
        }
    }
}

/// The median ns per call of each contender on `args`, in turn, a new order each round.
fn interleave(args: &Value) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(ROUNDS); CONTENDERS.len()];
    let mut order: Vec<usize> = (0..CONTENDERS.len()).collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..ROUNDS {
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &i in &order {
            let copies: Vec<Value> = vec![args.clone(); BATCH];
            let started = Instant::now();
            for copy in copies {
                black_box(CONTENDERS[i].1(black_box(copy)));
            }
            samples[i].push(started.elapsed().as_nanos() as f64 / BATCH as f64);
        }
    }
    samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect()
}
