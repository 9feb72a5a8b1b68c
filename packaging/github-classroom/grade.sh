#!/usr/bin/env bash
# The Grade step of classroom.yml: grades the student's repository against
# its .github/classroom/spec.toml with tilescope grade --gradescope, writes
# results/student/results.json (Gradescope's format) and the run's summary
# (the score and each case's explanation). Where tilescope cannot grade at
# all (a bad spec, a build without kernel files), results.json says so, and
# the step fails so that the teacher sees it.
#
# Paths, each overridable (the tests run it in a scratch folder):
#   TILESCOPE            the binary (build/app/tilescope)
#   CLASSROOM_SUBMISSION the student's checkout (submission)
#   CLASSROOM_RESULTS    the results folder (results)
#   GITHUB_STEP_SUMMARY  the summary file GitHub shows (else stdout)
set -u
tilescope="${TILESCOPE:-build/app/tilescope}"
submission="${CLASSROOM_SUBMISSION:-submission}"
out="${CLASSROOM_RESULTS:-results}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
results="$out/student/results.json"
mkdir -p "$out/student"
# The student's files without the repository's own (.git, the workflow, the spec).
files="$(mktemp -d)"
trap 'rm -rf "$files"' EXIT
cp -r "$submission/." "$files/"
rm -rf "$files/.git" "$files/.github"
log="$(mktemp)"
"$tilescope" grade --gradescope --spec "$submission/.github/classroom/spec.toml" \
  --submission-dir "$files" --results "$results" 2>"$log"
status=$?
cat "$log" >&2
python3 - "$results" "$log" "$status" "$summary" <<'PY'
import json, sys
path, log, status, summary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if status != 0:
    with open(log, errors="replace") as f:
        message = f.read().strip()
    with open(path, "w") as f:
        json.dump({"score": 0, "output": "The autograder could not grade this repository (tilescope exited %d): %s"
                   % (status, message), "visibility": "visible", "tests": []}, f, indent=2)
r = json.load(open(path))
lines = ["## Score: %s of %s\n" % (r["score"], sum(t["max_score"] for t in r["tests"])), r["output"] + "\n"]
for t in r["tests"]:
    lines.append("### %s: %s/%s\n\n```\n%s\n```\n" % (t["name"], t["score"], t["max_score"], t["output"]))
with open(summary, "a") as f:
    f.write("\n".join(lines) + "\n")
PY
rm -f "$log"
[ "$status" -eq 0 ]
