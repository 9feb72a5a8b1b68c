"""The results.json each grading service reads, checked against its documented
schema: Gradescope's (gradescope-autograders.readthedocs.io, "Autograder
specifications": score, output, visibility, tests with name, score, max_score,
output, visibility, status) and PrairieLearn's external grader
(docs/externalGrading.md of PrairieLearn, "Grading results": gradable, score
in [0, 1], message, format_errors, tests with name, description, points,
max_points, message, output). Each check raises AssertionError naming the
field that is wrong."""

import json
import os

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def load(path):
    assert os.path.isfile(path), path + ": not written"
    size = os.path.getsize(path)
    with open(path, encoding="utf-8") as f:
        return json.load(f), size


def check_gradescope(r):
    assert isinstance(r, dict), "results.json is not an object"
    assert "score" in r or "tests" in r, "neither score nor tests"
    assert _number(r["score"]), "score is not a number: %r" % r.get("score")
    assert isinstance(r.get("output", ""), str), "output is not a string"
    assert r.get("visibility", "visible") in VISIBILITY, "visibility %r" % r.get("visibility")
    assert r.get("stdout_visibility", "visible") in VISIBILITY, "stdout_visibility"
    if "execution_time" in r:
        assert _number(r["execution_time"]) and r["execution_time"] >= 0, "execution_time"
    assert isinstance(r["tests"], list), "tests is not a list"
    for t in r["tests"]:
        assert isinstance(t.get("name"), str) and t["name"], "a test without a name: %r" % t
        assert _number(t["score"]) and _number(t["max_score"]), "test score/max_score: %r" % t
        assert 0 <= t["score"] <= t["max_score"], "test score outside 0..max_score: %r" % t
        assert isinstance(t.get("output", ""), str), "test output"
        assert t.get("status", "passed") in ("passed", "failed"), "test status %r" % t.get("status")
        assert t.get("visibility", "visible") in VISIBILITY, "test visibility"
    if r["tests"]:
        assert r["score"] == sum(t["score"] for t in r["tests"]), "score is not the sum of the tests' scores"


def check_prairielearn(r, size=0):
    assert isinstance(r, dict), "results.json is not an object"
    assert size <= 1024 * 1024, "results.json over PrairieLearn's 1 MB"
    gradable = r.get("gradable", True)
    assert isinstance(gradable, bool), "gradable is not a boolean"
    if gradable:
        assert _number(r.get("score")), "a gradable result needs a number score"
    if "score" in r:
        assert _number(r["score"]) and 0.0 <= r["score"] <= 1.0, "score outside [0, 1]: %r" % r["score"]
    if not gradable:
        fe = r.get("format_errors")
        assert isinstance(fe, str) or (isinstance(fe, list) and fe and all(isinstance(e, str) for e in fe)), \
            "a result that is not gradable says why in format_errors"
    for key in ("message", "output"):
        assert isinstance(r.get(key, ""), str), key + " is not a string"
    assert isinstance(r.get("tests", []), list), "tests is not a list"
    for t in r.get("tests", []):
        assert isinstance(t.get("name"), str) and t["name"], "a test without a name: %r" % t
        assert _number(t["points"]) and _number(t["max_points"]), "test points/max_points: %r" % t
        assert 0 <= t["points"] <= t["max_points"], "test points outside 0..max_points: %r" % t
        for key in ("description", "message", "output"):
            assert isinstance(t.get(key, ""), str), "test " + key
    if gradable and r.get("tests"):
        total = sum(t["max_points"] for t in r["tests"])
        got = sum(t["points"] for t in r["tests"])
        assert abs(r["score"] - got / total) < 1e-9, "score is not points / max_points"
