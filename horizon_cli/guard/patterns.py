"""Policy-defined rules (``[rules.HZnnn]`` with matchers) applied to one segment."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from functools import lru_cache

from horizon_cli.guard import paths
from horizon_cli.guard.argv import parse_options
from horizon_cli.guard.config import PatternRule
from horizon_cli.guard.view import Hit, SegmentView


def pattern_hits(view: SegmentView, rules: Iterable[PatternRule]) -> list[Hit]:
    hits: list[Hit] = []
    options = None
    for rule in rules_for(view.exe, tuple(rules)):
        if options is None:
            options = parse_options(view.values)
        if _matches(rule, view, options):
            hits.append(Hit(rule.id, rule.verdict, _message(rule, view)))
    return hits


@lru_cache(maxsize=2048)
def rules_for(exe: str, rules: tuple[PatternRule, ...]) -> tuple[PatternRule, ...]:
    """The rules whose executables match ``exe`` (most segments match none: one dict-speed lookup)."""
    return tuple(r for r in rules if any(fnmatch.fnmatchcase(exe, glob) for glob in r.executables))


def target_hits(targets: Iterable[str], rules: Iterable[PatternRule]) -> list[Hit]:
    """Rules with ``redirect_to``: write targets (redirections, tee, dd of=) against device globs."""
    hits = []
    for target in targets:
        normalized = paths.normalize_path(target)
        for rule in rules:
            if any(path_glob(normalized, glob) for glob in rule.redirect_to):
                hits.append(Hit(rule.id, rule.verdict, f"{rule.description}: {target}"))
    return hits


def _matches(rule: PatternRule, view: SegmentView, options) -> bool:
    present = options.flags | options.values.keys()
    if rule.flags_any and not present.intersection(rule.flags_any):
        return False
    if rule.flags_all and not present.issuperset(rule.flags_all):
        return False
    if rule.args_any and not any(_arg_matches(op, rule.args_any) for op in options.operands):
        return False
    if rule.argv is not None and not rule.argv.search(" ".join(view.values)):
        return False
    if rule.text is not None and not rule.text.search(view.segment.text):
        return False
    return True


def _arg_matches(operand: str, patterns: Iterable[str]) -> bool:
    normalized = paths.normalize_path(operand) if operand else operand
    for pattern in patterns:
        if pattern.startswith("="):
            if operand == pattern[1:]:
                return True
        elif path_glob(normalized, pattern):
            return True
    return False


def path_glob(path: str, pattern: str) -> bool:
    """Path-aware glob: ``*``/``?`` stay within a segment, ``**`` crosses segments; no home magic."""
    return bool(_compile(pattern).fullmatch(path))


@lru_cache(maxsize=1024)
def _compile(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
        i += 1
    return re.compile("".join(out))


def _message(rule: PatternRule, view: SegmentView) -> str:
    shown = " ".join([view.exe, *view.values])
    return f"{rule.description}: {shown[:120]}"
