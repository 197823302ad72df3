"""Decode-and-execute: what a pipeline's earlier stages print, when it is knowable statically.

``echo …|base64 -d|sh``, ``xxd -r -p <<< HEX|sh``, ``rev <<< '…'|sh``: the literal
payload is decoded so the shell classifier can judge what would really run.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from collections.abc import Sequence

from horizon_cli.guard.argv import executable, parse_options
from horizon_cli.guard.model import Segment
from horizon_cli.guard.nested import PYTHON, SHELLS, payloads_for, stdin_body
from horizon_cli.guard.view import SegmentView
from horizon_cli.guard.wrappers import unwrap

STDIN_INTERPRETERS = frozenset({"perl", "ruby", "node", "nodejs", "php", "lua", "bun"})
MAX_DECODED = 1 << 20


def executes_stdin(view: SegmentView) -> bool:
    """Whether the command runs what arrives on stdin as code (``sh``, ``bash -s``, ``python -``)."""
    exe = view.exe
    if exe in ("eval", "source", ".") and view.values[:1] in (["/dev/stdin"], ["-"]):
        return True
    if exe not in SHELLS and exe not in STDIN_INTERPRETERS and not PYTHON.match(exe):
        return False
    payloads = payloads_for(exe, view.args, ())
    return not payloads or all(p.kind == "script" and p.text in ("-", "/dev/stdin") for p in payloads)


def static_output(stages: Sequence[Segment]) -> tuple[str | None, bool]:
    """(what the stages print if statically known, whether any stage decodes)."""
    data: str | None = None
    decoded = False
    for stage in stages:
        body = stdin_body(stage.redirects)
        if body is not None:
            data = body
        argv = unwrap(stage.argv).argv
        if not argv:
            return None, decoded
        exe = executable(argv[0].value).name
        values = [w.value for w in argv[1:]]
        data, step_decoded = _apply(exe, values, data)
        decoded |= step_decoded
        if data is not None and len(data) > MAX_DECODED:
            data = None
    return data, decoded


def _apply(exe: str, values: list[str], data: str | None) -> tuple[str | None, bool]:
    options = parse_options(values)
    if exe == "echo":
        text = " ".join(options.operands) + ("" if "-n" in options.flags else "\n")
        return (_escapes(text) if "-e" in options.flags else text), "-e" in options.flags and "\\" in text
    if exe == "printf":
        return _printf(values)
    if exe == "cat" and not options.operands:
        return data, False
    if data is None:
        return None, _is_decoder(exe, options)
    if exe in ("base64", "base32") and options.has("-d", "--decode", "-D"):
        return _try(lambda: (base64.b64decode if exe == "base64" else base64.b32decode)(_strip(data)).decode()), True
    if exe == "xxd" and options.has("-r"):
        return _try(lambda: binascii.unhexlify(_strip(data)).decode()), True
    if exe == "rev":
        return "\n".join(line[::-1] for line in data.split("\n")), True
    if exe in ("gunzip", "zcat") or (exe == "gzip" and options.has("-d")):
        import gzip

        return _try(lambda: gzip.decompress(data.encode("latin-1")).decode()), True
    if exe == "tr" and len(options.operands) == 2 and "-d" not in options.flags:
        return _tr(data, *options.operands), True
    return None, _is_decoder(exe, options)


def _is_decoder(exe: str, options) -> bool:
    return (exe in ("base64", "base32") and options.has("-d", "--decode", "-D")) or (exe == "xxd" and options.has("-r")) \
        or exe in ("rev", "gunzip", "zcat", "uudecode") or (exe == "openssl" and "-d" in options.flags)


def _printf(values: list[str]) -> tuple[str | None, bool]:
    if not values:
        return None, False
    fmt, args = values[0], values[1:]
    decoded = bool(re.search(r"\\(x[0-9a-fA-F]|[0-7]{1,3}|u[0-9a-fA-F])", fmt))
    text = _escapes(fmt)
    if "%" in text:
        if not args or re.search(r"%[^s%]", text):
            return None, decoded
        try:
            text = text.replace("%%", "\0") % tuple(args[: text.count("%s")]) if text.count("%s") <= len(args) else None
        except (TypeError, ValueError):
            return None, decoded
        text = text.replace("\0", "%") if text is not None else None
    return text, decoded


def _escapes(text: str) -> str:
    try:
        return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return text


def _tr(data: str, source: str, target: str) -> str | None:
    if any(c in source + target for c in "[-\\"):
        return None
    target = (target * len(source))[: len(source)] if target else ""
    return data.translate(str.maketrans(source, target)) if len(target) == len(source) else None


def _strip(data: str) -> str:
    return re.sub(r"\s+", "", data)


def _try(func) -> str | None:
    try:
        return func()
    except (ValueError, binascii.Error, UnicodeDecodeError, OSError, EOFError):
        return None
