// The sandbox around a student's kernel file: the second wall, behind the
// translator's (translate.cpp refuses includes, builtins, pointer casts...).
// What runs a student's code, or reads it, runs in a child process behind
// it: the libclang translation (tilescope-worker --translate), the C++
// compiler and the worker that loads the shared object and calls launch().
//
// The walls, strongest first; Auto and Required take the strongest the
// machine allows (SandboxWall):
//   bubblewrap (bwrap)  namespaces: no network, a PID namespace of its own, a
//                       file system of /usr (read-only), the scratch folder
//                       (read-write) and a private /tmp of a fixed size,
//                       nothing else; --die-with-parent, --new-session,
//                       every capability dropped
//   Landlock            where bubblewrap cannot make namespaces (containers,
//                       CI runners): no privilege needed; files confined to
//                       the system's read-only folders and the job's folder,
//                       no TCP, no signal or abstract socket out of it
//   seccomp (libseccomp) in the worker, before the kernel's shared object is
//                       loaded (its constructors run inside): no sockets, no
//                       new process, no exec, no ptrace, no signal to
//                       another process, ...
//   rlimits             CPU time, address space, file size, open files, no
//                       core; and, where the caller is root, a user id of
//                       its own, so that RLIMIT_NPROC bounds its threads
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

// Off: a child process with rlimits alone (the translator is the only other
// wall). Auto (the default): the strongest wall the machine allows, with a
// note where it is not bubblewrap. Required: bubblewrap, or Landlock and
// seccomp; an error where neither can be had.
enum class SandboxMode { Off, Auto, Required };

// What a sandboxed process runs behind, weakest first.
enum class SandboxWall {
    Rlimits,     // a child process with rlimits (--sandbox off)
    Seccomp,     // and the system-call filter, and a user id of its own where the caller is root
    Landlock,    // and Landlock: files and TCP confined, without namespaces
    Bubblewrap,  // bubblewrap's namespaces, the filter, the rlimits and the user id
};
const char* sandboxWallName(SandboxWall wall);  // "bubblewrap", "Landlock", "seccomp", "rlimits"

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
    // RLIMIT_NPROC: processes and threads at once, of the user id a
    // sandboxed process gets of its own where the caller is root (root
    // ignores the limit; a non-root caller's count holds all its programs).
    unsigned processes = 128;
    // The size of bubblewrap's private /tmp (a tmpfs: the machine's memory).
    std::uint64_t tmpBytes = 64ull << 20;
};

struct SandboxStatus {
    bool available = false;                   // Required can be had: bubblewrap, or Landlock and seccomp
    SandboxWall wall = SandboxWall::Rlimits;  // the strongest this machine allows (Auto's and Required's)
    std::string bwrap;                        // the program, when found
    std::string mechanism;                    // the wall in words: "bubblewrap namespaces, seccomp and rlimits"
    std::string reason;                       // why not bubblewrap, when not: "bwrap cannot create ... here: ..."
    int landlockAbi = 0;                      // Landlock's ABI version (0: none)
    std::string landlockReason;               // why no Landlock, when none
    bool seccomp = false;                     // built with libseccomp
    bool ownUser = false;                     // the caller is root: sandboxed processes get a user id of their own
    std::string summary() const;  // one line: "sandbox: ..." for `tilescope device` and --version
};

// Probed once (a bwrap that runs /usr/bin/true in every namespace it would
// use, Landlock's ABI version); $TILESCOPE_BWRAP names the program instead
// of PATH's bwrap, and $TILESCOPE_LANDLOCK=off leaves Landlock out (the
// tests' way to be a machine without either).
const SandboxStatus& sandboxStatus();
// Probes again, after a test changed those variables (not while a kernel
// file is being compiled or run).
void probeSandboxAgain();

// The wall for `mode`: Off -> Rlimits; Auto -> the strongest; Required ->
// Bubblewrap or Landlock, or an Error naming why neither can be had.
Result<SandboxWall> sandboxWall(SandboxMode mode);
// Whether `mode` gets more than rlimits (an Error as sandboxWall's).
Result<bool> sandboxWanted(SandboxMode mode);

// The one-line note for Auto when the wall is weaker than bubblewrap (""
// when it is bubblewrap or the mode is Off): "note: kernel files run
// ... (why not bubblewrap)".
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
    std::uint64_t tmpBytes = 64ull << 20;  // bubblewrap's private /tmp
};

