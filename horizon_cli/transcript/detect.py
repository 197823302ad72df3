"""Which adapter reads a file: each format votes on the first lines; most votes wins."""

from __future__ import annotations

from types import ModuleType

import orjson

from horizon_cli.errors import InputError
from horizon_cli.transcript import adk, claude, codex, horizon, openai

FORMATS: tuple[str, ...] = ("horizon", "openai", "claude", "codex", "adk")
ADAPTERS: dict[str, ModuleType] = {"horizon": horizon, "openai": openai, "claude": claude, "codex": codex, "adk": adk}
SAMPLE_LINES = 50


def adapter(fmt: str) -> ModuleType:
    try:
        return ADAPTERS[fmt]
    except KeyError:
        raise InputError(f"unknown transcript format {fmt!r} (known: {', '.join(FORMATS)})") from None


def detect_format(first_lines: list[bytes], name: str = "<input>") -> str:
    """The format of a transcript from its first lines (blank and malformed lines are ignored).

    Raises :class:`InputError` when no format recognises any line.
    """
    votes = dict.fromkeys(FORMATS, 0)
    for raw in first_lines[:SAMPLE_LINES]:
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        for fmt in FORMATS:
            if ADAPTERS[fmt].looks_like(obj):
                votes[fmt] += 1
    best = max(FORMATS, key=lambda f: votes[f])  # ties: earlier in FORMATS wins
    if not any(raw.strip() for raw in first_lines):
        return FORMATS[0]  # empty input is not an error: nothing to read in any format
    if votes[best] == 0:
        raise InputError(
            "cannot detect the transcript format from its first lines; "
            f"pass --input-format ({'|'.join(FORMATS)})",
            path=name,
        )
    return best
