"""`horizon compact` over every fixture: round-trip, forced compaction, tool pairs,
the live question, output formats, modes (-o, --in-place, --append-only), --check/--stats."""

from __future__ import annotations

import io
import os
from pathlib import Path

import orjson
import pytest

from horizon_cli.compaction import Options, check, compact
from horizon_cli.compaction.prune import MARKER_PREFIX, prune_output
from horizon_cli.compaction.summarize import BANNER
from horizon_cli.transcript import read_transcript
from test_transcript import ALL, OWN, fixture_path

FORCED = ("--threshold-tokens", "1", "--keep-recent", "2")


@pytest.fixture
def hz(monkeypatch, tmp_path, run_horizon):
    """Run `horizon compact` in an empty directory, mapping errors as ``cli.main`` does."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HORIZON_POLICY", raising=False)

    def run(*args, input=None):
        return run_horizon(["compact", "--no-config", *map(str, args)], input=input)

    return run


def local(name: str) -> str:
    """Copy one of our fixtures into the working directory, so snapshots hold no absolute paths."""
    Path(name).write_bytes((OWN / name).read_bytes())
    return name


def events(data: bytes, fmt: str | None = None):
    return list(read_transcript(io.BytesIO(data), "out", fmt))


def run_lib(data: bytes, **options) -> tuple[bytes, object]:
    out = io.BytesIO()
    result = compact(io.BytesIO(data), "t.jsonl", out, Options(**options))
    return out.getvalue(), result


@pytest.mark.parametrize("name", sorted(ALL))
def test_under_threshold_is_byte_identical(hz, name):
    path = fixture_path(name)
    code, out, _ = hz(path)
    assert code == 0 and out.encode() == path.read_bytes()


@pytest.mark.parametrize("name", sorted(ALL))
def test_forced_compaction_keeps_format_pairs_and_question(name):
    data = fixture_path(name).read_bytes()
    fmt = ALL[name]
    before = events(data)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    assert result.compacted
    after = events(out, None)
    assert {e.format for e in after} == {fmt}  # output stays in the input's format, and detects as it
    summaries = [e for e in after if e.kind == "summary" and e.text.startswith(BANNER)]
    assert len(summaries) == 1
    # every kept tool result still has its call
    calls = {c.id for e in after for c in e.tool_calls}
    assert all(r.call_id in calls for e in after for r in e.tool_results)
    # the live question (last real user message) is verbatim in the output, never summarized
    question = [e for e in before if e.is_question][-1]
    assert question.raw in [e.raw for e in after]
    # the tail is verbatim and in order
    tail = [e.raw for e in before[-2:]]
    assert [e.raw for e in after[-2:]] == tail
    # metadata and system lines pass through untouched
    pinned = [e.raw for e in before if (e.kind == "meta" and not e.mirror) or e.role in ("system", "developer") and e.kind == "message"]
    assert all(raw in [e.raw for e in after] for raw in pinned)


@pytest.mark.parametrize("name", sorted(ALL))
def test_append_only_keeps_every_line(name):
    data = fixture_path(name).read_bytes()
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2, append_only=True)
    assert result.compacted and out.startswith(data)
    appended = events(out)[len(events(data)):]
    assert [e.kind for e in appended] == ["summary"] and appended[0].text.startswith(BANNER)


def test_covers_record(tmp_path):
    data = (OWN / "horizon-events.jsonl").read_bytes()
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    summary = next(orjson.loads(line) for line in out.splitlines() if b'"summary"' in line)
    covers = summary["covers"]
    assert covers == result.covers
    assert (covers["first_line"], covers["last_line"], covers["events"]) == (2, 7, 6)
    assert (covers["first_id"], covers["last_id"]) == ("h1", "h6")
    import hashlib

    covered = b"".join(data.splitlines(keepends=True)[1:7])
    assert covers["sha256"] == "sha256:" + hashlib.sha256(covered).hexdigest()
    assert "## Covers" in summary["text"]


def test_summary_sections_are_fixed_and_copy_values_verbatim():
    data = (OWN / "openai-chat.jsonl").read_bytes()
    out, _ = run_lib(data, threshold_tokens=1, keep_recent=2)
    text = next(e.text for e in events(out) if e.kind == "summary")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Goal", "## Constraints", "## Progress", "## Decisions", "## Errors", "## Files", "## Facts", "## Covers"]
    for value in ("db.staging.internal:5432", "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", "config/ci.toml", "never push to main"):
        assert value in text


def test_deterministic():
    data = (OWN / "adk-session.jsonl").read_bytes()
    assert run_lib(data, threshold_tokens=1, keep_recent=2)[0] == run_lib(data, threshold_tokens=1, keep_recent=2)[0]


def test_second_run_merges_seed_and_never_nests(tmp_path):
    data = (OWN / "horizon-events.jsonl").read_bytes()
    first, _ = run_lib(data, threshold_tokens=1, keep_recent=2)
    extra = b'{"event": "message", "id": "h9", "role": "user", "text": "Also bump the chart to 4.5.6."}\n' \
            b'{"event": "message", "id": "h10", "role": "assistant", "text": "Bumped."}\n' \
            b'{"event": "message", "id": "h11", "role": "user", "text": "Thanks. Anything else?"}\n'
    second, result = run_lib(first + extra, threshold_tokens=1, keep_recent=1)
    assert result.compacted
    texts = [e.text for e in events(second) if e.kind == "summary"]
    assert len(texts) == 1
    text = texts[0]
    assert text.count(BANNER) == 1 and text.count("## Goal") == 1
    assert "Upgrade the service to Python 3.12.4" in text  # the seed's goal survives
    assert "4.5.6" in text and "3.10.14" in text


def test_tool_pair_is_never_split():
    # keep_recent=1 would keep only the result; the cut must move back to its call.
    lines = [
        {"event": "message", "id": "1", "role": "user", "text": "go " * 50},
        {"event": "message", "id": "2", "role": "assistant", "text": "working " * 50},
        {"event": "tool_call", "id": "3", "role": "assistant", "calls": [{"id": "c", "name": "shell", "arguments": {"command": "ls"}}]},
        {"event": "tool_result", "id": "4", "results": [{"call_id": "c", "output": "a b"}]},
    ]
    data = b"".join(orjson.dumps(x) + b"\n" for x in lines)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=1)
    kept = [e.id for e in events(out) if e.kind != "summary"]
    assert kept[-2:] == ["3", "4"] and result.covers["events"] == 1  # only "2" summarized; "1" held


def test_long_running_call_moves_the_cut_back_past_the_window(monkeypatch):
    """The call left the keep-recent window long before its result: the range is redone exactly."""
    from horizon_cli.compaction import pipeline

    redone = []
    original = pipeline._range_pass
    monkeypatch.setattr(pipeline, "_range_pass", lambda *a: redone.append(1) or original(*a))
    rows = [{"event": "message", "id": "q", "role": "user", "text": "start " * 30},
            {"event": "message", "id": "a1", "role": "assistant", "text": "planning " * 30},
            {"event": "message", "id": "a2", "role": "assistant", "text": "decided to use /opt/build.sh"},
            {"event": "tool_call", "id": "c", "role": "assistant", "calls": [{"id": "slow", "name": "build", "arguments": {}}]}]
    rows += [{"event": "message", "id": f"m{n}", "role": "assistant", "text": f"waiting {n} " * 20} for n in range(100)]
    rows += [{"event": "tool_result", "id": "r", "results": [{"call_id": "slow", "output": "built sha256:" + "ab" * 32}]},
             {"event": "message", "id": "end", "role": "assistant", "text": "done"}]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    ids = [e.id for e in events(out)]
    assert ids[0].startswith("horizon-summary") and ids[1:3] == ["q", "c"] and ids[-2:] == ["r", "end"]
    assert result.compacted and result.plan.cut == 3 and result.covers["events"] == 2 and redone == [1]
    assert (result.covers["first_id"], result.covers["last_id"], result.covers["held_line"]) == ("a1", "a2", 1)


def test_claude_chain_still_resolves_after_compaction():
    """Walking parentUuid from the last line reaches the summary and then the live question."""
    data = fixture_path("daaain-55550000-0000-4000-8000-000000000001.jsonl").read_bytes()
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    lines = {}
    for raw in out.splitlines():
        obj = orjson.loads(raw)
        lines[obj["uuid"]] = obj
    chain, node = [], orjson.loads(out.splitlines()[-1])
    while node is not None:
        chain.append(node)
        node = lines.get(node.get("parentUuid"))
    kinds = [("summary" if n.get("isCompactSummary") else n["uuid"]) for n in reversed(chain)]
    assert kinds == ["sc-u1", "summary", "sc-a4", "sc-r4", "sc-r5", "sc-a5"]  # parallel calls kept with results
    assert result.covers["held_line"] == 1


@pytest.mark.parametrize("append_only", [False, True])
def test_adk_compaction_ranges_never_hide_the_live_question(append_only):
    """ADK drops every event inside a compaction's time range; the held question must stay visible."""
    def event(n, author, part):
        return {"id": f"e{n}", "invocationId": "i", "author": author, "timestamp": 100.0 + n,
                "content": {"role": "user" if author == "user" else "model", "parts": [part]}, "actions": {}}

    rows = [event(0, "agent", {"text": "warming up " * 20}), event(1, "user", {"text": "Plan the trip to 2026-05-01."})]
    rows += [event(n, "agent", {"text": f"step {n} " * 30}) for n in range(2, 10)]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2, append_only=append_only)
    assert result.covers["held_line"] == 2
    lines = [orjson.loads(x) for x in out.splitlines()]
    ranges = [(x["actions"]["compaction"]["startTimestamp"], x["actions"]["compaction"]["endTimestamp"])
              for x in lines if "compaction" in x.get("actions", {})]
    visible = [x["id"] for x in lines if "compaction" not in x.get("actions", {})
               and not any(lo <= x["timestamp"] <= hi for lo, hi in ranges)]
    assert visible == ["e1", "e8", "e9"]


