"""Benchmark `horizon halt`: actions/s end to end against orjson's bare parse time.

Usage: python tests/perf/bench_halt.py [--actions N] [--repeat R]

Generates a mixed log (60% observe, 35% before_model, 5% turn_boundary) and
an observe-only log, then reports for each:

* orjson alone: reading the lines and ``orjson.loads`` on each (the floor);
* the library driver (``horizon_cli.halt.replay.replay``), in process;
* the CLI end to end in a fresh process (start-up included), summary and
  ``--format jsonl`` (written to /dev/null);
* peak RSS of the CLI on a tenth of the log and on the whole log, to show
  memory does not grow with the log.

Wall and CPU time are both shown: on a shared machine CPU time (the child's
own rusage for the CLI) is the steadier figure. The ratio is CPU time over
orjson's.

Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

CHILD = """
import resource, sys
from horizon_cli.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, file=sys.stderr)
"""


def generate(path: Path, count: int, observe_only: bool, seed: int = 7) -> None:
    rng = random.Random(seed)
    failures = [None, "E1", "E2"]
    with open(path, "wb") as handle:
        for _ in range(count):
            roll = 0.0 if observe_only else rng.random()
            if roll < 0.6:
                action = {"type": "observe", "progress": f"p{rng.randrange(8)}", "failure": rng.choice(failures)}
            elif roll < 0.95:
                action = {"type": "before_model"}
            else:
                action = {"type": "turn_boundary"}
            handle.write(orjson.dumps(action) + b"\n")


def best_of(repeat: int, func) -> tuple[float, float]:
    """Best (wall, CPU) seconds over ``repeat`` runs. ``func`` may return its own CPU time
    (a child process); otherwise this process's CPU time is measured."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        child_cpu = func()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        runs.append((wall, child_cpu if isinstance(child_cpu, float) else cpu))
    return min(w for w, _ in runs), min(c for _, c in runs)


def orjson_only(path: Path) -> None:
    loads = orjson.loads
    with open(path, "rb") as handle:
        for line in handle:
            loads(line)


def library(path: Path) -> None:
    from horizon_cli.halt import HaltConfig
    from horizon_cli.halt.replay import replay

    with open(path, "rb") as handle:
        replay(handle, str(path), HaltConfig())


def cli(path: Path, *extra: str) -> float:
    """Run the CLI in a fresh process; returns its CPU seconds."""
    return _child(path, *extra)[1]


def peak_rss(path: Path, *extra: str) -> int:
    """Peak RSS in KiB of the CLI run in a fresh process."""
    return _child(path, *extra)[0]


def _child(path: Path, *extra: str) -> tuple[int, float]:
    with open(os.devnull, "wb") as sink:
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, "halt", "--no-config", *extra, str(path)],
            stdout=sink, stderr=subprocess.PIPE, check=False,
        )
    if proc.returncode != 0:
        raise SystemExit(f"horizon halt failed: {proc.stderr.decode()}")
    rss, cpu = proc.stderr.decode().strip().splitlines()[-1].split()
    return int(rss), float(cpu)


def report(label: str, count: int, times: tuple[float, float], floor: tuple[float, float] | None = None) -> None:
    wall, cpu = times
    extra = f"  {cpu / floor[1]:4.1f}x orjson" if floor else ""
    print(f"  {label:<32} wall {wall:6.2f} s {count / wall:>10,.0f}/s   cpu {cpu:6.2f} s {count / cpu:>10,.0f}/s{extra}")


def bench(path: Path, count: int, repeat: int) -> None:
    floor = best_of(repeat, lambda: orjson_only(path))
    report("orjson alone (read + loads)", count, floor)
    report("library replay (in process)", count, best_of(repeat, lambda: library(path)), floor)
    report("CLI summary (fresh process)", count, best_of(repeat, lambda: cli(path)), floor)
    report("CLI --format jsonl >/dev/null", count, best_of(repeat, lambda: cli(path, "--format", "jsonl")), floor)


def memory(directory: Path, count: int) -> None:
    small = directory / "small.jsonl"
    generate(small, max(count // 10, 1), observe_only=False)
    big = directory / "mixed.jsonl"
    for fmt in ("text", "jsonl"):
        rss_small, rss_big = peak_rss(small, "--format", fmt), peak_rss(big, "--format", fmt)
        print(f"  peak RSS --format {fmt:<5}: {rss_small / 1024:6.1f} MiB at {count // 10:,} actions, "
              f"{rss_big / 1024:6.1f} MiB at {count:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of R runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_halt.") as tmp:
        directory = Path(tmp)
        for name, observe_only in (("mixed", False), ("observe-only", True)):
            path = directory / f"{name}.jsonl"
            generate(path, args.actions, observe_only)
            size = path.stat().st_size / 1e6
            print(f"{name} log: {args.actions:,} actions, {size:.1f} MB (best of {args.repeat})")
            bench(path, args.actions, args.repeat)
        print("memory (flat = independent of log length):")
        memory(directory, args.actions)


if __name__ == "__main__":
    main()
