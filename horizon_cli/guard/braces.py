"""Bash brace expansion (``{a,b}``, ``{1..3}``, ``{a..e..2}``), quote-aware and capped.

Runs on raw source text before any other expansion, as bash does. Quoted braces,
``${…}`` and substitutions are skipped; ``{}`` and ``{x}`` are literal.
"""

from __future__ import annotations

import re

from horizon_cli.guard.quoting import skip_construct

BRACE_CAP = 64  # beyond this many words the word is kept whole and marked non-static

_INTEREST = re.compile(r"[\\'\"`{]|\$[({']")
_BODY_INTEREST = re.compile(r"[\\'\"`{},]|\$[({']")
_NUM_SEQ = re.compile(r"([+-]?\d{1,9})\.\.([+-]?\d{1,9})(?:\.\.([+-]?\d{1,9}))?\Z")
_CHAR_SEQ = re.compile(r"([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d{1,9}))?\Z")


def brace_expand(raw: str, cap: int = BRACE_CAP) -> list[str] | None:
    """The words ``raw`` expands to (itself when nothing expands), or None past ``cap``."""
    out: list[str] = []
    stack = [raw]
    budget = cap * 8  # bounds the work on adversarial nesting
    while stack:
        budget -= 1
        if budget < 0:
            return None
        s = stack.pop()
        found = _find_group(s, cap)
        if found is None:
            out.append(s)
            if len(out) > cap:
                return None
            continue
        start, end, alternatives = found
        if alternatives is None:
            return None
        stack.extend(s[:start] + alt + s[end:] for alt in reversed(alternatives))
    return out


def _find_group(s: str, cap: int) -> tuple[int, int, list[str] | None] | None:
    i = 0
    while True:
        m = _INTEREST.search(s, i)
        if m is None:
            return None
        i = m.start()
        if m.group() != "{":
            i = skip_construct(s, i, m.group())
            continue
        found = _group_at(s, i, cap)
        if found is not None:
            return found
        i += 1


def _group_at(s: str, start: int, cap: int) -> tuple[int, int, list[str] | None] | None:
    """The brace group opening at ``start``, if it is a valid list or sequence."""
    depth = 0
    commas: list[int] = []
    i = start + 1
    while True:
        m = _BODY_INTEREST.search(s, i)
        if m is None:
            return None
        i = m.start()
        tok = m.group()
        if tok == "{":
            depth += 1
        elif tok == "}":
            if depth == 0:
                break
            depth -= 1
        elif tok == ",":
            if depth == 0:
                commas.append(i)
        else:
            i = skip_construct(s, i, tok)
            continue
        i += 1
    if commas:
        bounds = [start, *commas, i]
        return start, i + 1, [s[a + 1 : b] for a, b in zip(bounds, bounds[1:])]
    sequence = _sequence(s[start + 1 : i], cap)
    return None if sequence == [] else (start, i + 1, sequence)


def _sequence(body: str, cap: int) -> list[str] | None:
    """``[]`` when ``body`` is no sequence, None when it is one longer than ``cap``."""
    m = _NUM_SEQ.match(body) or _CHAR_SEQ.match(body)
    if m is None:
        return []
    numeric = m.re is _NUM_SEQ
    a, b = (int(m.group(1)), int(m.group(2))) if numeric else (ord(m.group(1)), ord(m.group(2)))
    step = abs(int(m.group(3) or 1)) or 1
    if abs(b - a) // step + 1 > cap:
        return None
    values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    if not numeric:
        return [chr(v) for v in values]
    width = max(len(m.group(1)), len(m.group(2)))
    padded = any(g.lstrip("+-").startswith("0") and len(g.lstrip("+-")) > 1 for g in m.group(1, 2))
    return [str(v).zfill(width) if padded else str(v) for v in values]
