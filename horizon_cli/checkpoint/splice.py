"""Seal a checkpoint file while keeping its text: only the stateHash value changes.

Re-serializing would reorder nothing but could still rewrite numbers (a
20-digit integer, ``1.0``), escapes and layout, turning a one-line hash
update into a noisy diff. So the new hash is spliced into the original bytes,
and the result is re-parsed and compared with the sealed document before it
is used; any doubt falls back to a fresh, indented serialization.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import orjson

from horizon_cli.checkpoint.hashing import HASH_KEY, seal_document
from horizon_cli.checkpoint.jcs import CheckpointError, canonicalize
from horizon_cli.checkpoint.strict import loads_strict
from horizon_cli.errors import InputError

__all__ = ["SealOutcome", "seal_bytes", "seal_jsonl"]

_HASH_MEMBER = re.compile(rb'"stateHash"[ \t\r\n]*:[ \t\r\n]*("(?:[^"\\]|\\.)*"|null|true|false|-?[0-9][0-9.eE+-]*)')
_FIRST_MEMBER = re.compile(rb'\A[ \t\r\n]*\{([ \t\r\n]*)"(?:[^"\\]|\\.)*"([ \t\r\n]*):([ \t\r\n]*)')
_WS = b" \t\r\n"


@dataclass(frozen=True)
class SealOutcome:
    data: bytes  # the sealed document, ready to write
    state_hash: str
    changed: bool  # False when the input was already sealed with this hash
    preserved: bool  # True when the original text was kept apart from the hash


def seal_bytes(data: bytes, name: str, *, canonical: bool = False) -> SealOutcome:
    """Seal the checkpoint in ``data``; errors are :class:`InputError` naming ``name``.

    ``canonical`` writes the RFC 8785 form of the sealed document instead of
    preserving the original text.
    """
    document = loads_strict(data, name)
    if not isinstance(document, dict):
        raise InputError("a checkpoint must be a JSON object", path=name)
    try:
        sealed = seal_document(document)
    except CheckpointError as exc:
        raise InputError(str(exc), path=name) from None
    digest = sealed[HASH_KEY]
    if canonical:
        out = canonicalize(sealed) + b"\n"
        return SealOutcome(out, digest, out != data, False)
    if document.get(HASH_KEY) == digest:
        return SealOutcome(data, digest, False, True)
    spliced = _splice(data, sealed, HASH_KEY in document, name)
    if spliced is not None:
        return SealOutcome(spliced, digest, True, True)
    return SealOutcome(orjson.dumps(sealed, option=orjson.OPT_INDENT_2) + b"\n", digest, True, False)


def seal_jsonl(data: bytes, name: str, *, canonical: bool = False) -> tuple[bytes, int, bool]:
    """Seal every checkpoint of a JSONL stream: ``(output, count, changed)``.

    Each line is sealed like a file (its own text kept); blank lines and line
    endings stay as they were. An invalid line raises :class:`InputError`
    naming ``name:line`` and nothing is returned, so nothing half-sealed is
    ever written.
    """
    out, count, changed = [], 0, False
    # Split on "\n" only, as `horizon verify --jsonl` reads lines.
    for number, line in enumerate(io.BytesIO(data), start=1):
        body = line.rstrip(b"\r\n")
        if not body.strip():
            out.append(line)
            continue
        try:
            outcome = seal_bytes(body, name, canonical=canonical)
        except InputError as exc:
            raise InputError(exc.message, path=name, line=number) from None
        sealed = outcome.data.rstrip(b"\n") if canonical else outcome.data
        out.append(sealed + line[len(body) :])
        count += 1
        changed = changed or sealed != body
    return b"".join(out), count, changed


def _splice(data: bytes, sealed: dict, replace: bool, name: str) -> bytes | None:
    value = b'"' + sealed[HASH_KEY].encode("ascii") + b'"'
    candidates = _replacements(data, value) if replace else [_insertion(data, value)]
    for candidate in candidates:
        if candidate is not None and _same(candidate, sealed, name):
            return candidate
    return None


def _replacements(data: bytes, value: bytes):
    # The top-level member is usually the last one written: try from the end.
    for match in reversed(list(_HASH_MEMBER.finditer(data))):
        yield data[: match.start(1)] + value + data[match.end(1) :]


def _insertion(data: bytes, value: bytes) -> bytes | None:
    tail = data.rstrip(_WS)
    if not tail.endswith(b"}"):
        return None
    # Insert right after the last member's value, before the whitespace and
    # the closing brace (string methods: a regex would scan the whole file).
    end = len(tail[:-1].rstrip(_WS))
    first = _FIRST_MEMBER.match(data)
    if first is None:  # an empty object
        return data[:end] + b'"' + HASH_KEY.encode() + b'":' + value + data[end:]
    indent, before, after = first.groups()
    member = b"," + indent + b'"' + HASH_KEY.encode() + b'"' + before + b":" + after + value
    return data[:end] + member + data[end:]


def _same(candidate: bytes, sealed: dict, name: str) -> bool:
    try:
        return loads_strict(candidate, name) == sealed
    except InputError:
        return False
