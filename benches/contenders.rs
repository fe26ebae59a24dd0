//! What checking a tool call's arguments costs, against what a server author would write
//! otherwise. `cargo bench --bench contenders`; `BENCHMARKS.md` has the table and how
//! it is made.
//!
//! Workload: `book_flight` with eight fields, received as a `serde_json::Value` that the
//! server owns, as an MCP server does (rmcp hands a tool its arguments by value); three
//! inputs (valid, four semantic errors, two type errors). Every contender is given its
//! own copy of the value, made outside the timed region, and consumes it. Every one
//! produces, for invalid input, a list of (field path, message), so the work is
//! comparable:
//!
//! 1. `floor`: serde alone (`serde_json::from_value`), which checks nothing;
//! 2. `validator`: serde, then `validator`'s derive, a custom function for the date and
//!    the whitelist;
//! 3. `garde`: serde, then `garde`'s derive, likewise;
//! 4. `jsonschema`: the `jsonschema` crate on the value against the same schema,
//!    compiled once, the date by hand, then serde;
//! 5. `mcp_tool`: `from_arguments`; and `mcp_tool_result`: the whole `tools/call` path
//!    through a `Toolbox` to the serialized `CallToolResult`.
//!
//! And two rows that are not contenders: `by_hand`, the bound (the same rules written by
//! hand for these eight fields, after serde), and `floor_borrowed`, serde reading a
//! `&Value` (copying each string), which shows what borrowing the arguments costs. The
//! contenders are in `support/contenders.rs`, shared with `benches/memory.rs`, which
//! counts their allocations.
//!
//! "Today" is read from the system clock on every call by every contender.

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_tool::McpTool;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/contenders.rs"]
mod contenders;
#[path = "../tests/support/workload.rs"]
mod workload;

use contenders::{
    Booking, TOOLS, by_hand, call_result, floor, floor_borrowed, inputs, sanity, with_garde,
    with_jsonschema, with_validator,
};
use workload::BookFlight;

/// Times `consume` on a fresh copy of `args` per iteration, the copy made (and the
/// copies criterion keeps dropped) outside the timed region.
fn owned<R>(b: &mut criterion::Bencher<'_>, args: &Value, consume: impl Fn(Value) -> R) {
    b.iter_batched(
        || args.clone(),
        |args| consume(black_box(args)),
        BatchSize::SmallInput,
    );
}

fn contenders(c: &mut Criterion) {
    sanity();
    with_jsonschema::warm();
    for (name, args) in inputs() {
        let mut group = c.benchmark_group(format!("book_flight/{name}"));
        group.bench_function("floor", |b| owned(b, &args, |a| floor(a).is_ok()));
        group.bench_function("floor_borrowed", |b| {
            b.iter(|| floor_borrowed(black_box(&args)).is_ok())
        });
        group.bench_function("validator", |b| {
            owned(b, &args, |a| with_validator::check(a).is_ok())
        });
        group.bench_function("garde", |b| {
            owned(b, &args, |a| with_garde::check(a).is_ok())
        });
        group.bench_function("jsonschema", |b| {
            owned(b, &args, |a| with_jsonschema::check(a).is_ok())
        });
        group.bench_function("by_hand", |b| {
            owned(b, &args, |a| by_hand::check(a).is_ok())
        });
        group.bench_function("mcp_tool", |b| {
            owned(b, &args, |a| BookFlight::from_arguments(a).is_ok())
        });
        group.bench_function("mcp_tool_result", |b| {
            owned(b, &args, |a| call_result(a).len())
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
            owned(b, v, |a| Bulk::from_arguments(a).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("invalid_items", n), &invalid, |b, v| {
            owned(b, v, |a| Bulk::from_arguments(a).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("unknown_names", n), &unknown, |b, v| {
            owned(b, v, |a| Bulk::from_arguments(a).is_ok())
        });
        group.bench_with_input(BenchmarkId::new("floor_valid_items", n), &valid, |b, v| {
            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Ids {
                ids: Vec<String>,
            }
            owned(b, v, |a| serde_json::from_value::<Ids>(a).is_ok())
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
        group.bench_function(name, |b| owned(b, args, |a| call_result(a).len()));
    }
    group.finish();
}

criterion_group!(benches, contenders, schema, clock, scaling, hostile);
criterion_main!(benches);
