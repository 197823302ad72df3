"""Judging one simple command: unwrap it, apply every rule, recurse into nested commands."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from horizon_cli.guard import code as codescan
from horizon_cli.guard import net
from horizon_cli.guard.argv import executable, subcommand
from horizon_cli.guard.config import GuardConfig
from horizon_cli.guard.model import Classification, Finding, ParsedScript, Segment, Verdict, Word
from horizon_cli.guard.nested import Payload, env_payloads, payloads_for
from horizon_cli.guard.netcheck import network_hits
from horizon_cli.guard.patterns import pattern_hits, target_hits
from horizon_cli.guard.secretcheck import secret_hits, secret_variable_hits, text_secret_hits
from horizon_cli.guard.view import Hit, SegmentView
from horizon_cli.guard.wrappers import unwrap
from horizon_cli.guard.writecheck import write_hits, write_targets

SUBSTITUTION = re.compile(r"\$\(|`")
BRACES = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")  # a brace expansion too large to follow
VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*|[0-9@*#?$!-])")

Nested = Callable[[str, int], Classification]


class SegmentJudge:
    def __init__(self, config: GuardConfig, nested: Nested) -> None:
        self.config = config
        self.nested = nested
        self._target_rules = tuple(config.redirect_rules) + tuple(r for r in config.pattern_rules if r.redirect_to)

    def judge(self, segment: Segment, script: ParsedScript, depth: int) -> list[Finding]:
        view, hits = self._view(segment, depth)
        if view is not None and view.stdin_args and segment.stage > 0:
            view.args = [*view.args, *self._piped_arguments(segment, script)]
        if view is not None:
            hits.extend(self._rules(view, depth))
            hits.extend(self._pipeline(view, script, depth))
        elif segment.redirects:
            # No command, but the shell still opens the redirections (`exec 3<>/dev/tcp/…`, `> file`).
            bare = SegmentView(segment, "", None, [])
            hits.extend(network_hits(bare, self.config, inert=False))
            hits.extend(secret_hits(bare, self.config))
            hits.extend(self._writes(bare))
        return [self._finding(h, segment, view) for h in hits]

    # -- building the view ---------------------------------------------------
    def _piped_arguments(self, segment: Segment, script: ParsedScript) -> list[Word]:
        """`echo ~/.aws/credentials | xargs cat`: the arguments xargs will read, when statically known."""
        from horizon_cli.guard.decode import static_output

        earlier = [s for s in script.segments
                   if s.pipeline == segment.pipeline and s.stage < segment.stage and s.context == segment.context]
        data, _ = static_output(earlier)
        return [Word(value=item, raw=item) for item in (data or "").split()[:256]]

    def _view(self, segment: Segment, depth: int) -> tuple[SegmentView | None, list[Hit]]:
        hits: list[Hit] = []
        unwrapped = unwrap(segment.argv)
        for word in unwrapped.reads:
            hits.extend(secret_hits(SegmentView(segment, "xargs", None, [word]), self.config))
        if unwrapped.privileged:
            hits.extend(self._hit("HZ006", Verdict.GATE, f"runs with other privileges via {unwrapped.wrappers[0]}"))
        for word in unwrapped.payloads:
            hits.extend(self._payload(Payload("shell", "env -S", text=word.value, static=word.static), segment, depth))
        for payload in env_payloads([*segment.assignments, *unwrapped.assignments]):
            hits.extend(self._payload(payload, segment, depth))
        argv = unwrapped.argv
        if unwrapped.lookup_only:
            return None, hits
        if not argv:
            if unwrapped.wrappers and not unwrapped.privileged:
                argv = [Word(value=unwrapped.wrappers[-1], raw=unwrapped.wrappers[-1])]
            else:
                return None, hits
        head = argv[0]
        exe = executable(head.value)
        if not head.static:
            hits.extend(self._hit("HZ202", Verdict.GATE, f"command name {head.raw!r} is only known at run time"))
        elif exe.outside_system:
            hits.extend(self._hit("HZ005", Verdict.GATE, f"runs {exe.path}, not a system {exe.name}"))
        args = argv[1:]
        view = SegmentView(segment, exe.name, subcommand(exe.name, [w.value for w in args]), args,
                           unwrapped.wrappers, unwrapped.stdin_args)
        return view, hits

    # -- the rules -------------------------------------------------------------
    def _rules(self, view: SegmentView, depth: int) -> list[Hit]:
        config = self.config
        hits = [self._list_hit(view)]
        hits.extend(pattern_hits(view, config.pattern_rules))
        hits.extend(self._unresolved(view))
        inert = self._inert(view)
        hits.extend(network_hits(view, config, inert))
        hits.extend(secret_hits(view, config))
        hits.extend(self._writes(view))
        for payload in payloads_for(view.exe, view.args, view.segment.redirects):
            hits.extend(self._payload(payload, view.segment, depth))
        return [h for h in hits if h is not None]

    def _list_hit(self, view: SegmentView) -> Hit:
        found = self.config.list_verdict(view.exe, view.sub)
        shown = f"{view.exe} {view.sub}" if view.sub and found and " " in self._entry(view, found) else view.exe
        if found is not None:
            verdict, rule = found
            label = {"HZ001": "allowed", "HZ002": "needs confirmation", "HZ003": "denied"}[rule]
            return Hit(rule, verdict, f"{shown}: {label} by classify.{str(verdict)}")
        verdict = self.config.default_unknown
        return Hit("HZ004", verdict, f"{view.exe}: unknown executable (classify.default_unknown = {verdict})")

    def _entry(self, view: SegmentView, found) -> str:
        return f"{view.exe} {view.sub}" if self.config.exe_verdicts.get(f"{view.exe} {view.sub}") == found else view.exe

    def _unresolved(self, view: SegmentView) -> list[Hit]:
        words = [*view.args, *(r.target for r in view.segment.redirects if r.target is not None)]
        hits = secret_variable_hits(words, self.config)
        known = self.config.known_variables
        reads = view.exe not in self.config.readers_exempt
        for word in words:
            if word.static:
                continue
            names = [n for n in VARIABLE.findall(word.raw) if n not in known and n != "HOME"]
            if names:
                hits.extend(self._hit("HZ203", Verdict.GATE, f"argument {word.raw!r} depends on ${names[0]}"))
                break
            if reads and (SUBSTITUTION.search(word.raw) or BRACES.search(word.raw)):
                # `cat $(echo ~/.ssh/id_rsa)`: the file it reads is only known at run time.
                hits.extend(self._hit("HZ203", Verdict.GATE, f"argument {word.raw!r} is only known at run time"))
                break
        return hits

    def _inert(self, view: SegmentView) -> bool:
        inert = self.config.inert
        named = view.exe in inert or (view.sub is not None and f"{view.exe} {view.sub}" in inert)
        return named and not view.output_used

    def _writes(self, view: SegmentView) -> list[Hit]:
        targets = write_targets(view)
        hits = target_hits(targets, self._target_rules)
        hits.extend(write_hits(view, self.config, targets))
        return hits

    # -- nested commands -----------------------------------------------------------
    def _payload(self, payload: Payload, segment: Segment, depth: int) -> list[Hit]:
        hits: list[Hit] = []
        if payload.kind == "shell":
            if not payload.static:
                hits.extend(self._hit("HZ204", Verdict.GATE, f"{payload.via}: the command is not a literal"))
            if payload.text.strip():
                hits.extend(self._classified(self.nested(payload.text, depth), payload.via))
        elif payload.kind == "argv" and payload.argv:
            inner = replace(segment, argv=list(payload.argv), assignments=[], redirects=[])
            for finding in self.judge(inner, ParsedScript([inner], text=segment.text), depth + 1):
                hits.append(Hit(finding.rule, finding.verdict, f"{payload.via}: {finding.message}"))
        elif payload.kind == "code":
            hits.extend(self._code(payload, depth))
        return hits

    def _code(self, payload: Payload, depth: int) -> list[Hit]:
        text = payload.text
        runs = codescan.runs_commands(text)
        hits: list[Hit] = []
        if payload.language != "awk" or runs:
            hits.extend(self._hit("HZ206", Verdict.GATE, f"{payload.via}: inline {payload.language} code"))
        for ep in net.endpoints_in_text(text):
            if net.is_metadata(ep):
                hits.append(Hit("HZ301", Verdict.DENY, f"{payload.via}: reaches the cloud metadata server {ep.host}"))
                break
        hits.extend(text_secret_hits(text, self.config, payload.via))
        for command in codescan.shell_strings(text, payload.language):
            hits.extend(self._classified(self.nested(command, depth), f"{payload.via} runs {command[:60]!r}"))
        return hits

    def _classified(self, result: Classification, via: str) -> list[Hit]:
        return [Hit(f.rule, f.verdict, f"{via}: {f.message}") for f in result.findings if f.verdict > Verdict.ALLOW]

    # -- pipelines: decode-and-execute ---------------------------------------------
    def _pipeline(self, view: SegmentView, script: ParsedScript, depth: int) -> list[Hit]:
        segment = view.segment
        if segment.stage == 0:
            return []
        from horizon_cli.guard.decode import executes_stdin, static_output  # only for pipelines

        if not executes_stdin(view):
            return []
        hits = self._hit("HZ207", Verdict.GATE, f"pipes data into {view.exe}")
        earlier = [s for s in script.segments
                   if s.pipeline == segment.pipeline and s.stage < segment.stage and s.context == segment.context]
        data, decoded = static_output(earlier)
        if decoded:
            hits.extend(self._hit("HZ205", Verdict.GATE, f"decodes data and runs it with {view.exe}"))
        if data and data.strip():
            hits.extend(self._classified(self.nested(data, depth), f"payload piped into {view.exe}"))
        return hits

    # -- helpers -----------------------------------------------------------------------
    def _hit(self, rule: str, fallback: Verdict, message: str) -> list[Hit]:
        verdict = self.config.verdict(rule, fallback)
        return [] if verdict is None else [Hit(rule, verdict, message)]

    def _finding(self, hit: Hit, segment: Segment, view: SegmentView | None) -> Finding:
        return Finding(hit.rule, hit.verdict, hit.message, segment.text, view.exe if view else None,
                       segment.line, segment.col)
