"""Benchmark checkpoint verification: MB/s on a large checkpoint next to orjson's bare parse.

Usage: python tests/perf/bench_verify.py [--mb 100] [--repeat 3]

Generates (in a temp dir) a sealed metaharness-shaped checkpoint of about
--mb megabytes, mostly a long transcript with receipts, escapes, non-ASCII
text and floats, pretty-printed with 2-space indents. Reports the best of
--repeat runs for:

* orjson.loads alone (the floor: parsing is unavoidable);
* loads_strict (orjson + duplicate-name bound + unsafe-integer pass);
* canonicalize + sha256 of the parsed document;
* the whole library path, bytes in, record out (check_bytes);
* `horizon verify FILE` end to end in a fresh process, with its time and peak
  RSS next to those of a process that only reads and orjson-parses the file.

Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

WORDS = (
    "the agent ran ls -la and grep -rn TODO src/ then wrote: done; "
    'error: "file not found" at C:\\path\\x \t tab caf\u00e9 \u65e5\u672c\u8a9e \U0001f600 {"json": [1, 2]}'
).split(" ")

# Peak RSS from VmHWM: ru_maxrss would carry the parent's peak across fork+exec.
PEAK = "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0], file=sys.stderr)"
PARSE_ONLY = f"""
import sys, orjson
data = open(sys.argv[1], 'rb').read()
doc = orjson.loads(data)
{PEAK}
"""

CLI = f"""
import sys
from horizon_cli.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
{PEAK}
"""


def generate(path: Path, megabytes: float, seed: int = 11) -> int:
    from horizon_cli.checkpoint import seal_document

    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    transcript, size = [], 0
    while size < target:
        entry = {"role": rng.choice(["model", "tool", "summary"]), "text": " ".join(rng.choices(WORDS, k=rng.randint(20, 300)))}
        if len(transcript) % 3 == 0:
            entry["receipt"] = {
                "stdout": " ".join(rng.choices(WORDS, k=40)),
                "stderr": "",
                "exitCode": rng.randint(0, 2),
                "durationMs": rng.randint(1, 90_000),
                "artifactDigest": "sha256:" + hashlib.sha256(str(size).encode()).hexdigest(),
                "policyReceipt": {"verdict": "allow", "reasons": ["read-only"], "authorized": True,
                                  "approvalRequired": False, "approved": True, "score": rng.random()},
            }
        transcript.append(entry)
        size += len(orjson.dumps(entry)) + 40
    document = {
        "schema": 1,
        "transcript": transcript,
        "halt": {"iteration": len(transcript), "lastProgress": "ls", "staleCount": 0, "lastFailure": None,
                 "failureRepeat": 0, "pending": None},
        "actionCount": len(transcript),
        "workspaceCommit": "0" * 40,
        "evaluationHistory": [rng.random() for _ in range(100)],
        "budget": {"calls": 1e-7, "tokens": 1e21},
        "pendingApprovals": [],
        "archiveBranch": "archive/0",
        "memoryCursor": None,
    }
    path.write_bytes(orjson.dumps(seal_document(document), option=orjson.OPT_INDENT_2))
    return len(transcript)


def best(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def child(script: str, *args: str) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    return elapsed, int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100.0, help="checkpoint size in MB (default 100)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from horizon_cli.checkpoint import canonicalize, loads_strict
    from horizon_cli.checkpoint.check import check_bytes
    from horizon_cli.checkpoint.hashing import body_of

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "checkpoint.json"
        entries = generate(path, args.mb)
        data = path.read_bytes()
        mb = len(data) / 1e6
        print(f"checkpoint: {mb:.1f} MB, {entries} transcript entries (indented JSON)")

        document = orjson.loads(data)
        record = check_bytes(data, "bench")
        assert record.status == "ok", record
        rows = [
            ("orjson.loads alone", best(lambda: orjson.loads(data), args.repeat)),
            ("loads_strict", best(lambda: loads_strict(data, "bench"), args.repeat)),
            ("canonicalize + sha256", best(lambda: hashlib.sha256(canonicalize(body_of(document))).digest(), args.repeat)),
            ("verify (library, bytes in)", best(lambda: check_bytes(data, "bench"), args.repeat)),
        ]
        del document
        for label, seconds in rows:
            print(f"  {label:<28} {seconds:7.3f} s  {mb / seconds:8.1f} MB/s")

        parse_time, parse_rss = min(child(PARSE_ONLY, str(path)) for _ in range(args.repeat))
        cli_time, cli_rss = min(child(CLI, "verify", str(path)) for _ in range(args.repeat))
        print("fresh processes (start-up, file read and first-touch page faults included):")
        print(f"  {'read + orjson.loads':<28} {parse_time:7.3f} s  {mb / parse_time:8.1f} MB/s")
        print(f"  {'horizon verify FILE':<28} {cli_time:7.3f} s  {mb / cli_time:8.1f} MB/s")
        print(f"peak RSS: read + orjson.loads {parse_rss / 1024:.0f} MB; horizon verify {cli_rss / 1024:.0f} MB "
              f"({cli_rss / parse_rss:.2f}x)")


if __name__ == "__main__":
    main()
