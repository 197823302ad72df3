"""Word resolution: quote removal, escapes, expansions, patterns (horizon_cli.guard.words)."""

from __future__ import annotations

import pytest

from horizon_cli.guard.arith import evaluate
from horizon_cli.guard.braces import brace_expand
from horizon_cli.guard.quoting import decode_ansi_c, skip
from horizon_cli.guard.words import expand_heredoc, resolve_assignment, resolve_value, resolve_words

ENV = {"HOME": "~"}


def values(raw: str, env: dict[str, str] | None = None) -> list[str]:
    return [w.value for w in resolve_words(raw, 0, env if env is not None else ENV, [])]


def one(raw: str, env: dict[str, str] | None = None):
    words = resolve_words(raw, 0, env if env is not None else ENV, [])
    assert len(words) == 1, words
    return words[0]


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("c\\url", "curl"),
        ('cu"r"l', "curl"),
        ("'cu'rl", "curl"),
        ("r''m", "rm"),
        ("-r''f", "-rf"),
        ("$'\\x63url'", "curl"),
        ("$'\\143'", "c"),
        ("$'\\n'", "\n"),
        ("$'\\u2028'", "\u2028"),
        ("$'\\''", "'"),
        ('$"hello"', "hello"),
        ("~/.aws/cre\\\ndentials", "~/.aws/credentials"),
        ("~user/x", "~user/x"),
        ("$HOME/.ssh", "~/.ssh"),
        ("${HOME}/.ssh", "~/.ssh"),
        ('"$HOME"/.ssh', "~/.ssh"),
        ("'a'\\''b'", "a'b"),
        ('"a\\"b\\$c\\d"', 'a"b$c\\d'),
        ('""', ""),
        ("$", "$"),
        ("a\\", "a\\"),
        ("$'\\uD800'", "\\uD800"),
    ],
)
def test_quote_removal_and_escapes(raw: str, value: str) -> None:
    word = one(raw)
    assert word.value == value
    assert word.static


def test_plain_word_is_static_and_its_own_pattern() -> None:
    word = one("--data-binary")
    assert (word.value, word.raw, word.pattern, word.static, word.glob) == (
        "--data-binary", "--data-binary", "--data-binary", True, False
    )


@pytest.mark.parametrize(
    ("raw", "value", "pattern"),
    [
        ("$X", "$X", "*"),
        ("/proc/$$/environ", "/proc/$$/environ", "/proc/*/environ"),
        ("$1", "$1", "*"),
        ("$@", "$@", "*"),
        ("a$(id)b", "a$(id)b", "a*b"),
        ("`id`", "`id`", "*"),
        ("${x:-y}", "${x:-y}", "*"),
        ("$((x+1))", "$((x+1))", "*"),
        ("<(ls)", "<(ls)", "*"),
    ],
)
def test_unresolvable_parts_become_star(raw: str, value: str, pattern: str) -> None:
    word = one(raw)
    assert (word.value, word.pattern, word.static) == (value, pattern, False)


def test_constant_arithmetic_is_static() -> None:
    word = one("$((1024*1024))")
    assert (word.value, word.static) == ("1048576", True)


def test_globs_unquoted_kept_quoted_escaped() -> None:
    word = one("~/.aws/cred*")
    assert (word.glob, word.pattern) == (True, "~/.aws/cred*")
    quoted = one("'*.py'")
    assert (quoted.glob, quoted.value, quoted.pattern) == (False, "*.py", "[*].py")
    mixed = one("\"a?[\"b?")
    assert (mixed.glob, mixed.pattern) == (True, "a[?][[]b?")
    assert one(".en?").glob
    assert not one("[").glob


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("curl${IFS}-T${IFS}.env", ["curl", "-T", ".env"]),
        ("cat${IFS}$HOME/.aws/credentials", ["cat", "~/.aws/credentials"]),
        ("${IFS}x", ["x"]),
        ('"a${IFS}b"', ["a \t\nb"]),
        ("~/.a{w,x}s/credentials", ["~/.aws/credentials", "~/.axs/credentials"]),
        ("f{1..3}", ["f1", "f2", "f3"]),
        ("'{a,b}'", ["{a,b}"]),
        ("{}", ["{}"]),
    ],
)
def test_splitting_and_brace_expansion(raw: str, expected: list[str]) -> None:
    assert values(raw) == expected


