"""Segment construction shared by the bashlex adapter and the fallback scanner.

Both front ends report simple commands as source spans; the builder resolves the
words (with constant propagation of earlier assignments), records redirections,
and parses every command/process substitution it meets as a nested fragment.
"""

from __future__ import annotations

import bisect
import re

from horizon_cli.guard.model import Redirect, Segment, Word
from horizon_cli.guard.words import (
    Sub,
    assignment_name,
    expand_heredoc,
    resolve_assignment,
    resolve_value,
    resolve_words,
)

MAX_DEPTH = 32  # nested substitutions deeper than this are not parsed (complete=False)

_DECLARATION_BUILTINS = frozenset({"export", "local", "declare", "typeset", "readonly"})
_QUOTE_CHARS = frozenset("'\"\\")
_LEADING_TABS = re.compile(r"^\t+", re.M)
_NEWLINE = re.compile("\n")


class Place:
    """Where a command stands: its context and pipeline position (None: its own pipeline)."""

    __slots__ = ("context", "pipeline", "stage", "stages")

    def __init__(self, context: str = "top", pipeline: int | None = None, stage: int = 0, stages: int = 1) -> None:
        self.context = context
        self.pipeline = pipeline
        self.stage = stage
        self.stages = stages


class RedirectSpec:
    """A redirection as a front end sees it (offsets local to the fragment).

    ``target``: span of the target word; ``target_text``: a bare fd number (``2>&1``),
    which has no word of its own; ``body``: span of a heredoc body.
    """

    __slots__ = ("op", "fd", "target", "target_text", "body")

    def __init__(
        self,
        op: str,
        fd: int | None,
        target: tuple[int, int] | None,
        target_text: str | None = None,
        body: tuple[int, int] | None = None,
    ) -> None:
        self.op = op
        self.fd = fd
        self.target = target
        self.target_text = target_text
        self.body = body


class Fragment:
    """A piece of the script being parsed: its text and its offset in the whole script."""

    __slots__ = ("src", "base", "depth")

    def __init__(self, src: str, base: int, depth: int) -> None:
        self.src = src
        self.base = base
        self.depth = depth


