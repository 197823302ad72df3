"""Find the shell code inside files, so `horizon classify FILE…` can vet it.

Two kinds of file hold shell code worth checking before an agent (or a
reader) runs it:

* shell scripts, by extension or by a ``sh``-family shebang: the whole file
  is one script;
* Markdown (READMEs, AGENTS.md, SKILL.md): every fenced code block whose info
  string names a shell; ``console`` blocks are transcripts of a terminal, so
  only their ``$ ``-prompted commands are code (output lines are not).

Each snippet remembers where its text starts (1-based line and column) so a
finding inside it can be reported as ``path:line:col``. Nothing here imports
click or bashlex: the caller decides how to classify the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHELL_EXTENSIONS = frozenset({".sh", ".bash", ".zsh", ".ksh", ".bats"})
MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdx"})
SHELL_INTERPRETERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "bats"})
# Shell files known by name (what pre-commit's `shell` type also matches), minus csh.
SHELL_NAMES = frozenset({".bashrc", ".bash_profile", ".bash_aliases", ".bash_login", ".bash_logout", ".profile",
                         ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".envrc", "direnvrc", "PKGBUILD"})
SCRIPT_LANGUAGES = frozenset({"sh", "bash", "shell", "zsh"})
# GitHub Linguist's names for a terminal session with prompts.
CONSOLE_LANGUAGES = frozenset({"console", "shellsession", "shell-session", "sh-session", "bash-session"})

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_BATS_TEST = re.compile(r"^(\s*)@test\s+.*\{\s*$")


@dataclass(frozen=True)
class Snippet:
    """Shell code found in a file.

    ``line``/``col``: where ``text`` starts in the file (1-based). For a
    multi-line snippet, line ``n`` of ``text`` is file line ``line + n - 1``
    and starts at column ``col`` too (a fenced block's indentation is removed
    from every line).
    ``mode``: ``script`` (the text is a whole script: a file or a fenced block)
    or ``lines`` (one command typed at a ``$`` prompt in a console block).
    """

    text: str
    line: int
    col: int
    mode: str


def file_kind(path: str, head: bytes) -> str | None:
    """``shell``, ``markdown`` or None (not a file horizon reads code from).

    Shell: a ``.sh``/``.bash``/``.zsh``/``.ksh``/``.bats`` extension, a shell
    start-up file name (``.bashrc``, ``.envrc``...), or a shebang naming
    sh, bash, zsh, dash, ksh, ash, mksh or bats.

    ``head`` is the start of the file (the first line is enough): a shebang
    naming a shell interpreter makes an extension-less file a shell script.
    """
    suffix = _suffix(path)
    if suffix in SHELL_EXTENSIONS or path.replace("\\", "/").rsplit("/", 1)[-1] in SHELL_NAMES:
        return "shell"
    if suffix in MARKDOWN_EXTENSIONS:
        return "markdown"
    if _shebang_interpreter(head) in SHELL_INTERPRETERS:
        return "shell"
    return None


def extract_snippets(path: str, text: str, kind: str | None = None) -> list[Snippet]:
    """Every snippet of shell code in ``text`` (the contents of ``path``).

    ``kind`` overrides detection (``shell`` or ``markdown``); a file of no
    known kind yields no snippets.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    kind = kind or file_kind(path, text[:256].encode("utf-8", "replace"))
    if kind == "shell":
        if not text.strip():
            return []
        if _suffix(path) == ".bats":
            text = _bats_to_bash(text)
        return [Snippet(text=text, line=1, col=1, mode="script")]
    if kind == "markdown":
        return markdown_snippets(text)
    return []


def markdown_snippets(text: str) -> list[Snippet]:
    """Snippets from the shell-tagged fenced code blocks of a Markdown text."""
    snippets: list[Snippet] = []
    for language, start, indent, body in _fenced_blocks(_lines(text)):
        if language in SCRIPT_LANGUAGES:
            if any(line.strip() for line in body):
                snippets.append(Snippet("\n".join(body) + "\n", start, indent + 1, "script"))
        elif language in CONSOLE_LANGUAGES:
            snippets.extend(console_commands(body, start, indent))
    return snippets


