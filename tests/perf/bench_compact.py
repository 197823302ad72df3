"""Benchmark `horizon compact`: MB/s and peak RSS on a generated transcript.

Usage: python tests/perf/bench_compact.py [--mb 200] [--format claude] [--keep FILE]

Generates a transcript of about ``--mb`` megabytes (user questions, assistant
text, tool call/result pairs with realistic outputs, some oversized, some
failing, concrete values sprinkled in), then runs the CLI in a fresh process:

* ``--check`` (the decide pass alone);
* a full compaction with ``--facts-out`` to a file (output to /dev/null);
* the same with ``--append-only``.

For each: wall time and MB/s over the input size, CPU time (user+sys; on a
shared machine wall time also measures the neighbours) and the child's own
peak RSS (its ``VmHWM``; ``ru_maxrss`` would include this parent's RSS). Targets: >= 30 MB/s and peak RSS < 100 MB at 200 MB.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from test_compact_planted import FORMATS, render  # noqa: E402

# Prose without the extractor's keywords; keyword sentences are added at realistic rates below.
WORDS = ("the agent reads a long file and thinks about the next step while the build keeps running "
         "tests pass lint is clean module import looks good so far retry later done with this part").split()


def conversation(rng: random.Random, start: int, turns: int) -> list[tuple]:
    """One block of turns with ids unique across blocks."""
    convo: list[tuple] = [("user", f"Task {start}: update service-{start % 97}.example.com to v{start % 9}.{start % 7}.{start % 5} "
                                  f"and never touch /etc/prod/{start % 13}.conf. " + _words(rng, 40))]
    for n in range(start, start + turns):
        roll = rng.random()
        if roll < 0.45:
            call = f"call-{n}"
            convo.append(("call", call, rng.choice(["Bash", "Read", "Grep"]), {"command": f"pytest -q tests/test_{n % 50}.py", "description": _words(rng, 6)}))
            size = 8000 if rng.random() < 0.05 else rng.randint(40, 400)
            failed = rng.random() < 0.08
            text = (f"Error: test_{n % 50} failed at src/mod_{n % 31}.py:{n % 400}\n" if failed else "") + _words(rng, size)
            convo.append(("result", call, text, failed))
        elif roll < 0.9:
            text = _words(rng, rng.randint(20, 120))
            if rng.random() < 0.05:
                text += f". Fixed the flaky test by pinning pytest==8.{n % 4}.{n % 3}."
            elif rng.random() < 0.05:
                text += f". We decided to keep the cache in /var/cache/app-{n % 11}."
            convo.append(("assistant", text))
        else:
            convo.append(("user", _words(rng, 15)))
    return convo


def _words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choices(WORDS, k=count))


def generate(path: Path, fmt: str, megabytes: int, seed: int = 1) -> int:
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    written = start = lines = 0
    with open(path, "wb") as handle:
        while written < target:
            convo = conversation(rng, start, 500)
            data = render(fmt, convo, offset=lines)  # ids unique (and one parent chain) across blocks
            lines += len(convo)
            if start:  # one header per file, not per block
                data = data.split(b"\n", 1)[1] if fmt != "adk" else data
            handle.write(data)
            written += len(data)
            start += 500
        handle.flush()
        os.fsync(handle.fileno())  # else the first fsync in a timed run pays for this writeback
    return written


# The child reports its own peak RSS (VmHWM of its own address space): ru_maxrss
# would include this parent's RSS, which the child inherits across fork + exec.
_CHILD = """
import atexit, sys
def _peak():
    try:
        with open("/proc/self/status") as status:
            kb = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.stderr.write(f"\\nbench-peak-kb {kb}\\n")
atexit.register(_peak)
from horizon_cli.cli import main
main(sys.argv[1:])
"""


def run(args: list[str], size: int) -> tuple[float, float, float, float]:
    """Wall seconds, MB/s, CPU seconds (user+sys, this child only via ``wait4``) and peak RSS (MB)."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, "compact", "--no-config", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"compact failed ({code}): {stderr}")
    peak_kb = int(stderr.rsplit("bench-peak-kb ", 1)[1].split()[0])
    return elapsed, size / 1e6 / elapsed, usage.ru_utime + usage.ru_stime, peak_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="transcript size in MB (default 200)")
    parser.add_argument("--format", choices=FORMATS, default="claude")
    parser.add_argument("--keep", metavar="FILE", help="write the generated transcript here and keep it")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(opts.keep) if opts.keep else Path(tmp) / f"bench.{opts.format}.jsonl"
        started = time.perf_counter()
        size = generate(path, opts.format, opts.mb)
        print(f"generated {size / 1e6:.1f} MB of {opts.format} in {time.perf_counter() - started:.1f}s: {path}")
        facts = Path(tmp) / "facts.jsonl"
        print(f"{'run':<28} {'wall s':>7} {'MB/s':>7} {'CPU s':>7} {'MB/s CPU':>9} {'peak RSS MB':>12}")
        started = time.perf_counter()
        with open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass
        elapsed = time.perf_counter() - started
        print(f"{'read only (the I/O floor)':<28} {elapsed:7.2f} {size / 1e6 / elapsed:7.1f}")
        for label, args in (
            ("check (decide only)", ["--check", str(path)]),
            ("compact --facts-out", ["--facts-out", str(facts), str(path)]),
            ("compact --append-only", ["--append-only", str(path)]),
        ):
            elapsed, rate, cpu, peak = run(args, size)
            print(f"{label:<28} {elapsed:7.2f} {rate:7.1f} {cpu:7.2f} {size / 1e6 / cpu:9.1f} {peak:12.1f}")
        lines = sum(1 for _ in open(facts, "rb")) if facts.exists() else 0
        print(f"facts flushed: {lines}")


if __name__ == "__main__":
    main()
