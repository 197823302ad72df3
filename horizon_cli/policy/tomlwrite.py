"""A small TOML writer: enough for policies, exact enough to round-trip.

``tomllib`` only reads, and horizon takes no new dependency to write, so this
renders the value types ``tomllib`` produces (tables, arrays, strings,
integers, floats, booleans, dates and times). Guarantee:
``tomllib.loads(dumps(data)) == data`` for any such ``data`` without NaN.

Layout: a table's plain keys first, then its sub-tables as ``[a.b]``
sections (in insertion order); tables inside arrays, and small leaf tables
inside tables (a rule's ``examples``), are written inline.
Long arrays go one item per line. Strings with backslashes (regexes) are
written as literal ``'...'`` strings and multi-line text as ``\"\"\"`` blocks
so that the output reads like a hand-written policy.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
MAX_INLINE = 88


def dumps(data: Mapping[str, Any]) -> str:
    """The TOML document for the table ``data``."""
    out: list[str] = []
    _table(data, (), out)
    return "\n".join(out).strip("\n") + "\n" if out else ""


def _table(table: Mapping[str, Any], path: tuple[str, ...], out: list[str]) -> None:
    plain = [(k, v) for k, v in table.items() if not isinstance(v, Mapping) or _inline_fits(k, v, path)]
    tables = [(k, v) for k, v in table.items() if isinstance(v, Mapping) and not _inline_fits(k, v, path)]
    # A header is needed when the table has plain keys, or nothing at all
    # (so an empty table survives), but not for a pure container like [rules].
    if path and (plain or not tables):
        if out:
            out.append("")
        out.append("[" + ".".join(key(p) for p in path) + "]")
    for name, value in plain:
        out.append(f"{key(name)} = {value_text(value, len(key(name)) + 3)}")
    for name, value in tables:
        _table(value, (*path, name), out)


def _inline_fits(name: str, value: Mapping[str, Any], path: tuple[str, ...]) -> bool:
    # Small leaf tables inside a table (a rule's `examples`) read best inline.
    if not path or not value or any(isinstance(v, Mapping) for v in value.values()):
        return False
    return len(key(name)) + 3 + len(inline_table(value)) <= MAX_INLINE and "\n" not in inline_table(value)


def key(name: str) -> str:
    """A key, bare when TOML allows it, else quoted."""
    return name if _BARE_KEY.match(name) else basic_string(name)


def value_text(value: Any, indent: int = 0) -> str:
    """One TOML value (``indent``: columns already used on the line, for wrapping)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return inline_table(value)
    if isinstance(value, (list, tuple)):
        return _array(value, indent)
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"


def _array(items: list[Any] | tuple[Any, ...], indent: int) -> str:
    parts = [value_text(item) for item in items]
    flat = "[" + ", ".join(parts) + "]"
    if indent + len(flat) <= MAX_INLINE or any("\n" in p for p in parts):
        return flat
    return "[\n" + "".join(f"    {row}\n" for row in _fill([p + "," for p in parts])) + "]"


def _fill(items: list[str]) -> list[str]:
    # Pack short items several to a line, like a person would write a long list.
    rows: list[str] = []
    for item in items:
        if rows and len(rows[-1]) + 1 + len(item) <= MAX_INLINE - 4:
            rows[-1] += " " + item
        else:
            rows.append(item)
    return rows


def inline_table(table: Mapping[str, Any]) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{key(k)} = {value_text(v)}" for k, v in table.items()) + " }"


def string(value: str) -> str:
    """The most readable exact spelling of ``value``."""
    if "\\" in value and "'" not in value and not _CONTROL.search(value) and "\t" not in value:
        return f"'{value}'"
    if "\n" in value and len(value) > 40:
        return _multiline(value)
    return basic_string(value)


def basic_string(value: str) -> str:
    return '"' + "".join(_escape(ch) for ch in value) + '"'


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ord(ch) < 0x20 or ch == "\x7f":
        return f"\\u{ord(ch):04x}"
    return ch


def _multiline(value: str) -> str:
    # Newlines stay literal; quotes are escaped so no run of three can close
    # the string early; the newline after the opening quotes is dropped by TOML.
    body = "".join("\n" if ch == "\n" else _escape(ch) for ch in value)
    return '"""\n' + body + '"""'
