"""Parse coverage and throughput of horizon's shell parse layer over the NL2Bash corpus.

Prints, for ../shared/corpora/nl2bash.cm (12,607 real one-liners):
- how many commands take the fast path (no shell syntax), parse with bashlex directly,
  parse only after the safe rewrites, or need the fallback scanner;
- throughput of ``parse_script`` against bare ``bashlex.parse`` over the same commands.

Run: python tests/perf/bench_parse.py [--repeat N] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = Path(os.environ.get("HORIZON_SHARED", ROOT.parent / "shared")) / "corpora" / "nl2bash.cm"


def load(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def coverage(commands: list[str]) -> dict[str, int]:
    import bashlex

    from horizon_cli.guard.simple import simple_pipelines
    from horizon_cli.guard.rewrite import rewrite

    counts = {"fast path": 0, "bashlex direct": 0, "after rewrite": 0, "fallback scanner": 0}
    for command in commands:
        if simple_pipelines(command) is not None:
            counts["fast path"] += 1
            continue
        try:
            bashlex.parse(command)
            counts["bashlex direct"] += 1
            continue
        except Exception:  # noqa: BLE001 - bashlex raises assorted errors
            pass
        try:
            bashlex.parse(rewrite(command))
            counts["after rewrite"] += 1
        except Exception:  # noqa: BLE001
            counts["fallback scanner"] += 1
    return counts


def best_of(repeat: int, *fns) -> list[float]:
    """Best wall time of each function; runs are interleaved so machine load hits all alike."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timing runs; the best is reported (default 3)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="use only the first N commands (0: all)")
    args = parser.parse_args()
    if not args.corpus.exists():
        print(f"corpus not found: {args.corpus} (set HORIZON_SHARED)", file=sys.stderr)
        return 2
    commands = load(args.corpus)
    if args.limit:
        commands = commands[: args.limit]
    total = len(commands)

    import bashlex

    from horizon_cli.guard.parse import parse_script

    counts = coverage(commands)
    print(f"corpus: {args.corpus.name}, {total} commands")
    for name, count in counts.items():
        print(f"  {name:<17} {count:>6}  {100 * count / total:6.2f}%")
    incomplete = sum(not parse_script(c).complete for c in commands)
    print(f"  complete=False    {incomplete:>6}  {100 * incomplete / total:6.2f}%")

    def bare() -> None:
        for command in commands:
            try:
                bashlex.parse(command)
            except Exception:  # noqa: BLE001
                pass

    def ours() -> None:
        for command in commands:
            parse_script(command)

    from horizon_cli.guard.simple import simple_pipelines

    hard = [c for c in commands if simple_pipelines(c) is None]

    def bare_hard() -> None:
        for command in hard:
            try:
                bashlex.parse(command)
            except Exception:  # noqa: BLE001
                pass

    def ours_hard() -> None:
        for command in hard:
            parse_script(command)

    t_bare, t_ours, t_bare_hard, t_ours_hard = best_of(args.repeat, bare, ours, bare_hard, ours_hard)
    print(f"all {total} commands:")
    print(f"  bare bashlex.parse: {total / t_bare:8.0f} commands/s ({t_bare:.2f} s)")
    print(f"  parse_script:       {total / t_ours:8.0f} commands/s ({t_ours:.2f} s)")
    print(f"  overhead vs bare bashlex: {100 * (t_ours / t_bare - 1):+.1f}%")
    print(f"the {len(hard)} commands that need bashlex (no fast path):")
    print(f"  bare bashlex.parse: {len(hard) / t_bare_hard:8.0f} commands/s ({t_bare_hard:.2f} s)")
    print(f"  parse_script:       {len(hard) / t_ours_hard:8.0f} commands/s ({t_ours_hard:.2f} s)")
    print(f"  overhead vs bare bashlex: {100 * (t_ours_hard / t_bare_hard - 1):+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
