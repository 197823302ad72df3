"""Secret reads (HZ401) and secret-looking environment variables (HZ402).

A secret-shaped path counts wherever a reading command can see it: as an
operand, inside an option value (``--netrc-file=…``, ``-F file=@…``, ``-v ~/.aws:…``)
or as an input redirection of any command.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from horizon_cli.guard import paths
from horizon_cli.guard.config import GuardConfig
from horizon_cli.guard.model import Verdict, Word
from horizon_cli.guard.view import Hit, SegmentView

_PIECES = re.compile(r"[=@,:]")
_PATH_TOKENS = re.compile(r"[~$\w./{}*?\[\]-]*[./][\w./{}*?\[\]-]+")
SECRET_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|_PAT|AUTH)\w*)", re.I)


def secret_hits(view: SegmentView, config: GuardConfig) -> list[Hit]:
    verdict = config.verdict("HZ401", Verdict.DENY)
    if verdict is None:
        return []
    exempt = config.readers_exempt
    if view.exe not in exempt and not (view.sub and f"{view.exe} {view.sub}" in exempt):
        operands = _file_operands(view)
        for word in operands:
            hit = _word_hit(word, config, verdict, view.exe)
            if hit:
                return [hit]
        if _recursive(view):
            hit = _directory_hit(operands, config, verdict, view.exe)
            if hit:
                return [hit]
    for redirect in view.segment.redirects:
        if redirect.op == "<" and redirect.target is not None:
            hit = _word_hit(redirect.target, config, verdict, f"{view.exe or 'input'} <")
            if hit:
                return [hit]
    return []


# Tools whose first operand is a program or pattern, not a file (unless -e/-f supplies it).
PROGRAM_FIRST = {"sed": ("-e", "--expression", "-f", "--file"), "awk": ("-f", "--file"), "gawk": ("-f", "--file"),
                 "mawk": ("-f",), "grep": ("-e", "--regexp", "-f", "--file"), "egrep": ("-e", "-f"),
                 "fgrep": ("-e", "-f"), "rg": ("-e", "--regexp", "-f", "--file"), "jq": ("-f", "--from-file")}


WRITE_ONLY_OPTIONS = {"openssl": ("-out",), "curl": ("-o", "--output", "-c", "--cookie-jar"), "wget": ("-O", "-o")}
COPY_TOOLS = frozenset({"cp", "mv", "install", "ln"})


def _file_operands(view: SegmentView) -> list[Word]:
    """The words that may name files it reads: all, minus what is only written (cp's destination,
    openssl -out) and a sed/awk/grep program operand."""
    args = view.args
    if view.exe in COPY_TOOLS and len([w for w in args if not w.value.startswith("-")]) >= 2:
        last = max(i for i, w in enumerate(args) if not w.value.startswith("-"))
        args = args[:last] + args[last + 1 :]
    written = WRITE_ONLY_OPTIONS.get(view.exe, ())
    if written:
        args = [w for i, w in enumerate(args) if not (i and args[i - 1].value in written)]
    view = SegmentView(view.segment, view.exe, view.sub, args, view.wrappers, view.stdin_args)
    given = PROGRAM_FIRST.get(view.exe)
    if given is None or any(w.value in given or w.value.startswith(given) for w in view.args if w.value.startswith("-")):
        return view.args
    for index, word in enumerate(view.args):
        if not word.value.startswith("-") or word.value == "-":
            return view.args[:index] + view.args[index + 1 :]
    return view.args


ALWAYS_RECURSIVE = frozenset({"rg", "ag", "ack", "tar", "bsdtar", "7z", "restic", "borg"})
RECURSIVE_FLAGS = {"grep": ("-r", "-R", "--recursive"), "egrep": ("-r", "-R"), "fgrep": ("-r", "-R"),
                   "cp": ("-r", "-R", "-a", "--recursive", "--archive"), "scp": ("-r",), "zip": ("-r",),
                   "rsync": ("-r", "-a", "--recursive", "--archive")}


def _recursive(view: SegmentView) -> bool:
    """Commands that read everything under a directory operand (`grep -r '' ~/.ssh`, `tar c ~/.aws`)."""
    if view.exe in ALWAYS_RECURSIVE:
        return True
    flags = RECURSIVE_FLAGS.get(view.exe)
    if not flags:
        return False
    from horizon_cli.guard.argv import parse_options

    options = parse_options(view.values)
    return bool((options.flags | options.values.keys()).intersection(flags))


def _directory_hit(operands: list[Word], config: GuardConfig, verdict: Verdict, reader: str) -> Hit | None:
    for word in operands:
        value = word.value
        if not word.static or value.startswith("-") or _WILDCARD.search(value) or not value:
            continue
        inside = value.rstrip("/") + "/*"
        matched = _secret_match(inside, True, True, config.secret_paths, config.secret_exclude)
        if matched:
            return Hit("HZ401", verdict, f"{reader} reads the secrets under {paths.display_path(value)} (matches {matched})")
    return None


def text_secret_hits(text: str, config: GuardConfig, via: str) -> list[Hit]:
    """Secret paths visible in code for another language (python -c, node -e, heredocs)."""
    verdict = config.verdict("HZ401", Verdict.DENY)
    if verdict is None:
        return []
    for token in _PATH_TOKENS.findall(text):
        for candidate in _candidates(token):
            if _WILDCARD.search(candidate):
                continue  # literal code text: brackets and stars are code, not globs
            matched = paths.match_any(candidate, config.secret_paths, config.secret_exclude)
            if matched:
                return [Hit("HZ401", verdict, f"{via} reads secret {candidate} (matches {matched})")]
    return []


def secret_variable_hits(words: Iterable[Word], config: GuardConfig) -> list[Hit]:
    verdict = config.verdict("HZ402", Verdict.GATE)
    if verdict is None:
        return []
    for word in words:
        if not word.static:
            match = SECRET_VARIABLE.search(word.raw)
            if match:
                return [Hit("HZ402", verdict, f"uses the secret-looking variable ${match.group(1)}")]
    return []


def _word_hit(word: Word, config: GuardConfig, verdict: Verdict, reader: str) -> Hit | None:
    literal = word.static and not word.glob
    text = word.value if literal else word.match_pattern
    for candidate in _candidates(text):
        if literal and _WILDCARD.search(candidate):
            continue  # quoted '*', '[' in a literal word: a regex or a program, never a secret's path
        matched = _secret_match(candidate, word.glob, not literal, config.secret_paths, config.secret_exclude)
        if matched:
            return Hit("HZ401", verdict, f"{reader} reads secret {paths.display_path(candidate)} (matches {matched})")
    return None


@lru_cache(maxsize=8192)
def _secret_match(candidate: str, is_glob: bool, wild: bool, patterns: tuple[str, ...],
                  exclude: tuple[str, ...]) -> str | None:
    """Which secret pattern a (possibly wildcard) path could match.

    Wildcard words must line up a literal character with the pattern (``require_literal``):
    `cat "$dir/$name"` names no secret, `cat ~/.aws/*` and `cat .en?` do. Glob words need an
    automaton intersection per pattern and the same words recur constantly, hence the cache
    and the cheap tail filter first."""
    if wild:
        pairs = _bigrams(candidate)
        patterns = tuple(p for p in patterns if pairs & _bigrams(p) and _tails_compatible(candidate, p))
    if is_glob and "{" not in candidate:
        segments = [seg.lower() for seg in paths.normalize_path(candidate).split("/")]
        patterns = tuple(p for p in patterns if _segments_compatible(segments, p))
    if not patterns:
        return None
    return paths.match_any(candidate, patterns, exclude, word_is_glob=is_glob, require_literal=wild)


_WILDCARD = re.compile(r"[*?\[\]{}]")


@lru_cache(maxsize=4096)
def _bigrams(text: str) -> frozenset[str]:
    """Adjacent literal character pairs. A wildcard word counts as naming a secret only when a
    literal piece of it shares two adjacent characters with the pattern (`.en?` ~ `.env`,
    `~/.aws/*` ~ `.aws`, `*.pem` ~ `*.pem`, `~/.*` ~ `/.netrc`): one shared letter is no evidence, and this spares
    the automaton for nearly every word."""
    pieces = re.split(r"[*?\[\]{}~!^]+", text.lower())  # '/' stays: `~/.*` shares '/.' with `**/.netrc`
    return frozenset(piece[i : i + 2] for piece in pieces for i in range(len(piece) - 1))


def _segments_compatible(word_segments: list[str], pattern: str) -> bool:
    """For a glob word (whose wildcards never cross '/'): every literal segment of the pattern
    (`.aws` in `**/.aws/**`) must be matchable by one of the word's segments."""
    for form in paths.pattern_forms(pattern):
        parts = form.lower().split("/")
        literal = [seg for seg in parts if seg and not _WILDCARD.search(seg) and seg != "~"]
        if not all(any(_glob_matches(seg, ws) for ws in word_segments) for seg in literal):
            continue
        if parts[-1] != "**" and not _heads_compatible(parts[-1], word_segments[-1]):
            continue  # the last segments must be able to start alike ('.env.*' never meets 'perl*')
        if not _trailing_segments_compatible(word_segments, parts):
            continue
        if not _leading_segments_compatible(word_segments, parts):
            continue
        return True
    return False


