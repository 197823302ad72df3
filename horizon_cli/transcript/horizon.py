"""horizon's own JSONL event format (schema in README, section "horizon compact").

``{"event": "message"|"tool_call"|"tool_result"|"summary"|"meta", "id", "ts",
"role", "text", "calls": [{id, name, arguments}], "results": [{call_id,
output, is_error}], "usage": {input_tokens, output_tokens}}``.
"""

from __future__ import annotations

from typing import Any

from horizon_cli.transcript.blocks import as_output, str_or_none
from horizon_cli.transcript.model import KINDS, META, Event, ToolCall, ToolResult

NAME = "horizon"


def looks_like(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("event") in KINDS


def parse(obj: Any, raw: bytes, line: int) -> Event:
    event = Event(line=line, format=NAME, kind=META, raw=raw)
    if not looks_like(obj):
        return event
    event.kind = obj["event"]
    event.id = str_or_none(obj.get("id"))
    event.timestamp = str_or_none(obj.get("ts"))
    event.role = str_or_none(obj.get("role"))
    event.text = obj["text"] if isinstance(obj.get("text"), str) else ""
    event.usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
    event.horizon = obj.get("covers") if isinstance(obj.get("covers"), dict) else None
    event.injected = bool(obj.get("injected"))
    for call in obj.get("calls") or ():
        if isinstance(call, dict):
            event.tool_calls.append(ToolCall(str_or_none(call.get("id")), str(call.get("name") or ""), call.get("arguments")))
    for result in obj.get("results") or ():
        if isinstance(result, dict):
            event.tool_results.append(
                ToolResult(str_or_none(result.get("call_id")), as_output(result.get("output")), bool(result.get("is_error")))
            )
    return event


def to_record(event: Event) -> dict:
    """Any event in horizon's format (what an external summarizer reads on stdin)."""
    record: dict[str, Any] = {"event": event.kind, "line": event.line}
    for key, value in (("id", event.id), ("ts", event.timestamp), ("role", event.role)):
        if value is not None:
            record[key] = value
    if event.text:
        record["text"] = event.text
    if event.tool_calls:
        record["calls"] = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in event.tool_calls]
    if event.tool_results:
        record["results"] = [{"call_id": r.call_id, "output": r.output, "is_error": r.is_error} for r in event.tool_results]
    if event.usage:
        record["usage"] = event.usage
    return record


def summary_records(text: str, record: dict, context: dict) -> list[dict]:
    stamp = context.get("last_timestamp") if context.get("append_only") else record.get("last_timestamp")
    line: dict[str, Any] = {"event": "summary", "id": f"horizon-summary-{record['sha256'][7:23]}", "role": "user"}
    if stamp:
        line["ts"] = stamp
    line["text"] = text
    line["covers"] = record
    return [line]
