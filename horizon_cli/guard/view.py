"""One segment seen from the rules: the unwrapped command and what feeds it."""

from __future__ import annotations

from dataclasses import dataclass, field

from horizon_cli.guard.model import Segment, Verdict, Word

INPUT_OPS = frozenset({"<", "<<", "<<-", "<<<", "<>"})
WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})


def _empty_source(redirect) -> bool:
    """`< /dev/null` feeds nothing."""
    return redirect.op == "<" and redirect.target is not None and redirect.target.value == "/dev/null"


@dataclass(frozen=True, slots=True)
class Hit:
    """A rule firing on a segment, before the engine attaches location."""

    rule: str
    verdict: Verdict
    message: str


@dataclass(slots=True)
class SegmentView:
    segment: Segment
    exe: str  # base name of the real command ('' when none)
    sub: str | None  # git-style subcommand
    args: list[Word]
    wrappers: list[str] = field(default_factory=list)
    stdin_args: bool = False  # xargs: more operands arrive on stdin

    @property
    def values(self) -> list[str]:
        return [w.value for w in self.args]

    @property
    def receives_input(self) -> bool:
        """Data flows into its stdin: piped, redirected, heredoc or here-string."""
        seg = self.segment
        if seg.stage > 0 or seg.context == "process-substitution":  # `>(nc host)` reads what is written to it
            return True
        return any(r.op in INPUT_OPS and not _empty_source(r) for r in seg.redirects)

    @property
    def output_used(self) -> bool:
        """Its output feeds another command (pipe or substitution), so printed text may become an argument."""
        return self.segment.feeds_next or self.segment.context in ("substitution", "process-substitution")
