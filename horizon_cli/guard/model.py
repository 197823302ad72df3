"""The neutral representation the parser produces and the classifier consumes.

Nothing here imports bashlex: the parser adapts bashlex's tree (or the
fallback scanner's tokens) into these plain objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Verdict(IntEnum):
    """Ordered so that ``max()`` combines verdicts (allow < gate < deny)."""

    ALLOW = 0
    GATE = 1
    DENY = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, name: str) -> Verdict:
        return cls[name.upper()]


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word after quote removal and static expansion.

    ``value``: what bash would pass (unresolvable expansions left as written, e.g. ``$X``).
    ``pattern``: a glob that every possible value matches: unresolvable parts become ``*``,
    quoted glob characters are escaped as ``[*]``, unquoted ones kept.
    ``static``: no unresolvable part (no env var, no command substitution output).
    ``glob``: contains unquoted glob characters (``* ? [``) that the shell would expand.
    """

    value: str
    raw: str
    static: bool = True
    glob: bool = False
    pattern: str = ""
    pos: int = 0  # offset of the word in the parsed text

    @property
    def match_pattern(self) -> str:
        return self.pattern or self.value


@dataclass(frozen=True, slots=True)
class Redirect:
    """``op`` is one of < > >> >| <> << <<- <<< >& <& &> &>>; ``fd`` the explicit fd, if any."""

    op: str
    target: Word | None
    fd: int | None = None
    body: str | None = None  # heredoc body or here-string value (already resolved)


@dataclass(slots=True)
class Segment:
    """One simple command, wherever it stands in the script."""

    argv: list[Word]
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    text: str = ""  # source text of this simple command
    line: int = 1  # 1-based, in the parsed text
    col: int = 1
    pipeline: int = 0  # segments with the same id are stages of one pipeline
    stage: int = 0  # 0-based position within the pipeline
    stages: int = 1  # number of stages in that pipeline
    context: str = "top"  # top | substitution | process-substitution | function | heredoc
    background: bool = False

    @property
    def feeds_next(self) -> bool:
        return self.stage < self.stages - 1


@dataclass(slots=True)
class ParsedScript:
    """Every simple command of a script, in source order, and how well it was understood."""

    segments: list[Segment]
    complete: bool = True  # False: parse failed or was approximated (fallback scanner)
    problems: list[str] = field(default_factory=list)
    text: str = ""


@dataclass(frozen=True, slots=True)
class Finding:
    """A reason for a verdict, tied to the rule that produced it."""

    rule: str
    verdict: Verdict
    message: str
    segment: str = ""  # source text of the deciding segment
    executable: str | None = None
    line: int = 1
    col: int = 1


@dataclass(frozen=True, slots=True)
class SegmentResult:
    text: str
    executable: str | None
    verdict: Verdict
    rule: str
    reason: str
    line: int = 1
    col: int = 1


@dataclass(frozen=True, slots=True)
class Classification:
    """The verdict for one input command (or script) with its evidence."""

    command: str
    verdict: Verdict
    segments: tuple[SegmentResult, ...] = ()
    findings: tuple[Finding, ...] = ()
    complete: bool = True

    @property
    def decisive(self) -> Finding | None:
        """The first finding at the overall verdict (the reason shown to humans)."""
        for finding in self.findings:
            if finding.verdict == self.verdict:
                return finding
        return None
