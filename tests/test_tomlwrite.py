"""The TOML writer behind `horizon policy show` (horizon_cli.policy.tomlwrite)."""

from __future__ import annotations

import datetime as dt
import math
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from horizon_cli.policy.tomlwrite import dumps, string, value_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def test_layout():
    data = {
        "top": 1,
        "halt": {"max_iterations": 50, "delivery": "once", "stuck_detection": False, "ratio": 0.5},
        "rules": {
            "HZ101": {"verdict": "deny", "argv": r"(^|\s)-rf\b", "examples": {"deny": ["rm -rf /"]}},
            "HZ102": {},
        },
    }
    assert dumps(data) == (
        "top = 1\n"
        "\n"
        "[halt]\n"
        "max_iterations = 50\n"
        'delivery = "once"\n'
        "stuck_detection = false\n"
        "ratio = 0.5\n"
        "\n"
        "[rules.HZ101]\n"
        'verdict = "deny"\n'
        "argv = '(^|\\s)-rf\\b'\n"
        'examples = { deny = ["rm -rf /"] }\n'
        "\n"
        "[rules.HZ102]\n"
    )
    assert tomllib.loads(dumps(data)) == data


def test_long_arrays_wrap():
    data = {"allow": [f"tool{i}" for i in range(40)]}
    text = dumps(data)
    assert text.startswith("allow = [\n    ")
    assert all(len(line) <= 88 for line in text.splitlines())
    assert tomllib.loads(text) == data


def test_strings():
    assert string("plain") == '"plain"'
    assert string(r"C:\dir") == "'C:\\dir'"
    assert string("it's \\ here") == '"it\'s \\\\ here"'
    assert string('say "hi"\t\x01\x7f') == '"say \\"hi\\"\\t\\u0001\\u007f"'
    long = "first line of a long doc string\nsecond line with \"\"\" quotes\n"
    assert string(long).startswith('"""\n')
    assert tomllib.loads("x = " + string(long))["x"] == long


def test_keys_are_quoted_when_needed():
    data = {"a b": {"x.y": 1, "ok_key-1": 2, "": 3}}
    assert '["a b"]' in dumps(data) and '"x.y" = 1' in dumps(data)
    assert tomllib.loads(dumps(data)) == data


def test_special_values():
    assert value_text(float("inf")) == "inf" and value_text(-math.inf) == "-inf"
    assert value_text(float("nan")) == "nan"
    assert value_text(1e16) == "1e+16"
    assert value_text(dt.date(2026, 1, 2)) == "2026-01-02"
    assert value_text([{"a": 1}, {}]) == "[{ a = 1 }, {}]"
    assert dumps({}) == ""


_keys = st.text(min_size=0, max_size=8)
_scalars = (
    st.text(max_size=30)
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.booleans()
    | st.dates()
    | st.datetimes(timezones=st.none() | st.just(dt.timezone.utc))
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=12,
)


@settings(deadline=None)  # timing on a shared machine is not what is tested
@given(st.dictionaries(_keys, _values, max_size=6))
def test_roundtrip(data):
    # Invariant: what dumps writes, tomllib reads back unchanged.
    assert tomllib.loads(dumps(data)) == data


def test_default_policy_roundtrips():
    from horizon_cli.policy import default_policy

    data = default_policy().data
    assert tomllib.loads(dumps(data)) == data
