"""Walk bashlex's tree and report every simple command to the :class:`Builder`.

bashlex supplies the structure (lists, pipelines, compounds, functions, redirections,
heredoc bodies) as source offsets; words are resolved from the raw source slices by
``words.py``, which also finds the substitutions (so they are handled the same way
whether bashlex parsed them or not, e.g. inside ``${x:-$(cmd)}``).
"""

from __future__ import annotations

from horizon_cli.guard.build import Builder, Fragment, Place, RedirectSpec
from horizon_cli.guard.quoting import skip

_SKIP_KINDS = frozenset({"reservedword", "operator", "pipe", "heredoc", "tilde", "parameter"})


def walk_script(builder: Builder, frag: Fragment, nodes: list, context: str) -> None:
    walker = _Walker(builder, frag)
    for node in nodes:
        walker.walk(node, Place(context))


class _Walker:
    __slots__ = ("builder", "frag")

    def __init__(self, builder: Builder, frag: Fragment) -> None:
        self.builder = builder
        self.frag = frag

    def walk(self, node, place: Place) -> None:
        kind = node.kind
        if kind == "command":
            self._command(node, place)
        elif kind == "list":
            self._list(node.parts, place)
        elif kind == "pipeline":
            self._pipeline(node, place)
        elif kind == "compound":
            self._compound(node, place)
        elif kind == "function":
            self._items(node.parts, Place("function") if place.context == "top" else place)
        elif kind == "for":
            self._for(node, place)
        elif kind in ("if", "while", "until"):
            self._items(node.parts, place)
        elif kind == "word":
            # Words outside simple commands (for-lists): resolve only for their substitutions.
            self._register_substitutions(node)
            self.builder.command_words(self.frag, [node.pos])
        elif kind not in _SKIP_KINDS:
            self._items(getattr(node, "parts", ()), place)

    def _items(self, parts, place: Place) -> None:
        for part in parts:
            self.walk(part, place)

    def _list(self, parts, place: Place) -> None:
        segments = self.builder.segments
        mark = len(segments)
        for part in parts:
            if part.kind == "operator":
                if part.op == "&":  # the whole and-or list since the last `;` or `&`
                    for _, _, seg in segments[mark:]:
                        seg.background = True
                if part.op not in ("&&", "||"):
                    mark = len(segments)
            else:
                self.walk(part, place)

    def _pipeline(self, node, place: Place) -> None:
        stages = [p for p in node.parts if p.kind not in ("pipe", "reservedword")]
        if len(stages) == 1:
            self.walk(stages[0], place)
            return
        pid = self.builder.new_pipeline()
        for index, stage in enumerate(stages):
            self.walk(stage, Place(place.context, pid, index, len(stages)))

    def _compound(self, node, place: Place) -> None:
        segments = self.builder.segments
        mark = len(segments)
        arithmetic = _arithmetic_command(self.frag.src, node.pos)
        if arithmetic is not None:
            # (( … )): bashlex reads nested subshells; bash runs no command, only the
            # substitutions inside the expression.
            self.builder.command_words(self.frag, [arithmetic])
        else:
            self._items(node.list, place)
        redirects = [self._redirect(r) for r in getattr(node, "redirects", ())]
        if redirects:
            # { …; } > f: the redirection applies to every command inside.
            built = self.builder.redirects(self.frag, redirects)
            for _, _, seg in segments[mark:]:
                seg.redirects.extend(built)

    def _for(self, node, place: Place) -> None:
        parts = node.parts
        if len(parts) > 1 and parts[1].kind == "word":
            self.builder.forget(self.frag.src[parts[1].pos[0] : parts[1].pos[1]])
            parts = parts[2:]
        self._items(parts, place)

    def _register_substitutions(self, node) -> None:
        """Hand bashlex's already parsed substitution bodies to the builder.

        The word resolver finds the same substitutions by offset; reusing bashlex's tree
        avoids parsing each body again (quadratic on nested substitutions).
        """
        src, base = self.frag.src, self.frag.base
        text = src[node.pos[0] : node.pos[1]]
        if "(" not in text and "`" not in text:
            return
        for sub in _substitution_nodes(node, []):
            start = sub.pos[0]
            inner = start + (1 if src[start : start + 1] == "`" else 2)
            self.builder.preparsed[base + inner] = (self.frag, sub.command)

    def _command(self, node, place: Place) -> None:
        self._register_substitutions(node)
        words: list[tuple[int, int]] = []
        redirects: list[RedirectSpec] = []
        for part in node.parts:
            kind = part.kind
            if kind in ("word", "assignment"):
                words.append(part.pos)
            elif kind == "redirect":
                redirects.append(self._redirect(part))
        end = max([node.pos[1], *(r.target[1] for r in redirects if r.body is not None)])
        self.builder.command(self.frag, words, redirects, (node.pos[0], end), place)

    def _redirect(self, node) -> RedirectSpec:
        op = node.type
        fd = getattr(node, "input", None)
        fd = fd if isinstance(fd, int) else None
        output = getattr(node, "output", None)
        heredoc = getattr(node, "heredoc", None)
        if output is None:
            return RedirectSpec(op, fd, None)
        if isinstance(output, (int, str)):  # fd duplication: `2>&1`, `>&2`, `3>&-`
            text = str(output)
            end = node.pos[1]
            if self.frag.src[end - len(text) : end] == text:
                return RedirectSpec(op, fd, (end - len(text), end))
            return RedirectSpec(op, fd, None, text)
        if heredoc is None:
            return RedirectSpec(op, fd, output.pos)
        target = _delimiter_span(self.frag.src, output.pos)
        body = _heredoc_body(self.frag.src, heredoc.pos, self.frag.src[target[0] : target[1]])
        return RedirectSpec(op, fd, target, None, body)


def _delimiter_span(src: str, pos: tuple[int, int]) -> tuple[int, int]:
    """The delimiter as written: the rewrite blanked its quotes, so bashlex's span is short."""
    start, end = pos
    while start > 0 and src[start - 1] in "'\"\\":
        start -= 1
    while end < len(src) and src[end] in "'\"":
        end += 1
    return start, end


def _arithmetic_command(src: str, pos: tuple[int, int]) -> tuple[int, int] | None:
    """The span of ``(( … ))`` when the compound at ``pos`` is an arithmetic command."""
    start = pos[0]
    if not src.startswith("((", start):
        return None
    end = skip(src, start + 1, "p")
    return (start, end) if end <= len(src) and src[end - 2 : end] == "))" else None


def _substitution_nodes(node, out: list) -> list:
    """Command/process substitution nodes directly inside ``node``'s words and redirects."""
    for part in getattr(node, "parts", ()):
        if part.kind in ("commandsubstitution", "processsubstitution"):
            out.append(part)
        else:
            _substitution_nodes(part, out)
    output = getattr(node, "output", None)
    if output is not None and not isinstance(output, (int, str)):
        _substitution_nodes(output, out)
    return out


def _heredoc_body(src: str, pos: tuple[int, int], raw_delimiter: str) -> tuple[int, int]:
    """The body span without its closing delimiter line (bashlex includes it)."""
    start, end = pos
    last_newline = src.rfind("\n", start, end)
    if last_newline < 0:
        return (start, start) if src[start:end].strip() == _unquote(raw_delimiter) else (start, end)
    if src[last_newline + 1 : end].strip("\t ") == _unquote(raw_delimiter):
        return (start, last_newline + 1)
    return (start, end)


def _unquote(raw: str) -> str:
    return raw.replace("'", "").replace('"', "").replace("\\", "")
