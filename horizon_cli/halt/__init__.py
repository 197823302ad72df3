"""halt: a pure, resumable halt controller for long-horizon agent loops.

``reducer`` holds the pure ``step(config, state, action)``; ``stuck`` the
OpenHands-style loop patterns; ``statefile`` the serializable, sealed state;
``replay`` streams a JSONL event log through the reducer; ``render`` the
output shapes; ``derive`` turns an agent transcript into halt actions.
Nothing here imports click or bashlex.

>>> from horizon_cli.halt import HaltConfig, INITIAL_STATE, step
>>> state, decision = step(HaltConfig(max_iterations=1), INITIAL_STATE, {"type": "observe"})
>>> step(HaltConfig(max_iterations=1), state, {"type": "before_model"})[1]
Decision(halt=True, reason='iteration-budget', iteration=1, handoff=False)
"""

from horizon_cli.halt.reducer import (
    ACTION_TYPES,
    INITIAL_STATE,
    REASONS,
    ActionError,
    ConfigError,
    Decision,
    HaltConfig,
    HaltState,
    step,
)
from horizon_cli.halt.replay import HaltPoint, ReplayResult, replay, replay_actions
from horizon_cli.halt.statefile import StateError, load_state, save_state, state_from_dict, state_to_dict

__all__ = [
    "ACTION_TYPES",
    "INITIAL_STATE",
    "REASONS",
    "ActionError",
    "ConfigError",
    "Decision",
    "HaltConfig",
    "HaltPoint",
    "HaltState",
    "ReplayResult",
    "StateError",
    "load_state",
    "replay",
    "replay_actions",
    "save_state",
    "state_from_dict",
    "state_to_dict",
    "step",
]
