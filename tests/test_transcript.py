"""The transcript readers: format detection, the event model, and tool calls for
the classify/halt consumers, over every fixture (shared and our own)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from conftest import shared_path
from horizon_cli.errors import InputError
from horizon_cli.transcript import FORMATS, Event, detect_format, read_transcript

OWN = Path(__file__).parent / "fixtures" / "transcripts"
SHARED = {
    "daaain-55550000-0000-4000-8000-000000000001.jsonl": "claude",
    "daaain-dag_compact_after_rewind.jsonl": "claude",
    "daaain-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl": "codex",
    "simonw-sample_session.jsonl": "claude",
}
OWN_FIXTURES = {"openai-chat.jsonl": "openai", "adk-session.jsonl": "adk", "horizon-events.jsonl": "horizon"}


def fixture_path(name: str) -> Path:
    return OWN / name if name in OWN_FIXTURES else shared_path("fixtures", "transcripts", name)


ALL = {**SHARED, **OWN_FIXTURES}


def events_of(path: Path, fmt: str | None = None) -> list[Event]:
    with open(path, "rb") as handle:
        return list(read_transcript(handle, str(path), fmt))


@pytest.mark.parametrize("name", sorted(ALL))
def test_detects_every_fixture(name):
    path = fixture_path(name)
    assert detect_format(path.read_bytes().splitlines(keepends=True)) == ALL[name]


@pytest.mark.parametrize("name", sorted(ALL))
def test_one_event_per_line_with_the_raw_bytes(name):
    path = fixture_path(name)
    data = path.read_bytes()
    events = events_of(path)
    lines = [line for line in data.splitlines(keepends=True) if line.strip()]
    assert [e.raw for e in events] == lines
    assert b"".join(e.raw for e in events) == data  # lossless: nothing dropped, nothing reordered
    assert all(e.format == ALL[name] for e in events)
    assert all(e.kind in ("message", "tool_call", "tool_result", "summary", "meta") for e in events)


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_tool_call_has_name_parsed_arguments_and_line(name):
    path = fixture_path(name)
    raw_lines = path.read_bytes().splitlines()
    calls = [(e, c) for e in events_of(path) for c in e.tool_calls]
    for event, call in calls:
        assert call.name, (event.line, call)
        assert call.id
        assert event.kind == "tool_call"
        assert raw_lines[event.line - 1].strip() == event.raw.strip()
        if call.name != "apply_patch":  # Codex custom tools take free text, not JSON
            assert isinstance(call.arguments, dict), (name, call)


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_result_answers_a_call(name):
    events = events_of(fixture_path(name))
    call_ids = {c.id for e in events for c in e.tool_calls}
    results = [r for e in events for r in e.tool_results]
    assert all(r.call_id in call_ids for r in results)


def test_claude_session_details():
    events = events_of(fixture_path("daaain-55550000-0000-4000-8000-000000000001.jsonl"))
    assert events[0].is_question and events[0].id == "sc-u1"
    parallel = events[7]
    assert [c.name for c in parallel.tool_calls] == ["Agent", "Agent"]
    assert parallel.usage == {"input_tokens": 120, "output_tokens": 40}
    assert parallel.group == "msg_sc-a4"
    block_result = events[8].tool_results[0]
    assert block_result.output.startswith("The web module renders")  # list-of-blocks content joined
    assert events[1].parent_id == "sc-u1"


def test_claude_compaction_records():
    events = events_of(fixture_path("daaain-dag_compact_after_rewind.jsonl"))
    kinds = {e.id: e.kind for e in events}
    assert kinds["cb"] == "meta" and kinds["cs"] == "summary"


def test_claude_minimal_shape_and_bash_command():
    events = events_of(fixture_path("simonw-sample_session.jsonl"))
    assert events[0].kind == "meta" and events[0].text == "Test session for JSONL parsing"
    assert events[1].text == "Create a hello world function" and events[1].is_question
    bash = events[4].tool_calls[0]
    assert (bash.name, bash.arguments["command"]) == ("Bash", "git add . && git commit -m 'Add hello function'")


def test_codex_rollout_details():
    events = events_of(fixture_path(
        "daaain-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"))
    by_line = {e.line: e for e in events}
    assert by_line[1].kind == "meta" and by_line[1].id == "11111111-1111-4111-8111-111111111111"
    assert by_line[3].mirror and by_line[4].is_question  # event_msg echo vs the real message
    assert by_line[6].tool_calls[0].arguments == {"cmd": "find . -maxdepth 1 -type f"}
    assert by_line[8].tool_calls[0].arguments.startswith("*** Begin Patch")
    assert by_line[9].tool_results[0].output == "Done!"
    assert by_line[14].kind == "meta"  # unknown future record type passes through


def test_openai_adk_horizon_details():
    openai = events_of(OWN / "openai-chat.jsonl")
    assert openai[4].tool_calls[1].arguments == {"cmd": ["git", "log", "-1", "--format=%H"]}
    assert openai[7].usage["total_tokens"] == 876
    adk = events_of(OWN / "adk-session.jsonl")
    assert adk[4].tool_results[0].is_error and adk[4].tool_results[0].call_id == "adk-fc-02"
    assert adk[1].usage["totalTokenCount"] == 455
    assert (adk[1].author, adk[1].role, adk[0].author) == ("planner_agent", "assistant", "user")
    hz = events_of(OWN / "horizon-events.jsonl")
    assert hz[5].tool_results[0].is_error and hz[0].kind == "meta"


def test_codex_exec_output_exit_code_is_an_error_flag():
    line = {"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c",
            "output": orjson.dumps({"output": "boom", "metadata": {"exit_code": 2}}).decode()}}
    (event,) = read_transcript([orjson.dumps(line) + b"\n"], "x", "codex")
    assert event.tool_results[0].is_error


def test_adk_compaction_is_a_summary():
    line = {"author": "user", "invocationId": "i", "actions": {"compaction": {
        "startTimestamp": 1.0, "endTimestamp": 2.0, "compactedContent": {"role": "model", "parts": [{"text": "S"}]}}}}
    (event,) = read_transcript([orjson.dumps(line)], "x")
    assert (event.format, event.kind, event.text) == ("adk", "summary", "S")


def test_malformed_line_names_file_and_line():
    lines = [b'{"role": "user", "content": "hi"}\n', b"\n", b'{"role": "assistant", "content": \n']
    with pytest.raises(InputError) as info:
        list(read_transcript(lines, "t.jsonl"))
    assert str(info.value).startswith("t.jsonl:3: malformed JSON")


def test_undetectable_input_is_an_input_error():
    with pytest.raises(InputError, match="cannot detect the transcript format"):
        list(read_transcript([b'{"hello": 1}\n'], "odd.jsonl"))


def test_forced_format_reads_unknown_lines_as_meta():
    events = list(read_transcript([b'{"hello": 1}\n', b"[1, 2]\n"], "odd.jsonl", "claude"))
    assert [e.kind for e in events] == ["meta", "meta"]


def test_unknown_forced_format_is_rejected():
    with pytest.raises(InputError, match="unknown transcript format"):
        list(read_transcript([b"{}\n"], "x", "yaml"))


def test_detection_is_lazy_and_streaming():
    """Only the head is buffered for detection; a generator of lines is read incrementally."""
    pulled = []

    def lines():
        for index in range(1000):
            pulled.append(index)
            yield orjson.dumps({"role": "user", "content": f"m{index}"}) + b"\n"

    stream = read_transcript(lines(), "gen")
    first = next(stream)
    assert first.text == "m0" and len(pulled) <= 51


def test_formats_tuple():
    assert FORMATS == ("horizon", "openai", "claude", "codex", "adk")
