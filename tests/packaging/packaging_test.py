#!/usr/bin/env python3
"""The packaging of packaging/, run as each service or teacher would run it:

  make_autograder  packaging/gradescope/make-autograder.sh on the specs a
                   teacher writes (masks generated, the documented default; a
                   mask file; several cases, a mask in a subfolder and in
                   single quotes; a mask missing; a mask outside the spec's
                   folder), each zip's files checked, and one zip unpacked as
                   Gradescope does and graded through its own run_autograder;
                   its setup.sh refuses Ubuntu 22.04 with advice
  gradescope       run_autograder in a scratch /autograder
  prairielearn     packaging/prairielearn/tilescope-grade in a scratch /grade
  classroom        packaging/github-classroom/grade.sh (the workflow's Grade
                   step) in a scratch checkout
                   each of the three with a right, a racy and a refused
                   submission and a spec that cannot be used; the JSON each
                   writes checked against its service's schema (schemas.py)
  nginx            packaging/serve/tilescope.nginx: its upstream and proxy
                   settings are docs/serve.md's, and nginx -t accepts it
  unit             packaging/serve/tilescope-serve@.service: systemd-analyze
                   verify, then its ExecStart run as the unit would run it
                   (its environment file, %i, the state and cache folders, an
                   unprivileged user) until the server answers /api/health

  packaging_test.py --tilescope BUILD/app/tilescope CASE
Exit 0 pass, 1 fail, 77 skipped (a tool the case needs is not installed).
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import schemas  # noqa: E402

SPECS = os.path.join(SRC, "tests", "grade", "specs")
RIGHT_2D = os.path.join(SRC, "tests", "own", "good", "conv2d_tiled_student.cu")
RACY_1D = os.path.join(SRC, "tests", "grade", "class1d", "racy_but_right.cu")
REFUSED = os.path.join(SRC, "tests", "own", "broken", "hostile_include_angle_passwd.cu")
SKIP = 77


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def teacher_spec(folder, cases, name="exercise"):
    """A spec as a teacher writes one: [assignment], cases, [require]."""
    lines = ['[assignment]', 'name = "%s"' % name, 'dims = 2', '']
    for c in cases:
        lines.append("[[case]]")
        lines += ["%s = %s" % (k, v) for k, v in c.items()]
        lines.append("")
    lines += ["[require]", "no_races = true", "no_out_of_bounds = true", "no_uninitialised_reads = true",
              "tiled = true", ""]
    path = os.path.join(folder, "spec.toml")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def copy_spec(spec, into):
    """The spec as spec.toml, with the masks folder it names beside it."""
    os.makedirs(into, exist_ok=True)
    shutil.copy(spec, os.path.join(into, "spec.toml"))
    masks = os.path.join(os.path.dirname(spec), "masks")
    if os.path.isdir(masks):
        shutil.copytree(masks, os.path.join(into, "masks"), dirs_exist_ok=True)


# The submissions each service's entry script grades: (name, kernel file,
# spec, what the Gradescope-format score must be, PrairieLearn's score, PrairieLearn's gradable).
SUBMISSIONS = [
    ("right", RIGHT_2D, os.path.join(SPECS, "class2d.toml"), 3, 1.0, True),
    ("racy", RACY_1D, os.path.join(SPECS, "class1d.toml"), 1, 1 / 3, True),
    ("refused", REFUSED, os.path.join(SPECS, "class2d.toml"), 0, 0.0, False),
]
BAD_SPEC = os.path.join(SPECS, "bad_radius.toml")


def expect_racy_output(tests):
    """The racy kernel loses its racy case, and says why."""
    failed = [t for t in tests if t.get("status", "") == "failed" or t.get("points", t.get("score")) == 0]
    assert failed, "the racy kernel lost no case"
    text = " ".join(t["output"] for t in failed)
    assert "race" in text, "the racy case's output does not name the race: " + text[:300]


# [SECTION] make-autograder.sh
def case_make_autograder(args):
    script = os.path.join(SRC, "packaging", "gradescope", "make-autograder.sh")
    if run(["git", "-C", SRC, "rev-parse", "HEAD"]).returncode != 0:
        skip("make-autograder.sh archives the git checkout: no git repository at " + SRC)
    with tempfile.TemporaryDirectory() as tmp:
        def make(spec, name):
            out = os.path.join(tmp, name + ".zip")
            r = run(["bash", script, spec, out])
            return r, out

        def names(z):
            with zipfile.ZipFile(z) as f:
                return {i.filename: i for i in f.infolist()}

        # 1. Masks generated (no mask line): the documented default.
        d = os.path.join(tmp, "generated")
        os.makedirs(d)
        spec = teacher_spec(d, [{"size": '"45x37"', "radius": 2, "points": 2},
                                {"size": '"20x17"', "radius": 1, "points": 1}])
        r, out = make(spec, "generated")
        assert r.returncode == 0, "generated masks: exit %d, stderr %r" % (r.returncode, r.stderr)
        files = names(out)
        assert set(files) == {"setup.sh", "run_autograder", "spec.toml", "tilescope-src.tar.gz"}, sorted(files)
        for exe in ("setup.sh", "run_autograder"):
            assert (files[exe].external_attr >> 16) & 0o111, exe + " is not executable in the zip"
        with zipfile.ZipFile(out) as z:
            assert z.read("spec.toml") == open(spec, "rb").read(), "spec.toml is not the spec"
        print("generated masks: %s" % ", ".join(sorted(files)))

        # 2. A mask file (the course's own spec of tests/grade/specs).
        r, out = make(os.path.join(SPECS, "class2d.toml"), "maskfile")
        assert r.returncode == 0, r.stderr
        assert "masks/asym5x5.txt" in names(out), sorted(names(out))
        print("a mask file: masks/asym5x5.txt in the zip")

        # 3. Several cases: generated, a mask in a subfolder, one in single quotes.
        d = os.path.join(tmp, "several")
        os.makedirs(os.path.join(d, "masks", "edge"))
        shutil.copy(os.path.join(SPECS, "masks", "asym5x5.txt"), os.path.join(d, "masks", "edge", "a.txt"))
        shutil.copy(os.path.join(SPECS, "masks", "asym5x5.txt"), os.path.join(d, "b.txt"))
        spec = teacher_spec(d, [{"size": '"45x37"', "radius": 2, "points": 2, "mask": '"masks/edge/a.txt"'},
                                {"size": '"30x30"', "radius": 2, "points": 1, "mask": "'b.txt'"},
                                {"size": '"20x17"', "radius": 1, "points": 1}])
        r, out = make(spec, "several")
        assert r.returncode == 0, r.stderr
        files = names(out)
        assert {"masks/edge/a.txt", "b.txt"} <= set(files), sorted(files)
        print("several cases: masks/edge/a.txt and b.txt in the zip")

        # The zip as Gradescope unpacks it: its run_autograder grades with its spec and masks.
        root = os.path.join(tmp, "autograder")
        with zipfile.ZipFile(out) as z:
            z.extractall(os.path.join(root, "source"))
        os.chmod(os.path.join(root, "source", "run_autograder"), 0o755)
        os.makedirs(os.path.join(root, "submission"))
        shutil.copy(RIGHT_2D, os.path.join(root, "submission", "conv.cu"))
        g = run([os.path.join(root, "source", "run_autograder")], cwd=root,
                env=dict(os.environ, AUTOGRADER_ROOT=root, TILESCOPE=args.tilescope))
        res, _ = schemas.load(os.path.join(root, "results", "results.json"))
        schemas.check_gradescope(res)
        assert res["score"] == 4 and len(res["tests"]) == 3, (res["score"], res["output"], g.stderr[-500:])
        print("the zip's own run_autograder: %s of 4" % res["score"])

        # The zip's setup.sh on Gradescope's Ubuntu 22.04 image: one line of
        # advice, before anything is installed.
        jammy = os.path.join(tmp, "os-release")
        with open(jammy, "w") as f:
            f.write('PRETTY_NAME="Ubuntu 22.04.5 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\n')
        r = run(["bash", os.path.join(root, "source", "setup.sh")], env=dict(os.environ, OS_RELEASE=jammy))
        assert r.returncode == 1 and "Ubuntu 22.04.5 LTS" in r.stderr and "Ubuntu 24.04" in r.stderr, \
            (r.returncode, r.stderr)
        print("setup.sh on Ubuntu 22.04: " + r.stderr.strip())

        # 4. A mask that does not exist, and one outside the spec's folder: one line each, exit 2.
        d = os.path.join(tmp, "missing")
        os.makedirs(d)
        spec = teacher_spec(d, [{"size": '"45x37"', "radius": 2, "points": 1, "mask": '"masks/none.txt"'}])
        r, out = make(spec, "missing")
        assert r.returncode == 2 and "masks/none.txt" in r.stderr and "does not exist" in r.stderr, \
            (r.returncode, r.stderr)
        assert not os.path.exists(out), "a zip was written for a spec whose mask is missing"
        print("a missing mask: %s" % r.stderr.strip().splitlines()[-1])
        spec = teacher_spec(d, [{"size": '"45x37"', "radius": 2, "points": 1, "mask": '"../b.txt"'}])
        r, out = make(spec, "outside")
        assert r.returncode == 2 and "../b.txt" in r.stderr, (r.returncode, r.stderr)
        print("a mask outside the spec's folder: %s" % r.stderr.strip().splitlines()[-1])


# [SECTION] the three entry scripts
def grade_gradescope(args, tmp, name, kernel, spec):
    root = os.path.join(tmp, name, "autograder")
    copy_spec(spec, os.path.join(root, "source"))
    shutil.copy(os.path.join(SRC, "packaging", "gradescope", "run_autograder"), os.path.join(root, "source"))
    os.makedirs(os.path.join(root, "submission"))
    shutil.copy(kernel, os.path.join(root, "submission", "conv.cu"))
    r = run([os.path.join(root, "source", "run_autograder")], cwd=root,
            env=dict(os.environ, AUTOGRADER_ROOT=root, TILESCOPE=args.tilescope))
    assert r.returncode == 0, "run_autograder exit %d" % r.returncode
    return schemas.load(os.path.join(root, "results", "results.json")), r


def grade_prairielearn(args, tmp, name, kernel, spec):
    root = os.path.join(tmp, name, "grade")
    copy_spec(spec, os.path.join(root, "tests"))
    os.makedirs(os.path.join(root, "student"))
    shutil.copy(kernel, os.path.join(root, "student", "conv.cu"))
    os.makedirs(os.path.join(root, "serverFilesCourse"))
    r = run([os.path.join(SRC, "packaging", "prairielearn", "tilescope-grade")],
            env=dict(os.environ, GRADE_ROOT=root, TILESCOPE=args.tilescope))
    assert r.returncode == 0, "tilescope-grade exit %d" % r.returncode
    return schemas.load(os.path.join(root, "results", "results.json")), r


def grade_classroom(args, tmp, name, kernel, spec):
    work = os.path.join(tmp, name)
    repo = os.path.join(work, "submission")
    copy_spec(spec, os.path.join(repo, ".github", "classroom"))
    os.makedirs(os.path.join(repo, ".git"))
    with open(os.path.join(repo, "README.md"), "w") as f:
        f.write("the student's repository\n")
    shutil.copy(kernel, os.path.join(repo, "conv.cu"))
    summary = os.path.join(work, "summary.md")
    r = run(["bash", os.path.join(SRC, "packaging", "github-classroom", "grade.sh")], cwd=work,
            env=dict(os.environ, TILESCOPE=args.tilescope, CLASSROOM_SUBMISSION=repo,
                     CLASSROOM_RESULTS=os.path.join(work, "results"), GITHUB_STEP_SUMMARY=summary))
    loaded = schemas.load(os.path.join(work, "results", "student", "results.json"))
    with open(summary) as f:
        r.summary = f.read()
    return loaded, r


def case_service(args, service):
    grade = {"gradescope": grade_gradescope, "prairielearn": grade_prairielearn,
             "classroom": grade_classroom}[service]
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, spec, score, fraction, gradable in SUBMISSIONS:
            started = time.monotonic()
            (res, size), r = grade(args, tmp, name, kernel, spec)
            if service == "prairielearn":
                schemas.check_prairielearn(res, size)
                assert res.get("gradable", True) == gradable, (name, res)
                assert abs(res["score"] - fraction) < 1e-9, (name, res["score"], res["message"])
                if not gradable:
                    assert res["format_errors"][0], (name, res)
                elif name == "racy":
                    expect_racy_output(res["tests"])
            else:
                schemas.check_gradescope(res)
                assert res["score"] == score, (name, res["score"], res["output"])
                if name == "racy":
                    expect_racy_output(res["tests"])
                if name == "refused":
                    assert res["output"] and all(t["score"] == 0 for t in res["tests"]), res
            if service == "classroom":
                assert r.returncode == 0, (name, r.returncode, r.stderr[-500:])
                assert "## Score: %d of 3" % score in r.summary, r.summary[:300]
            print("%-8s %s: %s (%.1f s)" % (name, os.path.basename(kernel),
                                           res["score"] if service != "prairielearn" else
                                           "%.3f gradable=%s" % (res["score"], res.get("gradable", True)),
                                           time.monotonic() - started))
        # A spec that cannot be used: a results.json that says so, never none.
        (res, size), r = grade(args, tmp, "badspec", RIGHT_2D, BAD_SPEC)
        if service == "prairielearn":
            schemas.check_prairielearn(res, size)
            assert res["gradable"] is False and "radius 9" in res["message"], res
        else:
            schemas.check_gradescope(res)
            assert res["score"] == 0 and "could not grade" in res["output"] and "radius 9" in res["output"], res
        if service == "classroom":
            assert r.returncode != 0, "the Grade step passed with a spec that cannot be used"
        print("bad spec: %s" % (res.get("message") or res.get("output")).splitlines()[0][:160])


# [SECTION] nginx
def nginx_block(text):
    """The upstream servers' options and the proxy's settings of an nginx configuration."""
    servers = re.findall(r"^\s*server\s+\S+:\d+\s+([^;]*);", text, re.M)
    location = re.search(r"location / \{(.*?)\}", text, re.S).group(1)
    location = "\n".join(line.split("#")[0] for line in location.splitlines())
    settings = sorted(re.sub(r"\s+", " ", d).strip() for d in location.split(";") if d.strip())
    balance = re.findall(r"^\s*(least_conn|ip_hash|hash\s[^;]*|random[^;]*);", text, re.M)
    body = re.search(r"client_max_body_size\s+([^;]+);", text).group(1)
    return {"server options": sorted(set(servers)), "location /": settings, "balance": balance, "body": body}


def case_nginx(args):
    site = open(os.path.join(SRC, "packaging", "serve", "tilescope.nginx")).read()
    docs = open(os.path.join(SRC, "docs", "serve.md")).read()
    blocks = re.findall(r"```nginx\n(.*?)```", docs, re.S)
    several = [b for b in blocks if "upstream" in b]
    assert several, "docs/serve.md has no nginx configuration with an upstream"
    want, got = nginx_block(several[0]), nginx_block(site)
    for key in want:
        assert got[key] == want[key], "%s: packaging/serve/tilescope.nginx has %r, docs/serve.md %r" % (
            key, got[key], want[key])
    print("the site's upstream and proxy settings are docs/serve.md's: %s" % "; ".join(got["location /"]))
    nginx, openssl = shutil.which("nginx") or "/usr/sbin/nginx", shutil.which("openssl")
    if not os.access(nginx, os.X_OK) or not openssl:
        skip("the settings match, but nginx -t needs nginx and openssl (apt-get install nginx openssl)")
    with tempfile.TemporaryDirectory() as tmp:
        r = run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test",
                 "-keyout", os.path.join(tmp, "key.pem"), "-out", os.path.join(tmp, "cert.pem")])
        assert r.returncode == 0, r.stderr
        text = re.sub(r"ssl_certificate\s+\S+;", "ssl_certificate %s/cert.pem;" % tmp, site)
        text = re.sub(r"ssl_certificate_key\s+\S+;", "ssl_certificate_key %s/key.pem;" % tmp, text)
        text = text.replace("listen 443", "listen 127.0.0.1:%d" % free_port())
        text = text.replace("listen 80;", "listen 127.0.0.1:%d;" % free_port())
        with open(os.path.join(tmp, "site.conf"), "w") as f:
            f.write(text)
        with open(os.path.join(tmp, "nginx.conf"), "w") as f:
            f.write("pid %s/nginx.pid;\nerror_log stderr;\nevents {}\nhttp {\n access_log off;\n"
                    " include %s/site.conf;\n}\n" % (tmp, tmp))
        r = run([nginx, "-t", "-p", tmp, "-c", os.path.join(tmp, "nginx.conf")])
        assert r.returncode == 0, "nginx -t refused the site: " + r.stderr
        print("nginx -t: " + r.stderr.strip().splitlines()[-1])


# [SECTION] the systemd unit
def unit_settings(path):
    settings = {}
    text = open(path).read().replace("\\\n", " ")
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def case_unit(args):
    unit = os.path.join(SRC, "packaging", "serve", "tilescope-serve@.service")
    env_file = os.path.join(SRC, "packaging", "serve", "serve.env")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        analyze = shutil.which("systemd-analyze")
        if analyze:
            # The unit as installed, its binary where this build has it.
            text = open(unit).read().replace("/usr/bin/tilescope", os.path.abspath(args.tilescope))
            copy = os.path.join(tmp, "tilescope-serve@.service")
            with open(copy, "w") as f:
                f.write(text)
            r = run([analyze, "verify", "--man=no", copy.replace("@.service", "@8001.service")], cwd=tmp)
            problems = [l for l in (r.stdout + r.stderr).splitlines() if "tilescope-serve" in l]
            assert r.returncode == 0 and not problems, "systemd-analyze verify: " + r.stdout + r.stderr
            print("systemd-analyze verify: no complaint")
        else:
            print("no systemd-analyze (apt-get install systemd): the unit is run without it")
        # ExecStart as the unit runs it: the environment file read, %i the
        # port, the cache folder in $CACHE_DIRECTORY, the working folder the
        # state folder, under an unprivileged user when this test is root.
        s = unit_settings(unit)
        env = {}
        for line in open(env_file):
            line = line.strip()
            if line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k] = v
        state, cache = os.path.join(tmp, "state"), os.path.join(tmp, "cache", "8001")
        os.makedirs(state)
        os.makedirs(cache)
        with open(os.path.join(state, "roster.csv"), "w") as f:
            f.write("id,name\ns01,Ada Lovelace\ns02,Alan Turing\n")
        port = free_port()
        env["TILESCOPE_SERVE_ARGS"] = env["TILESCOPE_SERVE_ARGS"].replace("/var/lib/tilescope", state)
        command = s["ExecStart"][0].replace("%i", str(port)).replace("${CACHE_DIRECTORY}", cache)
        command = command.replace("$TILESCOPE_SERVE_ARGS", env["TILESCOPE_SERVE_ARGS"])
        argv = command.split()
        assert argv[0] == "/usr/bin/tilescope" and argv[1] == "serve", argv
        argv[0] = os.path.abspath(args.tilescope)
        assert "--behind-proxy" in argv and argv[argv.index("--host") + 1] == "127.0.0.1", argv
        pre = []
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if not setpriv:
                skip("running as root without setpriv (util-linux) to run the server unprivileged")
            for p in (state, cache):
                os.chown(p, 65534, 65534)
            pre = [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups"]
            os.chmod(os.path.join(tmp, "cache"), 0o755)
        proc = subprocess.Popen(pre + argv, cwd=state, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={"PATH": "/usr/bin:/bin", "TILESCOPE_SERVE_TOKEN": env["TILESCOPE_SERVE_TOKEN"],
                                     "CACHE_DIRECTORY": cache})
        try:
            health = wait_health(port, proc)
            assert health["status"] == "ok", health
            assert os.path.isfile(os.path.join(state, "roster.links.csv")), "no links beside the roster"
            assert os.path.isfile(os.path.join(state, "lab.sqlite")), "no lab database in the state folder"
            print("ExecStart as the unit runs it: /api/health ok on port %d, links and lab.sqlite in the state "
                  "folder, as user %s" % (port, "nobody" if pre else os.getuid()))
        finally:
            proc.send_signal(signal.SIGTERM)
            out = proc.communicate(timeout=30)[0]
        assert proc.returncode == 0, "the server ended with %d on SIGTERM:\n%s" % (proc.returncode, out)
        # The sandbox is required (serve's default): the self-check ran a
        # kernel in bubblewrap as this user before the server listened.
        assert "self-check: a right kernel file translated, compiled and ran clean" in out, out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(port, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("the server ended with %d before answering:\n%s" % (proc.returncode,
                                                                                    proc.stdout.read()))
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/api/health" % port, timeout=2) as r:
                return json.load(r)
        except OSError:
            time.sleep(0.2)
    raise AssertionError("no answer on /api/health within %d s" % seconds)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilescope", required=True)
    p.add_argument("case", choices=["make_autograder", "gradescope", "prairielearn", "classroom", "nginx", "unit"])
    args = p.parse_args()
    args.tilescope = os.path.abspath(args.tilescope)
    if args.case == "make_autograder":
        case_make_autograder(args)
    elif args.case in ("gradescope", "prairielearn", "classroom"):
        case_service(args, args.case)
    elif args.case == "nginx":
        case_nginx(args)
    else:
        case_unit(args)
    print("ok")


if __name__ == "__main__":
    main()
