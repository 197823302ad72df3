"""The rule catalogue: a policy's ``[rules.HZnnn]`` tables as uniform records.

Used by ``horizon rules`` (listing and explaining) and by report writers that
need each rule's name and help (SARIF ``tool.driver.rules``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from horizon_cli.errors import HorizonError


def rule_records(rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every rule, sorted by id, with all fields present (empty when the policy omits them)."""
    return [rule_record(rule_id, rules[rule_id]) for rule_id in sorted(rules) if isinstance(rules[rule_id], Mapping)]


def rule_record(rule_id: str, rule: Mapping[str, Any]) -> dict[str, Any]:
    examples = rule.get("examples") or {}
    return {
        "id": rule_id,
        "name": str(rule.get("name", "")),
        "verdict": str(rule.get("verdict", "deny")),
        "description": str(rule.get("description", "")),
        "doc": str(rule.get("doc", "")),
        "examples": {v: list(examples[v]) for v in ("deny", "gate", "allow") if examples.get(v)},
    }


def find_rule(records: list[dict[str, Any]], wanted: str) -> dict[str, Any]:
    """The record whose id (any case) or name is ``wanted``; else a HorizonError suggesting the closest."""
    key = wanted.strip()
    for record in records:
        if record["id"].lower() == key.lower() or (record["name"] and record["name"] == key):
            return record
    match = _closest(records, key)
    hint = f" (did you mean {match!r}?)" if match else " (see `horizon rules` for the list)"
    raise HorizonError(f"unknown rule {wanted!r}{hint}")


def _closest(records: list[dict[str, Any]], key: str) -> str | None:
    number = re.fullmatch(r"(?i)hz(\d+)", key)
    ids = [r["id"] for r in records]
    prefixed = [i for i in ids if i.upper().startswith(key.upper())]
    if number and prefixed:
        return prefixed[0]  # a truncated id: HZ40 -> HZ401
    if number and ids:
        # An id is a number: HZ109 is nearest to HZ108, not to whatever sorts last.
        target = int(number.group(1))
        numbered = [(abs(int(i[2:]) - target), i) for i in ids if i[2:].isdigit()]
        return min(numbered)[1] if numbered else None
    candidates = ids + [r["name"] for r in records if r["name"]]
    match = difflib.get_close_matches(key, candidates, n=1, cutoff=0.5)
    return match[0] if match else None
