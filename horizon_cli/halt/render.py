"""Output shapes of ``horizon halt``: the text summary, the JSON summary, the JSONL trace.

Pure functions: colour is applied through a ``style(text, role)`` callable
the CLI supplies (roles: ``halt``, ``ok``, ``reason``, ``dim``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from horizon_cli.halt.reducer import Decision, HaltState
from horizon_cli.halt.replay import ReplayResult
from horizon_cli.halt.statefile import state_to_dict

Style = Callable[[str, str], str]


def _plain(text: str, role: str) -> str:
    return text


def summary_dict(result: ReplayResult, source: str) -> dict[str, Any]:
    """The ``--format json`` object (schema documented in the README)."""
    return {
        "source": source,
        "halted": result.halted,
        "first_halt": result.first_halt.to_dict() if result.first_halt else None,
        "halts": result.halts,
        "halts_by_reason": dict(sorted(result.by_reason.items())),
        "actions": result.actions,
        "last_line": result.last_line,
        "stopped_early": result.stopped_early,
        "state": state_to_dict(result.state),
    }


def summary_text(result: ReplayResult, source: str, style: Style = _plain, unit: str = "line") -> str:
    """A few human lines: the verdict, the halt count, the final counters."""
    plural = "" if result.actions == 1 else "s"
    first = result.first_halt
    if first is None:
        head = f"{source}: {style('no halt', 'ok')} in {result.actions} action{plural}"
    else:
        head = (
            f"{source}: {style('halted', 'halt')} at {unit} {first.line} "
            f"(iteration {first.iteration}): {style(first.reason, 'reason')}"
        )
    lines = [head]
    if first is not None:
        counts = ", ".join(f"{reason} {count}" for reason, count in sorted(result.by_reason.items()))
        halts = "1 halt" if result.halts == 1 else f"{result.halts} halts"
        lines.append(f"  {halts} in {result.actions} action{plural} ({counts})")
    if result.stopped_early:
        lines.append(style(f"  stopped reading at {unit} {result.last_line} (--stop-at-halt)", "dim"))
    lines.append(f"  final state: {counters(result.state)}")
    return "\n".join(lines) + "\n"


def counters(state: HaltState) -> str:
    parts = [
        f"iteration {state.iteration}",
        f"stale {state.stale_count}",
        f"failure streak {state.failure_repeat}",
        f"pending {state.pending or 'none'}",
    ]
    if state.tool_calls:
        parts.append(f"tool calls {state.tool_calls}")
    if state.halted:
        parts.append(f"halted ({state.halted})")
    return ", ".join(parts)


def trace_line(line: int, raw: bytes | str, action: dict, state: HaltState, decision: Decision) -> bytes:
    """One ``--format jsonl`` record; the input action is copied verbatim, unknown fields and all."""
    chunks: list[bytes] = []
    TraceWriter(chunks.append)(line, raw, action, state, decision)
    return chunks[0]


_BOOL = {True: b"true", False: b"false"}
_TEMPLATE = b'{"line":%d,"type":%b,"halt":%b,"reason":%b,"iteration":%d,"handoff":%b,"state":%b,"action":%b}\n'
_STATE_TEMPLATE = (
    b'{"failureRepeat":%d,"iteration":%d,"lastFailure":%b,"lastProgress":%b,"pending":%b,"staleCount":%d}'
)
_MEMO_LIMIT = 4096


class TraceWriter:
    """A replay ``on_step`` hook that writes one trace record per action to ``write``.

    Hand-templated because it runs once per action on million-line logs. The
    state's JSON is reused while the state object is unchanged (a
    ``before_model`` that proceeds returns the very same object), and JSON
    strings are memoised: action types and reasons come from small fixed sets,
    and signatures repeat (that is what the controller looks for). The memo is
    emptied past a bound, so memory stays flat.
    """

    __slots__ = ("_write", "_state", "_state_json", "_strings")

    def __init__(self, write: Callable[[bytes], object]) -> None:
        self._write = write
        self._state: HaltState | None = None
        self._state_json = b""
        self._strings: dict[object, bytes] = {None: b"null"}

    def __call__(self, line: int, raw: bytes | str, action: dict, state: HaltState, decision: Decision) -> None:
        if state is not self._state:
            self._state, self._state_json = state, self._encode_state(state)
        if raw:
            body = raw.strip() if isinstance(raw, bytes) else raw.strip().encode("utf-8", "surrogateescape")
        else:
            body = orjson.dumps(action)
        strings, kind, reason = self._strings, action["type"], decision.reason
        self._write(
            _TEMPLATE % (
                line, strings.get(kind) or self._string(kind), _BOOL[decision.halt],
                strings.get(reason) or self._string(reason), decision.iteration, _BOOL[decision.handoff],
                self._state_json, body,
            )
        )

    def _encode_state(self, state: HaltState) -> bytes:
        if state.tool_calls or state.halted is not None or state.recent:
            return orjson.dumps(state_to_dict(state))
        # The seed-only shape, in state_to_dict's key order.
        strings, failure, progress, pending = self._strings, state.last_failure, state.last_progress, state.pending
        return _STATE_TEMPLATE % (
            state.failure_repeat, state.iteration, strings.get(failure) or self._string(failure),
            strings.get(progress) or self._string(progress), strings.get(pending) or self._string(pending),
            state.stale_count,
        )

    def _string(self, value: object) -> bytes:
        if len(self._strings) >= _MEMO_LIMIT:
            self._strings = {None: b"null"}
        encoded = self._strings[value] = orjson.dumps(value)
        return encoded
