"""What can be seen inside code for other languages (python -c, perl -e, awk, node -e).

The code is not executed or parsed in full: shell strings handed to
system()/popen()/subprocess/exec are extracted so the shell classifier can
judge them; URLs and secret paths are found by the engine's text scans.
"""

from __future__ import annotations

import re

_CALLS = (
    r"(?:os\.)?(?:system|popen|popen2|popen3|getoutput|getstatusoutput|check_output|check_call|call|run|Popen"
    r"|exec|execSync|execFileSync|spawn|spawnSync|shell_exec|passthru|proc_open|spawn_command)"
)
_STRING_CALL = re.compile(_CALLS + r"""\s*\(\s*[rbfu]?(?P<q>['"])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""", re.S)
_LIST_CALL = re.compile(_CALLS + r"\s*\(\s*\[(?P<items>[^\]]*)\]", re.S)
_LITERAL = re.compile(r"""(?P<q>['"])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""", re.S)
_BACKTICK = re.compile(r"`([^`]+)`")
_QX = re.compile(r"(?:qx|%x)\s*([({\[/|!])(.*?)[)}\]/|!]", re.S)
_AWK_GETLINE = re.compile(r""""([^"]+)"\s*\|\s*getline""")
_AWK_PIPE_OUT = re.compile(r"""\|\s*"([^"]+)\"""")
EXEC_HINTS = re.compile(r"system|popen|subprocess|exec|spawn|child_process|getline|qx|`|shell_exec|passthru|\|\s*\"")


def shell_strings(code: str, language: str) -> list[str]:
    """Literal shell commands the code would hand to a shell."""
    if not EXEC_HINTS.search(code):
        return []
    found = [_unescape(m.group("s")) for m in _STRING_CALL.finditer(code)]
    for match in _LIST_CALL.finditer(code):
        items = [_unescape(m.group("s")) for m in _LITERAL.finditer(match.group("items"))]
        if items:
            found.append(" ".join(_quote(item) for item in items))
    if language in ("perl", "ruby", "php", "shell"):
        found.extend(m.group(1) for m in _BACKTICK.finditer(code))
        found.extend(m.group(2) for m in _QX.finditer(code))
    if language == "awk":
        found.extend(m.group(1) for m in _AWK_GETLINE.finditer(code))
        found.extend(m.group(1) for m in _AWK_PIPE_OUT.finditer(code))
    return [s for s in found if s.strip()]


def runs_commands(code: str) -> bool:
    """Whether the code visibly hands anything to a shell or spawns processes."""
    return bool(EXEC_HINTS.search(code))


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _quote(item: str) -> str:
    return item if item and re.fullmatch(r"[\w@%+=:,./-]+", item) else "'" + item.replace("'", "'\\''") + "'"
