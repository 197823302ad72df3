"""Decide: is the transcript over the threshold, and where does the kept window start?

One streaming pass records, per event, only integers (line, token estimate,
content flag) plus the call→result and same-message links the cut must not
split, so memory stays a few bytes per line however large the file.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from horizon_cli.transcript.model import MESSAGE, META, SUMMARY, Event, usage_tokens

_OPEN_GROUPS = 256  # Claude message.id groups remembered for the no-split rule


@dataclass
class Scan:
    """What the decide pass learns about a transcript."""

    lines: array = field(default_factory=lambda: array("q"))  # event index -> source line
    tokens: array = field(default_factory=lambda: array("q"))  # event index -> estimated tokens
    content: array = field(default_factory=lambda: array("b"))  # 1 if the event is conversation content
    links: array = field(default_factory=lambda: array("q"))  # flat (later, earlier) pairs that must stay together
    last_question: int | None = None
    usage: int | None = None  # the last usage the file reported
    tokens_since_usage: int = 0
    format: str | None = None
    branched: bool = False  # some parentUuid has two children: a rewind left a dead branch

    @property
    def events(self) -> int:
        return len(self.lines)

    @property
    def estimate(self) -> int:
        return sum(self.tokens)

    @property
    def tokens_before(self) -> int:
        """Reported usage plus what came after it, else chars/4 of everything."""
        if self.usage is not None:
            return self.usage + self.tokens_since_usage
        return self.estimate

    @property
    def token_source(self) -> str:
        return "usage" if self.usage is not None else "estimate"


def estimate_tokens(event: Event) -> int:
    """chars/4 of the content, tool JSON included; rounded up so no content counts as zero."""
    chars = event.content_chars()
    return (chars + 3) // 4


def is_pinned(event: Event) -> bool:
    """Lines that are never summarized: metadata, unknown records and system/developer
    instructions (which must keep their authority, not become "background")."""
    return event.kind == META or (event.kind == MESSAGE and event.role in ("system", "developer"))


def is_content(event: Event) -> bool:
    """Conversation content the summary may replace."""
    return not is_pinned(event)


class Scanner:
    """Feed events one at a time; ``result`` is the :class:`Scan` so far."""

    def __init__(self) -> None:
        self.result = Scan()
        self._pending: dict[str, int] = {}
        self._groups: OrderedDict[str, int] = OrderedDict()
        self._compacted = False
        self._parents: set[str] = set()  # Claude parentUuids seen (only Claude sets parent_id)

    def feed(self, event: Event) -> int:
        """Record one event; returns its index."""
        result = self.result
        index = len(result.lines)
        result.format = event.format
        result.lines.append(event.line)
        tokens = estimate_tokens(event) if event.kind != META else 0
        result.tokens.append(tokens)
        result.content.append(0 if is_pinned(event) else 1)
        if event.parent_id is not None and not result.branched:
            if event.parent_id in self._parents:
                result.branched = True
            self._parents.add(event.parent_id)
        if event.tool_calls or event.tool_results or event.group:
            _link(result.links, index, event, self._pending, self._groups)
        if event.is_question:
            result.last_question = index
        if event.kind == SUMMARY:
            # Usage lines around a compaction (kept verbatim after it) measured the
            # old, longer context: from here on only the estimate is meaningful.
            self._compacted, result.usage = True, None
        reported = None if self._compacted else usage_tokens(event.usage)
        if reported is not None:
            result.usage, result.tokens_since_usage = reported, 0
        else:
            result.tokens_since_usage += tokens
        return index


def scan(events: Iterable[Event]) -> Scan:
    scanner = Scanner()
    for event in events:
        scanner.feed(event)
    return scanner.result


def _link(links: array, index: int, event: Event, pending: dict[str, int], groups: OrderedDict) -> None:
    for call in event.tool_calls:
        if call.id:
            pending[call.id] = index
    for res in event.tool_results:
        origin = pending.pop(res.call_id, None) if res.call_id else None
        if origin is not None and origin != index:
            links.extend((index, origin))
    if event.group:
        first = groups.get(event.group)
        if first is None:
            groups[event.group] = index
            if len(groups) > _OPEN_GROUPS:
                groups.popitem(last=False)
        elif first != index:
            links.extend((index, first))


@dataclass(frozen=True)
class Plan:
    """Where to cut. Events ``[0, cut)`` are summarized, except ``held`` (the live
    question, kept verbatim) and metadata (passed through)."""

    over: bool
    tokens_before: int
    token_source: str
    threshold: int
    events: int
    cut: int
    held: int | None
    covered: int  # content events the summary replaces

    @property
    def compacts(self) -> bool:
        return self.over and self.covered > 0


def plan(result: Scan, threshold: int, keep_recent: int) -> Plan:
    over = result.tokens_before >= threshold
    cut = _initial_cut(result, keep_recent)
    cut = _respect_links(result.links, cut)
    held = result.last_question if result.last_question is not None and result.last_question < cut else None
    covered = sum(result.content[:cut]) - (1 if held is not None else 0)
    return Plan(over, result.tokens_before, result.token_source, threshold, result.events, cut, held, covered)


def _initial_cut(result: Scan, keep_recent: int) -> int:
    """The index of the first of the last ``keep_recent`` content events."""
    if keep_recent <= 0:
        return result.events
    window: deque[int] = deque(maxlen=keep_recent)
    for index, flag in enumerate(result.content):
        if flag:
            window.append(index)
    return window[0] if len(window) == keep_recent else 0


def _respect_links(links: array, cut: int) -> int:
    """Move the cut earlier until no kept event depends on a summarized one.

    Links are appended in increasing ``later`` order, so one backward walk
    reaches the fixed point: once ``later < cut`` no earlier link can matter.
    """
    for pos in range(len(links) - 2, -1, -2):
        later, earlier = links[pos], links[pos + 1]
        if later < cut:
            break
        cut = min(cut, earlier)
    return cut
