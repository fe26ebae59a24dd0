#!/usr/bin/env python3
"""The code a call runs every time, in 64-byte cache lines, read from a callgrind profile.

An instruction cache holds 32 KiB (512 lines) on the machines this crate is measured
on: a path whose code runs over that evicts itself on every call, and the clock then
says more than the instruction count (BENCHMARKS.md, the invalid path). This counts
the lines whose instructions run at least once a call on average, so that one-time
work (a plan built, a pattern compiled on first use) is left out, and says which
functions they belong to.

    PROBE='mcp_tool, shared date' valgrind --tool=callgrind --dump-instr=yes \\
        --callgrind-out-file=ours.out target/release/deps/shared_date-<hash> four_errors
    python3 scripts/hot_code.py ours.out 20000

The second argument is the number of calls the profile ran (`PROBE` runs 20 000).
"""

import collections
import sys


def name(value, names):
    """A compressed name of callgrind's format: `(id) name` defines, `(id)` refers."""
    value = value.strip()
    if not value.startswith("("):
        return value
    end = value.index(")")
    key, rest = value[: end + 1], value[end + 1 :].strip()
    if rest:
        names[key] = rest
    return names.get(key, key)


def lines(path):
    """Instructions run per cache line, and the function each line belongs to."""
    cost = collections.Counter()
    owner = {}
    names = {}
    function = None
    address = 0
    call_line = False
    with open(path) as profile:
        for line in profile:
            if line.startswith("fn="):
                function = name(line[3:], names)
                continue
            if line.startswith("cfn="):
                name(line[4:], names)
                continue
            if line.startswith("calls="):
                # The next line is the call's site with the callee's inclusive cost.
                call_line = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            fields = line.split()
            position = fields[0]
            try:
                if position[0] == "+":
                    address += int(position[1:], 0)
                elif position[0] == "-":
                    address -= int(position[1:], 0)
                elif position != "*":
                    address = int(position, 0)
            except ValueError:
                continue
            if call_line:
                call_line = False
                continue
            # With --dump-instr=yes the fields are: address, source line, Ir.
            try:
                ir = int(fields[2] if len(fields) >= 3 else fields[1])
            except (IndexError, ValueError):
                continue
            cost[address >> 6] += ir
            owner[address >> 6] = function
    return cost, owner


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cost, owner = lines(sys.argv[1])
    calls = int(sys.argv[2])
    hot = [line for line, ir in cost.items() if ir >= calls]
    print(f"{len(hot)} lines run on every call: {len(hot) * 64 / 1024:.1f} KiB")
    by_function = collections.Counter(owner[line] for line in hot)
    for function, count in by_function.most_common(25):
        print(f"{count:5} {function[:120]}")


if __name__ == "__main__":
    main()
