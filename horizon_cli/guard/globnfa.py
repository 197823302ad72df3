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

from dataclasses import dataclass, field

# How a wildcard behaves.
PATTERN = "pattern"  # policy glob: '*' stays in a segment, matches leading dots; '**' spans segments
WORD_GLOB = "glob"  # bash pathname expansion: no '/' crossing, no leading '.' at a segment start
WORD_DYNAMIC = "dynamic"  # '*' stands for an unresolved expansion: any text, '/' included
WORD_SEGMENT = "segment"  # an unresolved expansion assumed to stay within one path segment

_OTHER = "\x00"  # represents every character no glob mentions
_MAX_STATES = 4000
_MAX_RANGE = 256


@dataclass(frozen=True, slots=True)
class CharSet:
    chars: frozenset[str]
    negate: bool = False
    slash: bool = False  # may match '/'
    lead_dot: bool = True  # may match '.' at the start of a segment

    def accepts(self, char: str, seg_start: bool) -> bool:
        if char == "/" and not self.slash:
            return False
        if char == "." and seg_start and not self.lead_dot:
            return False
        return (char in self.chars) != self.negate


ANY = frozenset()
_ANY_CHAR = CharSet(ANY, True, True, True)
_SLASH = CharSet(frozenset("/"), False, True, True)


@dataclass(slots=True)
class Nfa:
    moves: list[list[tuple[CharSet, int]]] = field(default_factory=list)
    eps: list[list[int]] = field(default_factory=list)
    accept: set[int] = field(default_factory=set)
    alphabet: set[str] = field(default_factory=set)

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


def _closure(nfa: Nfa, states: frozenset[int]) -> frozenset[int]:
    stack = list(states)
    seen = set(states)
    while stack:
        for target in nfa.eps[stack.pop()]:
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return frozenset(seen)


def _step(nfa: Nfa, states: frozenset[int], char: str, seg_start: bool) -> frozenset[int]:
    out = {target for state in states for cs, target in nfa.moves[state] if cs.accepts(char, seg_start)}
    return _closure(nfa, frozenset(out)) if out else frozenset()


def intersects(
    words: list[tuple[str, str]], patterns: list[str], excludes: list[str] = ()
) -> bool:
    """Is there a path matched by one of ``words`` ((glob, mode) pairs), one of ``patterns``, and no exclude?"""
    word_nfa, pat_nfa, ex_nfa = Nfa(), Nfa(), Nfa()
    w_starts = [build(glob, mode, word_nfa)[1] for glob, mode in words]
    p_starts = [build(glob, PATTERN, pat_nfa)[1] for glob in patterns]
    e_starts = [build(glob, PATTERN, ex_nfa)[1] for glob in excludes]
    alphabet = sorted(word_nfa.alphabet | pat_nfa.alphabet | ex_nfa.alphabet | {_OTHER})
    start = (
        _closure(word_nfa, frozenset(w_starts)),
        _closure(pat_nfa, frozenset(p_starts)),
        _closure(ex_nfa, frozenset(e_starts)),
        True,
    )
    seen = {start}
    frontier = [start]
    while frontier:
        w, p, e, seg = frontier.pop()
        if w & word_nfa.accept and p & pat_nfa.accept and not e & ex_nfa.accept:
            return True
        for char in alphabet:
            w2 = _step(word_nfa, w, char, seg)
            if not w2:
                continue
            p2 = _step(pat_nfa, p, char, seg)
            if not p2:
                continue
            state = (w2, p2, _step(ex_nfa, e, char, seg) if e else e, char == "/")
            if state not in seen:
                if len(seen) >= _MAX_STATES:
                    return True  # too complex to decide: fail closed
                seen.add(state)
                frontier.append(state)
    return False
