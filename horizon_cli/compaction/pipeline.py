"""The compaction pipeline, in its invariant order: decide -> prune -> flush -> summarize -> splice.

Streaming over a seekable input in three passes: decide (scan the whole file,
integers only), range (prune, extract facts, feed the summary state, spool
the pruned events for an external summarizer), then — after the flush has
succeeded and the summary exists — splice (write the output). Nothing is
written to ``output`` before the flush and the summary have both succeeded.
"""

from __future__ import annotations

import shutil
import tempfile
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import orjson

from horizon_cli.compaction.decide import Plan, Scan, is_pinned, plan, scan
from horizon_cli.compaction.external import run_summarizer
from horizon_cli.compaction.facts import Fact, extract_facts
from horizon_cli.compaction.flush import FactLog
from horizon_cli.compaction.prune import prune_event
from horizon_cli.compaction.splice import Covers, covers_text, summary_lines
from horizon_cli.compaction.summarize import BANNER, SummaryBuilder, strip_banner
from horizon_cli.errors import FlushError
from horizon_cli.transcript import horizon as horizon_format
from horizon_cli.transcript.model import Event
from horizon_cli.transcript.reader import read_transcript

Progress = Callable[[str, int, int], None]  # (phase, bytes done, bytes total)
Extractor = Callable[[Event], list[Fact]]
_PROGRESS_STEP = 1 << 22
_COPY_CHUNK = 1 << 20


@dataclass(frozen=True)
class Options:
    threshold_tokens: int = 8000
    keep_recent: int = 6
    prune_chars: int = 2000
    facts_out: str | None = None
    summarizer: str | None = None  # shell command; None = built-in
    summarizer_timeout: float | None = 60.0
    append_only: bool = False
    input_format: str | None = None  # None = detect


@dataclass
class Result:
    name: str
    format: str | None
    plan: Plan | None
    compacted: bool = False
    tokens_after: int = 0
    facts_flushed: int = 0
    facts_found: int = 0
    covers: dict | None = None

    def report(self) -> dict:
        """The stable ``--format json`` schema of ``--stats`` and ``--check``."""
        p = self.plan
        return {
            "file": self.name,
            "format": self.format,
            "over_threshold": bool(p and p.over),
            "threshold_tokens": p.threshold if p else None,
            "tokens_before": p.tokens_before if p else 0,
            "tokens_after": self.tokens_after if self.compacted else (p.tokens_before if p else 0),
            "token_source": p.token_source if p else "estimate",
            "events": p.events if p else 0,
            "events_summarized": self.covers["events"] if self.covers else 0,
            "facts_found": self.facts_found,
            "facts_flushed": self.facts_flushed,
            "compacted": self.compacted,
            "covers": self.covers,
        }


def check(source: BinaryIO, name: str, options: Options, progress: Progress | None = None) -> Result:
    """Decide only: is the transcript over the threshold? Reads the input once."""
    result, _, _ = _decide(source, name, options, progress)
    return result


def compact(
    source: BinaryIO,
    name: str,
    output: BinaryIO,
    options: Options,
    progress: Progress | None = None,
    extract: Extractor = extract_facts,
) -> Result:
    """Compact ``source`` (seekable, binary) into ``output``.

    Under the threshold, or with nothing to summarize, ``output`` receives the
    input byte for byte. Raises :class:`FlushError` (nothing written to
    ``output``, facts file unchanged) when the flush or the summarizer fails.
    """
    result, found, offsets = _decide(source, name, options, progress)
    if found is None or result.plan is None or not result.plan.compacts:
        _copy(source, output, 0)
        return result
    return _compact_range(source, name, output, options, result, found, offsets, progress, extract)


def _decide(source: BinaryIO, name: str, options: Options, progress: Progress | None):
    offsets = array("q")
    total = _size(source)
    if total == 0 or not _has_content(source):
        return Result(name, options.input_format, None), None, offsets
    source.seek(0)
    found = scan(read_transcript(_lines(source, offsets, "scan", total, progress), name, options.input_format))
    decision = plan(found, options.threshold_tokens, options.keep_recent)
    return Result(name, found.format, decision), found, offsets


