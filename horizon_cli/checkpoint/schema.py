"""The checkpoint shape written by the TypeScript implementation (``--schema metaharness``).

Each problem is reported as ``path: what is wrong`` (paths like
``halt.staleCount`` or ``transcript[3].role``) so a user can fix every field
in one pass instead of one error at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SCHEMAS", "check_schema", "metaharness_errors"]

Check = Callable[[Any], "str | None"]


def _integer(value: Any) -> str | None:
    # TypeScript numbers are doubles: 3.0 is an integer, true is not.
    ok = not isinstance(value, bool) and (
        isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    )
    return None if ok and value >= 0 else "expected a non-negative integer"


def _number(value: Any) -> str | None:
    return None if isinstance(value, (int, float)) and not isinstance(value, bool) else "expected a number"


def _string(value: Any) -> str | None:
    return None if isinstance(value, str) else "expected a string"


def _string_or_null(value: Any) -> str | None:
    return None if value is None or isinstance(value, str) else "expected a string or null"


def _array(value: Any) -> str | None:
    return None if isinstance(value, list) else "expected an array"


def _object(value: Any) -> str | None:
    return None if isinstance(value, dict) else "expected an object"


def _schema_version(value: Any) -> str | None:
    # Only version 1 exists; a newer writer's checkpoint needs a newer reader.
    return None if _integer(value) is None and value == 1 else "expected schema version 1"


HALT_FIELDS: dict[str, Check] = {
    "iteration": _integer,
    "lastProgress": _string_or_null,
    "staleCount": _integer,
    "lastFailure": _string_or_null,
    "failureRepeat": _integer,
    "pending": _string_or_null,
}

TOP_FIELDS: dict[str, Check] = {
    "schema": _schema_version,
    "transcript": _array,
    "halt": _object,
    "actionCount": _integer,
    "workspaceCommit": _string_or_null,
    "evaluationHistory": _array,
    "budget": _object,
    "pendingApprovals": _array,
    "archiveBranch": _string_or_null,
    "memoryCursor": _string_or_null,
}


def metaharness_errors(document: Any) -> list[str]:
    """Every missing or mistyped field of a metaharness checkpoint, by path."""
    if not isinstance(document, dict):
        return ["$: expected an object"]
    errors = _fields(document, TOP_FIELDS, "")
    halt = document.get("halt")
    if isinstance(halt, dict):
        errors += _fields(halt, HALT_FIELDS, "halt.")
    errors += _transcript(document.get("transcript"))
    errors += _items(document.get("pendingApprovals"), "pendingApprovals", _string)
    errors += _items(document.get("evaluationHistory"), "evaluationHistory", _evaluation)
    budget = document.get("budget")
    if isinstance(budget, dict):
        errors += [f"budget.{key}: {why}, got {_describe(v)}" for key, v in budget.items() if (why := _number(v))]
    return errors


SCHEMAS: dict[str, Callable[[Any], list[str]]] = {"metaharness": metaharness_errors}


def check_schema(name: str, document: Any) -> list[str]:
    """Problems of ``document`` under the named schema (``KeyError`` for an unknown name)."""
    return SCHEMAS[name](document)


def _fields(obj: dict, spec: dict[str, Check], prefix: str) -> list[str]:
    errors = []
    for key, check in spec.items():
        if key not in obj:
            errors.append(f"{prefix}{key}: missing")
        elif (why := check(obj[key])) is not None:
            errors.append(f"{prefix}{key}: {why}, got {_describe(obj[key])}")
    return errors


def _items(value: Any, path: str, check: Check) -> list[str]:
    if not isinstance(value, list):
        return []
    return [f"{path}[{i}]: {why}, got {_describe(item)}" for i, item in enumerate(value) if (why := check(item))]


def _evaluation(value: Any) -> str | None:
    # Entries are scores, or objects carrying one.
    if isinstance(value, dict):
        scored = "score" in value and _number(value["score"]) is None
        return None if scored else "expected an object with a numeric score"
    return _number(value) and "expected a number or an object with a numeric score"


def _transcript(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    errors = []
    for index, entry in enumerate(value):
        path = f"transcript[{index}]"
        if not isinstance(entry, dict):
            errors.append(f"{path}: expected an object, got {_describe(entry)}")
            continue
        errors += _fields(entry, {"role": _string, "text": _string}, f"{path}.")
        if "receipt" in entry and not isinstance(entry["receipt"], dict):
            errors.append(f"{path}.receipt: expected an object, got {_describe(entry['receipt'])}")
    return errors


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string" if len(value) > 40 else f"the string {value!r}"
    return "an array" if isinstance(value, list) else "an object"
