"""Strict JSON parsing for checkpoints: one reading, whoever the reader.

orjson already rejects NaN/Infinity literals, lone surrogates and numbers that
overflow a double. It silently keeps the last of duplicate member names, so a
checkpoint could mean one thing to us and another to a different parser. To
catch that without a per-character Python loop we compare counts: the number
of members orjson kept against a cheap C-speed upper bound of the members
written in the text. Only when the bound is not tight (a string holding " :",
say) does an exact check run, and only a real duplicate pays for locating
its line.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from horizon_cli.errors import InputError

__all__ = ["gc_paused", "loads_strict"]

MAX_SAFE_INTEGER = 2**53
_WS = b" \t\r\n"
_FOLD = bytes.maketrans(b'\t\n\r"', b"    ")
_SLICE = 1 << 16  # small enough to stay in cache between fold and count
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)


class _Duplicate(Exception):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def loads_strict(data: bytes | str, name: str) -> Any:
    """Parse JSON, rejecting what two parsers could read differently.

    Duplicate member names, NaN/Infinity, lone surrogates and malformed text
    raise :class:`InputError` naming ``name:line``. Integers beyond 2**53 are
    returned as the double they denote (as the TypeScript writer read them).
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with gc_paused():
        return _loads(raw, name)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector while building a large acyclic tree.

    A JSON document cannot hold cycles, yet each of its million containers
    would count towards collections that traverse everything built so far.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _loads(raw: bytes, name: str) -> Any:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(_orjson_reason(exc), path=name, line=exc.lineno) from None
    if type(value) not in (dict, list):
        unsafe = type(value) is int and not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
        return float(value) if unsafe else value
    members = _normalize(value)
    if members and not _surely_unique(raw, members):
        _exact_duplicate_check(raw, name)
    return value


def _normalize(value: Any) -> int:
    """Count object members (and turn unsafe integers into doubles, in place)."""
    count = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if type(node) is dict:
            count += len(node)
            for key, item in node.items():
                kind = type(item)
                if kind is dict or kind is list:
                    push(item)
                elif kind is int and not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                    node[key] = float(item)
        else:  # list
            for index, item in enumerate(node):
                kind = type(item)
                if kind is dict or kind is list:
                    push(item)
                elif kind is int and not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                    node[index] = float(item)
    return count


def _surely_unique(raw: bytes, members: int) -> bool:
    """True when the text provably holds no more members than orjson kept.

    Every member writes one structural colon, right after its name's closing
    quote or after whitespace. With whitespace and quotes folded to spaces,
    ``" :"`` therefore bounds the members in the text from above. A colon
    right after an escaped quote (``\\":`` but not ``\\\\":``) is inside a
    string, so those are subtracted. Equality with the members orjson kept
    means nothing was dropped. Text such as "Note : x" loosens that bound, so
    a second one deletes whitespace instead (a name's quote then meets its
    colon); only if both fail does an exact, slower check decide. All of it is
    C-speed ``bytes.translate``/``bytes.count``.
    """
    upper = _count_folded(raw, b" :")
    if upper > members:
        upper -= _escaped_quote_colons(raw)
    if upper == members:
        return True
    return _count_structural(raw.translate(None, _WS)) == members


def _escaped_quote_colons(text: bytes) -> int:
    escaped = text.count(b'\\":')
    return escaped and escaped - text.count(b'\\\\":')


def _count_structural(squeezed: bytes) -> int:
    return squeezed.count(b'":') - _escaped_quote_colons(squeezed)


def _count_folded(raw: bytes, pattern: bytes) -> int:
    # Folding slice by slice bounds the extra memory. Windows overlap by
    # len(pattern) - 1 bytes, so a match is counted once, in the window where
    # it starts.
    total, width = 0, _SLICE + len(pattern) - 1
    for start in range(0, len(raw), _SLICE):
        total += raw[start : start + width].translate(_FOLD).count(pattern)
    return total


def _exact_duplicate_check(raw: bytes, name: str) -> None:
    try:
        json.loads(raw, object_pairs_hook=_pairs_unique)
    except _Duplicate as dup:
        # json reports the first object to *close* with a repeat; name the first in reading order.
        key, line = _locate_duplicate(raw.decode("utf-8", "surrogatepass")) or (dup.name, None)
        shown = json.dumps(key, ensure_ascii=False)
        raise InputError(f"duplicate member name {shown}", path=name, line=line) from None
    except RecursionError:
        # orjson nests a little deeper than the json module can follow.
        raise InputError("nested too deeply to check for duplicate member names", path=name) from None


def _pairs_unique(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return result


def _locate_duplicate(text: str) -> tuple[str, int] | None:
    """The first repeated member name and its line (error path only: a token loop is fine)."""
    scopes: list[set[str] | None] = []
    previous = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "{":
            scopes.append(set())
        elif token == "[":
            scopes.append(None)
        elif token in "}]":
            scopes.pop()
        elif token == ":" and previous is not None and scopes and scopes[-1] is not None:
            key_text, key_pos = previous
            key = json.loads(key_text)
            if key in scopes[-1]:
                return key, text.count("\n", 0, key_pos) + 1
            scopes[-1].add(key)
        previous = (token, match.start()) if token.startswith('"') else None
    return None


def _orjson_reason(exc: orjson.JSONDecodeError) -> str:
    text = str(exc.args[0]) if exc.args else "invalid JSON"
    reason = text.split(": line ", 1)[0]
    if "surrogate" in reason:
        return f"malformed JSON: {reason} (lone UTF-16 surrogates are not allowed)"
    if "infinity" in reason:
        return f"malformed JSON: {reason} (numbers must fit a double)"
    doc = exc.doc if isinstance(exc.doc, str) else ""
    start = exc.pos - 1 if doc[exc.pos - 1 : exc.pos] == "-" else exc.pos
    if doc.startswith(("NaN", "Infinity", "-Infinity"), max(start, 0)):
        return "malformed JSON: NaN and Infinity are not JSON numbers"
    return f"malformed JSON: {reason} (column {exc.colno})"
