"""Safe pre-parse rewrites for shell syntax bashlex rejects, keeping every offset valid.

Each rewrite replaces text by text of the same width, so bashlex's node offsets still
index the original text, from which words are resolved. None of them hides a command:
they only neutralise syntax that carries no command of its own.

- ``$'…'`` -> ``'___'`` and ``'…$…'`` -> ``'___'``: bashlex reads ``$`` and backticks
  inside single quotes as expansions when the word has other parts, and loops forever
  on ``x'${'`` or ``$'${'``; the word resolver reads the original;
- ``<<'EOF'`` / ``<<"EOF"`` / ``<<\\EOF`` -> ``<< EOF `` (bashlex compares the body lines
  against the still-quoted delimiter); the builder sees the quotes in the original text;
- ``time [-p]`` prefix -> blanks;
- ``[[ … ]]`` -> ``[ … ]`` with its operators (``&& || < > ( ) |``) neutralised;
- ``$(( … ))`` and ``$[ … ]`` -> ``$____`` (a parameter; the word resolver evaluates
  the original arithmetic and still finds substitutions inside it);
- ``for (( … ))`` -> ``for _ ``;
- ``name=( … )`` arrays -> ``name=" … "``.
"""

from __future__ import annotations

import re

from horizon_cli.guard.quoting import skip, skip_ansi, skip_construct, skip_single

_HEREDOC_QUOTED = re.compile(r"(?<!<)(<<-?[ \t]*)(?:'([^'\s]+)'|\"([^\"\s$`\\]+)\"|\\([A-Za-z0-9_.-]+))")
_TIME = re.compile(r"(^|[;&|({}\n!]|\b(?:then|do|else)[ \t])([ \t]*)time((?:[ \t]+-p)?)(?=[ \t]|$)", re.M)
_DOUBLE_OPEN = re.compile(r"(?:^|(?<=[\s;&|(!]))\[\[(?=[ \t\n])")
_DOUBLE_INNER = re.compile(r"[\\'\"`]|\$[('{]|&&|\|\||[<>()|&]|\]\](?=$|[\s;&|)])")
_ARITH = re.compile(r"\$\(\(|\$\[")
_FOR_ARITH = re.compile(r"\bfor[ \t]*\(\(")
_ARRAY = re.compile(r"(?:^|(?<=[\s;&|(]))[A-Za-z_][A-Za-z0-9_]*\+?=\(")


def rewrite(text: str) -> str:
    """``text`` with the constructs above replaced; same length, same offsets."""
    out = text
    if "'" in out and ("$" in out or "`" in out):
        out = _quoted_data(out)
    if "<<" in out:
        out = _HEREDOC_QUOTED.sub(_heredoc_delimiter, out)
    if "time" in out:
        out = _TIME.sub(lambda m: m.group(1) + m.group(2) + " " * (4 + len(m.group(3))), out)
    if "[[" in out:
        out = _double_brackets(out)
    if "$((" in out or "$[" in out:
        out = _arithmetic(out)
    if "((" in out and "for" in out:
        out = _for_arithmetic(out)
    if "=(" in out:
        out = _arrays(out)
    return out if len(out) == len(text) else text


_DATA_TOKENS = {
    # unquoted (top level, $( ), backticks): quotes, nesting, heredocs, line ends
    "u": re.compile(r"\\.|[\'\"`()\n]|\$'|<<<|<<-?", re.S),
    "d": re.compile(r'\\.|["`]|\$\(', re.S),  # inside double quotes: $' is literal there
}
_HEREDOC_WORD = re.compile(r"""[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([^\s'";&|<>()]+))""")


