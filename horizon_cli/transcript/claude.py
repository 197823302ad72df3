"""Claude Code session logs (``~/.claude/projects/*/*.jsonl``).

Lines are ``user``/``assistant``/``system``/``summary``/… records linked by
``uuid``/``parentUuid``; ``message.content`` is a string or blocks
(``text``, ``tool_use``, ``tool_result``, ``thinking``). One API message may
span several lines that share ``message.id``.
"""

from __future__ import annotations

from typing import Any

from horizon_cli.transcript.blocks import as_output, block_text, str_or_none
from horizon_cli.transcript.model import META, MESSAGE, SUMMARY, TOOL_CALL, TOOL_RESULT, Event, ToolCall, ToolResult

NAME = "claude"
RECORD_TYPES = frozenset({"user", "assistant", "system", "summary", "file-history-snapshot", "progress", "queue-operation"})
# User lines the harness writes itself (slash-command echoes, hook output, caveats).
_INJECTED_PREFIXES = ("<command-name>", "<command-message>", "<local-command-", "<system-reminder>", "Caveat:", "<user-prompt-submit-hook>")


def looks_like(obj: Any) -> bool:
    if not isinstance(obj, dict):
        return False
    kind = obj.get("type")
    if kind in ("user", "assistant") and isinstance(obj.get("message"), dict):
        return True
    return kind in RECORD_TYPES and ("uuid" in obj or "leafUuid" in obj or "sessionId" in obj)


def parse(obj: Any, raw: bytes, line: int) -> Event:
    event = Event(line=line, format=NAME, kind=META, raw=raw)
    if not isinstance(obj, dict):
        return event
    event.id = str_or_none(obj.get("uuid"))
    event.parent_id = str_or_none(obj.get("parentUuid"))
    event.timestamp = str_or_none(obj.get("timestamp"))
    event.horizon = obj.get("horizon") if isinstance(obj.get("horizon"), dict) else None
    kind = obj.get("type")
    message = obj.get("message")
    if kind in ("user", "assistant") and isinstance(message, dict):
        _parse_message(event, obj, message)
    elif kind == "summary":
        event.text = str(obj.get("summary") or "")
    elif kind == "system":
        event.role = "system"
        event.text = block_text(obj.get("content"))
    return event


def _parse_message(event: Event, obj: dict, message: dict) -> None:
    event.role = str_or_none(message.get("role")) or obj["type"]
    event.group = str_or_none(message.get("id"))
    usage = message.get("usage")
    event.usage = usage if isinstance(usage, dict) else None
    content = message.get("content")
    texts: list[str] = []
    if isinstance(content, str):
        texts.append(content)
    elif isinstance(content, list):
        for block in content:
            _read_block(event, block, texts)
    event.text = "\n".join(t for t in texts if t)
    if obj.get("isCompactSummary"):
        event.kind = SUMMARY
    elif event.tool_results:
        event.kind = TOOL_RESULT
    elif event.tool_calls:
        event.kind = TOOL_CALL
    else:
        event.kind = MESSAGE
    if event.role == "user" and event.kind == MESSAGE:
        event.injected = bool(obj.get("isMeta")) or event.text.lstrip().startswith(_INJECTED_PREFIXES)


def _read_block(event: Event, block: Any, texts: list[str]) -> None:
    if isinstance(block, str):
        texts.append(block)
        return
    if not isinstance(block, dict):
        return
    kind = block.get("type")
    if kind == "text":
        texts.append(str(block.get("text") or ""))
    elif kind in ("tool_use", "server_tool_use"):
        event.tool_calls.append(ToolCall(str_or_none(block.get("id")), str(block.get("name") or ""), block.get("input")))
    elif kind == "tool_result":
        event.tool_results.append(
            ToolResult(str_or_none(block.get("tool_use_id")), as_output(block.get("content")), bool(block.get("is_error")))
        )


def summary_records(text: str, record: dict, context: dict) -> list[dict]:
    """The lines that carry a horizon summary, in Claude Code's own compaction shape.

    The summary takes the uuid of the last covered line, so kept lines whose
    ``parentUuid`` pointed into the summarized range still resolve to it, and
    its own ``parentUuid`` is the held-back live question's uuid.
    """
    first = context.get("first_raw") or {}
    last_uuid = record.get("last_id")
    base = {k: first[k] for k in ("isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch") if k in first}
    uuid = last_uuid if not context.get("append_only") and last_uuid else f"horizon-summary-{record['sha256'][7:23]}"
    # Rewritten: chain kept lines -> summary -> held live question (which Claude Code
    # then shows first). Appended: the summary hangs off the last line.
    parent = context.get("last_uuid") if context.get("append_only") else context.get("held_id")
    stamp = context.get("last_timestamp") if context.get("append_only") else record.get("last_timestamp")
    line = {
        "type": "user",
        **base,
        "parentUuid": parent,
        "uuid": uuid,
        "timestamp": stamp or context.get("now"),
        "isCompactSummary": True,
        "isVisibleInTranscriptOnly": True,
        "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "horizon": record,
    }
    return [line]
