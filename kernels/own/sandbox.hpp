// The sandbox around a student's kernel file: the second wall, behind the
// translator's (translate.cpp refuses includes, builtins, pointer casts...).
// What runs a student's code, or reads it, runs inside it: the libclang
// translation (tilescope-worker --translate), the C++ compiler and the
// worker that loads the shared object and calls launch().
//
// Made of Debian's well-kept mechanisms:
//   bubblewrap (bwrap)  namespaces: no network, a PID namespace of its own, a
//                       file system of /usr (read-only), the scratch folder
//                       (read-write) and a private /tmp, nothing else;
//                       --die-with-parent, --new-session, every capability dropped
//   seccomp (libseccomp) in the worker, after the shared object is loaded and
//                       before launch(): no sockets, no new process, no exec,
//                       no ptrace, no signal to another process, ...
//   rlimits             CPU time, address space, file size, open files, no core
// and the caller reads the worker's output through a pipe, keeping at most
// SandboxLimits::outputBytes.
//
// docs/own-kernel.md ("The sandbox") says what a kernel can and cannot reach.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tilescope::own {

// Off: runs as before (the translator is the only wall). Auto (the default):
// sandboxed where bwrap works, else as Off, with a note. Required: an error
// where it cannot be had.
enum class SandboxMode { Off, Auto, Required };

const char* sandboxModeName(SandboxMode mode);  // "off", "auto", "required"
std::optional<SandboxMode> parseSandboxMode(std::string_view text);
// $TILESCOPE_SANDBOX (off, auto or required), else Auto: the command line's
// and the app's default, so that a teacher can set it once for a session.
SandboxMode sandboxModeFromEnvironment();

struct SandboxLimits {
    // RLIMIT_CPU of the worker and of the compiler (the wall-clock time
    // limits, RunRequest::timeLimitSeconds and CompileOptions, come first
    // as a rule: this one holds when the caller's clock is generous).
    double cpuSeconds = 60.0;
    // RLIMIT_AS: the worker on the CPU executor (a 45x37 image takes a few
    // MB; a 2048x2048 one traced, a few hundred) and the compiler.
    std::uint64_t addressSpaceBytes = 4ull << 30;
    // RLIMIT_FSIZE: any one file written (the trace's events.bin is the largest).
    std::uint64_t fileSizeBytes = 1ull << 30;
    // RLIMIT_NOFILE.
    unsigned openFiles = 128;
    // What the caller keeps of the worker's standard output (the kernel's
    // printf): the rest is counted, then the worker is ended.
    std::uint64_t outputBytes = 4ull << 20;
};

struct SandboxStatus {
    bool available = false;
    std::string bwrap;            // the program, when found
    std::string mechanism;        // "bubblewrap namespaces + seccomp + rlimits", when available
    std::string reason;           // why not, when not: "bwrap cannot create ... here: ..."
    std::string summary() const;  // one line: "sandbox: ..." for `tilescope device` and --version
};

// Probed once (a bwrap that runs /usr/bin/true in every namespace it would
// use); $TILESCOPE_BWRAP names the program instead of PATH's bwrap.
const SandboxStatus& sandboxStatus();

// Whether to sandbox for `mode`: Off -> false; Auto -> available; Required ->
// available or an Error naming why not.
Result<bool> sandboxWanted(SandboxMode mode);

// The one-line note for Auto when the sandbox cannot be had ("" when it can
// or the mode is Off): "note: kernel files run without a sandbox: ...".
std::string sandboxNote(SandboxMode mode);

// What a sandboxed command may see besides /usr: `readOnly` paths (the
// worker program, the precompiled prelude, the kernel's scratch folder for
// the worker), then `writable` on top (its working folder, $HOME and
// $TMPDIR: the scratch folder, or for the worker its job's folder), and
// with `gpu` the NVIDIA devices.
struct SandboxView {
    std::string writable;
    std::vector<std::string> readOnly;
    bool gpu = false;
};

// `argv` wrapped in bwrap with that view (argv[0] an absolute path).
std::vector<std::string> sandboxCommand(const std::vector<std::string>& argv, const SandboxView& view);

// The environment bwrap itself starts with: PATH alone (a sandboxed command
// gets its own, made by --clearenv --setenv, and the namespace's init
// process must carry none of the caller's secrets either).
std::vector<std::string> sandboxEnvironment();

// A child's rlimits, applied between fork and exec.
struct ChildLimits {
    bool apply = false;
    double cpuSeconds = 0;
    std::uint64_t addressSpaceBytes = 0;  // 0: not limited
    std::uint64_t fileSizeBytes = 0;
    unsigned openFiles = 0;
};
ChildLimits childLimits(const SandboxLimits& limits, bool addressSpace);
// Async-signal-safe: for the child between fork and exec.
void applyChildLimits(const ChildLimits& limits);

// The worker's system-call filter (seccomp), installed by the worker itself
// after dlopen and before launch(). `gpu`: the CUDA driver is running in
// this process (its ioctls and threads are allowed; so they are on the CPU).
// A forbidden call ends the worker with SIGSYS, which it reports with the
// call's name. Returns "" or why it could not be installed.
std::string installWorkerFilter(bool gpu);

// The name of system call `number` ("socket"), for the caller's message.
std::string systemCallName(int number);

}  // namespace tilescope::own
