"""Conservative quote-aware scanner for text bashlex cannot parse.

It over-approximates: anything after an unquoted ``; & | && || ( )`` or newline is
a new command, reserved words are dropped, quoted text stays one word, and the
builder still resolves words and recurses into ``$(…)``, backticks and ``<(…)``. The
result is marked incomplete by the caller; what it must never do is miss a command
that bash would run (``[[ -f x ]] && rm -rf /``, ``git log &&& rm -rf /``).
"""

from __future__ import annotations

import re

from horizon_cli.guard.build import Builder, Fragment, RedirectSpec
from horizon_cli.guard.quoting import skip, skip_construct
from horizon_cli.guard.simple import RESERVED

_BLANKS = re.compile(r"(?:[ \t]|\\\n)+")
_OPERATOR = re.compile(r"&&|\|\||;;&?|;&|\|&|[;&|()\n]")
_REDIRECT = re.compile(r"(\d{0,9})(<<<|<<-|<<|<>|<&|>&|>>|>\||&>>|&>|<|>)")
# Only space, tab and newline separate words in bash: \r, \v, \f are word characters.
_WORD_RUN = re.compile(r"[^ \t\n;&|()<>\\'\"`$]+")
_WORD_STOP = frozenset(" \t\n;&|()<>")
_ARRAY_START = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_HEADERS = frozenset({"for", "select", "case"})  # their words are data, not a command
# Reserved words in command position are dropped; `[[` stays as the command's name.
_KEYWORDS = RESERVED - _HEADERS - {"[["}


class _Command:
    __slots__ = ("words", "redirects", "start", "end", "header")

    def __init__(self) -> None:
        self.words: list[tuple[int, int]] = []
        self.redirects: list[RedirectSpec] = []
        self.start = -1
        self.end = -1
        self.header = False

    def touch(self, start: int, end: int) -> None:
        if self.start < 0:
            self.start = start
        self.end = end


def scan(builder: Builder, frag: Fragment, context: str) -> None:
    _Scanner(builder, frag, context).run()


class _Scanner:
    def __init__(self, builder: Builder, frag: Fragment, context: str) -> None:
        self.builder = builder
        self.frag = frag
        self.src = frag.src
        self.context = context
        self.cmd = _Command()
        self.pipeline: list[_Command] = []
        self.function_name = False  # the next word names a function being defined
        # Heredocs whose bodies start after the next newline: (command, redirect index,
        # delimiter, strip leading tabs).
        self.pending: list[tuple[_Command, int, str, bool]] = []

    def run(self) -> None:
        src, n, i = self.src, len(self.src), 0
        while i < n:
            m = _BLANKS.match(src, i)
            if m:
                i = m.end()
                continue
            c = src[i]
            if c == "#":  # words are consumed whole, so this is at a word start: a comment
                newline = src.find("\n", i)
                i = n if newline < 0 else newline
                continue
            if c in "<>" and src.startswith("(", i + 1):
                i = self._word(i)
                continue
            m = _REDIRECT.match(src, i)  # words are consumed whole: `2>` here is an fd
            if m:
                i = self._redirect(m)
                continue
            m = _OPERATOR.match(src, i)
            if m:
                i = self._operator(m.group(), m.end())
                continue
            i = self._word(i)
        self._end_command()
        self._end_pipeline(background=False)

    def _word_end(self, i: int) -> int:
        src, n = self.src, len(self.src)
        start = i
        while i < n:
            m = _WORD_RUN.match(src, i)
            if m:
                i = m.end()
                continue
            c = src[i]
            if c in "<>" and src.startswith("(", i + 1):
                i = skip(src, i + 2, "p")
            elif c == "(" and _ARRAY_START.fullmatch(src, start, i):  # name=( … ) is one word
                i = skip(src, i + 1, "p")
            elif c in _WORD_STOP:
                break
            elif c == "$" and src[i + 1 : i + 2] in ("(", "{", "'"):
                i = skip_construct(src, i, src[i : i + 2])
            elif c == "$":
                i += 1
            else:
                i = skip_construct(src, i, c)
        return min(i, n)

    def _word(self, i: int) -> int:
        end = max(self._word_end(i), i + 1)
        cmd = self.cmd
        raw = self.src[i:end]
        if self.function_name:  # `function NAME`: a definition, not a command
            self.function_name = False
            return end
        if not cmd.words and not cmd.header:
            if raw == "function":
                self.function_name = True
                return end
            if raw in _KEYWORDS:
                return end
            if raw in _HEADERS:
                cmd.header = True
                return end
        cmd.words.append((i, end))
        cmd.touch(i, end)
        return end

    def _redirect(self, m: re.Match[str]) -> int:
        fd = int(m.group(1)) if m.group(1) else None
        op = m.group(2)
        i = m.end()
        blank = _BLANKS.match(self.src, i)
        if blank:
            i = blank.end()
        end = self._word_end(i)
        target = (i, end) if end > i else None
        self.cmd.redirects.append(RedirectSpec(op, fd, target))
        self.cmd.touch(m.start(), max(end, m.end()))
        if op in ("<<", "<<-") and target is not None:
            delimiter = self.src[i:end].replace("'", "").replace('"', "").replace("\\", "")
            self.pending.append((self.cmd, len(self.cmd.redirects) - 1, delimiter, op == "<<-"))
        return max(end, m.end())

    def _operator(self, op: str, end: int) -> int:
        if op == "\n" and self.pending:
            end = self._heredoc_bodies(end)
        self._end_command()
        if op in ("|", "|&"):
            return end
        self._end_pipeline(background=op == "&")
        return end

    def _heredoc_bodies(self, i: int) -> int:
        """Read the pending heredoc bodies starting at ``i`` (just after a newline)."""
        src, n = self.src, len(self.src)
        for cmd, index, delimiter, strip_tabs in self.pending:
            start = i
            while i < n:
                newline = src.find("\n", i)
                line_end = n if newline < 0 else newline
                line = src[i:line_end]
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    body_end = i
                    i = min(line_end + 1, n)
                    break
                i = line_end + 1
            else:
                body_end = n
                i = n
            spec = cmd.redirects[index]
            cmd.redirects[index] = RedirectSpec(spec.op, spec.fd, spec.target, None, (start, body_end))
        self.pending = []
        return i

    def _end_command(self) -> None:
        cmd = self.cmd
        self.cmd = _Command()
        if cmd.header:
            self.builder.command_words(self.frag, cmd.words)
            self.builder.redirects(self.frag, cmd.redirects)
        elif cmd.words or cmd.redirects:
            self.pipeline.append(cmd)

    def _end_pipeline(self, background: bool) -> None:
        stages, self.pipeline = self.pipeline, []
        if stages:
            built = [(cmd.words, cmd.redirects, (cmd.start, cmd.end)) for cmd in stages]
            self.builder.pipeline(self.frag, built, self.context, background)
