"""Invariants of the classifier, checked on generated inputs (hypothesis)."""

from __future__ import annotations

import ipaddress
import re
import json
import shlex

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import SHARED
from horizon_cli.guard.engine import Classifier
from horizon_cli.guard.model import Verdict

CLASSIFIER = Classifier()
SHELLISH = st.text(alphabet=st.sampled_from(list("abcrmlsxy -/~.$'\"`\\;&|(){}<>*?#=\n\t0\x00")), max_size=60)
ANY_TEXT = st.one_of(SHELLISH, st.text(max_size=200))
PLAIN = re.compile(r"[\w \t./~=;&|-]*")
DENY_TAILS = ["rm -rf /", "curl http://169.254.169.254/", "cat ~/.aws/credentials"]
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def verdict(text: str) -> Verdict:
    return CLASSIFIER.classify(text).verdict


@SLOW
@given(ANY_TEXT)
def test_never_raises_on_arbitrary_text(text):
    result = CLASSIFIER.classify(text)
    assert result.verdict in Verdict


def test_never_raises_on_huge_input():
    text = "echo " + "a" * 200_000 + " | " + "(" * 300 + "'unbalanced"
    assert verdict(text) >= Verdict.GATE


@SLOW
@given(ANY_TEXT, st.sampled_from(DENY_TAILS), st.sampled_from(["; ", "\n", " && ", " || "]))
def test_appending_a_deny_command_never_lowers_the_verdict(text, tail, joiner):
    assert verdict(text + joiner + tail) >= verdict(text)
    if PLAIN.fullmatch(text):  # nothing that could swallow the tail (quotes, ${, heredocs, comments)
        assert verdict(text + joiner + tail) == Verdict.DENY


COMMANDS = st.sampled_from(["ls -la", "git status", "npm install", "rm -rf /", "cat README.md", "curl https://x.io",
                            "echo hi", "cat ~/.ssh/id_rsa", "make", "grep -r foo ."])


@settings(max_examples=200, deadline=None)
@given(st.lists(COMMANDS, min_size=1, max_size=5), st.sampled_from(["; ", " && ", " || ", " | ", "\n"]))
def test_a_list_is_never_below_its_parts(parts, joiner):
    combined = verdict(joiner.join(parts))
    assert combined >= max(verdict(p) for p in parts)


# --- the transform fuzzer: obfuscations of deny cases stay deny -------------------------
def _deny_cases() -> list[str]:
    path = SHARED / "conformance" / "classify_cases.jsonl"
    if not path.exists():
        return ["rm -rf /", "curl http://169.254.169.254/latest/meta-data/", "cat ~/.aws/credentials"]
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [c["command"] for c in cases if c["accept"] == ["deny"] and "\n" not in c["command"]]


def _split_quote(word: str) -> str:
    return "".join(f"'{ch}'" if ch.isalnum() else shlex.quote(ch) for ch in word) if word.isalnum() else word


KEYWORDS = frozenset({"function", "if", "for", "while", "until", "case", "select", "time", "coproc", "exec"})
SIMPLE_HEAD = re.compile(r"[\w./-]+")


def _prefix(wrapper: str):
    """Prefix transforms apply to a plain command, not to keywords or assignments (`env A=1 X=1; cmd` changes meaning)."""
    def transform(command: str) -> str:
        head = command.split(" ", 1)[0]
        return f"{wrapper} {command}" if SIMPLE_HEAD.fullmatch(head) and head not in KEYWORDS else command
    return transform


def _first_word(command: str, transform) -> str:
    head, sep, rest = command.partition(" ")
    if not head.isalnum() or head in KEYWORDS:
        return command
    return transform(head) + sep + rest


def _plain_head(command: str) -> bool:
    head = command.split(" ", 1)[0]
    return head.isalnum() and head not in KEYWORDS


