#!/usr/bin/env python3
"""Renders tests/bad_input_cases.txt (the records tests/bad_input_test.cpp
runs) into docs/bad-input.md, so that the table and the test cannot drift.

    scripts/bad-input-table.py          rewrite docs/bad-input.md
    scripts/bad-input-table.py --check  exit 1 if it is out of date (a ctest)
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "bad_input_cases.txt")
DOC = os.path.join(ROOT, "docs", "bad-input.md")

INTRO = """\
# Bad input, answered

Every row is a case that `tests/bad_input_test.cpp` runs through the real
`tilescope` binary (in CI also built with AddressSanitizer and
UndefinedBehaviorSanitizer). Each must exit with the code shown, print exactly
the line shown on stderr and nothing on stdout, leave no file behind (no
output, no temporary file) and not crash. Exit code 2 means the input cannot
work; 3 means the backend asked for is not available here.

File names stand for files the test makes in a scratch folder (the messages
name them by their full path there). Where a row shows several lines, builds
differ (with or without CUDA); a line ending in `...` is a prefix.

Generated from `tests/bad_input_cases.txt` by `scripts/bad-input-table.py`;
edit the cases there, never this file. The readers behind the file rows are
also fuzzed with libFuzzer in CI (`tests/fuzz/`), and so is the translator
of a student's kernel file.
"""


OUTRO = """
## Fuzzing

The file readers also face inputs nobody wrote by hand: `tests/fuzz/` holds a
libFuzzer target for each (built with Clang, `-DTILESCOPE_FUZZ=ON`, with
AddressSanitizer and UndefinedBehaviorSanitizer), a committed seed corpus for
each in `tests/fuzz/corpus/`, and `scripts/bootstrap.sh test` runs every target
for 10 s in CI. Besides "no crash, no sanitizer report", each target checks the
readers' promises: a refusal is one line with exit code 2 that names the file;
an accepted array has the shape its data has, within the limits, with finite
values (pictures in [0, 1]); a `.npy` read, written and read again comes back
bit for bit.

stb_image is Debian's prebuilt `libstb`, not instrumented: `fuzz_input` checks
what TileScope does with its results and would catch its crashes, not its
silent out-of-bounds accesses. Compiled from its header under the sanitizers
(outside CI), stb_image 2.27 shows undefined behaviour within a minute: a JPEG
whose Huffman table declares more than 256 codes makes `stbi__build_huffman`
write past its `size[257]` array, inside the decoder's state. TileScope
therefore reads every Huffman table of a JPEG itself before stb_image sees the
file, and refuses a table of more than 256 codes (the Pictures row about a
Huffman table).

`fuzz_kernel` fuzzes the translator of a student's kernel file
(`own::translate`, libclang; docs/own-kernel.md), seeded with the kernel files
of `tests/own/good`, `tests/own/broken` and `assets/exercises/` where they are
(no copies) and a dictionary of CUDA words. A
refusal must be one line with exit code 2 that names the file and a line
within it (no line only for a file without a kernel or a launch(), or for an
error in another file it includes) and shows none of TileScope's internal
names (`own_user`, `ElementRef`, `tilescope::`, ...); a translation's kernels,
arrays and barriers sit on lines of the file, and its device sources keep
every line break; the scratch folder holds nothing afterwards but the parser's
stand-in headers, and `$TMPDIR` nothing at all. A kernel file is also someone
else's code: `tests/own/broken/hostile_*.cu` and `tests/own_hostile_test.cpp`
try what a hostile student would. An `#include` of anything but the allowed
headers (a file of the machine, `/dev/zero`, a named pipe, a macro),
`__has_include`, `_Pragma` and pragmas other than unrolling are refused from
the file's text, before libclang opens anything, with the student's line and
nothing of the named file; libclang then sees the file system through an
overlay holding only the stand-in headers, so an include that got past would
find no file. Calls to compiler builtins (`__builtin_*`, `__sync_*`,
`__atomic_*`), functions the file declares but does not define, casts that
make a pointer out of a number or read a pointer as one, and
`reinterpret_cast` to a pointer are refused at their line: each would reach
memory that no trace sees. `tests/own/mutate_kernels.py`
(the test `Own.Mutations`) takes the whole path the same way, through the
`tilescope` binary: 60 mutated copies of the correct kernels, each ending with
exit code 0, 1 or 2 (a refusal one line naming the file), no internal name
shown and nothing left behind.

