"""Shared test helpers: the read-only ../shared/ data set, and a CLI runner."""

from __future__ import annotations

import os
import sys
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
    """Run ``horizon ARGS`` in-process; returns (exit_code, stdout, stderr).

    Library errors propagate as exceptions (``catch_exceptions=False``); use
    ``run_horizon`` to see the message and exit code a user sees."""
    from click.testing import CliRunner

    from horizon_cli.cli import cli

    def run(args, input=None, env=None):
        runner = CliRunner()
        result = runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return run


@pytest.fixture
def run_horizon():
    """Run ``horizon ARGS`` exactly as the console script does (errors mapped to
    messages and exit codes by ``horizon_cli.cli.run``); returns (exit_code, stdout, stderr)."""
    from click.testing import CliRunner

    from horizon_cli.cli import run as run_main

    def run(args, input=None, env=None):
        runner = CliRunner()
        with runner.isolation(input=input, env=env) as (out, err, _):
            code = run_main(list(args))
            sys.stdout.flush()  # text written through sys.stdout may still sit in its buffer
            sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()

    return run
