"""One verification record per checkpoint: what ``horizon verify`` reports.

Turns bytes (a file, or one line of a JSONL stream) into a :class:`CheckRecord`
and never raises for bad input: an unreadable or invalid checkpoint is a
record with ``status == "error"`` so one bad file does not hide the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from horizon_cli.checkpoint.hashing import verify_document
from horizon_cli.checkpoint.jcs import CheckpointError
from horizon_cli.checkpoint.strict import gc_paused, loads_strict
from horizon_cli.errors import InputError

__all__ = ["CheckRecord", "check_bytes", "check_jsonl", "check_stream", "error_record"]

OK, MISMATCH, ERROR = "ok", "mismatch", "error"


@dataclass
class CheckRecord:
    """The stable ``--format json`` record (see README, "horizon verify")."""

    path: str
    line: int | None = None  # the JSONL line, or the line of a parse error
    status: str = OK  # ok | mismatch | error
    expected: str | None = None  # recorded stateHash
    actual: str | None = None  # computed stateHash
    hints: list[str] = field(default_factory=list)
    error: str | None = None
    schema_errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "status": self.status,
            "expected": self.expected,
            "actual": self.actual,
            "hints": self.hints,
            "error": self.error,
            "schema_errors": self.schema_errors,
        }

    @property
    def where(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


def error_record(path: str, message: str, line: int | None = None) -> CheckRecord:
    return CheckRecord(path, line, ERROR, error=message)


def check_stream(stream: BinaryIO, path: str, *, schema: str | None = None, hints: bool = True) -> CheckRecord:
    """Read a whole file-like object and check the one checkpoint in it."""
    with gc_paused():
        try:
            # The bytes live only while they are parsed: memory stays ~ one document.
            document = loads_strict(_read(stream), path)
        except _ReadError as exc:
            return error_record(path, f"cannot read: {exc}")
        except InputError as exc:
            return error_record(path, exc.message, exc.line)
        return check_document(document, path, schema=schema, hints=hints)


def check_bytes(
    data: bytes, path: str, *, schema: str | None = None, line: int | None = None, hints: bool = True
) -> CheckRecord:
    """Check one checkpoint given as JSON bytes (``line`` places it in a JSONL stream)."""
    with gc_paused():
        try:
            document = loads_strict(data, path)
        except InputError as exc:
            # A JSONL record has one line; a parse error inside a file names its own.
            return error_record(path, exc.message, line if line is not None else exc.line)
        return check_document(document, path, schema=schema, line=line, hints=hints)


class _ReadError(Exception):
    pass


def _read(stream: BinaryIO) -> bytes:
    try:
        return stream.read()
    except OSError as exc:
        raise _ReadError(exc.strerror or str(exc)) from None


def check_document(
    document: Any, path: str, *, schema: str | None = None, line: int | None = None, hints: bool = True
) -> CheckRecord:
    record = CheckRecord(path, line)
    try:
        result = verify_document(document, hints=hints)
    except CheckpointError as exc:
        record.status, record.error = ERROR, str(exc)
    else:
        record.expected, record.actual, record.hints = result.expected, result.actual, list(result.hints)
        record.status = OK if result.ok else MISMATCH
    if schema is not None:
        from horizon_cli.checkpoint.schema import check_schema

        # Reported even when the hash could not be checked: fix everything in one pass.
        record.schema_errors = check_schema(schema, document)
        if record.schema_errors and record.error is None:
            count = len(record.schema_errors)
            record.status = ERROR
            record.error = f"does not match the {schema} checkpoint schema ({count} problem{'s' * (count != 1)})"
    return record


def check_jsonl(
    lines: Iterable[bytes], path: str, *, schema: str | None = None, hints: bool = True
) -> Iterator[CheckRecord]:
    """Check a stream holding one checkpoint per line; blank lines are skipped."""
    number = 0
    try:
        for number, raw in enumerate(lines, start=1):  # noqa: B007 - number used after the loop
            if raw.strip():
                yield check_bytes(raw, path, schema=schema, line=number, hints=hints)
    except OSError as exc:
        yield error_record(path, f"cannot read: {exc.strerror or exc}", number + 1)
