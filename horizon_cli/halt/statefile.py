"""The controller state as plain JSON, and the sealed state file that resumes a run.

The state object uses the TypeScript controller's camelCase keys
(``iteration``, ``lastProgress``, ``staleCount``, ``lastFailure``,
``failureRepeat``, ``pending``); extension fields (``toolCalls``,
``halted``, ``recent``) appear only when they hold something, so a
seed-semantics state is byte-for-byte the TypeScript shape.

A state file is a checkpoint-style document sealed with ``stateHash`` (sha256
over RFC 8785 canonical JSON, via ``horizon_cli.checkpoint``), so ``horizon
verify`` checks it too. Reading also accepts a full agent checkpoint and
takes its ``halt`` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from horizon_cli.halt.reducer import REASONS, HaltConfig, HaltState

SCHEMA = 1
KIND = "horizon.halt.state"


class StateError(ValueError):
    """A state object or state file that cannot be used."""


def state_to_dict(state: HaltState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "failureRepeat": state.failure_repeat,
        "iteration": state.iteration,
        "lastFailure": state.last_failure,
        "lastProgress": state.last_progress,
        "pending": state.pending,
        "staleCount": state.stale_count,
    }
    if state.tool_calls:
        data["toolCalls"] = state.tool_calls
    if state.halted is not None:
        data["halted"] = state.halted
    if state.recent:
        data["recent"] = [list(pair) for pair in state.recent]
    return data


_COUNTERS = {"iteration": "iteration", "staleCount": "stale_count", "failureRepeat": "failure_repeat", "toolCalls": "tool_calls"}
_STRINGS = {"lastProgress": "last_progress", "lastFailure": "last_failure"}
_REASON_KEYS = {"pending": "pending", "halted": "halted"}
KNOWN_KEYS = {*_COUNTERS, *_STRINGS, *_REASON_KEYS, "recent"}


def state_from_dict(data: Any) -> HaltState:
    """Validate and convert a state object; missing keys take their initial values."""
    if not isinstance(data, Mapping):
        raise StateError("halt state must be a JSON object")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise StateError(f"halt state: unknown key {unknown[0]!r}")
    values: dict[str, Any] = {}
    for key, field in _COUNTERS.items():
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise StateError(f"halt state: {key} must be a non-negative integer, got {value!r}")
        values[field] = value
    for key, field in _STRINGS.items():
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise StateError(f"halt state: {key} must be a string or null, got {value!r}")
        values[field] = value
    for key, field in _REASON_KEYS.items():
        value = data.get(key)
        if value is not None and value not in REASONS:
            raise StateError(f"halt state: {key} must be null or one of {', '.join(REASONS)}, got {value!r}")
        values[field] = value
    values["recent"] = _recent(data.get("recent", []))
    return HaltState(**values)


def _recent(value: Any) -> tuple[tuple[Any, Any], ...]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        raise StateError("halt state: recent must be an array of [action, observation] pairs")
    return tuple((p[0], p[1]) for p in value)


def build_document(state: HaltState, config: HaltConfig, action_count: int) -> dict[str, Any]:
    """The unsealed state file body (the caller seals it)."""
    return {
        "schema": SCHEMA,
        "kind": KIND,
        "halt": state_to_dict(state),
        "config": config.to_dict(),
        "actionCount": action_count,
    }


def document_state(doc: Any) -> tuple[HaltState, dict[str, Any] | None, int]:
    """``(state, saved config or None, actionCount)`` from a state file or agent checkpoint."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("halt"), Mapping):
        raise StateError('not a halt state file: expected an object with a "halt" object')
    state = state_from_dict(doc["halt"])
    config = doc.get("config") if doc.get("kind") == KIND else None
    count = doc.get("actionCount", 0)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise StateError(f"actionCount must be a non-negative integer, got {count!r}")
    return state, config if isinstance(config, dict) else None, count


def config_differences(saved: Mapping[str, Any], current: HaltConfig) -> list[str]:
    """``key saved -> current`` for every limit that changed since the state was saved."""
    now = current.to_dict()
    return [f"{key} {saved[key]!r} -> {now[key]!r}" for key in now if key in saved and saved[key] != now[key]]


def save_state(path: str, state: HaltState, config: HaltConfig, action_count: int) -> dict[str, Any]:
    """Seal and write the state file atomically; returns the sealed document."""
    import orjson

    from horizon_cli.checkpoint import seal_document
    from horizon_cli.fsutil import atomic_write_bytes

    sealed = seal_document(build_document(state, config, action_count))
    try:
        atomic_write_bytes(path, orjson.dumps(sealed, option=orjson.OPT_INDENT_2) + b"\n")
    except OSError as exc:
        from horizon_cli.errors import InputError

        raise InputError(f"cannot write state: {exc.strerror}", path=path) from None
    return sealed


def load_state(path: str, *, trust: bool = False) -> tuple[HaltState, dict[str, Any] | None, int]:
    """Read a sealed state file (or agent checkpoint) and check its ``stateHash``.

    A missing or mismatching hash is refused unless ``trust`` is set.
    Errors are :class:`InputError` naming the file.
    """
    from horizon_cli.checkpoint import CheckpointError, loads_strict, verify_document
    from horizon_cli.errors import InputError

    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read state: {exc.strerror}", path=path) from None
    doc = loads_strict(raw, path)
    if not trust:
        try:
            check = verify_document(doc)
        except CheckpointError as exc:
            raise InputError(f"state file not usable: {exc} (or pass --trust-state)", path=path) from None
        if not check.ok:
            raise InputError(
                f"state hash mismatch: recorded {check.expected}, content hashes to {check.actual} "
                "(the file changed since it was sealed; pass --trust-state to use it anyway)",
                path=path,
            )
    try:
        return document_state(doc)
    except StateError as exc:
        raise InputError(str(exc), path=path) from None
