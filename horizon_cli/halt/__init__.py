"""halt: a pure, resumable halt controller for long-horizon agent loops.

``reducer`` holds the pure ``step(config, state, action)``; ``stuck`` the
OpenHands-style loop patterns; ``statefile`` the serializable, sealed state;
``replay`` streams a JSONL event log through the reducer; ``derive`` turns an
agent transcript into halt actions. Nothing here imports click or bashlex.
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

__all__ = [
    "ACTION_TYPES",
    "INITIAL_STATE",
    "REASONS",
    "ActionError",
    "ConfigError",
    "Decision",
    "HaltConfig",
    "HaltState",
    "step",
]
