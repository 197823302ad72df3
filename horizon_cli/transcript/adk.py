"""Google ADK session events: ``{author, content: {role, parts}, actions, invocationId, timestamp}``.

Parts carry ``text``, ``functionCall {id, name, args}`` or
``functionResponse {id, name, response}``; ``actions.compaction`` holds ADK's
own summary of a timestamp range. Timestamps are epoch seconds.
"""

from __future__ import annotations

from typing import Any

from horizon_cli.transcript.blocks import as_output, str_or_none
from horizon_cli.transcript.model import META, MESSAGE, SUMMARY, TOOL_CALL, TOOL_RESULT, Event, ToolCall, ToolResult

NAME = "adk"


def looks_like(obj: Any) -> bool:
    return isinstance(obj, dict) and "author" in obj and any(k in obj for k in ("content", "actions", "invocationId", "invocation_id"))


def parse(obj: Any, raw: bytes, line: int) -> Event:
    event = Event(line=line, format=NAME, kind=META, raw=raw)
    if not isinstance(obj, dict):
        return event
    event.id = str_or_none(obj.get("id"))
    event.timestamp = str_or_none(obj.get("timestamp"))
    event.horizon = obj.get("horizon") if isinstance(obj.get("horizon"), dict) else None
    usage = obj.get("usageMetadata") or obj.get("usage_metadata")
    event.usage = usage if isinstance(usage, dict) else None
    author = str_or_none(obj.get("author"))
    actions = obj.get("actions") if isinstance(obj.get("actions"), dict) else {}
    compaction = actions.get("compaction")
    if isinstance(compaction, dict):
        event.kind = SUMMARY
        event.role = "assistant"
        content = compaction.get("compactedContent") or compaction.get("compacted_content")
        event.text = _parts_text(content)
        return event
    content = obj.get("content")
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return event
    event.role = "user" if author == "user" or content.get("role") == "user" else "assistant"
    _read_parts(event, content["parts"])
    if event.tool_results:
        event.kind = TOOL_RESULT
        event.role = "tool"
    elif event.tool_calls:
        event.kind = TOOL_CALL
    elif event.text:
        event.kind = MESSAGE
    return event


def _read_parts(event: Event, parts: list) -> None:
    texts = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str) and not part.get("thought"):
            texts.append(part["text"])
        call = part.get("functionCall") or part.get("function_call")
        if isinstance(call, dict):
            event.tool_calls.append(ToolCall(str_or_none(call.get("id")), str(call.get("name") or ""), call.get("args")))
        response = part.get("functionResponse") or part.get("function_response")
        if isinstance(response, dict):
            body = response.get("response")
            failed = isinstance(body, dict) and bool(body.get("error"))
            event.tool_results.append(ToolResult(str_or_none(response.get("id")), as_output(body), failed))
    event.text = "\n".join(texts)


def _parts_text(content: Any) -> str:
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return ""
    return "\n".join(p["text"] for p in content["parts"] if isinstance(p, dict) and isinstance(p.get("text"), str))


def summary_records(text: str, record: dict, context: dict) -> list[dict]:
    """ADK's own compaction event: ``actions.compaction`` over the covered time range."""
    first = context.get("first_raw") or {}
    start, end = _number(record.get("first_timestamp")), _number(record.get("last_timestamp"))
    stamp = _number(context.get("last_timestamp")) if context.get("append_only") else end
    compaction = {
        "startTimestamp": start,
        "endTimestamp": end,
        "compactedContent": {"role": "model", "parts": [{"text": text}]},
    }
    return [
        {
            "id": f"horizon-summary-{record['sha256'][7:23]}",
            "invocationId": first.get("invocationId", ""),
            "author": "user",
            "timestamp": stamp,
            "actions": {"compaction": compaction},
            "horizon": record,
        }
    ]


def _number(value: Any) -> float | None:
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
