"""`horizon halt` end to end: output formats (snapshots), exit codes, state files, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

LOG = "\n".join(
    [
        '{"type":"observe","progress":"a"}',
        '{"type":"before_model"}',
        "",
        '{"type":"observe","progress":"a","failure":"E1","note":"kept"}',
        '{"type":"observe","progress":"a","failure":"E1"}',
        '{"type":"observe","progress":"a","failure":"E1"}',
        '{"type":"before_model"}',
        '{"type":"before_model"}',
        '{"type":"turn_boundary"}',
        '{"type":"observe","failure":null}',
    ]
) + "\n"

CLEAN = '{"type":"observe","progress":"a"}\n{"type":"before_model"}\n'


@pytest.fixture
def halt(monkeypatch, tmp_path, run_horizon):
    """Run `horizon halt` from an empty directory with no discovered or environment policy.

    Library errors are mapped the way ``horizon_cli.cli.main`` maps them, so
    error messages and exit codes can be asserted in-process.
    """
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HORIZON_POLICY", raising=False)

    def run(*args, input=None):
        return run_horizon(["halt", "--no-config", *args], input=input)

    return run


def test_text_summary_halted(halt, snapshot):
    code, out, _ = halt(input=LOG)
    assert (code, out) == snapshot


def test_text_summary_clean(halt, snapshot):
    code, out, _ = halt(input=CLEAN)
    assert (code, out) == snapshot


def test_json_summary(halt, snapshot):
    code, out, _ = halt("--format", "json", input=LOG)
    assert (code, out) == snapshot
    assert json.loads(out)["first_halt"] == {"line": 7, "reason": "no-progress", "iteration": 4}


def test_jsonl_trace_keeps_unknown_fields(halt, snapshot):
    code, out, _ = halt("--format", "jsonl", input=LOG)
    assert (code, out) == snapshot
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    assert records[2]["action"]["note"] == "kept"


def test_flags_override_policy(halt, tmp_path, snapshot):
    (tmp_path / "p.toml").write_text("[halt]\nno_progress_limit = 9\nrepeatedFailureLimit = 2\n")
    code, out, _ = halt("--policy", "p.toml", input=LOG)
    assert (code, out) == snapshot  # repeated-failure from the camelCase key
    code, out, _ = halt("--policy", "p.toml", "--repeated-failure-limit", "5", "--max-iterations", "2", input=LOG)
    assert code == 1 and "iteration-budget" in out


def test_stop_at_halt(halt, snapshot):
    code, out, _ = halt("--stop-at-halt", "--format", "jsonl", input=LOG)
    assert (code, out) == snapshot
    assert json.loads(out.splitlines()[-1])["halt"] is True


def test_sticky_and_stuck_flags(halt, snapshot):
    log = '{"type":"observe","action":"ls","observation":"x"}\n' * 4 + '{"type":"before_model"}\n' * 2
    code, out, _ = halt("--stuck", "--delivery", "sticky", "--format", "json", input=log)
    assert (code, out) == snapshot


def test_state_out_then_in_resumes_exactly(halt, tmp_path):
    lines = LOG.splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:5]))
    (tmp_path / "b.jsonl").write_text("".join(lines[5:]))
    (tmp_path / "all.jsonl").write_text(LOG)
    assert halt("--state-out", "s.json", "a.jsonl")[0] == 0
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["stateHash"].startswith("sha256:") and saved["actionCount"] == 4
    code, out, _ = halt("--state-in", "s.json", "--state-out", "s2.json", "--format", "json", "b.jsonl")
    _, whole, _ = halt("--state-out", "s3.json", "--format", "json", "all.jsonl")
    assert code == 1
    assert json.loads(out)["state"] == json.loads(whole)["state"]
    second, third = (json.loads((tmp_path / n).read_text()) for n in ("s2.json", "s3.json"))
    assert second == third  # same state, same count, same hash


def test_tampered_state_is_refused_unless_trusted(halt, tmp_path):
    (tmp_path / "a.jsonl").write_text(CLEAN)
    halt("--state-out", "s.json", "a.jsonl")
    doc = json.loads((tmp_path / "s.json").read_text())
    doc["halt"]["iteration"] = 49
    (tmp_path / "s.json").write_text(json.dumps(doc))
    code, out, err = halt("--state-in", "s.json", "a.jsonl")
    assert code == 2 and out == ""
    assert "s.json: state hash mismatch" in err
    code, out, _ = halt("--state-in", "s.json", "--trust-state", "a.jsonl")
    assert code == 1 and "iteration-budget" in out


def test_unsealed_or_broken_state_file(halt, tmp_path):
    (tmp_path / "a.jsonl").write_text(CLEAN)
    (tmp_path / "plain.json").write_text('{"halt": {"iteration": 3}}')
    code, _, err = halt("--state-in", "plain.json", "a.jsonl")
    assert code == 2 and "no stateHash" in err
    assert halt("--state-in", "plain.json", "--trust-state", "a.jsonl")[0] == 0
    (tmp_path / "bad.json").write_text('{"halt": {"pending": "bored"}}')
    code, _, err = halt("--state-in", "bad.json", "--trust-state", "a.jsonl")
    assert code == 2 and "bad.json: halt state: pending" in err
    code, _, err = halt("--state-in", "missing.json", "a.jsonl")
    assert code == 2 and "missing.json: cannot read state" in err


def test_state_in_accepts_an_agent_checkpoint(halt):
    from conftest import shared_path

    checkpoint = shared_path("conformance", "checkpoints", "valid", "ckpt-000.json")
    code, out, _ = halt("--state-in", str(checkpoint), "--format", "json", input='{"type":"before_model"}\n')
    assert code == 1  # the checkpoint carries a pending no-progress
    assert json.loads(out)["first_halt"]["reason"] == "no-progress"


def test_mismatched_limits_warn_on_resume(halt, tmp_path):
    (tmp_path / "a.jsonl").write_text(CLEAN)
    halt("--state-out", "s.json", "a.jsonl")
    code, _, err = halt("--state-in", "s.json", "--max-iterations", "7", "a.jsonl")
    assert code == 0 and "max_iterations 50 -> 7" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type":"observe"}\n{"type":"stop"}\n', "<stdin>:2: unknown action type 'stop'"),
        ('{"type":"observe"}\n\n{"type":\n', "<stdin>:3: malformed JSON"),
        ("[1, 2]\n", "<stdin>:1: an action must be a JSON object, got an array"),
        ('{"progress":"x"}\n', '<stdin>:1: action has no "type"'),
        ('{"type":"observe","progress":1}\n', '<stdin>:1: observe: "progress" must be a string'),
        ('{"type":"observe"}\n\ufeff{"type":"observe"}\n', "<stdin>:2: malformed JSON: UTF-8 byte order mark"),
    ],
)
def test_bad_input_is_file_line_and_exit_2(halt, text, message):
    code, out, err = halt(input=text)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_usage_errors(halt, tmp_path):
    code, _, err = halt("missing.jsonl")
    assert code == 2 and "missing.jsonl: cannot read" in err
    code, _, err = halt("--transcript", "t.jsonl", "log.jsonl")
    assert code == 2 and "either FILE or --transcript" in err
    (tmp_path / "p.toml").write_text("[halt]\nmax_iterations = 9\nmaxIterations = 7\n")
    code, _, err = halt("--policy", "p.toml", input=CLEAN)
    assert code == 2 and "disagree" in err


def test_help_documents_exit_codes(halt):
    code, out, _ = halt("--help")
    assert code == 0
    assert "Exit codes:" in out and "halted (the run should have been stopped)" in out


def test_halt_never_imports_bashlex(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text(LOG)
    code = (
        "import sys\n"
        "from horizon_cli.cli import main\n"
        "try:\n"
        f"    main(['halt', '--no-config', '--format', 'json', {str(log)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'bashlex' not in sys.modules, 'bashlex imported'\n"
        "assert 'horizon_cli.halt.render' in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_reader_going_away_is_not_reported_as_a_halt(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"type":"observe"}\n{"type":"before_model"}\n' * 50_000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "horizon_cli", "halt", "--no-config", "--max-iterations", "1", "--format", "jsonl", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(b'{"line":1,')
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141  # 128 + SIGPIPE, as shells report it; never 1 ("halted")
    assert proc.stderr.read() == b""


@pytest.mark.parametrize("k", range(len(LOG.splitlines()) + 1))
def test_cli_resume_at_every_split_point_equals_one_run(halt, tmp_path, k):
    """The CLI form of the resume property: files, atomic sealed writes, verification."""
    lines = LOG.splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:k]))
    (tmp_path / "b.jsonl").write_text("".join(lines[k:]))
    (tmp_path / "all.jsonl").write_text(LOG)
    code_a, first, _ = halt("--state-out", "s.json", "--format", "jsonl", "a.jsonl")
    code_b, rest, _ = halt("--state-in", "s.json", "--state-out", "end.json", "--format", "jsonl", "b.jsonl")
    code, whole, _ = halt("--state-out", "whole.json", "--format", "jsonl", "all.jsonl")
    strip = [{key: r[key] for key in ("halt", "reason", "iteration", "state", "action")}
             for r in map(json.loads, (first + rest).splitlines())]
    assert strip == [{key: r[key] for key in ("halt", "reason", "iteration", "state", "action")}
                     for r in map(json.loads, whole.splitlines())]
    assert max(code_a, code_b) == code
    assert (tmp_path / "end.json").read_text() == (tmp_path / "whole.json").read_text()


def test_byte_order_mark_on_line_one_is_accepted(halt):
    code, out, _ = halt("--format", "jsonl", input="\ufeff" + CLEAN)
    assert code == 0
    assert json.loads(out.splitlines()[0])["action"] == {"type": "observe", "progress": "a"}
