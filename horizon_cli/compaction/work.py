"""The per-event work on the summarized range: prune, extract facts, feed the
summary state, spool for an external summarizer, collect pass-through lines.

Nothing here is durable or visible: the pipeline flushes the facts and writes
the output only after the whole range has been taken.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable

import orjson

from horizon_cli.compaction.facts import Fact, extract_facts
from horizon_cli.compaction.flush import FactLog
from horizon_cli.compaction.prune import prune_event
from horizon_cli.compaction.splice import Covers
from horizon_cli.compaction.summarize import SummaryBuilder
from horizon_cli.errors import FlushError
from horizon_cli.transcript import horizon as horizon_format
from horizon_cli.transcript.model import Event

Extractor = Callable[[Event], list[Fact]]


class CoveredDigest:
    """sha256 over the covered lines in file order, even though the live-question
    candidate is only known to be covered (or held back) later: while one is
    pending, a second hash that includes it runs alongside."""

    def __init__(self) -> None:
        self._held = hashlib.sha256()  # as if the pending question stays held back
        self._taken: hashlib._Hash | None = None  # as if it is summarized after all

    def add(self, raw: bytes) -> None:
        self._held.update(raw)
        if self._taken is not None:
            self._taken.update(raw)

    def hold(self, raw: bytes) -> None:
        self._taken = self._held.copy()
        self._taken.update(raw)

    def release(self) -> None:
        """The pending question was not the live one: it is covered."""
        assert self._taken is not None
        self._held, self._taken = self._taken, None

    def hexdigest(self) -> str:
        return self._held.hexdigest()


class RangeWork:
    def __init__(self, name: str, prune_chars: int, facts_out: str | None, spool: bool, extract: Extractor = extract_facts):
        self.name = name
        self.prune_chars = prune_chars
        self.extract = extract
        self.facts = FactLog(facts_out)
        self.builder = SummaryBuilder()
        self.covers = Covers()
        self.digest = CoveredDigest()
        self.failure: FlushError | None = None
        self.pinned_tokens = 0
        self.passthrough = tempfile.SpooledTemporaryFile(max_size=8 << 20)
        self.spool = tempfile.TemporaryFile() if spool else None

    def pin(self, event: Event, tokens: int) -> None:
        """A line that is never summarized: it goes before the summary, unchanged."""
        if event.mirror:
            return  # a UI echo goes with the content it echoes
        raw = event.raw
        self.passthrough.write(raw if raw.endswith(b"\n") else raw + b"\n")
        self.pinned_tokens += tokens

    def hold(self, event: Event) -> None:
        """A question that may be the live one: not taken until a newer question shows up."""
        self.digest.hold(event.raw)

    def release(self, event: Event) -> None:
        """The held question was not the live one after all (its bytes were hashed in order by ``hold``)."""
        self.digest.release()
        self.take(event, hashed=True)

    def take(self, event: Event, hashed: bool = False) -> None:
        """One summarized event."""
        if self.failure is not None:
            return  # compaction will abort; no point in more work
        if not hashed:
            self.digest.add(event.raw)
        self.covers.add(event)
        pruned = prune_event(event, self.prune_chars)
        try:
            found = self.extract(pruned)
        except Exception as exc:  # noqa: BLE001 - any extractor failure must stop the lossy step
            # Raised at flush time: this may be speculative work for a transcript
            # that turns out to be under the threshold.
            self.failure = FlushError(f"fact extraction failed: {type(exc).__name__}: {exc}; nothing was compacted",
                                      path=self.name, line=event.line)
            return
        self.facts.add(found)
        self.builder.add(pruned)
        if self.spool is not None:
            self.spool.write(orjson.dumps(horizon_format.to_record(pruned)) + b"\n")

    def close(self) -> None:
        self.passthrough.close()
        if self.spool is not None:
            self.spool.close()
