"""RFC 8785 (JSON Canonicalization Scheme) serialization.

orjson does the heavy lifting in C: with ``OPT_SORT_KEYS`` it writes compact
JSON whose string escaping is exactly ECMAScript ``JSON.stringify``'s
(lowercase ``\\u00xx`` for controls, DEL and U+2028/U+2029 raw) and rejects
lone surrogates. One Python pass over the containers (never over characters)
patches what orjson would write differently from JCS:

* numbers: floats and integers beyond 2**53 become ``orjson.Fragment`` s in
  ECMAScript ``Number.prototype.toString`` form (``1e-7``, ``1e+21``, ``56``);
* member order: orjson sorts by code point, JCS by UTF-16 code unit. They only
  differ when a name holds a character above U+FFFF, so those rare objects are
  serialized here in UTF-16 order and embedded as a fragment.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import orjson

__all__ = [
    "MAX_SAFE_INTEGER",
    "CanonicalError",
    "CheckpointError",
    "canonical_chunks",
    "canonicalize",
    "format_number",
    "prepare",
]

# Integers a double holds exactly; beyond, the TypeScript writer saw a double.
MAX_SAFE_INTEGER = 2**53
_SAFE = MAX_SAFE_INTEGER
_BATCH = 512  # list items per orjson call when streaming canonical bytes
_SORT = orjson.OPT_SORT_KEYS
_Fragment = orjson.Fragment
_ASTRAL = "\U00010000"
# orjson serializes at most 254 nested containers; deeper checkpoints are refused cleanly.
_TOO_DEEP = "value is nested too deeply to canonicalize (at most 254 levels)"


class CheckpointError(ValueError):
    """A checkpoint that cannot be hashed or checked (no stateHash, bad hash syntax, ...)."""


class CanonicalError(CheckpointError):
    """A value with no RFC 8785 form (NaN, infinity, lone surrogate, non-JSON type)."""


def canonicalize(value: Any) -> bytes:
    """Return the RFC 8785 canonical UTF-8 bytes of a JSON value."""
    return dumps_prepared(prepare(value))


def canonical_chunks(value: Any, levels: int = 2) -> Iterator[bytes]:
    """The canonical bytes of ``value`` in pieces, for hashing without one big buffer.

    The outer ``levels`` of containers are walked here; anything deeper is one
    orjson call. A checkpoint's bulk is a long transcript array one level down,
    so peak memory stays near the parsed document instead of doubling it.
    """
    yield from _chunks(prepare(value), levels)


def _chunks(node: Any, levels: int) -> Iterator[bytes]:
    kind = type(node)
    if not levels or (kind is not dict and kind is not list):
        yield dumps_prepared(node)
    elif kind is list:
        # Items go to orjson in batches: one call per item would cost more
        # than the serialization of a small item.
        yield b"["
        for start in range(0, len(node), _BATCH):
            batch = dumps_prepared(node[start : start + _BATCH])
            yield (b"," if start else b"") + batch[1:-1]
        yield b"]"
    else:
        yield b"{"
        for index, name in enumerate(sorted(node, key=_utf16_key)):
            yield (b"," if index else b"") + dumps_prepared(name) + b":"
            yield from _chunks(node[name], levels - 1)
        yield b"}"


def dumps_prepared(prepared: Any) -> bytes:
    """Serialize a tree returned by :func:`prepare` (orjson, keys sorted)."""
    try:
        return orjson.dumps(prepared, option=_SORT)
    except orjson.JSONEncodeError as exc:
        raise CanonicalError(_encode_reason(exc)) from None


def prepare(value: Any) -> Any:
    """Return ``value`` with every number and UTF-16-ordered object fixed up.

    Containers are copied only when something inside them changes, so a
    document of strings costs one walk and no allocation.
    """
    try:
        return _prep(value)
    except RecursionError:
        raise CanonicalError(_TOO_DEEP) from None


def format_number(number: float | int) -> str:
    """ECMAScript ``Number.prototype.toString`` of a double (integers converted)."""
    try:
        x = float(number)
    except OverflowError:
        raise CanonicalError(f"an integer of {len(str(abs(number)))} digits is too large for a double") from None
    if not math.isfinite(x):
        raise CanonicalError(f"{x!r} has no JSON representation (NaN and infinities are not allowed)")
    if x.is_integer() and -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
        return str(int(x))  # also maps -0.0 to "0"
    text = repr(x)
    if "e" not in text and not text.endswith(".0"):
        return text  # 1e-4 <= |x| < 1e16, not integral: Python and ECMAScript agree
    digits, n = _decimal_digits(repr(abs(x)))
    sign = "-" if x < 0 else ""
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        body = "0." + "0" * -n + digits
    else:
        exp = n - 1
        mantissa = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        body = f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp)}"
    return sign + body


def _decimal_digits(text: str) -> tuple[str, int]:
    """Split Python's shortest round-trip repr into (digits, n): value = 0.digits x 10**n."""
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    joined = whole + frac
    stripped = joined.lstrip("0")
    n = len(whole) + (int(exp) if exp else 0) - (len(joined) - len(stripped))
    return stripped.rstrip("0"), n


