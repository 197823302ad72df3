"""CI output formats: GitHub Actions annotations and SARIF 2.1.0 (horizon_cli.report)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horizon_cli.report import Located, artifact_location, github_annotations, sarif_log
from conftest import shared_path

RULES = {
    "HZ101": {
        "name": "recursive-delete-of-root-or-home",
        "verdict": "deny",
        "description": "Recursive delete of / or ~",
        "doc": "`rm -rf /` destroys the machine.",
        "examples": {"deny": ["rm -rf /"], "gate": ["rm -rf build"]},
    },
    "HZ303": {"name": "network-access", "verdict": "gate", "description": "Opens a network connection"},
    "HZ001": {"name": "allowed-executable", "verdict": "allow", "description": "Allowed"},
    "HZ900": {"name": "switched-off", "verdict": "off", "description": "Off"},
}

FINDINGS = [
    Located("README.md", 12, 3, "HZ101", "deny", "recursive delete of /", "rm -rf /"),
    Located("scripts/fetch data.sh", 4, 1, "HZ303", "gate", "network access: example.com", "curl https://example.com"),
    Located("docs/a,b:c.md", 1, 1, "HZ001", "allow", "100% fine", "ls"),
    Located("agent.jsonl", 7, 1, "HZ201", "gate", "not fully parsed", "echo 'x"),
]


def test_github_annotations():
    assert github_annotations(FINDINGS) == (
        "::error file=README.md,line=12,col=3,title=HZ101 deny::recursive delete of /%0Arm -rf /\n"
        "::warning file=scripts/fetch data.sh,line=4,col=1,title=HZ303 gate::"
        "network access: example.com%0Acurl https://example.com\n"
        "::notice file=docs/a%2Cb%3Ac.md,line=1,col=1,title=HZ001 allow::100%25 fine%0Als\n"
        "::warning file=agent.jsonl,line=7,col=1,title=HZ201 gate::not fully parsed%0Aecho 'x\n"
    )
    assert github_annotations([]) == ""


def test_github_does_not_repeat_the_command():
    out = github_annotations([Located("a.sh", 2, 5, "HZ101", "deny", "recursive delete: rm -rf /", "rm -rf /")])
    assert out == "::error file=a.sh,line=2,col=5,title=HZ101 deny::recursive delete: rm -rf /\n"


def test_github_escapes_newlines_in_commands():
    (line,) = github_annotations([Located("a.sh", 1, 1, "HZ1", "deny", "m", "a\r\nb")]).splitlines()
    assert line.endswith("::m%0Aa%0D%0Ab")


@settings(deadline=None)  # timing on a shared machine is not what is tested
@given(st.text(), st.text())
def test_github_one_line_per_finding(path, message):
    # Invariant: whatever the text, each finding is exactly one workflow command line.
    out = github_annotations([Located(path, 1, 1, "HZ101", "deny", message, message)])
    assert out.count("\n") == 1 and out.startswith("::error file=")
    props = out.split("::")[1]
    assert "," not in props[len("error file="):].split(",line=")[0]


def test_sarif_structure():
    log = sarif_log(FINDINGS, RULES, "1.2.3")
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "horizon" and driver["version"] == "1.2.3"
    ids = [r["id"] for r in driver["rules"]]
    assert ids == ["HZ001", "HZ101", "HZ303", "HZ900", "HZ201"]  # policy rules, then unknown ones
    hz101 = driver["rules"][1]
    assert hz101["name"] == "RecursiveDeleteOfRootOrHome"
    assert hz101["shortDescription"] == {"text": "Recursive delete of / or ~"}
    assert hz101["fullDescription"] == {"text": "`rm -rf /` destroys the machine."}
    assert "```sh\nrm -rf /\n```" in hz101["help"]["markdown"]
    assert "deny:\n    rm -rf /" in hz101["help"]["text"]
    assert hz101["defaultConfiguration"] == {"level": "error", "enabled": True}
    assert driver["rules"][3]["defaultConfiguration"] == {"level": "none", "enabled": False}
    levels = [r["level"] for r in run["results"]]
    assert levels == ["error", "warning", "note", "warning"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    first = run["results"][0]["locations"][0]["physicalLocation"]
    assert first == {
        "artifactLocation": {"uri": "README.md", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 12, "startColumn": 3, "snippet": {"text": "rm -rf /"}},
    }
    second = run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert second["uri"] == "scripts/fetch%20data.sh"


def test_artifact_location_absolute_is_file_uri():
    assert artifact_location("/srv/repo/a b.sh") == {"uri": "file:///srv/repo/a%20b.sh"}


def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(shared_path("schemas", "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_sarif_validates_against_official_schema():
    validator = _validator()
    errors = sorted(validator.iter_errors(sarif_log(FINDINGS, RULES, "0.1.0")), key=str)
    assert not errors, "\n".join(e.message for e in errors)


def test_sarif_without_findings_validates():
    _validator().validate(sarif_log([], RULES, "0.1.0"))
    _validator().validate(sarif_log([], {}, "0.1.0"))


def test_sarif_with_the_built_in_rules_validates():
    from horizon_cli.policy import default_policy

    rules = default_policy().table("rules")
    findings = [Located("x.md", 1, 1, rule_id, str(rule.get("verdict", "deny")), "m", "c") for rule_id, rule in rules.items()]
    log = sarif_log(findings, rules, "0.1.0")
    _validator().validate(log)
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(rules)


@settings(deadline=None)  # timing on a shared machine is not what is tested
@given(
    st.lists(
        st.builds(
            Located,
            path=st.text(min_size=1, max_size=20),
            line=st.integers(1, 10**6),
            col=st.integers(1, 500),
            rule=st.sampled_from(["HZ101", "HZ303", "HZ777"]),
            verdict=st.sampled_from(["allow", "gate", "deny"]),
            message=st.text(max_size=40),
            command=st.text(max_size=40),
        ),
        max_size=5,
    )
)
def test_sarif_always_valid(findings):
    # Invariant: any findings give a schema-valid log whose ruleIndex points at the ruleId.
    log = sarif_log(findings, RULES, "0.1.0")
    _VALIDATOR.validate(log)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in log["runs"][0]["results"])


class _LazyValidator:
    _cached = None

    def validate(self, instance):
        if _LazyValidator._cached is None:
            _LazyValidator._cached = _validator()
        _LazyValidator._cached.validate(instance)


_VALIDATOR = _LazyValidator()
