"""Planted facts and properties over generated transcripts in every format.

``generate`` builds a neutral conversation; ``render`` writes it in one of the
five formats (also used by ``tests/perf/bench_compact.py``).
"""

from __future__ import annotations

import hashlib
import io
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horizon_cli.compaction import Options, compact
from horizon_cli.compaction.decide import is_pinned
from horizon_cli.transcript import FORMATS, read_transcript

WORDS = ("the quick agent reads a long file and thinks about the next step while the build "
         "keeps running so nothing here is a concrete value worth keeping").split()
PLANTED = {
    "path": "/srv/planted/config-7.toml",
    "host": "db-planted-7.internal:6543",
    "version": "9.8.7-rc2",
    "hash": "4f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d",
    "uuid": "0b9f5c7e-3a2d-4e1f-9c8b-7a6d5e4f3c2b",
    "ticket": "PLANT-4242",
    "url": "https://planted.example.com/v1/hooks?id=77",
    "constraint": "You must never delete the audit-log bucket.",
    "tool_hash": "sha256:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b",
    "tool_path": "/var/lib/planted/state.db",
}


def filler(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def generate(rng: random.Random, turns: int, planted: bool = True, output_words: int = 60) -> list[tuple]:
    """A conversation: ``(kind, ...)`` tuples; user/assistant text, call/result pairs."""
    convo: list[tuple] = []
    if planted:
        convo.append(("user", f"Deploy {PLANTED['path']} to {PLANTED['host']} at version {PLANTED['version']} "
                              f"(commit {PLANTED['hash']}, run {PLANTED['uuid']}, ticket {PLANTED['ticket']}, "
                              f"hook {PLANTED['url']}). {PLANTED['constraint']}"))
        convo.append(("call", "call-p0", "shell", {"command": "cat /etc/deploy.conf"}))
        convo.append(("result", "call-p0", f"state in {PLANTED['tool_path']}, digest {PLANTED['tool_hash']}", False))
    else:
        convo.append(("user", filler(rng, 20)))
    for index in range(turns):
        roll = rng.random()
        if roll < 0.4:
            call_id = f"call-{index}"
            convo.append(("call", call_id, rng.choice(["shell", "read_file", "grep"]), {"command": filler(rng, 5)}))
            convo.append(("result", call_id, filler(rng, output_words), rng.random() < 0.1))
        elif roll < 0.9:
            convo.append(("assistant", filler(rng, 30)))
        else:
            convo.append(("user", filler(rng, 12)))
    convo.append(("user", "What is the status now?"))
    convo.append(("assistant", "Checking."))
    return convo


def render(fmt: str, convo: list[tuple], offset: int = 0) -> bytes:
    """``convo`` in format ``fmt``; ``offset`` shifts generated ids so blocks can be concatenated."""
    lines = [orjson.dumps(x) for x in _RENDER[fmt](convo, offset)]
    return b"\n".join(lines) + b"\n"


def _horizon(convo, offset=0):
    yield {"event": "meta", "session": "gen"}
    for n, item in enumerate(convo, start=offset):
        if item[0] in ("user", "assistant"):
            yield {"event": "message", "id": f"e{n}", "role": item[0], "text": item[1]}
        elif item[0] == "call":
            yield {"event": "tool_call", "id": f"e{n}", "role": "assistant", "calls": [{"id": item[1], "name": item[2], "arguments": item[3]}]}
        else:
            yield {"event": "tool_result", "id": f"e{n}", "results": [{"call_id": item[1], "output": item[2], "is_error": item[3]}]}


def _openai(convo, offset=0):
    yield {"role": "system", "content": "You are a deployment agent."}
    for item in convo:
        if item[0] in ("user", "assistant"):
            yield {"role": item[0], "content": item[1]}
        elif item[0] == "call":
            yield {"role": "assistant", "content": None, "tool_calls": [
                {"id": item[1], "type": "function", "function": {"name": item[2], "arguments": orjson.dumps(item[3]).decode()}}]}
        else:
            yield {"role": "tool", "tool_call_id": item[1], "content": item[2]}


def _claude(convo, offset=0):
    yield {"type": "summary", "summary": "generated", "leafUuid": "x"}
    parent = f"u{offset - 1}" if offset else None
    for n, item in enumerate(convo, start=offset):
        base = {"uuid": f"u{n}", "parentUuid": parent, "sessionId": "gen", "timestamp": f"2026-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}Z"}
        parent = base["uuid"]
        if item[0] == "user":
            yield {"type": "user", **base, "message": {"role": "user", "content": item[1]}}
        elif item[0] == "assistant":
            yield {"type": "assistant", **base, "message": {"id": f"m{n}", "role": "assistant", "content": [{"type": "text", "text": item[1]}]}}
        elif item[0] == "call":
            yield {"type": "assistant", **base, "message": {"id": f"m{n}", "role": "assistant", "content": [
                {"type": "tool_use", "id": item[1], "name": item[2], "input": item[3]}]}}
        else:
            yield {"type": "user", **base, "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": item[1], "content": item[2], "is_error": item[3]}]}}


