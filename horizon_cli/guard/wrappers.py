"""Unwrapping commands that run other commands (sudo, env, nice, timeout, xargs, ...).

The wrapped command is what gets classified; the wrapper only contributes a
floor (privilege escalation needs confirmation) and, for env, assignments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from horizon_cli.guard.argv import executable
from horizon_cli.guard.model import Word

ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True, slots=True)
class WrapperSpec:
    with_value: frozenset[str] = frozenset()
    positionals: int = 0  # operands of the wrapper itself before the command (timeout's DURATION)
    privileged: bool = False
    assignments: bool = False  # env: NAME=VALUE words before the command
    payload_option: str | None = None  # env -S / flock -c: a shell string
    lookup_flags: frozenset[str] = frozenset()  # command -v: look up, do not run
    default_command: tuple[str, ...] = ()  # xargs runs echo by default
    numeric_option: bool = False  # nice -5


def _spec(*with_value: str, **kwargs) -> WrapperSpec:
    return WrapperSpec(with_value=frozenset(with_value), **kwargs)


WRAPPERS: dict[str, WrapperSpec] = {
    "sudo": _spec("-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group", "--host",
                  "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", privileged=True,
                  assignments=True),
    "doas": _spec("-u", "-C", privileged=True),
    "pkexec": _spec("--user", privileged=True),
    "env": _spec("-u", "--unset", "-C", "--chdir", "-S", "--split-string", assignments=True, payload_option="-S"),
    "command": _spec(lookup_flags=frozenset({"-v", "-V"})),
    "builtin": _spec(),
    "nohup": _spec(),
    "setsid": _spec(),
    "chronic": _spec(),
    "unbuffer": _spec(),
    "catchsegv": _spec(),
    "caffeinate": _spec("-t", "-w"),
    "time": _spec("-f", "-o", "--format", "--output"),
    "nice": _spec("-n", "--adjustment", numeric_option=True),
    "ionice": _spec("-c", "-n", "-p", "-P", "-u", "--class", "--classdata"),
    "timeout": _spec("-s", "-k", "--signal", "--kill-after", positionals=1),
    "stdbuf": _spec("-i", "-o", "-e", "--input", "--output", "--error"),
    "exec": _spec("-a"),
    "xargs": _spec("-a", "--arg-file", "-d", "--delimiter", "-E", "--eof", "-I", "-L", "--max-lines", "-n",
                   "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
                   default_command=("echo",)),
    "taskset": _spec(positionals=1),
    "flock": _spec("-w", "-E", "--timeout", "--conflict-exit-code", "-c", "--command", positionals=1,
                   payload_option="-c"),
    "strace": _spec("-o", "-e", "-p", "-s", "-u", "-E", "-P", "-a", "-b", "-I", "-O", "-S", "-X"),
    "ltrace": _spec("-o", "-e", "-p", "-s", "-u", "-a", "-n"),
    "busybox": _spec(),
    "chroot": _spec("--userspec", "--groups", positionals=1, privileged=True),
    "runuser": _spec("-u", "-g", "-G", "--user", "--group", privileged=True),
}


@dataclass(slots=True)
class Unwrapped:
    argv: list[Word]
    wrappers: list[str] = field(default_factory=list)
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    payloads: list[Word] = field(default_factory=list)  # shell strings the wrappers will run
    reads: list[Word] = field(default_factory=list)  # files a wrapper reads itself (xargs -a FILE)
    lookup_only: bool = False
    privileged: bool = False
    stdin_args: bool = False  # xargs: more arguments arrive on stdin


def unwrap(argv: list[Word], max_depth: int = 16) -> Unwrapped:
    """Peel wrappers off ``argv`` until the real command is at its head."""
    result = Unwrapped(argv=list(argv))
    for _ in range(max_depth):
        if not result.argv:
            break
        name = executable(result.argv[0].value).name
        spec = WRAPPERS.get(name)
        if spec is None or not result.argv[0].static:
            break
        result.wrappers.append(name)
        result.privileged |= spec.privileged
        result.stdin_args |= name == "xargs"
        rest = _skip_wrapper_args(result, spec, result.argv[1:])
        if result.lookup_only:
            result.argv = rest
            break
        if not rest and spec.default_command:
            rest = [Word(value=spec.default_command[0], raw=spec.default_command[0])]
        result.argv = rest
    return result


def _skip_wrapper_args(result: Unwrapped, spec: WrapperSpec, args: list[Word]) -> list[Word]:
    i, n = 0, len(args)
    while i < n:
        value = args[i].value
        if value == "--":
            i += 1
            break
        if spec.assignments and ASSIGNMENT.match(value):
            name, _, val = value.partition("=")
            result.assignments.append((name, replace(args[i], value=val)))
            i += 1
            continue
        if not value.startswith("-") or value == "-":
            break
        if spec.numeric_option and value[1:].isdigit():
            i += 1
            continue
        if value in spec.lookup_flags:
            result.lookup_only = True
        i = _skip_option(result, spec, args, i)
    return args[min(i + spec.positionals, n) :]


def _skip_option(result: Unwrapped, spec: WrapperSpec, args: list[Word], i: int) -> int:
    value = args[i].value
    name, eq, attached = value.partition("=")
    if value.startswith("--"):
        if eq:
            _take_payload(result, spec, name, replace(args[i], value=attached))
            return i + 1
        if name in spec.with_value and i + 1 < len(args):
            _take_payload(result, spec, name, args[i + 1])
            return i + 2
        return i + 1
    for pos in range(1, len(value)):
        flag = f"-{value[pos]}"
        if flag in spec.lookup_flags:
            result.lookup_only = True
        if flag in spec.with_value:
            if pos + 1 < len(value):
                _take_payload(result, spec, flag, replace(args[i], value=value[pos + 1 :]))
                return i + 1
            if i + 1 < len(args):
                _take_payload(result, spec, flag, args[i + 1])
            return i + 2
    return i + 1


def _take_payload(result: Unwrapped, spec: WrapperSpec, option: str, word: Word) -> None:
    if option in ("-a", "--arg-file") and spec.default_command:
        result.reads.append(word)
    if spec.payload_option and option in (spec.payload_option, "--split-string", "--command"):
        result.payloads.append(word)
