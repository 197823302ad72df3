"""Prune: oversized tool outputs in the summarized range become a fixed marker.

The marker names the size and a hash of what it replaced, so the original can
be found again, and pruning a pruned output changes nothing (idempotent).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from horizon_cli.transcript.model import Event, ToolResult

MARKER_PREFIX = "[horizon: tool output pruned"


def prune_output(output: str, limit: int) -> str:
    if len(output) <= limit or output.startswith(MARKER_PREFIX):
        return output
    digest = hashlib.sha256(output.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{MARKER_PREFIX}: {len(output)} chars, sha256:{digest}]"


def prune_event(event: Event, limit: int) -> Event:
    """The event with every tool output over ``limit`` characters replaced by the marker."""
    for result in event.tool_results:
        if len(result.output) > limit:
            break
    else:
        return event
    results = [ToolResult(r.call_id, prune_output(r.output, limit), r.is_error) for r in event.tool_results]
    return replace(event, tool_results=results)
