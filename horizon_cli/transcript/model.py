"""The one event model every transcript adapter produces.

An :class:`Event` is one source line. It keeps the original bytes (``raw``) so
that a line can always be written back unchanged; the other fields are a
format-neutral reading of it for compaction, ``classify --transcript`` and
``halt --transcript``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MESSAGE = "message"
TOOL_CALL = "tool_call"
TOOL_RESULT = "tool_result"
SUMMARY = "summary"
META = "meta"
KINDS = (MESSAGE, TOOL_CALL, TOOL_RESULT, SUMMARY, META)


@dataclass(slots=True)
class ToolCall:
    """A tool invocation. ``arguments`` is a dict when the source had JSON arguments,
    else the source value as given (e.g. the raw patch text of a custom tool)."""

    id: str | None
    name: str
    arguments: Any


@dataclass(slots=True)
class ToolResult:
    call_id: str | None
    output: str
    is_error: bool = False


@dataclass(slots=True)
class Event:
    """One transcript line.

    ``kind``: ``message`` (text only), ``tool_call`` (has ``tool_calls``, maybe text too),
    ``tool_result`` (has ``tool_results``), ``summary`` (an earlier compaction's summary,
    ours or the agent's own) or ``meta`` (anything else: session headers, UI echoes,
    unknown record types; always passed through).
    ``role``: ``user``, ``assistant``, ``system``, ``tool`` or ``None``.
    ``raw``: the line exactly as read, including its line ending.
    """

    line: int
    format: str
    kind: str
    role: str | None = None
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    id: str | None = None
    timestamp: str | None = None
    usage: dict | None = None
    raw: bytes = b""
    # Source-specific links the compactor needs; optional for other readers.
    parent_id: str | None = None  # Claude Code parentUuid
    group: str | None = None  # lines of one API message (Claude message.id)
    injected: bool = False  # a "user" line the harness wrote, not the person
    mirror: bool = False  # a UI echo of another line (Codex event_msg); no content of its own
    horizon: dict | None = None  # the covers record of a horizon summary
    author: str | None = None  # the agent or person by name, where the format says (ADK ``author``)

    @property
    def is_question(self) -> bool:
        """A real user message: what the person typed, not a tool result or harness text."""
        return self.kind == MESSAGE and self.role == "user" and not self.injected and not self.mirror

    def content_chars(self) -> int:
        """Characters of content, tool JSON included (the chars/4 token estimate's input)."""
        total = len(self.text)
        for call in self.tool_calls:
            total += len(call.name) + _json_len(call.arguments)
        for result in self.tool_results:
            total += len(result.output)
        return total


def _json_len(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if value is None:
        return 0
    import orjson

    try:
        return len(orjson.dumps(value))
    except TypeError:
        return len(str(value))


def usage_tokens(usage: dict | None) -> int | None:
    """The context size a usage record reports (prompt incl. cache + output), if any."""
    if not usage:
        return None
    keys = (
        "input_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "output_tokens",
    )
    total = sum(v for k in keys if isinstance(v := usage.get(k), int))
    if total:
        return total
    for key in ("total_tokens", "totalTokenCount", "prompt_tokens", "promptTokenCount"):
        value = usage.get(key)
        if isinstance(value, int) and value > 0:
            return value
    return None
