"""Rendering classify results: text, json, jsonl, GitHub annotations, SARIF."""

from __future__ import annotations

from collections import Counter
from typing import Any, BinaryIO

import click
import orjson

from horizon_cli.commands.common import paint
from horizon_cli.guard.model import Classification
from horizon_cli.guard.report import absolute, decisive_findings, to_record
from horizon_cli.guard.sources import Item

COLORS = {"allow": "green", "gate": "yellow", "deny": "red"}


class Renderer:
    """Streams output per item where the format allows it; collects for json and sarif."""

    def __init__(self, fmt: str, style: str, color: bool, policy: Any, out: BinaryIO) -> None:
        self.fmt, self.style, self.color, self.policy, self.out = fmt, style, color, policy, out
        self.records: list[dict] = []
        self.located: list = []
        self.counts: Counter[str] = Counter()
        self.skipped = 0

    def emit(self, item: Item, result: Classification | None) -> None:
        if self.style == "jsonl-field":
            self._field(item, result)
            return
        if result is None:
            return
        self.counts[str(result.verdict)] += 1
        if self.fmt == "jsonl":
            self.out.write(orjson.dumps(to_record(item, result)) + b"\n")
        elif self.fmt == "json":
            self.records.append(to_record(item, result))
        elif self.fmt in ("github", "sarif"):
            self.located.extend(located(item, result))
        elif self.style == "lines":
            self.out.write(self._line(item, result).encode() + b"\n")
        else:
            for finding in located(item, result):
                self.out.write(self._lint(finding).encode() + b"\n")

    def close(self) -> None:
        if self.fmt == "json" and self.style != "jsonl-field":
            self.out.write(orjson.dumps(self.records, option=orjson.OPT_INDENT_2) + b"\n")
        elif self.fmt == "github":
            from horizon_cli.report import github_annotations

            self.out.write(github_annotations(self.located).encode())
        elif self.fmt == "sarif":
            self._sarif()
        self.out.flush()
        self._summary()

    def _line(self, item: Item, result: Classification) -> str:
        verdict = str(result.verdict)
        decisive = result.decisive
        record = None if decisive else to_record(item, result)
        rule = decisive.rule if decisive else record["rule"]
        reason = decisive.message if decisive else record["reason"]
        where = f" in `{decisive.segment}`" if decisive and decisive.segment and decisive.segment != result.command else ""
        label = paint(f"{verdict:<5}", COLORS[verdict], self.color, bold=verdict == "deny")
        return f"{label}  {_one_line(result.command)}  ({rule or '-'}{where}: {reason})"

    def _lint(self, finding) -> str:
        verdict = paint(finding.verdict, COLORS[finding.verdict], self.color, bold=True)
        where = paint(f"{finding.path}:{finding.line}:{finding.col}:", None, self.color, bold=True)
        return f"{where} {finding.rule} {verdict}: {finding.message}"

    def _field(self, item: Item, result: Classification | None) -> None:
        record = item.record
        if result is None or not isinstance(record, dict):
            self.skipped += 1
            self.out.write(orjson.dumps(record) + b"\n")
            return
        self.counts[str(result.verdict)] += 1
        full = to_record(item, result)
        verdict = {"verdict": full["verdict"], "rule": full["rule"], "reason": full["reason"]}
        self.out.write(orjson.dumps({**record, "horizon": verdict}) + b"\n")

    def _sarif(self) -> None:
        from horizon_cli import __version__
        from horizon_cli.report import sarif_log

        log = sarif_log(self.located, self.policy.table("rules"), __version__)
        self.out.write(orjson.dumps(log, option=orjson.OPT_INDENT_2) + b"\n")

    def _summary(self) -> None:
        if self.skipped:
            click.echo(f"horizon: {self.skipped} object(s) had no command at the field and passed through", err=True)
        if self.style == "lint" and self.fmt == "text" and self.counts:
            total = sum(self.counts.values())
            parts = ", ".join(f"{self.counts[v]} {v}" for v in ("deny", "gate", "allow"))
            click.echo(f"horizon: {total} command(s) checked: {parts}", err=True)


def located(item: Item, result: Classification) -> list:
    """Findings at the command's verdict, placed in the file (for lint text, GitHub and SARIF)."""
    from horizon_cli.report import Located

    found = []
    for finding in decisive_findings(result):
        if finding.verdict.value == 0:
            continue
        line, col = absolute(item, finding.line, finding.col)
        found.append(Located(item.path, line, col, finding.rule, str(finding.verdict), finding.message,
                             _one_line(finding.segment or result.command)))
    return found


def _one_line(text: str) -> str:
    return text if "\n" not in text else text.replace("\n", "\\n")
