"""Finding, reading and layering policy files.

Layers, lowest first (later wins):

1. the built-in ``policies/default.toml``;
2. the discovered project config: the nearest ``.horizon.toml``, or
   ``pyproject.toml`` with a ``[tool.horizon]`` table, walking up from the
   working directory (``.horizon.toml`` wins within one directory);
3. each entry of ``HORIZON_POLICY`` (``os.pathsep``-separated);
4. each ``--policy`` in the order given.

Merge: tables merge key by key; scalars and arrays replace; ``extend_X``
appends to the array ``X`` instead of replacing it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from horizon_cli.errors import PolicyError
from horizon_cli.policy.schema import validate

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

PACKAGE_DIR = Path(__file__).resolve().parent.parent
SHIPPED_DIRS = (PACKAGE_DIR / "policies", PACKAGE_DIR.parent / "policies")


def shipped_policy(name: str) -> Path | None:
    """The path of a policy shipped with horizon (``default``, ``strict``), if any."""
    for directory in SHIPPED_DIRS:
        candidate = directory / f"{name}.toml"
        if candidate.is_file():
            return candidate
    return None


def shipped_policy_names() -> list[str]:
    for directory in SHIPPED_DIRS:
        if directory.is_dir():
            return sorted(p.stem for p in directory.glob("*.toml"))
    return []


def resolve_policy_arg(value: str) -> Path:
    """``--policy`` takes a path, or the name of a shipped policy such as ``strict``."""
    path = Path(value)
    if path.is_file():
        return path
    if os.sep not in value and not value.endswith(".toml"):
        shipped = shipped_policy(value)
        if shipped is not None:
            return shipped
        names = ", ".join(shipped_policy_names())
        raise PolicyError(f"no such policy file or shipped policy {value!r} (shipped: {names})")
    raise PolicyError("no such policy file", path=value)


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise PolicyError(f"cannot read policy: {exc.strerror}", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"invalid TOML: {exc}", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise PolicyError(f"invalid TOML: not valid UTF-8 (byte {exc.start})", path=str(path)) from None


def discover_config(start: Path) -> tuple[str, dict[str, Any]] | None:
    """The nearest project config at or above ``start``, as ``(source, table)``."""
    for directory in (start, *start.parents):
        dotfile = directory / ".horizon.toml"
        if dotfile.is_file():
            return str(dotfile), read_toml(dotfile)
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            table = read_toml(pyproject).get("tool", {}).get("horizon")
            if isinstance(table, dict):
                return f"{pyproject} [tool.horizon]", table
    return None


def merge(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """Layer ``overlay`` on ``base`` (neither is modified)."""
    result = dict(base)
    for key, value in overlay.items():
        if key.startswith("extend_") and isinstance(value, list):
            target = key[len("extend_"):]
            result[target] = [*result.get(target, []), *(v for v in value if v not in result.get(target, []))]
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merge(result[key], value)
        else:
            result[key] = value
    return result


def policy_layers(
    policy_args: Iterable[str] = (),
    *,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """Every layer as ``(source, table)``, lowest first, each validated on its own."""
    environ = os.environ if environ is None else environ
    default = shipped_policy("default")
    if default is None:
        raise PolicyError("the built-in policy default.toml is missing from this installation")
    layers = [(str(default), read_toml(default))]
    if discover:
        found = discover_config(cwd or Path.cwd())
        if found:
            layers.append(found)
    for entry in filter(None, environ.get("HORIZON_POLICY", "").split(os.pathsep)):
        path = resolve_policy_arg(entry)
        layers.append((str(path), read_toml(path)))
    for arg in policy_args:
        path = resolve_policy_arg(arg)
        layers.append((str(path), read_toml(path)))
    for source, table in layers:
        validate(table, source)
    return layers
