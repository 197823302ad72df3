"""The labelled cases in ../shared/conformance/classify_cases.jsonl: each verdict must be in `accept`."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED

CASES_FILE = SHARED / "conformance" / "classify_cases.jsonl"


def _cases():
    if not CASES_FILE.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"shared data not available: {CASES_FILE}"))]
    cases = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]
    return [pytest.param(case, id=f"{i:03d}-{case['category']}") for i, case in enumerate(cases)]


@pytest.fixture(scope="module")
def classifier():
    from horizon_cli.guard.engine import Classifier

    return Classifier()


@pytest.mark.parametrize("case", _cases())
def test_conformance_case(case, classifier):
    result = classifier.classify(case["command"])
    assert str(result.verdict) in case["accept"], (case["why"], result.findings)

