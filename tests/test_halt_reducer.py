"""The pure reducer: conformance with the TypeScript/Rust traces, seed semantics, extensions."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from horizon_cli.halt import INITIAL_STATE, ActionError, ConfigError, HaltConfig, HaltState, step
from horizon_cli.halt.statefile import StateError, state_from_dict, state_to_dict


def _traces():
    path = shared_path("conformance", "halt_traces.jsonl")
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_conformance_traces_match_exactly():
    traces = _traces()
    assert len(traces) == 25
    for number, trace in enumerate(traces, start=1):
        config = HaltConfig.from_mapping(trace["config"])
        state = INITIAL_STATE
        for index, (action, expected) in enumerate(zip(trace["actions"], trace["decisions"], strict=True)):
            state, decision = step(config, state, action)
            got = {"halt": decision.halt, "reason": decision.reason, "iteration": decision.iteration}
            assert got == expected, f"trace {number}, action {index}: {action}"
        assert state_to_dict(state) == trace["final_state"], f"trace {number}: final state"


def run(actions, **config):
    cfg = HaltConfig(**config)
    state, decisions = INITIAL_STATE, []
    for action in actions:
        state, decision = step(cfg, state, action)
        decisions.append(decision)
    return state, decisions


def halts(decisions):
    return [(i, d.reason) for i, d in enumerate(decisions) if d.halt]


OBSERVE = {"type": "observe"}
MODEL = {"type": "before_model"}


def test_observe_arms_but_never_halts():
    state, decisions = run([OBSERVE] * 5, max_iterations=2)
    assert not any(d.halt for d in decisions)
    assert state.pending == "iteration-budget"
    assert state.iteration == 5


def test_before_model_consumes_the_pending_reason_once():
    _, decisions = run([OBSERVE, OBSERVE, MODEL, MODEL], max_iterations=2)
    assert halts(decisions) == [(2, "iteration-budget")]
    assert decisions[2].iteration == 2


def test_no_progress_counts_repeats_of_one_signature():
    same = {"type": "observe", "progress": "p"}
    state, decisions = run([same, same, same, MODEL], no_progress_limit=2)
    assert state.stale_count == 2
    assert halts(decisions) == [(3, "no-progress")]


def test_absent_progress_leaves_the_stale_count_alone_and_cannot_arm():
    same = {"type": "observe", "progress": "p"}
    state, decisions = run([same, same, OBSERVE, MODEL], no_progress_limit=1)
    assert state.last_progress == "p" and state.stale_count == 1
    assert halts(decisions) == [(3, "no-progress")]  # armed by the second observe, not the third
    state, decisions = run([same, same, MODEL, OBSERVE, MODEL], no_progress_limit=1)
    assert halts(decisions) == [(2, "no-progress")]


def test_repeated_failure_streak_success_clears_absent_keeps():
    fail = {"type": "observe", "failure": "E"}
    ok = {"type": "observe", "failure": None}
    state, _ = run([fail, fail, OBSERVE])
    assert (state.last_failure, state.failure_repeat) == ("E", 2)
    state, _ = run([fail, fail, ok])
    assert (state.last_failure, state.failure_repeat) == (None, 0)
    state, _ = run([fail, {"type": "observe", "failure": "F"}])
    assert (state.last_failure, state.failure_repeat) == ("F", 1)
    _, decisions = run([fail, fail, fail, MODEL])
    assert halts(decisions) == [(3, "repeated-failure")]


def test_first_armed_reason_wins_and_is_never_overwritten():
    both = {"type": "observe", "progress": "p", "failure": "E"}
    # Iteration budget is checked first.
    state, _ = run([both, both], max_iterations=2, no_progress_limit=1, repeated_failure_limit=2)
    assert state.pending == "iteration-budget"
    # no-progress armed first stays armed while repeated-failure becomes due.
    state, _ = run([both, both, both], no_progress_limit=1, repeated_failure_limit=3)
    assert state.pending == "no-progress"


def test_turn_boundary_resets_everything():
    state, decisions = run([OBSERVE, OBSERVE, {"type": "turn_boundary"}, MODEL], max_iterations=2)
    assert state == INITIAL_STATE
    assert not any(d.halt for d in decisions)


def test_unknown_or_missing_type_and_bad_fields_raise_action_error():
    with pytest.raises(ActionError, match="unknown action type 'stop'"):
        step(HaltConfig(), INITIAL_STATE, {"type": "stop"})
    with pytest.raises(ActionError, match='no "type"'):
        step(HaltConfig(), INITIAL_STATE, {})
    with pytest.raises(ActionError, match='"progress" must be a string'):
        step(HaltConfig(), INITIAL_STATE, {"type": "observe", "progress": 3})
    with pytest.raises(ActionError, match='"failure" must be a string or null'):
        step(HaltConfig(), INITIAL_STATE, {"type": "observe", "failure": ["x"]})


def test_step_is_pure():
    action = {"type": "observe", "progress": "p"}
    before = dict(action)
    state, _ = step(HaltConfig(), INITIAL_STATE, action)
    assert action == before and INITIAL_STATE == HaltState()
    assert state is not INITIAL_STATE


def test_config_from_mapping_camel_case_and_overrides():
    assert HaltConfig.from_mapping({"maxIterations": 7}).max_iterations == 7
    # The built-in policy contributes snake_case defaults; a camelCase layer wins over them.
    assert HaltConfig.from_mapping({"max_iterations": 50, "maxIterations": 7}).max_iterations == 7
    assert HaltConfig.from_mapping({"max_iterations": 9, "maxIterations": 50}).max_iterations == 9
    assert HaltConfig.from_mapping({"max_iterations": 9}, max_iterations=4).max_iterations == 4
    assert HaltConfig.from_mapping({"max_iterations": 9}, max_iterations=None).max_iterations == 9
    with pytest.raises(ConfigError, match="disagree"):
        HaltConfig.from_mapping({"max_iterations": 9, "maxIterations": 7})
    with pytest.raises(ConfigError, match="delivery"):
        HaltConfig(delivery="twice")
    with pytest.raises(ConfigError, match="at least 1"):
        HaltConfig(max_iterations=0)


def test_tool_call_budget_is_off_by_default_and_counts_per_turn():
    call = {"type": "tool_call"}
    state, _ = run([call] * 500)
    assert state == INITIAL_STATE
    state, decisions = run([call, call, MODEL, call, {"type": "turn_boundary"}, call], max_tool_calls_per_iteration=2)
    assert halts(decisions) == [(2, "tool-call-budget")]
    assert state.tool_calls == 1


def test_sticky_delivery_halts_every_later_model_call_in_the_turn():
    actions = [OBSERVE, OBSERVE, MODEL, OBSERVE, MODEL, MODEL, {"type": "turn_boundary"}, MODEL]
    _, decisions = run(actions, max_iterations=2, delivery="sticky")
    assert halts(decisions) == [(2, "iteration-budget"), (4, "iteration-budget"), (5, "iteration-budget")]
    assert [d.handoff for d in decisions if d.halt] == [True, False, False]
    assert not decisions[7].halt


def test_stuck_repeat_after_openhands():
    same = {"type": "observe", "action": "ls", "observation": "a.txt"}
    state, decisions = run([same] * 4 + [MODEL], stuck_detection=True)
    assert halts(decisions) == [(4, "stuck-repeat")]
    state, decisions = run([same] * 4 + [MODEL])
    assert halts(decisions) == [] and state.recent == ()


def test_stuck_ping_pong_over_the_window():
    a = {"type": "observe", "action": "cd x", "observation": "ok"}
    b = {"type": "observe", "action": "cd ..", "observation": "ok"}
    _, decisions = run([a, b, a, b, a, MODEL], stuck_detection=True)
    assert halts(decisions) == []
    _, decisions = run([a, b, a, b, a, b, MODEL], stuck_detection=True)
    assert halts(decisions) == [(6, "stuck-ping-pong")]


def test_stuck_signature_falls_back_to_progress_and_failure():
    step_a = {"type": "observe", "progress": "p1", "failure": "E"}
    step_b = {"type": "observe", "progress": "p2", "failure": "E"}
    _, decisions = run([step_a, step_b] * 3 + [MODEL], stuck_detection=True, repeated_failure_limit=50)
    assert halts(decisions) == [(6, "stuck-ping-pong")]


def test_stuck_window_stays_bounded():
    state, _ = run([{"type": "observe", "action": str(i)} for i in range(100)], stuck_detection=True)
    assert len(state.recent) == 6


def test_state_dict_round_trip_and_validation():
    state, _ = run(
        [{"type": "observe", "action": "x", "progress": "p"}, {"type": "tool_call"}],
        stuck_detection=True, max_tool_calls_per_iteration=9,
    )
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
    assert set(state_to_dict(INITIAL_STATE)) == {
        "failureRepeat", "iteration", "lastFailure", "lastProgress", "pending", "staleCount",
    }
    for bad in ({"iteration": -1}, {"pending": "bored"}, {"lastProgress": 3}, {"extra": 1}, [], {"recent": [[1]]}):
        with pytest.raises(StateError):
            state_from_dict(bad)
