"""Findings in the formats CI systems read: GitHub Actions annotations and SARIF 2.1.0.

Both take :class:`Located` findings (a verdict tied to a place in a file), so
any command that reports findings by file and line can use them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

INFORMATION_URI = "https://pypi.org/project/horizon-cli/"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

GITHUB_COMMANDS = {"deny": "error", "gate": "warning", "allow": "notice"}
SARIF_LEVELS = {"deny": "error", "gate": "warning", "allow": "note", "off": "none"}


@dataclass(frozen=True)
class Located:
    """One finding at a place in a file: ``path:line:col: RULE verdict: message``."""

    path: str
    line: int
    col: int
    rule: str
    verdict: str
    message: str
    command: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.rule} {self.verdict}: {self.message}"


# --- GitHub Actions workflow commands ------------------------------------------------


def github_annotations(findings: Iterable[Located]) -> str:
    """One ``::error``/``::warning``/``::notice`` workflow command per finding.

    deny -> error, gate -> warning, allow -> notice. The message carries the
    command on its own line (unless the message already ends with it).
    Escaping follows the Actions runner: ``%``, CR and LF in the message;
    additionally ``:`` and ``,`` in property values.
    """
    lines = []
    for f in findings:
        kind = GITHUB_COMMANDS.get(f.verdict, "notice")
        props = ",".join(
            f"{key}={_escape_property(str(value))}"
            for key, value in (("file", f.path), ("line", f.line), ("col", f.col), ("title", f"{f.rule} {f.verdict}"))
        )
        show_command = f.command and not f.message.endswith(f.command)
        message = f"{f.message}\n{f.command}" if show_command else f.message
        lines.append(f"::{kind} {props}::{_escape_data(message)}\n")
    return "".join(lines)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


# --- SARIF 2.1.0 ----------------------------------------------------------------------


def sarif_log(findings: Iterable[Located], rules: Mapping[str, Mapping[str, Any]], tool_version: str) -> dict[str, Any]:
    """A complete SARIF 2.1.0 log with one run.

    ``rules`` is the policy's ``[rules]`` table (id -> name, verdict,
    description, doc, examples). Every rule appears in ``tool.driver.rules``
    so viewers can show its help; a finding whose rule is not in the table
    (e.g. a parse problem) gets a minimal descriptor of its own.
    """
    findings = list(findings)
    ids = sorted(rules)
    ids += sorted({f.rule for f in findings} - set(rules))
    index = {rule_id: i for i, rule_id in enumerate(ids)}
    driver = {
        "name": "horizon",
        "informationUri": INFORMATION_URI,
        "version": tool_version,
        "rules": [rule_descriptor(rule_id, rules.get(rule_id, {})) for rule_id in ids],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": [_result(f, index[f.rule]) for f in findings],
            }
        ],
    }


def rule_descriptor(rule_id: str, rule: Mapping[str, Any]) -> dict[str, Any]:
    """A SARIF ``reportingDescriptor`` for one policy rule."""
    verdict = str(rule.get("verdict", "deny"))
    description = str(rule.get("description") or rule.get("name") or rule_id)
    doc = str(rule.get("doc") or description)
    examples = rule.get("examples") or {}
    descriptor: dict[str, Any] = {
        "id": rule_id,
        "name": _pascal(str(rule.get("name") or rule_id)),
        "shortDescription": {"text": description},
        "fullDescription": {"text": doc},
        "help": {"text": _help_text(doc, examples), "markdown": _help_markdown(doc, examples)},
        "defaultConfiguration": {"level": SARIF_LEVELS.get(verdict, "warning"), "enabled": verdict != "off"},
        "properties": {"verdict": verdict, "tags": ["security", "shell"]},
    }
    if rule.get("name"):
        descriptor["properties"]["horizonName"] = str(rule["name"])
    return descriptor


def _result(f: Located, rule_index: int) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(1, f.line), "startColumn": max(1, f.col)}
    if f.command:
        region["snippet"] = {"text": f.command}
    location: dict[str, Any] = {"artifactLocation": artifact_location(f.path), "region": region}
    return {
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": SARIF_LEVELS.get(f.verdict, "warning"),
        "message": {"text": f.message},
        "locations": [{"physicalLocation": location}],
        "properties": {"verdict": f.verdict, "command": f.command},
    }


def artifact_location(path: str) -> dict[str, Any]:
    """A relative path becomes a URI reference against ``%SRCROOT%`` (what code scanning expects)."""
    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": pure.as_uri()}
    return {"uri": quote(pure.as_posix(), safe="/-._~"), "uriBaseId": "%SRCROOT%"}


def _pascal(name: str) -> str:
    # SARIF recommends rule names that read as identifiers: recursive-delete -> RecursiveDelete.
    parts = [p for p in _split_words(name) if p]
    return "".join(p[:1].upper() + p[1:] for p in parts) or name


def _split_words(name: str) -> list[str]:
    out, word = [], ""
    for ch in name:
        if ch.isalnum():
            word += ch
        else:
            out.append(word)
            word = ""
    return [*out, word]


def _examples(examples: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    return [(v, [str(x) for x in examples.get(v, [])]) for v in ("deny", "gate", "allow") if examples.get(v)]


def _help_text(doc: str, examples: Mapping[str, Any]) -> str:
    parts = [doc]
    for verdict, items in _examples(examples):
        parts.append(f"{verdict}:\n" + "\n".join(f"    {x}" for x in items))
    return "\n\n".join(parts)


def _help_markdown(doc: str, examples: Mapping[str, Any]) -> str:
    parts = [doc]
    for verdict, items in _examples(examples):
        parts.append(f"**{verdict}**:\n\n```sh\n" + "\n".join(items) + "\n```")
    return "\n\n".join(parts)
