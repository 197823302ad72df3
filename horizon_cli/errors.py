"""Errors the library raises and the exit codes the CLI maps them to.

Library code raises these; only the CLI edge turns them into messages and
exit codes, so the mapping lives in one place (``horizon_cli.cli``).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # deny/gate at the threshold, halted, mismatch, over threshold
EXIT_USAGE = 2  # usage error, unreadable or invalid input, broken policy
EXIT_FLUSH_FAILED = 3  # compact: facts flush or summarizer failed; nothing written


class HorizonError(Exception):
    """An error a user can act on: printed as ``horizon: error: …``."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return f"{where}{self.message}"


class InputError(HorizonError):
    """Malformed or unreadable input (exit 2)."""


class PolicyError(HorizonError):
    """A policy file that cannot be used (exit 2, before any input is read)."""


class FlushError(HorizonError):
    """compact could not persist facts or obtain a summary; nothing was changed (exit 3)."""

    exit_code = EXIT_FLUSH_FAILED
