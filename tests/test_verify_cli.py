"""`horizon verify`: output in every format, exit codes, errors, --jsonl, --schema."""

from __future__ import annotations

import hashlib
import json
import shutil

import jsonschema
import orjson
import pytest

from conftest import shared_path
from horizon_cli.checkpoint import canonicalize, seal_document

RECORD_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["path", "line", "status", "expected", "actual", "hints", "error", "schema_errors"],
    "properties": {
        "path": {"type": "string"},
        "line": {"type": ["integer", "null"]},
        "status": {"enum": ["ok", "mismatch", "error"]},
        "expected": {"type": ["string", "null"]},
        "actual": {"type": ["string", "null"], "pattern": "^sha256:[0-9a-f]{64}$"},
        "hints": {"type": "array", "items": {"type": "string"}},
        "error": {"type": ["string", "null"]},
        "schema_errors": {"type": "array", "items": {"type": "string"}},
    },
}

GOOD = seal_document({"schema": 1, "note": "caf\u00e9", "n": [1e21, 0.5]})
HARNESS = {
    "schema": 1,
    "transcript": [{"role": "model", "text": "ls"}],
    "halt": {"iteration": 1, "lastProgress": None, "staleCount": 0, "lastFailure": None, "failureRepeat": 0, "pending": None},
    "actionCount": 1,
    "workspaceCommit": None,
    "evaluationHistory": [],
    "budget": {},
    "pendingApprovals": [],
    "archiveBranch": None,
    "memoryCursor": None,
}


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A cwd with short, stable file names (snapshots must not hold machine paths)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.json").write_bytes(orjson.dumps(GOOD, option=orjson.OPT_INDENT_2))
    (tmp_path / "edited.json").write_bytes(orjson.dumps({**GOOD, "note": "cafe"}))
    body = {k: v for k, v in GOOD.items() if k != "stateHash"}
    python_hash = "sha256:" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    (tmp_path / "python.json").write_bytes(orjson.dumps({**body, "stateHash": python_hash}))
    (tmp_path / "bare.json").write_bytes(orjson.dumps({**GOOD, "stateHash": GOOD["stateHash"][7:]}))
    (tmp_path / "nohash.json").write_bytes(b'{"schema": 1}\n')
    (tmp_path / "dup.json").write_bytes(b'{\n  "a": 1,\n  "a": 2,\n  "stateHash": "sha256:00"\n}\n')
    (tmp_path / "nan.json").write_bytes(b'{"a": NaN}')
    (tmp_path / "harness.json").write_bytes(orjson.dumps(seal_document(HARNESS)))
    broken = {**HARNESS, "halt": {**HARNESS["halt"], "staleCount": "0"}, "actionCount": -1}
    del broken["memoryCursor"]
    (tmp_path / "broken.json").write_bytes(orjson.dumps(seal_document(broken)))
    (tmp_path / "badhash.json").write_bytes(b'{"stateHash": "sha512:abc"}')
    return tmp_path


def test_text_output_all_kinds(run_cli, workdir, snapshot):
    files = ["good.json", "edited.json", "python.json", "bare.json", "nohash.json", "dup.json", "nan.json", "badhash.json", "missing.json"]
    code, out, err = run_cli(["verify", *files])
    assert (code, out) == snapshot
    assert err == "9 checked: 1 ok, 3 mismatch, 5 error\n"


def test_exit_codes(run_cli, workdir):
    assert run_cli(["verify", "good.json"])[0] == 0
    assert run_cli(["verify", "good.json", "edited.json"])[0] == 1
    assert run_cli(["verify", "edited.json", "nan.json"])[0] == 2
    assert run_cli(["verify", "good.json", "missing.json"])[0] == 2


def test_single_ok_file_prints_no_summary(run_cli, workdir):
    assert run_cli(["verify", "good.json"]) == (0, "good.json: ok\n", "")


def test_quiet_prints_only_problems(run_cli, workdir):
    code, out, err = run_cli(["verify", "-q", "good.json", "edited.json", "good.json"])
    assert code == 1 and out.startswith("edited.json: MISMATCH") and "good.json" not in out and err == ""


def test_json_format(run_cli, workdir, snapshot):
    code, out, _ = run_cli(["verify", "--format", "json", "good.json", "bare.json", "dup.json"])
    records = json.loads(out)
    for record in records:
        jsonschema.validate(record, RECORD_SCHEMA)
    assert [r["status"] for r in records] == ["ok", "mismatch", "error"]
    assert (code, out) == snapshot


def test_json_format_without_inputs_is_an_empty_array(run_cli, workdir):
    (workdir / "empty.jsonl").write_bytes(b"\n\n")
    assert run_cli(["verify", "--jsonl", "--format", "json", "empty.jsonl"]) == (0, "[]\n", "")