def _quoted_data(text: str) -> str:
    """Blank single-quoted text that bashlex would misread (see above), keeping the quotes."""
    edits: list[tuple[int, int, str]] = []
    stack = ["u"]  # u: unquoted, d: double quotes, b: backticks (unquoted inside), p: $( … )
    heredocs: list[tuple[str, bool]] = []  # delimiters whose bodies start at the next newline
    i, n = 0, len(text)
    while (m := _DATA_TOKENS["d" if stack[-1] == "d" else "u"].search(text, i)) is not None:
        i, tok, mode = m.end(), m.group(), stack[-1]
        if tok == "$'":
            end = skip_ansi(text, i)
            closer = "'" if end <= n else ""  # an unterminated string stays unterminated
            end = min(end, n)
            edits.append((m.start(), end, "'" + "_" * (end - m.start() - 1 - len(closer)) + closer))
            i = end
        elif tok == "'":
            end = skip_single(text, i)
            body = text[i : min(end - 1, n)]
            if end <= n and ("$" in body or "`" in body):
                edits.append((i, end - 1, "_" * len(body)))
            i = min(end, n)
        elif tok in ("<<", "<<-"):
            word = _HEREDOC_WORD.match(text, i)
            if word:
                heredocs.append((next(g for g in word.groups() if g is not None), tok == "<<-"))
                i = word.end()
        elif tok == "\n" and heredocs:
            i = _after_heredoc_bodies(text, i, heredocs)
            heredocs = []
        elif tok in ('"', "`"):
            inner = "d" if tok == '"' else "b"
            if mode == inner:
                stack.pop()
            else:
                stack.append(inner)
        elif tok in ("(", "$("):
            stack.append("p")
        elif tok == ")" and mode == "p":
            stack.pop()
        if not stack:
            stack.append("u")
    return _splice(text, edits)


def _after_heredoc_bodies(text: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    """Index after the bodies (and delimiter lines) of ``heredocs``, starting at ``i``."""
    lines = text[i:].split("\n")
    k = 0
    for delimiter, strip_tabs in heredocs:
        while k < len(lines) and (lines[k].lstrip("\t") if strip_tabs else lines[k]) != delimiter:
            k += 1
        k += 1
    return min(len(text), i + sum(len(line) + 1 for line in lines[:k]))


def _heredoc_delimiter(m: re.Match[str]) -> str:
    word = m.group(2) or m.group(3)
    if word is not None:
        return f"{m.group(1)} {word} "
    return f"{m.group(1)} {m.group(4)}"


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    if not edits:
        return text
    parts: list[str] = []
    last = 0
    for start, end, replacement in edits:
        parts.append(text[last:start])
        parts.append(replacement)
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _double_brackets(text: str) -> str:
    edits: list[tuple[int, int, str]] = []
    pos = 0
    while True:
        m = _DOUBLE_OPEN.search(text, pos)
        if m is None:
            break
        region = _double_region(text, m.start())
        if region is None:
            pos = m.end()
            continue
        edits.extend(region)
        pos = region[-1][1]
    return _splice(text, edits)


def _double_region(text: str, start: int) -> list[tuple[int, int, str]] | None:
    """Edits turning the ``[[ … ]]`` at ``start`` into a ``[`` command, or None."""
    edits = [(start, start + 2, "[ ")]
    i = start + 2
    while True:
        m = _DOUBLE_INNER.search(text, i)
        if m is None:
            return None
        i, tok = m.start(), m.group()
        if tok == "]]":
            edits.append((i, i + 2, " ]"))
            return edits
        if tok in ("&&", "||"):
            edits.append((i, i + 2, "-a" if tok == "&&" else "-o"))
            i += 2
        elif len(tok) == 1 and tok in "<>()|&":
            edits.append((i, i + 1, "_"))
            i += 1
        else:
            i = skip_construct(text, i, tok)
            if i > len(text):
                return None


def _arithmetic(text: str) -> str:
    edits: list[tuple[int, int, str]] = []
    pos = 0
    while True:
        m = _ARITH.search(text, pos)
        if m is None:
            break
        start = m.start()
        if m.group() == "$[":
            close = text.find("]", start + 2)
            end = close + 1 if close > 0 else -1
        else:
            end = skip(text, start + 2, "p")
            if end > len(text) or text[end - 2 : end] != "))":
                end = -1
        if end < 0:
            pos = m.end()
            continue
        edits.append((start, end, "$" + "_" * (end - start - 1)))
        pos = end
    return _splice(text, edits)


def _for_arithmetic(text: str) -> str:
    edits: list[tuple[int, int, str]] = []
    for m in _FOR_ARITH.finditer(text):
        open_at = m.end() - 2
        end = skip(text, open_at + 1, "p")
        header = text[open_at:end]
        if end <= len(text) and header.endswith("))") and "$(" not in header and "`" not in header:
            edits.append((open_at, end, "_" + " " * (end - open_at - 1)))
    return _splice(text, edits)


def _arrays(text: str) -> str:
    edits: list[tuple[int, int, str]] = []
    for m in _ARRAY.finditer(text):
        end = skip(text, m.end(), "p")
        if end <= len(text) and '"' not in text[m.end() : end - 1]:
            edits.append((m.end() - 1, m.end(), '"'))
            edits.append((end - 1, end, '"'))
    return _splice(text, sorted(edits))
