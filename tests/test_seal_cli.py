"""`horizon seal` and the format-preserving splice behind it."""

from __future__ import annotations

import os
import shutil

import orjson
import pytest

from conftest import shared_path
from horizon_cli.checkpoint import loads_strict, state_hash, verify_document
from horizon_cli.checkpoint.splice import seal_bytes
from horizon_cli.errors import InputError

PRETTY = b'{\n    "b": 1,\n    "a": [1.0, 12345678901234567890, "\\u00e9"]\n}\n'


def sealed_hash(data: bytes) -> str:
    return state_hash(loads_strict(data, "x"))


def test_seal_appends_in_the_files_own_style():
    outcome = seal_bytes(PRETTY, "x")
    digest = sealed_hash(PRETTY)
    assert outcome.data == PRETTY.replace(b"]\n}", b']\n    ,"stateHash": "X"\n}'.replace(b"\n    ,", b",\n    ")).replace(
        b"X", digest.encode()
    )
    assert (outcome.state_hash, outcome.changed, outcome.preserved) == (digest, True, True)
    assert verify_document(loads_strict(outcome.data, "x")).ok


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"a":1}', b'{"a":1,"stateHash":"@"}'),
        (b'{ "a" : 1 }', b'{ "a" : 1, "stateHash" : "@" }'),
        (b"{}", b'{"stateHash":"@"}'),
        (b'  {\n}\n', b'  {"stateHash":"@"\n}\n'),
    ],
)
def test_insertion_styles(data, expected):
    outcome = seal_bytes(data, "x")
    assert outcome.data == expected.replace(b"@", outcome.state_hash.encode())


def test_an_old_hash_is_replaced_in_place_and_nested_ones_are_left_alone():
    data = b'{"stateHash": "sha256:old",\n "inner": {"stateHash": "keep"},\n "t": "\\"stateHash\\": \\"x\\""}'
    outcome = seal_bytes(data, "x")
    assert outcome.data == data.replace(b"sha256:old", outcome.state_hash.encode())
    data = b'{"inner": {"stateHash": "keep"}, "stateHash": null}'
    assert seal_bytes(data, "x").data == data.replace(b"null", b'"' + seal_bytes(data, "x").state_hash.encode() + b'"')


def test_already_sealed_is_unchanged():
    once = seal_bytes(PRETTY, "x").data
    outcome = seal_bytes(once, "x")
    assert outcome.data == once and not outcome.changed


def test_escaped_member_name_falls_back_to_a_fresh_serialization():
    outcome = seal_bytes(b'{"state\\u0048ash": "old", "a": 1}', "x")
    assert not outcome.preserved
    assert orjson.loads(outcome.data) == {"stateHash": outcome.state_hash, "a": 1}


def test_canonical_output():
    outcome = seal_bytes(PRETTY, "x", canonical=True)
    assert outcome.data == b'{"a":[1,12345678901234567000,"\xc3\xa9"],"b":1,"stateHash":"' + outcome.state_hash.encode() + b'"}\n'


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[1]", "x: a checkpoint must be a JSON object"),
        (b'{"a": 1, "a": 2}', 'x:1: duplicate member name "a"'),
        (b'{"a": NaN}', "x:1: malformed JSON: NaN"),
    ],
)
def test_seal_bytes_errors(data, message):
    with pytest.raises(InputError) as info:
        seal_bytes(data, "x")
    assert str(info.value).startswith(message)


def test_shared_tampered_checkpoints_reseal_to_valid_ones():
    for path in sorted(shared_path("conformance", "checkpoints", "tampered").glob("*.json")):
        outcome = seal_bytes(path.read_bytes(), path.name)
        assert outcome.preserved and verify_document(loads_strict(outcome.data, path.name)).ok


# -- the command ---------------------------------------------------------------


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "state.json").write_bytes(PRETTY)
    return tmp_path


def test_seal_to_stdout(run_cli, workdir, snapshot):
    code, out, err = run_cli(["seal", "state.json"])
    assert (code, out) == snapshot
    assert err == "" and (workdir / "state.json").read_bytes() == PRETTY


def test_seal_stdin_to_stdout(run_cli, workdir):
    code, out, _ = run_cli(["seal", "-"], input=b'{"a": 1}')
    assert code == 0 and verify_document(loads_strict(out.encode(), "out")).ok


def test_seal_to_output_file(run_cli, workdir):
    code, out, err = run_cli(["seal", "state.json", "-o", "sealed.json"])
    digest = sealed_hash(PRETTY)
    assert (code, out, err) == (0, "", f"sealed.json: sealed {digest}\n")
    assert (workdir / "state.json").read_bytes() == PRETTY
    assert verify_document(loads_strict((workdir / "sealed.json").read_bytes(), "s")).ok


