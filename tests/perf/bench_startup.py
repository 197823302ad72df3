"""Benchmark cold start: how long `horizon …` takes before it does any work.

Usage: python tests/perf/bench_startup.py [--runs N] [COMMAND ...]

Runs each command N times (default 20) in a fresh interpreter, the way a shell
or pre-commit would, and prints the median, min and max wall time. Also runs
bare `python -c pass` as the floor, and reports whether bashlex (the one
heavy import) was loaded, which it must never be outside `classify`.

Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

DEFAULT_COMMANDS = [
    ["--help"],
    ["halt", "--help"],
    ["compact", "--help"],
    ["verify", "--help"],
    ["rules", "--help"],
    ["policy", "show", "--no-config"],
    ["classify", "--help"],
]

PROBE = (
    "import sys\n"
    "from horizon_cli.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('bashlex' in sys.modules, file=sys.stderr)\n"
)


def time_runs(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return times


def imports_bashlex(args: list[str]) -> bool:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=False)
    lines = proc.stderr.strip().splitlines()
    return bool(lines) and lines[-1] == "True"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("command", nargs="*", help="one horizon command line to time instead of the defaults")
    args = parser.parse_args()
    commands = [args.command] if args.command else DEFAULT_COMMANDS

    floor = statistics.median(time_runs([sys.executable, "-c", "pass"], args.runs))
    print(f"python {sys.version.split()[0]}, {args.runs} runs each, wall time in ms")
    print(f"{'command':<34} {'median':>7} {'min':>7} {'max':>7}  bashlex")
    print(f"{'python -c pass (floor)':<34} {floor:7.1f}")
    for command in commands:
        times = time_runs([sys.executable, "-m", "horizon_cli", *command], args.runs)
        label = "horizon " + " ".join(command)
        loaded = "loaded" if imports_bashlex(command) else "no"
        print(f"{label:<34} {statistics.median(times):7.1f} {min(times):7.1f} {max(times):7.1f}  {loaded}")


if __name__ == "__main__":
    main()
