"""Speed and verdict distribution of `horizon classify`.

Prints:
- cold start: median wall ms of `echo CMD | horizon classify` (a plain command, which never
  imports bashlex, and one with shell syntax, which does) next to `python -c 'import bashlex'`;
- throughput over ../shared/corpora/nl2bash.cm (12,607 real one-liners): classification with
  the cache off, next to bare `bashlex.parse` over the same lines;
- repeated identical commands through the cache (agents repeat `git status` all day);
- the verdict distribution over the corpus, and the most frequent deciding rules.

Run: python tests/perf/bench_classify.py [--runs N] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = Path(os.environ.get("HORIZON_SHARED", ROOT.parent / "shared")) / "corpora" / "nl2bash.cm"


def median_ms(argv: list[str], stdin: bytes, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def cold_start(runs: int) -> None:
    horizon = shutil.which("horizon", path=str(Path(sys.executable).parent)) or shutil.which("horizon")
    base = [horizon] if horizon else [sys.executable, "-m", "horizon_cli"]
    floor = median_ms([sys.executable, "-c", "import bashlex"], b"", runs)
    python = median_ms([sys.executable, "-c", "pass"], b"", runs)
    plain = median_ms([*base, "classify"], b"ls\n", runs)
    syntax = median_ms([*base, "classify"], b"ls | head -n 5\n", runs)
    print(f"cold start (median of {runs}):")
    print(f"  python -c pass                       {python:7.1f} ms")
    print(f"  python -c 'import bashlex' (floor)   {floor:7.1f} ms")
    print(f"  echo ls | horizon classify           {plain:7.1f} ms  ({plain / floor:.2f}x floor; target <= 1.25x)")
    print(f"  echo 'ls | head' | horizon classify  {syntax:7.1f} ms  ({syntax / floor:.2f}x floor)")


def throughput(commands: list[str]) -> None:
    import bashlex

    from horizon_cli.guard.config import compile_config
    from horizon_cli.guard.engine import Classifier
    from horizon_cli.policy import default_policy

    start = time.perf_counter()
    for command in commands:
        try:
            bashlex.parse(command)
        except Exception:  # noqa: BLE001 - bare parse: failures count as parsed work
            pass
    bare = time.perf_counter() - start
    config = compile_config(default_policy())
    classifier = Classifier(config=_without_cache(config))
    start = time.perf_counter()
    results = [classifier.classify(command) for command in commands]
    full = time.perf_counter() - start
    n = len(commands)
    print(f"throughput over {n} nl2bash one-liners:")
    print(f"  bare bashlex.parse      {n / bare:9,.0f} commands/s")
    print(f"  horizon classify        {n / full:9,.0f} commands/s  ({(full / bare - 1) * 100:+.0f}% time vs bare parse;"
          f" target <= +25%)")
    distribution(results)


def _without_cache(config):
    from dataclasses import replace

    return replace(config, cache_size=0)


def cached(runs: int = 200_000) -> None:
    from horizon_cli.guard.engine import Classifier

    classifier = Classifier()
    commands = ["git status", "ls -la", "git diff --stat", "pytest -q"]
    start = time.perf_counter()
    for i in range(runs):
        classifier.classify(commands[i & 3])
    elapsed = time.perf_counter() - start
    print(f"repeated commands through the cache: {runs / elapsed:,.0f} commands/s (target >= 100,000/s)")


def distribution(results) -> None:
    verdicts = collections.Counter(str(r.verdict) for r in results)
    total = sum(verdicts.values())
    print("verdict distribution:")
    for name in ("allow", "gate", "deny"):
        print(f"  {name:<5} {verdicts[name]:6d}  {verdicts[name] / total:6.1%}")
    rules = collections.Counter(r.decisive.rule for r in results if r.decisive)
    print("  most frequent deciding rules:", ", ".join(f"{rule} {count}" for rule, count in rules.most_common(8)))
    incomplete = sum(1 for r in results if not r.complete)
    print(f"  not fully parsed (fallback scanner): {incomplete} ({incomplete / total:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="cold-start runs per command")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    cold_start(args.runs)
    if args.corpus.exists():
        throughput([line for line in args.corpus.read_text().split("\n") if line.strip()])
    else:
        print(f"corpus not found: {args.corpus} (skipping throughput and distribution)")
    cached()


if __name__ == "__main__":
    main()
