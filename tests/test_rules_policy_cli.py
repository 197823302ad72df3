"""`horizon rules` and `horizon policy show|check` (CLI snapshots and behaviour).

The snapshots run against a small built-in policy of their own (the shipped
policy directory is swapped for a temporary one), so they test the commands'
output, not the current contents of the shipped default.
"""

from __future__ import annotations

import json
import sys
import textwrap
import types

import pytest

from horizon_cli.policy.tomlwrite import dumps

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT = textwrap.dedent(
    """\
    [halt]
    max_iterations = 50

    [classify]
    default_unknown = "gate"
    allow = ["ls", "cat"]

    [rules.HZ001]
    name = "allowed-executable"
    verdict = "allow"
    description = "Executable on the classify.allow list"
    doc = "Read-only tools are allowed."
    examples = { allow = ["ls -la"] }

    [rules.HZ101]
    name = "recursive-delete-of-root-or-home"
    verdict = "deny"
    description = "Recursive delete of / or ~"
    doc = "`rm -rf /` destroys the machine.\\nNothing an agent does needs it."
    examples = { deny = ["rm -rf /", "rm -rf ~"], gate = ["rm -rf build"] }

    [rules.HZ303]
    name = "network-access"
    verdict = "gate"
    description = "Opens a network connection"
    """
)


