"""Agent transcripts in five on-disk formats, read into one event model.

>>> from horizon_cli.transcript import read_transcript
>>> with open("session.jsonl", "rb") as f:  # doctest: +SKIP
...     for event in read_transcript(f, "session.jsonl"):
...         print(event.line, event.kind, [c.name for c in event.tool_calls])
"""

from horizon_cli.transcript.detect import FORMATS, detect_format
from horizon_cli.transcript.model import KINDS, Event, ToolCall, ToolResult
from horizon_cli.transcript.reader import read_transcript

__all__ = ["FORMATS", "KINDS", "Event", "ToolCall", "ToolResult", "detect_format", "read_transcript"]
