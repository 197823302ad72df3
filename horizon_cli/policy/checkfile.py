"""`horizon policy check`: validate a policy file and test its rule examples.

A file is checked the way it will be used: layered over the built-in default
(a ``pyproject.toml`` contributes its ``[tool.horizon]`` table). Validation
errors stop the check of that file; otherwise every example of the merged
policy is classified and each mismatch is located in the file that declared it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from horizon_cli.errors import PolicyError
from horizon_cli.policy.examples import ExampleFailure, check_examples, iter_examples

BUILTIN_PREFIX = "built-in:"
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"-]+?)\s*\]")


@dataclass(frozen=True)
class LocatedFailure:
    failure: ExampleFailure
    path: str  # the file that declared the example (or built-in:NAME)
    line: int | None


@dataclass(frozen=True)
class FileCheck:
    """The outcome for one policy file: an error (invalid), or the example results."""

    path: str
    error: str | None = None
    rules: int = 0
    examples: int = 0
    failures: list[LocatedFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failures


def check_file(path: str, classify_for: Callable[[Any], Callable[[str], Any]] | None = None) -> FileCheck:
    """Validate ``path`` over the built-in default, then check the merged policy's examples.

    ``classify_for(policy)`` returns the classify function (default: the real classifier).
    """
    try:
        layers = file_layers(Path(path))
    except PolicyError as exc:
        return FileCheck(path=path, error=str(exc) if exc.path else f"{path}: {exc.message}")
    return check_layers(path, layers, classify_for)


def check_layers(
    path: str,
    layers: list[tuple[str, dict[str, Any]]],
    classify_for: Callable[[Any], Callable[[str], Any]] | None = None,
) -> FileCheck:
    """Check already-validated ``(source, table)`` layers (lowest first)."""
    from horizon_cli.policy import Policy, merge

    data: dict[str, Any] = {}
    for _, table in layers:
        data = merge(data, table)
    policy = Policy(data=data, sources=tuple(source for source, _ in layers))
    try:
        classify = classify_for(policy) if classify_for else None
        failures = check_examples(policy, classify, layers)
    except PolicyError as exc:
        # The classifier's own checks (e.g. a fail-closed rule set below gate).
        return FileCheck(path=path, error=str(exc) if exc.path else f"{path}: {exc.message}")
    rules = policy.table("rules")
    return FileCheck(
        path=path,
        rules=len(rules),
        examples=sum(1 for _ in iter_examples(rules)),
        failures=[_locate(f, path) for f in failures],
    )


def file_layers(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The built-in default and ``path`` as layers, each validated (PolicyError names the file)."""
    from horizon_cli.policy.loader import read_toml, shipped_policy
    from horizon_cli.policy.schema import validate

    default = shipped_policy("default")
    if default is None:
        raise PolicyError("the built-in policy default.toml is missing from this installation")
    if not path.is_file():
        raise PolicyError("no such policy file", path=str(path))
    table = read_toml(path)
    if path.name == "pyproject.toml":
        table = table.get("tool", {}).get("horizon")
        if not isinstance(table, dict):
            raise PolicyError("no [tool.horizon] table", path=str(path))
    layers = [(f"{BUILTIN_PREFIX}default", read_toml(default)), (str(path), table)]
    for source, layer in layers:
        validate(layer, source)
    return layers


def display_source(source: str) -> str:
    """A shipped policy shows as ``built-in:NAME``, anything else as given."""
    from horizon_cli.policy.loader import SHIPPED_DIRS

    candidate = Path(source)
    if candidate.suffix == ".toml" and any(candidate.parent == d for d in SHIPPED_DIRS):
        return f"{BUILTIN_PREFIX}{candidate.stem}"
    return source


def _locate(failure: ExampleFailure, checked: str) -> LocatedFailure:
    source = failure.source or checked
    if source.startswith(BUILTIN_PREFIX):
        return LocatedFailure(failure, source, None)
    return LocatedFailure(failure, source, example_line(source, failure.rule, failure.example))


def example_line(path: str, rule_id: str, example: str) -> int | None:
    """The line of ``example`` under the ``[rules.RULE]`` table of a TOML file (best effort).

    TOML has no positions in ``tomllib``'s output, so look for the example's
    text after the rule's header; fall back to the header line.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    target = re.compile(r"^(?:tool\.horizon\.)?rules\.\"?" + re.escape(rule_id) + r"\b")
    start = None
    for index, line in enumerate(lines):
        header = _HEADER.match(line)
        if header and target.match(header.group(1)):
            start = index if start is None else start
        elif header and start is not None:
            break  # the next table that is not part of this rule
        elif start is not None and example in line:
            return index + 1
    if start is None:
        # Inline or dotted-key rules (`HZ101 = { ... }`): any line with the example.
        return next((i + 1 for i, line in enumerate(lines) if repr(example)[1:-1] in line), None)
    return start + 1


def as_json(check: FileCheck) -> Mapping[str, Any]:
    """The stable JSON shape of one file's check (see `horizon policy check --help`)."""
    return {
        "path": check.path,
        "valid": check.error is None,
        "error": check.error,
        "rules": check.rules,
        "examples": check.examples,
        "failures": [
            {
                "rule": lf.failure.rule,
                "example": lf.failure.example,
                "expected": lf.failure.expected,
                "actual": lf.failure.actual,
                "decided_by": lf.failure.decided_by,
                "reason": lf.failure.reason,
                "path": lf.path,
                "line": lf.line,
            }
            for lf in check.failures
        ],
    }
