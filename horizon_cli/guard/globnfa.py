"""Do two path globs share a string?  Tiny NFAs over a finite representative alphabet.

Used for "globs that could match": the shell word is itself a glob (``cat .en?``)
or contains unresolved parts (``$HOME/.aws/x`` -> ``*/.aws/x``), and we ask
whether some path matches the word, matches a policy pattern, and matches no
exclusion.  Glob transitions only test membership in explicitly written
character sets, so the characters written in either glob plus one fresh
"any other" character form a sufficient alphabet; a subset construction on
the fly then decides the question exactly (bounded; overflow answers True,
failing closed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# How a wildcard behaves.
PATTERN = "pattern"  # policy glob: '*' stays in a segment, matches leading dots; '**' spans segments
WORD_GLOB = "glob"  # bash pathname expansion: no '/' crossing, no leading '.' at a segment start
WORD_DYNAMIC = "dynamic"  # '*' stands for an unresolved expansion: any text, '/' included
WORD_SEGMENT = "segment"  # an unresolved expansion assumed to stay within one path segment

_OTHER = "\x00"  # represents every character no glob mentions
_MAX_STATES = 20000
_MAX_RANGE = 256


class CharSet:
    """A set of characters one transition accepts (``negate``: all but ``chars``)."""

    __slots__ = ("chars", "negate", "slash", "lead_dot")

    def __init__(self, chars: frozenset[str], negate: bool = False, slash: bool = False, lead_dot: bool = True):
        self.chars = chars
        self.negate = negate
        self.slash = slash  # may match '/'
        self.lead_dot = lead_dot  # may match '.' at the start of a segment

    def accepts(self, char: str, seg_start: bool) -> bool:
        if char == "/" and not self.slash:
            return False
        if char == "." and seg_start and not self.lead_dot:
            return False
        return (char in self.chars) != self.negate


ANY: frozenset[str] = frozenset()
_ANY_CHAR = CharSet(ANY, True, True, True)
_SLASH = CharSet(frozenset("/"), False, True, True)


class Nfa:
    """States are list indexes: character moves, epsilon moves, accepting set, characters mentioned."""

    __slots__ = ("moves", "eps", "accept", "alphabet")

    def __init__(self) -> None:
        self.moves: list[list[tuple[CharSet, int]]] = []
        self.eps: list[list[int]] = []
        self.accept: set[int] = set()
        self.alphabet: set[str] = set()

    def state(self) -> int:
        self.moves.append([])
        self.eps.append([])
        return len(self.moves) - 1


def _parse_class(glob: str, index: int) -> tuple[frozenset[str], bool, int] | None:
    """``[...]`` at ``index`` -> (chars, negated, index after ']'), or None if unterminated."""
    pos = index + 1
    negate = pos < len(glob) and glob[pos] in "!^"
    if negate:
        pos += 1
    chars: set[str] = set()
    first = True
    while pos < len(glob) and (glob[pos] != "]" or first):
        first = False
        char = glob[pos]
        if pos + 2 < len(glob) and glob[pos + 1] == "-" and glob[pos + 2] != "]":
            low, high = ord(char), ord(glob[pos + 2])
            if high - low > _MAX_RANGE:
                chars.update((char, glob[pos + 2]))
            else:
                chars.update(chr(code) for code in range(low, high + 1))
            pos += 3
            continue
        chars.add(char)
        pos += 1
    if pos >= len(glob):
        return None
    return frozenset(chars), negate, pos + 1


def build(glob: str, mode: str, nfa: Nfa | None = None) -> tuple[Nfa, int]:
    """Add ``glob`` to ``nfa`` (a fresh one by default); returns (nfa, start state)."""
    nfa = nfa or Nfa()
    start = current = nfa.state()
    tail_dir = mode == PATTERN and glob.endswith("/**") and len(glob) > 3
    if tail_dir:  # 'dir/**' also matches 'dir' itself: copying the directory reads everything in it
        glob = glob[:-3]
    index, length = 0, len(glob)
    wild_slash = mode == WORD_DYNAMIC
    wild_dot = mode != WORD_GLOB
    nfa.alphabet.update("/.")
    while index < length:
        char = glob[index]
        seg_begin = index == 0 or glob[index - 1] == "/"
        if mode == PATTERN and glob.startswith("**", index) and seg_begin:
            end = index + 2
            if end == length:  # trailing '/**' (or the whole glob): anything, even nothing
                nfa.moves[current].append((_ANY_CHAR, current))
                index = end
                continue
            if glob[end] == "/":  # '**/': zero or more whole segments
                target, inner = nfa.state(), nfa.state()
                nfa.eps[current].append(target)
                for state in (current, inner):
                    nfa.moves[state].append((_ANY_CHAR, inner))
                    nfa.moves[state].append((_SLASH, target))
                current = target
                index = end + 1
                continue
        nxt = nfa.state()
        if char == "*":
            while index + 1 < length and glob[index + 1] == "*":
                index += 1
            wild = CharSet(ANY, True, wild_slash, wild_dot)
            hold = nfa.state()
            nfa.eps[current].append(nxt)
            nfa.moves[current].append((wild, hold))
            nfa.moves[hold].append((CharSet(ANY, True, wild_slash, True), hold))
            nfa.eps[hold].append(nxt)
        elif char == "?":
            nfa.moves[current].append((CharSet(ANY, True, wild_slash, wild_dot), nxt))
        elif char == "[" and (parsed := _parse_class(glob, index)) is not None:
            chars, negate, index = parsed
            nfa.alphabet.update(chars)
            nfa.moves[current].append((CharSet(chars, negate, False, wild_dot or not negate), nxt))
            current = nxt
            continue
        else:
            if char == "\\" and index + 1 < length:
                index += 1
                char = glob[index]
            nfa.alphabet.add(char)
            nfa.moves[current].append((CharSet(frozenset(char), False, True, True), nxt))
        current = nxt
        index += 1
    nfa.accept.add(current)
    if tail_dir:
        inside = nfa.state()
        nfa.moves[current].append((_SLASH, inside))
        nfa.moves[inside].append((_ANY_CHAR, inside))
        nfa.accept.add(inside)
    return nfa, start


def _closures(nfa: Nfa) -> list[frozenset[int]]:
    """Epsilon closure of every state, computed once per NFA."""
    out = []
    for origin in range(len(nfa.moves)):
        stack, seen = [origin], {origin}
        while stack:
            for target in nfa.eps[stack.pop()]:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        out.append(frozenset(seen))
    return out


def _step(nfa: Nfa, closures: list[frozenset[int]], states: frozenset[int], char: str, seg: bool) -> frozenset[int]:
    out: set[int] = set()
    for state in states:
        for charset, target in nfa.moves[state]:
            if charset.accepts(char, seg):
                out |= closures[target]
    return frozenset(out)


def _representatives(cw: CharSet, cp: CharSet, seg: bool, alphabet: list[str], relevant: set[str]) -> list[str]:
    """Characters both transitions accept, one per class the rest of the search can tell apart.

    Only '/' (segment starts) and characters the exclusions mention change what happens next;
    every other accepted character is interchangeable, so one stands for all.
    """
    candidates = cw.chars if not cw.negate else cp.chars if not cp.negate else alphabet
    out: list[str] = []
    other = False
    for char in candidates:
        if cw.accepts(char, seg) and cp.accepts(char, seg):
            if char in relevant:
                out.append(char)
            elif not other:
                out.append(char)
                other = True
    return out


_SPECIAL = frozenset("*?[]\\")


def _literal_ends(glob: str) -> tuple[str, str]:
    """The literal text before the first and after the last wildcard (lowercased)."""
    glob = glob.lower()
    if glob.endswith("/**"):  # 'dir/**' also matches 'dir': nothing is known about the end
        return _literal_ends(glob[:-3])[0], ""
    head = 0
    while head < len(glob) and glob[head] not in _SPECIAL:
        head += 1
    if head == len(glob):
        return glob, glob
    tail = len(glob)
    while tail > 0 and glob[tail - 1] not in _SPECIAL:
        tail -= 1
    return glob[:head], glob[tail:]


def _ends_compatible(a: str, b: str) -> bool:
    """Cheap necessary condition for a common string: literal heads and tails must agree.

    ``src/*.py`` and ``**/*.pem`` cannot meet (tails ``.py``/``.pem``), nor can
    ``/etc/shadow`` and ``src/*`` (heads); most word/pattern pairs end here.
    """
    a_head, a_tail = _literal_ends(a)
    b_head, b_tail = _literal_ends(b)
    if not (a_head.startswith(b_head) or b_head.startswith(a_head)):
        return False
    return a_tail.endswith(b_tail) or b_tail.endswith(a_tail)


class Compiled:
    """An NFA for a union of globs with its epsilon closures and start set, reused across queries."""

    __slots__ = ("nfa", "closures", "start")

    def __init__(self, globs: tuple[tuple[str, str], ...]) -> None:
        self.nfa = Nfa()
        # Compared case-insensitively, like the regex matcher (case-insensitive file systems).
        starts = [build(glob.lower(), mode, self.nfa)[1] for glob, mode in globs]
        self.closures = _closures(self.nfa)
        self.start = frozenset().union(*(self.closures[s] for s in starts))


@lru_cache(maxsize=512)
def compiled(globs: tuple[tuple[str, str], ...]) -> Compiled:
    return Compiled(globs)


def intersects(
    words: list[tuple[str, str]], patterns: list[str], excludes: Sequence[str] = (), *, evidence: bool = False
) -> bool:
    """Is there a path matched by one of ``words`` ((glob, mode) pairs), one of ``patterns``, and no exclude?

    With ``evidence``, the path must also line up at least one literal (non-'/') character
    of the word with a literal character of the pattern: ``foo*`` *could* be ``foo.pem``,
    but nothing in it names a key file, while ``.en?`` and ``~/.aws/*`` do.

    Product construction over single word x pattern states (small), with a subset
    construction only for the exclusions (their complement is needed). Exclusions are
    consulted only when word and pattern meet, and only those that can meet the word.
    """
    if not any(_ends_compatible(w, p) for w, _ in words for p in patterns):
        return False
    word = compiled(tuple(words))
    pattern = compiled(tuple((glob, PATTERN) for glob in patterns))
    if not _intersects(word, pattern, None, evidence):
        return False
    if not excludes:
        return True
    relevant = tuple((ex, PATTERN) for ex in excludes if _intersects(word, compiled(((ex, PATTERN),)), None, False))
    return _intersects(word, pattern, compiled(relevant), evidence) if relevant else True


def _intersects(word: Compiled, pattern: Compiled, exclude: Compiled | None, evidence: bool) -> bool:
    word_nfa, pat_nfa = word.nfa, pattern.nfa
    w_close, p_close = word.closures, pattern.closures
    if exclude is not None:
        ex_nfa, e_close, e0 = exclude.nfa, exclude.closures, exclude.start
        relevant = ex_nfa.alphabet | {"/"}
        alphabet = sorted(word_nfa.alphabet | pat_nfa.alphabet | ex_nfa.alphabet | {_OTHER})
    else:
        ex_nfa, e_close, e0 = Nfa(), [], frozenset()
        relevant = {"/"}
        alphabet = sorted(word_nfa.alphabet | pat_nfa.alphabet | {_OTHER})
    frontier = [(w, p, e0, True, not evidence) for w in word.start for p in pattern.start]
    seen = set(frontier)
    reps: dict[tuple[int, int, bool], list[str]] = {}
    while frontier:
        w, p, e, seg, seen_literal = frontier.pop()
        if seen_literal and w in word_nfa.accept and p in pat_nfa.accept and not e & ex_nfa.accept:
            return True
        for cw, w_target in word_nfa.moves[w]:
            for cp, p_target in pat_nfa.moves[p]:
                key = (id(cw), id(cp), seg)
                chars = reps.get(key)
                if chars is None:
                    chars = reps[key] = _representatives(cw, cp, seg, alphabet, relevant)
                literal_pair = not cw.negate and not cp.negate
                for char in chars:
                    e2 = _step(ex_nfa, e_close, e, char, seg) if e else e
                    seg2 = char == "/"
                    lit2 = seen_literal or (literal_pair and not seg2)
                    for w2 in w_close[w_target]:
                        for p2 in p_close[p_target]:
                            state = (w2, p2, e2, seg2, lit2)
                            if state not in seen:
                                if len(seen) >= _MAX_STATES:
                                    return True  # too complex to decide: fail closed
                                seen.add(state)
                                frontier.append(state)
    return False