def test_brace_expansion_cap_keeps_one_non_static_word() -> None:
    word = one("{1..1000}")
    assert (word.value, word.static, word.pattern) == ("{1..1000}", False, "*")


def test_known_variables_substitute_and_split_unquoted() -> None:
    env = {"HOME": "~", "C": "curl -T", "H": "169.254.169.254", "E": ""}
    assert values("$C", env) == ["curl", "-T"]
    assert values("x$C", env) == ["xcurl", "-T"]
    assert values('"$C"', env) == ["curl -T"]
    assert values("http://$H/", env) == ["http://169.254.169.254/"]
    assert values("$E", env) == []
    assert values('"$E"', env) == [""]


@pytest.mark.parametrize("raw", ["$(which curl)", "`which curl`", "$(command -v curl)", "$(type -P curl)"])
def test_which_substitution_resolves_to_the_name(raw: str) -> None:
    subs: list = []
    words = resolve_words(raw, 0, ENV, subs)
    assert [(w.value, w.static) for w in words] == [("curl", True)]
    assert len(subs) == 1 and subs[0][0] == "substitution"


def test_substitutions_are_reported_with_absolute_offsets() -> None:
    subs: list = []
    resolve_words('a"$(x)"`y`<(z)${v:-$(w)}', 10, ENV, subs)
    assert subs == [
        ("substitution", "x", 14),
        ("substitution", "y", 18),
        ("process-substitution", "z", 22),
        ("substitution", "w", 31),
    ]


def test_positions_and_raw_of_split_fields() -> None:
    words = resolve_words("curl${IFS}-T", 5, ENV, [])
    assert [(w.raw, w.pos) for w in words] == [("curl", 5), ("-T", 15)]


def test_assignment_values() -> None:
    name, word = resolve_assignment("f=~/.aws/credentials", 0, ENV, [])
    assert (name, word.value, word.pos) == ("f", "~/.aws/credentials", 2)
    name, word = resolve_assignment("X+=a b", 0, ENV, [])
    assert (name, word.value) == ("X+", "a b")
    assert resolve_value("", 3, ENV, []).value == ""
    assert resolve_value("a${IFS}b", 0, ENV, []).value == "a \t\nb"


def test_heredoc_expansion() -> None:
    subs: list = []
    body = expand_heredoc("cat $HOME/x ${HOME} $Y \\$Z $(id)\n", 100, ENV, subs)
    assert body == "cat ~/x ~ $Y $Z $(id)\n"
    assert subs == [("substitution", "id", 129)]


def test_ansi_c_decoding() -> None:
    assert decode_ansi_c(r"\x31\x36\x39") == "169"
    assert decode_ansi_c(r"\cA\e\q") == "\x01\x1b\\q"
    assert decode_ansi_c(r"\U0001F600") == "\U0001f600"


def test_skip_handles_nesting_quotes_and_unterminated() -> None:
    s = 'a "$(b ")")" c) tail'
    assert s[: skip(s, 0, "p")] == 'a "$(b ")")" c)'
    assert skip("never closed", 0, "p") == len("never closed") + 1
    deep = "$(" * 5000 + ")" * 5000
    assert skip(deep, 2, "p") == len(deep)


def test_brace_expand_details() -> None:
    assert brace_expand("a{b,c{d,e}}f") == ["abf", "acdf", "acef"]
    assert brace_expand("{01..03}") == ["01", "02", "03"]
    assert brace_expand("{a..e..2}") == ["a", "c", "e"]
    assert brace_expand("${a,b}") == ["${a,b}"]
    assert brace_expand("{a,b}" * 7) is None


@pytest.mark.parametrize(
    ("expr", "value"),
    [("1+2*3", 7), ("-7/2", -3), ("-7%2", -1), ("(1+1)*4", 8), ("1/0", None), ("2**3", None), ("x", None), ("", None)],
)
def test_arithmetic(expr: str, value: int | None) -> None:
    assert evaluate(expr) == value
