"""Quote-aware skipping over shell text, shared by word resolution, rewrites and the scanner.

Every ``skip_*`` function takes the index just after an opening construct and
returns the index just after its closer, or ``len(s) + 1`` when the construct is
unterminated (so ``s[start:end - 1]`` is always the body and ``min(end, len(s))``
the end of the construct). The nesting walk is iterative: hostile input such as
ten thousand nested ``$(`` must not exhaust the Python stack.
"""

from __future__ import annotations

import re

# What matters inside each mode: p = $( … ) / ( … ), d = " … ", b = ${ … }.
_MODE_TOKENS = {
    "p": re.compile(r"[\\'\"`()]|\$'"),
    "d": re.compile(r'[\\"`]|\$[({]'),
    "b": re.compile(r"[\\'\"`}]|\$[({']"),
}
_BACKTICK_BODY = re.compile(r"(?:[^`\\]|\\.)*", re.S)
_ANSI_BODY = re.compile(r"(?:[^'\\]|\\.)*", re.S)


def skip_backtick(s: str, i: int) -> int:
    """``i`` just after an opening backtick."""
    end = _BACKTICK_BODY.match(s, i).end()
    return end + 1 if end < len(s) else len(s) + 1


def skip_ansi(s: str, i: int) -> int:
    """``i`` just after ``$'``."""
    end = _ANSI_BODY.match(s, i).end()
    return end + 1 if end < len(s) else len(s) + 1


def skip_single(s: str, i: int) -> int:
    """``i`` just after an opening single quote."""
    j = s.find("'", i)
    return len(s) + 1 if j < 0 else j + 1


def skip(s: str, i: int, mode: str) -> int:
    """Skip a nested construct: mode ``p`` after ``(``, ``d`` after ``"``, ``b`` after ``${``."""
    n = len(s)
    stack = [mode]
    while stack:
        top = stack[-1]
        m = _MODE_TOKENS[top].search(s, i)
        if m is None:
            return n + 1
        i = m.start()
        tok = m.group()
        if tok == "\\":
            i += 2
        elif tok == "'":
            i = skip_single(s, i + 1)
        elif tok == "$'":
            i = skip_ansi(s, i + 2)
        elif tok == "`":
            i = skip_backtick(s, i + 1)
        elif tok == '"':
            if top == "d":
                stack.pop()
            else:
                stack.append("d")
            i += 1
        elif tok in ("(", "$("):
            stack.append("p")
            i += len(tok)
        elif tok == "${":
            stack.append("b")
            i += 2
        else:  # ")" closes p, "}" closes b
            stack.pop()
            i += 1
    return min(i, n + 1)


def skip_construct(s: str, i: int, tok: str) -> int:
    """Skip the quoted construct or substitution that ``tok`` (found at ``i``) opens.

    ``tok`` is one of ``\\ ' " ` $' $( ${``.
    """
    if tok == "\\":
        return i + 2
    if tok == "'":
        return skip_single(s, i + 1)
    if tok == '"':
        return skip(s, i + 1, "d")
    if tok == "`":
        return skip_backtick(s, i + 1)
    if tok == "$'":
        return skip_ansi(s, i + 2)
    return skip(s, i + 2, "p" if tok == "$(" else "b")


_ANSI_ESCAPE = re.compile(
    r"\\(?:([abeEfnrtv\\'\"?])|([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})"
    r"|U([0-9a-fA-F]{1,8})|c(.))",
    re.S,
)
_SIMPLE_ESCAPES = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
    "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip


def _ansi_one(m: re.Match[str]) -> str:
    simple, octal, hex2, u4, u8, ctrl = m.groups()
    if simple:
        return _SIMPLE_ESCAPES[simple]
    if ctrl is not None:
        return chr(ord(ctrl) & 0x1F)
    code = int(octal, 8) & 0xFF if octal else int(hex2 or u4 or u8, 16)
    # Surrogates and out-of-range code points stay as written: they cannot be encoded.
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()


def decode_ansi_c(body: str) -> str:
    """The value of ``$'body'`` (bash's ANSI-C quoting)."""
    return _ANSI_ESCAPE.sub(_ansi_one, body) if "\\" in body else body
