"""Rule examples as tests of a policy (horizon_cli.policy.examples, .checkfile)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import pytest

from horizon_cli.policy import Policy
from horizon_cli.policy.checkfile import as_json, check_file, example_line
from horizon_cli.policy.examples import ExampleFailure, check_examples, iter_examples


@dataclass
class _Finding:
    rule: str
    message: str


@dataclass
class _Result:
    verdict: str
    decisive: _Finding | None = None


def fake_classifier(table: dict[str, str]):
    """Classify by exact text; anything unknown is gated by HZ004."""

    def classify(command: str) -> _Result:
        verdict = table.get(command, "gate")
        return _Result(verdict, _Finding("HZ004" if command not in table else "HZ999", "fake reason"))

    return classify


RULES = {
    "HZ101": {"verdict": "deny", "examples": {"deny": ["rm -rf /", "rm -rf ~"], "gate": ["rm -rf build"]}},
    "HZ102": {"verdict": "off", "examples": {"deny": ["chmod -R 777 /"]}},
    "HZ001": {"verdict": "allow", "examples": {"allow": ["ls"]}},
    "HZ002": {"verdict": "gate"},
}


def test_iter_examples_skips_off_rules_and_sorts():
    assert list(iter_examples(RULES)) == [
        ("HZ001", "allow", "ls"),
        ("HZ101", "deny", "rm -rf /"),
        ("HZ101", "deny", "rm -rf ~"),
        ("HZ101", "gate", "rm -rf build"),
    ]


def test_check_examples_reports_each_mismatch():
    policy = Policy(data={"rules": RULES}, sources=("p.toml",))
    classify = fake_classifier({"rm -rf /": "deny", "ls": "allow", "rm -rf build": "gate"})
    (failure,) = check_examples(policy, classify)
    assert failure == ExampleFailure("HZ101", "rm -rf ~", "deny", "gate", "HZ004", "fake reason", None)
    assert str(failure) == "HZ101: example 'rm -rf ~': expected deny, got gate (HZ004: fake reason)"


def test_check_examples_names_the_declaring_layer():
    layers = [
        ("base.toml", {"rules": {"HZ101": {"verdict": "deny", "examples": {"deny": ["rm -rf /"]}}}}),
        ("mine.toml", {"rules": {"HZ101": {"examples": {"extend_deny": ["rm -rf ~"]}}}}),
    ]
    policy = Policy(data={"rules": {"HZ101": {"verdict": "deny", "examples": {"deny": ["rm -rf /", "rm -rf ~"]}}}},
                    sources=("base.toml", "mine.toml"))
    failures = check_examples(policy, fake_classifier({}), layers)
    assert [(f.example, f.source) for f in failures] == [("rm -rf /", "base.toml"), ("rm -rf ~", "mine.toml")]


POLICY_FILE = textwrap.dedent(
    """\
    [classify]
    extend_allow = ["mytool"]

    [rules.HZ101]
    verdict = "deny"

    [rules.HZ101.examples]
    deny = [
        "rm -rf /",
        "rm -rf /srv/data",
    ]

    [rules.HZ002]
    verdict = "gate"
    """
)


def _fake_for(table):
    return lambda policy: fake_classifier(table)


def test_check_file_locates_failures_in_the_file(tmp_path):
    path = tmp_path / "policy.toml"
    path.write_text(POLICY_FILE, encoding="utf-8")
    result = check_file(str(path), _fake_for({"rm -rf /": "deny"}))
    assert result.error is None
    mine = [lf for lf in result.failures if lf.path == str(path)]
    assert [(lf.failure.example, lf.line) for lf in mine] == [("rm -rf /srv/data", 10)]
    # Examples of the built-in default that the fake classifier gets wrong are attributed to it.
    assert all(lf.path == "built-in:default" and lf.line is None for lf in result.failures if lf not in mine)
    shape = as_json(result)
    assert shape["valid"] is True and shape["path"] == str(path)
    assert {"rule", "example", "expected", "actual", "decided_by", "reason", "path", "line"} == set(shape["failures"][0])


def test_check_file_invalid(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[rules.HZ101]\nverdict = "dney"\n', encoding="utf-8")
    result = check_file(str(path), _fake_for({}))
    assert result.error == f"{path}: rules.HZ101.verdict: 'dney' is not one of allow, gate, deny, off (did you mean 'deny'?)"
    assert not result.ok
    missing = check_file(str(tmp_path / "nope.toml"), _fake_for({}))
    assert missing.error == f"{tmp_path / 'nope.toml'}: no such policy file"
    broken = tmp_path / "broken.toml"
    broken.write_text("[rules\n", encoding="utf-8")
    assert check_file(str(broken), _fake_for({})).error.startswith(f"{broken}: invalid TOML:")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[halt]\n")
    assert check_file(str(binary), _fake_for({})).error == f"{binary}: invalid TOML: not valid UTF-8 (byte 0)"


def test_check_file_pyproject(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n\n[tool.horizon.rules.HZ101.examples]\ndeny = ["rm -rf /"]\n', encoding="utf-8")
    result = check_file(str(path), _fake_for({}))
    assert result.error is None
    assert [lf.line for lf in result.failures if lf.path == str(path)] == [5]
    (tmp_path / "sub").mkdir()
    other = tmp_path / "sub" / "pyproject.toml"
    other.write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert check_file(str(other), _fake_for({})).error == f"{other}: no [tool.horizon] table"


def test_example_line_inline_rule(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[rules]\nHZ101 = { examples = { deny = ["rm -rf /x"] } }\n', encoding="utf-8")
    assert example_line(str(path), "HZ101", "rm -rf /x") == 2
    assert example_line(str(tmp_path / "missing.toml"), "HZ101", "x") is None


def test_built_in_examples_hold_with_the_real_classifier():
    """Every example in the shipped policies classifies as its rule promises."""
    pytest.importorskip("horizon_cli.guard.engine")
    from horizon_cli.policy import default_policy

    failures = check_examples(default_policy())
    assert not failures, "\n".join(map(str, failures))


def test_check_file_reports_classifier_policy_errors(tmp_path):
    from horizon_cli.errors import PolicyError

    def refuse(policy):
        raise PolicyError("rules.HZ201.verdict: fail-closed rule cannot be set below gate")

    path = tmp_path / "low.toml"
    path.write_text('[rules.HZ201]\nverdict = "allow"\n', encoding="utf-8")
    result = check_file(str(path), refuse)
    assert result.error == f"{path}: rules.HZ201.verdict: fail-closed rule cannot be set below gate"
