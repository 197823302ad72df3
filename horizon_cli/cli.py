"""The ``horizon`` command group: lazy sub-command loading and the one place
where library errors become messages and exit codes."""

from __future__ import annotations

import importlib
import os
import sys

import click

from horizon_cli import __version__
from horizon_cli.errors import EXIT_USAGE, HorizonError

EXIT_BROKEN_PIPE = 141

# name -> (module, attribute, one-line help). Modules load only when their
# command runs, so `horizon halt` never pays for bashlex and `--help` for none.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "classify": ("horizon_cli.commands.classify", "classify", "Classify shell commands as allow, gate or deny without running them."),
    "halt": ("horizon_cli.commands.halt", "halt", "Simulate the halt controller over a JSONL event log or transcript."),
    "compact": ("horizon_cli.commands.compact", "compact", "Compact a JSONL transcript, flushing durable facts before summarizing."),
    "verify": ("horizon_cli.commands.verify", "verify", "Verify checkpoint stateHash values (sha256 over RFC 8785 canonical JSON)."),
    "seal": ("horizon_cli.commands.seal", "seal", "Compute and write a checkpoint's stateHash."),
    "rules": ("horizon_cli.commands.rules", "rules", "List the classify rules, or explain one."),
    "policy": ("horizon_cli.commands.policy", "policy", "Show the effective policy or check a policy file."),
}

EPILOG = """\b
Exit codes (every subcommand):
  0  clean: nothing at the threshold, no halt, all verified
  1  findings: deny/gate at --fail-on, halted, hash mismatch, over threshold
  2  usage error, unreadable or invalid input, broken policy
  3  compact only: facts flush or summarizer failed (nothing was written)
"""


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(entry[0])
        return getattr(module, entry[1])

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text comes from the table so that `horizon --help` imports nothing.
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry[2]) for name, entry in COMMANDS.items()])


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="horizon", message="%(prog)s %(version)s")
def cli() -> None:
    """horizon: control primitives for long-horizon AI agents.

    Small, offline, deterministic tools that read stdin or files, write to
    stdout, and exit with codes scripts can trust. Policies are TOML files
    layered over the built-in default (see `horizon policy show`).
    """


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: never a traceback, always a documented exit code."""
    sys.exit(run(argv))


def run(argv: list[str] | None = None) -> int:
    """Run ``horizon ARGV`` and return the exit code (errors mapped here, once)."""
    try:
        code = cli.main(args=argv, prog_name="horizon", standalone_mode=False)
    except HorizonError as exc:
        _error(str(exc))
        code = exc.exit_code
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.exceptions.Abort:
        _error("aborted")
        code = 130
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except BrokenPipeError:
        code = _quiet_broken_pipe()
    except SystemExit as exc:
        # click turns EPIPE into sys.exit(1), which would read as "findings".
        code = _quiet_broken_pipe() if _pipe_was_closed() else exc.code
    except KeyboardInterrupt:
        code = 130
    except OSError as exc:  # e.g. stdout on a full disk (`> /dev/full`) or closed (`>&-`)
        _error(f"cannot write output: {exc.strerror or exc}")
        code = EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the edge: report, don't trace
        if os.environ.get("HORIZON_DEBUG"):
            raise
        _error(f"internal error: {type(exc).__name__}: {exc} (set HORIZON_DEBUG=1 for a traceback)")
        code = EXIT_USAGE
    return code if isinstance(code, int) else 0


def _error(message: str) -> None:
    click.echo(f"horizon: error: {message}", err=True)


def _pipe_was_closed() -> bool:
    return type(sys.stdout).__name__.lstrip("_") == "PacifyFlushWrapper"


def _quiet_broken_pipe() -> int:
    # The reader went away (e.g. `| head`): stop without a second error on flush.
    # 141 (128 + SIGPIPE) is what a shell reports for a killed writer: not 1, which means findings.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE
