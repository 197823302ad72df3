"""Property tests for the halt controller's named invariants."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from horizon_cli.checkpoint import loads_strict, seal_document, verify_document
from horizon_cli.halt import INITIAL_STATE, HaltConfig, step
from horizon_cli.halt.replay import replay
from horizon_cli.halt.statefile import build_document, document_state

SIGNATURES = st.sampled_from(["p0", "p1", "same"])
FAILURES = st.sampled_from(["E1", "E2", None])


@st.composite
def actions(draw):
    kind = draw(st.sampled_from(["observe"] * 5 + ["before_model"] * 3 + ["turn_boundary", "tool_call"]))
    action = {"type": kind}
    if kind == "observe":
        if draw(st.booleans()):
            action["progress"] = draw(SIGNATURES)
        if draw(st.booleans()):
            action["failure"] = draw(FAILURES)
        if draw(st.integers(0, 3)) == 0:
            action["action"] = draw(st.sampled_from(["ls", "cd x", "cd .."]))
    return action


configs = st.builds(
    HaltConfig,
    max_iterations=st.integers(1, 8),
    no_progress_limit=st.integers(1, 4),
    repeated_failure_limit=st.integers(1, 4),
    max_tool_calls_per_iteration=st.integers(0, 3),
    delivery=st.sampled_from(["once", "sticky"]),
    stuck_detection=st.booleans(),
    stuck_repeat=st.integers(1, 5),
    ping_pong_window=st.integers(2, 7),
)


def decisions_of(config, state, log):
    out = []
    for action in log:
        state, decision = step(config, state, action)
        out.append(decision)
    return state, out


def through_state_file(config, state, count):
    """Save, seal, serialize, parse, verify and load: what --state-out/--state-in do."""
    sealed = seal_document(build_document(state, config, count))
    parsed = loads_strict(orjson.dumps(sealed, option=orjson.OPT_INDENT_2), "state.json")
    assert verify_document(parsed).ok
    loaded, saved_config, saved_count = document_state(parsed)
    assert saved_config == config.to_dict() and saved_count == count
    return loaded


@settings(max_examples=150, deadline=None)
@given(config=configs, log=st.lists(actions(), max_size=40))
def test_resume_at_every_split_point_equals_one_run(config, log):
    """For every k: run k actions, save the state, resume with the rest == one uninterrupted run."""
    final, whole = decisions_of(config, INITIAL_STATE, log)
    for k in range(len(log) + 1):
        middle, first = decisions_of(config, INITIAL_STATE, log[:k])
        resumed = through_state_file(config, middle, k)
        end, rest = decisions_of(config, resumed, log[k:])
        assert first + rest == whole
        assert end == final


@settings(max_examples=100, deadline=None)
@given(config=configs, log=st.lists(actions(), max_size=40))
def test_replay_of_jsonl_equals_stepping_the_reducer(config, log):
    """The streaming driver (with blank lines) decides exactly what the reducer does."""
    lines = []
    for action in log:
        lines += [orjson.dumps(action) + b"\n", b"  \n"]
    seen = []
    result = replay(lines, "log", config, on_step=lambda n, raw, a, s, d: seen.append(d))
    final, expected = decisions_of(config, INITIAL_STATE, log)
    assert seen == expected
    assert result.state == final
    assert result.halts == sum(d.halt for d in expected)


@settings(max_examples=100, deadline=None)
@given(config=configs, log=st.lists(actions(), max_size=40))
def test_halts_only_on_before_model_and_never_twice_in_once_mode(config, log):
    """Only before_model halts, and only with a reason; in once delivery a halt consumes the pending
    reason. The stuck window never outgrows its bound, and turn_boundary always restores the initial state."""
    state = INITIAL_STATE
    for action in log:
        state, decision = step(config, state, action)
        assert len(state.recent) <= config.window
        if action["type"] == "turn_boundary":
            assert state == INITIAL_STATE
        if decision.halt:
            assert action["type"] == "before_model"
            assert decision.reason is not None
            if config.delivery == "once":
                assert state.pending is None


@settings(max_examples=100, deadline=None)
@given(config=configs, log=st.lists(actions(), max_size=30))
def test_trace_records_are_the_state_and_decision_as_json(config, log):
    """The hand-templated jsonl encoder writes exactly what a plain JSON encoding would."""
    from horizon_cli.halt.render import TraceWriter
    from horizon_cli.halt.statefile import state_to_dict

    written: list[bytes] = []
    write, state = TraceWriter(written.append), INITIAL_STATE
    for line, action in enumerate(log, start=1):
        state, decision = step(config, state, action)
        write(line, orjson.dumps(action) + b"\n", action, state, decision)
        record = orjson.loads(written[-1])
        assert record == {
            "line": line, "type": action["type"], "halt": decision.halt, "reason": decision.reason,
            "iteration": decision.iteration, "handoff": decision.handoff,
            "state": orjson.loads(orjson.dumps(state_to_dict(state))), "action": action,
        }
