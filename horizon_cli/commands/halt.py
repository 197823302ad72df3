"""``horizon halt``: replay an event log (or transcript) through the halt controller."""

from __future__ import annotations

import click

from horizon_cli.commands.common import (
    color_option,
    display_name,
    format_option,
    load_policy_for,
    open_input,
    paint,
    policy_options,
    stdout_bytes,
    use_color,
)

EPILOG = """\b
Event log: one JSON action per line (blank lines ignored):
  {"type":"observe","progress":"sig","failure":"sig"|null}
  {"type":"before_model"}   {"type":"turn_boundary"}   {"type":"tool_call"}
observe arms a reason, before_model consumes it and halts, turn_boundary resets.

\b
Examples:
  horizon halt events.jsonl
  horizon halt --max-iterations 20 --format jsonl events.jsonl
  horizon halt --state-out s.json day1.jsonl && horizon halt --state-in s.json day2.jsonl
  horizon halt --transcript session.jsonl

\b
Exit codes:
  0  no halt
  1  halted (the run should have been stopped)
  2  usage error, malformed input (file:line), bad policy or state file
"""

# Mirrors horizon_cli.transcript.FORMATS (not imported: start-up stays lean).
TRANSCRIPT_FORMATS = ("horizon", "openai", "claude", "codex", "adk")
_STYLES = {"halt": ("red", True), "ok": ("green", False), "reason": ("yellow", True)}


# (flag, HaltConfig field, click keyword arguments): flags override the policy's [halt] table.
LIMIT_OPTIONS = (
    ("--max-iterations", "max_iterations",
     {"type": click.IntRange(min=1), "help": "Halt once this many observes happened in a turn [policy: 50]."}),
    ("--no-progress-limit", "no_progress_limit",
     {"type": click.IntRange(min=1), "help": "Halt after this many repeats of one progress signature [policy: 3]."}),
    ("--repeated-failure-limit", "repeated_failure_limit",
     {"type": click.IntRange(min=1), "help": "Halt after the same failure this many times in a row [policy: 3]."}),
    ("--max-tool-calls", "max_tool_calls_per_iteration",
     {"type": click.IntRange(min=0), "help": "Halt after this many tool_call actions in a turn; 0 = off [policy: 0]."}),
    ("--delivery", "delivery",
     {"type": click.Choice(["once", "sticky"]),
      "help": "once: a halt is reported once; sticky: every later before_model in the turn halts too [policy: once]."}),
    ("--stuck/--no-stuck", "stuck_detection",
     {"default": None, "help": "Detect OpenHands-style loops: repeated or ping-ponging steps [policy: off]."}),
    ("--stuck-repeat", "stuck_repeat",
     {"type": click.IntRange(min=1), "help": "Identical steps in a row that count as stuck [policy: 4]."}),
    ("--ping-pong-window", "ping_pong_window",
     {"type": click.IntRange(min=2), "help": "Steps alternating between two that count as stuck [policy: 6]."}),
)


def limit_options(func):
    for flag, field, kwargs in reversed(LIMIT_OPTIONS):
        func = click.option(flag, field, **kwargs)(func)
    return func


