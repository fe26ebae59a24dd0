#!/usr/bin/env python3
"""Every crate a user's build of mcp-tool compiles (every feature on, normal and build
dependencies, as the lock file resolves them) declares a rust-version no newer than the
workspace's, or none.

This is the half of the minimum supported Rust version that a newer toolchain can check:
a dependency that needs a newer compiler than ours would break a user on our MSRV. The
other half, that our own code compiles on that version, only that compiler can say
(`.ci/run` builds with it when the toolchain can be installed); clippy's
`incompatible_msrv` lint, on in CI, catches our use of a standard library API
stabilised after it.

Run from the repository's root: python3 scripts/msrv_dependencies.py
"""
import json
import subprocess
import sys


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    metadata = json.loads(
        subprocess.check_output(
            ["cargo", "metadata", "--format-version", "1", "--all-features", "--locked"]
        )
    )
    packages = {package["id"]: package for package in metadata["packages"]}
    nodes = {node["id"]: node for node in metadata["resolve"]["nodes"]}
    roots = [
        package["id"]
        for package in metadata["packages"]
        if package["name"] in ("mcp-tool", "mcp-tool-runtime", "mcp-tool-derive")
        and package["source"] is None
    ]
    ours = version(packages[roots[0]]["rust_version"])
    seen, stack = set(roots), list(roots)
    while stack:
        for dep in nodes[stack.pop()]["deps"]:
            kinds = {kind["kind"] for kind in dep["dep_kinds"]}
            if kinds & {None, "build"} and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                stack.append(dep["pkg"])
    newer = sorted(
        f'{packages[id]["name"]} {packages[id]["version"]} needs Rust {packages[id]["rust_version"]}'
        for id in seen
        if packages[id]["rust_version"]
        and version(packages[id]["rust_version"]) > ours
    )
    print(f"{len(seen)} crates built for a user, rust-version {packages[roots[0]]['rust_version']}")
    for line in newer:
        print(line, file=sys.stderr)
    if newer:
        print("these dependencies need a newer Rust than the workspace's rust-version", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