def test_jsonl_format(run_cli, workdir, snapshot):
    code, out, _ = run_cli(["verify", "--format", "jsonl", "python.json", "nohash.json"])
    for line in out.splitlines():
        jsonschema.validate(json.loads(line), RECORD_SCHEMA)
    assert (code, out) == snapshot


def test_jsonl_input_reports_each_line(run_cli, workdir, snapshot):
    stream = b"\n".join(
        [canonicalize(GOOD), b"", orjson.dumps({**GOOD, "n": []}), b"{not json", orjson.dumps(GOOD)]
    )
    code, out, err = run_cli(["verify", "--jsonl", "-"], input=stream)
    assert (code, out) == snapshot
    assert err == "4 checked: 2 ok, 1 mismatch, 1 error\n"


def test_no_hints_skips_the_diagnosis(run_cli, workdir):
    code, out, _ = run_cli(["verify", "--no-hints", "python.json"])
    assert code == 1 and out.startswith("python.json: MISMATCH") and "hint" not in out


def test_a_jsonl_file_without_jsonl_suggests_the_flag(run_cli, workdir):
    (workdir / "two.jsonl").write_bytes(orjson.dumps(GOOD) + b"\n" + orjson.dumps(GOOD) + b"\n")
    code, out, _ = run_cli(["verify", "two.jsonl"])
    assert code == 2 and out.startswith("two.jsonl:2: error: malformed JSON: unexpected content after document")
    assert out.rstrip().endswith("use --jsonl")
    assert run_cli(["verify", "--jsonl", "two.jsonl"])[0] == 0


def test_stdin_is_the_default_input(run_cli, workdir):
    assert run_cli(["verify"], input=orjson.dumps(GOOD)) == (0, "<stdin>: ok\n", "")


def test_schema_metaharness(run_cli, workdir, snapshot):
    code, out, _ = run_cli(["verify", "--schema", "metaharness", "harness.json", "broken.json", "edited.json"])
    assert (code, out) == snapshot


def test_schema_problems_appear_in_json(run_cli, workdir):
    code, out, _ = run_cli(["verify", "--schema", "metaharness", "--format", "jsonl", "broken.json"])
    record = json.loads(out)
    assert code == 2 and record["status"] == "error" and record["actual"] == record["expected"]
    assert record["schema_errors"] == [
        "actionCount: expected a non-negative integer, got the number -1",
        "memoryCursor: missing",
        "halt.staleCount: expected a non-negative integer, got the string '0'",
    ]


def test_schema_problems_are_reported_even_without_a_hash(run_cli, workdir):
    code, out, _ = run_cli(["verify", "--schema", "metaharness", "nohash.json"])
    assert code == 2
    assert out.splitlines()[:2] == ["nohash.json: error: no stateHash member (seal it with `horizon seal`)", "  schema: transcript: missing"]


def test_color_always_and_no_color(run_cli, workdir):
    assert "\x1b[" in run_cli(["verify", "--color", "always", "good.json"])[1]
    assert "\x1b[" not in run_cli(["verify", "good.json"], env={"NO_COLOR": "1"})[1]


def test_shared_conformance_through_the_cli(run_cli, tmp_path, monkeypatch):
    root = shared_path("conformance", "checkpoints")
    for kind in ("valid", "tampered"):
        shutil.copytree(root / kind, tmp_path / kind)
    monkeypatch.chdir(tmp_path)
    valid = sorted(f"valid/{p.name}" for p in (tmp_path / "valid").iterdir())
    tampered = sorted(f"tampered/{p.name}" for p in (tmp_path / "tampered").iterdir())
    code, out, _ = run_cli(["verify", "--schema", "metaharness", "--format", "jsonl", *valid])
    assert code == 0 and all(json.loads(line)["status"] == "ok" for line in out.splitlines())
    for path in tampered:
        code, out, _ = run_cli(["verify", "--format", "jsonl", path])
        assert (code, json.loads(out)["status"]) == (1, "mismatch"), path


def test_help_documents_exit_codes(run_cli):
    code, out, _ = run_cli(["verify", "--help"])
    assert code == 0 and "Exit codes:" in out and "hash mismatch" in out


def test_verify_does_not_import_bashlex():
    import subprocess
    import sys

    probe = "import sys; from horizon_cli.cli import main\ntry: main(['verify', '--help'])\nexcept SystemExit: pass\nprint('bashlex' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("False")


def test_jsonl_with_crlf_line_endings(run_cli, workdir):
    stream = orjson.dumps(GOOD) + b"\r\n" + orjson.dumps(GOOD) + b"\r\n"
    assert run_cli(["verify", "--jsonl", "-q", "-"], input=stream) == (0, "", "")


def test_directory_input_is_an_error_record(run_cli, workdir):
    (workdir / "sub").mkdir()
    code, out, _ = run_cli(["verify", "--format", "jsonl", "sub"])
    assert code == 2 and json.loads(out)["error"].startswith("cannot read:")
