"""Splice: the covers record, and the summary written back in the input's own format."""

from __future__ import annotations

from datetime import datetime, timezone

import orjson

from horizon_cli import __version__
from horizon_cli.transcript.detect import adapter
from horizon_cli.transcript.model import Event


class Covers:
    """What a summary replaces: first/last line, id and timestamp, and the count.
    The sha256 over the covered lines' bytes (in file order) is added by the
    pipeline, which hashes them in a raw pass."""

    def __init__(self) -> None:
        self.first: Event | None = None
        self.last: Event | None = None
        self.events = 0

    def add(self, event: Event) -> None:
        # The live-question candidate may be handed over late; order by line.
        if self.first is None or event.line < self.first.line:
            self.first = event
        if self.last is None or event.line > self.last.line:
            self.last = event
        self.events += 1

    def record(self, held: Event | None, summarizer: str, digest: str) -> dict:
        first, last = self.first, self.last
        assert first is not None and last is not None, "covers needs at least one event"
        return {
            "first_line": first.line,
            "last_line": last.line,
            "first_id": first.id,
            "last_id": last.id,
            "first_timestamp": first.timestamp,
            "last_timestamp": last.timestamp,
            "events": self.events,
            "sha256": "sha256:" + digest,
            "held_line": held.line if held is not None else None,
            "summarizer": summarizer,
            "generator": f"horizon {__version__}",
        }


def covers_text(record: dict) -> str:
    span = f"lines {record['first_line']}-{record['last_line']} ({record['events']} events)"
    ids = f"ids {record['first_id'] or '?'} .. {record['last_id'] or '?'}" if record["first_id"] or record["last_id"] else None
    times = (
        f"{record['first_timestamp'] or '?'} .. {record['last_timestamp'] or '?'}"
        if record["first_timestamp"] or record["last_timestamp"]
        else None
    )
    held = f"live question kept verbatim from line {record['held_line']}" if record["held_line"] else None
    parts = [span, ids, times, record["sha256"], held]
    return "## Covers\n- " + "; ".join(p for p in parts if p)


def summary_lines(fmt: str, text: str, record: dict, context: dict) -> bytes:
    """The summary as JSONL lines in format ``fmt`` (newline-terminated)."""
    context = {"now": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", **context}
    records = adapter(fmt).summary_records(text, record, context)
    return b"".join(orjson.dumps(r) + b"\n" for r in records)
