"""The shape of a policy file, and validation that names file and key path.

A spec is a small tree of value descriptions. Tables list their keys; a
``MapOf`` table takes any key (rule ids) with one value spec. Every list key
``X`` may also be written ``extend_X`` in an overlay to append instead of
replace (see ``horizon_cli.policy.loader.merge``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from horizon_cli.errors import PolicyError

VERDICTS = ("allow", "gate", "deny")
RULE_VERDICTS = (*VERDICTS, "off")


@dataclass(frozen=True)
class Scalar:
    kind: type
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    regex: bool = False

    def check(self, value: Any, where: str) -> None:
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise _type_error(where, "an integer", value)
        if self.kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise _type_error(where, "a number", value)
        if self.kind in (str, bool) and not isinstance(value, self.kind):
            raise _type_error(where, f"a {'string' if self.kind is str else 'boolean'}", value)
        if self.minimum is not None and value < self.minimum:
            raise PolicyError(f"{where}: must be at least {self.minimum}, got {value}")
        if self.choices and value not in self.choices:
            hint = _closest(str(value), self.choices)
            raise PolicyError(f"{where}: {value!r} is not one of {', '.join(self.choices)}{hint}")
        if self.regex:
            _check_regex(value, where)


@dataclass(frozen=True)
class StrList:
    regex: bool = False

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise _type_error(where, "an array of strings", value)
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise _type_error(f"{where}[{index}]", "a string", item)
            if self.regex:
                _check_regex(item, f"{where}[{index}]")


@dataclass(frozen=True)
class Table:
    fields: dict[str, Any] = field(default_factory=dict)

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _type_error(where, "a table", value)
        for key, item in value.items():
            spec = self.spec_for(key)
            path = f"{where}.{key}" if where else key
            if spec is None:
                hint = _closest(key, [*self.fields, *self._extend_keys()])
                raise PolicyError(f"{path}: unknown key{hint}")
            spec.check(item, path)

    def spec_for(self, key: str) -> Any:
        if key in self.fields:
            return self.fields[key]
        if key.startswith("extend_") and isinstance(self.fields.get(key[7:]), StrList):
            return self.fields[key[7:]]
        return None

    def _extend_keys(self) -> list[str]:
        return [f"extend_{k}" for k, v in self.fields.items() if isinstance(v, StrList)]


@dataclass(frozen=True)
class MapOf:
    """A table whose keys are free-form (matching ``key_pattern``) with one value spec."""

    value: Any
    key_pattern: str = r"^[A-Za-z][A-Za-z0-9_-]*$"
    key_help: str = "a name"

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _type_error(where, "a table", value)
        for key, item in value.items():
            if not re.match(self.key_pattern, key):
                raise PolicyError(f"{where}.{key}: not a valid key; expected {self.key_help}")
            self.value.check(item, f"{where}.{key}")


VERDICT = Scalar(str, choices=VERDICTS)
POSITIVE = Scalar(int, minimum=1)
STRINGS = StrList()

EXAMPLES = Table({"allow": STRINGS, "gate": STRINGS, "deny": STRINGS})

RULE = Table(
    {
        "verdict": Scalar(str, choices=RULE_VERDICTS),
        "name": Scalar(str),
        "description": Scalar(str),
        "doc": Scalar(str),
        "executables": STRINGS,
        "flags_any": STRINGS,
        "flags_all": STRINGS,
        "args_any": STRINGS,
        "argv": Scalar(str, regex=True),
        "text": Scalar(str, regex=True),
        "redirect_to": STRINGS,
        "examples": EXAMPLES,
    }
)

CLASSIFY = Table(
    {
        "default_unknown": VERDICT,
        "allow": STRINGS,
        "gate": STRINGS,
        "deny": STRINGS,
        "network": Table({"allow_hosts": STRINGS, "tools": STRINGS, "inert": STRINGS}),
        "secrets": Table({"paths": STRINGS, "exclude": STRINGS, "readers_exempt": STRINGS}),
        "writes": Table({"persistence": STRINGS, "outside_tree": VERDICT}),
        "known_variables": STRINGS,
        "cache_size": Scalar(int, minimum=0),
    }
)

HALT = Table(
    {
        "max_iterations": POSITIVE,
        "no_progress_limit": POSITIVE,
        "repeated_failure_limit": POSITIVE,
        "maxIterations": POSITIVE,
        "noProgressLimit": POSITIVE,
        "repeatedFailureLimit": POSITIVE,
        "max_tool_calls_per_iteration": Scalar(int, minimum=0),
        "delivery": Scalar(str, choices=("once", "sticky")),
        "stuck_detection": Scalar(bool),
        "stuck_repeat": POSITIVE,
        "ping_pong_window": Scalar(int, minimum=2),  # alternation needs two steps
    }
)

COMPACT = Table(
    {
        "threshold_tokens": POSITIVE,
        "keep_recent": Scalar(int, minimum=0),
        "prune_tool_output_chars": POSITIVE,
        "summarizer": Scalar(str),
        "summarizer_timeout": Scalar(float, minimum=0),
    }
)

POLICY = Table(
    {
        "classify": CLASSIFY,
        "rules": MapOf(RULE, key_pattern=r"^HZ\d{3}$", key_help="a rule id like HZ101"),
        "halt": HALT,
        "compact": COMPACT,
    }
)


def validate(data: dict[str, Any], source: str) -> None:
    """Raise :class:`PolicyError` naming ``source`` and the key path of the first problem."""
    try:
        POLICY.check(data, "")
    except PolicyError as exc:
        raise PolicyError(exc.message, path=source) from None


def _type_error(where: str, expected: str, value: Any) -> PolicyError:
    return PolicyError(f"{where}: expected {expected}, got {_toml_type(value)} {value!r}")


def _toml_type(value: Any) -> str:
    names = {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}
    return names.get(type(value), type(value).__name__)


def _closest(word: str, options: Any) -> str:
    match = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _check_regex(pattern: str, where: str) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise PolicyError(f"{where}: invalid regular expression: {exc}") from None
