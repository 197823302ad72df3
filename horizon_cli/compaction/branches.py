"""Claude Code rewinds: lines off the active ``parentUuid`` chain are dead branches.

A rewind leaves the abandoned messages in the file with a sibling branch
beside them. The active conversation is the chain walked back from the last
line (crossing a ``compact_boundary`` through its ``logicalParentUuid``);
everything else — abandoned branches, sidechains — is not context, so it must
not be summarized as if it were. Only run when the decide pass saw a
``parentUuid`` with two children, so the uuid map costs memory only then.
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson


def dead_lines(lines: Iterable[bytes]) -> set[int]:
    """Line numbers of ``user``/``assistant`` lines that are not on the active chain."""
    parent_of: dict[str, str | None] = {}
    line_of: dict[str, int] = {}
    leaf: str | None = None
    for number, raw in enumerate(lines, start=1):
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue  # blank; the reader already rejected malformed lines
        if not isinstance(obj, dict) or not isinstance(obj.get("uuid"), str):
            continue
        uuid = obj["uuid"]
        parent = obj.get("parentUuid")
        if parent is None and obj.get("subtype") == "compact_boundary":
            parent = obj.get("logicalParentUuid")
        parent_of[uuid] = parent if isinstance(parent, str) else None
        if obj.get("type") in ("user", "assistant"):
            line_of[uuid] = number
            if not obj.get("isSidechain"):
                leaf = uuid
    active: set[str] = set()
    node = leaf
    while node is not None and node not in active:
        active.add(node)
        node = parent_of.get(node)
    return {number for uuid, number in line_of.items() if uuid not in active}
