"""The shared edge: the group, policy layering and validation, exit-code mapping, packaging."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from conftest import ROOT
from horizon_cli.errors import PolicyError
from horizon_cli.policy import load_policy, merge


def test_version_and_help(run_horizon):
    code, out, _ = run_horizon(["--version"])
    assert code == 0 and out.startswith("horizon ")
    code, out, _ = run_horizon(["--help"])
    assert code == 0
    for name in ("classify", "halt", "compact", "verify", "seal", "rules", "policy", "Exit codes"):
        assert name in out


@pytest.mark.parametrize("command", ["classify", "halt", "compact", "verify", "seal", "rules", "policy"])
def test_every_subcommand_has_help_text(run_horizon, command):
    code, out, _ = run_horizon([command, "--help"])
    assert code == 0 and "Usage: horizon" in out and len(out) > 300


def test_unknown_subcommand_is_usage_error(run_horizon):
    code, _, err = run_horizon(["clasify"])
    assert code == 2 and "No such command 'clasify'" in err


def test_python_dash_m_works():
    out = subprocess.run([sys.executable, "-m", "horizon_cli", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.startswith("horizon ")


def test_closed_stdout_is_141_not_findings(tmp_path):
    script = "ls\n" * 200_000
    cmd = f"{sys.executable} -m horizon_cli classify --format jsonl | head -c 10 > /dev/null; echo ${{PIPESTATUS[0]}}"
    out = subprocess.run(["bash", "-c", cmd], input=script, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "141", out.stderr
    assert "Traceback" not in out.stderr


def test_internal_errors_never_trace(run_horizon, monkeypatch):
    import horizon_cli.guard.engine as engine

    def boom(self, text):
        raise RuntimeError("kaput")

    monkeypatch.setattr(engine.Classifier, "classify", boom)
    monkeypatch.delenv("HORIZON_DEBUG", raising=False)
    code, _, err = run_horizon(["classify"], input="ls\n")
    assert code == 2 and "internal error: RuntimeError: kaput" in err and "Traceback" not in err


# --- policy layering -----------------------------------------------------------------------------
def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_merge_rules():
    base = {"a": {"x": 1, "list": [1, 2]}, "b": 1}
    assert merge(base, {"a": {"x": 2}}) == {"a": {"x": 2, "list": [1, 2]}, "b": 1}
    assert merge(base, {"a": {"list": [3]}})["a"]["list"] == [3]
    assert merge(base, {"a": {"extend_list": [2, 3]}})["a"]["list"] == [1, 2, 3]
    assert base == {"a": {"x": 1, "list": [1, 2]}, "b": 1}


def test_layers_later_wins(tmp_path):
    project = tmp_path / "project" / "sub"
    project.mkdir(parents=True)
    _write(tmp_path / "project" / ".horizon.toml", "[halt]\nmax_iterations = 10\nno_progress_limit = 4\n")
    env_policy = _write(tmp_path / "env.toml", "[halt]\nmax_iterations = 20\n")
    cli_policy = _write(tmp_path / "cli.toml", "[halt]\nmax_iterations = 30\n")
    policy = load_policy([str(cli_policy)], cwd=project, environ={"HORIZON_POLICY": str(env_policy)})
    assert policy.get("halt.max_iterations") == 30
    assert policy.get("halt.no_progress_limit") == 4
    assert policy.get("halt.repeated_failure_limit") == 3  # the built-in default
    assert [Path(s).name for s in policy.sources[1:]] == [".horizon.toml", "env.toml", "cli.toml"]


def test_pyproject_tool_table_is_discovered(tmp_path):
    _write(tmp_path / "pyproject.toml", "[project]\nname='x'\n[tool.horizon.halt]\nmax_iterations = 7\n")
    assert load_policy(cwd=tmp_path, environ={}).get("halt.max_iterations") == 7


def test_dotfile_beats_pyproject_in_one_directory(tmp_path):
    _write(tmp_path / "pyproject.toml", "[tool.horizon.halt]\nmax_iterations = 7\n")
    _write(tmp_path / ".horizon.toml", "[halt]\nmax_iterations = 8\n")
    assert load_policy(cwd=tmp_path, environ={}).get("halt.max_iterations") == 8


def test_no_config_skips_discovery(tmp_path):
    _write(tmp_path / ".horizon.toml", "[halt]\nmax_iterations = 8\n")
    assert load_policy(cwd=tmp_path, environ={}, discover=False).get("halt.max_iterations") == 50


@pytest.mark.parametrize(
    "text,message",
    [
        ("[classify]\ndefault_unknwn = 'gate'\n", "classify.default_unknwn: unknown key (did you mean 'default_unknown'?)"),
        ("[halt]\nmax_iterations = 'ten'\n", "halt.max_iterations: expected an integer, got string 'ten'"),
        ("[halt]\nmax_iterations = 0\n", "halt.max_iterations: must be at least 1, got 0"),
        ("[classify]\ndefault_unknown = 'dney'\n", "'dney' is not one of allow, gate, deny (did you mean 'deny'?)"),
        ("[rules.HZ101]\nverdict = 'block'\n", "rules.HZ101.verdict: 'block' is not one of allow, gate, deny, off"),
        ("[rules.X1]\nverdict = 'deny'\n", "rules.X1: not a valid key; expected a rule id like HZ101"),
        ("[rules.HZ190]\nargv = '('\n", "rules.HZ190.argv: invalid regular expression"),
        ("[classify.network]\nallow_hosts = 'github.com'\n", "expected an array of strings, got string"),
        ("not toml ==", "invalid TOML"),
    ],
)
def test_validation_names_file_and_key(tmp_path, text, message):
    path = _write(tmp_path / "bad.toml", text)
    with pytest.raises(PolicyError) as info:
        load_policy([str(path)], discover=False, environ={})
    assert message in str(info.value) and str(path) in str(info.value)


def test_broken_policy_is_exit_2_before_input(run_horizon, tmp_path):
    path = _write(tmp_path / "bad.toml", "[halt]\nmax_iterations = -1\n")
    code, out, err = run_horizon(["halt", "--policy", str(path), "-"], input="not json at all\n")
    assert (code, out) == (2, "") and "halt.max_iterations" in err


def test_shipped_policy_names(tmp_path):
    assert load_policy(["strict"], discover=False, environ={}).get("classify.writes.outside_tree") == "deny"
    with pytest.raises(PolicyError, match="shipped: default, strict"):
        load_policy(["nonexistent"], discover=False, environ={})


def test_installed_distribution_ships_the_policies():
    try:
        files = metadata.files("horizon-cli") or []
    except metadata.PackageNotFoundError:
        pytest.skip("horizon-cli is not installed")
    names = {str(f) for f in files}
    if not any(n.endswith("policies/default.toml") for n in names) and any(n.endswith(".pth") for n in names):
        pytest.skip("editable install: policies are read from the source tree")
    assert "horizon_cli/policies/default.toml" in names and "horizon_cli/policies/strict.toml" in names


def test_no_color_env_disables_colour(run_horizon):
    code, out, _ = run_horizon(["classify", "--color", "auto"], input="rm -rf /\n", env={"NO_COLOR": "1"})
    assert "\x1b[" not in out
    code, out, _ = run_horizon(["classify", "--color", "always"], input="rm -rf /\n")
    assert "\x1b[" in out


def test_write_failures_are_clean_errors():
    out = subprocess.run(f"{sys.executable} -m horizon_cli rules > /dev/full", shell=True, capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode == 2 and "horizon: error: cannot write output" in out.stderr and "Traceback" not in out.stderr


def test_closed_stdin_is_a_clean_error():
    out = subprocess.run(f"{sys.executable} -m horizon_cli classify <&-", shell=True, capture_output=True,
                         text=True, cwd=ROOT, executable="/bin/bash")
    assert out.returncode == 2 and "stdin is closed" in out.stderr


def test_atomic_writes_follow_symlinks(tmp_path):
    from horizon_cli.compaction.atomic import AtomicFile
    from horizon_cli.fsutil import atomic_write_bytes

    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and target.read_text() == "new"
    with AtomicFile(link) as out:
        out.write(b"newer")
        out.commit()
    assert link.is_symlink() and target.read_text() == "newer"
