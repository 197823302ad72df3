"""Policy: the TOML configuration every subcommand shares.

``load_policy`` layers the built-in default, a discovered project config,
``HORIZON_POLICY`` and ``--policy`` files (later wins) and validates each
layer, so a broken policy fails before any input is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from horizon_cli.policy.loader import merge, policy_layers, resolve_policy_arg, shipped_policy
from horizon_cli.policy.schema import VERDICTS, validate

__all__ = ["Policy", "load_policy", "VERDICTS", "merge", "resolve_policy_arg", "shipped_policy", "validate"]


@dataclass(frozen=True)
class Policy:
    """The merged policy and where each layer came from."""

    data: Mapping[str, Any]
    sources: tuple[str, ...]

    def table(self, name: str) -> Mapping[str, Any]:
        """A top-level table (``classify``, ``rules``, ``halt``, ``compact``), empty if absent."""
        value = self.data.get(name, {})
        return value if isinstance(value, Mapping) else {}

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


def load_policy(
    policy_args: Iterable[str] = (),
    *,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = True,
) -> Policy:
    layers = policy_layers(policy_args, cwd=cwd, environ=environ, discover=discover)
    data: dict[str, Any] = {}
    for _, table in layers:
        data = merge(data, table)
    return Policy(data=data, sources=tuple(source for source, _ in layers))


def default_policy() -> Policy:
    """The built-in policy alone (no discovery, no environment): for library users and tests."""
    return load_policy(discover=False, environ={})
