"""`horizon rules [RULE]`: list the classify rules of the effective policy, or explain one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from horizon_cli.commands.common import color_option, format_option, load_policy_for, paint, policy_options, use_color

VERDICT_COLORS = {"deny": "red", "gate": "yellow", "allow": "green", "off": "bright_black"}

EPILOG = """\b
Examples:
  horizon rules                      every rule: id, verdict, name, description
  horizon rules --verdict deny       only the rules that deny
  horizon rules HZ101                what HZ101 does, why, and examples
  horizon rules --format json | jq -r '.[] | select(.verdict == "gate") | .id'

\b
JSON schema (--format json: an array; jsonl: one object per line):
  {"id": "HZ101", "name": str, "verdict": "allow|gate|deny|off",
   "description": str, "doc": str, "examples": {"deny": [str], "gate": [str], "allow": [str]}}

\b
Exit codes:
  0  listed or explained
  2  unknown rule id (the closest id is suggested), invalid policy
"""


@click.command(epilog=EPILOG)
@click.argument("rule", required=False, metavar="[RULE]")
@click.option(
    "--verdict",
    "verdicts",
    multiple=True,
    type=click.Choice(["allow", "gate", "deny", "off"]),
    help="List only rules with this verdict (repeatable).",
)
@format_option("text", "json", "jsonl")
@color_option
@policy_options
def rules(rule: str | None, verdicts: tuple[str, ...], output_format: str, color: str, policies, no_config) -> None:
    """List the classify rules, or explain RULE (an id such as HZ101, or a rule name).

    Rules come from the effective policy (built-in default, project config,
    HORIZON_POLICY, --policy), so a rule a policy adds or overrides shows here
    as it will apply.
    """
    from horizon_cli.policy.catalog import find_rule, rule_records

    policy = load_policy_for(policies, no_config)
    records = rule_records(policy.table("rules"))
    if rule is not None:
        records = [find_rule(records, rule)]
    elif verdicts:
        records = [r for r in records if r["verdict"] in verdicts]
    enabled = use_color(color)
    if output_format != "text":
        click.echo(_json(records, output_format, single=rule is not None), nl=False)
    elif rule is not None:
        click.echo(explain_text(records[0], enabled), nl=False, color=enabled)
    else:
        click.echo(list_text(records, enabled), nl=False, color=enabled)


def _json(records: list[dict[str, Any]], output_format: str, single: bool) -> str:
    import orjson

    if output_format == "jsonl":
        return "".join(orjson.dumps(r).decode() + "\n" for r in records)
    payload = records[0] if single else records
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n"


def list_text(records: list[Mapping[str, Any]], color: bool) -> str:
    """One aligned line per rule: id, verdict, name, description."""
    if not records:
        return ""
    name_width = max(len(r["name"]) for r in records)
    lines = []
    for r in records:
        verdict = paint(f"{r['verdict']:<5}", VERDICT_COLORS.get(r["verdict"]), color)
        rule_id = paint(r["id"], None, color, bold=True)
        lines.append(f"{rule_id}  {verdict}  {r['name']:<{name_width}}  {r['description']}".rstrip())
    return "\n".join(lines) + "\n"


def explain_text(record: Mapping[str, Any], color: bool) -> str:
    """The ruff-style explanation of one rule."""
    verdict = paint(record["verdict"], VERDICT_COLORS.get(record["verdict"]), color, bold=True)
    title = paint(f"{record['id']} {record['name']}", None, color, bold=True)
    parts = [f"{title} ({verdict})"]
    if record["description"]:
        parts.append(record["description"])
    if record["doc"] and record["doc"] != record["description"]:
        parts.append(record["doc"].strip())
    examples = [(v, cmd) for v in ("deny", "gate", "allow") for cmd in record["examples"].get(v, [])]
    if examples:
        rows = [f"  {paint(f'{v:<5}', VERDICT_COLORS[v], color)}  {cmd}" for v, cmd in examples]
        parts.append("Examples (the verdict the policy gives each command):\n" + "\n".join(rows))
    return "\n\n".join(parts) + "\n"
