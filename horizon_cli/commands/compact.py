"""``horizon compact``: compact a JSONL transcript, flushing durable facts first."""

from __future__ import annotations

import sys

import click

from horizon_cli.commands.common import (
    color_option,
    display_name,
    format_option,
    load_policy_for,
    paint,
    policy_options,
    stdout_bytes,
    use_color,
)

FORMATS = ("horizon", "openai", "claude", "codex", "adk")
LARGE_FILE = 32 << 20  # the progress bar appears from this size (on a terminal)

EPILOG = """\b
Order: decide -> prune -> flush -> summarize -> splice. Facts are appended to
--facts-out (fsync) before anything is summarized; if that or the summarizer
fails, nothing is written and the input is untouched.

\b
Examples:
  horizon compact session.jsonl > compacted.jsonl
  horizon compact --facts-out facts.jsonl --in-place session.jsonl
  horizon compact --summarizer 'llm -s "Summarize this agent transcript"' -o out.jsonl session.jsonl
  horizon compact --check --threshold-tokens 100000 session.jsonl   # CI gate
  horizon compact --stats --format json session.jsonl >/dev/null

\b
Exit codes:
  0  compacted, or nothing to do (under the threshold: output = input)
  1  --check: the transcript is over the threshold
  2  usage error, unreadable or malformed input (file:line), bad policy
  3  the facts flush or the summarizer failed; nothing was written
"""


