"""`horizon halt --transcript`: actions derived from agent transcripts."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from horizon_cli.halt.derive import call_signature, derive_actions
from horizon_cli.transcript import ToolCall, read_transcript


def horizon_line(**record):
    return json.dumps(record) + "\n"


def failing_loop(turns=4, command="npm test"):
    """A person asks once; the agent runs the same failing command over and over."""
    lines = [horizon_line(event="message", role="user", text="fix the build")]
    for i in range(turns):
        call = {"id": f"c{i}", "name": "Bash", "arguments": {"command": command}}
        lines.append(horizon_line(event="tool_call", role="assistant", calls=[call]))
        result = {"call_id": f"c{i}", "output": "1 failing", "is_error": True}
        lines.append(horizon_line(event="tool_result", role="tool", results=[result]))
    lines.append(horizon_line(event="message", role="assistant", text="giving up"))
    return "".join(lines)


def derive(text):
    events = read_transcript(text.encode().splitlines(keepends=True), "t.jsonl")
    return list(derive_actions(events))


def test_derivation_maps_turns_calls_results_and_questions():
    actions = derive(failing_loop(turns=2))
    assert [(line, a["type"]) for line, a in actions] == [
        (1, "turn_boundary"),
        (2, "before_model"), (2, "tool_call"), (3, "observe"),
        (4, "before_model"), (4, "tool_call"), (5, "observe"),
        (6, "before_model"),
    ]
    observe = actions[3][1]
    assert observe["failure"] == 'Bash {"command":"npm test"}'
    assert observe["tool"] == "Bash"
    assert observe["progress"] == actions[6][1]["progress"]  # same call, same output: no progress


def test_success_clears_the_failure_signature():
    text = failing_loop(turns=1).replace('"is_error": true', '"is_error": false')
    observe = [a for _, a in derive(text) if a["type"] == "observe"][0]
    assert observe["failure"] is None


def test_one_model_response_over_several_lines_is_one_model_turn():
    lines = [
        horizon_line(event="message", role="user", text="go"),
        horizon_line(event="message", role="assistant", text="thinking"),
        horizon_line(event="tool_call", role="assistant", calls=[{"id": "a", "name": "ls", "arguments": {}}]),
        horizon_line(event="meta", role="system", text="ui"),
        horizon_line(event="tool_result", role="tool", results=[{"call_id": "a", "output": "x"}]),
        horizon_line(event="message", role="user", text="harness note", injected=True),
        horizon_line(event="message", role="assistant", text="done"),
    ]
    kinds = [a["type"] for _, a in derive("".join(lines))]
    assert kinds == ["turn_boundary", "before_model", "tool_call", "observe", "before_model"]


def test_long_arguments_are_named_by_digest():
    short = call_signature(ToolCall("1", "Read", {"path": "a.py"}))
    assert short == 'Read {"path":"a.py"}'
    long = call_signature(ToolCall("1", "Write", {"path": "a.py", "content": "x" * 500}))
    assert long.startswith("Write sha256:") and len(long) < 40
    assert call_signature(ToolCall("1", "b", {"y": 1, "x": 2})) == call_signature(ToolCall("2", "b", {"x": 2, "y": 1}))


def test_cli_reports_the_transcript_line_of_the_halt(run_cli, tmp_path, monkeypatch, snapshot):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.jsonl").write_text(failing_loop())
    code, out, _ = run_cli(["halt", "--no-config", "--transcript", "t.jsonl"])
    assert (code, out) == snapshot
    assert "halted at transcript line 8" in out  # the 4th model call, after 3 identical failures


def test_cli_transcript_jsonl_and_stuck(run_cli, tmp_path, monkeypatch, snapshot):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.jsonl").write_text(failing_loop(turns=5))
    args = ["halt", "--no-config", "--transcript", "t.jsonl", "--repeated-failure-limit", "9",
            "--no-progress-limit", "9", "--stuck", "--format", "json"]
    code, out, _ = run_cli(args)
    assert (code, out) == snapshot
    assert json.loads(out)["first_halt"]["reason"] == "stuck-repeat"


@pytest.mark.parametrize(
    "name",
    [
        "daaain-55550000-0000-4000-8000-000000000001.jsonl",
        "daaain-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
        "simonw-sample_session.jsonl",
        "daaain-dag_compact_after_rewind.jsonl",
    ],
)
def test_real_transcripts_derive_and_replay(run_cli, name):
    path = shared_path("fixtures", "transcripts", name)
    code, out, _ = run_cli(["halt", "--no-config", "--transcript", str(path), "--format", "jsonl"])
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records, "no actions derived"
    assert {r["type"] for r in records} <= {"before_model", "tool_call", "observe", "turn_boundary"}
    assert [r["line"] for r in records] == sorted(r["line"] for r in records)
    calls = sum(r["type"] == "tool_call" for r in records)
    assert calls == sum(r["type"] == "observe" for r in records)


def test_openai_chat_transcript():
    call = {"id": "c1", "type": "function", "function": {"name": "run", "arguments": '{"cmd": "make"}'}}
    lines = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "build it"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "assistant", "content": "built"},
        {"role": "user", "content": "thanks"},
    ]
    actions = derive("".join(json.dumps(line) + "\n" for line in lines))
    assert [(line, a["type"]) for line, a in actions] == [
        (2, "turn_boundary"), (3, "before_model"), (3, "tool_call"), (4, "observe"), (5, "before_model"),
        (6, "turn_boundary"),
    ]
    assert actions[3][1]["action"] == 'run {"cmd":"make"}'
