#!/usr/bin/env bash
# The course's commands on the GPU machine, after scripts/gpu-suite.sh has
# built build-gpu: the sandbox where bubblewrap is missing (auto falls back
# with a note, required refuses), a kernel file's time limit on the GPU,
# `grade` with max_time_ratio measured on the GPU, and `serve --backend cuda`
# answering a check. Results go to $OUT (or ./gpu-out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
tilescope="$root/build-gpu/app/tilescope"
good="$root/tests/own/good/conv2d_tiled_student.cu"
{
  echo "== device: the sandbox's line"
  "$tilescope" device 2>&1 | grep -i sandbox
  echo "== check on cuda, sandbox auto"
  "$tilescope" check --kernel-file "$good" --size 64x64 --radius 2 --backend cuda 2>&1 | tail -3
  echo "exit $?"
  echo "== check on cuda, sandbox required"
  "$tilescope" check --kernel-file "$good" --size 64x64 --radius 2 --backend cuda --sandbox required 2>&1 | tail -2
  echo "exit ${PIPESTATUS[0]}"
  echo "== a kernel that spins, on cuda, 3 s limit"
  "$tilescope" check --kernel-file "$root/tests/grade/class1d/spins.cu" --size 200 --radius 2 --backend cuda \
    --time-limit 3 2>&1 | tail -2
  echo "exit ${PIPESTATUS[0]}"
  echo "== grade, exercise 10, with the GPU's time ratio"
  rm -rf /tmp/gpu-grade
  "$tilescope" grade --spec "$root/tests/grade/specs/class2d.toml" --out /tmp/gpu-grade --sandbox auto \
    "$root/tests/grade/class2d" 2>&1
  echo "exit $?"
  python3 - /tmp/gpu-grade/class.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("sandbox:", d.get("sandbox"))
for s in d["submissions"]:
    for c in s["cases"]:
        print(s["student"], "|", c["name"], "|", "passed" if c["passed"] else "failed", "|",
              c["explanation"].replace("\n", " / ")[-220:])
PY
} 2>&1 | tee "$out/course.log"

# serve --backend cuda, where the command exists.
if "$tilescope" serve --help > /dev/null 2>&1; then
  port=18431
  "$tilescope" serve --port "$port" --host 127.0.0.1 --token T --backend cuda --sandbox auto > "$out/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/api/health" > /dev/null && break; sleep 0.2; done
  {
    echo "== serve: health"
    curl -s "http://127.0.0.1:$port/api/health"
    echo
    echo "== serve: check on cuda"
    python3 - "$good" > /tmp/serve-req.json <<'PY'
import json, sys
print(json.dumps({"kernel": open(sys.argv[1]).read(), "size": "64x64", "radius": 2, "backend": "cuda"}))
PY
    curl -s -H "Authorization: Bearer T" -H "Content-Type: application/json" --data @/tmp/serve-req.json \
      "http://127.0.0.1:$port/api/check" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print({k: d.get(k) for k in ("status", "backend", "backend_reason", "total", "gpu_ms", "time_ms", "kernel_ms")})'
    echo "== serve: the page's run on cuda (/api/run): what the Result panel shows"
    curl -s -H "Authorization: Bearer T" -H "Content-Type: application/json" --data @/tmp/serve-req.json \
      "http://127.0.0.1:$port/api/run" -o /tmp/serve-run.bin
    python3 - /tmp/serve-run.bin <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
if not raw.startswith(b"TSRUN"):
    print("not a served run:", raw[:300])
else:
    size = int.from_bytes(raw[12:16], "little")
    h = json.loads(raw[16:16 + size])
    trace = int.from_bytes(raw[16 + size:24 + size], "little")
    print({k: h[k] for k in ("status", "backend", "backend_reason", "kernel_ms")}, "trace bytes:", trace,
          "output:", h["output"])
PY
  } 2>&1 | tee -a "$out/course.log"
  kill "$server"
  wait "$server" 2>/dev/null
  tail -5 "$out/serve.log" | tee -a "$out/course.log"
fi