class Builder:
    """Accumulates segments, variables and problems for one ``parse_script`` call."""

    def __init__(self, text: str, env: dict[str, str] | None) -> None:
        self.text = text
        self.vars: dict[str, str] = {"HOME": "~"}
        if env:
            self.vars.update(env)
        self.segments: list[tuple[int, int, Segment]] = []  # (offset, order, segment)
        self.problems: list[str] = []
        self.complete = True
        self._pipelines = 0
        self._newlines: list[int] | None = None
        # Set by parse.py (the builder never imports the parsers): parse a fragment's text,
        # and walk a subtree bashlex already parsed.
        self.parse_fragment = None  # (builder, Fragment, context) -> None
        self.walk_parsed = None  # (builder, Fragment, [node], context) -> None
        # Substitution bodies bashlex already parsed, by absolute offset of the body.
        self.preparsed: dict[int, tuple[Fragment, object]] = {}

    # -- bookkeeping -----------------------------------------------------------------------

    def new_pipeline(self) -> int:
        self._pipelines += 1
        return self._pipelines

    def problem(self, message: str) -> None:
        self.complete = False
        if message not in self.problems:
            self.problems.append(message)

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._newlines is None:
            self._newlines = [m.start() for m in _NEWLINE.finditer(self.text)]
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def sorted_segments(self) -> list[Segment]:
        return [seg for _, _, seg in sorted(self.segments, key=lambda t: (t[0], t[1]))]

    def forget(self, name: str) -> None:
        """A variable whose value is no longer known statically (loop variable, read)."""
        self.vars.pop(name, None)

    # -- commands --------------------------------------------------------------------------

    def command(
        self,
        frag: Fragment,
        words: list[tuple[int, int]],
        redirects: list[RedirectSpec],
        span: tuple[int, int],
        place: Place,
    ) -> Segment:
        """Build the segment for one simple command; parse its substitutions after it."""
        src, base = frag.src, frag.base
        subs: list[Sub] = []
        assignments: list[tuple[str, Word]] = []
        argv: list[Word] = []
        scope = self.vars  # `a=1 b=$a` sees a=1; the command's own words do not
        for start, end in words:
            raw = src[start:end]
            if not argv and assignment_name(raw):
                name, value = resolve_assignment(raw, base + start, scope, subs)
                assignments.append((name, value))
                if scope is self.vars:
                    scope = dict(self.vars)
                _assign(scope, name, value)
            else:
                argv.extend(resolve_words(raw, base + start, self.vars, subs))
        redirs = [self._redirect(frag, spec, subs) for spec in redirects]
        line, col = self.line_col(base + span[0])
        pipeline = place.pipeline if place.pipeline is not None else self.new_pipeline()
        segment = Segment(
            argv=argv,
            assignments=assignments,
            redirects=redirs,
            text=src[span[0] : span[1]],
            line=line,
            col=col,
            pipeline=pipeline,
            stage=place.stage,
            stages=place.stages,
            context=place.context,
        )
        self.segments.append((base + span[0], len(self.segments), segment))
        self._propagate(argv, assignments)
        self._parse_subs(frag, subs)
        return segment

    def pipeline(
        self,
        frag: Fragment,
        stages: list[tuple[list[tuple[int, int]], list[RedirectSpec], tuple[int, int]]],
        context: str,
        background: bool,
    ) -> None:
        """Build one pipeline's segments from (words, redirects, span) per stage."""
        pid = self.new_pipeline() if len(stages) > 1 else None
        for index, (words, redirects, span) in enumerate(stages):
            place = Place(context, pid, index, len(stages)) if pid else Place(context)
            self.command(frag, words, redirects, span, place).background = background

    def command_words(self, frag: Fragment, words: list[tuple[int, int]]) -> None:
        """Words outside any simple command (``for x in …``): only their substitutions run."""
        subs: list[Sub] = []
        for start, end in words:
            resolve_words(frag.src[start:end], frag.base + start, self.vars, subs)
        self._parse_subs(frag, subs)

    def redirects(self, frag: Fragment, specs: list[RedirectSpec]) -> list[Redirect]:
        """Redirections of a compound command (``{ …; } > f``)."""
        subs: list[Sub] = []
        built = [self._redirect(frag, spec, subs) for spec in specs]
        self._parse_subs(frag, subs)
        return built

    def _redirect(self, frag: Fragment, spec: RedirectSpec, subs: list[Sub]) -> Redirect:
        src, base = frag.src, frag.base
        target: Word | None = None
        if spec.target is not None:
            start, end = spec.target
            raw = src[start:end]
            if spec.op in ("<<", "<<-"):  # the delimiter is never expanded
                target = resolve_value(raw, base + start, {}, [])
            else:
                target = resolve_value(raw, base + start, self.vars, subs)
        elif spec.target_text is not None:
            target = Word(spec.target_text, spec.target_text, True, False, spec.target_text, base)
        body: str | None = None
        if spec.body is not None:
            start, end = spec.body
            body = src[start:end]
            if spec.op == "<<-":  # bash strips leading tabs from every body line
                body = _LEADING_TABS.sub("", body)
            raw_delim = src[spec.target[0] : spec.target[1]] if spec.target else ""
            if not _QUOTE_CHARS.intersection(raw_delim):
                body = expand_heredoc(body, base + start, self.vars, subs)
        elif spec.op == "<<<" and target is not None:
            body = target.value
        return Redirect(spec.op, target, spec.fd, body)

    def _propagate(self, argv: list[Word], assignments: list[tuple[str, Word]]) -> None:
        """Constant propagation: remember statically known assignments for later words."""
        if not argv:
            for name, value in assignments:
                _assign(self.vars, name, value)
            return
        head = argv[0].value
        if head in _DECLARATION_BUILTINS:
            for word in argv[1:]:
                if assignment_name(word.raw):
                    name, value = resolve_assignment(word.raw, word.pos, self.vars, [])
                    _assign(self.vars, name, value)
        elif head in ("read", "mapfile", "readarray", "unset"):
            for word in argv[1:]:
                if not word.value.startswith("-"):
                    self.forget(word.value)

    def _parse_subs(self, frag: Fragment, subs: list[Sub]) -> None:
        for context, inner, offset in subs:
            if not inner.strip():
                continue
            if frag.depth >= MAX_DEPTH:
                self.problem(f"substitutions nested deeper than {MAX_DEPTH} levels not parsed")
                return
            parsed = self.preparsed.pop(offset, None)
            if parsed is not None:
                owner, node = parsed
                self.walk_parsed(self, Fragment(owner.src, owner.base, frag.depth + 1), [node], context)
            else:
                self.parse_fragment(self, Fragment(inner, offset, frag.depth + 1), context)


MAX_KNOWN_VALUE = 4096


def _assign(scope: dict[str, str], name: str, value: Word) -> None:
    """Record an assignment: a static scalar value is known, anything else unknown."""
    if name.endswith("+"):  # NAME+=value appends
        name = name[:-1]
        old = scope.get(name)
        if old is None or not value.static:
            scope.pop(name, None)
        else:
            scope[name] = old + value.value
    elif value.static and not value.raw.startswith("("):  # arrays are not scalars
        scope[name] = value.value
    else:
        scope.pop(name, None)
    if len(scope.get(name, "")) > MAX_KNOWN_VALUE:
        # `a=$a$a` doubling would otherwise grow without bound (memory, time): beyond this it is unknown.
        scope.pop(name, None)