// Whether a user id that is neither owner nor group can reach `path`: every
// folder above it searchable by others, and the path itself readable (or,
// for a folder, searchable). A user id of the sandbox's own runs only what
// it can reach.
bool reachableByOthers(const std::string& path);

// `argv` wrapped in bwrap with that view (argv[0] an absolute path).
std::vector<std::string> sandboxCommand(const std::vector<std::string>& argv, const SandboxView& view);

// The environment bwrap itself starts with: PATH alone (a sandboxed command
// gets its own, made by --clearenv --setenv, and the namespace's init
// process must carry none of the caller's secrets either).
std::vector<std::string> sandboxEnvironment();

// A child's rlimits, user id and Landlock ruleset, applied between fork and exec.
struct ChildLimits {
    bool apply = false;
    double cpuSeconds = 0;
    std::uint64_t addressSpaceBytes = 0;  // 0: not limited
    std::uint64_t fileSizeBytes = 0;
    unsigned openFiles = 0;
    unsigned processes = 0;  // RLIMIT_NPROC (0: not limited), set only with `user`
    unsigned user = 0;       // the user and group id to run as (0: the caller's)
    int landlock = -1;       // a Landlock ruleset to restrict the child to (-1: none)
    // Paths under /proc/self the child may write behind Landlock, added to
    // the ruleset in the child (its /proc/self is not the caller's): what
    // the CUDA driver writes of its own process as it starts (the names of
    // its threads, /proc/self/task/TID/comm). `landlockRights`: the rights
    // the ruleset handles (Landlock refuses a rule with any other).
    std::vector<const char*> selfWritable;
    std::uint64_t landlockRights = 0;
};
ChildLimits childLimits(const SandboxLimits& limits, bool addressSpace);
// Async-signal-safe: for the child between fork and exec. Returns 0, or the
// errno of what failed (the child must not run then: a wall is missing).
int applyChildLimits(const ChildLimits& limits);

// A Landlock ruleset (a file descriptor), closed with it.
class Ruleset {
public:
    Ruleset() = default;
    explicit Ruleset(int fd) : m_fd(fd) {}
    Ruleset(Ruleset&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
    Ruleset& operator=(Ruleset&& other) noexcept;
    Ruleset(const Ruleset&) = delete;
    Ruleset& operator=(const Ruleset&) = delete;
    ~Ruleset();
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
};

// The Landlock ruleset of `view`: the system's folders read-only (/usr and
// the merged /usr's links, /etc/ld.so.cache, /dev/null, /dev/zero,
// /dev/urandom), `readOnly` read-only, `writable` read-write, with `gpu`
// the NVIDIA devices, /sys and /proc; nothing else; no TCP (ABI 4), no
// signal or abstract socket out of it (ABI 6).
Result<Ruleset> landlockRuleset(const SandboxView& view);

// A command made ready to start behind `wall`: wrapped in bwrap
// (Bubblewrap), with the environment it gets (PATH, HOME, TMPDIR and LANG
// alone, but for Rlimits: the caller's), the rlimits and, behind a wall, a
// user id of its own where the caller is root (`ownUser`; `view.writable` is
// handed to it) and the Landlock ruleset. The ruleset is held here until
// the child has started.
struct ConfinedCommand {
    std::vector<std::string> argv;
    std::vector<std::string> environment;
    ChildLimits limits;
    Ruleset ruleset;
    bool bubblewrap = false;
};
Result<ConfinedCommand> confineCommand(SandboxWall wall, const std::vector<std::string>& argv,
                                       const SandboxView& view, const SandboxLimits& limits, bool addressSpace,
                                       bool ownUser);

// The worker's system-call filter (seccomp), installed by the worker itself
// before it loads the kernel's shared object (whose constructors run at
// dlopen) and by the translator before it reads the file. `gpu`: the CUDA
// driver is running in this process (its ioctls and threads are allowed; so
// they are on the CPU). A forbidden call ends the worker with SIGSYS, which
// it reports with the call's name. Returns "" or why it could not be installed.
std::string installWorkerFilter(bool gpu);

// The name of system call `number` ("socket"), for the caller's message.
std::string systemCallName(int number);
// Whether system call `number` starts a process or a program (clone, fork, execve...).
bool startsAProcess(int number);

}  // namespace tilescope::own
