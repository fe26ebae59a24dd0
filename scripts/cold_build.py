"""The cold release build of adoption_cost.py's lean server against two checkouts, in turn.

python3 scripts/cold_build.py BEFORE_DIR AFTER_DIR ROUNDS

Writes a lean crate for each checkout under <checkout>/target/adoption/lean (with
adoption_cost.py's own write(), the crate depending on that checkout by path), fetches
once, then each round deletes each crate's target directory and times `cargo build
--release`, the order swapped every other round so that the machine's load falls on both
alike. Prints each build's wall time and the load average before and after it.
"""
import importlib.util, os, shutil, subprocess, sys, time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "adoption_cost.py"

def lean_crate(root: Path) -> Path:
    spec = importlib.util.spec_from_file_location("adoption_cost", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.ROOT = root
    mod.OUT = root / "target" / "adoption"
    crate = mod.write("lean")
    subprocess.run(["cargo", "fetch", "--quiet"], cwd=crate, check=True)
    return crate

def load() -> str:
    return open("/proc/loadavg").read().split()[0]

def main():
    before, after, rounds = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    crates = {"before": lean_crate(before), "after": lean_crate(after)}
    env = dict(os.environ, CARGO_INCREMENTAL="0")
    for r in range(rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for name in order:
            crate = crates[name]
            shutil.rmtree(crate / "target", ignore_errors=True)
            l0 = load()
            t = time.monotonic()
            subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, env=env, check=True)
            wall = time.monotonic() - t
            print(f"round {r+1} {name}: {wall:.1f} s (load {l0} -> {load()})", flush=True)
    for crate in crates.values():
        shutil.rmtree(crate / "target", ignore_errors=True)

main()
