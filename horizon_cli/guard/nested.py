"""Commands hidden inside commands: sh -c, eval, find -exec, ssh host CMD, git -c core.sshCommand, ...

Each extractor returns payloads; the engine classifies every payload like a
top-level command (verdict = max) or, for other languages, scans it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from horizon_cli.guard.argv import parse_options
from horizon_cli.guard.model import Redirect, Word

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash", "tcsh", "csh"})
INTERPRETERS = {
    "perl": ("perl", ("-e", "-E")), "ruby": ("ruby", ("-e",)), "node": ("javascript", ("-e", "--eval", "-p", "--print")),
    "nodejs": ("javascript", ("-e", "--eval", "-p", "--print")), "bun": ("javascript", ("-e", "--eval", "-p", "--print")),
    "php": ("php", ("-r",)), "lua": ("lua", ("-e",)), "Rscript": ("r", ("-e",)), "osascript": ("applescript", ("-e",)),
    "pwsh": ("powershell", ("-c", "-Command", "-command")), "powershell": ("powershell", ("-c", "-Command")),
    "tclsh": ("tcl", ()), "jshell": ("java", ()),
}
PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})
DANGEROUS_ENV_PREFIXES = ("GIT_CONFIG_VALUE_", "GIT_CONFIG_PARAMETERS")
DANGEROUS_ENV = frozenset({"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
                           "GIT_EDITOR", "GIT_ASKPASS", "SSH_ASKPASS", "BASH_ENV", "ENV", "PROMPT_COMMAND",
                           "PAGER", "EDITOR", "VISUAL", "LESSOPEN", "MANPAGER"})
GIT_COMMAND_KEYS = re.compile(r"^(core\.(sshcommand|pager|editor|fsmonitor|askpass|gitproxy)|sequence\.editor|"
                              r"diff\.external|credential\.helper|alias\..+|.*\.(command|textconv|cmd|clean|smudge|process))$", re.I)


@dataclass(frozen=True, slots=True)
class Payload:
    kind: str  # shell | argv | code | script
    via: str  # human description: "sh -c", "find -exec"
    text: str = ""
    argv: tuple[Word, ...] = ()
    static: bool = True
    language: str = ""


def payloads_for(exe: str, args: Sequence[Word], redirects: Sequence[Redirect]) -> list[Payload]:
    extractor = EXTRACTORS.get(exe)
    if extractor is None:
        if PYTHON.match(exe):
            extractor = _python
        elif exe in AWKS:
            extractor = _awk
        elif exe in INTERPRETERS:
            extractor = _interpreter
        else:
            return []
    return extractor(exe, list(args), list(redirects))


def env_payloads(assignments: Sequence[tuple[str, Word]]) -> list[Payload]:
    """``GIT_SSH_COMMAND='nc … -e sh' git fetch``: variables whose value a program runs."""
    return [_shell(word, f"{name}=") for name, word in assignments
            if (name in DANGEROUS_ENV or name.startswith(DANGEROUS_ENV_PREFIXES)) and word.value.strip()]


def stdin_body(redirects: Sequence[Redirect]) -> str | None:
    """The literal text a heredoc or here-string feeds to stdin, if any."""
    for redirect in redirects:
        if redirect.op in ("<<", "<<-", "<<<") and redirect.body is not None:
            return redirect.body
    return None


def _shell(word: Word, via: str) -> Payload:
    return Payload("shell", via, text=word.value, static=word.static)


def _shell_cmd(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    values = [w.value for w in args]
    i = 0
    command_mode = False
    while i < len(values) and values[i].startswith(("-", "+")) and values[i] not in ("-", "--"):
        flag = values[i]
        if flag in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if not flag.startswith("--") and "c" in flag[1:]:
            command_mode = True
        i += 1
    if i < len(values) and values[i] == "--":
        i += 1
    if command_mode:
        return [_shell(args[i], f"{exe} -c")] if i < len(args) else []
    if i < len(args) and values[i] != "-":
        return [Payload("script", f"{exe} {values[i]}", text=values[i])]
    body = stdin_body(redirects)
    return [Payload("shell", f"{exe} <<", text=body)] if body is not None else []


def _eval(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    if not args:
        return []
    text = " ".join(w.value for w in args)
    return [Payload("shell", exe, text=text, static=all(w.static for w in args))]


def _su(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    for i, word in enumerate(args):
        if word.value in ("-c", "--command") and i + 1 < len(args):
            return [_shell(args[i + 1], "su -c")]
        if word.value.startswith("--command="):
            return [Payload("shell", "su -c", text=word.value.split("=", 1)[1], static=word.static)]
    return []


def _watch(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    takes = {"-n", "--interval", "-q", "--equexit", "-s", "--shell"}
    i = 0
    while i < len(args) and args[i].value.startswith("-"):
        i += 2 if args[i].value in takes else 1
    rest = args[i:]
    return _eval("watch", rest, redirects) if rest else []


def _find(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    payloads: list[Payload] = []
    found = _find_results(args)
    i = 0
    while i < len(args):
        action = args[i].value
        if action in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j].value in (";", "+")), len(args))
            if end > i + 1:
                argv = tuple(found if w.value == "{}" else w for w in args[i + 1 : end])
                payloads.append(Payload("argv", f"find {action}", argv=argv))
            i = end
        i += 1
    return payloads


def _find_results(args: list[Word]) -> Word:
    """What `{}` stands for: any file under the start paths, named like -name says (a wildcard word)."""
    starts = []
    for word in args:
        if word.value.startswith(("-", "(", "!")):
            break
        starts.append(word.value)
    name = next((args[i + 1].value for i, w in enumerate(args[:-1]) if w.value in ("-name", "-iname")), "")
    start = (starts or ["."])[0].rstrip("/") or "/"
    pattern = f"{start}/*{name}" if name and not name.startswith("*") else f"{start}/{name or '*'}"
    return Word(value=pattern, raw="{}", static=False, glob=False, pattern=pattern)


def _parallel(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    values = [w.value for w in args]
    end = next((i for i, v in enumerate(values) if v in (":::", "::::", ":::+")), len(values))
    i = 0
    while i < end and values[i].startswith("-"):
        i += 2 if values[i] in ("-j", "--jobs", "-S", "--sshlogin", "--joblog", "-a", "--arg-file") else 1
    command = args[i:end]
    if len(command) == 1:
        return [_shell(command[0], "parallel")]
    return [Payload("argv", "parallel", argv=tuple(command))] if command else []


SSH_VALUE_OPTIONS = ("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p",
                     "-Q", "-R", "-S", "-W", "-w", "-B")


def _ssh(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    opts = parse_options([w.value for w in args], SSH_VALUE_OPTIONS)
    payloads = [
        Payload("shell", "ssh ProxyCommand", text=value.split("=", 1)[1].strip() if "=" in value else value.split(None, 1)[-1])
        for value in opts.values.get("-o", [])
        if value.lower().startswith(("proxycommand", "localcommand", "knownhostscommand"))
    ]
    if len(opts.operands) > 1:
        remote = args[opts.operand_index[1] :]
        payloads.append(Payload("shell", "ssh host CMD", text=" ".join(w.value for w in remote),
                                static=all(w.static for w in remote)))
    return payloads


def _git(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    payloads = []
    for word in args:
        value = word.value
        if value.startswith("--config-env="):
            payloads.append(Payload("shell", "git --config-env", text="", static=False))
        elif value.startswith(("--open-files-in-pager", "-O")) and value not in ("-O",):
            command = value.split("=", 1)[1] if "=" in value else value[2:] if value.startswith("-O") else ""
            payloads.append(Payload("shell", "git grep -O", text=command, static=bool(command) and word.static))
    for i, word in enumerate(args[:-1]):
        if word.value in ("-c", "--config-env"):
            key, _, value = args[i + 1].value.partition("=")
            if GIT_COMMAND_KEYS.match(key) and value:
                payloads.append(Payload("shell", f"git -c {key}", text=value.lstrip("!"), static=args[i + 1].static))
    return payloads


TAR_COMMANDS = ("--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command")


def _tar(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    payloads = []
    for i, word in enumerate(args):
        name, eq, value = word.value.partition("=")
        if name in TAR_COMMANDS or name == "--checkpoint-action":
            if not eq and i + 1 < len(args):
                value = args[i + 1].value
            if name == "--checkpoint-action":
                if not value.startswith("exec="):
                    continue
                value = value[5:]
            payloads.append(Payload("shell", f"tar {name}", text=value, static=word.static))
        elif word.value in ("-I", "-F") and i + 1 < len(args):
            payloads.append(_shell(args[i + 1], f"tar {word.value}"))
    return payloads


def _vim(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    payloads = []
    for i, word in enumerate(args):
        command = None
        if word.value in ("-c", "--cmd") and i + 1 < len(args):
            command = args[i + 1].value
        elif word.value.startswith("+"):
            command = word.value[1:]
        if command is not None:
            command = command.lstrip(": ")
            if command.startswith("!"):
                payloads.append(Payload("shell", f"{exe} -c '!…'", text=command[1:], static=word.static))
            elif command:
                payloads.append(Payload("code", f"{exe} -c", text=command, language="vim"))
    return payloads


def _rg(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    for i, word in enumerate(args):
        if word.value == "--pre" and i + 1 < len(args):
            return [Payload("argv", "rg --pre", argv=(args[i + 1],))]
        if word.value.startswith("--pre="):
            return [Payload("shell", "rg --pre", text=word.value[6:], static=word.static)]
    return []


def _alias(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    return [Payload("shell", "alias", text=w.value.split("=", 1)[1], static=w.static) for w in args if "=" in w.value]


def _trap(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    if args and not args[0].value.startswith("-"):
        return [_shell(args[0], "trap")]
    return []


def _source(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    return [Payload("script", f"{exe} {args[0].value}", text=args[0].value)] if args else []


def _python(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    for i, word in enumerate(args):
        value = word.value
        if value == "-c" and i + 1 < len(args):
            return [Payload("code", f"{exe} -c", text=args[i + 1].value, static=args[i + 1].static, language="python")]
        if value.startswith("-c") and len(value) > 2:
            return [Payload("code", f"{exe} -c", text=value[2:], static=word.static, language="python")]
        if value == "-m" and i + 1 < len(args):
            return [Payload("script", f"{exe} -m {args[i + 1].value}", text=args[i + 1].value)]
        if value == "-" or not value.startswith("-"):
            if value != "-":
                return [Payload("script", f"{exe} {value}", text=value)]
            break
    body = stdin_body(redirects)
    return [Payload("code", f"{exe} <<", text=body, language="python")] if body is not None else []


def _interpreter(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    language, options = INTERPRETERS[exe]
    for i, word in enumerate(args):
        value = word.value
        cluster_e = language in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*[eE]", value)
        if (value in options or cluster_e) and i + 1 < len(args):
            return [Payload("code", f"{exe} {value}", text=args[i + 1].value, static=args[i + 1].static, language=language)]
    body = stdin_body(redirects)
    if body is not None:
        return [Payload("code", f"{exe} <<", text=body, language=language)]
    operands = [w.value for w in args if not w.value.startswith("-")]
    return [Payload("script", f"{exe} {operands[0]}", text=operands[0])] if operands else []


def _awk(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    i = 0
    while i < len(args) and args[i].value.startswith("-") and args[i].value != "-":
        if args[i].value in ("-f", "--file"):
            return [Payload("script", f"{exe} -f", text=args[i + 1].value if i + 1 < len(args) else "")]
        i += 2 if args[i].value in ("-F", "-v", "--assign", "--field-separator") else 1
    if i < len(args):
        return [Payload("code", exe, text=args[i].value, static=args[i].static, language="awk")]
    return []


SED_EXEC = re.compile(r"(?:^|[;\n{}]|[0-9$/])\s*e(?:\s+([^;\n}]+)|\s*(?=$|[;\n}]))")
SED_S_EXEC = re.compile(r"(?:^|[;\n{}])\s*s(.).*?(?<!\\)\1.*?(?<!\\)\1[gpiImM0-9]*e")


def sed_scripts(values: list[str]) -> list[str]:
    """The sed program(s): -e/--expression values, else the first operand."""
    scripts, i, explicit = [], 0, False
    while i < len(values):
        value = values[i]
        if value in ("-e", "--expression") and i + 1 < len(values):
            scripts.append(values[i + 1])
            explicit, i = True, i + 2
            continue
        if value.startswith("--expression="):
            scripts.append(value.split("=", 1)[1])
            explicit = True
        elif value.startswith("-e") and len(value) > 2:
            scripts.append(value[2:])
            explicit = True
        elif value in ("-f", "--file"):
            explicit, i = True, i + 2
            continue
        elif not value.startswith("-") and not explicit and not scripts:
            scripts.append(value)
        i += 1
    return scripts


def _sed(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    """GNU sed's `e COMMAND` runs a shell command; `s///e` runs the pattern space."""
    payloads = []
    for script in sed_scripts([w.value for w in args]):
        for match in SED_EXEC.finditer(script):
            command = (match.group(1) or "").strip()
            payloads.append(Payload("shell", "sed e", text=command, static=bool(command)))
        if SED_S_EXEC.search(script):
            payloads.append(Payload("shell", "sed s///e", text="", static=False))
    return payloads


