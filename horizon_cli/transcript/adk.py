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
    event.author = author
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
    """ADK's own compaction event: ``actions.compaction`` over the covered time range.

    ADK hides every event whose timestamp falls in a compaction's range, so the
    range must not contain the held-back live question: rewritten, it ends just
    before the question (the covered events after it are gone from the file);
    appended, a second compaction covers the events after the question.
    """
    first = context.get("first_raw") or {}
    start, end = _number(record.get("first_timestamp")), _number(record.get("last_timestamp"))
    held = _number(context.get("held_timestamp"))
    split = held is not None and start is not None and end is not None and start < held <= end
    stamp = _number(context.get("last_timestamp")) if context.get("append_only") else end
    base = {"invocationId": first.get("invocationId", ""), "author": "user", "timestamp": stamp}
    ident = f"horizon-summary-{record['sha256'][7:23]}"
    first_end = held - _EPSILON if split else end
    records = [{"id": ident, **base, "actions": {"compaction": _compaction(start, first_end, text)}, "horizon": record}]
    if split and context.get("append_only"):
        note = f"(covered by the horizon summary {ident} before the live question)"
        records.append({"id": ident + "-after", **base, "actions": {"compaction": _compaction(held + _EPSILON, end, note)}})
    return records


_EPSILON = 1e-6


def _compaction(start: float | None, end: float | None, text: str) -> dict:
    return {"startTimestamp": start, "endTimestamp": end, "compactedContent": {"role": "model", "parts": [{"text": text}]}}


def _number(value: Any) -> float | None:
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
