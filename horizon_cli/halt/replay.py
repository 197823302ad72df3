"""Stream a JSONL event log through the reducer, one line at a time.

Memory is constant in the length of the log: nothing but the reducer state,
a few counters and the first halt are kept. ``on_step`` lets a caller stream
a per-action trace without the driver building one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import orjson

from horizon_cli.errors import InputError
from horizon_cli.halt.reducer import INITIAL_STATE, ActionError, Decision, HaltConfig, HaltState, step

# (line number, raw line, parsed action, state after, decision)
StepHook = Callable[[int, bytes | str, dict, HaltState, Decision], None]


@dataclass(frozen=True, slots=True)
class HaltPoint:
    """Where a halt happened: the input line, the reason, the iteration."""

    line: int
    reason: str
    iteration: int

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "reason": self.reason, "iteration": self.iteration}


@dataclass(slots=True)
class ReplayResult:
    """The outcome of one replay: the final state and what happened on the way."""

    state: HaltState
    actions: int = 0
    halts: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)
    first_halt: HaltPoint | None = None
    last_line: int = 0
    stopped_early: bool = False

    @property
    def halted(self) -> bool:
        return self.halts > 0


def replay(
    lines: Iterable[bytes | str],
    name: str,
    config: HaltConfig,
    state: HaltState = INITIAL_STATE,
    *,
    stop_at_halt: bool = False,
    on_step: StepHook | None = None,
) -> ReplayResult:
    """Apply every action of a JSONL log (blank lines skipped) and summarise.

    Raises :class:`InputError` naming ``name:line`` for malformed JSON, a
    non-object line, an unknown action type or a field of the wrong type.
    """
    result = ReplayResult(state=state)
    loads, decode_error, reducer = orjson.loads, orjson.JSONDecodeError, step
    number = 0
    for number, raw in enumerate(lines, start=1):
        try:
            action = loads(raw)
        except decode_error as exc:
            if not raw.strip():
                continue
            raw = _strip_bom(raw, number, exc, name)
            action = loads(raw)
        if type(action) is not dict:
            raise InputError(f"an action must be a JSON object, got {_kind(action)}", path=name, line=number)
        try:
            state, decision = reducer(config, state, action)
        except ActionError as exc:
            raise InputError(str(exc), path=name, line=number) from None
        result.actions += 1
        if on_step is not None:
            on_step(number, raw, action, state, decision)
        if decision.halt:
            _record_halt(result, number, decision)
            if stop_at_halt:
                result.stopped_early = True
                break
    result.state = state
    result.last_line = number
    return result


def replay_actions(
    actions: Iterable[tuple[int, dict]],
    config: HaltConfig,
    state: HaltState = INITIAL_STATE,
    *,
    stop_at_halt: bool = False,
    on_step: StepHook | None = None,
) -> ReplayResult:
    """Like :func:`replay` for already-built ``(line, action)`` pairs (e.g. derived from a transcript)."""
    result = ReplayResult(state=state)
    for number, action in actions:
        state, decision = step(config, state, action)
        result.actions += 1
        result.last_line = number
        if on_step is not None:
            on_step(number, b"", action, state, decision)
        if decision.halt:
            _record_halt(result, number, decision)
            if stop_at_halt:
                result.stopped_early = True
                break
    result.state = state
    return result


def _strip_bom(raw: bytes | str, number: int, exc: orjson.JSONDecodeError, name: str) -> bytes | str:
    """Editors on Windows start files with a byte order mark: accept it on line 1 only."""
    bom = b"\xef\xbb\xbf" if isinstance(raw, bytes) else "\ufeff"
    if number == 1 and raw.startswith(bom):
        try:
            orjson.loads(raw[len(bom):])
            return raw[len(bom):]
        except orjson.JSONDecodeError as again:
            exc = again
    raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})", path=name, line=number) from None


def _record_halt(result: ReplayResult, line: int, decision: Decision) -> None:
    result.halts += 1
    reason = decision.reason or ""
    result.by_reason[reason] = result.by_reason.get(reason, 0) + 1
    if result.first_halt is None:
        result.first_halt = HaltPoint(line, reason, decision.iteration)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )
