"""Rule examples as executable tests of a policy.

A rule may carry ``examples = { deny = [...], gate = [...], allow = [...] }``:
commands and the verdict the whole policy must give each. Checking them
against the real classifier catches a policy edit that silently changes what
a rule does (a loosened regex, a verdict override, a new allow-list entry).

Rules switched ``off`` are skipped: their examples describe the rule when it
is on, and an overlay that turns a rule off should not have to delete them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

EXAMPLE_VERDICTS = ("deny", "gate", "allow")


@dataclass(frozen=True)
class ExampleFailure:
    """One example whose classification differs from what its rule promises."""

    rule: str
    example: str
    expected: str
    actual: str
    decided_by: str | None = None  # the rule behind the actual verdict, if any
    reason: str = ""
    source: str | None = None  # the policy layer that declared the example, when known

    def __str__(self) -> str:
        why = f" ({self.decided_by}: {self.reason})" if self.decided_by else f" ({self.reason})" if self.reason else ""
        return f"{self.rule}: example {self.example!r}: expected {self.expected}, got {self.actual}{why}"


def iter_examples(rules: Mapping[str, Any]) -> Iterable[tuple[str, str, str]]:
    """``(rule id, expected verdict, command)`` for every example of every rule that is on."""
    for rule_id in sorted(rules):
        rule = rules[rule_id]
        if not isinstance(rule, Mapping) or rule.get("verdict") == "off":
            continue
        examples = rule.get("examples") or {}
        for verdict in EXAMPLE_VERDICTS:
            for command in examples.get(verdict, ()):
                yield rule_id, verdict, command


def check_examples(
    policy: Any,
    classify: Callable[[str], Any] | None = None,
    layers: Iterable[tuple[str, Mapping[str, Any]]] = (),
) -> list[ExampleFailure]:
    """Every example of ``policy`` (a :class:`~horizon_cli.policy.Policy`) that fails.

    ``classify`` maps a command to an object with ``verdict`` (and, if it has
    them, ``decisive.rule``/``decisive.message``); by default the real
    classifier built from ``policy``. ``layers`` (``(source, table)``, lowest
    first, as from ``policy_layers``) lets a failure name the file that
    declared the example.
    """
    if classify is None:
        from horizon_cli.guard.engine import Classifier

        classify = Classifier(policy).classify
    layers = list(layers)
    failures = []
    for rule_id, expected, command in iter_examples(policy.table("rules")):
        result = classify(command)
        actual = str(result.verdict)
        if actual == expected:
            continue
        decisive = getattr(result, "decisive", None)
        failures.append(
            ExampleFailure(
                rule=rule_id,
                example=command,
                expected=expected,
                actual=actual,
                decided_by=getattr(decisive, "rule", None),
                reason=getattr(decisive, "message", "") or "",
                source=_declared_in(layers, rule_id, expected, command),
            )
        )
    return failures


def _declared_in(layers: list[tuple[str, Mapping[str, Any]]], rule_id: str, verdict: str, command: str) -> str | None:
    # The topmost layer that lists the example is the one the merged policy took it from.
    for source, table in reversed(layers):
        examples = table.get("rules", {}).get(rule_id, {}).get("examples", {})
        if command in (*examples.get(verdict, ()), *examples.get(f"extend_{verdict}", ())):
            return source
    return None