def _number_fragment(x: float | int) -> orjson.Fragment:
    return _Fragment(format_number(x).encode("ascii"))


def _prep(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict:
        return _prep_dict(value)
    if kind is list:
        return _prep_list(value)
    if kind is int:
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else _number_fragment(value)
    if kind is float:
        return _float(value)
    return _prep_other(value)


def _float(x: float) -> Any:
    # Integral doubles in the exact range print as integers; orjson writes ints natively.
    if x.is_integer() and -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
        return int(x)
    return _number_fragment(x)


def _prep_list(items: list) -> list:
    out = None
    for index, item in enumerate(items):
        kind = type(item)
        if kind is str or kind is bool or item is None or (kind is int and -_SAFE <= item <= _SAFE):
            continue
        new = _prep_dict(item) if kind is dict else _prep_list(item) if kind is list else _prep(item)
        if new is not item:
            if out is None:
                out = items.copy()
            out[index] = new
    return items if out is None else out


def _prep_dict(obj: dict) -> Any:
    try:
        names = "".join(obj)  # C-speed check that every name is a string
    except TypeError:
        bad = next(k for k in obj if not isinstance(k, str))
        raise CanonicalError(f"object member names must be strings, got {type(bad).__name__} {bad!r}") from None
    out = None
    for name, item in obj.items():
        kind = type(item)
        if kind is str or kind is bool or item is None or (kind is int and -_SAFE <= item <= _SAFE):
            continue
        new = _prep_dict(item) if kind is dict else _prep_list(item) if kind is list else _prep(item)
        if new is not item:
            if out is None:
                out = obj.copy()
            out[name] = new
    result = obj if out is None else out
    if not names.isascii() and max(names) >= _ASTRAL and _utf16_order_differs(result):
        return _utf16_object(result)
    return result


def _utf16_key(name: str) -> bytes:
    return name.encode("utf-16-be", "surrogatepass")


def _utf16_order_differs(obj: dict) -> bool:
    names = list(obj)
    return sorted(names) != sorted(names, key=_utf16_key)


def _utf16_object(obj: dict) -> orjson.Fragment:
    parts = [dumps_prepared(name) + b":" + dumps_prepared(obj[name]) for name in sorted(obj, key=_utf16_key)]
    return _Fragment(b"{" + b",".join(parts) + b"}")


def _prep_other(value: Any) -> Any:
    # Subclasses (IntEnum, str subclasses, tuples) canonicalize as their JSON base type.
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return _prep(int(value))
    if isinstance(value, float):
        return _float(float(value))
    if isinstance(value, dict):
        return _prep_dict(dict(value))
    if isinstance(value, (list, tuple)):
        return _prep_list(list(value))
    raise CanonicalError(f"{type(value).__name__} is not a JSON value")


def _encode_reason(exc: orjson.JSONEncodeError) -> str:
    text = str(exc.args[0]) if exc.args else "cannot serialize"
    if "surrogates" in text:
        return "string contains a lone UTF-16 surrogate (not valid Unicode)"
    if "Recursion limit" in text:
        return _TOO_DEEP
    return text
