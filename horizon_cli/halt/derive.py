"""Halt actions derived from an agent transcript (``horizon halt --transcript``).

Reads :class:`horizon_cli.transcript.Event` objects and yields
``(transcript line, action)`` pairs:

* a model turn (an assistant line after anything that is not the same model
  response) -> ``before_model``: the controller is asked before that call;
* each tool call -> ``tool_call`` (counted only if the tool-call budget is on);
* each tool result -> ``observe`` with
  ``failure``: ``"<tool> <canonical arguments>"`` when the result is an error,
  else ``null`` (a success clears the failure streak);
  ``progress``: a digest of the tool, its arguments and its output, i.e. of
  what the step changed: the same call giving the same output is no progress;
  ``action`` / ``observation``: the call and a digest of its output, for the
  stuck detector;
* a new message the person typed -> ``turn_boundary``.

Summaries, metadata, UI echoes and harness-injected text produce nothing.
Only outstanding tool calls are remembered, so memory stays bounded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

from horizon_cli.transcript.model import MESSAGE, TOOL_CALL, TOOL_RESULT, Event, ToolCall

# Arguments longer than this are named by digest to keep the state small.
INLINE_ARGUMENTS = 80


def derive_actions(events: Iterable[Event]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line, action)`` for every transcript event that means something to the controller."""
    outstanding: dict[str | None, tuple[str, str]] = {}
    in_response, group = False, None
    for event in events:
        if event.mirror or event.kind not in (MESSAGE, TOOL_CALL, TOOL_RESULT):
            continue
        if event.role == "assistant" and event.kind in (MESSAGE, TOOL_CALL):
            if not in_response or (event.group is not None and event.group != group):
                yield event.line, {"type": "before_model"}
            in_response, group = True, event.group
            for call in event.tool_calls:
                outstanding[call.id] = (call.name, call_signature(call))
                yield event.line, {"type": "tool_call", "tool": call.name}
            continue
        in_response = False
        if event.kind == TOOL_RESULT:
            for result in event.tool_results:
                name, signature = _take(outstanding, result.call_id)
                yield event.line, observe(name, signature, result.output, result.is_error)
        elif event.is_question:
            outstanding.clear()
            yield event.line, {"type": "turn_boundary"}


def observe(tool: str, signature: str, output: str, is_error: bool) -> dict[str, Any]:
    """The observe action for one tool result."""
    seen = _digest(output.encode("utf-8", "surrogatepass"))
    return {
        "type": "observe",
        "progress": _digest(f"{signature}\0{seen}".encode("utf-8", "surrogatepass")),
        "failure": signature if is_error else None,
        "action": signature,
        "observation": seen,
        "tool": tool,
    }


def call_signature(call: ToolCall) -> str:
    """``"<tool> <canonical arguments>"``; long arguments are replaced by their digest."""
    args = canonical_arguments(call.arguments)
    if len(args) > INLINE_ARGUMENTS:
        args = "sha256:" + _digest(args.encode("utf-8", "surrogatepass"))
    return f"{call.name} {args}" if args else call.name


def canonical_arguments(arguments: Any) -> str:
    """RFC 8785 canonical JSON of the arguments (text arguments as given)."""
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return arguments
    from horizon_cli.checkpoint import CanonicalError, canonicalize

    try:
        return canonicalize(arguments).decode("utf-8")
    except CanonicalError:
        return repr(arguments)


def _take(outstanding: dict[str | None, tuple[str, str]], call_id: str | None) -> tuple[str, str]:
    """The call a result answers; a result without an id answers the oldest open call."""
    if call_id in outstanding:
        return outstanding.pop(call_id)
    if call_id is None and outstanding:
        return outstanding.pop(next(iter(outstanding)))
    return "?", "?"  # its call is not in the transcript (e.g. cut by an earlier compaction)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]
