"""File writes: persistence points (HZ501), writes in the tree (HZ502) and outside it (HZ503)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from horizon_cli.guard import paths
from horizon_cli.guard.argv import parse_options
from horizon_cli.guard.config import GuardConfig
from horizon_cli.guard.model import Verdict
from horizon_cli.guard.secretcheck import could_name
from horizon_cli.guard.view import WRITE_OPS, Hit, SegmentView

HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "-"})
_WILDCARD = re.compile(r"[*?\[]")
COPY_TOOLS = frozenset({"cp", "mv", "install", "ln", "rsync"})


def write_targets(view: SegmentView) -> list[str]:
    """Every path this segment writes: redirections and the write operands of tee/cp/mv/dd/sed -i/truncate."""
    targets = [t for t in _redirect_targets(view) if _is_file_target(t)]
    targets.extend(t for t in _command_targets(view) if _is_file_target(t))
    return targets


def write_hits(view: SegmentView, config: GuardConfig, targets: list[str]) -> list[Hit]:
    hits: list[Hit] = []
    for target in targets:
        matched = could_name(target, config.persistence)
        if matched:
            verdict = config.verdict("HZ501", Verdict.DENY)
            hits.append(Hit("HZ501", verdict, f"writes to persistence point {target} (matches {matched})"))
        elif paths.is_inside_tree(target):
            hits.append(Hit("HZ502", config.verdict("HZ502", Verdict.GATE), f"writes {target}"))
        else:
            verdict = config.verdict("HZ503", config.outside_tree)
            hits.append(Hit("HZ503", verdict, f"writes {target} outside the working tree"))
    return [h for h in hits if h.verdict is not None]


def _redirect_targets(view: SegmentView) -> Iterator[str]:
    for redirect in view.segment.redirects:
        if redirect.op in WRITE_OPS and redirect.target is not None:
            value = redirect.target.value
            if redirect.op == ">&" and (value.isdigit() or value == "-"):
                continue
            yield value


def _command_targets(view: SegmentView) -> Iterator[str]:
    exe, values = view.exe, view.values
    if exe == "tee":
        yield from parse_options(values).operands
    elif exe in COPY_TOOLS:
        options = parse_options(values, ("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "-g"))
        target = options.value("-t", "--target-directory")
        if target:
            yield target
        elif len(options.operands) >= 2:
            yield options.operands[-1]
    elif exe == "dd":
        yield from (v[3:] for v in values if v.startswith("of="))
    elif exe == "truncate":
        yield from parse_options(values, ("-s", "--size", "-r", "--reference")).operands
    elif exe in ("curl", "wget"):
        from horizon_cli.guard.netcheck import VALUE_OPTIONS

        options = parse_options(values, VALUE_OPTIONS[exe])  # clusters: `curl -fsSLo FILE`
        for name in ("-o", "--output") if exe == "curl" else ("-O", "--output-document"):
            yield from options.values.get(name, ())
    elif exe == "history" and any(v in ("-w", "-a") for v in values):
        yield from (v for v in values if not v.startswith("-"))
    elif exe in AWKS:
        yield from _awk_targets(" ".join(values))
    if exe in ("sed", "gsed"):
        from horizon_cli.guard.nested import sed_scripts

        for script in sed_scripts(values):
            yield from (m.group(1) or m.group(2) for m in SED_WRITE.finditer(script))
    if exe in ("sed", "perl") and any(v.startswith(("-i", "--in-place")) for v in values):
        operands = [op for op in parse_options(values, ("-e", "-f", "--expression", "--file")).operands if op]
        script_given = any(v in ("-e", "--expression", "-f", "--file") for v in values)
        yield from operands[1:] if exe == "sed" and not script_given else operands


AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})
SED_WRITE = re.compile(r"(?:^|[;\n{}]|[0-9$/])\s*w\s+(\S+)|(?<!\\)/[gpiImM0-9]*w\s+(\S+)")
AWK_WRITE = re.compile(r'>>?\s*(?:ENVIRON\[\s*"HOME"\s*\]\s*)?"([^"]+)"')


def _awk_targets(program: str) -> Iterator[str]:
    for match in AWK_WRITE.finditer(program):
        path = match.group(1)
        yield f"~{path}" if "ENVIRON" in match.group(0) else path


def _is_file_target(target: str) -> bool:
    return bool(target) and target not in HARMLESS_TARGETS and not target.startswith(("/dev/fd/", "/dev/tcp/", "/dev/udp/"))
