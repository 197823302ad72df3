"""Flush: persist the facts of the summarized range durably, before any lossy step.

The facts file is JSONL (``{"fact", "kind", "source": {"file", "line", "id"?, "role"?}}``).
Facts already in it are not written again, so re-running adds nothing. The new
facts go out in one append followed by fsync; a failed append is truncated
back so the file never holds half a record.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import orjson

from horizon_cli.compaction.facts import Fact
from horizon_cli.errors import FlushError
from horizon_cli.fsutil import fsync_directory


class FactLog:
    """The facts of one run, and the file they are flushed to (without duplicates).

    The file is only read when flushing, so a run that compacts nothing never
    touches it.
    """

    def __init__(self, path: str | None):
        self.path = path
        self._found: dict[tuple[str, str], Fact] = {}

    def add(self, facts: Iterable[Fact]) -> None:
        """Remember facts; a value seen twice keeps its earliest source line
        (the live-question candidate can be handed over after later events)."""
        for fact in facts:
            key = fact.key
            seen = self._found.get(key)
            if seen is None or fact.line < seen.line:
                self._found[key] = fact

    @property
    def found(self) -> list[Fact]:
        """Every fact of the range, in file order."""
        return sorted(self._found.values(), key=lambda fact: fact.line)

    def flush(self, source: str) -> int:
        """Append the facts the file does not hold yet, then fsync; returns how many.

        Raises :class:`FlushError` when the file cannot be read or the facts
        cannot all be made durable.
        """
        if self.path is None:
            return 0
        known = _known_facts(self.path)
        new = [fact for fact in self.found if fact.key not in known]
        if not new:
            return 0
        data = b"".join(orjson.dumps(f.record(source)) + b"\n" for f in new)
        try:
            _append_all_or_nothing(self.path, data)
        except OSError as exc:
            raise FlushError(f"cannot write facts file: {exc.strerror or exc}; nothing was compacted", path=self.path) from None
        return len(new)


def _known_facts(path: str) -> set[tuple[str, str]]:
    known: set[tuple[str, str]] = set()
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        return known  # a device or pipe (e.g. /dev/full): nothing to deduplicate against
    try:
        handle = open(path, "rb")  # noqa: SIM115
    except FileNotFoundError:
        return known
    except OSError as exc:
        raise FlushError(f"cannot read facts file: {exc.strerror}", path=path) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = orjson.loads(raw)
                known.add((str(record["kind"]), str(record["fact"])))
            except (orjson.JSONDecodeError, KeyError, TypeError):
                raise FlushError("not a horizon facts file (expected JSONL with fact and kind)", path=path, line=number) from None
    return known


def _append_all_or_nothing(path: str, data: bytes) -> None:
    created = not os.path.exists(path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        start = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            _truncate_quietly(fd, start)
            raise
    finally:
        os.close(fd)
    if created:  # a new file's directory entry must be durable too
        fsync_directory(os.path.dirname(os.path.abspath(path)))


def _truncate_quietly(fd: int, size: int) -> None:
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass
