"""Shared test helpers: the read-only ../shared/ data set, and a CLI runner."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("HORIZON_SHARED", ROOT.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared/, or a clean skip when the data set is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (set HORIZON_SHARED to its location)")
    return path


@pytest.fixture
def run_cli():
    """Run ``horizon ARGS`` in-process; returns (exit_code, stdout, stderr)."""
    from click.testing import CliRunner

    from horizon_cli.cli import cli

    def run(args, input=None, env=None):
        runner = CliRunner()
        result = runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return run