def test_codex_ui_echoes_go_with_their_content_unknown_records_stay():
    def line(kind, payload):
        return {"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload}

    rows = [
        line("session_meta", {"id": "s"}),
        line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go " * 50}]}),
        line("response_item", {"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"ls\"]}", "call_id": "c1"}),
        line("event_msg", {"type": "exec_command_end", "call_id": "c1", "aggregated_output": "x" * 5000}),
        line("response_item", {"type": "function_call_output", "call_id": "c1", "output": "a b"}),
        line("event_msg", {"type": "brand_new_event", "n": 1}),
        line("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "listed"}]}),
        line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "thanks"}]}),
        line("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "bye"}]}),
    ]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    assert result.compacted and b"exec_command_end" not in out and b"brand_new_event" in out
    assert out.splitlines()[0] == data.splitlines()[0]  # session_meta stays first


def test_claude_rewound_branch_is_passed_through_not_summarized():
    data = fixture_path("daaain-dag_compact_after_rewind.jsonl").read_bytes()
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    summary = next(e.text for e in events(out) if e.kind == "summary" and e.text.startswith(BANNER))
    assert "First attempt" not in summary and "First answer" not in summary  # the abandoned branch
    assert "Second attempt" in summary and "Keep going" in summary
    dead = [line for line in data.splitlines(keepends=True) if b'"uuid":"b1u"' in line or b'"uuid":"b1a"' in line]
    assert len(dead) == 2 and all(line in out.splitlines(keepends=True) for line in dead)
    assert result.covers["events"] == 7


