"""Explain a hash mismatch: which common non-canonical serialization would verify.

A checkpoint whose recorded hash equals, say, sha256 of Python's
``json.dumps(sort_keys=True)`` was not tampered with: its writer has a bug.
Telling those apart from real changes is the point of these hints. This runs
only on a mismatch, so it may serialize the document several times.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from horizon_cli.checkpoint.hashing import (
    HASH_KEY,
    PREFIX,
    body_of,
    digest_hex,
    is_canonical_spelling,
    recorded_digest,
)
from horizon_cli.checkpoint.jcs import CanonicalError, canonicalize, dumps_prepared, format_number, prepare

__all__ = ["diagnose"]

_ASTRAL_UTF8 = re.compile(rb"[\xf0-\xf4]")
WRITER_BUG = "the writer does not hash RFC 8785 canonical JSON"
TAMPERED = (
    "no common non-canonical serialization reproduces the recorded hash: "
    "the content changed after sealing (or the hash was edited)"
)


def diagnose(document: dict, recorded: str, actual: str) -> list[str]:
    """Hints (plain sentences) for a checkpoint whose ``recorded`` hash is not ``actual``."""
    digest = recorded_digest(recorded)
    spelling = _spelling_hint(recorded, digest, actual)
    if spelling is not None and digest == actual[len(PREFIX) :]:
        return [spelling]
    hints = [spelling] if spelling else []
    body = body_of(document)
    for describe, serialize in _candidates(document, body):
        try:
            data = serialize()
        except (ValueError, TypeError, CanonicalError):
            continue
        if digest_hex(data) == digest:
            hints.append(f"the recorded hash is the sha256 of {describe}: {WRITER_BUG}")
            return hints
    hints.append(TAMPERED)
    return hints


def _spelling_hint(recorded: str, digest: str, actual: str) -> str | None:
    if is_canonical_spelling(recorded):
        return None
    right = digest == actual[len(PREFIX) :]
    what = "the digest is correct but" if right else "also,"
    if not recorded.lower().startswith(PREFIX):
        return f'{what} the recorded hash lacks the "sha256:" prefix'
    return f'{what} the recorded hash must be spelled "sha256:" + lowercase hex'


def _candidates(document: dict, body: dict) -> Iterator[tuple[str, Callable[[], bytes]]]:
    def py(**kwargs: Any) -> Callable[[], bytes]:
        return lambda: json.dumps(body, allow_nan=False, **kwargs).encode("utf-8", "surrogatepass")

    yield "Python json.dumps(sort_keys=True) (', ' and ': ' separators, \\u escapes)", py(sort_keys=True)
    yield "Python json.dumps(sort_keys=True, separators=(',', ':'))", py(sort_keys=True, separators=(",", ":"))
    yield (
        "Python json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False)",
        py(sort_keys=True, separators=(",", ":"), ensure_ascii=False),
    )
    yield "Python json.dumps(sort_keys=True, ensure_ascii=False)", py(sort_keys=True, ensure_ascii=False)
    yield "Python json.dumps() without sort_keys", py()
    yield "JSON.stringify order (members not sorted)", lambda: orjson.dumps(prepare(body))
    if _has_astral(body):
        yield "members sorted by code point instead of UTF-16 code units", lambda: _codepoint_sorted(body)
    yield "the canonical JSON followed by a newline", lambda: canonicalize(body) + b"\n"
    yield 'the canonical JSON including "stateHash": ""', lambda: canonicalize({**body, HASH_KEY: ""})
    yield 'the canonical JSON including "stateHash": null', lambda: canonicalize({**body, HASH_KEY: None})
    yield "the canonical JSON including the recorded stateHash", lambda: canonicalize(document)


def _has_astral(body: dict) -> bool:
    # Code point and UTF-16 order differ only around characters above U+FFFF.
    try:
        return _ASTRAL_UTF8.search(orjson.dumps(body)) is not None
    except orjson.JSONEncodeError:
        return False


def _codepoint_sorted(value: Any) -> bytes:
    """JCS with member names in code point order (the mistake of sorting Python str)."""
    if isinstance(value, dict):
        parts = (dumps_prepared(k) + b":" + _codepoint_sorted(value[k]) for k in sorted(value))
        return b"{" + b",".join(parts) + b"}"
    if isinstance(value, list):
        return b"[" + b",".join(_codepoint_sorted(item) for item in value) + b"]"
    if isinstance(value, float) and not isinstance(value, bool):
        return format_number(value).encode("ascii")
    return canonicalize(value)
