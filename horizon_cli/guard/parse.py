"""Entry point of the shell parse layer: text -> :class:`ParsedScript`, never raising.

Order of attempts for every fragment (the script, and each substitution body):
1. fast path (``simple.py``): words and simple quotes joined by ``| && || ; &`` only,
   split exactly without importing or running bashlex (about half of real commands);
2. bashlex on the text after safe, offset-preserving rewrites (``rewrite.py``);
3. the conservative quote-aware scanner (``scanner.py``), marking the result incomplete.
"""

from __future__ import annotations

import re

from horizon_cli.guard.build import Builder, Fragment
from horizon_cli.guard.model import ParsedScript
from horizon_cli.guard.simple import simple_pipelines

# Blank lines and comments only: no command (and bashlex crashes on such input).
_NOTHING = re.compile(r"(?:[ \t\n]|\\\n|#[^\n]*)*\Z")
# bashlex recurses per nesting level and, near Python's recursion limit, fails slowly;
# such text goes straight to the scanner.
MAX_BASHLEX_NESTING = 64
_PARENS = re.compile(r"[()]")


def parse_script(text: str, env: dict[str, str] | None = None) -> ParsedScript:
    """Every simple command of ``text``, in source order, with resolved words.

    ``env`` gives statically known variable values; ``$HOME`` resolves to ``~`` unless
    ``env`` or the script sets it. Never raises: what cannot be parsed exactly is
    scanned conservatively and reported through ``complete=False`` and ``problems``.
    """
    builder = Builder(text, env)
    builder.parse_fragment = _parse_fragment
    builder.walk_parsed = _walk_parsed
    try:
        _parse_fragment(builder, Fragment(text, 0, 0), "top")
    except Exception as exc:  # noqa: BLE001 - a parser bug must degrade, never crash the caller
        builder.problem(f"internal parser error: {type(exc).__name__}: {exc}")
        if not builder.segments:
            _scan_fallback(builder, Fragment(text, 0, 0), "top")
    return ParsedScript(builder.sorted_segments(), builder.complete, builder.problems, text)


def _parse_fragment(builder: Builder, frag: Fragment, context: str) -> None:
    pipelines = simple_pipelines(frag.src)
    if pipelines is not None:
        for stages, background in pipelines:
            built = [(spans, [], (spans[0][0], spans[-1][1])) for spans in stages]
            builder.pipeline(frag, built, context, background)
        return
    if _NOTHING.match(frag.src):
        return
    from horizon_cli.guard.rewrite import rewrite  # noqa: PLC0415 - only for non-plain text

    if frag.src.count("(") > MAX_BASHLEX_NESTING and _nesting(frag.src) > MAX_BASHLEX_NESTING:
        builder.problem(f"nesting deeper than {MAX_BASHLEX_NESTING} levels: scanned, not parsed")
        _scan_fallback(builder, frag, context)
        return
    nodes, error = _bashlex_parse(rewrite(frag.src), frag.base)
    if error is None:
        _walk_parsed(builder, frag, nodes, context)
        return
    builder.problem(f"bashlex: {error}")
    _scan_fallback(builder, frag, context)


def _nesting(text: str) -> int:
    """Maximum parenthesis depth (quotes ignored: an upper bound is all that is needed)."""
    depth = deepest = 0
    for m in _PARENS.finditer(text):
        depth = depth + 1 if m.group() == "(" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _walk_parsed(builder: Builder, frag: Fragment, nodes: list, context: str) -> None:
    from horizon_cli.guard.bashlex_adapter import walk_script  # noqa: PLC0415

    walk_script(builder, frag, nodes, context)


def _bashlex_parse(text: str, base: int) -> tuple[list, str | None]:
    import bashlex  # noqa: PLC0415 - ~110 ms import, only when shell syntax is present

    try:
        return bashlex.parse(text), None
    except Exception as exc:  # noqa: BLE001 - bashlex raises assorted errors (and bugs)
        return [], _describe(exc, text, base)


def _describe(exc: Exception, text: str, base: int) -> str:
    """bashlex's message with the error offset in the whole script."""
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    position = getattr(exc, "position", None)
    if isinstance(position, int):
        return f"{message} at {base + min(position, len(text))}"
    return message


def _scan_fallback(builder: Builder, frag: Fragment, context: str) -> None:
    from horizon_cli.guard.scanner import scan  # noqa: PLC0415

    scan(builder, frag, context)