def _leading_segments_compatible(word_segments: list[str], parts: list[str]) -> bool:
    """An absolute pattern (`/proc/*/environ`) and an absolute word must agree segment by segment
    from the root until the pattern's first `**`."""
    if parts[0] != "" or word_segments[0] != "":
        return True
    for word, pattern in zip(word_segments[1:], parts[1:]):
        if pattern == "**":
            return True
        if not _segment_pair(word, pattern):
            return False
    return len(word_segments) == len(parts) or "**" in parts


def _trailing_segments_compatible(word_segments: list[str], parts: list[str]) -> bool:
    """`**/.ssh/*` ends in exactly two segments, so `/path/to/dir/*` (whose next-to-last is `dir`)
    cannot meet it. Only decidable when the pattern has no other `**` and the word is long enough."""
    if not parts or parts[0] != "**" or "**" in parts[1:]:
        return True
    tail = parts[1:]
    if len(word_segments) < len(tail):
        return True  # a short relative word may sit anywhere
    return all(_segment_pair(w, p) for w, p in zip(word_segments[-len(tail):], tail))


def _segment_pair(word: str, pattern: str) -> bool:
    if not _WILDCARD.search(pattern):
        return _glob_matches(pattern, word)
    if not _WILDCARD.search(word):
        return fnmatch.fnmatchcase(word, pattern)
    return _heads_compatible(word, pattern)


