"""RFC 8785 canonicalization: the reference vectors, numbers, strings, member order, errors."""

from __future__ import annotations

import enum
import math

import pytest

from conftest import shared_path
from horizon_cli.checkpoint import CanonicalError, canonicalize, format_number, loads_strict

VECTORS = ["arrays", "es6_numbers", "french", "simpleString", "structures", "unicode", "values", "weird"]


@pytest.mark.parametrize("name", VECTORS)
def test_rfc8785_vectors_byte_exact(name):
    directory = shared_path("conformance", "jcs")
    source = (directory / f"{name}.input.json").read_bytes()
    expected = (directory / f"{name}.output.json").read_bytes()
    assert canonicalize(loads_strict(source, name)) == expected.rstrip(b"\n")


def test_every_shared_vector_is_covered():
    directory = shared_path("conformance", "jcs")
    assert sorted(p.name.split(".")[0] for p in directory.glob("*.input.json")) == sorted(VECTORS)


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (56.0, "56"),
        (1e-7, "1e-7"),
        (1e-6, "0.000001"),
        (1.5e-6, "0.0000015"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123e18, "123000000000000000000"),
        (5e-324, "5e-324"),
        (-5e-324, "-5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (0.1, "0.1"),
        (0.30000000000000004, "0.30000000000000004"),
        (123.456, "123.456"),
        (-1.25e-10, "-1.25e-10"),
        (2**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),  # beyond 2**53 an integer is the double it denotes
        (2**64, "18446744073709552000"),
        (10**21, "1e+21"),
        (-(10**30), "-1e+30"),
        (4.5, "4.5"),
        (0.002, "0.002"),
        (1e16, "10000000000000000"),
    ],
)
def test_format_number_matches_ecmascript(number, text):
    assert format_number(number) == text
    assert canonicalize(number) == text.encode()


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_are_errors(bad):
    with pytest.raises(CanonicalError, match="NaN and infinities"):
        canonicalize({"a": [1, bad]})


def test_integers_beyond_any_double_are_errors():
    with pytest.raises(CanonicalError, match="too large for a double"):
        canonicalize([10**400])


def test_strings_escape_like_json_stringify():
    text = '"\\\b\f\n\r\t\x00\x1f\x7f\u2028\u2029/é😀'
    expected = '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f\u2028\u2029/é😀"'.encode()
    assert canonicalize(text) == expected


def test_lone_surrogates_are_errors():
    with pytest.raises(CanonicalError, match="lone UTF-16 surrogate"):
        canonicalize(["ok", "\ud800"])
    with pytest.raises(CanonicalError, match="lone UTF-16 surrogate"):
        canonicalize({"\udc00": 1})


def test_members_sort_by_utf16_code_units_not_code_points():
    # By code point U+FB33 < U+1F600; in UTF-16 U+1F600 is D83D DE00, which sorts first.
    value = {"\U0001f600": 1, "\ufb33": 2, "a": 3}
    assert canonicalize(value) == '{"a":3,"\U0001f600":1,"\ufb33":2}'.encode()


def test_utf16_order_applies_at_any_depth_and_inside_arrays():
    inner = {"\U0001f600": [1.0], "\ue000": {"\U00010000": 0, "\uffff": 1}}
    assert canonicalize([inner]) == '[{"😀":[1],"\ue000":{"𐀀":0,"\uffff":1}}]'.encode()


def test_whitespace_and_order_of_input_do_not_matter():
    a = loads_strict(b'{ "b" : [1, 2.50, {"y": null, "x": true}], "a": "s" }', "a")
    b = loads_strict(b'{"a":"s","b":[1,2.5,{"x":true,"y":null}]}', "b")
    assert canonicalize(a) == canonicalize(b) == b'{"a":"s","b":[1,2.5,{"x":true,"y":null}]}'


def test_canonicalize_does_not_mutate_its_input():
    value = {"b": [1.0, 2**60], "a": {"\U0001f600": 1, "\ufb33": 2}}
    snapshot = repr(value)
    canonicalize(value)
    assert repr(value) == snapshot


def test_subclasses_and_tuples_canonicalize_as_their_json_type():
    class Level(enum.IntEnum):
        HIGH = 3

    class Name(str):
        pass

    assert canonicalize({"t": (1, 2.0), "l": Level.HIGH, "n": Name("x"), "b": True}) == (
        b'{"b":true,"l":3,"n":"x","t":[1,2]}'
    )


@pytest.mark.parametrize("bad", [{1: "x"}, {"a": {1, 2}}, [b"bytes"], {"a": object()}])
def test_non_json_values_are_errors(bad):
    with pytest.raises(CanonicalError):
        canonicalize(bad)


def test_canonical_error_is_a_value_error():
    assert issubclass(CanonicalError, ValueError)


@pytest.mark.parametrize("depth", [255, 600, 100_000])
def test_deep_nesting_is_an_error_not_a_crash(depth):
    value: list = []
    for _ in range(depth):
        value = [value]
    with pytest.raises(CanonicalError, match="nested too deeply to canonicalize"):
        canonicalize(value)


def test_254_levels_canonicalize():
    value: list = []
    for _ in range(253):
        value = [value]
    assert canonicalize(value) == b"[" * 254 + b"]" * 254