def _codex(convo, offset=0):
    yield {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "gen", "cwd": "/w"}}
    for item in convo:
        ts = "2026-01-01T00:00:01Z"
        if item[0] in ("user", "assistant"):
            kind = "input_text" if item[0] == "user" else "output_text"
            if item[0] == "user":
                yield {"timestamp": ts, "type": "event_msg", "payload": {"type": "user_message", "message": item[1]}}
            yield {"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": item[0], "content": [{"type": kind, "text": item[1]}]}}
        elif item[0] == "call":
            yield {"timestamp": ts, "type": "response_item", "payload": {"type": "function_call", "name": item[2],
                   "arguments": orjson.dumps(item[3]).decode(), "call_id": item[1]}}
        else:
            yield {"timestamp": ts, "type": "response_item", "payload": {"type": "function_call_output", "call_id": item[1], "output": item[2]}}


def _adk(convo, offset=0):
    for n, item in enumerate(convo, start=offset):
        base = {"id": f"e{n}", "invocationId": "inv", "timestamp": 1767225600.0 + n, "actions": {}}
        if item[0] == "user":
            yield {**base, "author": "user", "content": {"role": "user", "parts": [{"text": item[1]}]}}
        elif item[0] == "assistant":
            yield {**base, "author": "agent", "content": {"role": "model", "parts": [{"text": item[1]}]}}
        elif item[0] == "call":
            yield {**base, "author": "agent", "content": {"role": "model", "parts": [{"functionCall": {"id": item[1], "name": item[2], "args": item[3]}}]}}
        else:
            body = {"error": item[2]} if item[3] else {"result": item[2]}
            yield {**base, "author": "agent", "content": {"role": "user", "parts": [{"functionResponse": {"id": item[1], "name": "tool", "response": body}}]}}


_RENDER = {"horizon": _horizon, "openai": _openai, "claude": _claude, "codex": _codex, "adk": _adk}


def run(data: bytes, **options) -> tuple[bytes, object]:
    out = io.BytesIO()
    result = compact(io.BytesIO(data), "gen.jsonl", out, Options(**options))
    return out.getvalue(), result


def events(data: bytes):
    return list(read_transcript(io.BytesIO(data), "out"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_planted_values_survive_compaction(fmt, tmp_path):
    data = render(fmt, generate(random.Random(7), turns=400))
    facts = tmp_path / "facts.jsonl"
    out, result = run(data, threshold_tokens=2000, keep_recent=6, facts_out=str(facts))
    assert result.compacted and len(out) < len(data) / 5
    summary = next(e.text for e in events(out) if e.kind == "summary")
    kept_facts = facts.read_text()
    for name, value in PLANTED.items():
        assert value in summary or orjson.dumps(value).decode()[1:-1] in kept_facts, (fmt, name)
    assert PLANTED["constraint"] in summary  # constraints make it into the summary itself
    # a second run over the same input flushes nothing new
    before = facts.read_bytes()
    run(data, threshold_tokens=2000, keep_recent=6, facts_out=str(facts))
    assert facts.read_bytes() == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(FORMATS),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 40),
    keep=st.integers(0, 8),
    threshold=st.integers(1, 3000),
    append_only=st.booleans(),
)
def test_compaction_invariants(fmt, seed, turns, keep, threshold, append_only):
    """Named invariants: (1) under the threshold the output is the input, byte for byte;
    (2) otherwise the output reads back in the same format, (3) every kept tool result
    has its call, (4) the live question and (5) the last keep_recent events are verbatim,
    (6) exactly one horizon summary, (7) metadata lines survive, (8) the covers record
    hashes and counts exactly the summarized lines."""
    rng = random.Random(seed)
    data = render(fmt, generate(rng, turns, planted=rng.random() < 0.5, output_words=rng.randint(1, 300)))
    out, result = run(data, threshold_tokens=threshold, keep_recent=keep, prune_chars=200, append_only=append_only)
    if not result.compacted:
        assert out == data
        return
    before, after = events(data), events(out)
    assert {e.format for e in after} == {fmt}
    calls = {c.id for e in after for c in e.tool_calls}
    assert all(r.call_id in calls for e in after for r in e.tool_results)
    raws = [e.raw for e in after]
    question = [e for e in before if e.is_question][-1]
    assert question.raw in raws
    content = [e.raw for e in before if e.kind != "meta" and e.role not in ("system", "developer")]
    tail = content[-keep:] if keep else []
    assert all(raw in raws for raw in tail)
    assert sum(1 for e in after if e.kind == "summary" and e.text.startswith("[REFERENCE ONLY")) == 1
    assert all(e.raw in raws for e in before if e.kind == "meta" and not e.mirror)
    if append_only:
        assert out.startswith(data)
    # (8) the covers hash is over exactly the summarized lines, in file order
    plan = result.plan
    covered = [e for i, e in enumerate(before) if i < plan.cut and i != plan.held and not is_pinned(e)]
    assert result.covers["sha256"] == "sha256:" + hashlib.sha256(b"".join(e.raw for e in covered)).hexdigest()
    assert result.covers["events"] == len(covered)