Behind the translator stands a sandbox (docs/own-kernel.md, "The sandbox":
bubblewrap, seccomp, rlimits) around the translation, the compiler and the
worker. `tests/own_sandbox_test.cpp` (label `sandbox`) tests it with code
that got past the translator: raw C++ in `tests/own/sandbox/`, built into
shared objects that expose the translation's entry (no kernel file can become
one), run by the worker. Each case (read `/etc/passwd`, read a file in a
scratch `$HOME`, write outside the scratch folder, connect to a listener the
test opens, fork in a loop, exec `/bin/sh`, allocate without end, print
without end, spin, crash, abort, overflow the stack, start threads without
end, kill the parent and `-1`, read the environment's secret, leave links to
a secret among its result files, fill the disk, overwrite its own shared
object) must leave the caller running with a one-line error that says what
happened, with no secret in any output or message, nothing written outside
the scratch folder and no process left behind; the same cases run without
the sandbox do reach their targets, so the checks can fail. Every
`hostile_*.cu` is refused in the sandbox as in the process, naming the
student's file and nothing else, and the translator in the sandbox is shown
not to see a file the process can read. The tests skip, saying why, where
bwrap cannot run.

| target | reads | the first byte of an input |
| --- | --- | --- |
| `fuzz_npy` | `readNpy` and `readNpyMask` | is part of the file |
| `fuzz_pnm` | `readImageFile` on PGM/PPM (inputs starting with `P`) | is part of the file |
| `fuzz_mask` | `readMask` | picks `.txt`, `.csv`, `.raw` or `.npy` |
| `fuzz_input` | `readInput`, the entry of every input file (stb_image for PNG, JPEG, BMP) | picks one of eleven extensions |
| `fuzz_kernel` | `own::translate`, a kernel file's text (libclang) | is part of the file |

To fuzz longer than CI does:

```
CXX=clang++ cmake -S . -B build-fuzz -DTILESCOPE_FUZZ=ON -DTILESCOPE_TESTS=OFF -DTILESCOPE_APP=OFF -DTILESCOPE_CUDA=OFF
cmake --build build-fuzz --target fuzzers
mkdir -p /tmp/npy && build-fuzz/tests/fuzz/fuzz_npy /tmp/npy tests/fuzz/corpus/npy -dict=tests/fuzz/npy.dict -max_total_time=600
```
"""


def load():
    cases, current = [], {}
    with open(CASES, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith("#"):
                continue
            if not line:
                if current:
                    cases.append(current)
                current = {}
                continue
            key, _, value = line.partition(": ")
            if key == "stderr":
                current.setdefault("stderr", []).append(value)
            else:
                current[key] = value
    if current:
        cases.append(current)
    return cases


def shown(text):
    """The scratch folder's names as the reader sees them, escaped for a table cell."""
    text = text.replace("{dir}/", "").replace("{out}", "out.npy")
    return text.replace("|", "\\|")


def code(text):
    # Inline code cannot hold a backtick next to its delimiter: pad with a
    # space and use a double backtick when the text has one.
    return "`` " + text + " ``" if "`" in text else "`" + text + "`"


def render(cases):
    out = [INTRO]
    groups = []
    for c in cases:
        if c["group"] not in groups:
            groups.append(c["group"])
    number = 0
    for group in groups:
        out.append("\n## " + group + "\n\n| # | input | command | exit | stderr |\n| --- | --- | --- | --- | --- |\n")
        for c in cases:
            if c["group"] != group:
                continue
            number += 1
            command = code("tilescope " + shown(c["args"]))
            lines = "<br>".join(code(shown(s)) for s in c["stderr"])
            note = " (skipped where a GPU is present)" if c.get("needs") == "no-gpu" else ""
            out.append("| %d | %s%s | %s | %s | %s |\n" % (number, shown(c["input"]), note, command, c["exit"], lines))
    out.append("\n%d cases.\n" % number)
    out.append(OUTRO)
    return "".join(out)


def main():
    text = render(load())
    if "--check" in sys.argv[1:]:
        current = open(DOC, encoding="utf-8").read() if os.path.exists(DOC) else ""
        if current != text:
            print("docs/bad-input.md is out of date: run scripts/bad-input-table.py", file=sys.stderr)
            return 1
        return 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
