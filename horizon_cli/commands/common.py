"""Options and output helpers shared by every subcommand (one decorator each)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import click

from horizon_cli.errors import HorizonError, InputError

F = TypeVar("F", bound=Callable[..., Any])


def policy_options(func: F) -> F:
    """``--policy`` (repeatable, later wins) and ``--no-config`` (skip discovery)."""
    func = click.option(
        "--no-config",
        is_flag=True,
        help="Ignore .horizon.toml / pyproject.toml [tool.horizon] discovery (HORIZON_POLICY still applies).",
    )(func)
    return click.option(
        "--policy",
        "policies",
        multiple=True,
        metavar="FILE|NAME",
        help="Policy TOML layered over the built-in default; repeatable, later wins. "
        "A bare name picks a shipped policy (e.g. 'strict').",
    )(func)


def color_option(func: F) -> F:
    return click.option(
        "--color",
        type=click.Choice(["auto", "always", "never"]),
        default="auto",
        show_default=True,
        help="Colour text output (auto: only on a terminal and when NO_COLOR is unset).",
    )(func)


def format_option(*choices: str, default: str = "text") -> Callable[[F], F]:
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help="Output format; see README 'Output formats' for the schemas.",
    )


def load_policy_for(policies: Iterable[str], no_config: bool):
    """Load and validate the policy before any input is read (errors exit 2)."""
    from horizon_cli.policy import load_policy

    return load_policy(tuple(policies), discover=not no_config)


def use_color(choice: str, stream: Any = None) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def paint(text: str, color: str | None, enabled: bool, bold: bool = False) -> str:
    return click.style(text, fg=color, bold=bold) if enabled and (color or bold) else text


def stdout_bytes() -> BinaryIO:
    """Binary stdout (CliRunner's captured stream has ``buffer`` too)."""
    if sys.stdout is None:
        raise HorizonError("cannot write output: stdout is closed")
    return getattr(sys.stdout, "buffer", sys.stdout)


def open_input(path: str) -> BinaryIO:
    """Open a named input for binary reading; ``-`` is stdin. Missing files are input errors."""
    if path == "-":
        if sys.stdin is None:
            raise InputError("cannot read: stdin is closed", path="<stdin>")
        return getattr(sys.stdin, "buffer", sys.stdin)
    try:
        return open(path, "rb")  # noqa: SIM115 - caller closes
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None


def display_name(path: str, stdin_name: str = "<stdin>") -> str:
    return stdin_name if path == "-" else str(Path(path))
