"""`horizon policy show|check`: inspect the effective policy and test policy files."""

from __future__ import annotations

import click

from horizon_cli.commands.common import color_option, format_option, load_policy_for, paint, policy_options, use_color

GROUP_EPILOG = """\b
Examples:
  horizon policy show                       the merged policy as TOML
  horizon policy show --sources             which files were layered, lowest first
  horizon policy show --policy ci.toml --format json | jq .classify
  horizon policy check .horizon.toml        validate and test the rule examples

\b
Exit codes:
  0  shown / every file valid and every example holds
  1  check: an example's verdict differs from what its rule promises
  2  invalid policy (file:key: what is wrong), unreadable file
"""

SHOW_EPILOG = """\b
The output is valid TOML: `horizon policy show > .horizon.toml` gives a
self-contained policy equal to the effective one. With --format json the
same tables are printed as one JSON object (with --sources: an array of the
layer names, lowest first; shipped policies show as built-in:NAME).

\b
Exit codes:
  0  shown
  2  a layer is invalid or unreadable
"""

CHECK_EPILOG = """\b
Each FILE is layered over the built-in default, as `--policy FILE` would be
(a pyproject.toml contributes its [tool.horizon] table), validated, and then
every rule's `examples = { deny = [...], gate = [...], allow = [...] }` is
classified with the merged policy. Rules with verdict "off" are skipped.
Without FILE, the effective policy (project config, HORIZON_POLICY) is checked.

\b
Text output: one line per failing example,
  PATH:LINE: RULE example 'COMMAND': expected VERDICT, got VERDICT (RULE: reason)
then one summary line per file. JSON (--format json, an array; jsonl, one per line):
  {"path": str, "valid": bool, "error": str|null, "rules": int, "examples": int,
   "failures": [{"rule", "example", "expected", "actual", "decided_by", "reason",
                 "path", "line": int|null}]}

\b
Exit codes:
  0  every file valid, every example holds
  1  some example's verdict differs
  2  a file is invalid or unreadable (reported, the other files still checked)
"""


@click.group(epilog=GROUP_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
def policy() -> None:
    """Show the effective policy, or check policy files and their rule examples."""


@policy.command(epilog=SHOW_EPILOG, short_help="Print the effective merged policy as TOML (or JSON).")
@click.option("--sources", is_flag=True, help="List the layers (lowest first) instead of the merged policy.")
@format_option("toml", "json", default="toml")
@policy_options
def show(sources: bool, output_format: str, policies, no_config) -> None:
    """Print the effective merged policy (built-in default < project config < HORIZON_POLICY < --policy)."""
    from horizon_cli.policy.checkfile import display_source

    effective = load_policy_for(policies, no_config)
    names = [display_source(s) for s in effective.sources]
    if output_format == "json":
        import orjson

        payload = names if sources else dict(effective.data)
        click.echo(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode())
    elif sources:
        click.echo("".join(f"{name}\n" for name in names), nl=False)
    else:
        from horizon_cli.policy.tomlwrite import dumps

        header = "# horizon effective policy; layers, lowest first:\n" + "".join(f"#   {n}\n" for n in names)
        click.echo(header + "\n" + dumps(effective.data), nl=False)


@policy.command(epilog=CHECK_EPILOG, short_help="Validate policy files and test their rule examples.")
@click.argument("files", nargs=-1, metavar="[FILE]...")
@format_option("text", "json", "jsonl")
@color_option
@click.option("--no-config", is_flag=True, help="Without FILE: ignore .horizon.toml / pyproject.toml discovery.")
def check(files: tuple[str, ...], output_format: str, color: str, no_config: bool) -> None:
    """Validate policy FILEs and check every rule example against the classifier."""
    from horizon_cli.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

    results = [_check_one(path) for path in files] if files else [_check_effective(no_config)]
    if output_format == "text":
        _print_text(results, use_color(color), use_color(color, _stderr()))
    else:
        _print_json(results, output_format)
    ctx = click.get_current_context()
    if any(r.error for r in results):
        ctx.exit(EXIT_USAGE)
    ctx.exit(EXIT_FINDINGS if any(r.failures for r in results) else EXIT_OK)


def _check_one(path: str):
    from horizon_cli.policy.checkfile import check_file

    return check_file(path)


def _check_effective(no_config: bool):
    from horizon_cli.errors import PolicyError
    from horizon_cli.policy.checkfile import FileCheck, check_layers, display_source
    from horizon_cli.policy.loader import policy_layers

    try:
        layers = policy_layers((), discover=not no_config)
    except PolicyError as exc:
        return FileCheck(path=exc.path or "<policy>", error=str(exc))
    layers = [(display_source(source), table) for source, table in layers]
    return check_layers(layers[-1][0], layers)


def _print_text(results, color: bool, err_color: bool) -> None:
    for result in results:
        if result.error:
            click.echo(paint("horizon: error: ", "red", err_color) + result.error, err=True, color=err_color)
            continue
        for lf in result.failures:
            where = f"{lf.path}:{lf.line}" if lf.line else lf.path
            f = lf.failure
            why = f" ({f.decided_by}: {f.reason})" if f.decided_by else ""
            expected = paint(f.expected, "green", color)
            actual = paint(f.actual, "red", color)
            click.echo(f"{where}: {paint(f.rule, None, color, bold=True)} example {f.example!r}: "
                       f"expected {expected}, got {actual}{why}", color=color)
        status = paint("ok", "green", color) if result.ok else paint(f"{len(result.failures)} failing", "red", color)
        click.echo(f"{result.path}: {status}: {result.rules} rules, {result.examples} examples checked", color=color)


def _print_json(results, output_format: str) -> None:
    import orjson

    from horizon_cli.policy.checkfile import as_json

    payload = [as_json(r) for r in results]
    if output_format == "jsonl":
        click.echo("".join(orjson.dumps(p).decode() + "\n" for p in payload), nl=False)
    else:
        click.echo(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode())


def _stderr():
    import sys

    return sys.stderr
