#!/usr/bin/env python3
"""Prints BENCHMARKS.md's tables from the last `cargo bench --bench contenders` run:
each contender's median, and its ratio to the floor (serde alone) of the same run.

    cargo bench --bench contenders && python3 scripts/bench_table.py
"""

import json
from pathlib import Path

CRITERION = Path(__file__).resolve().parents[1] / "target" / "criterion"
CONTENDERS = [
    "floor",
    "validator",
    "garde",
    "jsonschema",
    "by_hand",
    "mcp_tool",
    "mcp_tool_result",
]
INPUTS = ["valid", "four_errors", "type_errors"]


def median_ns(group, bench):
    estimates = CRITERION / group / bench / "new" / "estimates.json"
    return json.loads(estimates.read_text())["median"]["point_estimate"]


def fmt(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.1f} ns"


def main():
    print("| contender | " + " | ".join(INPUTS) + " |")
    print("|---|" + "---|" * len(INPUTS))
    floors = {i: median_ns(f"book_flight_{i}", "floor") for i in INPUTS}
    for contender in CONTENDERS:
        cells = []
        for i in INPUTS:
            ns = median_ns(f"book_flight_{i}", contender)
            cells.append(f"{fmt(ns)} ({ns / floors[i]:.2f}x)")
        print(f"| {contender} | " + " | ".join(cells) + " |")
    print()
    print("| schema | median |")
    print("|---|---|")
    for bench in ["input_schema_cached", "tools_list_cached", "schemars_schema_for_rebuilt"]:
        print(f"| {bench} | {fmt(median_ns('schema', bench))} |")
    print()
    floor = floors["valid"]
    print("| clock | median | share of the valid floor |")
    print("|---|---|---|")
    for bench in ["system_time_now", "context_today"]:
        ns = median_ns("clock", bench)
        print(f"| {bench} | {fmt(ns)} | {ns / floor:.2f}x |")
    print()
    print("| a copy of the arguments (what a `ToolError` carries) | median | share of mcp_tool |")
    print("|---|---|---|")
    for i in INPUTS[1:]:
        ns = median_ns("parts", f"arguments_copy_{i}")
        share = ns / median_ns(f"book_flight_{i}", "mcp_tool")
        print(f"| {i} | {fmt(ns)} | {share:.0%} |")
    print()
    print("| scaling (per call) | 1 | 100 | 10 000 | ns per item at 10 000 |")
    print("|---|---|---|---|---|")
    for bench in ["floor_valid_items", "valid_items", "invalid_items", "unknown_names"]:
        samples = [median_ns("scaling", f"{bench}/{n}") for n in [1, 100, 10000]]
        print(f"| {bench} | " + " | ".join(fmt(s) for s in samples) + f" | {samples[2] / 10000:.1f} |")


if __name__ == "__main__":
    main()