def _sort(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    for i, word in enumerate(args):
        name, eq, value = word.value.partition("=")
        if name == "--compress-program":
            command = value if eq else (args[i + 1].value if i + 1 < len(args) else "")
            return [Payload("argv", "sort --compress-program", argv=(Word(value=command, raw=command),))]
    return []


def _deno(exe: str, args: list[Word], redirects: list[Redirect]) -> list[Payload]:
    if len(args) > 1 and args[0].value == "eval":
        return [Payload("code", "deno eval", text=args[1].value, static=args[1].static, language="javascript")]
    return []


EXTRACTORS: dict[str, Callable[[str, list[Word], list[Redirect]], list[Payload]]] = {
    **{name: _shell_cmd for name in SHELLS},
    "eval": _eval,
    "su": _su,
    "runuser": _su,
    "watch": _watch,
    "find": _find,
    "parallel": _parallel,
    "ssh": _ssh,
    "git": _git,
    "tar": _tar,
    "bsdtar": _tar,
    "vim": _vim, "vi": _vim, "nvim": _vim, "ex": _vim, "view": _vim,
    "rg": _rg,
    "alias": _alias,
    "trap": _trap,
    "source": _source,
    ".": _source,
    "deno": _deno,
    "sed": _sed,
    "gsed": _sed,
    "sort": _sort,
}
