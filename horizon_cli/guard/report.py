"""Turning classifications into records: the stable JSON schema and located findings."""

from __future__ import annotations

from typing import Any

from horizon_cli.guard.model import Classification, Finding, Verdict
from horizon_cli.guard.sources import Item


def absolute(item: Item, line: int, col: int) -> tuple[int, int]:
    """Map a position inside the item's text to the position in its file."""
    if item.mode != "script":
        return item.line, item.col
    return item.line + line - 1, col + item.col - 1


def to_record(item: Item, result: Classification) -> dict[str, Any]:
    """One JSON object per input command (README: "classify JSON schema")."""
    decisive = result.decisive
    record: dict[str, Any] = {
        "path": item.path,
        "line": item.line,
        "command": result.command.rstrip("\n"),
        "verdict": str(result.verdict),
        "rule": decisive.rule if decisive else _allow_rule(result),
        "reason": decisive.message if decisive else _allow_reason(result),
        "complete": result.complete,
        "segments": [
            {"text": s.text, "executable": s.executable, "verdict": str(s.verdict), "rule": s.rule or None,
             "reason": s.reason, "line": absolute(item, s.line, s.col)[0], "col": absolute(item, s.line, s.col)[1]}
            for s in result.segments
        ],
        "findings": [_finding(item, f) for f in result.findings if f.verdict > Verdict.ALLOW],
    }
    if item.tool is not None:
        record["tool"] = item.tool
    return record


def decisive_findings(result: Classification) -> list[Finding]:
    """The findings at the overall verdict, one per rule (what linters show)."""
    seen: set[tuple[str, int]] = set()
    chosen = []
    for finding in result.findings:
        key = (finding.rule, finding.line)
        if finding.verdict == result.verdict and key not in seen:
            seen.add(key)
            chosen.append(finding)
    return chosen


def _finding(item: Item, finding: Finding) -> dict[str, Any]:
    line, col = absolute(item, finding.line, finding.col)
    return {"rule": finding.rule, "verdict": str(finding.verdict), "message": finding.message,
            "segment": finding.segment, "line": line, "col": col}


def _allow_rule(result: Classification) -> str | None:
    return next((s.rule for s in result.segments if s.rule), None)


def _allow_reason(result: Classification) -> str:
    return next((s.reason for s in result.segments if s.rule), "no command")
