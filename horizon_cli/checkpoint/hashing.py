"""Checkpoint hashes: ``stateHash = "sha256:" + hex(sha256(canonical(body)))``.

``body`` is the checkpoint object without its ``stateHash`` member, so a
sealed document verifies however its file is formatted or its members ordered.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from horizon_cli.checkpoint.jcs import CheckpointError, canonical_chunks

__all__ = ["HASH_KEY", "VerifyResult", "body_of", "parse_recorded", "seal_document", "state_hash", "verify_document"]

HASH_KEY = "stateHash"
PREFIX = "sha256:"
_CANONICAL_HASH = re.compile(r"sha256:[0-9a-f]{64}")
# Near misses a writer bug produces: the digest may be right, the spelling is not.
_NEAR_MISS = re.compile(r"(?:(?i:sha256):)?([0-9a-fA-F]{64})")


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of checking one checkpoint; ``hints`` explain a mismatch."""

    ok: bool
    expected: str  # the recorded stateHash
    actual: str  # the hash computed from the content
    hints: list[str] = field(default_factory=list)


def body_of(document: dict) -> dict:
    """The hashed part of a checkpoint: every member except ``stateHash``."""
    if not isinstance(document, dict):
        raise CheckpointError(f"a checkpoint must be a JSON object, got {_json_type(document)}")
    if HASH_KEY not in document:
        return document
    return {key: value for key, value in document.items() if key != HASH_KEY}


def digest_hex(canonical: bytes) -> str:
    return hashlib.sha256(canonical).hexdigest()


def state_hash(document: dict) -> str:
    """``"sha256:<hex>"`` over the canonical JSON of ``document`` minus ``stateHash``."""
    digest = hashlib.sha256()
    for chunk in canonical_chunks(body_of(document)):
        digest.update(chunk)
    return PREFIX + digest.hexdigest()


def seal_document(document: dict) -> dict:
    """A copy of ``document`` with ``stateHash`` set (an old value is replaced in place)."""
    sealed = dict(document)
    sealed[HASH_KEY] = state_hash(document)
    return sealed


def verify_document(document: dict, *, hints: bool = True) -> VerifyResult:
    """Recompute the hash of a checkpoint and compare it with the recorded one.

    On a mismatch, ``hints`` (default) re-serializes the document the ways
    writers get wrong to explain it; pass ``False`` to skip that cost.

    Raises :class:`CheckpointError` when there is nothing to compare: not an
    object, no ``stateHash``, a ``stateHash`` that is not a sha256 hash, or
    content with no canonical form (NaN, lone surrogates).
    """
    recorded = parse_recorded(document)
    actual = state_hash(document)
    if recorded == actual or not hints:
        return VerifyResult(recorded == actual, recorded, actual, [])
    from horizon_cli.checkpoint.diagnose import diagnose

    return VerifyResult(False, recorded, actual, diagnose(document, recorded, actual))


def parse_recorded(document: Any) -> str:
    """The recorded ``stateHash`` string, after checking it is (nearly) a sha256 hash."""
    if not isinstance(document, dict):
        raise CheckpointError(f"a checkpoint must be a JSON object, got {_json_type(document)}")
    if HASH_KEY not in document:
        raise CheckpointError("no stateHash member (seal it with `horizon seal`)")
    recorded = document[HASH_KEY]
    if not isinstance(recorded, str):
        raise CheckpointError(f"stateHash must be a string, got {_json_type(recorded)}")
    if _CANONICAL_HASH.fullmatch(recorded) or _NEAR_MISS.fullmatch(recorded):
        return recorded
    shown = recorded if len(recorded) <= 80 else recorded[:77] + "..."
    raise CheckpointError(f'bad stateHash syntax {shown!r}: expected "sha256:" and 64 lowercase hex digits')


def recorded_digest(recorded: str) -> str:
    """The lowercase hex digest inside a recorded hash (any accepted spelling)."""
    match = _NEAR_MISS.fullmatch(recorded)
    return match.group(1).lower() if match else ""


def is_canonical_spelling(recorded: str) -> bool:
    return _CANONICAL_HASH.fullmatch(recorded) is not None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