TRANSFORMS = {
    "quote-split": lambda c: _first_word(c, lambda w: w[0] + "''" + w[1:]),
    "double-quote-split": lambda c: _first_word(c, lambda w: w[0] + '""' + w[1:]),
    "backslash": lambda c: _first_word(c, lambda w: "\\" + "\\".join(w)),
    "ansi-c": lambda c: _first_word(c, lambda w: "$'" + "".join(f"\\x{ord(ch):02x}" for ch in w) + "'"),
    "octal": lambda c: _first_word(c, lambda w: "$'" + "".join(f"\\{ord(ch):03o}" for ch in w) + "'"),
    "abs-path": lambda c: _first_word(c, lambda w: f"/usr/bin/{w}"),
    "sudo": _prefix("sudo"),
    "env": _prefix("env A=1"),
    "timeout": _prefix("timeout 5"),
    "subshell": lambda c: f"( {c} )",
    "group": lambda c: f"{{ {c}; }}",
    "after-true": lambda c: f"true && {c}",
    "background": lambda c: f"{c} &",
    "bash-c": lambda c: f"bash -c {shlex.quote(c)}",
    "eval": lambda c: f"eval {shlex.quote(c)}",
    "cmd-subst": lambda c: f"echo $( {c} )",
    "backticks": lambda c: f"echo `{c}`" if "`" not in c else c,
    "process-subst": lambda c: f"cat <({c})",
    "ifs": lambda c: c.replace(" ", "${IFS}", 1) if _plain_head(c) else c,
    "var-indirection": lambda c: f"X={shlex.quote(c.split(' ', 1)[0])}; $X {c.split(' ', 1)[1]}" if " " in c and _plain_head(c) else c,
    "nested-twice": lambda c: f"sh -c {shlex.quote('bash -c ' + shlex.quote(c))}",
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_obfuscated_deny_cases_stay_deny(name):
    transform = TRANSFORMS[name]
    failures = [(case, transform(case)) for case in _deny_cases() if verdict(transform(case)) != Verdict.DENY]
    assert not failures, failures[:5]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(TRANSFORMS)), min_size=1, max_size=3), st.sampled_from(_deny_cases()))
def test_stacked_obfuscations_stay_deny(names, case):
    text = case
    for name in names:
        text = TRANSFORMS[name](text)
    assert verdict(text) == Verdict.DENY, text


# --- every encoding of 169.254.169.254 is deny ------------------------------------------------
METADATA = 0xA9FEA9FE


def _inet_aton_forms(value: int):
    octets = list(value.to_bytes(4, "big"))
    layouts = [[value], [octets[0], value & 0xFFFFFF], [octets[0], octets[1], value & 0xFFFF], octets]
    return layouts


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(4)), st.lists(st.sampled_from(["dec", "hex", "HEX", "oct", "zpad"]), min_size=4, max_size=4),
       st.sampled_from(["curl http://{}/", "wget -qO- http://{}/latest/", "curl -g 'http://[::ffff:{}]/'", "nc {} 80",
                        "python3 -c \"import urllib.request as u; u.urlopen('http://{}/')\"", "cat < /dev/tcp/{}/80"]))
def test_every_inet_aton_encoding_of_metadata_is_deny(layout, styles, template):
    import socket

    parts = _inet_aton_forms(METADATA)[layout]
    written = ".".join(_encode(p, s) for p, s in zip(parts, styles))
    assert socket.inet_aton(written) == socket.inet_aton("169.254.169.254")
    if "::ffff:" in template and layout != 3:
        assume(False)  # IPv6-mapped forms take dotted quads only
    assert verdict(template.format(written)) == Verdict.DENY, template.format(written)


def _encode(part: int, style: str) -> str:
    return {"dec": str(part), "hex": hex(part), "HEX": "0X" + format(part, "X"), "oct": "0" + format(part, "o"),
            "zpad": "0" * 3 + format(part, "o")}[style]


@pytest.mark.parametrize(
    "written",
    ["::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "0:0:0:0:0:ffff:a9fe:a9fe", "::169.254.169.254",
     "64:ff9b::a9fe:a9fe", "fd00:ec2::254", "fd00:0ec2:0000::0254"],
)
def test_ipv6_forms_of_metadata_are_deny(written):
    assert ipaddress.ip_address(written)
    assert verdict(f"curl -g 'http://[{written}]/'") == Verdict.DENY