def _compact_range(source, name, output, options, result, found: Scan, offsets, progress, extract) -> Result:
    decision = result.plan
    facts = FactLog(options.facts_out)
    builder = SummaryBuilder()
    covers = Covers()
    held: Event | None = None
    pinned_tokens = 0
    first_raw: dict | None = None
    total = _size(source)
    with tempfile.SpooledTemporaryFile(max_size=8 << 20) as passthrough, tempfile.TemporaryFile() as spool:
        source.seek(0)
        events = read_transcript(_lines(source, None, "summarize", total, progress), name, found.format)
        for index, event in zip(range(decision.cut), events):
            if first_raw is None:
                first_raw = _object(event.raw)
            if index == decision.held:
                held = event
            elif is_pinned(event):
                if not event.mirror:  # metadata passes through; UI echoes go with their content
                    passthrough.write(_line(event.raw))
                    pinned_tokens += found.tokens[index]
            else:
                _take(event, options, covers, facts, builder, spool, extract, name)
        # flush: facts are durable before anything lossy happens.
        result.facts_found = len(facts.new)
        result.facts_flushed = facts.flush(name)
        # summarize
        if options.summarizer:
            spool.flush()
            body = strip_banner(run_summarizer(options.summarizer, spool, options.summarizer_timeout))
            text, kind = f"{BANNER}\n\n{body}", "external"
        else:
            builder.add_facts(facts.new)
            text, kind = builder.render(), "builtin"
        record = covers.record(held, kind)
        text = f"{text}\n\n{covers_text(record)}"
        # splice
        context = {
            "append_only": options.append_only,
            "first_raw": first_raw or {},
            "last_uuid": None,
            "last_timestamp": None,
        }
        summary = summary_lines(found.format, text, record, _with_tail(context, source, offsets, found))
        _splice(source, output, options, passthrough, summary, held, offsets, found, decision)
    result.compacted = True
    result.covers = record
    kept = sum(found.tokens[decision.cut:]) + (found.tokens[decision.held] if decision.held is not None else 0)
    result.tokens_after = (len(text) + 3) // 4 + kept + pinned_tokens
    return result


def _take(event, options, covers, facts, builder, spool, extract, name) -> None:
    """One summarized event: prune it, extract its facts, feed the summary and the spool."""
    covers.add(event)
    pruned = prune_event(event, options.prune_chars)
    try:
        found = extract(pruned)
    except Exception as exc:  # noqa: BLE001 - any extractor failure must stop the lossy step
        raise FlushError(f"fact extraction failed: {type(exc).__name__}: {exc}; nothing was compacted",
                         path=name, line=event.line) from None
    facts.add(found)
    builder.add(pruned)
    if options.summarizer:
        spool.write(orjson.dumps(horizon_format.to_record(pruned)) + b"\n")


def _with_tail(context: dict, source: BinaryIO, offsets: array, found: Scan) -> dict:
    """Add the last event's id and timestamp (append-only summaries chain after it)."""
    if not offsets:
        return context
    last_line = found.lines[-1]
    source.seek(offsets[last_line - 1])
    raw = source.readline()
    for event in read_transcript([raw], "<tail>", found.format):
        context["last_uuid"] = event.id
        context["last_timestamp"] = event.timestamp
    return context


def _splice(source, output, options, passthrough, summary, held, offsets, found, decision) -> None:
    if options.append_only:
        _copy(source, output, 0, ensure_newline=True)
        output.write(summary)
        return
    passthrough.seek(0)
    shutil.copyfileobj(passthrough, output, _COPY_CHUNK)
    output.write(summary)
    if held is not None:
        output.write(_line(held.raw))
    if decision.cut < found.events:
        _copy(source, output, offsets[found.lines[decision.cut] - 1])


def _lines(source: BinaryIO, offsets: array | None, phase: str, total: int, progress: Progress | None) -> Iterator[bytes]:
    position = 0
    next_report = _PROGRESS_STEP
    for raw in source:
        if offsets is not None:
            offsets.append(position)
        position += len(raw)
        if progress is not None and position >= next_report:
            progress(phase, position, total)
            next_report = position + _PROGRESS_STEP
        yield raw
    if progress is not None:
        progress(phase, position, total)


def _copy(source: BinaryIO, output: BinaryIO, start: int, ensure_newline: bool = False) -> None:
    source.seek(start)
    last = b""
    while chunk := source.read(_COPY_CHUNK):
        output.write(chunk)
        last = chunk
    if ensure_newline and last and not last.endswith(b"\n"):
        output.write(b"\n")


def _line(raw: bytes) -> bytes:
    return raw if raw.endswith(b"\n") else raw + b"\n"


def _object(raw: bytes) -> dict | None:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _size(source: BinaryIO) -> int:
    position = source.tell()
    size = source.seek(0, 2)
    source.seek(position)
    return size


def _has_content(source: BinaryIO) -> bool:
    source.seek(0)
    return any(raw.strip() for raw in source)