def test_claude_linear_chain_is_not_branched():
    from horizon_cli.compaction.branches import dead_lines

    data = fixture_path("daaain-55550000-0000-4000-8000-000000000001.jsonl").read_bytes()
    assert dead_lines(data.splitlines()) == set()
    dag = fixture_path("daaain-dag_compact_after_rewind.jsonl").read_bytes()
    assert dead_lines(dag.splitlines()) == {3, 4}


def test_claude_message_id_groups_are_not_split():
    base = {"type": "assistant", "sessionId": "s"}
    rows = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "q " * 40}},
        {**base, "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "t " * 40}]}},
        {**base, "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "x"}]}},
        {**base, "uuid": "a3", "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "y"}]}},
    ]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, _ = run_lib(data, threshold_tokens=1, keep_recent=1)
    assert [e.id for e in events(out)][-2:] == ["a2", "a3"]


def test_nothing_to_compact_is_unchanged():
    data = (OWN / "horizon-events.jsonl").read_bytes()
    out, result = run_lib(data, threshold_tokens=1, keep_recent=100)
    assert out == data and not result.compacted and result.plan.over


def test_empty_input_is_empty_output(hz):
    assert hz(input="") == (0, "", "")
    assert hz(input="\n\n")[:2] == (0, "\n\n")


def test_prune_marker_is_fixed_and_idempotent():
    big = "x" * 5000
    once = prune_output(big, 100)
    assert once.startswith(MARKER_PREFIX) and "5000 chars" in once
    assert prune_output(once, 100) == once and prune_output(once, 10) == once
    assert prune_output("short", 100) == "short"


def test_pruned_outputs_reach_the_external_summarizer(tmp_path):
    rows = [
        {"event": "message", "id": "1", "role": "user", "text": "go"},
        {"event": "tool_call", "id": "2", "role": "assistant", "calls": [{"id": "c", "name": "cat", "arguments": {}}]},
        {"event": "tool_result", "id": "3", "results": [{"call_id": "c", "output": "y" * 3000}]},
        {"event": "message", "id": "4", "role": "assistant", "text": "done"},
    ]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    seen = tmp_path / "stdin.jsonl"
    out, _ = run_lib(data, threshold_tokens=1, keep_recent=1, prune_chars=100, summarizer=f"tee {seen} | wc -l")
    lines = [orjson.loads(x) for x in seen.read_bytes().splitlines()]
    assert [x["event"] for x in lines] == ["tool_call", "tool_result"]
    assert lines[1]["results"][0]["output"].startswith(MARKER_PREFIX)
    summary = next(e for e in events(out) if e.kind == "summary")
    assert summary.text.startswith(BANNER) and "\n2\n" in summary.text + "\n"


def test_check_exit_codes(hz, snapshot):
    path = local("openai-chat.jsonl")
    assert hz("--check", path) == snapshot
    assert hz("--check", "--threshold-tokens", "100", path) == snapshot
    code, out, _ = hz("--check", "--format", "json", "--threshold-tokens", "100", path)
    report = orjson.loads(out)
    assert code == 1 and report["over_threshold"] and report["token_source"] == "usage"


def test_stats_go_to_stderr_when_the_transcript_goes_to_stdout(hz):
    code, out, err = hz("--stats", *FORCED, OWN / "adk-session.jsonl")
    assert code == 0 and "compacted: 6 of 8 events summarized" in err and BANNER[:20] in out


def test_cli_output_snapshots(hz, snapshot, tmp_path):
    facts = tmp_path / "facts.jsonl"  # the working directory
    for name in ("horizon-events.jsonl", "openai-chat.jsonl", "adk-session.jsonl"):
        assert hz(*FORCED, "--facts-out", "facts.jsonl", local(name)) == snapshot(name=name)
    assert facts.read_text() == snapshot(name="facts.jsonl")


def test_stats_json_schema(hz, tmp_path, snapshot):
    out_file = tmp_path / "out.jsonl"
    code, out, _ = hz("--stats", "--format", "json", *FORCED, "-o", out_file, OWN / "horizon-events.jsonl")
    report = orjson.loads(out)
    report["file"] = Path(report["file"]).name
    assert code == 0 and report == snapshot


def test_output_file_and_in_place(hz, tmp_path):
    src = tmp_path / "t.jsonl"
    data = (OWN / "horizon-events.jsonl").read_bytes()
    src.write_bytes(data)
    os.chmod(src, 0o640)
    out = tmp_path / "o.jsonl"
    assert hz(*FORCED, "-o", out, src) == (0, "", "")
    assert src.read_bytes() == data  # the input is never modified without --in-place
    expected = out.read_bytes()
    assert hz("--in-place", src) == (0, "", "")  # under the threshold: untouched
    assert src.read_bytes() == data
    assert hz(*FORCED, "--in-place", src) == (0, "", "")
    assert src.read_bytes() == expected and oct(src.stat().st_mode & 0o777) == "0o640"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl", "t.jsonl"]  # no temp files left


def test_stdin_to_stdout(hz):
    data = (OWN / "openai-chat.jsonl").read_text()
    code, out, _ = hz(*FORCED, input=data)
    assert code == 0 and out.startswith('{"role": "system"') and "horizon_summary" in out


def test_usage_errors(hz, tmp_path):
    assert hz("--in-place")[0] == 2
    assert hz("--in-place", "-o", "x", OWN / "adk-session.jsonl")[0] == 2
    assert hz("--check", "-o", "x", OWN / "adk-session.jsonl")[0] == 2
    code, _, err = hz(tmp_path / "missing.jsonl")
    assert code == 2 and "missing.jsonl: cannot read" in err


def test_unwritable_output_is_an_input_error(hz, tmp_path):
    code, _, err = hz("-o", tmp_path / "no" / "out.jsonl", OWN / "adk-session.jsonl")
    assert code == 2 and "out.jsonl: cannot write output: No such file or directory" in err
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "x").write_text("")
    code, _, err = hz("-o", tmp_path / "dir", OWN / "adk-session.jsonl")
    assert code == 2 and "cannot write output" in err
    assert sorted(p.name for p in (tmp_path / "dir").iterdir()) == ["x"]


def test_undetectable_format_is_exit_2(hz, tmp_path):
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"hello": 1}\n')
    code, out, err = hz(odd)
    assert code == 2 and out == ""
    assert err == f"horizon: error: {odd}: cannot detect the transcript format from its first lines; " \
                  "pass --input-format (horizon|openai|claude|codex|adk)\n"