def console_commands(body: list[str], first_line: int, indent: int = 0) -> list[Snippet]:
    """The ``$ ``-prompted commands of a console block, prompts stripped.

    A command continues onto the next line after a trailing backslash, and
    onto lines shown with bash's ``> `` continuation prompt (PS2); every other
    line is output and is dropped.
    """
    commands: list[Snippet] = []
    current: list[str] | None = None
    start = 0
    for offset, line in enumerate(body):
        stripped = line.lstrip(" ")
        if stripped.startswith("$ ") or stripped == "$":
            if current is not None:
                commands.append(_command(current, start, indent))
            command = stripped[2:]
            col = len(line) - len(stripped) + 3
            current, start = [command], (first_line + offset, col)
            continue
        if current is not None and (current[-1].endswith("\\") or stripped.startswith("> ") or stripped == ">"):
            current.append(stripped[2:] if stripped.startswith(">") else line)
            continue
        if current is not None:
            commands.append(_command(current, start, indent))
            current = None
    if current is not None:
        commands.append(_command(current, start, indent))
    return [c for c in commands if c.text.strip()]


def _command(lines: list[str], start: tuple[int, int], indent: int) -> Snippet:
    line, col = start
    return Snippet("\n".join(lines), line, col + indent, "lines")


def _fenced_blocks(lines: list[str]):
    """Yield ``(language, first content line, indent, content lines)`` per fenced block.

    CommonMark rules: an opening fence is 3+ backticks or tildes indented by
    at most 3 spaces; the block closes at a fence of the same character at
    least as long with nothing after it, or at the end of the document. Up to
    ``indent`` leading spaces are removed from each content line.
    """
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        index += 1
        if not match:
            continue
        indent, fence, info = len(match.group(1)), match.group(2), match.group(3)
        if fence[0] == "`" and "`" in info:
            continue  # not a fence: backtick fences cannot have backticks in the info string
        start = index
        body: list[str] = []
        while index < len(lines) and not _closes(lines[index], fence):
            body.append(_dedent(lines[index], indent))
            index += 1
        index += 1  # the closing fence
        yield info_language(info), start + 1, indent, body


def info_language(info: str) -> str:
    """The language a fence's info string names: its first word, lower-cased.

    Accepts ``bash``, ``Bash title="x"``, ``sh,no_run`` and Pandoc's ``{.bash .numberLines}``.
    """
    word = info.strip().lstrip("{").split(maxsplit=1)
    if not word:
        return ""
    return word[0].split(",")[0].rstrip("}").lstrip(".").lower()


def _closes(line: str, fence: str) -> bool:
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(fence[0]))
    return run >= len(fence) and not stripped[run:].strip(" \t")


def _dedent(line: str, indent: int) -> str:
    width = len(line) - len(line.lstrip(" "))
    return line[min(width, indent):]


def _lines(text: str) -> list[str]:
    # Not str.splitlines(): it also splits on form feeds and U+2028, which
    # editors do not count as lines, and line numbers must match the editor's.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _suffix(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def _shebang_interpreter(head: bytes) -> str | None:
    """The interpreter a ``#!`` line runs (``/usr/bin/env -S bash -e`` -> ``bash``)."""
    if not head.startswith(b"#!"):
        return None
    first = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    words = first.split()
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        program = rest[0].rsplit("/", 1)[-1] if rest else ""
    return program


def _bats_to_bash(text: str) -> str:
    # Bats' `@test "name" {` is not bash; bats itself rewrites it to a function,
    # so do the same (line for line, keeping every position).
    return "\n".join(_BATS_TEST.sub(r"\1bats_test() {", line) for line in text.split("\n"))