def test_seal_in_place_keeps_mode_and_skips_sealed_files(run_cli, workdir):
    target = workdir / "state.json"
    os.chmod(target, 0o640)
    shutil.copy(target, workdir / "other.json")
    code, _, err = run_cli(["seal", "--in-place", "state.json", "other.json"])
    digest = sealed_hash(PRETTY)
    assert (code, err) == (0, f"state.json: sealed {digest}\nother.json: sealed {digest}\n")
    assert os.stat(target).st_mode & 0o777 == 0o640
    before = os.stat(target).st_mtime_ns
    code, _, err = run_cli(["seal", "-i", "state.json"])
    assert (code, err) == (0, f"state.json: already sealed {digest}\n")
    assert os.stat(target).st_mtime_ns == before
    assert not [p for p in os.listdir(workdir) if p.endswith(".tmp")]


def test_in_place_reports_bad_files_and_seals_the_rest(run_cli, workdir):
    (workdir / "bad.json").write_bytes(b'{"a": 1,\n"a": 2}')
    code, _, err = run_cli(["seal", "-i", "bad.json", "state.json"])
    assert code == 2
    assert err.splitlines()[0] == 'horizon: error: bad.json:2: duplicate member name "a"'
    assert (workdir / "bad.json").read_bytes() == b'{"a": 1,\n"a": 2}'
    assert verify_document(loads_strict((workdir / "state.json").read_bytes(), "s")).ok


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["seal", "a.json", "b.json"], "several FILEs need --in-place"),
        (["seal", "-i", "-o", "x", "state.json"], "mutually exclusive"),
        (["seal", "-i", "-"], "cannot rewrite stdin"),
    ],
)
def test_usage_errors(run_cli, workdir, args, message):
    code, _, err = run_cli(args)
    assert code == 2 and message in err


def test_help_documents_exit_codes(run_cli):
    code, out, _ = run_cli(["seal", "--help"])
    assert code == 0 and "Exit codes:" in out and "atomically" in out


def test_crlf_and_tab_indented_files_keep_their_style():
    data = b'{\r\n\t"a": 1,\r\n\t"b": "x"\r\n}\r\n'
    outcome = seal_bytes(data, "x")
    assert outcome.data == b'{\r\n\t"a": 1,\r\n\t"b": "x",\r\n\t"stateHash": "' + outcome.state_hash.encode() + b'"\r\n}\r\n'


def test_a_nested_state_hash_is_not_mistaken_for_the_top_level_one():
    data = b'{"inner": {"stateHash": "sha256:old"}, "a": 1}'
    outcome = seal_bytes(data, "x")
    assert outcome.preserved and outcome.data.startswith(b'{"inner": {"stateHash": "sha256:old"}, "a": 1,')


def test_seal_jsonl_seals_every_line_and_keeps_line_endings():
    from horizon_cli.checkpoint.splice import seal_jsonl

    data = b'{"a": 1}\r\n\n{"b": [1.0]}'
    out, count, changed = seal_jsonl(data, "x")
    lines = out.split(b"\n")
    assert (count, changed, len(lines)) == (2, True, 3)
    assert lines[0].endswith(b"\r") and lines[1] == b""
    for line in (lines[0], lines[2]):
        assert verify_document(loads_strict(line, "x")).ok
    assert seal_jsonl(out, "x") == (out, 2, False)


def test_seal_jsonl_names_the_bad_line(run_cli, workdir):
    (workdir / "run.jsonl").write_bytes(b'{"a": 1}\n{"a": 1, "a": 2}\n')
    code, out, err = run_cli(["seal", "--jsonl", "-i", "run.jsonl"])
    assert (code, out) == (2, "") and err == 'horizon: error: run.jsonl:2: duplicate member name "a"\n'
    assert (workdir / "run.jsonl").read_bytes() == b'{"a": 1}\n{"a": 1, "a": 2}\n'


def test_seal_jsonl_then_verify_jsonl(run_cli, workdir):
    (workdir / "run.jsonl").write_bytes(b'{"a": 1}\n{"b": 2}\n')
    assert run_cli(["seal", "--jsonl", "-i", "run.jsonl"])[2] == "run.jsonl: sealed 2 checkpoints\n"
    assert run_cli(["verify", "--jsonl", "run.jsonl"]) == (0, "run.jsonl:1: ok\nrun.jsonl:2: ok\n", "2 checked: 2 ok, 0 mismatch, 0 error\n")
    assert run_cli(["seal", "--jsonl", "-i", "run.jsonl"])[2] == "run.jsonl: already sealed 2 checkpoints\n"
