"""Extract durable facts: concrete values stated by the user or found by tools.

Kinds: ``path``, ``url``, ``date``, ``host``, ``version``, ``hash``, ``identifier``,
``value`` (a `code span` the user typed), ``constraint`` (must/never/always
sentences), ``error``, ``fix``, ``decision``. Values are copied verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from horizon_cli.transcript.model import MESSAGE, SUMMARY, TOOL_CALL, TOOL_RESULT, Event

MAX_SENTENCE = 400
MAX_SPAN = 200

# Values are found token by token: a fast scan for tokens holding a digit or one
# of / : . = @ - (one big alternation was 40x slower), then anchored checks.
_TOKEN = re.compile(r"[/:.=@0-9-][^\s]*")
_SPLIT = re.compile(r"[\"'`()\[\]{}<>,;|]+")
_HAS_SPLIT = re.compile(r"[\"'`()\[\]{}<>,;|]")
_URL = re.compile(r"(?:https?|ssh|git|s3|gs|postgres(?:ql)?|mysql|redis|mongodb)://[^\s'\"<>`)\]}]+")
_TLDS = "com|net|org|io|dev|internal|local|lan|ai|co|cloud|app|svc|corp"
_EXTENSIONS = ("py|js|ts|tsx|jsx|toml|json|ya?ml|md|txt|rs|go|sh|cfg|ini|lock|sql|env|conf|c|h|cpp|java|rb|db|log|csv|"
               "html|css|xml|pem|key|tf|lua|php|swift|kt")
_CHECKS: tuple[tuple[str, re.Pattern], ...] = (
    ("identifier", re.compile(r"[A-Z][A-Z0-9_]{2,}=\S+")),
    ("identifier", re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")),
    ("hash", re.compile(r"sha(?:1|256|512):[0-9a-fA-F]{16,128}|[0-9a-f]{40}|[0-9a-f]{64}")),
    ("host", re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?")),
    ("date", re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")),
    ("version", re.compile(r"v\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?|\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?"
                           r"|[A-Za-z][\w.-]*(?:==|@)v?\d+(?:\.\d+)+")),
    ("identifier", re.compile(r"[A-Z][A-Z0-9]{1,9}-\d{1,7}")),
    ("host", re.compile(r"(?:[a-z0-9][a-z0-9-]*\.)+(?:%s)(?::\d{1,5})?" % _TLDS)),
    ("path", re.compile(r"(?:~|\.{1,2})?/[\w.@%+-]+(?:/[\w.@%+-]+)*/?"
                        r"|[\w.@%+-]+(?:/[\w.@%+-]+)+\.[A-Za-z][A-Za-z0-9]{0,7}"
                        r"|[\w.-]+\.(?:" + _EXTENSIONS + r")")),
    ("hash", re.compile(r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}")),
)
_LOCATION = re.compile(r"(?:::[\w\[\]-]+|:\d+(?::\d+)?)$")  # file.py:12, tests/x.py::test_y
_CODE_SPAN = re.compile(r"`([^`\n]{1,%d})`" % MAX_SPAN)
_CONSTRAINT = re.compile(r"\b(?:must|never|always|do not|don't|must not|mustn't|required?)\b", re.IGNORECASE)
_DECISION = re.compile(
    r"\b(?:decided|decision|we will|we'll|i will use|i'll use|going with|chose|choose|switch(?:ed)? to|instead of|prefer)\b",
    re.IGNORECASE,
)
_ERROR = re.compile(r"\b(?:error|exception|traceback|failed|failure|fatal|panic|denied|not found)\b", re.IGNORECASE)
_FIX = re.compile(r"\b(?:fix(?:ed|es)?|resolved|the (?:problem|issue|cause) was|caused by|works now|root cause)\b", re.IGNORECASE)
# Substring pre-checks (on lower-cased text) before the regexes: most text has none.
_CONSTRAINT_WORDS = ("must", "never", "always", "do not", "don't", "requir")
_DECISION_WORDS = ("decid", "decision", "we will", "we'll", "i will use", "i'll use", "going with", "chose", "choose",
                   "switch", "instead of", "prefer")
_ERROR_WORDS = ("error", "exception", "traceback", "fail", "fatal", "panic", "denied", "not found")
_FIX_WORDS = ("fix", "resolved", "the problem was", "the issue was", "the cause was", "caused by", "works now", "root cause")
_USER_WORDS = _CONSTRAINT_WORDS + _DECISION_WORDS
_ASSISTANT_WORDS = _DECISION_WORDS + _FIX_WORDS
_TRIVIAL_PATHS = frozenset({"/", "//", "./", "../", "~/"})


@dataclass(frozen=True, slots=True)
class Fact:
    fact: str
    kind: str
    line: int
    id: str | None = None
    role: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.fact)

    def record(self, source: str) -> dict:
        ref: dict = {"file": source, "line": self.line}
        if self.id is not None:
            ref["id"] = self.id
        if self.role is not None:
            ref["role"] = self.role
        return {"fact": self.fact, "kind": self.kind, "source": ref}


def extract_facts(event: Event) -> list[Fact]:
    """The durable facts of one event, in order (duplicates within the event removed)."""
    if event.kind == SUMMARY:
        return []
    found: dict[tuple[str, str], None] = {}
    if event.kind in (MESSAGE, TOOL_CALL) and event.text:
        _prose_facts(event, found)
    if event.kind == TOOL_RESULT:
        for result in event.tool_results:
            output = result.output
            for pair in values(output):
                found[pair] = None
            if result.is_error or _mentions(output[:4000].lower(), _ERROR_WORDS):
                line = error_line(output)
                if line:
                    found[(line, "error")] = None
    line, ident, role = event.line, event.id, event.role
    return [Fact(value, kind, line, ident, role) for value, kind in found]


def _prose_facts(event: Event, found: dict) -> None:
    text = event.text
    if event.role == "user" and not event.injected:
        for pair in values(text):
            found[pair] = None
        for span in _CODE_SPAN.findall(text):
            found[(span, "value")] = None
        checks = ((_CONSTRAINT_WORDS, _CONSTRAINT, "constraint"), (_DECISION_WORDS, _DECISION, "decision"))
        screen = _USER_WORDS
    elif event.role == "assistant":
        checks = ((_DECISION_WORDS, _DECISION, "decision"), (_FIX_WORDS, _FIX, "fix"))
        screen = _ASSISTANT_WORDS
    else:
        return
    lower = text.lower()
    if not _mentions(lower, screen):
        return  # the common case: one screen instead of one per kind
    prose = Text(text, lower)
    for words, pattern, kind in checks:
        for sentence in prose.sentences(words, pattern):
            found[(sentence, kind)] = None


def _mentions(lower: str, words: tuple[str, ...]) -> bool:
    for word in words:
        if word in lower:
            return True
    return False


class Text:
    """A text and its lower-cased copy: keyword checks are substring tests, and
    only the sentences around a keyword are cut out (no full sentence split)."""

    def __init__(self, text: str, lower: str | None = None):
        self.text = text
        self.lower = text.lower() if lower is None else lower

    def sentences(self, words: tuple[str, ...], pattern: re.Pattern) -> Iterator[str]:
        if not _mentions(self.lower, words):
            return
        text, end = self.text, -1
        for match in pattern.finditer(text):
            if match.start() < end:
                continue  # same sentence as the previous keyword
            start, end = _sentence_bounds(text, match.start())
            sentence = text[start:end].strip(" \t-*>#")
            if 8 <= len(sentence) <= MAX_SENTENCE:
                yield sentence


def _sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    lo = max(0, pos - MAX_SENTENCE)
    start = max(text.rfind(". ", lo, pos), text.rfind("! ", lo, pos), text.rfind("? ", lo, pos))
    start = start + 2 if start >= 0 else lo
    start = max(start, text.rfind("\n", lo, pos) + 1)
    hi = min(len(text), pos + MAX_SENTENCE)
    ends = [i + 1 for i in (text.find(". ", pos, hi), text.find("! ", pos, hi), text.find("? ", pos, hi)) if i >= 0]
    newline = text.find("\n", pos, hi)
    if newline >= 0:
        ends.append(newline)
    return start, min(ends) if ends else hi


def values(text: str) -> Iterator[tuple[str, str]]:
    """``(value, kind)`` for every concrete value in ``text``, verbatim, in order."""
    for match in _TOKEN.finditer(text):
        start = match.start()
        lo = max(0, start - 256)
        start = max(text.rfind(" ", lo, start), text.rfind("\n", lo, start), text.rfind("\t", lo, start), lo - 1) + 1
        token = text[start:match.end()]
        if "://" in token:
            for url in _URL.findall(token):
                yield url.rstrip(".,;:"), "url"
            continue
        parts = _SPLIT.split(token) if _HAS_SPLIT.search(token) else (token,)
        for part in parts:
            found = classify(part.rstrip(".,;:!?*"))
            if found is not None:
                yield found


def classify(token: str) -> tuple[str, str] | None:
    """The kind of one token, if it is a concrete value (``key=value`` is judged by its value)."""
    if len(token) < 3:
        return None
    for kind, pattern in _CHECKS:
        if pattern.fullmatch(token):
            return (token, kind) if token not in _TRIVIAL_PATHS else None
    if "=" in token:
        return classify(token.split("=", 1)[1])
    located = _LOCATION.search(token)
    if located and located.start() > 0:
        return classify(token[: located.start()])
    return None


def error_line(output: str) -> str | None:
    """The first line of an output that names an error, else its first non-blank line."""
    first = None
    for line in output.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if _ERROR.search(stripped):
            return stripped[:MAX_SENTENCE]
        first = first or stripped[:MAX_SENTENCE]
    return first
