"""``horizon classify``: options in, records out; the work is in ``horizon_cli.guard``."""

from __future__ import annotations

import sys

import click

from horizon_cli.commands.common import color_option, display_name, open_input, policy_options, stdout_bytes

EPILOG = """\b
Input (never executed):
  stdin              one command per line (default; blank and '#' lines skipped)
  -- CMD...          each argument after '--' is one command
  -0, --null         stdin holds NUL-separated commands
  --script           stdin is one script (heredocs, continuations); findings by line
  FILE...            shell scripts (by extension or shebang) and Markdown fenced
                     sh/bash/shell/zsh/console blocks; other files are read as scripts
  --transcript       FILE... (or stdin) are agent transcripts: every shell command
                     the agent ran is classified, located by transcript line
  --jsonl-field PATH JSONL objects; classify the string at PATH (e.g. payload.cmd)
                     and write each object back with a "horizon" verdict added
\b
Exit codes:
  0  no command at or above --fail-on
  1  some command at or above --fail-on (default: deny)
  2  usage error, unreadable or malformed input, broken policy
"""

FORMATS = ("text", "json", "jsonl", "github", "sarif")


class _SplitAtDoubleDash(click.Command):
    """Arguments after ``--`` are commands to classify, before it files to read."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            index = args.index("--")
            ctx.meta["horizon_commands"] = args[index + 1 :]
            args = args[:index]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [*super().collect_usage_pieces(ctx), "[-- CMD...]"]


@click.command(cls=_SplitAtDoubleDash, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, type=click.Path(allow_dash=True))
@click.option("-0", "--null", "null", is_flag=True, help="Read NUL-separated commands from stdin.")
@click.option("--script", is_flag=True, help="Treat stdin as one multi-line script.")
@click.option("--stdin-filename", metavar="NAME", help="Treat stdin as a file with this name (mode by file type).")
@click.option("--transcript", is_flag=True, help="Inputs are agent transcripts (any supported format).")
@click.option("--input-format", type=click.Choice(["horizon", "openai", "claude", "codex", "adk"]),
              help="Force the transcript format (with --transcript); default: detected per file.")
@click.option("--jsonl-field", metavar="PATH", help="Classify the string at this dotted field of each JSONL object.")
@click.option("--fail-on", type=click.Choice(["deny", "gate", "never"]), default="deny", show_default=True,
              help="Exit 1 when any command's verdict is at or above this.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format (README: horizon classify, 'Output formats').")
@color_option
@policy_options
def classify(files, null, script, stdin_filename, transcript, input_format, jsonl_field, fail_on, output_format,
             color, policies, no_config):
    """Classify shell commands as allow, gate or deny, without running them.

    The verdict of a command is the maximum over every segment and nested
    command in it (allow < gate < deny), with the deciding rule and reason.
    """
    from horizon_cli.commands.classify_output import Renderer
    from horizon_cli.commands.common import load_policy_for, use_color
    from horizon_cli.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

    ctx = click.get_current_context()
    commands = ctx.meta.get("horizon_commands")
    _check_usage(files, commands, null, script, transcript, jsonl_field, output_format, input_format, stdin_filename)
    policy = load_policy_for(policies, no_config)
    from horizon_cli.guard.engine import Classifier

    classifier = Classifier(policy)
    lint = bool(files) or script or transcript or bool(stdin_filename)
    style = "jsonl-field" if jsonl_field else "lint" if lint else "lines"
    renderer = Renderer(output_format, style, use_color(color), policy, stdout_bytes())
    threshold = {"deny": 2, "gate": 1, "never": 3}[fail_on]
    worst = -1
    unreadable: list[str] = []
    for item in _items(files, commands, null, script, stdin_filename, transcript, input_format, jsonl_field,
                       unreadable):
        result = classifier.classify(item.text) if item.text else None
        worst = max(worst, int(result.verdict) if result else -1)
        renderer.emit(item, result)
    renderer.close()
    if unreadable:  # every other file was still checked; an unread file is never "clean"
        ctx.exit(EXIT_USAGE)
    ctx.exit(EXIT_FINDINGS if worst >= threshold else EXIT_OK)


def _check_usage(files, commands, null, script, transcript, jsonl_field, output_format, input_format,
                 stdin_filename) -> None:
    modes = [bool(commands), null, script, transcript, jsonl_field is not None]
    if sum(modes) > 1:
        raise click.UsageError("choose one input mode: '-- CMD…', --null, --script, --transcript or --jsonl-field")
    if commands and files:
        raise click.UsageError("give either FILE arguments or commands after '--', not both")
    if (null or script) and files:
        raise click.UsageError("--null and --script read stdin; do not also give FILE arguments")
    if jsonl_field is not None and output_format not in ("text", "jsonl"):
        raise click.UsageError("--jsonl-field writes the input objects back as JSONL; --format must be jsonl")
    if jsonl_field is not None and not jsonl_field.strip("."):
        raise click.UsageError("--jsonl-field needs a field path such as 'command' or 'payload.cmd'")
    if input_format and not transcript:
        raise click.UsageError("--input-format applies to --transcript input only")
    if stdin_filename and (files or commands):
        raise click.UsageError("--stdin-filename names stdin; it cannot be combined with FILE arguments or '--'")


def _items(files, commands, null, script, stdin_filename, transcript, input_format, jsonl_field, unreadable):
    from horizon_cli.guard import sources

    if commands:
        for number, text in enumerate(commands, start=1):
            yield sources.Item(text, "<args>", number)
        return
    names = list(files) or ["-"]
    for name in names:
        shown = display_name(name, stdin_filename or "<stdin>")
        if name != "-" and len(names) > 1 and not _readable(name, unreadable):
            continue
        with _opened(name) as stream:
            if jsonl_field:
                yield from sources.jsonl_field_items(stream, shown, jsonl_field)
            elif transcript:
                yield from sources.transcript_items(stream, shown, input_format)
            elif name == "-" and null:
                yield from sources.null_items(stream, shown)
            elif name == "-" and script:
                yield from sources.script_item(stream.read(), shown)
            elif name == "-" and not stdin_filename:
                yield from sources.line_items(stream, shown)
            else:
                yield from sources.file_items(stream.read(), shown)


def _readable(name: str, unreadable: list[str]) -> bool:
    """Report a file that cannot be opened and go on with the others (like a linter)."""
    from horizon_cli.errors import InputError

    try:
        open_input(name).close()
    except InputError as exc:
        click.echo(f"horizon: error: {exc}", err=True)
        unreadable.append(name)
        return False
    return True


class _opened:
    """Open a file for reading, or borrow stdin without closing it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stream = None

    def __enter__(self):
        self.stream = open_input(self.name)
        return self.stream

    def __exit__(self, *exc) -> None:
        if self.name != "-" and self.stream is not None:
            self.stream.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(classify())
