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

# One alternation, one scan per text: group name = fact kind.
_VALUES = re.compile(
    r"(?P<url>\b(?:https?|ssh|git|s3|gs|postgres(?:ql)?|mysql|redis|mongodb)://[^\s'\"<>`)\]}]+)"
    r"|(?P<hash>\bsha(?:1|256|512):[0-9a-fA-F]{16,128}\b|\b[0-9a-f]{40}\b|\b[0-9a-f]{64}\b)"
    r"|(?P<uuid>\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)"
    r"|(?P<date>\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b)"
    r"|(?P<ip>\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b)"
    r"|(?P<version>\bv\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?\b|\b\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b"
    r"|\b[A-Za-z][\w.-]*(?:==|@)\d+(?:\.\d+)+\b)"
    r"|(?P<path>(?<![\w/.:-])(?:~|\.{1,2})?/[\w.@%+-]+(?:/[\w.@%+-]+)*/?"
    r"|\b[\w.-]+(?:/[\w.@%+-]+)+\.[A-Za-z0-9]{1,8}\b"
    r"|\b[\w-]+\.(?:py|js|ts|tsx|jsx|toml|json|ya?ml|md|txt|rs|go|sh|cfg|ini|lock|sql|env|conf|c|h|cpp|java|rb)\b)"
    r"|(?P<host>\b(?:[a-z0-9][a-z0-9-]*\.)+(?:com|net|org|io|dev|internal|local|lan|ai|co|cloud|app|svc|corp)(?::\d{1,5})?\b)"
    r"|(?P<ticket>\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b)"
    r"|(?P<env>\b[A-Z][A-Z0-9_]{2,}=[^\s'\"`]+)"
    r"|(?P<short>\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}\b)"
)
_KIND = {"date": "date", "url": "url", "hash": "hash", "uuid": "identifier", "ip": "host", "version": "version", "path": "path",
         "host": "host", "ticket": "identifier", "env": "identifier", "short": "hash"}
_CODE_SPAN = re.compile(r"`([^`\n]{1,%d})`" % MAX_SPAN)
_CONSTRAINT = re.compile(r"\b(?:must|never|always|do not|don't|must not|mustn't|required?)\b", re.IGNORECASE)
_DECISION = re.compile(
    r"\b(?:decided|decision|we will|we'll|i will use|i'll use|going with|chose|choose|switch(?:ed)? to|instead of|prefer)\b",
    re.IGNORECASE,
)
_ERROR = re.compile(r"\b(?:error|exception|traceback|failed|failure|fatal|panic|denied|not found)\b", re.IGNORECASE)
_FIX = re.compile(r"\b(?:fix(?:ed|es)?|resolved|the (?:problem|issue|cause) was|caused by|works now|root cause)\b", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])|\n+")
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
    """The durable facts of one event (duplicates within the event removed)."""
    seen: dict[tuple[str, str], Fact] = {}
    for fact in _event_facts(event):
        seen.setdefault(fact.key, fact)
    return list(seen.values())


def _event_facts(event: Event) -> Iterator[Fact]:
    def make(value: str, kind: str) -> Fact:
        return Fact(value, kind, event.line, event.id, event.role)

    if event.kind == SUMMARY:
        return
    if event.kind in (MESSAGE, TOOL_CALL) and event.role == "user" and not event.injected:
        yield from (make(v, k) for v, k in values(event.text))
        yield from (make(s, "value") for s in _CODE_SPAN.findall(event.text))
        yield from (make(s, "constraint") for s in sentences(event.text, _CONSTRAINT))
        yield from (make(s, "decision") for s in sentences(event.text, _DECISION))
    elif event.kind in (MESSAGE, TOOL_CALL) and event.role == "assistant":
        yield from (make(s, "decision") for s in sentences(event.text, _DECISION))
        yield from (make(s, "fix") for s in sentences(event.text, _FIX))
    if event.kind == TOOL_RESULT:
        for result in event.tool_results:
            yield from (make(v, k) for v, k in values(result.output))
            line = error_line(result.output) if result.is_error or _ERROR.search(result.output[:4000]) else None
            if line:
                yield make(line, "error")


def values(text: str) -> Iterator[tuple[str, str]]:
    """``(value, kind)`` for every concrete value in ``text``, verbatim."""
    for match in _VALUES.finditer(text):
        group = match.lastgroup
        value = match.group().rstrip(".,;:")
        if group == "path" and (value in _TRIVIAL_PATHS or len(value) < 3):
            continue
        yield value, _KIND[group]


def sentences(text: str, pattern: re.Pattern) -> Iterator[str]:
    if not pattern.search(text):
        return
    for sentence in _SENTENCES.split(text):
        sentence = sentence.strip(" \t-*>#")
        if 8 <= len(sentence) <= MAX_SENTENCE and pattern.search(sentence):
            yield sentence


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
