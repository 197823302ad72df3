"""The compaction pipeline, in its invariant order: decide -> prune -> flush -> summarize -> splice.

One parsing pass over a seekable input does the decide scan and, for events
that have already left the keep-recent window (so are certainly before the
cut), the range work (prune, extract facts, summary state) — holding only the
window in memory. Should the final cut land earlier than that speculation
(a kept tool result whose call left the window long ago), or the file hold a
rewound Claude branch, the range work is redone exactly in a second pass.
Then: flush the facts (fsync), summarize, splice. ``output`` is written only
after the flush and the summary have both succeeded.
"""

from __future__ import annotations

import shutil
from array import array
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import orjson

from horizon_cli.compaction.branches import dead_lines
from horizon_cli.compaction.decide import Plan, Scan, Scanner, is_pinned, plan, scan
from horizon_cli.compaction.external import run_summarizer
from horizon_cli.compaction.facts import extract_facts
from horizon_cli.compaction.splice import covers_text, summary_lines
from horizon_cli.compaction.summarize import BANNER, strip_banner
from horizon_cli.compaction.work import Extractor, RangeWork
from horizon_cli.transcript.model import Event
from horizon_cli.transcript.reader import read_transcript

Progress = Callable[[str, int, int], None]  # (phase, bytes done, bytes total)
_PROGRESS_STEP = 1 << 22
# Events held in memory beyond the keep-recent window, so that moving the cut
# back to a kept result's call rarely reaches what was already taken.
_MARGIN = 64
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
    threshold: int | None = None  # for an empty input, which has no plan

    def report(self) -> dict:
        """The stable ``--format json`` schema of ``--stats`` and ``--check``."""
        p = self.plan
        return {
            "file": self.name,
            "format": self.format,
            "over_threshold": bool(p and p.over),
            "threshold_tokens": p.threshold if p else self.threshold,
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
    if _is_empty(source):
        return Result(name, options.input_format, None, threshold=options.threshold_tokens)
    source.seek(0)
    found = scan(read_transcript(_lines(source, None, "scan", _size(source), progress), name, options.input_format))
    return Result(name, found.format, plan(found, options.threshold_tokens, options.keep_recent))


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
    input byte for byte. Raises :class:`~horizon_cli.errors.FlushError`, with
    nothing written to ``output``, when the fact extraction, the flush or the
    summarizer fails (a failed extraction or flush leaves the facts file as it
    was; a failed summarizer runs after the facts were flushed, by design).
    """
    if _is_empty(source):
        _copy(source, output, 0)
        return Result(name, options.input_format, None, threshold=options.threshold_tokens)
    offsets = array("q")
    work = RangeWork(name, options.prune_chars, options.facts_out, bool(options.summarizer), extract)
    try:
        found, decision, held = _single_pass(source, name, options, offsets, work, progress)
        result = Result(name, found.format, decision)
        if not decision.compacts:
            _copy(source, output, 0)
            return result
        dead = _dead_in_range(source, found, decision)
        if held is False or dead:  # the speculation went past the cut, or a rewind: redo the range exactly
            work.close()
            work = RangeWork(name, options.prune_chars, options.facts_out, bool(options.summarizer), extract)
            held = _range_pass(source, name, found, decision, work, progress, dead)
        if work.covers.events == 0:  # the range held only abandoned branches: nothing to summarize
            _copy(source, output, 0)
            return result
        return _finish(source, name, output, options, result, found, decision, held, offsets, work, progress)
    finally:
        work.close()


def _single_pass(source, name, options, offsets, work: RangeWork, progress):
    """Scan everything; take events that left the keep-recent window as they go.

    Returns ``(scan, plan, held)`` where ``held`` is the live-question event,
    ``None``, or ``False`` when the speculation must be redone.
    """
    scanner = Scanner()
    keep = options.keep_recent + _MARGIN
    window: deque[tuple[int, Event]] = deque()
    in_window = 0  # content events in the window
    pending: Event | None = None  # a question that left the window and may be the live one
    taken = 0  # every index below this was handed to ``work`` (or is ``pending``)

    def leave(index: int, event: Event) -> None:
        nonlocal pending
        if not content[index]:
            work.pin(event, tokens[index])
        elif event.is_question and scanner.result.last_question == index:
            if pending is not None:
                work.release(pending)
            work.hold(event)
            pending = event
        else:
            work.take(event)

    content, tokens = scanner.result.content, scanner.result.tokens
    source.seek(0)
    events = read_transcript(_lines(source, offsets, "compact", _size(source), progress), name, options.input_format)
    for event in events:
        index = scanner.feed(event)
        if pending is not None and event.is_question:
            work.release(pending)  # a newer question: the held-back one is not the live one
            pending = None
        window.append((index, event))
        in_window += content[index]
        while in_window > keep or (window and in_window == keep and not content[window[0][0]]):
            left_index, left = window.popleft()
            in_window -= content[left_index]
            leave(left_index, left)
            taken = left_index + 1
    found = scanner.result
    decision = plan(found, options.threshold_tokens, options.keep_recent)
    if not decision.compacts:
        return found, decision, None
    if decision.cut < taken:
        return found, decision, False
    for index, event in window:
        if index >= decision.cut:
            break
        leave(index, event)
    expected = found.lines[decision.held] if decision.held is not None else None
    if (pending.line if pending is not None else None) != expected:
        return found, decision, False  # cannot happen by construction; if it does, be exact, not wrong
    return found, decision, pending


def _dead_in_range(source: BinaryIO, found: Scan, decision: Plan) -> set[int]:
    """Lines of abandoned Claude branches before the cut (empty unless the file branches)."""
    if not found.branched:
        return set()
    source.seek(0)
    cut_line = found.lines[decision.cut] if decision.cut < found.events else found.lines[-1] + 1
    return {line for line in dead_lines(source) if line < cut_line}


def _range_pass(source, name, found: Scan, decision: Plan, work: RangeWork, progress, dead=frozenset()) -> Event | None:
    """The exact (non-speculative) range work: a second parse of ``[0, cut)``.

    ``dead`` lines (abandoned branches) pass through like metadata: not context, not summarized.
    """
    held = None
    source.seek(0)
    events = read_transcript(_lines(source, None, "summarize", _size(source), progress), name, found.format)
    for index, event in zip(range(decision.cut), events):
        if index == decision.held:
            held = event
        elif is_pinned(event) or event.line in dead:
            work.pin(event, found.tokens[index])
        else:
            work.take(event)
    return held


def _finish(source, name, output, options, result, found, decision, held, offsets, work: RangeWork, progress) -> Result:
    # flush: the facts are durable before anything lossy happens.
    if work.failure is not None:
        raise work.failure
    facts = work.facts.found
    result.facts_found = len(facts)
    result.facts_flushed = work.facts.flush(name)
    # summarize
    if options.summarizer:
        work.spool.flush()
        body = strip_banner(run_summarizer(options.summarizer, work.spool, options.summarizer_timeout))
        text, kind = f"{BANNER}\n\n{body}", "external"
    else:
        work.builder.add_facts(facts)
        text, kind = work.builder.render(), "builtin"
    record = work.covers.record(held, kind, work.digest.hexdigest())
    text = f"{text}\n\n{covers_text(record)}"
    # splice
    context = _context(source, offsets, found, options.append_only)
    context["held_id"] = held.id if held is not None else None
    context["held_timestamp"] = held.timestamp if held is not None else None
    summary = summary_lines(found.format, text, record, context)
    _splice(source, output, options, work, summary, held, offsets, found, decision)
    result.compacted = True
    result.covers = record
    kept = sum(found.tokens[decision.cut:]) + (found.tokens[decision.held] if decision.held is not None else 0)
    result.tokens_after = (len(text) + 3) // 4 + kept + work.pinned_tokens
    return result


def _context(source: BinaryIO, offsets: array, found: Scan, append_only: bool) -> dict:
    """What an adapter needs to shape the summary: the first record, the last event's id and time."""
    first_raw = _object(_read_line(source, offsets[found.lines[0] - 1]))
    context = {"append_only": append_only, "first_raw": first_raw or {}, "last_uuid": None, "last_timestamp": None}
    raw = _read_line(source, offsets[found.lines[-1] - 1])
    for event in read_transcript([raw], "<tail>", found.format):
        context["last_uuid"] = event.id
        context["last_timestamp"] = event.timestamp
    return context


def _splice(source, output, options, work: RangeWork, summary: bytes, held, offsets, found, decision) -> None:
    if options.append_only:
        _copy(source, output, 0, ensure_newline=True)
        output.write(summary)
        return
    work.passthrough.seek(0)
    shutil.copyfileobj(work.passthrough, output, _COPY_CHUNK)
    output.write(summary)
    if held is not None:
        output.write(held.raw if held.raw.endswith(b"\n") else held.raw + b"\n")
    if decision.cut < found.events:
        _copy(source, output, offsets[found.lines[decision.cut] - 1])


def _lines(source: BinaryIO, offsets: array | None, phase: str, total: int, progress: Progress | None) -> Iterator[bytes]:
    if offsets is None and progress is None:
        return iter(source)  # not ``yield from``: closing the generator would close the file
    return _tracked(source, offsets, phase, total, progress)


def _tracked(source: BinaryIO, offsets: array | None, phase: str, total: int, progress: Progress | None) -> Iterator[bytes]:
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


def _read_line(source: BinaryIO, offset: int) -> bytes:
    source.seek(offset)
    return source.readline()


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


def _is_empty(source: BinaryIO) -> bool:
    source.seek(0)
    return not any(raw.strip() for raw in source)
