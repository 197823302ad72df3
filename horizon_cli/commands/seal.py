"""``horizon seal``: compute and write a checkpoint's stateHash."""

from __future__ import annotations

import sys

import click

from horizon_cli.commands.common import color_option, display_name, paint, stdout_bytes, use_color

EPILOG = """\b
The hash is "sha256:" + hex(sha256(C)), C being the RFC 8785 canonical JSON
of the checkpoint without its stateHash member (see `horizon verify`). An
existing stateHash is replaced; everything else in the file is kept byte for
byte (a new member is appended in the file's own style). Files are written
atomically (temp file, fsync, rename); an already sealed file is not touched.

\b
Examples:
  horizon seal state.json > sealed.json
  horizon seal state.json -o sealed.json
  horizon seal --in-place checkpoints/*.json
  horizon seal --jsonl --in-place run.checkpoints.jsonl

\b
Exit codes:
  0  sealed (or already sealed)
  2  unreadable or invalid input (not JSON, duplicate member names, not an
     object, NaN...), usage error; nothing is written for that input
"""


@click.command(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("-o", "--output", metavar="OUT", help="Write the sealed checkpoint to OUT ('-' for stdout).")
@click.option("-i", "--in-place", is_flag=True, help="Rewrite each FILE in place (atomic); several FILEs allowed.")
@click.option("--jsonl", is_flag=True, help="Each FILE is a stream with one checkpoint per line; seal every line.")
@click.option(
    "--canonical",
    is_flag=True,
    help="Write the RFC 8785 canonical form instead of keeping the file's layout.",
)
@color_option
def seal(
    files: tuple[str, ...], output: str | None, in_place: bool, jsonl: bool, canonical: bool, color: str
) -> None:
    """Compute and write the stateHash of checkpoint FILE (stdout unless -o or --in-place)."""
    from horizon_cli.checkpoint.strict import gc_paused
    from horizon_cli.errors import EXIT_OK, EXIT_USAGE, HorizonError

    _check_usage(files, output, in_place)
    failed = False
    for path in files:
        try:
            with gc_paused():  # acyclic JSON trees: see `horizon verify`
                _seal_one(path, output, in_place, jsonl, canonical, use_color(color, sys.stderr))
        except HorizonError as exc:
            if not in_place:
                raise
            click.echo(f"horizon: error: {exc}", err=True)  # keep sealing the other files
            failed = True
    click.get_current_context().exit(EXIT_USAGE if failed else EXIT_OK)


def _check_usage(files: tuple[str, ...], output: str | None, in_place: bool) -> None:
    if in_place and output is not None:
        raise click.UsageError("--in-place and -o/--output are mutually exclusive")
    if in_place and "-" in files:
        raise click.UsageError("--in-place cannot rewrite stdin ('-')")
    if not in_place and len(files) > 1:
        raise click.UsageError("several FILEs need --in-place (one output per input otherwise)")


def _seal_one(path: str, output: str | None, in_place: bool, jsonl: bool, canonical: bool, color: bool) -> None:
    from horizon_cli.checkpoint.splice import seal_bytes, seal_jsonl
    from horizon_cli.commands.common import open_input
    from horizon_cli.errors import InputError
    from horizon_cli.fsutil import atomic_write_bytes

    name = display_name(path)
    stream = open_input(path)
    try:
        data = stream.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=name) from None
    finally:
        if path != "-":
            stream.close()
    if jsonl:
        sealed, count, changed = seal_jsonl(data, name, canonical=canonical)
        what = f"{count} checkpoint{'s' * (count != 1)}"
    else:
        outcome = seal_bytes(data, name, canonical=canonical)
        sealed, changed, what = outcome.data, outcome.changed, outcome.state_hash
    del data
    target = path if in_place else output
    if target is None or target == "-":
        stdout_bytes().write(sealed)
        return
    if in_place and not changed:
        click.echo(f"{name}: {paint('already sealed', 'green', color)} {what}", err=True, color=color)
        return
    try:
        atomic_write_bytes(target, sealed)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path=display_name(target)) from None
    click.echo(f"{display_name(target)}: {paint('sealed', 'green', color)} {what}", err=True, color=color)