@click.command(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("-o", "--output", metavar="FILE", help="Write the result here (atomically) instead of stdout.")
@click.option("--in-place", is_flag=True, help="Replace FILE atomically (only when something was compacted).")
@click.option("--input-format", type=click.Choice(["auto", *FORMATS]), default="auto", show_default=True,
              help="Transcript format; auto detects it from the first lines.")
@click.option("--threshold-tokens", type=click.IntRange(min=1), metavar="N",
              help="Compact when the estimated tokens reach N [policy: 8000].")
@click.option("--keep-recent", type=click.IntRange(min=0), metavar="N",
              help="Keep the last N events verbatim [policy: 6].")
@click.option("--prune-chars", type=click.IntRange(min=1), metavar="N",
              help="Tool outputs longer than N chars are pruned before summarizing [policy: prune_tool_output_chars = 2000].")
@click.option("--facts-out", metavar="FILE", help="Append the durable facts (JSONL, deduplicated, fsync) before summarizing.")
@click.option("--summarizer", metavar="CMD",
              help="Shell command: events as JSONL on stdin, summary text on stdout; 'builtin' for the built-in one [policy: builtin].")
@click.option("--summarizer-timeout", type=click.FloatRange(min=0), metavar="SECONDS",
              help="Kill the summarizer after this long; 0 = no limit [policy: 60].")
@click.option("--append-only", is_flag=True, help="Keep every original line and append the summary record instead.")
@click.option("--stats", is_flag=True, help="Report tokens before/after, events summarized, facts flushed (stderr when the transcript goes to stdout).")
@click.option("--check", is_flag=True, help="Only report whether the transcript is over the threshold; exit 1 if it is.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr [default: on a terminal, for files over 32 MB].")
@format_option("text", "json")
@color_option
@policy_options
def compact(file, output, in_place, input_format, stats, check, progress, output_format, color, policies, no_config, **settings):
    """Compact a JSONL transcript: older events become one summary, the last
    events stay verbatim.

    Formats: horizon's own events, OpenAI chat messages, Claude Code session
    logs, Codex CLI rollouts and Google ADK session events. Settings come from
    the policy's [compact] table; the flags override it.
    """
    from horizon_cli.errors import EXIT_FINDINGS, EXIT_OK

    _check_usage(file, output, in_place, check)
    options = _options(load_policy_for(policies, no_config), settings, input_format)
    name = display_name(file)
    with _Source(file) as source:
        bar = _progress_bar(source, progress)
        if check:
            from horizon_cli.compaction import check as run_check

            result = run_check(source, name, options, bar)
            _finish(bar)
            _report(result, output_format, color, sys.stdout, check=True)
            click.get_current_context().exit(EXIT_FINDINGS if result.plan and result.plan.over else EXIT_OK)
        result = _run(source, name, file, output, in_place, options, bar)
    if stats:
        stream = sys.stderr if not (output or in_place) else sys.stdout
        _report(result, output_format, color, stream, check=False)


def _check_usage(file: str, output: str | None, in_place: bool, check: bool) -> None:
    if in_place and file == "-":
        raise click.UsageError("--in-place needs a FILE, not stdin")
    if in_place and output:
        raise click.UsageError("give either -o/--output or --in-place, not both")
    if check and (in_place or output):
        raise click.UsageError("--check writes nothing; it cannot be combined with -o or --in-place")


def _options(policy, settings: dict, input_format: str):
    from horizon_cli.compaction import Options

    table = policy.table("compact")

    def pick(flag: str, key: str, default):
        value = settings.get(flag)
        return value if value is not None else table.get(key, default)

    summarizer = pick("summarizer", "summarizer", None)
    timeout = float(pick("summarizer_timeout", "summarizer_timeout", 60.0))
    return Options(
        threshold_tokens=int(pick("threshold_tokens", "threshold_tokens", 8000)),
        keep_recent=int(pick("keep_recent", "keep_recent", 6)),
        prune_chars=int(pick("prune_chars", "prune_tool_output_chars", 2000)),
        facts_out=settings.get("facts_out"),
        summarizer=None if not summarizer or summarizer == "builtin" else summarizer,
        summarizer_timeout=timeout or None,
        append_only=bool(settings.get("append_only")),
        input_format=None if input_format == "auto" else input_format,
    )


class _Source:
    """A seekable binary source: the file itself, or stdin spooled to a temp file."""

    def __init__(self, file: str):
        self.file = file

    def __enter__(self):
        import shutil
        import tempfile

        from horizon_cli.errors import InputError

        if self.file == "-":
            self.handle = tempfile.TemporaryFile()
            shutil.copyfileobj(getattr(sys.stdin, "buffer", sys.stdin), self.handle, 1 << 20)
            self.handle.seek(0)
            return self.handle
        try:
            self.handle = open(self.file, "rb")  # noqa: SIM115
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", path=self.file) from None
        return self.handle

    def __exit__(self, *exc) -> None:
        self.handle.close()


def _run(source, name: str, file: str, output: str | None, in_place: bool, options, bar):
    from horizon_cli.compaction import compact as run_compact
    from horizon_cli.compaction.atomic import AtomicFile
    from horizon_cli.errors import InputError

    target = file if in_place else output
    if target is None:
        result = run_compact(source, name, stdout_bytes(), options, bar)
        _finish(bar)
        return result
    try:
        out = AtomicFile(target)
    except OSError as exc:
        raise InputError(f"cannot write output: {exc.strerror}", path=target) from None
    with out:
        result = run_compact(source, name, out, options, bar)
        _finish(bar)
        if result.compacted or not in_place:
            try:
                out.commit()
            except OSError as exc:
                raise InputError(f"cannot write output: {exc.strerror or exc}", path=target) from None
    return result


def _progress_bar(source, wanted: bool | None):
    size = source.seek(0, 2)
    source.seek(0)
    tty = getattr(sys.stderr, "isatty", lambda: False)()
    if wanted is False or (wanted is None and not (tty and size >= LARGE_FILE)):
        return None

    def show(phase: str, done: int, total: int) -> None:
        percent = 100 * done // total if total else 100
        filled = percent // 5
        sys.stderr.write(f"\rhorizon compact: {phase:<9} [{'#' * filled}{'.' * (20 - filled)}] {percent:3d}% "
                         f"{done / 1e6:.1f}/{total / 1e6:.1f} MB")
        sys.stderr.flush()

    return show


def _finish(bar) -> None:
    if bar is not None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def _report(result, output_format: str, color: str, stream, check: bool) -> None:
    if output_format == "json":
        import orjson

        stream.write(orjson.dumps(result.report(), option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    data = result.report()
    enabled = use_color(color, stream)
    over = data["over_threshold"]
    state = paint("over" if over else "under", "red" if over else "green", enabled, bold=over)
    head = f"{data['file']} ({data['format'] or 'empty'}): {data['tokens_before']} tokens ({data['token_source']}), {state} the threshold of {data['threshold_tokens']}"
    if check:
        stream.write(head + "\n")
        return
    if data["compacted"]:
        tail = (f"compacted: {data['events_summarized']} of {data['events']} events summarized, "
                f"{data['tokens_before']} -> {data['tokens_after']} tokens, {data['facts_flushed']} facts flushed "
                f"({data['facts_found']} found)")
    elif over:
        tail = "not compacted: nothing before the kept events to summarize; output is the input unchanged"
    else:
        tail = "not compacted: output is the input unchanged"
    stream.write(f"{head}\n{tail}\n")
