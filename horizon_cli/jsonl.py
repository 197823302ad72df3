"""Streaming JSONL reading with ``file:line`` errors."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from horizon_cli.errors import InputError


def iter_jsonl(lines: Iterable[bytes | str], name: str) -> Iterator[tuple[int, Any, bytes]]:
    """Yield ``(line_number, value, raw_line)`` for each non-blank line.

    Raises :class:`InputError` naming ``name:line`` for malformed JSON.
    """
    for number, raw in enumerate(lines, start=1):
        data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
        if not data.strip():
            continue
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"malformed JSON: {_reason(exc)}", path=name, line=number) from None
        yield number, value, data


def _reason(exc: orjson.JSONDecodeError) -> str:
    return str(exc.args[0]) if exc.args else "invalid JSON"
