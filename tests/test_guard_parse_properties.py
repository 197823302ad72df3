"""Property tests for parse_script: named invariants over generated input."""

from __future__ import annotations

import shlex

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from horizon_cli.guard.model import ParsedScript
from horizon_cli.guard.parse import parse_script
from horizon_cli.guard.simple import simple_pipelines

_TOKENS = [*"ab -=$(){}[]<>|&;'\"`\\\n\t#*?~!,.:/019\x00é", "$(", "${", "<<", "<<<", "$'", "[[", "]]", "$((", "EOF"]
SHELLY = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)
PLAIN = st.text(alphabet=st.sampled_from(list("ab1_./=:,@%+- \t~")), max_size=40)
QUOTED = st.text(alphabet=st.sampled_from(list("ab1=~ \t'\"#*?[]!|&;")), max_size=40)
ARGS = st.lists(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=12), max_size=5)

_settings = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_settings
@given(st.one_of(SHELLY, st.text(max_size=80)))
def test_never_raises_and_segments_are_in_source_order(text: str) -> None:
    """Totality: any text parses; segments come in source order and point inside the text."""
    result = parse_script(text)
    assert result.text == text
    positions = [(seg.line, seg.col) for seg in result.segments]
    assert positions == sorted(positions)
    lines = text.split("\n")
    for line, col in positions:
        assert 1 <= line <= len(lines)
        assert 1 <= col <= len(lines[line - 1]) + 1
    assert result.complete or result.problems
    assert not any(p.startswith("internal parser error") for p in result.problems), result.problems


@_settings
@given(ARGS)
def test_shell_quoted_arguments_round_trip(args: list[str]) -> None:
    """Quoting is data: shlex-quoted arguments come back exactly, static, as one segment."""
    text = " ".join(["echo", *(shlex.quote(a) for a in args)])
    result = parse_script(text)
    assert result.complete
    (segment,) = result.segments
    assert [w.value for w in segment.argv] == ["echo", *args]
    assert all(w.static and not w.glob for w in segment.argv)


@_settings
@given(st.one_of(PLAIN, QUOTED))
def test_fast_path_agrees_with_bashlex(text: str) -> None:
    """The fast path (no bashlex) sees the same segments as the bashlex path."""
    assume(simple_pipelines(text) is not None)
    # bashlex (unlike bash) reads `ls;#x` as a command `#x`; the fast path follows bash.
    assume(not any(op + "#" in text for op in ";&|"))
    fast = parse_script(text)
    slow = parse_script(text + "\n#")  # '#' is not plain: forces bashlex; a comment changes nothing
    assert slow.complete and fast.complete
    assert _structure(fast) == _structure(slow)


def _structure(result: ParsedScript) -> list[tuple]:
    ids: dict[int, int] = {}
    return [
        (
            [w.value for w in seg.argv],
            [(name, w.value) for name, w in seg.assignments],
            ids.setdefault(seg.pipeline, len(ids)),
            seg.stage,
            seg.stages,
            seg.background,
            seg.text,
            (seg.line, seg.col),
        )
        for seg in result.segments
    ]


def test_huge_and_deeply_nested_input_degrades_without_raising() -> None:
    deep = parse_script("echo " + "$(" * 3000 + "x" + ")" * 3000)
    assert deep.segments and not deep.complete
    long = parse_script("ls; " * 5000)
    assert len(long.segments) == 5000
