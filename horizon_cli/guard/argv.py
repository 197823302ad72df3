"""Reading argv the way the programs themselves do: executables, flags, operands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SYSTEM_DIRS = frozenset(
    {
        "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin",
        "/opt/homebrew/sbin", "/usr/libexec", "/run/current-system/sw/bin", "/nix/var/nix/profiles/default/bin",
        "/snap/bin", "/usr/lib/git-core",
    }
)

# Global options that take a value, so the subcommand is found after them.
SUBCOMMAND_TOOLS: dict[str, frozenset[str]] = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix",
                      "--config-env", "--list-cmds"}),
    "docker": frozenset({"-H", "--host", "-c", "--context", "--config", "-l", "--log-level"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user"}),
    "gcloud": frozenset({"--project", "--account", "--configuration"}),
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url"}),
    "npm": frozenset({"--prefix", "-w", "--workspace"}),
    "cargo": frozenset({"-C", "--config", "-Z"}),
    "go": frozenset(),
    "pip": frozenset(), "pip3": frozenset(), "uv": frozenset(), "gh": frozenset({"-R", "--repo"}),
}


@dataclass(frozen=True, slots=True)
class Executable:
    name: str  # base name used for matching
    path: str  # as written
    outside_system: bool  # a path outside the system directories (./ls, /tmp/x/cat)


def executable(word: str) -> Executable:
    if "/" not in word:
        return Executable(word, word, False)
    directory, _, name = word.rstrip("/").rpartition("/")
    return Executable(name, word, (directory or "/") not in SYSTEM_DIRS)


@dataclass(frozen=True, slots=True)
class Options:
    """Flags (``-r`` from ``-rf`` too), option values and operands of one argv."""

    flags: frozenset[str]
    values: dict[str, list[str]]
    operands: list[str]
    operand_index: list[int]  # index into args of each operand

    def has(self, *names: str) -> bool:
        return any(n in self.flags or n in self.values for n in names)

    def value(self, *names: str) -> str | None:
        for name in names:
            if self.values.get(name):
                return self.values[name][-1]
        return None


def parse_options(args: Sequence[str], with_value: Iterable[str] = (), *, clusters: bool = True) -> Options:
    """Split args into flags, option values and operands (POSIX clusters, ``--long=v``, ``--``)."""
    takes = frozenset(with_value)
    flags: set[str] = set()
    values: dict[str, list[str]] = {}
    operands: list[str] = []
    index: list[int] = []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg == "--":
            operands.extend(args[i + 1 :])
            index.extend(range(i + 1, n))
            break
        if arg.startswith("--") and len(arg) > 2:
            name, eq, val = arg.partition("=")
            if eq:
                values.setdefault(name, []).append(val)
            elif name in takes and i + 1 < n:
                values.setdefault(name, []).append(args[i + 1])
                i += 1
            else:
                flags.add(name)
        elif arg.startswith("-") and len(arg) > 1 and not arg[1].isdigit():
            i = _short(args, i, takes, flags, values, clusters)
        else:
            operands.append(arg)
            index.append(i)
        i += 1
    return Options(frozenset(flags), values, operands, index)


def _short(args: Sequence[str], i: int, takes: frozenset[str], flags: set[str], values: dict, clusters: bool) -> int:
    arg = args[i]
    if arg[:2] in takes:
        if len(arg) > 2:
            values.setdefault(arg[:2], []).append(arg[2:])
        elif i + 1 < len(args):
            values.setdefault(arg, []).append(args[i + 1])
            return i + 1
        return i
    if not clusters:
        flags.add(arg)
        return i
    for pos, letter in enumerate(arg[1:], start=1):
        flag = f"-{letter}"
        if flag in takes:
            rest = arg[pos + 1 :]
            if rest:
                values.setdefault(flag, []).append(rest)
            elif i + 1 < len(args):
                values.setdefault(flag, []).append(args[i + 1])
                return i + 1
            return i
        flags.add(flag)
    return i


def subcommand(exe: str, args: Sequence[str]) -> str | None:
    """The first operand after global options for git-like tools (``git -C x status`` -> ``status``)."""
    if exe not in SUBCOMMAND_TOOLS:
        return None
    takes = SUBCOMMAND_TOOLS[exe]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in takes:
            i += 2
            continue
        if arg.startswith("-"):
            i += 1
            continue
        return arg
    return None


def subcommand_args(exe: str, args: Sequence[str]) -> list[str]:
    """The args after the subcommand (empty when there is none)."""
    sub = subcommand(exe, args)
    if sub is None:
        return []
    takes = SUBCOMMAND_TOOLS[exe]
    i = 0
    while i < len(args):
        if args[i] in takes:
            i += 2
            continue
        if args[i].startswith("-"):
            i += 1
            continue
        return list(args[i + 1 :])
    return []
