"""The halt controller as a pure reducer: ``step(config, state, action) -> (state, decision)``.

``observe`` only *arms* a pending reason; ``before_model`` *consumes* it and
halts; ``turn_boundary`` resets everything. The seed semantics (iteration
budget, no progress, repeated failure) match the TypeScript/Rust controller
exactly; the extensions (tool-call budget, sticky delivery, stuck patterns)
are off by default so the seed behaviour is unchanged unless a policy opts in.

State and decisions are named tuples: immutable, cheap to build (this runs
once per event over million-line logs) and trivially serializable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

from horizon_cli.halt.stuck import STUCK_PING_PONG, STUCK_REPEAT, push_step, stuck_reason

ITERATION_BUDGET = "iteration-budget"
NO_PROGRESS = "no-progress"
REPEATED_FAILURE = "repeated-failure"
TOOL_CALL_BUDGET = "tool-call-budget"
REASONS = (ITERATION_BUDGET, NO_PROGRESS, REPEATED_FAILURE, TOOL_CALL_BUDGET, STUCK_REPEAT, STUCK_PING_PONG)

ACTION_TYPES = ("observe", "before_model", "turn_boundary", "tool_call")
DELIVERIES = ("once", "sticky")


class ActionError(ValueError):
    """An action the reducer cannot apply: unknown ``type`` or a field of the wrong type."""


class ConfigError(ValueError):
    """A halt configuration value that cannot be used."""


# snake_case field -> camelCase alias accepted from TypeScript-style configs.
CAMEL_ALIASES = {
    "max_iterations": "maxIterations",
    "no_progress_limit": "noProgressLimit",
    "repeated_failure_limit": "repeatedFailureLimit",
}


_COUNTS = (
    "max_iterations", "no_progress_limit", "repeated_failure_limit",
    "max_tool_calls_per_iteration", "stuck_repeat", "ping_pong_window",
)
_MINIMUM = {"max_tool_calls_per_iteration": 0, "ping_pong_window": 2}  # others: 1


@dataclass(frozen=True, slots=True)
class HaltConfig:
    """Limits of the halt controller. Extensions default to off (seed semantics)."""

    max_iterations: int = 50
    no_progress_limit: int = 3
    repeated_failure_limit: int = 3
    max_tool_calls_per_iteration: int = 0  # 0 = off
    delivery: str = "once"  # once | sticky
    stuck_detection: bool = False
    stuck_repeat: int = 4
    ping_pong_window: int = 6

    def __post_init__(self) -> None:
        if self.delivery not in DELIVERIES:
            raise ConfigError(f"delivery: {self.delivery!r} is not one of {', '.join(DELIVERIES)}")
        if not isinstance(self.stuck_detection, bool):
            raise ConfigError(f"stuck_detection: expected a boolean, got {self.stuck_detection!r}")
        for name in _COUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{name}: expected an integer, got {value!r}")
            if value < _MINIMUM.get(name, 1):
                raise ConfigError(f"{name}: must be at least {_MINIMUM.get(name, 1)}, got {value}")

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], **overrides: Any) -> HaltConfig:
        """Build from a policy ``[halt]`` table (snake_case or camelCase keys); non-None overrides win.

        Unknown keys are ignored (the policy schema already rejects them).
        When both spellings of a key are present with different values the one
        that differs from the built-in default wins, because the built-in
        policy always contributes the snake_case spelling; two different
        non-default values are ambiguous and refused.
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            values[f.name] = _pick(table, f.name, f.default)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**{k: v for k, v in values.items() if v is not _MISSING})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def window(self) -> int:
        """How many recent steps stuck detection keeps."""
        return max(self.stuck_repeat, self.ping_pong_window) if self.stuck_detection else 0


_MISSING = object()


def _pick(table: Mapping[str, Any], name: str, default: Any) -> Any:
    alias = CAMEL_ALIASES.get(name)
    snake = table.get(name, _MISSING)
    camel = table.get(alias, _MISSING) if alias else _MISSING
    if camel is _MISSING or camel == snake:
        return snake
    if snake is _MISSING or snake == default:
        return camel
    if camel == default:
        return snake
    raise ConfigError(f"{name} = {snake!r} and {alias} = {camel!r} disagree; set one spelling only")


