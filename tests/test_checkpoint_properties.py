"""Named invariants of canonical JSON and checkpoint hashes (hypothesis)."""

from __future__ import annotations

import json
import math
import random

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from horizon_cli.checkpoint import jcs as jcs_module
from horizon_cli.checkpoint.jcs import canonical_chunks
from horizon_cli.checkpoint import canonicalize, format_number, loads_strict, seal_document, verify_document
from horizon_cli.errors import InputError

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.text(st.characters(codec="utf-8"), max_size=6)  # no lone surrogates: they are errors
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(codec="utf-8"), max_size=12)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
    max_leaves=25,
)
documents = st.dictionaries(names.filter(lambda n: n != "stateHash"), values, min_size=1, max_size=5)


def as_read(value):
    """The value as a checkpoint reader sees it (integers beyond 2**53 are doubles)."""
    return loads_strict(orjson.dumps(value), "generated")


@SETTINGS
@given(values)
def test_canonicalization_is_idempotent(value):
    once = canonicalize(value)
    assert canonicalize(loads_strict(once, "canonical")) == once


@SETTINGS
@given(values, st.integers(min_value=0, max_value=3), st.integers(min_value=1, max_value=3))
def test_streamed_chunks_join_to_the_canonical_bytes(value, levels, batch):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jcs_module, "_BATCH", batch)
        assert b"".join(canonical_chunks(value, levels)) == canonicalize(value)


@SETTINGS
@given(values)
def test_canonical_json_is_json_denoting_the_same_value(value):
    value = as_read(value)
    assert _same_numbers(json.loads(canonicalize(value)), value)


@SETTINGS
@given(documents, st.randoms(use_true_random=False), st.sampled_from([None, 0, 1, 2, "\t"]))
def test_member_order_and_whitespace_never_matter(document, rnd, indent):
    sealed = seal_document(as_read(document))
    text = json.dumps(_shuffled(sealed, rnd), indent=indent, ensure_ascii=rnd.random() < 0.5)
    assert verify_document(loads_strict(text.encode(), "reformatted")).ok


@SETTINGS
@given(documents, st.data())
def test_any_single_scalar_change_breaks_verification(document, data):
    sealed = seal_document(as_read(document))
    body_paths = [path for path in _scalar_paths(sealed) if path[0] != "stateHash"]
    assume(body_paths)  # e.g. {"": []} has no scalar to change
    path = data.draw(st.sampled_from(body_paths))
    changed = _changed_at(sealed, path)
    assert not verify_document(changed).ok


@SETTINGS
@given(documents, st.data())
def test_any_renamed_member_breaks_verification(document, data):
    sealed = seal_document(as_read(document))
    path = data.draw(st.sampled_from(list(_object_paths(sealed))))
    target = _get(sealed, path)
    eligible = sorted(k for k in target if path or k != "stateHash")
    assume(eligible)
    key = data.draw(st.sampled_from(eligible))
    renamed = {(k + "'" if k == key else k): v for k, v in target.items()}
    assume(len(renamed) == len(target))
    assert not verify_document(_replaced(sealed, path, renamed)).ok


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_format_round_trips_with_shortest_digits(number):
    text = format_number(number)
    assert float(text) == number or (number == 0 and text == "0")
    digits = text.lstrip("-").split("e")[0].replace(".", "").strip("0")
    assert len(digits) <= len(repr(abs(number)).split("e")[0].replace(".", "").strip("0")) or number.is_integer()


SEPARATORS = st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : "), (",\n", "\t:\r\n "), (",", "  :")])


@SETTINGS
@given(st.dictionaries(names, values, min_size=1, max_size=5), SEPARATORS, st.data())
def test_an_inserted_duplicate_member_is_always_rejected(obj, separators, data):
    key = data.draw(st.sampled_from(sorted(obj)))
    text = json.dumps(obj, separators=separators)
    assert loads_strict(text.encode(), "unique") == as_read(obj)
    duplicated = text[:-1] + separators[0] + json.dumps(key) + separators[1] + "0}"
    try:
        loads_strict(duplicated.encode(), "dup")
    except InputError as exc:
        assert "duplicate member name" in exc.message
    else:
        raise AssertionError("duplicate accepted")


# -- helpers --------------------------------------------------------------------


def _same_numbers(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same_numbers(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_numbers, a, b))
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b) or (math.isclose(float(a), float(b)) and abs(b) > 2**53)
    return a == b


def _shuffled(value, rnd: random.Random):
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


def _scalar_paths(value, prefix=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalar_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _scalar_paths(item, (*prefix, index))
    else:
        yield prefix


def _object_paths(value, prefix=None):
    prefix = prefix or []
    if isinstance(value, dict):
        yield prefix
        for key, item in value.items():
            yield from _object_paths(item, [*prefix, key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _object_paths(item, [*prefix, index])


def _get(value, path):
    for step in path:
        value = value[step]
    return value


def _replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], list(path[1:]), new)
    return copy


def _changed_at(document, path):
    old = _get(document, path)
    if isinstance(old, bool):
        new = not old
    elif old is None:
        new = 0
    elif isinstance(old, str):
        new = old + "x"
    elif abs(old) <= 1:
        new = old + 1
    else:
        new = old / 2
    return _replaced(document, list(path), new)


def _es_reference(x: float) -> str:
    """ECMAScript Number::toString written from the spec text, via Decimal (slow, obvious)."""
    from decimal import Decimal

    if x == 0:
        return "0"
    sign, value = ("-", -x) if x < 0 else ("", x)
    digits = repr(value).split("e")[0].replace(".", "").strip("0")  # shortest digits s, k = len(s)
    k = len(digits)
    n = Decimal(repr(value)).adjusted() + 1  # value = 0.s x 10**n
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"


@settings(max_examples=1000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_format_matches_a_spec_reference(number):
    assert format_number(number) == _es_reference(number)
