"""An external summarizer: a shell command that reads events as JSONL on stdin
and writes the summary text on stdout (e.g. an LLM CLI).

Anything but a clean, non-empty answer in time is a failure: a non-zero exit,
a timeout (the whole process group is killed) or an empty summary raise
:class:`FlushError`, so an error text is never stored as a summary.
"""

from __future__ import annotations

import os
import signal
import subprocess
from typing import BinaryIO

from horizon_cli.errors import FlushError

STDERR_TAIL = 500


def run_summarizer(command: str, events_jsonl: BinaryIO, timeout: float | None) -> str:
    """Run ``command`` through ``/bin/sh`` with ``events_jsonl`` (a real file) on stdin."""
    events_jsonl.seek(0)
    try:
        process = subprocess.Popen(
            command,
            shell=True,
            stdin=events_jsonl,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, so a timeout kills its children too
        )
    except OSError as exc:
        raise FlushError(f"summarizer could not start: {exc.strerror or exc}") from None
    try:
        out, err = process.communicate(timeout=timeout if timeout else None)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise FlushError(f"summarizer timed out after {timeout:g}s and was killed: {command}") from None
    if process.returncode != 0:
        detail = _tail(err)
        raise FlushError(f"summarizer exited with status {process.returncode}: {command}" + (f": {detail}" if detail else ""))
    text = out.decode("utf-8", "replace").strip()
    if not text:
        raise FlushError(f"summarizer produced an empty summary: {command}")
    return text


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.communicate(timeout=5)
    except subprocess.TimeoutExpired:  # a grandchild escaped the group and holds the pipe
        process.kill()


def _tail(err: bytes) -> str:
    text = err.decode("utf-8", "replace").strip()
    return text[-STDERR_TAIL:].replace("\n", " | ")