def _glob_matches(name: str, glob: str) -> bool:
    """bash pathname expansion: a wildcard never matches a leading '.' (no dotglob)."""
    if name.startswith(".") and not glob.startswith("."):
        return False
    return fnmatch.fnmatchcase(name, glob)


def _heads_compatible(first: str, second: str) -> bool:
    a, b = (_WILDCARD.split(x, 1)[0] for x in (first, second))
    return a.startswith(b) or b.startswith(a)


def _literal_tail(glob: str) -> str:
    parts = _WILDCARD.split(glob)
    return parts[-1] if len(parts) > 1 else glob


def _tails_compatible(word: str, pattern: str) -> bool:
    """A necessary condition for a glob word and a pattern to match a common path: the literal
    text after their last wildcards must end the same way (`*.txt` never meets `**/.env`).
    Cheap, and it spares the automaton intersection for almost every glob word."""
    if "{" in word or "{" in pattern:
        return True
    word_tail = _literal_tail(paths.normalize_path(word))
    return any(
        word_tail.endswith(tail) or tail.endswith(word_tail)
        for tail in (_literal_tail(form) for form in paths.pattern_forms(pattern))
    )


def could_name(candidate: str, patterns: tuple[str, ...], exclude: tuple[str, ...] = ()) -> str | None:
    """Which of ``patterns`` a path word could match, with the same screening as secret reads
    (wildcards need literal evidence); for callers such as the persistence-write check."""
    wild = _WILDCARD.search(candidate) is not None
    return _secret_match(candidate, wild, wild, patterns, exclude)


def _candidates(text: str) -> Iterator[str]:
    """The word and the path-looking pieces inside option values."""
    if _pathish(text):
        yield text
    if _PIECES.search(text):
        for piece in _PIECES.split(text):
            if piece and piece != text and _pathish(piece):
                yield piece


def _pathish(text: str) -> bool:
    return len(text) > 1 and not text.startswith("-") and ("/" in text or "." in text or "*" in text or "?" in text)