@click.command(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", required=False, metavar="[FILE|-]")
@click.option("--transcript", metavar="FILE|-", help="Derive actions from an agent transcript instead of an event log.")
@click.option("--input-format", type=click.Choice(TRANSCRIPT_FORMATS), help="Transcript format [default: detected].")
@limit_options
@click.option("--stop-at-halt", is_flag=True, help="Stop reading at the first halt.")
@click.option("--state-in", metavar="FILE", help="Start from a sealed state file (or an agent checkpoint's halt state).")
@click.option("--state-out", metavar="FILE", help="Write the final state, sealed with stateHash, atomically.")
@click.option("--trust-state", is_flag=True, help="Use a --state-in file even if its stateHash is missing or wrong.")
@format_option("text", "json", "jsonl")
@color_option
@policy_options
def halt(file, transcript, input_format, stop_at_halt, state_in, state_out, trust_state, output_format, color,
         policies, no_config, **limits):
    """Simulate the halt controller over a JSONL event log (or, with --transcript, an agent transcript).

    Reports whether and where the run would have been halted: the first halt's
    line and reason, the number of halts and the final counters. Limits come
    from the policy's [halt] table; the flags below override it.
    """
    from horizon_cli.errors import EXIT_FINDINGS, EXIT_OK

    if transcript is not None and file is not None:
        raise click.UsageError("give either FILE or --transcript, not both")
    file = _default_stdin(file if transcript is None else transcript)
    config = _config(load_policy_for(policies, no_config), limits)
    state, action_count = _initial_state(state_in, trust_state, config)
    # A closed stdout (`| head`) is mapped once, in horizon_cli.cli.run (exit 141, never 1 = "halted").
    result = _execute(
        file, transcript, input_format, config, (state, action_count), stop_at_halt, state_out, output_format, color
    )
    click.get_current_context().exit(EXIT_FINDINGS if result.halted else EXIT_OK)


def _execute(file, transcript, input_format, config, start, stop_at_halt, state_out, output_format, color):
    """Replay, save the state (before any summary, so a failed save prints no verdict), report."""
    state, action_count = start
    out = stdout_bytes()
    hook = _trace_hook(out) if output_format == "jsonl" else None
    if transcript is not None:
        result = _run_transcript(file, input_format, config, state, stop_at_halt, hook)
        source, unit = display_name(file), "transcript line"
    else:
        result, source, unit = _run_log(file, config, state, stop_at_halt, hook), display_name(file), "line"
    if state_out:
        from horizon_cli.halt.statefile import save_state

        save_state(state_out, result.state, config, action_count + result.actions)
    _report(out, output_format, result, source, color, unit)
    return result


def _default_stdin(path):
    """No FILE means stdin, but not an interactive terminal: that would just wait."""
    if path is not None:
        return path
    import sys

    if getattr(sys.stdin, "isatty", lambda: False)():
        raise click.UsageError("no input: give FILE (or -), or pipe an event log on stdin")
    return "-"


def _config(policy, limits):
    from horizon_cli.errors import PolicyError
    from horizon_cli.halt.reducer import ConfigError, HaltConfig

    try:
        return HaltConfig.from_mapping(policy.table("halt"), **limits)
    except ConfigError as exc:
        raise PolicyError(f"policy [halt]: {exc}") from None


def _initial_state(state_in, trust, config):
    from horizon_cli.halt.reducer import INITIAL_STATE

    if state_in is None:
        return INITIAL_STATE, 0
    from horizon_cli.halt.statefile import config_differences, load_state

    state, saved_config, count = load_state(state_in, trust=trust)
    changed = config_differences(saved_config or {}, config)
    if changed:
        click.echo(f"horizon: warning: {state_in}: limits changed since the state was saved: {'; '.join(changed)}", err=True)
    return state, count


def _run_log(file, config, state, stop_at_halt, hook):
    from horizon_cli.halt.replay import replay

    handle = open_input(file)
    try:
        return replay(handle, display_name(file), config, state, stop_at_halt=stop_at_halt, on_step=hook)
    finally:
        if file != "-":
            handle.close()


def _run_transcript(path, input_format, config, state, stop_at_halt, hook):
    from horizon_cli.halt.derive import derive_actions
    from horizon_cli.halt.replay import replay_actions
    from horizon_cli.transcript import read_transcript

    handle = open_input(path)
    try:
        events = read_transcript(handle, display_name(path), input_format)
        return replay_actions(derive_actions(events), config, state, stop_at_halt=stop_at_halt, on_step=hook)
    finally:
        if path != "-":
            handle.close()


def _trace_hook(out):
    from horizon_cli.halt.render import TraceWriter

    return TraceWriter(out.write)


def _report(out, output_format, result, source, color, unit):
    from horizon_cli.halt import render

    if output_format == "json":
        import orjson

        out.write(orjson.dumps(render.summary_dict(result, source), option=orjson.OPT_INDENT_2) + b"\n")
    elif output_format == "text":
        enabled = use_color(color)

        def style(text, role):
            fg, bold = _STYLES.get(role, (None, False))
            return paint(text, fg, enabled, bold=bold)

        out.write(render.summary_text(result, source, style, unit).encode("utf-8", "surrogateescape"))
    out.flush()
