"""--schema metaharness: every missing or mistyped field, by path."""

from __future__ import annotations

import copy

import pytest

from conftest import shared_path
from horizon_cli.checkpoint import loads_strict
from horizon_cli.checkpoint.schema import check_schema, metaharness_errors

GOOD = {
    "schema": 1,
    "transcript": [{"role": "model", "text": "ls", "receipt": {"exitCode": 0}}],
    "halt": {
        "iteration": 3,
        "lastProgress": None,
        "staleCount": 0,
        "lastFailure": "boom",
        "failureRepeat": 1,
        "pending": None,
    },
    "actionCount": 4,
    "workspaceCommit": None,
    "evaluationHistory": [0.5, {"score": 1, "note": "n"}],
    "budget": {"calls": 0.3},
    "pendingApprovals": ["rm -rf build"],
    "archiveBranch": "archive/0",
    "memoryCursor": None,
    "stateHash": "sha256:" + "0" * 64,
}


def test_shared_checkpoints_have_the_metaharness_shape():
    for kind in ("valid", "tampered"):
        for path in sorted(shared_path("conformance", "checkpoints", kind).glob("*.json")):
            assert metaharness_errors(loads_strict(path.read_bytes(), path.name)) == [], path


def test_good_document_has_no_errors():
    assert check_schema("metaharness", GOOD) == []
    assert metaharness_errors({**GOOD, "actionCount": 4.0}) == []  # TypeScript numbers are doubles


def test_every_problem_is_reported_by_path():
    bad = copy.deepcopy(GOOD)
    del bad["memoryCursor"]
    del bad["halt"]["staleCount"]
    bad["halt"]["iteration"] = "3"
    bad["schema"] = 2
    bad["actionCount"] = True
    bad["transcript"].append({"role": "tool"})
    bad["transcript"].append("text")
    bad["transcript"][0]["receipt"] = []
    bad["pendingApprovals"] = ["ok", 7]
    bad["evaluationHistory"] = ["high", {"note": "x"}]
    bad["budget"] = {"calls": "many"}
    bad["workspaceCommit"] = 12
    assert metaharness_errors(bad) == [
        "schema: expected schema version 1, got the number 2",
        "actionCount: expected a non-negative integer, got true",
        "workspaceCommit: expected a string or null, got the number 12",
        "memoryCursor: missing",
        "halt.iteration: expected a non-negative integer, got the string '3'",
        "halt.staleCount: missing",
        "transcript[0].receipt: expected an object, got an array",
        "transcript[1].text: missing",
        "transcript[2]: expected an object, got the string 'text'",
        "pendingApprovals[1]: expected a string, got the number 7",
        "evaluationHistory[0]: expected a number or an object with a numeric score, got the string 'high'",
        "evaluationHistory[1]: expected an object with a numeric score, got an object",
        "budget.calls: expected a number, got the string 'many'",
    ]


@pytest.mark.parametrize(
    ("document", "errors"),
    [
        ([], ["$: expected an object"]),
        ({**GOOD, "halt": None}, ["halt: expected an object, got null"]),
        ({**GOOD, "transcript": {}}, ["transcript: expected an array, got an object"]),
        ({**GOOD, "actionCount": -1}, ["actionCount: expected a non-negative integer, got the number -1"]),
        ({**GOOD, "actionCount": 1.5}, ["actionCount: expected a non-negative integer, got the number 1.5"]),
    ],
)
def test_container_problems(document, errors):
    assert metaharness_errors(document) == errors
