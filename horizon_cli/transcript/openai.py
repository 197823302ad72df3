"""OpenAI chat messages, one per line: ``{role, content, tool_calls, tool_call_id}``."""

from __future__ import annotations

from typing import Any

from horizon_cli.transcript.blocks import as_output, block_text, parse_arguments, str_or_none
from horizon_cli.transcript.model import META, MESSAGE, SUMMARY, TOOL_CALL, TOOL_RESULT, Event, ToolCall, ToolResult

NAME = "openai"
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
SUMMARY_NAME = "horizon_summary"  # `name` is a field the chat API accepts on user messages


def looks_like(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("role") in ROLES and ("content" in obj or "tool_calls" in obj)


def parse(obj: Any, raw: bytes, line: int) -> Event:
    event = Event(line=line, format=NAME, kind=META, raw=raw)
    if not isinstance(obj, dict) or obj.get("role") not in ROLES:
        return event
    role = obj["role"]
    event.role = "tool" if role == "function" else role
    event.id = str_or_none(obj.get("id"))
    event.timestamp = str_or_none(obj.get("timestamp") or obj.get("created_at"))
    event.usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
    event.text = block_text(obj.get("content")) if role not in ("tool", "function") else ""
    if role in ("tool", "function"):
        event.kind = TOOL_RESULT
        call_id = obj.get("tool_call_id") or obj.get("name")
        event.tool_results.append(ToolResult(str_or_none(call_id), as_output(obj.get("content")), bool(obj.get("is_error"))))
        return event
    for call in obj.get("tool_calls") or ():
        if isinstance(call, dict):
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            name = str(function.get("name") or call.get("name") or "")
            event.tool_calls.append(ToolCall(str_or_none(call.get("id")), name, parse_arguments(function.get("arguments"))))
    if obj.get("name") == SUMMARY_NAME:
        event.kind = SUMMARY
    else:
        event.kind = TOOL_CALL if event.tool_calls else MESSAGE
    return event


def summary_records(text: str, record: dict, context: dict) -> list[dict]:
    """A user message named ``horizon_summary`` (valid chat input; no extra keys)."""
    return [{"role": "user", "name": SUMMARY_NAME, "content": text}]
