"""The classify part of a policy, compiled once into fast lookups.

Policy files stay readable TOML; this turns them into sets, dicts and
compiled regexes so that per-segment checks are dictionary hits.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from horizon_cli.errors import PolicyError
from horizon_cli.guard.model import Verdict

LIST_RULES = {"allow": "HZ001", "gate": "HZ002", "deny": "HZ003"}
FIXED_DENY = "HZ301"  # metadata servers: no policy can loosen it
FAIL_CLOSED = ("HZ201", "HZ202", "HZ203")  # never below gate
GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class PatternRule:
    """A rule defined entirely in the policy by matchers (all given must hold)."""

    id: str
    verdict: Verdict
    description: str
    executables: tuple[str, ...] = ()
    flags_any: tuple[str, ...] = ()
    flags_all: tuple[str, ...] = ()
    args_any: tuple[str, ...] = ()
    argv: re.Pattern[str] | None = None
    text: re.Pattern[str] | None = None
    redirect_to: tuple[str, ...] = ()

    @property
    def text_only(self) -> bool:
        return self.text is not None and not (self.executables or self.redirect_to)


@dataclass(frozen=True)
class GuardConfig:
    default_unknown: Verdict
    exe_verdicts: Mapping[str, tuple[Verdict, str]]  # "git status" -> (allow, HZ001)
    exe_globs: tuple[tuple[str, Verdict, str], ...]
    rules: Mapping[str, Mapping[str, Any]]
    rule_verdicts: Mapping[str, Verdict | None]  # None: the rule is off
    pattern_rules: tuple[PatternRule, ...]
    text_rules: tuple[PatternRule, ...]
    allow_hosts: tuple[str, ...]
    net_tools: frozenset[str]
    inert: frozenset[str]
    secret_paths: tuple[str, ...]
    secret_exclude: tuple[str, ...]
    readers_exempt: frozenset[str]
    persistence: tuple[str, ...]
    outside_tree: Verdict
    known_variables: frozenset[str]
    cache_size: int = 4096
    redirect_rules: tuple[PatternRule, ...] = field(default=())

    def verdict(self, rule: str, fallback: Verdict = Verdict.GATE) -> Verdict | None:
        """The policy's verdict for a code-implemented rule, None when switched off."""
        return self.rule_verdicts.get(rule, fallback)

    def describe(self, rule: str) -> str:
        return str(self.rules.get(rule, {}).get("description", rule))

    def list_verdict(self, exe: str, sub: str | None) -> tuple[Verdict, str] | None:
        """Most specific list entry for ``exe`` (``exe sub`` beats ``exe``); deny beats all."""
        for glob, verdict, rule in self.exe_globs:
            if verdict is Verdict.DENY and fnmatch.fnmatchcase(exe, glob):
                return verdict, rule
        if sub is not None:
            hit = self.exe_verdicts.get(f"{exe} {sub}")
            if hit is not None:
                plain = self.exe_verdicts.get(exe)
                return plain if plain and plain[0] is Verdict.DENY else hit
        hit = self.exe_verdicts.get(exe)
        if hit is not None:
            return hit
        for glob, verdict, rule in self.exe_globs:
            if fnmatch.fnmatchcase(exe, glob):
                return verdict, rule
        return None


def compile_config(policy: Any) -> GuardConfig:
    """Build a :class:`GuardConfig` from a :class:`horizon_cli.policy.Policy`."""
    classify = policy.table("classify")
    rules = dict(policy.table("rules"))
    rule_verdicts = _rule_verdicts(rules)
    exe_verdicts, exe_globs = _executable_lists(classify, rule_verdicts)
    patterns = [_pattern_rule(rid, spec, rule_verdicts) for rid, spec in sorted(rules.items()) if _has_matchers(spec)]
    patterns = [p for p in patterns if p is not None]
    network, secrets, writes = (classify.get(k, {}) for k in ("network", "secrets", "writes"))
    return GuardConfig(
        default_unknown=Verdict.parse(classify.get("default_unknown", "gate")),
        exe_verdicts=exe_verdicts,
        exe_globs=tuple(exe_globs),
        rules=rules,
        rule_verdicts=rule_verdicts,
        pattern_rules=tuple(p for p in patterns if p.executables),
        text_rules=tuple(p for p in patterns if p.text_only),
        redirect_rules=tuple(p for p in patterns if p.redirect_to and not p.executables),
        allow_hosts=tuple(network.get("allow_hosts", ())),
        net_tools=frozenset(network.get("tools", ())),
        inert=frozenset(network.get("inert", ())),
        secret_paths=tuple(secrets.get("paths", ())),
        secret_exclude=tuple(secrets.get("exclude", ())),
        readers_exempt=frozenset(secrets.get("readers_exempt", ())),
        persistence=tuple(writes.get("persistence", ())),
        outside_tree=Verdict.parse(writes.get("outside_tree", "gate")),
        known_variables=frozenset(classify.get("known_variables", ())),
        cache_size=int(classify.get("cache_size", 4096)),
    )


def _rule_verdicts(rules: Mapping[str, Mapping[str, Any]]) -> dict[str, Verdict | None]:
    verdicts: dict[str, Verdict | None] = {}
    for rid, spec in rules.items():
        name = spec.get("verdict", "gate")
        verdicts[rid] = None if name == "off" else Verdict.parse(name)
    if verdicts.get(FIXED_DENY, Verdict.DENY) is not Verdict.DENY:
        raise PolicyError(f"rules.{FIXED_DENY}.verdict: the metadata-server rule is always deny and cannot be changed")
    verdicts[FIXED_DENY] = Verdict.DENY
    for rid in FAIL_CLOSED:
        if rid in verdicts and (verdicts[rid] is None or verdicts[rid] < Verdict.GATE):
            raise PolicyError(f"rules.{rid}.verdict: fail-closed rule cannot be set below gate")
    return verdicts


def _executable_lists(classify: Mapping[str, Any], rule_verdicts: Mapping[str, Verdict | None]):
    exact: dict[str, tuple[Verdict, str]] = {}
    globs: list[tuple[str, Verdict, str]] = []
    for key in ("allow", "gate", "deny"):  # later lists win on duplicates: deny last
        rule = LIST_RULES[key]
        verdict = rule_verdicts.get(rule, Verdict.parse(key))
        if verdict is None:
            continue
        for entry in classify.get(key, ()):
            name = " ".join(entry.split())
            if GLOB_CHARS.intersection(name):
                globs.append((name, verdict, rule))
            else:
                exact[name] = (verdict, rule)
    globs.sort(key=lambda item: -item[1])  # deny globs first
    return exact, globs


def _has_matchers(spec: Mapping[str, Any]) -> bool:
    return any(spec.get(k) for k in ("executables", "argv", "text", "redirect_to"))


def _pattern_rule(rid: str, spec: Mapping[str, Any], verdicts: Mapping[str, Verdict | None]) -> PatternRule | None:
    verdict = verdicts.get(rid)
    if verdict is None:
        return None
    return PatternRule(
        id=rid,
        verdict=verdict,
        description=str(spec.get("description", rid)),
        executables=tuple(spec.get("executables", ())),
        flags_any=tuple(spec.get("flags_any", ())),
        flags_all=tuple(spec.get("flags_all", ())),
        args_any=tuple(spec.get("args_any", ())),
        argv=re.compile(spec["argv"]) if spec.get("argv") else None,
        text=re.compile(spec["text"]) if spec.get("text") else None,
        redirect_to=tuple(spec.get("redirect_to", ())),
    )
