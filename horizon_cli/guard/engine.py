"""The classifier: parse, then judge every segment and every nested command.

The verdict of an input is the maximum over all its segments (allow < gate <
deny); a segment's verdict is the maximum over the rules that fire on it.
Fail-closed: an input not fully parsed is at least gate (HZ201), and findings
from the fallback scanner still count, so a deny survives a parse failure.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from horizon_cli.guard.config import GuardConfig, compile_config
from horizon_cli.guard.model import Classification, Finding, ParsedScript, Segment, SegmentResult, Verdict
from horizon_cli.guard.segment import SegmentJudge

MAX_DEPTH = 8


class Classifier:
    """Classifies shell text under one policy. Holds only its compiled config and a result cache."""

    def __init__(self, policy: Any = None, *, config: GuardConfig | None = None) -> None:
        if config is None:
            if policy is None:
                from horizon_cli.policy import default_policy

                policy = default_policy()
            config = compile_config(policy)
        self.config = config
        self._cache: OrderedDict[str, Classification] = OrderedDict()
        self._judge = SegmentJudge(config, self._nested)

    def classify(self, text: str) -> Classification:
        """Classify one command line or a whole script (never raises on any text)."""
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        result = self._classify(text, depth=0)
        if self.config.cache_size:
            self._cache[text] = result
            if len(self._cache) > self.config.cache_size:
                self._cache.popitem(last=False)
        return result

    def _classify(self, text: str, depth: int) -> Classification:
        from horizon_cli.guard.parse import parse_script

        script = parse_script(text)
        findings, results = self._judge_script(script, depth)
        verdict = max((f.verdict for f in findings), default=Verdict.ALLOW)
        verdict = max([verdict, *(r.verdict for r in results)])
        ordered = sorted(findings, key=lambda f: -f.verdict)
        return Classification(text, verdict, tuple(results), tuple(ordered), script.complete)

    def _judge_script(self, script: ParsedScript, depth: int) -> tuple[list[Finding], list[SegmentResult]]:
        findings: list[Finding] = []
        for rule in self.config.text_rules:
            if rule.text.search(script.text):
                findings.append(Finding(rule.id, rule.verdict, rule.description, script.text[:200]))
        if not script.complete:
            problem = "; ".join(script.problems) or "not fully parsed"
            findings.append(Finding("HZ201", self.config.verdict("HZ201", Verdict.GATE), f"not fully parsed: {problem}",
                                    script.text[:200]))
        results = []
        for segment in script.segments:
            segment_findings = self._judge.judge(segment, script, depth)
            findings.extend(segment_findings)
            results.append(_segment_result(segment, segment_findings))
        return findings, results

    def _nested(self, text: str, depth: int) -> Classification:
        if depth >= MAX_DEPTH:
            finding = Finding("HZ204", Verdict.GATE, "nested commands too deep to follow", text[:200])
            return Classification(text, Verdict.GATE, (), (finding,), False)
        return self._classify(text, depth + 1)


def _segment_result(segment: Segment, findings: list[Finding]) -> SegmentResult:
    deciding = max(findings, key=lambda f: f.verdict, default=None)
    if deciding is None:
        return SegmentResult(segment.text, None, Verdict.ALLOW, "", "no command", segment.line, segment.col)
    return SegmentResult(segment.text, deciding.executable, deciding.verdict, deciding.rule, deciding.message,
                         segment.line, segment.col)


def classify(text: str, policy: Any = None) -> Classification:
    """One-shot convenience: classify ``text`` under ``policy`` (default policy when None)."""
    return Classifier(policy).classify(text)
