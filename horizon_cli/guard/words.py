"""Word resolution: what bash would pass for one raw source word, without running anything.

A raw word is lexed into pieces ``(kind, text, start, end)`` (offsets local to the
raw word), the pieces are split into fields (``$IFS`` and unquoted variables holding
whitespace split words, as in bash), and each field becomes a :class:`Word`.
Command and process substitutions met on the way are reported to the caller as
``(context, inner_text, absolute_offset)`` so it can parse them as segments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from horizon_cli.guard.arith import evaluate
from horizon_cli.guard.braces import brace_expand
from horizon_cli.guard.model import Word
from horizon_cli.guard.quoting import decode_ansi_c, skip, skip_ansi, skip_backtick

Sub = tuple[str, str, int]  # (context, inner text, absolute offset of the inner text)

# Piece kinds: quoted literal, unquoted literal, unquoted variable value (field-split),
# unresolvable (kept as written), $IFS separator.
Q, U, V, X, SPLIT = range(5)

_PLAIN = re.compile(r"[^\\'\"$`<>*?\[{\s]*\Z")
_UNQUOTED_RUN = re.compile(r"[^\\'\"$`<>]+")
_DQ_RUN = re.compile(r'[^\\"$`]+')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMS = frozenset("0123456789@*#?$!-")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?=)")
_WHICH = re.compile(r"\s*(?:which|command\s+-v|type\s+-[Pp])\s+([A-Za-z0-9_.+-]+)\s*\Z")
_GLOB_CHARS = re.compile(r"[*?]|\[.*\]", re.S)
_GLOB_ESCAPE = str.maketrans({"*": "[*]", "?": "[?]", "[": "[[]"})
_BACKTICK_UNESCAPE = re.compile(r"\\([\\`$])")
_IFS_VALUE = " \t\n"
_WHITESPACE = re.compile(r"[ \t\n]")


def assignment_name(raw: str) -> re.Match[str] | None:
    """``NAME=`` / ``NAME+=`` at the start of ``raw`` (the word is an assignment)."""
    return _ASSIGNMENT.match(raw)


def resolve_words(raw: str, pos: int, env: Mapping[str, str], subs: list[Sub]) -> list[Word]:
    """The words bash would produce from one source word (zero, one or several)."""
    if _PLAIN.match(raw):
        return [Word(raw, raw, True, False, raw, pos)]
    if "{" in raw:
        alternatives = brace_expand(raw)
        if alternatives is None:  # too many to enumerate: one word that matches anything
            _lex(raw, pos, env, subs)
            return [Word(raw, raw, False, True, "*", pos)]
        if len(alternatives) > 1:
            _lex(raw, pos, env, subs)  # report substitutions once, at their real offsets
            ignored: list[Sub] = []
            return [
                _word(field, alt, pos, raw)
                for alt in alternatives
                for field in _fields(_lex(alt, pos, env, ignored), split=True)
            ]
    return [_word(f, raw, pos) for f in _fields(_lex(raw, pos, env, subs), split=True)]


def resolve_value(raw: str, pos: int, env: Mapping[str, str], subs: list[Sub]) -> Word:
    """One word without field splitting or brace expansion (assignment values)."""
    fields = _fields(_lex(raw, pos, env, subs), split=False)
    if not fields:
        return Word("", raw, True, False, "", pos)
    return _word(fields[0], raw, pos)


def resolve_assignment(raw: str, pos: int, env: Mapping[str, str], subs: list[Sub]) -> tuple[str, Word]:
    """``NAME=value`` -> (name, value word); ``NAME+=value`` keeps the ``+`` in the name."""
    m = _ASSIGNMENT.match(raw)
    assert m is not None, raw
    name = m.group(1) + ("+" if m.group(2) == "+=" else "")
    return name, resolve_value(raw[m.end() :], pos + m.end(), env, subs)


def expand_heredoc(body: str, pos: int, env: Mapping[str, str], subs: list[Sub]) -> str:
    """An unquoted-delimiter heredoc body with known variables substituted, the rest as written."""
    if "$" not in body and "`" not in body and "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    for m in _HEREDOC_TOKEN.finditer(body):
        if m.start() < i:
            continue  # inside a construct already consumed
        out.append(body[i : m.start()])
        i = m.end()
        tok = m.group()
        if tok[0] == "\\":
            out.append("" if tok[1] == "\n" else tok[1])
        elif tok == "`":
            end = skip_backtick(body, i)
            subs.append(("substitution", _unescape_backtick(body[i : end - 1]), pos + i))
            i = min(end, len(body))
            out.append(body[m.start() : i])
        elif tok == "$(":
            end = skip(body, i, "p")
            subs.append(("substitution", body[i : end - 1], pos + i))
            i = min(end, len(body))
            out.append(body[m.start() : i])
        elif tok == "${":
            end = skip(body, i, "b")
            inner = body[i : end - 1]
            i = min(end, len(body))
            known = env.get(inner) if _NAME.fullmatch(inner) else None
            out.append(body[m.start() : i] if known is None else known)
        else:
            out.append(env.get(tok[1:], tok))
    out.append(body[i:])
    return "".join(out)


_HEREDOC_TOKEN = re.compile(r"\\[$`\\\n]|\$(?:\(|\{|[A-Za-z_][A-Za-z0-9_]*)|`")


def _unescape_backtick(inner: str) -> str:
    return _BACKTICK_UNESCAPE.sub(r"\1", inner) if "\\" in inner else inner


# -- lexing ---------------------------------------------------------------------------------


def _lex(raw: str, pos: int, env: Mapping[str, str], subs: list[Sub]) -> list[tuple]:
    out: list[tuple] = []
    i, n = 0, len(raw)
    while i < n:
        m = _UNQUOTED_RUN.match(raw, i)
        if m:
            out.append((U, m.group(), i, m.end()))
            i = m.end()
            continue
        c = raw[i]
        if c == "\\":
            if i + 1 >= n:
                out.append((U, "\\", i, n))
                i = n
            elif raw[i + 1] == "\n":  # line continuation
                i += 2
            else:
                out.append((Q, raw[i + 1], i, i + 2))
                i += 2
        elif c == "'":
            j = raw.find("'", i + 1)
            end = n if j < 0 else j + 1
            out.append((Q, raw[i + 1 : n if j < 0 else j], i, end))
            i = end
        elif c == '"':
            i = _lex_double(raw, i + 1, pos, env, subs, out)
        elif c == "`":
            i = _lex_backtick(raw, i, pos, subs, out, U)
        elif c == "$":
            i = _lex_dollar(raw, i, pos, env, subs, out, quoted=False)
        elif raw.startswith("(", i + 1):  # <( … ) or >( … )
            end = skip(raw, i + 2, "p")
            subs.append(("process-substitution", raw[i + 2 : end - 1], pos + i + 2))
            out.append((X, raw[i : min(end, n)], i, min(end, n)))
            i = min(end, n)
        else:
            out.append((U, c, i, i + 1))
            i += 1
    return out


def _lex_double(raw: str, i: int, pos: int, env: Mapping[str, str], subs: list[Sub], out: list) -> int:
    """``i`` just after the opening double quote; returns the index after the closing one."""
    n = len(raw)
    start = i - 1
    had_piece = False
    while i < n:
        m = _DQ_RUN.match(raw, i)
        if m:
            out.append((Q, m.group(), i, m.end()))
            had_piece = True
            i = m.end()
            continue
        c = raw[i]
        if c == '"':
            if not had_piece:
                out.append((Q, "", start, i + 1))  # "" is an empty word, not nothing
            return i + 1
        had_piece = True
        if c == "\\":
            nxt = raw[i + 1 : i + 2]
            if nxt == "\n":
                i += 2
            elif nxt and nxt in '$`"\\':
                out.append((Q, nxt, i, i + 2))
                i += 2
            else:
                out.append((Q, "\\", i, i + 1))
                i += 1
        elif c == "`":
            i = _lex_backtick(raw, i, pos, subs, out, Q)
        else:
            i = _lex_dollar(raw, i, pos, env, subs, out, quoted=True)
    if not had_piece:
        out.append((Q, "", start, n))
    return n


def _lex_backtick(raw: str, i: int, pos: int, subs: list[Sub], out: list, kind: int) -> int:
    n = len(raw)
    end = skip_backtick(raw, i + 1)
    inner = _unescape_backtick(raw[i + 1 : end - 1])
    stop = min(end, n)
    which = _WHICH.match(inner)
    out.append((kind, which.group(1), i, stop) if which else (X, raw[i:stop], i, stop))
    subs.append(("substitution", inner, pos + i + 1))
    return stop


def _lex_dollar(
    raw: str, i: int, pos: int, env: Mapping[str, str], subs: list[Sub], out: list, quoted: bool
) -> int:
    n = len(raw)
    nxt = raw[i + 1 : i + 2]
    lit = Q if quoted else U
    if nxt == "'" and not quoted:
        end = skip_ansi(raw, i + 2)
        out.append((Q, decode_ansi_c(raw[i + 2 : end - 1]), i, min(end, n)))
        return min(end, n)
    if nxt == '"' and not quoted:  # $"…" locale string: a double-quoted string here
        return _lex_double(raw, i + 2, pos, env, subs, out)
    if nxt == "(":
        end = skip(raw, i + 2, "p")
        stop = min(end, n)
        if raw.startswith("((", i + 1) and raw.startswith("))", end - 2):
            inner = raw[i + 3 : end - 2]
            value = evaluate(inner)
            if "$" in inner or "`" in inner:
                _lex(inner, pos + i + 3, env, subs)  # substitutions inside arithmetic still run
            out.append((lit, str(value), i, stop) if value is not None else (X, raw[i:stop], i, stop))
            return stop
        inner = raw[i + 2 : end - 1]
        which = _WHICH.match(inner)
        out.append((lit, which.group(1), i, stop) if which else (X, raw[i:stop], i, stop))
        subs.append(("substitution", inner, pos + i + 2))
        return stop
    if nxt == "{":
        end = skip(raw, i + 2, "b")
        stop = min(end, n)
        inner = raw[i + 2 : end - 1]
        if _NAME.fullmatch(inner):
            _variable(inner, raw[i:stop], i, stop, env, quoted, out)
        else:
            if "$" in inner or "`" in inner:
                _lex(inner, pos + i + 2, env, subs)
            out.append((X, raw[i:stop], i, stop))
        return stop
    if nxt == "[":  # obsolete $[ arithmetic ]
        j = raw.find("]", i + 2)
        stop = n if j < 0 else j + 1
        out.append((X, raw[i:stop], i, stop))
        return stop
    m = _NAME.match(raw, i + 1)
    if m:
        _variable(m.group(), raw[i : m.end()], i, m.end(), env, quoted, out)
        return m.end()
    if nxt and nxt in _SPECIAL_PARAMS:
        out.append((X, raw[i : i + 2], i, i + 2))
        return i + 2
    out.append((lit, "$", i, i + 1))
    return i + 1


def _variable(name: str, text: str, start: int, end: int, env: Mapping[str, str], quoted: bool, out: list) -> None:
    value = env.get(name)
    if value is not None:
        out.append((Q if quoted else V, value, start, end))
    elif name == "IFS":
        out.append((Q, _IFS_VALUE, start, end) if quoted else (SPLIT, "", start, end))
    else:
        out.append((X, text, start, end))


# -- fields and words -------------------------------------------------------------------------


def _fields(pieces: list[tuple], split: bool) -> list[list[tuple]]:
    fields: list[list[tuple]] = []
    cur: list[tuple] = []
    for piece in pieces:
        kind, text, start, end = piece
        if kind == SPLIT:
            if not split:
                cur.append((Q, _IFS_VALUE, start, end))
            elif cur:
                fields.append(cur)
                cur = []
        elif kind == V and split and _WHITESPACE.search(text):
            parts = text.split()
            if text[0] in " \t\n" and cur:
                fields.append(cur)
                cur = []
            for k, part in enumerate(parts):
                cur.append((V, part, start, end))
                if k < len(parts) - 1:
                    fields.append(cur)
                    cur = []
            if text[-1] in " \t\n" and cur:
                fields.append(cur)
                cur = []
        else:
            cur.append(piece)
    if cur:
        fields.append(cur)
    # An unquoted expansion to nothing produces no word at all.
    return [f for f in fields if any(p[0] != V or p[1] for p in f)]


def _word(field: list[tuple], raw: str, pos: int, whole_raw: str | None = None) -> Word:
    values: list[str] = []
    patterns: list[str] = []
    static = True
    glob = False
    for kind, text, _, _ in field:
        values.append(text)
        if kind == Q:
            patterns.append(text.translate(_GLOB_ESCAPE))
        elif kind == X:
            patterns.append("*")
            static = False
        else:
            patterns.append(text)
            glob = glob or _GLOB_CHARS.search(text) is not None
    value = "".join(values)
    if whole_raw is not None:  # a brace-expansion alternative: no own source slice
        return Word(value, whole_raw, static, glob, "".join(patterns), pos)
    start, end = field[0][2], field[-1][3]
    return Word(value, raw[start:end], static, glob, "".join(patterns), pos + start)
