#!/usr/bin/env python3
"""The images of packaging/, built and run with Debian's podman:

  serve         packaging/serve/Containerfile (build-image.sh serve): the
                server in a container answers /api/health and checks a right
                kernel clean, with the sandbox it requires (bubblewrap)
  unit          that image with systemd 252 as its first process and
                packaging/serve/tilescope-serve@.service installed: the unit,
                with all its hardening (DynamicUser, ProtectSystem=strict,
                PrivateTmp, ...), starts, and a student's check through it
                is kept in the lab database of its StateDirectory
  prairielearn  packaging/prairielearn/Containerfile: the grader image run
                as PrairieLearn runs it (/grade mounted) on a right, a racy
                and a refused submission; results.json held to PrairieLearn's
                schema

  container_test.py --source SRC --build BUILD CASE
The base image: $TILESCOPE_TEST_BASE_IMAGE, else docker.io/library/debian:12
(pulled if missing), else one made with mmdebstrap from Debian's mirror.
Exit 77 (skipped) with the reason where podman is missing or cannot run a
container here, or no Debian 12 base image can be had.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import packaging_test as pt  # noqa: E402
import schemas  # noqa: E402

SKIP = 77
BASE_LOCAL = "localhost/tilescope-base/debian:12"


def run(cmd, timeout=900, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout, **kw)


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def podman_setup():
    """podman's command and run options that work on this machine. Where a
    machine withholds CAP_SYS_RESOURCE (podman's default rlimits cannot be
    set: "setrlimit RLIMIT_NOFILE: Operation not permitted") or mounts cgroups
    v1 and v2 together (crun: "cgroups in hybrid mode not supported"), runc
    and the machine's own limits are used instead."""
    podman = shutil.which("podman")
    if not podman:
        skip("podman is not installed (apt-get install podman)")
    base = base_image([podman])
    nofile = subprocess.run(["sh", "-c", "ulimit -Hn"], stdout=subprocess.PIPE, text=True).stdout.strip()
    tries = [([podman], []),
             ([podman, "--runtime", "runc"], ["--ulimit", "nofile=%s:%s" % (nofile, nofile),
                                              "--ulimit", "nproc=4096:4096"])]
    errors = []
    for cmd, opts in tries:
        r = run(cmd + ["run", "--rm"] + opts + [base, "true"], timeout=120)
        if r.returncode == 0:
            return cmd, opts, base
        errors.append(" ".join(cmd[1:] + opts) + ": " + r.stderr.strip().splitlines()[-1])
    skip("podman cannot run a container here: " + " | ".join(errors))


def base_image(podman):
    wanted = os.environ.get("TILESCOPE_TEST_BASE_IMAGE")
    for image in ([wanted] if wanted else []) + ["docker.io/library/debian:12", BASE_LOCAL]:
        if run(podman + ["image", "exists", image]).returncode == 0:
            return image
    pulled = run(podman + ["pull", "docker.io/library/debian:12"], timeout=300)
    if pulled.returncode == 0:
        return "docker.io/library/debian:12"
    mmdebstrap = shutil.which("mmdebstrap")
    if not mmdebstrap:
        skip("no Debian 12 image: pulling docker.io/library/debian:12 failed (%s) and mmdebstrap is not "
             "installed to make one" % pulled.stderr.strip().splitlines()[-1])
    with tempfile.TemporaryDirectory() as tmp:
        tar = os.path.join(tmp, "debian12.tar")
        r = run([mmdebstrap, "--variant=minbase", "bookworm", tar, "http://deb.debian.org/debian"], timeout=900)
        if r.returncode != 0:
            skip("no Debian 12 image: the pull failed and mmdebstrap could not make one: " +
                 r.stderr.strip().splitlines()[-1])
        r = run(podman + ["import", tar, BASE_LOCAL])
        assert r.returncode == 0, r.stderr
    return BASE_LOCAL


