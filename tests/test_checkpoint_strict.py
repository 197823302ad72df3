"""loads_strict: one reading for every parser, errors that name file and line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horizon_cli.checkpoint import loads_strict
from horizon_cli.checkpoint import strict as strict_module
from horizon_cli.errors import InputError


def error_of(data: bytes) -> InputError:
    with pytest.raises(InputError) as info:
        loads_strict(data, "ck.json")
    return info.value


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b'{"a": 1, "a": 2}', 1),
        (b'{\n  "a": 1,\n  "b": {"x": 1},\n  "a": 2\n}', 4),
        (b'{"outer": [{"k": 1}, {"k": 1, "k": 2}]}', 1),
        (b'{"a" : 1,\n"a"\n:\n2}', 2),  # colon not next to the name
        (b'{"t": "x: y: z", "t": 0}', 1),  # colons in strings defeat the first count
        (b'{"t": "say \\": hi", "u": 1, "u": 1}', 1),  # an escaped quote before a colon
        (b'{"\\u0061": 1, "a": 2}', 1),  # same name, different escapes
    ],
)
def test_duplicate_member_names_are_rejected_with_their_line(data, line):
    error = error_of(data)
    assert "duplicate member name" in error.message
    assert (error.path, error.line) == ("ck.json", line)


def test_the_first_duplicate_in_reading_order_is_named():
    error = error_of(b'{"x": 1,\n "x": 2,\n "y": {"z": 1, "z": 2}}')
    assert (error.message, error.line) == ('duplicate member name "x"', 2)


@pytest.mark.parametrize(
    "data",
    [
        b'{"a": {"a": {"a": 1}}}',  # same name at different depths is fine
        b'[{"a": 1}, {"a": 2}]',
        b'{"t": "x: y", "u": "\\": \\":", "v": {"w": ":"}}',
        b'{"k\\\\": 1, "k": 2}',  # a name ending in a backslash
    ],
)
def test_distinct_names_are_accepted(data):
    assert loads_strict(data, "ck.json") == json.loads(data)


def test_exact_check_runs_only_when_the_cheap_bound_is_not_tight(monkeypatch):
    calls = []
    monkeypatch.setattr(strict_module, "_exact_duplicate_check", lambda raw, name: calls.append(name))
    loads_strict(b'{"a": 1, "b": {"c": [1, {"d": 2}]}}', "plain")
    loads_strict(b'{"a": "x: y"}', "colon in string")
    loads_strict(b'{"a": "x\\": y", "b": "\\\\"}', "quote colon in string")
    loads_strict(b'{"a": "x : y", "b": "Note :"}', "space colon in string")
    loads_strict(b'{"a": "x\\\\\\" : y"}', "escaped backslash and quote")
    assert calls == ["escaped backslash and quote"]


@pytest.mark.parametrize(
    ("data", "fragment", "line"),
    [
        (b'{"a": NaN}', "NaN and Infinity are not JSON numbers", 1),
        (b'[1,\n -Infinity]', "NaN and Infinity are not JSON numbers", 2),
        (b'{"a": "\\ud800"}', "lone UTF-16 surrogates", 1),
        (b'["ok",\n "\\udc00"]', "lone UTF-16 surrogates", 2),
        (b"[1e400]", "numbers must fit a double", 1),
        (b'{"a": 1,\n\n "b": }', "malformed JSON", 3),
        (b"", "malformed JSON", 1),
        (b"\xff\xfe", "malformed JSON", 1),
    ],
)
def test_invalid_json_names_file_and_line(data, fragment, line):
    error = error_of(data)
    assert fragment in error.message
    assert error.line == line
    assert str(error).startswith(f"ck.json:{line}: ")


def test_integers_beyond_2_53_become_the_double_they_denote():
    value = loads_strict(b'{"a": 9007199254740993, "b": [-9007199254740993, 9007199254740992], "c": 1234567890123456}', "x")
    assert value == {"a": 9007199254740992.0, "b": [-9007199254740992.0, 9007199254740992], "c": 1234567890123456}
    assert type(value["a"]) is float and type(value["b"][1]) is int
    assert loads_strict(b"123456789012345678901234567890", "x") == 1.2345678901234568e29
    assert loads_strict(b"18446744073709551615", "x") == 1.8446744073709552e19


def test_accepts_str_input_and_scalars():
    assert loads_strict('{"é": [true, null]}', "x") == {"é": [True, None]}
    assert loads_strict(b' "s" ', "x") == "s"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64).map(lambda b: b.translate(bytes.maketrans(b"abcdef", b' :"\\\n\t'))), st.integers(1, 9))
def test_sliced_folded_counts_equal_a_whole_count(raw, slice_size):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(strict_module, "_SLICE", slice_size)
        for pattern in (b" :", b"\\ :", b"\\\\ :"):
            assert strict_module._count_folded(raw, pattern) == raw.translate(strict_module._FOLD).count(pattern)


def test_too_deep_for_the_exact_check_is_an_input_error():
    # A loose bound (escaped backslash and quote before " :") at a depth the json module cannot follow.
    data = b'{"a":' * 1000 + b'"x\\\\\\" : y"' + b"}" * 1000
    assert "nested too deeply" in error_of(data).message