@settings(max_examples=25, deadline=None)
@given(fmt=st.sampled_from(FORMATS), seed=st.integers(0, 10_000))
def test_recompaction_never_nests(fmt, seed):
    """Compacting an already compacted transcript merges the summary: one banner, one Goal."""
    rng = random.Random(seed)
    convo = generate(rng, 30)
    once, _ = run(render(fmt, convo), threshold_tokens=1, keep_recent=3)
    more = render(fmt, generate(rng, 10, planted=False))
    tail = more.split(b"\n", 1)[1] if fmt in ("horizon", "openai", "claude", "codex") else more
    twice, result = run(once + tail, threshold_tokens=1, keep_recent=3)
    assert result.compacted
    texts = [e.text for e in events(twice) if e.kind == "summary"]
    assert len(texts) == 1 and texts[0].count("[REFERENCE ONLY") == 1 and texts[0].count("## Goal") == 1
    assert PLANTED["constraint"] in texts[0]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(3, 30), keep=st.integers(0, 6))
def test_claude_dead_branches_never_reach_the_summary(seed, turns, keep):
    """A rewind (a second child of some line) is not the conversation: never summarized, never lost."""
    rng = random.Random(seed)
    rows = list(_claude(generate(rng, turns, planted=False)))
    fork = rng.randint(1, len(rows) - 4)
    dead = [
        {"type": "user", "uuid": "dead-1", "parentUuid": rows[fork]["uuid"], "sessionId": "gen",
         "message": {"role": "user", "content": "DEADBRANCH abandoned request"}},
        {"type": "assistant", "uuid": "dead-2", "parentUuid": "dead-1", "sessionId": "gen",
         "message": {"id": "dm", "role": "assistant", "content": [{"type": "text", "text": "DEADBRANCH answer"}]}},
    ]
    rows = rows[: fork + 1] + dead + rows[fork + 1:]
    data = b"".join(orjson.dumps(r) + b"\n" for r in rows)
    out, result = run(data, threshold_tokens=1, keep_recent=keep)
    if not result.compacted:
        return
    summary = next(e.text for e in events(out) if e.kind == "summary" and e.text.startswith("[REFERENCE ONLY"))
    assert "DEADBRANCH" not in summary
    assert out.count(b"DEADBRANCH") == 2


@settings(max_examples=40, deadline=None)
@given(fmt=st.sampled_from(FORMATS), seed=st.integers(0, 10_000), turns=st.integers(0, 60), keep=st.integers(0, 6))
def test_speculation_never_changes_the_result(fmt, seed, turns, keep):
    """The single pass takes events early (behind the keep window); the result must be exactly what
    taking them after the decision gives: margin 0 (speculate as much as possible, often redo),
    the default, and no speculation at all produce the same bytes."""
    from horizon_cli.compaction import pipeline

    data = render(fmt, generate(random.Random(seed), turns, planted=seed % 2 == 0))
    outputs = []
    default = pipeline._MARGIN
    try:
        for margin in (0, default, 10**9):
            pipeline._MARGIN = margin
            outputs.append(run(data, threshold_tokens=1, keep_recent=keep)[0])
    finally:
        pipeline._MARGIN = default
    assert outputs[0] == outputs[1] == outputs[2]