def test_malformed_input_writes_nothing(hz, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"role": "user", "content": "hi"}\n{"role": \n')
    out = tmp_path / "out.jsonl"
    code, stdout, err = hz("-o", out, bad)
    assert code == 2 and err.startswith(f"horizon: error: {bad}:2: malformed JSON: ")
    assert not out.exists() and stdout == ""


def test_forced_input_format(hz):
    code, _, err = hz("--input-format", "codex", "--check", OWN / "openai-chat.jsonl")
    assert code == 0  # nothing parses as content: 0 tokens


def test_policy_supplies_defaults(hz, tmp_path):
    policy = tmp_path / "p.toml"
    policy.write_text("[compact]\nthreshold_tokens = 1\nkeep_recent = 2\n")
    code, out, _ = hz("--policy", policy, OWN / "adk-session.jsonl")
    assert code == 0 and "horizon-summary" in out
    code, out, _ = hz("--policy", policy, "--threshold-tokens", "100000", OWN / "adk-session.jsonl")
    assert out.encode() == (OWN / "adk-session.jsonl").read_bytes()  # the flag overrides the policy
    policy.write_text("[compact]\nthreshold_tokens = 1\nkeep_recent = 2\nsummarizer = \"echo from-policy\"\n")
    code, out, _ = hz("--policy", policy, OWN / "adk-session.jsonl")
    assert code == 0 and "from-policy" in out
    code, out, _ = hz("--policy", policy, "--summarizer", "builtin", OWN / "adk-session.jsonl")
    assert code == 0 and "from-policy" not in out and "## Goal" in out


def test_progress_bar_on_request(hz):
    code, out, err = hz("--progress", *FORCED, OWN / "adk-session.jsonl")
    assert code == 0 and "horizon compact: compact" in err and "100%" in err and err.endswith("\r\x1b[K")
    assert hz("--no-progress", *FORCED, OWN / "adk-session.jsonl")[2] == ""


def test_help_documents_exit_codes(hz):
    code, out, _ = hz("--help")
    assert code == 0
    for line in ("0  compacted", "1  --check", "2  usage error", "3  the facts flush or the summarizer failed"):
        assert line in out


def test_compacted_output_is_no_longer_over_the_threshold():
    """Usage kept verbatim after a summary measured the old context; the estimate decides."""
    rows = [{"event": "message", "id": "q", "role": "user", "text": "go " * 400},
            *({"event": "message", "id": f"a{n}", "role": "assistant", "text": "work " * 300} for n in range(6)),
            {"event": "message", "id": "last", "role": "assistant", "text": "ok", "usage": {"input_tokens": 9000}}]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run_lib(data, threshold_tokens=5000, keep_recent=2)
    assert result.compacted and result.plan.token_source == "usage"
    again = check(io.BytesIO(out), "out", Options(threshold_tokens=5000, keep_recent=2))
    assert not again.plan.over and again.plan.token_source == "estimate"


def test_check_library_reads_only():
    data = (OWN / "adk-session.jsonl").read_bytes()
    result = check(io.BytesIO(data), "a", Options(threshold_tokens=100))
    assert result.plan.over and result.plan.token_source == "usage" and not result.compacted


def test_compact_never_imports_bashlex():
    import subprocess
    import sys

    source = str(OWN / "openai-chat.jsonl")
    code = "import sys; from horizon_cli.cli import main\n" \
           f"sys.argv = ['horizon', 'compact', '--no-config', '--threshold-tokens', '1', '--stats', {source!r}]\n" \
           "try:\n    main()\nexcept SystemExit:\n    pass\nassert 'bashlex' not in sys.modules, 'bashlex imported'"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and "compacted:" in proc.stderr, proc.stderr


def test_summary_sections_are_capped_keeping_first_facts_and_latest_progress():
    from horizon_cli.compaction.facts import Fact
    from horizon_cli.compaction.summarize import LIMITS, SummaryBuilder, parse_sections

    builder = SummaryBuilder()
    builder.add_facts(Fact(f"v1.2.{n}", "version", n) for n in range(LIMITS["Facts"] + 5))
    builder.add_facts(Fact(f"Error number {n} happened", "error", n) for n in range(LIMITS["Errors"] + 3))
    text = builder.render()
    sections = parse_sections(text)
    assert sections["Facts"][0] == "- version: v1.2.0" and len(sections["Facts"]) == LIMITS["Facts"]
    assert "- (+5 more; see the facts file)" in text
    assert sections["Errors"][-1] == f"- Error number {LIMITS['Errors'] + 2} happened"
    assert "- (+3 earlier, not shown)" in text


def test_range_of_only_abandoned_branches_is_left_alone():
    rows = [
        {"type": "user", "uuid": "q", "parentUuid": None, "message": {"role": "user", "content": "start " * 50}},
        {"type": "assistant", "uuid": "x1", "parentUuid": "q", "message": {"role": "assistant", "content": "old " * 50}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "q", "message": {"role": "assistant", "content": "new " * 50}},
        {"type": "assistant", "uuid": "a2", "parentUuid": "a1", "message": {"role": "assistant", "content": "done"}},
    ]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run_lib(data, threshold_tokens=1, keep_recent=2)
    assert out == data and not result.compacted
