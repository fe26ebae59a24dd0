#!/usr/bin/env python3
"""Prints BENCHMARKS.md's tables from criterion's saved results: each contender's
median, and its ratio to the floor (serde reading the owned arguments) of the same run.

The contenders are timed in runs that alternate with one another: three runs of the
`book_flight` groups, each saved under its own name, then the other groups once.

    for run in run1 run2 run3; do
        cargo bench --bench contenders -- book_flight --save-baseline $run
    done
    cargo bench --bench contenders -- 'schema|clock|scaling|hostile' --save-baseline run1
    python3 scripts/bench_table.py run1 run2 run3

Each row gives the median of the runs' medians, and the median of the runs' ratios to
their own floor (and to the contenders the targets name).
"""

import json
import statistics
import sys
from pathlib import Path

CRITERION = Path(__file__).resolve().parents[1] / "target" / "criterion"
CONTENDERS = [
    "floor",
    "floor_borrowed",
    "validator",
    "garde",
    "jsonschema",
    "by_hand",
    "mcp_tool",
    "mcp_tool_result",
]
INPUTS = ["valid", "four_errors", "type_errors"]


def median_ns(group, bench, run):
    estimates = CRITERION / group / bench / run / "estimates.json"
    if not estimates.exists():
        estimates = CRITERION / group / bench / "new" / "estimates.json"
    return json.loads(estimates.read_text())["median"]["point_estimate"]


def fmt(ns):
    if ns >= 1_000_000:
        return f"{ns / 1_000_000:.2f} ms"
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.1f} ns"


def main(runs):
    group = lambda i: f"book_flight_{i}"
    print(f"Runs: {', '.join(runs)}; median of the runs' medians, (median ratio to the floor)\n")
    print("| contender | " + " | ".join(INPUTS) + " |")
    print("|---|" + "---|" * len(INPUTS))
    for contender in CONTENDERS:
        cells = []
        for i in INPUTS:
            times = [median_ns(group(i), contender, r) for r in runs]
            ratios = [median_ns(group(i), contender, r) / median_ns(group(i), "floor", r) for r in runs]
            cells.append(f"{fmt(statistics.median(times))} ({statistics.median(ratios):.2f}x)")
        print(f"| {contender} | " + " | ".join(cells) + " |")
    print()
    print("| target | each run | median |")
    print("|---|---|---|")
    for i, against in [("valid", "garde"), ("four_errors", "garde"), ("type_errors", "jsonschema")]:
        ratios = [median_ns(group(i), "mcp_tool", r) / median_ns(group(i), against, r) for r in runs]
        each = ", ".join(f"{x:.2f}x" for x in ratios)
        print(f"| {i}: mcp_tool / {against} | {each} | {statistics.median(ratios):.2f}x |")
    print()
    first = runs[0]
    print("| schema | median |")
    print("|---|---|")
    for bench in ["input_schema_cached", "tools_list_cached", "schemars_schema_for_rebuilt"]:
        print(f"| {bench} | {fmt(median_ns('schema', bench, first))} |")
    print()
    floor = median_ns(group("valid"), "floor", first)
    print("| clock | median | share of the valid floor |")
    print("|---|---|---|")
    for bench in ["system_time_now", "context_today"]:
        ns = median_ns("clock", bench, first)
        print(f"| {bench} | {fmt(ns)} | {ns / floor:.2f}x |")
    print()
    print("| scaling (per call) | 1 | 100 | 10 000 | ns per item at 10 000 |")
    print("|---|---|---|---|---|")
    for bench in ["floor_valid_items", "valid_items", "invalid_items", "unknown_names"]:
        samples = [median_ns("scaling", f"{bench}/{n}", first) for n in [1, 100, 10000]]
        print(f"| {bench} | " + " | ".join(fmt(s) for s in samples) + f" | {samples[2] / 10000:.1f} |")
    print()
    print("| hostile | median |")
    print("|---|---|")
    for bench in ["string_10MB", "unknown_names_100000", "items_100000"]:
        print(f"| {bench} | {fmt(median_ns('hostile', bench, first))} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["new"])
