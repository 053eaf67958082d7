"""The solver's cost in instructions (valgrind's cachegrind), steadier than time on a busy machine.

Usage: python -m benchmarks.cachegrind_solver          (runs valgrind twice, prints the figures)
       python -m benchmarks.cachegrind_solver --sample [--setup-only]   (what valgrind runs)

The sample is every seventh of bench_solver's 1,000 seeded positions (143 positions, from every
table size), solved tiles first after the initial meld, in one process as the bench does. The
whole run counts Python's start, the imports and drawing the positions too; the same run with
``--setup-only`` does all that but the solves, so the solve part is the difference. Both runs
fix PYTHONHASHSEED so that they count the same work. It measures the solver that loads: the
compiled one when its build is current (``make native``), else RUMMI_PURE_PYTHON=1's.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRIDE = 7  # 1,000 positions -> 143


def sample(setup_only: bool) -> None:
    from benchmarks.bench_solver import POSITIONS, random_position
    from games.engine import native
    from games.engine.solver import solve_ids

    rng = random.Random(20240601)  # bench_solver's positions, drawn in its order
    positions = [
        random_position(rng, rng.randint(0, 80), rng.randint(1, 20)) for _ in range(POSITIONS)
    ]
    chosen = positions[::STRIDE]
    if not setup_only:
        for p in chosen:
            solve_ids(p.rules, p.kinds, p.table, p.rack, True, prefer="tiles")
    print(f"{len(chosen)} positions, {native.kind()} solver, setup only: {setup_only}")


def instructions(setup_only: bool) -> tuple[int, str]:
    """Instructions valgrind counts for one run of the sample, and what the run printed."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "benchmarks.cachegrind_solver", "--sample"]
    if setup_only:
        command.append("--setup-only")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cachegrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
            + command,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr}")
    return int(found.group(1).replace(",", "")), run.stdout.strip()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--sample"]:
        sample("--setup-only" in argv)
        return 0
    whole, said = instructions(False)
    setup, _ = instructions(True)
    print(said)
    print(f"whole run {whole / 1e9:.3f} G instructions ({whole:,})")
    print(f"setup     {setup / 1e9:.3f} G instructions ({setup:,})")
    print(f"solves    {(whole - setup) / 1e9:.3f} G instructions ({whole - setup:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
