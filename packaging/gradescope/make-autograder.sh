#!/usr/bin/env bash
# Builds the autograder zip to upload to Gradescope ("Zip file upload"):
#   packaging/gradescope/make-autograder.sh SPEC.toml [OUT.zip]
# The zip holds setup.sh, run_autograder, the spec as spec.toml (with the
# mask files it names, at the same relative paths) and TileScope's source at
# the commit checked out (git archive).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 SPEC.toml [OUT.zip]" >&2
  exit 2
fi
spec="$1"
out="$(realpath -m "${2:-autograder.zip}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ -f "$spec" ] || { echo "$spec: no such spec file" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$work/"
cp "$spec" "$work/spec.toml"
# The mask files the spec names (mask = "relative/path", in either quotes).
# A spec without any (its masks generated from the seed, the documented
# default) has none to copy: sed prints nothing and succeeds, where grep
# would end the script under pipefail.
specdir="$(dirname "$spec")"
masks="$(sed -nE "s/^[[:space:]]*mask[[:space:]]*=[[:space:]]*[\"']([^\"']+)[\"'].*/\1/p" "$spec" | sort -u)"
while IFS= read -r mask; do
  [ -n "$mask" ] || continue
  # Inside the zip the spec is source/spec.toml and its masks are beside
  # it: a path that leaves the spec's folder would leave the zip too.
  case "/$mask/" in
    //* | */../*) echo "$spec names the mask $mask: a mask must lie in the spec's folder or below it" \
                       "(a relative path without ..) to go into the zip" >&2; exit 2 ;;
  esac
  [ -f "$specdir/$mask" ] || { echo "$spec names the mask $mask, which does not exist" >&2; exit 2; }
  mkdir -p "$work/$(dirname "$mask")"
  cp "$specdir/$mask" "$work/$mask"
done <<< "$masks"
git -C "$root" archive --format=tar.gz -o "$work/tilescope-src.tar.gz" HEAD
chmod 755 "$work/setup.sh" "$work/run_autograder"
rm -f "$out"
(cd "$work" && python3 -c '
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for folder, _, files in os.walk("."):
        for f in files:
            p = os.path.join(folder, f)
            info = zipfile.ZipInfo.from_file(p, os.path.relpath(p, "."))
            with open(p, "rb") as data:
                z.writestr(info, data.read(), zipfile.ZIP_DEFLATED)
' "$out")
echo "wrote $out"
