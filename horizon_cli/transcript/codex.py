"""OpenAI Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Every line is ``{timestamp, type, payload}``. ``response_item`` payloads are
the model history (``message``, ``function_call``, ``function_call_output``,
``custom_tool_call``…); ``event_msg`` payloads are UI events, mostly echoes of
response items, plus ``token_count`` usage; ``compacted`` is Codex's own summary.
"""

from __future__ import annotations

from typing import Any

import orjson

from horizon_cli.transcript.blocks import as_output, block_text, parse_arguments, str_or_none
from horizon_cli.transcript.model import META, MESSAGE, SUMMARY, TOOL_CALL, TOOL_RESULT, Event, ToolCall, ToolResult

NAME = "codex"
RECORD_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_CALLS = {"function_call", "custom_tool_call", "local_shell_call", "web_search_call"}
_RESULTS = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}
# event_msg types that only replay, for the UI, what response items already hold.
_ECHOES = frozenset({
    "agent_reasoning_raw_content", "agent_reasoning_section_break", "exec_command_begin", "exec_command_end",
    "exec_command_output_delta", "patch_apply_begin", "patch_apply_end", "mcp_tool_call_begin", "mcp_tool_call_end",
    "web_search_begin", "web_search_end", "view_image_tool_call", "turn_diff",
})
_INJECTED_PREFIXES = ("<environment_context>", "<user_instructions>", "# AGENTS.md", "<user_shell_command>", "<turn_aborted>")


def looks_like(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("type") in RECORD_TYPES and "payload" in obj


def parse(obj: Any, raw: bytes, line: int) -> Event:
    event = Event(line=line, format=NAME, kind=META, raw=raw)
    if not isinstance(obj, dict):
        return event
    event.timestamp = str_or_none(obj.get("timestamp"))
    event.horizon = obj.get("horizon") if isinstance(obj.get("horizon"), dict) else None
    payload = obj.get("payload")
    if not isinstance(payload, dict):
        return event
    kind = obj.get("type")
    if kind == "response_item":
        _response_item(event, payload)
    elif kind == "event_msg":
        _event_msg(event, payload)
    elif kind == "compacted":
        event.kind = SUMMARY
        event.role = "assistant"
        event.text = str(payload.get("message") or "")
    elif kind == "session_meta":
        event.id = str_or_none(payload.get("id"))
    return event


def _response_item(event: Event, item: dict) -> None:
    kind = item.get("type")
    event.id = str_or_none(item.get("id"))
    if kind == "message":
        event.kind = MESSAGE
        event.role = str_or_none(item.get("role"))
        event.text = block_text(item.get("content"))
        if event.role == "user" and event.text.lstrip().startswith(_INJECTED_PREFIXES):
            event.injected = True
    elif kind in _CALLS:
        event.kind = TOOL_CALL
        event.role = "assistant"
        event.tool_calls.append(_call(kind, item))
    elif kind in _RESULTS:
        event.kind = TOOL_RESULT
        event.role = "tool"
        output, failed = _output(item.get("output"))
        event.tool_results.append(ToolResult(str_or_none(item.get("call_id")), output, failed))
    elif kind == "reasoning":
        event.role = "assistant"
        event.text = block_text(item.get("summary"), ("summary_text", "text"))
        event.mirror = True  # the visible reasoning summary; the real content is encrypted


def _call(kind: str, item: dict) -> ToolCall:
    call_id = str_or_none(item.get("call_id") or item.get("id"))
    if kind == "function_call":
        return ToolCall(call_id, str(item.get("name") or ""), parse_arguments(item.get("arguments")))
    if kind == "custom_tool_call":
        return ToolCall(call_id, str(item.get("name") or ""), item.get("input"))
    if kind == "local_shell_call":
        action = item.get("action") if isinstance(item.get("action"), dict) else {}
        return ToolCall(call_id, "local_shell", action)
    return ToolCall(call_id, "web_search", item.get("action"))


def _output(value: Any) -> tuple[str, bool]:
    """Text and error flag of an output; exec outputs may be JSON with an exit code."""
    if isinstance(value, dict):
        failed = value.get("success") is False
        return as_output(value.get("content", value)), failed
    text = as_output(value)
    if text.startswith("{") and '"exit_code"' in text:
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError:
            return text, False
        meta = data.get("metadata") if isinstance(data, dict) else None
        code = meta.get("exit_code") if isinstance(meta, dict) else None
        return text, isinstance(code, int) and code != 0
    return text, False


def _event_msg(event: Event, payload: dict) -> None:
    kind = payload.get("type")
    if kind == "token_count":
        info = payload.get("info")
        last = info.get("last_token_usage") if isinstance(info, dict) else None
        event.usage = last if isinstance(last, dict) else None
    elif kind in ("user_message", "agent_message", "agent_reasoning"):
        event.role = "user" if kind == "user_message" else "assistant"
        event.text = str(payload.get("message") or payload.get("text") or "")
        event.mirror = True  # the response_item next to it carries the same text
    elif kind in _ECHOES:
        event.mirror = True  # UI replay of a call or output the response items already hold


def summary_records(text: str, record: dict, context: dict) -> list[dict]:
    """Codex's own compaction record: ``{type: "compacted", payload: {message}}``."""
    stamp = record.get("last_timestamp") if not context.get("append_only") else context.get("last_timestamp")
    return [{"timestamp": stamp or context.get("now"), "type": "compacted", "payload": {"message": text}, "horizon": record}]
