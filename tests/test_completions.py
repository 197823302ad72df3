"""Shell completions: committed scripts are current, and bash really completes with them."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPLETIONS = ROOT / "completions"


def _generator():
    spec = importlib.util.spec_from_file_location("horizon_completions_generate", COMPLETIONS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_committed_completion_is_current(shell):
    committed = (COMPLETIONS / f"horizon.{shell}").read_text(encoding="utf-8")
    assert committed == _generator().render(shell), (
        f"completions/horizon.{shell} is stale: run `python completions/generate.py` and commit the result"
    )


def test_zsh_compdef_is_first_line():
    assert (COMPLETIONS / "horizon.zsh").read_text(encoding="utf-8").startswith("#compdef horizon\n")


def _horizon_bin() -> Path:
    candidate = Path(sys.executable).parent / "horizon"
    if candidate.is_file():
        return candidate
    found = shutil.which("horizon")
    if not found:
        pytest.skip("the horizon console script is not installed")
    return Path(found)


def bash_complete(*words: str) -> list[str]:
    """What `horizon WORDS…<TAB>` offers in a real bash with completions/horizon.bash sourced."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    script = (
        f"source '{COMPLETIONS / 'horizon.bash'}'\n"
        f"COMP_WORDS=(horizon {quoted}); COMP_CWORD={len(words)}\n"
        "_horizon_completion horizon\n"
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("_HORIZON")}
    env["PATH"] = f"{_horizon_bin().parent}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.run([bash, "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if line]


def test_bash_completes_subcommand():
    pytest.importorskip("horizon_cli.commands.classify")
    assert bash_complete("cl") == ["classify"]


def test_bash_completes_group_and_options():
    assert bash_complete("policy", "") == ["check", "show"]
    assert bash_complete("rules", "--for") == ["--format"]
    assert bash_complete("rules", "--format", "j") == ["json", "jsonl"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells_parse_the_script(shell):
    binary = shutil.which(shell)
    if binary is None:
        pytest.skip(f"{shell} is not installed")
    proc = subprocess.run([binary, "-n", str(COMPLETIONS / f"horizon.{shell}")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr


def test_fish_completes_subcommand():
    fish = shutil.which("fish")
    if fish is None:
        pytest.skip("fish is not installed")
    pytest.importorskip("horizon_cli.commands.classify")
    env = {k: v for k, v in os.environ.items() if not k.startswith("_HORIZON")}
    env["PATH"] = f"{_horizon_bin().parent}{os.pathsep}{env.get('PATH', '')}"
    script = f"source '{COMPLETIONS / 'horizon.fish'}'; complete --do-complete='horizon cl'"
    proc = subprocess.run([fish, "--no-config", "-c", script], capture_output=True, text=True, env=env,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [line.split("\t")[0] for line in proc.stdout.splitlines()] == ["classify"]


def test_zsh_completes_subcommand():
    # zsh's completion builtins only work inside a completion widget, so stand in
    # for the three the script calls and drive it with words/CURRENT as zsh would.
    zsh = shutil.which("zsh")
    if zsh is None:
        pytest.skip("zsh is not installed")
    pytest.importorskip("horizon_cli.commands.classify")
    env = {k: v for k, v in os.environ.items() if not k.startswith("_HORIZON")}
    env["PATH"] = f"{_horizon_bin().parent}{os.pathsep}{env.get('PATH', '')}"
    script = (
        "compdef() { : }\n"
        '_describe() { print -rl -- "${(@P)3}" }\n'
        'compadd() { local a; a=("${@[-1]}"); print -rl -- "${(@P)a}" }\n'
        f"source '{COMPLETIONS / 'horizon.zsh'}'\n"
        "words=(horizon cl); CURRENT=2; _horizon_completion\n"
        'words=(horizon rules --format ""); CURRENT=4; _horizon_completion\n'
    )
    proc = subprocess.run([zsh, "-f", "-c", script], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("classify:")
    assert lines[1:] == ["text", "json", "jsonl"]
