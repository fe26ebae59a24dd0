//! What checking a tool call's arguments costs, against what a server author would write
//! otherwise. `cargo bench --bench contenders`; `BENCHMARKS.md` has the table and how
//! it is made.
//!
//! Workload: `book_flight` with eight fields, received as a `serde_json::Value`; three
//! inputs (valid, four semantic errors, two type errors). Every contender produces, for
//! invalid input, a list of (field path, message), so the work is comparable:
//!
//! 1. `floor`: serde alone (`Deserialize` from `&Value`), which checks nothing;
//! 2. `validator`: serde, then `validator`'s derive, a custom function for the date and
//!    the whitelist;
//! 3. `garde`: serde, then `garde`'s derive, likewise;
//! 4. `jsonschema`: the `jsonschema` crate on the raw value against the same schema,
//!    compiled once, the date by hand, then serde;
//! 5. `mcp_tool`: `from_arguments`; and `mcp_tool_result`: the whole `tools/call` path
//!    through a `Toolbox` to the serialized `CallToolResult`.
//!
//! And `by_hand`, not a contender but the bound: the same rules written by hand for
//! these eight fields after serde. The contenders are in `support/contenders.rs`,
//! shared with `benches/memory.rs`, which counts their allocations.
//!
//! "Today" is read from the system clock on every call by every contender.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_tool::McpTool;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/contenders.rs"]
mod contenders;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{
    Booking, TOOLS, by_hand, call_result, inputs, sanity, with_garde, with_jsonschema,
    with_validator,
};
use workload::{BookFlight, Plain};

fn contenders(c: &mut Criterion) {
    sanity();
    with_jsonschema::warm();
    for (name, args) in inputs() {
        let mut group = c.benchmark_group(format!("book_flight/{name}"));
        group.bench_function("floor", |b| {
            b.iter(|| Plain::deserialize(black_box(&args)).is_ok())
        });
        group.bench_function("validator", |b| {
            b.iter(|| with_validator::check(black_box(&args)).is_ok())
        });
        group.bench_function("garde", |b| {
            b.iter(|| with_garde::check(black_box(&args)).is_ok())
        });
        group.bench_function("jsonschema", |b| {
            b.iter(|| with_jsonschema::check(black_box(&args)).is_ok())
        });
        group.bench_function("by_hand", |b| {
            b.iter(|| by_hand::check(black_box(&args)).is_ok())
        });
        group.bench_function("mcp_tool", |b| {
            b.iter(|| BookFlight::from_arguments(black_box(&args)).is_ok())
        });
        group.bench_function("mcp_tool_result", |b| {
            b.iter(|| call_result(black_box(&args)).len())
        });
        group.finish();
    }
}

/// `input_schema()` and the `tools/list` entry are built once: later calls are a
/// pointer read. Shown against building the schema anew with schemars.
fn schema(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema");
    BookFlight::input_schema();
    group.bench_function("input_schema_cached", |b| {
        b.iter(|| black_box(BookFlight::input_schema()) as *const Value)
    });
    group.bench_function("tools_list_cached", |b| {
        b.iter(|| black_box(TOOLS.list()).as_ptr())
    });
    group.bench_function("schemars_schema_for_rebuilt", |b| {
        b.iter(|| schemars::schema_for!(Booking))
    });
    group.finish();
}

/// What reading "today" costs, which every contender does on every call: the system
/// clock alone, and this crate's `Context` (the clock, then a per-thread cached date).
fn clock(c: &mut Criterion) {
    let mut group = c.benchmark_group("clock");
    group.bench_function("system_time_now", |b| b.iter(std::time::SystemTime::now));
    group.bench_function("context_today", |b| {
        b.iter(|| mcp_tool::Context::now().today())
    });
    group.finish();
}

/// What carrying the arguments costs: a `ToolError` holds a copy of them (redacted and
/// cut, the contract's `attempted_query`), which `from_arguments` makes for each failed
/// call and its caller drops. Measured as a deep copy and its drop.
fn parts(c: &mut Criterion) {
    let mut group = c.benchmark_group("parts");
    for (name, args) in inputs().into_iter().skip(1) {
        group.bench_function(format!("arguments_copy_{name}"), |b| {
            b.iter(|| black_box(&args).clone())
        });
    }
    group.finish();
}

/// A list field of 1, 100 and 10 000 items, each checked by a regex.
#[derive(McpTool, Deserialize)]
#[allow(dead_code)]
struct Bulk {
    #[validate(items(regex = r"^[A-Z]{2}[0-9]{6}$"))]
    ids: Vec<String>,
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    for n in [1usize, 100, 10_000] {
        let valid = json!({ "ids": vec!["AF123456"; n] });
        let invalid = json!({ "ids": vec!["bad"; n] });
        let unknown = Value::Object((0..n).map(|i| (format!("x{i}"), json!(i))).collect());
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("valid_items", n), &valid, |b, v| {
            b.iter(|| Bulk::from_arguments(black_box(v)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("invalid_items", n), &invalid, |b, v| {
            b.iter(|| Bulk::from_arguments(black_box(v)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("unknown_names", n), &unknown, |b, v| {
            b.iter(|| Bulk::from_arguments(black_box(v)).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("floor_valid_items", n), &valid, |b, v| {
            b.iter(|| {
                #[derive(Deserialize)]
                #[allow(dead_code)]
                struct Ids {
                    ids: Vec<String>,
                }
                Ids::deserialize(black_box(v)).is_ok()
            })
        });
    }
    group.finish();
}

/// The worst inputs of `tests/robustness.rs`, timed: how long a hostile call takes to
/// be refused, whole `tools/call` path included.
fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    let valid = inputs()[0].1.clone();
    let mut huge_string = valid.clone();
    huge_string["origin"] = json!("O".repeat(10_000_000));
    let mut names = valid.as_object().unwrap().clone();
    for i in 0..100_000 {
        names.insert(format!("extra_{i}"), json!(i));
    }
    let many_names = Value::Object(names);
    let mut many_items = valid.clone();
    many_items["loyalty_ids"] = Value::Array(vec![json!("bad"); 100_000]);
    for (name, args) in [
        ("string_10MB", &huge_string),
        ("unknown_names_100000", &many_names),
        ("items_100000", &many_items),
    ] {
        group.bench_function(name, |b| b.iter(|| call_result(black_box(args)).len()));
    }
    group.finish();
}

criterion_group!(benches, contenders, schema, clock, parts, scaling, hostile);
criterion_main!(benches);
