"""Streaming transcript reading: detect on a small buffered head, then one event per line."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from horizon_cli.jsonl import iter_jsonl
from horizon_cli.transcript.detect import SAMPLE_LINES, adapter, detect_format
from horizon_cli.transcript.model import Event


def read_transcript(lines: Iterable[bytes], name: str, fmt: str | None = None) -> Iterator[Event]:
    """Yield one :class:`Event` per non-blank line, in order, holding only one line at a time.

    ``fmt`` forces a format; otherwise it is detected from the first lines.
    Malformed JSON raises :class:`~horizon_cli.errors.InputError` (``name:line``).
    """
    stream = iter(lines)
    if fmt is None:
        head = list(itertools.islice(stream, SAMPLE_LINES))
        fmt = detect_format(head, name)
        stream = itertools.chain(head, stream)
    parse = adapter(fmt).parse
    for number, value, raw in iter_jsonl(stream, name):
        yield parse(value, raw, number)