class HaltState(NamedTuple):
    """Everything the controller remembers between actions (reset by ``turn_boundary``)."""

    iteration: int = 0
    last_progress: str | None = None
    stale_count: int = 0
    last_failure: str | None = None
    failure_repeat: int = 0
    pending: str | None = None
    tool_calls: int = 0  # extension: tool_call actions this turn
    halted: str | None = None  # extension: sticky delivery's reason once halted
    recent: tuple[tuple[Any, Any], ...] = ()  # extension: stuck-detection window


class Decision(NamedTuple):
    """What the controller says after one action. ``handoff`` marks sticky delivery's first halt."""

    halt: bool
    reason: str | None
    iteration: int
    handoff: bool = False


INITIAL_STATE = HaltState()


def step(config: HaltConfig, state: HaltState, action: Mapping[str, Any]) -> tuple[HaltState, Decision]:
    """Apply one action; pure (neither argument is modified)."""
    kind = action.get("type")
    if kind == "observe":
        state = _observe(config, state, action)
        return state, Decision(False, None, state.iteration)
    if kind == "before_model":
        return _before_model(config, state)
    if kind == "turn_boundary":
        return INITIAL_STATE, Decision(False, None, 0)
    if kind == "tool_call":
        state = _tool_call(config, state)
        return state, Decision(False, None, state.iteration)
    raise ActionError(_bad_type(kind))


def _bad_type(kind: Any) -> str:
    if kind is None:
        return 'action has no "type" (expected one of ' + ", ".join(ACTION_TYPES) + ")"
    return f"unknown action type {kind!r} (expected one of {', '.join(ACTION_TYPES)})"


def _observe(config: HaltConfig, s: HaltState, action: Mapping[str, Any]) -> HaltState:
    # Each check looks only at the signal this observe carries: an absent
    # `progress` (or `failure`) leaves that counter alone and cannot arm it.
    iteration = s.iteration + 1
    last_progress, stale, stalled = s.last_progress, s.stale_count, False
    progress = action.get("progress")
    if progress is not None:
        if progress == last_progress:
            stale += 1
            stalled = stale >= config.no_progress_limit
        elif isinstance(progress, str):
            last_progress, stale = progress, 0
        else:
            raise ActionError(f'observe: "progress" must be a string, got {_json_type(progress)}')
    last_failure, repeat, failing = s.last_failure, s.failure_repeat, False
    if "failure" in action:
        failure = action["failure"]
        if failure is None:
            last_failure, repeat = None, 0
        elif failure == last_failure:
            repeat += 1
            failing = repeat >= config.repeated_failure_limit
        elif isinstance(failure, str):
            last_failure, repeat = failure, 1
            failing = repeat >= config.repeated_failure_limit
        else:
            raise ActionError(f'observe: "failure" must be a string or null, got {_json_type(failure)}')
    pending, recent = s.pending, s.recent
    if config.stuck_detection:
        recent = push_step(recent, action, config.window)
    if pending is None:
        if iteration >= config.max_iterations:
            pending = ITERATION_BUDGET
        elif stalled:
            pending = NO_PROGRESS
        elif failing:
            pending = REPEATED_FAILURE
        elif recent:
            pending = stuck_reason(recent, config.stuck_repeat, config.ping_pong_window)
    return HaltState(iteration, last_progress, stale, last_failure, repeat, pending, s.tool_calls, s.halted, recent)


def _before_model(config: HaltConfig, s: HaltState) -> tuple[HaltState, Decision]:
    reason = s.pending
    if config.delivery == "sticky" and s.halted is not None:
        # Already handed off: every later model call this turn is refused too.
        if reason is not None:
            s = s._replace(pending=None)
        return s, Decision(True, s.halted, s.iteration)
    if reason is None:
        return s, Decision(False, None, s.iteration)
    sticky = config.delivery == "sticky"
    s = HaltState(
        s.iteration, s.last_progress, s.stale_count, s.last_failure, s.failure_repeat,
        None, s.tool_calls, reason if sticky else s.halted, s.recent,
    )
    return s, Decision(True, reason, s.iteration, sticky)


def _tool_call(config: HaltConfig, s: HaltState) -> HaltState:
    limit = config.max_tool_calls_per_iteration
    if not limit:
        return s
    calls = s.tool_calls + 1
    pending = s.pending
    if pending is None and calls >= limit:
        pending = TOOL_CALL_BUDGET
    return s._replace(tool_calls=calls, pending=pending)


def _json_type(value: Any) -> str:
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
