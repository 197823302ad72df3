"""Faults: when the facts flush or the summarizer fails, compact exits 3 with a
message and leaves the output, the input (and a pre-existing -o file) byte-identical."""

from __future__ import annotations

import io
import os
import sys
import time

import pytest

from horizon_cli.compaction import Options, compact
from horizon_cli.errors import FlushError
from test_compact import FORCED, OWN, hz  # noqa: F401 - hz is a fixture

PY = sys.executable
SOURCE = OWN / "horizon-events.jsonl"
OLD_OUTPUT = b"previous output, must survive\n"


@pytest.fixture
def files(tmp_path):
    src = tmp_path / "t.jsonl"
    src.write_bytes(SOURCE.read_bytes())
    out = tmp_path / "out.jsonl"
    out.write_bytes(OLD_OUTPUT)
    return src, out


def assert_untouched(src, out, tmp_path, before=None):
    assert src.read_bytes() == SOURCE.read_bytes()
    assert out.read_bytes() == OLD_OUTPUT
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


FAILING = {
    "non-zero exit": (f"{PY} -c 'import sys; sys.stderr.write(\"model overloaded\"); sys.exit(4)'",
                      "summarizer exited with status 4: ", "model overloaded"),
    "empty summary": (f"{PY} -c 'print(\"   \")'", "summarizer produced an empty summary", ""),
    "not found": ("no-such-summarizer-binary-hz", "summarizer exited with status 127", ""),
}


@pytest.mark.parametrize("case", sorted(FAILING))
@pytest.mark.parametrize("mode", ["-o", "--in-place", "stdout"])
def test_failing_summarizer_changes_nothing(hz, files, tmp_path, case, mode):
    src, out = files
    command, message, detail = FAILING[case]
    target = {"-o": ["-o", out], "--in-place": ["--in-place"], "stdout": []}[mode]
    code, stdout, err = hz(*FORCED, "--summarizer", command, *target, src)
    assert code == 3 and stdout == ""
    assert message in err and detail in err
    assert "REFERENCE ONLY" not in err  # an error is never turned into a summary
    assert_untouched(src, out, tmp_path)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to see process states")
def test_hanging_summarizer_is_killed_with_its_children(hz, files, tmp_path):
    src, out = files
    pidfile = tmp_path / "child.pid"
    command = f"sh -c 'sleep 30 & echo $! > {pidfile}; wait'"
    started = time.monotonic()
    code, stdout, err = hz(*FORCED, "--summarizer", command, "--summarizer-timeout", "0.5", "-o", out, src)
    assert code == 3 and "timed out after 0.5s" in err and stdout == ""
    assert time.monotonic() - started < 10
    assert_untouched(src, out, tmp_path)
    child = int(pidfile.read_text())
    time.sleep(0.2)
    assert not alive(child)  # the whole process group is gone, not just the shell


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting for a reaper)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_facts_file_in_missing_directory(hz, files, tmp_path):
    src, out = files
    code, stdout, err = hz(*FORCED, "--facts-out", tmp_path / "no" / "facts.jsonl", "-o", out, src)
    assert code == 3 and "cannot write facts file: No such file or directory" in err
    assert_untouched(src, out, tmp_path)


def test_facts_file_is_a_directory(hz, files, tmp_path):
    src, out = files
    (tmp_path / "d").mkdir()
    code, _, err = hz(*FORCED, "--facts-out", tmp_path / "d", "--in-place", src)
    assert code == 3 and "facts file" in err
    assert_untouched(src, out, tmp_path)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_disk_full_while_flushing(hz, files, tmp_path):
    src, out = files
    code, stdout, err = hz(*FORCED, "--facts-out", "/dev/full", "-o", out, src)
    assert code == 3 and "No space left on device" in err and stdout == ""
    assert_untouched(src, out, tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_facts_file(hz, files, tmp_path):
    src, out = files
    facts = tmp_path / "facts.jsonl"
    facts.write_bytes(b"")
    facts.chmod(0o444)
    code, _, err = hz(*FORCED, "--facts-out", facts, "-o", out, src)
    assert code == 3 and "Permission denied" in err
    assert_untouched(src, out, tmp_path)


def test_not_a_facts_file(hz, files, tmp_path):
    src, out = files
    facts = tmp_path / "facts.jsonl"
    facts.write_bytes(b'{"fact": "x", "kind": "path"}\nnot json\n')
    code, _, err = hz(*FORCED, "--facts-out", facts, "-o", out, src)
    assert code == 3 and f"{facts}:2: not a horizon facts file" in err
    assert facts.read_bytes() == b'{"fact": "x", "kind": "path"}\nnot json\n'
    assert_untouched(src, out, tmp_path)


def test_extractor_failure_writes_nothing(tmp_path):
    facts = tmp_path / "facts.jsonl"

    def broken(event):
        raise RuntimeError("regex engine exploded")

    output = io.BytesIO()
    with pytest.raises(FlushError, match=r"t.jsonl:\d+: fact extraction failed: RuntimeError: regex engine exploded"):
        compact(io.BytesIO(SOURCE.read_bytes()), "t.jsonl", output,
                Options(threshold_tokens=1, keep_recent=2, facts_out=str(facts)), extract=broken)
    assert output.getvalue() == b"" and not facts.exists()


def test_nothing_to_compact_never_touches_facts_or_extractor_failures(hz, tmp_path):
    """Range work runs speculatively; its failures only count when something is compacted."""
    def broken(event):
        raise RuntimeError("boom")

    data = SOURCE.read_bytes()
    output = io.BytesIO()
    result = compact(io.BytesIO(data), "t.jsonl", output, Options(threshold_tokens=10**6, keep_recent=0,
                     facts_out=str(tmp_path)), extract=broken)
    assert output.getvalue() == data and not result.compacted
    code, out, _ = hz("--facts-out", tmp_path, SOURCE)  # a directory: unusable, but not needed
    assert code == 0 and out.encode() == data


def test_flush_happens_before_the_summarizer_runs(hz, files, tmp_path):
    """The order invariant: the facts are durable when the summarizer starts."""
    src, out = files
    facts = tmp_path / "facts.jsonl"
    probe = tmp_path / "seen.txt"
    command = f"{PY} -c 'import shutil; shutil.copy(\"{facts}\", \"{probe}\"); print(\"summary\")'"
    code, _, err = hz(*FORCED, "--facts-out", facts, "--summarizer", command, "-o", out, src)
    assert code == 0, err
    assert probe.read_bytes() == facts.read_bytes() != b""


def test_second_run_adds_no_facts(hz, files, tmp_path):
    src, out = files
    facts = tmp_path / "facts.jsonl"
    assert hz(*FORCED, "--facts-out", facts, "-o", out, src)[0] == 0
    first = facts.read_bytes()
    code, _, err = hz(*FORCED, "--facts-out", facts, "--stats", src)
    assert code == 0 and "0 facts flushed (8 found)" in err
    assert facts.read_bytes() == first and first.count(b"\n") == 8


def test_main_maps_flush_error_to_exit_3(tmp_path):
    import subprocess

    src = tmp_path / "t.jsonl"
    src.write_bytes(SOURCE.read_bytes())
    proc = subprocess.run([PY, "-m", "horizon_cli", "compact", "--no-config", *FORCED, "--summarizer", "false", str(src)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr == "horizon: error: summarizer exited with status 1: false\n"
