"""Where commands come from: stdin lines, NUL-separated input, scripts, files,
agent transcripts and JSONL fields. Each source yields :class:`Item`s located
by path and line, so every output format can point at the text."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from horizon_cli.errors import InputError

SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "run_shell_command", "execute_command", "terminal",
                         "run_terminal_cmd", "local_shell", "container.exec", "run_command", "sh", "exec", "cmd"})
COMMAND_KEYS = ("command", "cmd", "script")


@dataclass(frozen=True, slots=True)
class Item:
    """One command (or script) to classify, and where it came from."""

    text: str
    path: str
    line: int = 1
    col: int = 1
    mode: str = "lines"  # lines: one command | script: lines inside are located relative to `line`
    tool: str | None = None  # transcript tool name
    record: Any = None  # jsonl-field: the parsed object to write back


def decode(data: bytes, name: str, line: int = 1) -> str:
    """UTF-8 text; a byte-order mark at the start of the input is dropped (it is not part of a command)."""
    if line == 1 and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start})", path=name, line=line) from None


def _lf(text: str) -> str:
    # A CRLF script judged as bash would run it would hide `rm -rf /\r`; judge the intended text (fail closed).
    return text.replace("\r\n", "\n")


def line_items(stream: BinaryIO, name: str) -> Iterator[Item]:
    """One command per line; blank lines and lines starting with '#' are skipped."""
    for number, raw in enumerate(stream, start=1):
        text = decode(raw, name, number).rstrip("\r\n")
        if text.strip() and not text.lstrip().startswith("#"):
            yield Item(text, name, number)


def null_items(stream: BinaryIO, name: str) -> Iterator[Item]:
    """NUL-separated commands (``find -print0``-style); ``line`` is the record number."""
    for number, chunk in enumerate(stream.read().split(b"\0"), start=1):
        text = _lf(decode(chunk, name, number))
        if text.strip():
            yield Item(text, name, number)


def script_item(data: bytes, name: str) -> Iterator[Item]:
    text = _lf(decode(data, name))
    if text.strip():
        yield Item(text, name, 1, 1, "script")


def file_items(data: bytes, name: str) -> Iterator[Item]:
    """Shell snippets of a file: a script, fenced blocks in Markdown, or the whole file as a script."""
    from horizon_cli.snippets import extract_snippets, file_kind

    text = _lf(decode(data, name))
    kind = file_kind(name, data[:256]) or "shell"
    for snippet in extract_snippets(name, text, kind):
        yield Item(snippet.text, name, snippet.line, snippet.col, snippet.mode)


def transcript_items(stream: BinaryIO, name: str, fmt: str | None = None) -> Iterator[Item]:
    """Every shell command an agent ran, located by transcript line."""
    from horizon_cli.transcript import read_transcript

    for event in read_transcript(stream, name, fmt):
        for call in event.tool_calls:
            command = shell_command(call.name, call.arguments)
            if command:
                yield Item(command, name, event.line, 1, "lines", tool=call.name)


def shell_command(tool: str, arguments: Any) -> str | None:
    """The shell command in a tool call's arguments (a string or an argv list), if it is one."""
    if not isinstance(arguments, dict):
        return arguments if isinstance(arguments, str) and tool.lower() in SHELL_TOOLS else None
    for key in COMMAND_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return _argv_text(value)
    return None


def _argv_text(argv: list[str]) -> str:
    # ["bash", "-lc", "ls"] is a shell running a string: classify the string as the shell would.
    return shlex.join(argv)


def jsonl_field_items(stream: BinaryIO, name: str, field: str) -> Iterator[Item]:
    """JSONL objects; the command is the string (or argv list) at the dotted ``field`` path."""
    from horizon_cli.jsonl import iter_jsonl

    path = field.split(".")
    for number, value, _ in iter_jsonl(stream, name):
        found = lookup(value, path)
        if isinstance(found, list) and found and all(isinstance(v, str) for v in found):
            found = _argv_text(found)
        yield Item(found if isinstance(found, str) else "", name, number, record=value)


def lookup(value: Any, path: Iterable[str]) -> Any:
    for key in path:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value
