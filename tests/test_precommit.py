"""The pre-commit hooks, run by the real `pre-commit try-repo` against this checkout.

pre-commit builds the hook's environment by installing this repository (its
HEAD plus uncommitted changes) into a fresh virtualenv, which needs the
package registry; everything else happens in a temporary git repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent

CLEAN_SCRIPT = "#!/bin/sh\nset -eu\nls -la\ngrep -rn TODO src/ || true\n"
CLEAN_README = "# demo\n\n```console\n$ ls -la\ntotal 0\n```\n"
DENY_README = "# demo\n\nClean up with:\n\n```bash\nls\nrm -rf /\n```\n"


def test_hooks_manifest():
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) >= {"horizon-classify", "horizon-verify"}
    assert hooks["horizon-classify"]["entry"] == "horizon classify"
    assert set(hooks["horizon-classify"]["types_or"]) >= {"shell", "markdown"}
    assert hooks["horizon-verify"]["entry"] == "horizon verify"
    files = re.compile(hooks["horizon-verify"]["files"])
    for name in ("checkpoint.json", "run/agent.checkpoint.json", "checkpoints/0001.json", "state.json",
                 "agent-state.json", "ckpt-000.json"):
        assert files.search(name), name
    for name in ("package.json", "statement.json", "checkpoint.jsonl", "src/state.py"):
        assert not files.search(name), name


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _try_repo(repo: Path, home: Path, hook: str, *files: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "_HORIZON"))}
    env.update(PRE_COMMIT_HOME=str(home), NO_COLOR="1", HORIZON_POLICY="")
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--color", "never", "--files", *files]
    return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="module")
def precommit_repo(tmp_path_factory):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pytest.importorskip("pre_commit")
    repo = tmp_path_factory.mktemp("precommit-repo")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "user.name", "test")
    (repo / "build.sh").write_text(CLEAN_SCRIPT, encoding="utf-8")
    (repo / "README.md").write_text(CLEAN_README, encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "cleanup.md").write_text(DENY_README, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "fixture")
    return repo, tmp_path_factory.mktemp("pre-commit-home")


@pytest.mark.slow
def test_try_repo_classify(precommit_repo):
    if not (ROOT / "horizon_cli" / "commands" / "classify.py").is_file():
        pytest.skip("horizon classify is not part of this checkout yet")
    repo, home = precommit_repo
    clean = _try_repo(repo, home, "horizon-classify", "build.sh", "README.md")
    output = clean.stdout + clean.stderr
    assert clean.returncode == 0, output
    assert re.search(r"horizon classify \(shell snippets\)\.+Passed", output), output

    dirty = _try_repo(repo, home, "horizon-classify", "build.sh", "docs/cleanup.md")
    output = dirty.stdout + dirty.stderr
    assert dirty.returncode == 1, output
    assert re.search(r"horizon classify \(shell snippets\)\.+Failed", output), output
    # The finding, located in the Markdown file: path:line:col: RULE verdict: message
    assert re.search(r"docs/cleanup\.md:7:1: HZ101 deny: ", output), output


@pytest.mark.slow
def test_try_repo_verify(precommit_repo):
    from conftest import shared_path

    repo, home = precommit_repo
    valid = shared_path("conformance", "checkpoints", "valid", "ckpt-000.json")
    tampered = shared_path("conformance", "checkpoints", "tampered", "ckpt-000.json")
    (repo / "checkpoints").mkdir(exist_ok=True)
    shutil.copyfile(valid, repo / "checkpoints" / "ckpt-000.json")
    shutil.copyfile(tampered, repo / "checkpoints" / "ckpt-001.json")
    _git(repo, "add", "checkpoints")
    ok = _try_repo(repo, home, "horizon-verify", "checkpoints/ckpt-000.json")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = _try_repo(repo, home, "horizon-verify", "checkpoints/ckpt-000.json", "checkpoints/ckpt-001.json")
    output = bad.stdout + bad.stderr
    assert bad.returncode == 1, output
    assert "checkpoints/ckpt-001.json: MISMATCH" in output, output
