"""The fast path: text simple enough that splitting it is exact, so bashlex is not needed.

About half of real commands are plain words and simple quotes joined by ``| && || ; &``:
no redirection, grouping, expansion, escape, heredoc or newline. For those the
command structure follows from the operators alone, and skipping bashlex (import
~110 ms, and ~90% of the parse time) is the main start-up and throughput lever.
Anything unusual (a reserved word in command position, an empty command, an
unterminated quote) returns None and goes to bashlex, which decides.
"""

from __future__ import annotations

import re

Span = tuple[int, int]
Pipeline = tuple[list[list[Span]], bool]  # (word spans of each stage, runs in background)

# Letters, digits, blanks and ``_ . / = : , @ % + - ~``: one command, split on blanks.
_PLAIN = re.compile(r"[A-Za-z0-9 \t_./=:,@%+~-]*\Z")
_BLANK_RUN = re.compile(r"[^ \t]+")
# Words, simple quotes and list/pipe operators only.
_SIMPLE = re.compile(r"[^<>()\n{}$`\\]*\Z")
_TOKEN = re.compile(r"""[ \t]*(?:((?:[^ \t'"|&;]+|'[^']*'|"[^"]*")+)|(&&|\|\||[|&;]))""")
_TRAILING_BLANKS = re.compile(r"[ \t]*\Z")
# A reserved word in command position means compound syntax: leave it to bashlex.
RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac",
     "select", "function", "time", "coproc", "in", "!", "[[", "]]", "{", "}"}
)  # fmt: skip


def simple_pipelines(src: str) -> list[Pipeline] | None:
    """The pipelines of ``src`` when it needs no parser, else None."""
    if _PLAIN.match(src):
        spans = [m.span() for m in _BLANK_RUN.finditer(src)]
        if spans and src[spans[0][0] : spans[0][1]] in RESERVED:
            return None
        return [([spans], False)] if spans else []
    if not _SIMPLE.match(src):
        return None
    return _split(src)


def _split(src: str) -> list[Pipeline] | None:
    pipelines: list[Pipeline] = []
    stages: list[list[Span]] = []
    words: list[Span] = []
    pending_op = ""  # an operator that still needs a command after it
    list_start = 0  # first pipeline of the current and-or list
    i = 0
    while (m := _TOKEN.match(src, i)) is not None:
        i = m.end()
        if m.group(1) is not None:
            if src[m.start(1)] == "#":  # a comment runs to the end of the (only) line
                i = len(src)
                break
            if not words and m.group(1) in RESERVED:
                return None
            words.append(m.span(1))
            pending_op = ""
            continue
        op = m.group(2)
        if not words:  # `| x`, `a && && b`, `;;`, `|&`: bashlex decides
            return None
        stages.append(words)
        words = []
        if op == "|":
            pending_op = op
            continue
        pipelines.append((stages, False))
        stages = []
        pending_op = op if op in ("&&", "||") else ""
        if op == "&":  # the whole and-or list since the last `;` or `&` runs in the background
            pipelines[list_start:] = [(p, True) for p, _ in pipelines[list_start:]]
        if op in ("&", ";"):
            list_start = len(pipelines)
    if pending_op or not _TRAILING_BLANKS.match(src, i):  # `ls &&`, an unterminated quote
        return None
    if words:
        stages.append(words)
    if stages:
        pipelines.append((stages, False))
    return pipelines
