"""stateHash seal/verify: the TypeScript-written conformance set and mismatch hints."""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import shared_path
from horizon_cli.checkpoint import (
    CheckpointError,
    VerifyResult,
    canonicalize,
    loads_strict,
    seal_document,
    state_hash,
    verify_document,
)
from horizon_cli.checkpoint.diagnose import TAMPERED

CKPT = "conformance/checkpoints"


def load(path) -> dict:
    return loads_strict(path.read_bytes(), str(path))


def checkpoint_files(kind: str):
    return sorted(shared_path(*CKPT.split("/"), kind).glob("*.json"))


def test_every_valid_checkpoint_verifies():
    files = checkpoint_files("valid")
    assert len(files) >= 12
    for path in files:
        result = verify_document(load(path))
        assert result.ok, (path.name, result)
        assert result.expected == result.actual and result.hints == []


def test_every_tampered_checkpoint_fails():
    files = checkpoint_files("tampered")
    assert len(files) >= 12
    for path in files:
        result = verify_document(load(path))
        assert not result.ok, path.name
        assert result.hints == [TAMPERED]


def test_resealing_a_valid_checkpoint_changes_nothing():
    for path in checkpoint_files("valid"):
        document = load(path)
        assert seal_document(document) == document


SAMPLE = {"schema": 1, "b": [1.5, "x"], "a": {"é": None, "n": 10**22}}


def test_state_hash_is_sha256_of_canonical_body():
    expected = "sha256:" + hashlib.sha256(canonicalize(SAMPLE)).hexdigest()
    assert state_hash(SAMPLE) == expected
    assert state_hash({**SAMPLE, "stateHash": "sha256:" + "0" * 64}) == expected


def test_seal_document_copies_and_replaces():
    old = {**SAMPLE, "stateHash": "sha256:" + "0" * 64}
    sealed = seal_document(old)
    assert sealed is not old and old["stateHash"] == "sha256:" + "0" * 64
    assert list(sealed) == list(old)  # an old hash is replaced where it stood
    assert verify_document(sealed) == VerifyResult(True, sealed["stateHash"], sealed["stateHash"], [])


def test_verify_reports_expected_and_actual():
    sealed = seal_document(SAMPLE)
    changed = {**sealed, "schema": 2}
    result = verify_document(changed)
    assert (result.ok, result.expected, result.actual) == (False, sealed["stateHash"], state_hash(changed))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"a": 1}, "no stateHash member"),
        ({"stateHash": 5}, "stateHash must be a string"),
        ({"stateHash": "md5:abc"}, "bad stateHash syntax"),
        ({"stateHash": "sha256:" + "0" * 63}, "bad stateHash syntax"),
        ({"stateHash": "sha256:" + "g" * 64}, "bad stateHash syntax"),
        ({"stateHash": "sha256:" + "0" * 64, "x": float("nan")}, "NaN"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_verify_errors(document, message):
    with pytest.raises(CheckpointError, match=message):
        verify_document(document)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


BODY = {"z": 1.0, "a": "caf\u00e9", "n": [1e-7, 2**60]}


@pytest.mark.parametrize(
    ("recorded", "fragment"),
    [
        ("sha256:" + digest(json.dumps(BODY, sort_keys=True).encode()), "Python json.dumps(sort_keys=True) (', '"),
        ("sha256:" + digest(json.dumps(BODY, sort_keys=True, separators=(",", ":")).encode()), "separators=(',', ':'))"),
        (
            "sha256:" + digest(json.dumps(BODY, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()),
            "ensure_ascii=False)",
        ),
        ("sha256:" + digest(json.dumps(BODY).encode()), "without sort_keys"),
        ("sha256:" + digest(b'{"z":1,"a":"caf\xc3\xa9","n":[1e-7,1152921504606847000]}'), "members not sorted"),
        ("sha256:" + digest(canonicalize(BODY) + b"\n"), "followed by a newline"),
        ("sha256:" + digest(canonicalize({**BODY, "stateHash": ""})), '"stateHash": ""'),
    ],
)
def test_hints_name_the_writers_serialization(recorded, fragment):
    result = verify_document({**BODY, "stateHash": recorded})
    assert not result.ok
    assert len(result.hints) == 1 and fragment in result.hints[0], result.hints
    assert "does not hash RFC 8785" in result.hints[0]


def test_hint_for_code_point_ordering():
    body = {"\U0001f600": 1.0, "\ufb33": 2}  # 1.0: Python json.dumps would differ
    wrong = b'{"\xef\xac\xb3":2,"\xf0\x9f\x98\x80":1}'
    result = verify_document({**body, "stateHash": "sha256:" + digest(wrong)})
    assert any("code point instead of UTF-16" in hint for hint in result.hints)


def test_missing_prefix_and_uppercase_are_mismatches_with_a_hint():
    right = state_hash(BODY)[len("sha256:") :]
    bare = verify_document({**BODY, "stateHash": right})
    assert not bare.ok and bare.hints == ['the digest is correct but the recorded hash lacks the "sha256:" prefix']
    upper = verify_document({**BODY, "stateHash": "sha256:" + right.upper()})
    assert not upper.ok and "lowercase hex" in upper.hints[0]
    wrong = verify_document({**BODY, "stateHash": "0" * 64})
    assert wrong.hints == ['also, the recorded hash lacks the "sha256:" prefix', TAMPERED]