@pytest.fixture
def builtin(tmp_path, monkeypatch):
    """A temporary shipped-policy directory holding DEFAULT; no project config, no HORIZON_POLICY."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "default.toml").write_text(DEFAULT, encoding="utf-8")
    (shipped / "strict.toml").write_text('[classify]\ndefault_unknown = "deny"\n', encoding="utf-8")
    monkeypatch.setattr("horizon_cli.policy.loader.SHIPPED_DIRS", (shipped,))
    monkeypatch.delenv("HORIZON_POLICY", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def fake_engine(monkeypatch):
    """A stand-in classifier: verdicts by exact command text, unknown -> gate (HZ004)."""
    verdicts = {"ls -la": "allow", "rm -rf /": "deny", "rm -rf ~": "deny", "rm -rf build": "gate"}

    class Result:
        def __init__(self, command):
            self.verdict = verdicts.get(command, "gate")
            self.decisive = types.SimpleNamespace(rule="HZ004", message="unknown executable")

    class Classifier:
        def __init__(self, policy):
            self.policy = policy

        def classify(self, command):
            return Result(command)

    module = types.ModuleType("horizon_cli.guard.engine")
    module.Classifier = Classifier
    monkeypatch.setitem(sys.modules, "horizon_cli.guard.engine", module)


# --- horizon rules -----------------------------------------------------------------


def test_rules_list(builtin, run_cli, snapshot):
    code, out, _ = run_cli(["rules", "--no-config"])
    assert (code, out) == snapshot


def test_rules_list_json(builtin, run_cli, snapshot):
    code, out, _ = run_cli(["rules", "--format", "json"])
    assert (code, out) == snapshot
    assert [r["id"] for r in json.loads(out)] == ["HZ001", "HZ101", "HZ303"]


def test_rules_list_jsonl_filtered(builtin, run_cli):
    code, out, _ = run_cli(["rules", "--format", "jsonl", "--verdict", "deny", "--verdict", "gate"])
    assert code == 0
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["HZ101", "HZ303"]


def test_rules_explain(builtin, run_cli, snapshot):
    code, out, _ = run_cli(["rules", "HZ101"])
    assert (code, out) == snapshot


def test_rules_explain_by_name_and_lowercase(builtin, run_cli):
    by_id = run_cli(["rules", "hz101"])
    by_name = run_cli(["rules", "recursive-delete-of-root-or-home"])
    assert by_id[0] == by_name[0] == 0 and by_id[1] == by_name[1]


def test_rules_explain_json(builtin, run_cli):
    code, out, _ = run_cli(["rules", "HZ303", "--format", "json"])
    assert code == 0
    assert json.loads(out) == {
        "id": "HZ303", "name": "network-access", "verdict": "gate",
        "description": "Opens a network connection", "doc": "", "examples": {},
    }


def test_rules_unknown_suggests_closest(builtin, run_cli):
    from horizon_cli.errors import HorizonError

    with pytest.raises(HorizonError, match=r"unknown rule 'HZ102' \(did you mean 'HZ101'\?\)"):
        run_cli(["rules", "HZ102"])
    with pytest.raises(HorizonError, match=r"unknown rule 'hz30' \(did you mean 'HZ303'\?\)"):
        run_cli(["rules", "hz30"])
    with pytest.raises(HorizonError, match=r"did you mean 'network-access'"):
        run_cli(["rules", "network-acess"])


def test_rules_policy_overlay_shows(builtin, run_cli, tmp_path):
    overlay = tmp_path / "mine.toml"
    overlay.write_text('[rules.HZ303]\nverdict = "deny"\n', encoding="utf-8")
    code, out, _ = run_cli(["rules", "--policy", str(overlay), "--format", "jsonl", "--verdict", "deny"])
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["HZ101", "HZ303"]


def test_rules_color(builtin, run_cli):
    _, out, _ = run_cli(["rules", "--color", "always"])
    assert "\x1b[31m" in out and "deny" in out
    _, plain, _ = run_cli(["rules", "--color", "always"], env={"NO_COLOR": "1"})
    assert "\x1b[" in plain  # --color always wins over NO_COLOR
    _, auto, _ = run_cli(["rules"])
    assert "\x1b[" not in auto


# --- horizon policy show -------------------------------------------------------------


def test_policy_show(builtin, run_cli, snapshot):
    code, out, _ = run_cli(["policy", "show"])
    assert (code, out) == snapshot


def test_policy_show_roundtrips_and_layers(builtin, run_cli, tmp_path):
    (builtin / ".horizon.toml").write_text("[halt]\nmax_iterations = 7\n", encoding="utf-8")
    code, out, _ = run_cli(["policy", "show", "--policy", "strict"])
    assert code == 0
    data = tomllib.loads(out)
    assert data["halt"]["max_iterations"] == 7 and data["classify"]["default_unknown"] == "deny"
    assert data["rules"]["HZ101"]["examples"]["gate"] == ["rm -rf build"]
    code, out, _ = run_cli(["policy", "show", "--sources", "--policy", "strict"])
    assert (code, out) == (0, f"built-in:default\n{builtin / '.horizon.toml'}\nbuilt-in:strict\n")
    _, no_config, _ = run_cli(["policy", "show", "--sources", "--no-config"])
    assert no_config == "built-in:default\n"
    _, as_json, _ = run_cli(["policy", "show", "--sources", "--no-config", "--format", "json"])
    assert json.loads(as_json) == ["built-in:default"]


def test_policy_show_json(builtin, run_cli):
    code, out, _ = run_cli(["policy", "show", "--format", "json"])
    assert code == 0
    assert json.loads(out) == tomllib.loads(DEFAULT)


def test_policy_show_is_a_usable_policy(builtin, run_cli, tmp_path):
    _, out, _ = run_cli(["policy", "show"])
    saved = tmp_path / "saved.toml"
    saved.write_text(out, encoding="utf-8")
    _, again, _ = run_cli(["policy", "show", "--policy", str(saved), "--format", "json"])
    assert json.loads(again) == tomllib.loads(DEFAULT)


def test_policy_show_invalid_layer(builtin, run_cli, tmp_path):
    from horizon_cli.errors import PolicyError

    bad = tmp_path / "bad.toml"
    bad.write_text("[halt]\nmax_iteratons = 3\n", encoding="utf-8")
    with pytest.raises(PolicyError, match="max_iteratons: unknown key"):
        run_cli(["policy", "show", "--policy", str(bad)])


# --- horizon policy check ------------------------------------------------------------

USER_POLICY = textwrap.dedent(
    """\
    [rules.HZ101.examples]
    deny = [
        "rm -rf /",
        "rm -rf /srv",
    ]

    [rules.HZ303]
    verdict = "deny"
    examples = { deny = ["curl https://example.com"] }
    """
)


def test_policy_check_failures(builtin, fake_engine, run_cli, snapshot):
    (builtin / "policy.toml").write_text(USER_POLICY, encoding="utf-8")
    code, out, _ = run_cli(["policy", "check", "policy.toml"])
    assert (code, out) == snapshot
    assert code == 1


def test_policy_check_clean(builtin, fake_engine, run_cli, snapshot):
    (builtin / "ok.toml").write_text('[halt]\nmax_iterations = 9\n', encoding="utf-8")
    code, out, _ = run_cli(["policy", "check", "ok.toml"])
    assert (code, out) == snapshot


def test_policy_check_json(builtin, fake_engine, run_cli, snapshot):
    (builtin / "policy.toml").write_text(USER_POLICY, encoding="utf-8")
    (builtin / "ok.toml").write_text("", encoding="utf-8")
    code, out, _ = run_cli(["policy", "check", "--format", "json", "policy.toml", "ok.toml"])
    assert (code, out) == snapshot
    code, out, _ = run_cli(["policy", "check", "--format", "jsonl", "policy.toml", "ok.toml"])
    assert [json.loads(line)["path"] for line in out.splitlines()] == ["policy.toml", "ok.toml"]


def test_policy_check_invalid_keeps_going(builtin, fake_engine, run_cli):
    (builtin / "bad.toml").write_text('[rules.HZ101]\nverdict = "dney"\n', encoding="utf-8")
    (builtin / "policy.toml").write_text(USER_POLICY, encoding="utf-8")
    code, out, err = run_cli(["policy", "check", "bad.toml", "policy.toml"])
    assert code == 2
    assert err == (
        "horizon: error: bad.toml: rules.HZ101.verdict: 'dney' is not one of allow, gate, deny, off"
        " (did you mean 'deny'?)\n"
    )
    assert "policy.toml: 2 failing" in out


def test_policy_check_effective(builtin, fake_engine, run_cli):
    (builtin / ".horizon.toml").write_text(USER_POLICY, encoding="utf-8")
    code, out, _ = run_cli(["policy", "check"])
    assert code == 1
    assert out.splitlines()[0].startswith(f"{builtin / '.horizon.toml'}:4: HZ101 example 'rm -rf /srv'")
    code, out, _ = run_cli(["policy", "check", "--no-config"])
    assert (code, out) == (0, "built-in:default: ok: 3 rules, 4 examples checked\n")


def test_policy_check_real_classifier(tmp_path, run_cli):
    """End to end: a policy edit that breaks its own example fails the check."""
    pytest.importorskip("horizon_cli.guard.engine")
    broken = tmp_path / "loose.toml"
    broken.write_text('[rules.HZ101]\nverdict = "off"\n\n[rules.HZ001.examples]\nextend_allow = ["rm -rf /"]\n',
                      encoding="utf-8")
    code, out, _ = run_cli(["policy", "check", "--format", "json", str(broken)])
    (result,) = json.loads(out)
    assert code == 1
    mine = [f for f in result["failures"] if f["path"] == str(broken)]
    assert [(f["rule"], f["example"], f["expected"], f["line"]) for f in mine] == [("HZ001", "rm -rf /", "allow", 5)]
    assert mine[0]["actual"] in ("gate", "deny")
    # Built-in examples that relied on HZ101 (e.g. a nested `rm -rf /etc`) now fail too, attributed to the default.
    assert all(f["path"] == "built-in:default" and f["line"] is None for f in result["failures"] if f not in mine)


def test_dumps_matches_show(builtin, run_cli):
    _, out, _ = run_cli(["policy", "show"])
    assert out.endswith(dumps(tomllib.loads(DEFAULT)))