def build(podman, opts, base, kind, args, tag):
    env = dict(os.environ, PODMAN=" ".join(podman),
               PODMAN_BUILD_ARGS=" ".join(["--network", "host", "--build-arg", "BASE=" + base] + opts))
    started = time.monotonic()
    r = run([os.path.join(args.source, "packaging", "build-image.sh"), kind, args.build, tag], env=env, timeout=1200)
    log = r.stdout + r.stderr
    if r.returncode != 0 and any(s in log for s in ("Temporary failure resolving", "Could not resolve",
                                                      "Network is unreachable")):
        skip("the image installs the package's dependencies from Debian's mirror, which cannot be reached: " +
             [l for l in log.splitlines() if "resolv" in l or "unreachable" in l][-1].strip())
    assert r.returncode == 0, "build-image.sh %s failed:\n%s" % (kind, log[-3000:])
    print("built %s in %.0f s" % (tag, time.monotonic() - started))


def post_check(port, token, kernel):
    body = json.dumps({"kernel": open(kernel).read(), "size": "40x30", "radius": 1}).encode()
    req = urllib.request.Request("http://127.0.0.1:%d/api/check" % port, data=body,
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)


def wait_health(port, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/api/health" % port, timeout=2) as r:
                return json.load(r)
        except OSError:
            time.sleep(0.5)
    raise AssertionError("no answer on port %d within %d s" % (port, seconds))


def case_serve(podman, opts, base, args):
    tag = "localhost/tilescope-serve:test"
    build(podman, opts, base, "serve", args, tag)
    port = pt.free_port()
    name = "tilescope-serve-test-%d" % os.getpid()
    r = run(podman + ["run", "-d", "--name", name] + opts +
            ["-p", "127.0.0.1:%d:8000" % port, "-e", "TILESCOPE_SERVE_TOKEN=secret", tag])
    assert r.returncode == 0, r.stderr
    try:
        health = wait_health(port)
        assert health["status"] == "ok", health
        answer = post_check(port, "secret", pt.RIGHT_2D)
        assert answer["status"] == "clean", answer
        logs = run(podman + ["logs", name]).stdout + run(podman + ["logs", name]).stderr
        assert "self-check: a right kernel file translated, compiled and ran clean" in logs, logs
        print("the server's container: /api/health ok, a right kernel checked clean; " +
              [l for l in logs.splitlines() if "self-check" in l][0])
    finally:
        run(podman + ["rm", "-f", name])


def case_unit(podman, opts, base, args):
    serve_tag = "localhost/tilescope-serve:test"
    build(podman, opts, base, "serve", args, serve_tag)
    with tempfile.TemporaryDirectory() as ctx:
        shutil.copy(os.path.join(args.source, "packaging", "serve", "tilescope-serve@.service"), ctx)
        with open(os.path.join(ctx, "roster.csv"), "w") as f:
            f.write("id,name\ns01,Ada Lovelace\ns02,Alan Turing\n")
        with open(os.path.join(ctx, "Containerfile"), "w") as f:
            # The image's own user and its /var/lib/tilescope go: the unit's
            # DynamicUser keeps its state in /var/lib/private/tilescope.
            f.write("FROM %s\nUSER root\nWORKDIR /\nRUN userdel tilescope && rm -rf /var/lib/tilescope\n"
                    "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends"
                    " systemd systemd-sysv && rm -rf /var/lib/apt/lists/*\n"
                    "COPY tilescope-serve@.service /etc/systemd/system/\n"
                    "RUN mkdir -p /etc/tilescope && printf 'TILESCOPE_SERVE_TOKEN=teacher-secret\\n"
                    "TILESCOPE_SERVE_ARGS=--roster /var/lib/tilescope/roster.csv --workers 2\\n'"
                    " > /etc/tilescope/serve.env && chmod 600 /etc/tilescope/serve.env\n"
                    "COPY roster.csv /root/roster.csv\n"
                    "ENTRYPOINT [\"/sbin/init\"]\n" % serve_tag)
        tag = "localhost/tilescope-serve-systemd:test"
        r = run(podman + ["build", "--network", "host"] + opts + ["-t", tag, ctx], timeout=900)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    # The unit listens on 127.0.0.1 (nginx in front): the container shares
    # this machine's network, and the instance is a free port of it.
    port = pt.free_port()
    unit = "tilescope-serve@%d" % port
    name = "tilescope-unit-test-%d" % os.getpid()
    # systemd as the first process needs the container's privileges to make
    # the service's namespaces (DynamicUser, ProtectSystem, PrivateTmp, ...).
    r = run(podman + ["run", "-d", "--name", name, "--privileged", "--systemd=always", "--network", "host"] +
            opts + [tag])
    assert r.returncode == 0, r.stderr
    try:
        def sh(command):
            return run(podman + ["exec", name, "sh", "-c", command], timeout=120)

        for _ in range(60):
            state = sh("systemctl is-system-running").stdout.strip()
            if state in ("running", "degraded"):
                break
            time.sleep(1)
        # The roster into the service's state folder, as docs/deploy.md
        # says, and the service started again to read it.
        r = sh("systemctl stop " + unit + " 2>/dev/null; install -d -m 700 /var/lib/private/tilescope && "
               "cp /root/roster.csv /var/lib/private/tilescope/roster.csv && systemctl start " + unit)
        assert r.returncode == 0, r.stderr
        verify = sh("systemd-analyze verify " + unit + ".service")
        assert verify.returncode == 0 and not verify.stderr.strip(), verify.stdout + verify.stderr
        health = wait_health(port)
        assert health["status"] == "ok", health
        links = sh("cat /var/lib/tilescope/roster.links.csv").stdout
        token = [l for l in links.splitlines() if l.startswith("s01,")][0].split("#token=")[1].strip().strip('"')
        answer = post_check(port, token, pt.RIGHT_2D)
        assert answer["status"] == "clean", answer
        # The database, written by the service's own user (DynamicUser), never root.
        owner = sh("stat -c '%U %u' /var/lib/private/tilescope/lab.sqlite").stdout.split()
        assert len(owner) == 2 and owner[1] != "0", "lab.sqlite in the state folder, not root's: %r" % owner
        user, db = "%s (uid %s)" % tuple(owner), "/var/lib/private/tilescope/lab.sqlite"
        journal = sh("journalctl -u " + unit + " -o cat --no-pager").stdout
        assert "self-check: a right kernel file translated, compiled and ran clean" in journal, journal[-2000:]
        exposure = sh("systemd-analyze security " + unit + ".service --no-pager | tail -1").stdout.strip()
        print("the unit under systemd: active as %s, a student's check clean, kept in %s; %s" %
              (user, db, exposure))
    finally:
        run(podman + ["rm", "-f", name])


def case_prairielearn(podman, opts, base, args):
    tag = "localhost/tilescope-grader:test"
    build(podman, opts, base, "prairielearn", args, tag)
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, spec, _, fraction, gradable in pt.SUBMISSIONS:
            root = os.path.join(tmp, name)
            pt.copy_spec(spec, os.path.join(root, "tests"))
            os.makedirs(os.path.join(root, "student"))
            os.makedirs(os.path.join(root, "serverFilesCourse"))
            shutil.copy(kernel, os.path.join(root, "student", "conv.cu"))
            # As PrairieLearn runs a job: /grade mounted, no network.
            r = run(podman + ["run", "--rm", "--network", "none"] + opts +
                    ["-v", "%s:/grade" % root, tag], timeout=300)
            assert r.returncode == 0, r.stderr
            res, size = schemas.load(os.path.join(root, "results", "results.json"))
            schemas.check_prairielearn(res, size)
            assert res.get("gradable", True) == gradable and abs(res["score"] - fraction) < 1e-9, (name, res)
            print("%-8s in the grader image: score %.3f, gradable %s" % (name, res["score"], res.get("gradable")))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("case", choices=["serve", "unit", "prairielearn"])
    args = p.parse_args()
    args.source, args.build = os.path.abspath(args.source), os.path.abspath(args.build)
    if not os.path.isfile(os.path.join(args.build, "CPackConfig.cmake")):
        skip(args.build + " has no CPackConfig.cmake")
    podman, opts, base = podman_setup()
    try:
        {"serve": case_serve, "unit": case_unit, "prairielearn": case_prairielearn}[args.case](podman, opts, base,
                                                                                             args)
    finally:
        # Each image is over a gigabyte (the package's dependencies and g++):
        # none is left behind, and a rebuild leaves no untagged one.
        run(podman + ["rmi", "-f", "localhost/tilescope-serve-systemd:test", "localhost/tilescope-serve:test",
                      "localhost/tilescope-grader:test"])
    print("ok")


if __name__ == "__main__":
    main()
