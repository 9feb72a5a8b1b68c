#include "own/own_kernel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/clock.hpp"
#include "base/read_file.hpp"
#include "core/planner.hpp"
#include "exec/backend.hpp"
#include "exec/barrier_check.hpp"
#include "own/compile_cache.hpp"
#include "own/sandbox.hpp"
#include "own/worker_protocol.hpp"
#include "reference/reference.hpp"
#include "trace/sources.hpp"

extern char** environ;

namespace tilescope {
// Defined in the generated own_headers.cpp (cmake/EmbedSources.cmake).
std::span<const EmbeddedSource> ownHeaderTable();
}  // namespace tilescope

namespace tilescope::own {

namespace fs = std::filesystem;

OwnKernel::~OwnKernel() {
    std::error_code ignored;
    if (!directory.empty()) fs::remove_all(directory, ignored);
}

namespace {

// Writes to a pipe whose reader may be gone (a worker that has just ended
// reads no stop): EPIPE then, never a SIGPIPE that would end the caller.
void writeWithoutSigpipe(int fd, const void* data, std::size_t size) {
    sigset_t pipeSignal, before;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &before);
    if (write(fd, data, size) < 0 && errno == EPIPE) {
        const timespec none{0, 0};
        (void)sigtimedwait(&pipeSignal, nullptr, &none);  // the signal the write left pending
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// The scratch folder is this kernel's alone and made again for every
// compile: its files are written without fsync.
constexpr base::AtomicWriteOptions kScratchWrite = [] {
    base::AtomicWriteOptions options;
    options.sync = false;
    return options;
}();

// The scratch folders of programs that ended without removing theirs (a
// crash, a kill): their names carry the process id, and the first compile
// of the next program removes those whose process is gone.
void removeAbandonedScratch(const fs::path& tmp) {
    static std::once_flag once;
    std::call_once(once, [&] {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(tmp, ec)) {
            const std::string name = entry.path().filename().string();
            constexpr std::string_view prefix = "tilescope-kernel-";
            if (name.rfind(prefix, 0) != 0) continue;
            const std::size_t dash = name.find('-', prefix.size());
            const std::string digits = name.substr(prefix.size(), dash - prefix.size());
            if (dash == std::string::npos || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                continue;
            const pid_t owner = static_cast<pid_t>(std::atol(digits.c_str()));
            if (owner <= 0 || kill(owner, 0) == 0 || errno != ESRCH) continue;
            std::error_code ignored;
            fs::remove_all(entry.path(), ignored);
        }
    });
}

Result<std::string> makeScratch() {
    removeAbandonedScratch(fs::temp_directory_path());
    std::string pattern =
        (fs::temp_directory_path() / ("tilescope-kernel-" + std::to_string(getpid()) + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data())) return Error{ExitCode::Internal, "cannot make a scratch folder: " + std::string(std::strerror(errno))};
    return pattern;
}

// The first of `names` found on PATH.
std::string onPath(std::initializer_list<const char*> names) {
    const char* path = std::getenv("PATH");
    if (!path) return {};
    for (const char* name : names) {
        std::stringstream dirs(path);
        std::string dir;
        while (std::getline(dirs, dir, ':')) {
            const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
            if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
        }
    }
    return {};
}

std::string findCompiler(const CompileOptions& options) {
    if (!options.compiler.empty()) return options.compiler;
    if (const char* env = std::getenv("TILESCOPE_CXX"); env && *env) return env;
    return onPath({"c++", "g++", "clang++"});
}

// How a child process ended.
struct Ended {
    bool started = false;
    bool timedOut = false;
    bool cancelled = false;
    int status = 0;
    double millis = 0.0;
    std::string startError;
    std::uint64_t outBytes = 0, errBytes = 0;  // all it wrote on stdout and stderr
    bool outputEnded = false;                  // ended for writing past ChildIo::endBytes
};

// Where a child's standard output and error go: pipes the caller reads,
// keeping the first keepBytes of each in a file and counting the rest; past
// endBytes in all, the child is ended. With stopPipe, the child's fd 3 is
// the read end of a pipe the caller writes a byte into to ask it to stop
// (the worker's --stop-fd 3), where a signal could not reach it (in the
// sandbox, the worker is no child of the caller's); else SIGUSR1.
struct ChildIo {
    fs::path out, err;
    bool sandboxed = false;  // the child is bwrap
    std::uint64_t keepBytes = ~0ull;
    std::uint64_t endBytes = ~0ull;
    bool stopPipe = false;
};

// This process's environment with `name` set to `value`.
std::vector<std::string> environmentWith(const std::string& name, const std::string& value) {
    std::vector<std::string> env;
    const std::string prefix = name + "=";
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, prefix.c_str(), prefix.size()) != 0) env.emplace_back(*e);
    env.push_back(prefix + value);
    return env;
}

// A child runChild started: its process, the caller's ends of its pipes, and
// the files its output is kept in.
struct ChildProcess {
    pid_t pid = -1;
    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, stopPipe[2] = {-1, -1}, execPipe[2] = {-1, -1};
    int outFile = -1, errFile = -1;
    base::Stopwatch running;  // from the fork

    void closeAll() {
        for (int* p : {outPipe, errPipe, stopPipe, execPipe})
            for (int i : {0, 1})
                if (p[i] >= 0)
                    close(p[i]), p[i] = -1;
    }
};

// runChild's first step: the pipes and the files, and the child forked,
// its walls up and `argv` executed. False, with e.startError, when it did
// not start (what was opened is closed again).
bool startChild(const std::vector<std::string>& argv, const ChildIo& io,
                const std::vector<std::string>* environment, const ChildLimits& limits, ChildProcess& child,
                Ended& e) {
    int (&outPipe)[2] = child.outPipe;
    int (&errPipe)[2] = child.errPipe;
    int (&stopPipe)[2] = child.stopPipe;
    int (&execPipe)[2] = child.execPipe;
    if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0 || pipe2(execPipe, O_CLOEXEC) != 0 ||
        (io.stopPipe && pipe2(stopPipe, O_CLOEXEC) != 0)) {
        e.startError = argv[0] + ": no pipe: " + std::strerror(errno);
        child.closeAll();
        return false;
    }
    const int outFile = child.outFile =
        open(io.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    const int errFile = child.errFile =
        open(io.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    // Everything the child needs, made before fork: after it, no allocation.
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> env;
    if (environment) {
        for (const std::string& v : *environment) env.push_back(const_cast<char*>(v.c_str()));
        env.push_back(nullptr);
    }
    char* const* envp = environment ? env.data() : environ;
    child.running.restart();
    const pid_t pid = child.pid = fork();
    if (pid == 0) {
        // Its own process group, so that an ending takes the compiler's children too.
        setpgid(0, 0);
        const int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(outPipe[1], 1);
        dup2(errPipe[1], 2);
        if (stopPipe[0] >= 0)
            dup2(stopPipe[0], 3);
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        // Without its walls (a user id, Landlock) it does not run at all.
        int error = applyChildLimits(limits);
        if (error == 0) {
            execve(args[0], args.data(), envp);
            error = errno;
        }
        (void)!write(execPipe[1], &error, sizeof error);
        _exit(127);
    }
    if (pid < 0) {
        e.startError = argv[0] + ": " + std::strerror(errno);
        child.closeAll();
        if (outFile >= 0)
            close(outFile);
        if (errFile >= 0)
            close(errFile);
        return false;
    }
    setpgid(pid, pid);
    for (int* p : {outPipe, errPipe, execPipe})
        close(p[1]), p[1] = -1;
    if (stopPipe[0] >= 0)
        close(stopPipe[0]), stopPipe[0] = -1;
    if (stopPipe[1] >= 0)
        fcntl(stopPipe[1], F_SETFL, O_NONBLOCK);
    int execError = 0;
    if (read(execPipe[0], &execError, sizeof execError) == static_cast<ssize_t>(sizeof execError)) {
        waitpid(pid, &e.status, 0);
        e.startError = argv[0] + ": " + std::strerror(execError);
        child.closeAll();
        if (outFile >= 0)
            close(outFile);
        if (errFile >= 0)
            close(errFile);
        return false;
    }
    e.started = true;
    return true;
}

// Its second step: waits for the child, keeping what it writes, and ends it
// at the time limit or on cancel.
void superviseChild(ChildProcess& child, const ChildIo& io, double timeLimit, const std::atomic<bool>* cancel,
                    Ended& e) {
    const pid_t pid = child.pid;
    int (&outPipe)[2] = child.outPipe;
    int (&errPipe)[2] = child.errPipe;
    const int (&stopPipe)[2] = child.stopPipe;
    const int outFile = child.outFile, errFile = child.errFile;
    const base::Stopwatch& running = child.running;
    for (int fd : {outPipe[0], errPipe[0]})
        fcntl(fd, F_SETFL, O_NONBLOCK);
    std::vector<char> buffer(64 * 1024);
    // Reads what is there; false at the end of the stream.
    auto drain = [&](int& fd, int file, std::uint64_t& count) {
        for (;;) {
            const ssize_t n = read(fd, buffer.data(), buffer.size());
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                close(fd);
                fd = -1;
                return;
            }
            if (n < 0)
                return;
            const std::uint64_t kept = count < io.keepBytes ? std::min<std::uint64_t>(n, io.keepBytes - count) : 0;
            if (kept > 0 && file >= 0)
                (void)!write(file, buffer.data(), kept);
            count += static_cast<std::uint64_t>(n);
        }
    };
    bool signalled = false, exited = false;
    int asked = 0;
    // Ends it. A sandbox ends with the PID namespace's first process (bwrap's
    // child, its init): the kernel takes every process of the namespace with
    // it, and bwrap, which waits for it, exits after; so once waitpid says
    // bwrap is gone, nothing of the sandbox is left. Killing bwrap itself
    // would leave the namespace to die a moment after the caller returned.
    const base::Stopwatch* endedAt = nullptr;
    base::Stopwatch endClock;
    auto end = [&] {
        if (io.sandboxed) {
            std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
            bool any = false;
            for (pid_t child; children >> child;)
                kill(child, SIGKILL), any = true;
            if (!endedAt)
                endClock.restart(), endedAt = &endClock;
            if (any && endClock.milliseconds() < 1000.0)
                return;
        }
        kill(-pid, SIGKILL), kill(pid, SIGKILL);
    };
    // A stop: the worker's pipe; a sandboxed compiler or translator is
    // ended (a signal would reach bwrap, which would die before its
    // namespace); else SIGUSR1.
    auto ask = [&] {
        if (stopPipe[1] >= 0) writeWithoutSigpipe(stopPipe[1], "s", 1);
        else if (io.sandboxed) end();
        else kill(pid, SIGUSR1);
    };
    base::Stopwatch sinceSignal;
    for (;;) {
        if (!exited && waitpid(pid, &e.status, WNOHANG) == pid)
            exited = true;
        if (exited) {
            // What is left in the pipes; a grandchild still holding them is not waited for.
            if (outPipe[0] >= 0)
                drain(outPipe[0], outFile, e.outBytes);
            if (errPipe[0] >= 0)
                drain(errPipe[0], errFile, e.errBytes);
            break;
        }
        const bool late = running.milliseconds() > timeLimit * 1000.0;
        const bool stop = cancel && cancel->load();
        if ((late || stop) && !signalled) {
            e.timedOut = late && !stop;
            e.cancelled = stop;
            ask();
            signalled = true;
            sinceSignal.restart();
        }
        // The worker answers a stop where its kernel's own code runs: ask a few times.
        const double sinceSignalMs = sinceSignal.milliseconds();
        if (signalled && sinceSignalMs < 1000.0 && static_cast<int>(sinceSignalMs) / 25 > asked) {
            ++asked;
            ask();
        }
        if (signalled && sinceSignalMs > 1000.0)
            end();
        if (e.outBytes + e.errBytes > io.endBytes) {
            e.outputEnded = true;
            end();
        }
        pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
        poll(fds, 2, running.milliseconds() < 200 ? 1 : 5);
        if (outPipe[0] >= 0 && (fds[0].revents & (POLLIN | POLLHUP)))
            drain(outPipe[0], outFile, e.outBytes);
        if (errPipe[0] >= 0 && (fds[1].revents & (POLLIN | POLLHUP)))
            drain(errPipe[0], errFile, e.errBytes);
    }
}

// Runs `argv` (and `environment`, when given, instead of this process's,
// and `limits` between fork and exec); waits, ending it at the time limit or
// on cancel (first a stop, which the worker answers by writing where it
// was, then SIGKILL to its process group).
Ended runChild(const std::vector<std::string>& argv, const ChildIo& io, double timeLimit,
               const std::atomic<bool>* cancel, const std::vector<std::string>* environment = nullptr,
               const ChildLimits& limits = {}) {
    Ended e;
    ChildProcess child;
    if (!startChild(argv, io, environment, limits, child, e))
        return e;
    superviseChild(child, io, timeLimit, cancel, e);
    child.closeAll();
    const int outFile = child.outFile, errFile = child.errFile;
    if (outFile >= 0)
        close(outFile);
    if (errFile >= 0)
        close(errFile);
    e.millis = child.running.milliseconds();
    return e;
}

// The simple case: stdout and stderr into files, no limits.
Ended runChild(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err, double timeLimit,
               const std::atomic<bool>* cancel, const std::vector<std::string>* environment = nullptr) {
    ChildIo io;
    io.out = out;
    io.err = err;
    return runChild(argv, io, timeLimit, cancel, environment);
}

// How a sandboxed command ended, as if it had run outside: bwrap exits with
// 128 + the signal that ended the command.
int unwrapStatus(int status, bool sandboxed) {
    if (sandboxed && WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 65)
        return WEXITSTATUS(status) - 128;  // the signal
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

// The compiler's first error, as one line naming the student's file, in the
// student's words (no name of the kernel language).
std::string firstCompilerErrorLine(const std::string& output, const std::string& path);
std::string firstCompilerError(const std::string& output, const std::string& path) {
    return inStudentsWords(firstCompilerErrorLine(output, path));
}
std::string firstCompilerErrorLine(const std::string& output, const std::string& path) {
    std::stringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t at = line.find(": error: ");
        const std::size_t fatal = line.find(": fatal error: ");
        if (at == std::string::npos && fatal == std::string::npos) continue;
        if (line.rfind(path + ":", 0) == 0) return line;
        if (line.find("tilescope-entry") != std::string::npos)
            return path + ": error: launch() cannot be called as void launch(const float* N, const float* M, "
                          "float* P, int r, int width[, int height])";
        // In TileScope's own headers: the student's line is further down, as "required from here".
        std::string context;
        std::stringstream rest(output);
        std::string l;
        while (std::getline(rest, l))
            if (l.rfind(path + ":", 0) == 0) {
                context = l.substr(0, l.find(": ", path.size() + 1));
                break;
            }
        const std::string what = line.substr((at != std::string::npos ? at : fatal) + 2);
        return (context.empty() ? path : context) + ": " + what;
    }
    const std::size_t end = output.find('\n');
    return path + ": error: the C++ compiler failed: " + output.substr(0, end);
}

// The prelude every kernel file starts with, precompiled once per compiler,
// flags and headers into the user's cache: a kernel then compiles in about
// a third of the time. Returns the folder to put first on the include path,
// or "" while there is none yet; then it starts building one in the
// background, for the next compile. (A precompiled header the compiler
// cannot use is ignored, so a stale one costs nothing but time.)
std::string precompiledPrelude(const std::string& compiler, const std::vector<std::string>& flags) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if ((!xdg || !*xdg) && (!home || !*home)) return {};
    std::size_t hash = std::hash<std::string>{}(compiler);
    for (const std::string& f : flags) hash = hash * 31 + std::hash<std::string>{}(f);
    for (const EmbeddedSource& h : ownHeaderTable())
        hash = hash * 31 + std::hash<std::string_view>{}(h.path) * 7 + std::hash<std::string_view>{}(h.text);
    char name[32];
    std::snprintf(name, sizeof name, "%016zx", hash);
    const fs::path cache = (xdg && *xdg ? fs::path(xdg) : fs::path(home) / ".cache") / "tilescope" / "pch" / name;
    const fs::path gch = cache / "own" / "own_cpu_prelude.hpp.gch";
    std::error_code ec;
    if (fs::exists(gch, ec)) return cache.string();
    static std::atomic<bool> building{false};
    if (building.exchange(true)) return {};
    fs::create_directories(cache / "own", ec);
    fs::create_directories(cache / "include", ec);
    if (ec) return {};
    for (const EmbeddedSource& h : ownHeaderTable()) {
        const fs::path target = cache / "include" / std::string(h.path);
        fs::create_directories(target.parent_path(), ec);
        // Renamed into place whole: another program's compile may be reading it.
        if (const auto failure = base::writeFileAtomic(target, h.text, kScratchWrite)) {
            building = false;
            return {};
        }
    }
    std::string line = "'" + compiler + "'";
    for (const std::string& f : flags) line += " " + f;
    line += " -I'" + (cache / "include").string() + "' -x c++-header '" +
            (cache / "include" / "own" / "own_cpu_prelude.hpp").string() + "' -o ";
    std::thread([line, cache, gch] {
        // The compiler writes a temporary, renamed into place when it
        // succeeds: a compile never sees half of the header.
        base::AtomicFile part(gch, kScratchWrite);
        if (!part.open()) {
            const Ended ended = runChild({"/bin/sh", "-c", line + "'" + part.temporaryPath().string() + "'"},
                                         cache / "build.out", cache / "build.err", 120.0, nullptr);
            if (ended.started && WIFEXITED(ended.status) && WEXITSTATUS(ended.status) == 0) part.commit();
        }
        building = false;
    }).detach();
    return {};
}

}  // namespace

std::string workerPath() {
    if (const char* env = std::getenv("TILESCOPE_WORKER"); env && *env) return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const fs::path& folder : {self.parent_path(), self.parent_path().parent_path()})
            if (fs::exists(folder / "tilescope-worker", ec)) return (folder / "tilescope-worker").string();
    return "tilescope-worker";
}

namespace {

// The worker program by its real path, and that path made visible in the sandbox.
std::string sandboxedWorker(SandboxView& view) {
    const std::string worker = workerPath();
    std::error_code ec;
    std::string program = worker.find('/') == std::string::npos ? onPath({worker.c_str()}) : worker;
    const fs::path real = fs::canonical(program.empty() ? worker : program, ec);
    if (ec)
        return worker;
    std::string runs = real.string();
    // A user id of the sandbox's own cannot run a worker in a folder closed
    // to others (a build under /root): it runs a copy, made once for this
    // process in a folder it can reach, which the next program removes once
    // this one is gone (removeAbandonedScratch), so the process limit holds.
    if (sandboxStatus().ownUser && !reachableByOthers(runs)) {
        static std::mutex copying;
        static std::string copied;
        const std::lock_guard<std::mutex> lock(copying);
        if (copied.empty()) {
            const fs::path folder =
                fs::temp_directory_path() / ("tilescope-kernel-" + std::to_string(getpid()) + "-worker");
            const fs::path copy = folder / "tilescope-worker";
            fs::create_directories(folder, ec);
            if (!ec) fs::copy_file(real, copy, fs::copy_options::overwrite_existing, ec);
            if (!ec && chmod(folder.c_str(), 0711) == 0 && chmod(copy.c_str(), 0755) == 0) copied = copy.string();
        }
        if (!copied.empty()) runs = copied;
    }
    if (runs.rfind("/usr/", 0) != 0)
        view.readOnly.push_back(runs);
    return runs;
}

}  // namespace

namespace {

// The caller's files beside a child's folder, not in it (the child could put
// a link in their place), removed with this.
struct RemoveOutput {
    fs::path out, err;
    ~RemoveOutput() {
        std::error_code ignored;
        fs::remove(out, ignored);
        fs::remove(err, ignored);
    }
};

// The libclang translation in a child process behind `wall`
// (tilescope-worker --translate FOLDER), with the time, CPU and memory
// limits: a file that makes the parser take all the memory or the stack, or
// loop, ends the child, not this process.
Result<Translation> translateInChild(SandboxWall wall, const std::string& path, const std::string& text,
                                     const std::string& folder, const CompileOptions& options, Diagnostic* diagnostic,
                                     const std::string& probe, TranslatorView* seen) {
    const fs::path dir = folder;
    if (Status s = writeTranslateRequest(dir, TranslateRequest{path, text, probe}); !s)
        return s.error();
    SandboxView view;
    view.writable = dir.string();
    view.tmpBytes = options.limits.tmpBytes;
    std::vector<std::string> argv = {sandboxedWorker(view), "--translate", dir.string()};
    if (wall != SandboxWall::Rlimits)
        argv.push_back("--filter");
    auto command = confineCommand(wall, argv, view, options.limits, true, true);
    if (!command)
        return command.error();
    ChildIo io;
    io.out = dir.string() + ".out";
    io.err = dir.string() + ".err";
    const RemoveOutput removeOutput{io.out, io.err};
    io.keepBytes = 64 * 1024;
    io.sandboxed = command->bubblewrap;
    const Ended ended = runChild(command->argv, io, options.timeLimitSeconds, options.cancel, &command->environment,
                                 command->limits);
    if (!ended.started)
        return Error{ExitCode::Internal, "cannot start the translator: " + ended.startError};
    if (ended.cancelled)
        return badInput("cancelled");
    if (ended.timedOut)
        return badInput(path + ": reading the file took over " +
                        std::to_string(static_cast<int>(options.timeLimitSeconds)) + " s");
    if (const int sig = unwrapStatus(ended.status, command->bubblewrap); sig != 0) {
        Diagnostic d{path, 0, 0,
                     sig == SIGXCPU ? "reading the file used up its " +
                                          std::to_string(static_cast<int>(options.limits.cpuSeconds)) +
                                          " s of CPU time (the sandbox's limit)"
                                    : "the C++ parser crashed reading the file (signal " + std::to_string(sig) + ")"};
        if (diagnostic)
            *diagnostic = d;
        return badInput(d.text());
    }
    auto reply = readTranslateReply(dir);
    if (!reply) {
        // Its own messages, not the student's: the first line of the translator's stderr, if it said anything.
        const std::string err = plainFile(io.err) ? base::readFileText(io.err, 4096).valueOr("") : "";
        return Error{ExitCode::Internal, "the translator ended without a translation (exit status " +
                                             std::to_string(WIFEXITED(ended.status) ? WEXITSTATUS(ended.status) : -1) +
                                             ")" + (err.empty() ? "" : ": " + err.substr(0, err.find('\n')))};
    }
    if (seen)
        *seen = TranslatorView{reply->pid, reply->probeVisible};
    if (!reply->ok) {
        if (diagnostic)
            *diagnostic = reply->diagnostic;
        return Error{static_cast<ExitCode>(reply->code), reply->message};
    }
    return std::move(reply->translation);
}

}  // namespace

Result<Translation> translateInSandbox(const std::string& path, const std::string& text, const std::string& scratch,
                                       const CompileOptions& options, Diagnostic* diagnostic, const std::string& probe,
                                       TranslatorView* seen) {
    auto wall = sandboxWall(SandboxMode::Required);
    if (!wall)
        return wall.error();
    return translateInChild(*wall, path, text, scratch, options, diagnostic, probe, seen);
}

Result<std::shared_ptr<const OwnKernel>> compileKernelFile(const std::string& path, const CompileOptions& options,
                                                           Diagnostic* diagnostic) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return badInput(path + ": no such file");
    if (fs::is_directory(path, ec)) return badInput(path + ": is a folder, not a kernel file");
    auto text = base::readFileText(path, 1'000'000);
    if (!text && text.error().kind == base::FileError::Kind::TooLarge)
        return badInput(path + ": is over 1 MB; a kernel file is a page or two");
    if (!text) return badInput(path + ": cannot be read");
    return compileKernelText(path, *text, options, diagnostic);
}

Result<std::shared_ptr<const OwnKernel>> compileKernelText(const std::string& path, const std::string& text,
                                                           const CompileOptions& options, Diagnostic* diagnostic) {
    auto scratch = makeScratch();
    if (!scratch) return scratch.error();
    auto kernel = std::make_shared<OwnKernel>();
    kernel->directory = *scratch;  // removed with the kernel, on every path out of here
    const fs::path dir = kernel->directory;

    // Auto defers to $TILESCOPE_SANDBOX, the switch for a whole session.
    const SandboxMode mode = options.sandbox == SandboxMode::Auto ? sandboxModeFromEnvironment() : options.sandbox;
    auto wall = sandboxWall(mode);
    if (!wall) return wall.error();
    kernel->sandbox = mode;
    kernel->limits = options.limits;
    kernel->sandboxed = *wall != SandboxWall::Rlimits;
    // Where the caller is root, the translator and the worker run as user
    // ids of their own: they may pass through the scratch folder (to their
    // own folders in it, and the compiled kernel) but not list it.
    if (sandboxStatus().ownUser && kernel->sandboxed) chmod(dir.c_str(), 0711);

    // Always in a child process, with the limits: the parser is the first
    // thing that reads the student's bytes.
    base::Stopwatch stopwatch;
    const fs::path translateDir = dir / "translate";
    fs::create_directories(translateDir);
    auto translation = translateInChild(*wall, path, text, translateDir.string(), options, diagnostic, {}, nullptr);
    if (!translation)
        return translation.error();
    kernel->translation = std::move(*translation);
    kernel->translateMs = stopwatch.milliseconds();

    // The kernel language's headers, as this program was built with them,
    // and the translation: for the compiler here, and for NVRTC in the
    // worker on a GPU (device.cu, traced.cu: own_gpu.cpp).
    std::vector<std::pair<fs::path, std::string_view>> files;
    for (const EmbeddedSource& h : ownHeaderTable()) files.emplace_back(dir / "include" / std::string(h.path), h.text);
    const fs::path source = dir / "kernel.cpp";
    files.emplace_back(source, kernel->translation.cpuSource);
    files.emplace_back(dir / "device.cu", kernel->translation.deviceSource);
    files.emplace_back(dir / "traced.cu", kernel->translation.tracedDeviceSource);
    for (const auto& [target, contents] : files) {
        fs::create_directories(target.parent_path());
        if (const auto failure = base::writeFileAtomic(target, contents, kScratchWrite))
            return Error{ExitCode::Internal, failure->message()};
    }
    kernel->library = (dir / "kernel.so").string();

    std::string compiler = findCompiler(options);
    if (compiler.empty())
        return badInput("no C++ compiler found to compile " + path +
                        " (install g++, or name one in $TILESCOPE_CXX)");
    stopwatch.restart();
    // -g1: line tables, so that a crash or a stop names the student's line.
    const std::vector<std::string> flags = {"-std=c++20", "-O1", "-g1", "-fPIC", "-ffp-contract=off", "-w"};
    // What the app and the trace call this kernel and its arrays.
    auto compiled = [&]() -> Result<std::shared_ptr<const OwnKernel>> {
        kernel->entry.emplace(describeKernel(kernel->translation, path, text));
        kernel->info = &kernel->entry->info();
        return std::shared_ptr<const OwnKernel>(std::move(kernel));
    };
    // The same translation compiled before by the same compiler: its library.
    std::string cacheKey;
    if (options.cache && options.cache->usable()) {
        std::vector<std::pair<std::string_view, std::string_view>> headers;
        for (const EmbeddedSource& h : ownHeaderTable()) headers.emplace_back(h.path, h.text);
        cacheKey = CompileCache::key(kernel->translation.cpuSource, compiler, flags, headers);
        if (options.cache->fetch(cacheKey, kernel->library)) {
            kernel->compileMs = stopwatch.milliseconds();
            kernel->compiledFromCache = true;
            return compiled();
        }
    }
    std::vector<std::string> command = {compiler};
    command.insert(command.end(), flags.begin(), flags.end());
    const std::string pch = precompiledPrelude(compiler, flags);
    if (!pch.empty()) command.push_back("-I" + pch);
    for (const char* a : {"-shared", "-fdiagnostics-plain-output", "-fno-gnu-unique"}) command.push_back(a);
    command.insert(command.end(), {"-I" + (dir / "include").string(), source.string(), "-o", kernel->library});
    // The compiler's temporary files (cc*.s, cc*.o) go into the scratch
    // folder too: a compile ended at the time limit or by a cancel leaves
    // them there, removed with the kernel, not in $TMPDIR.
    std::vector<std::string> environment = environmentWith("TMPDIR", dir.string());
    ChildIo io;
    io.out = dir / "compile.out";
    io.err = dir / "compile.err";
    io.keepBytes = 1 << 20;
    // The compiler by its own path (bwrap runs no PATH search), seeing
    // /usr, the scratch folder and the precompiled prelude. It stays the
    // caller's user: the precompiled prelude is in the caller's cache, and
    // the compiler runs no code of the student's.
    SandboxView view;
    view.writable = dir.string();
    view.tmpBytes = options.limits.tmpBytes;
    if (!pch.empty())
        view.readOnly.push_back(pch);
    if (*wall != SandboxWall::Rlimits) {
        std::string program = compiler.find('/') == std::string::npos ? onPath({compiler.c_str()}) : compiler;
        std::error_code ec;
        const fs::path real = fs::canonical(program.empty() ? compiler : program, ec);
        if (!ec) {
            command.front() = real.string();
            if (real.string().rfind("/usr/", 0) != 0)
                view.readOnly.push_back(real.parent_path().parent_path().string());
        }
    }
    auto confined = confineCommand(*wall, command, view, options.limits, true, false);
    if (!confined) return confined.error();
    if (*wall == SandboxWall::Rlimits) confined->environment = environment;
    io.sandboxed = confined->bubblewrap;
    const Ended ended =
        runChild(confined->argv, io, options.timeLimitSeconds, options.cancel, &confined->environment, confined->limits);
    kernel->compileMs = stopwatch.milliseconds();
    if (!ended.started)
        return badInput("cannot run the C++ compiler " + ended.startError);
    if (ended.cancelled)
        return badInput("cancelled");
    if (unwrapStatus(ended.status, confined->bubblewrap) == SIGXCPU)
        return badInput(path + ": the C++ compiler used up its " +
                        std::to_string(static_cast<int>(options.limits.cpuSeconds)) +
                        " s of CPU time (the sandbox's limit)");
    if (ended.timedOut)
        return badInput(path + ": the C++ compiler took over " +
                        std::to_string(static_cast<int>(options.timeLimitSeconds)) + " s");
    if (!WIFEXITED(ended.status) || WEXITSTATUS(ended.status) != 0) {
        const std::string message = firstCompilerError(base::readFileText(dir / "compile.err").valueOr(""), path);
        if (diagnostic) {
            diagnostic->path = path;
            diagnostic->line = diagnosticLine(message, path);
            diagnostic->column = 0;
            diagnostic->message = message.substr(std::min(message.size(), message.find(": ", path.size()) + 2));
        }
        return badInput(message);
    }
    if (!cacheKey.empty()) options.cache->store(cacheKey, kernel->library);
    return compiled();
}

OwnEntryDescription describeKernel(const Translation& t, const std::string& path, const std::string& text) {
    // The kernel launch() launches, wherever it is declared among the file's kernels.
    const KernelDeclaration* launched = t.kernel(t.launched);
    const KernelDeclaration& k = launched ? *launched : t.kernels.front();
    OwnEntryDescription d;
    d.name = k.name;
    d.path = path;
    d.text = text;
    d.dims = t.dims;
    d.arrayNames = {"N", "M", "P", ""};
    bool maskByPointer = false;
    for (std::size_t i = 0; i < k.parameters.size() && i < k.arrayOf.size(); ++i)
        if (k.arrayOf[i] < kArrayCount) {
            d.arrayNames[k.arrayOf[i]] = k.parameters[i].name;
            maskByPointer = maskByPointer || k.arrayOf[i] == kArrayMask;
        }
    if (!maskByPointer && !t.constants.empty()) {
        d.arrayNames[kArrayMask] = t.constants.front().name;
        d.maskSpace = Space::Constant;
    }
    for (const SharedDeclaration& s : k.shared)
        d.arrayNames[kArrayShared] += (d.arrayNames[kArrayShared].empty() ? "" : ", ") + s.name;
    if (k.shared.size() > 1)
        for (std::size_t i : k.sharedInMemoryOrder()) d.sharedParts.push_back(k.shared[i].name);
    d.usesShared = !k.shared.empty();
    return d;
}

// [SECTION] Running in the worker.

namespace {

std::string signalName(int sig) {
    switch (sig) {
    case SIGSEGV: return "a segmentation fault (SIGSEGV)";
    case SIGBUS: return "a bus error (SIGBUS)";
    case SIGFPE: return "an arithmetic error, such as an integer division by zero (SIGFPE)";
    case SIGILL: return "an illegal instruction (SIGILL)";
    case SIGABRT: return "an abort (SIGABRT)";
    case SIGKILL: return "SIGKILL (out of memory?)";
    default: return "signal " + std::to_string(sig);
    }
}

// What the kernel printed: the worker's stdout, read with limits
// (printout.hpp). Control characters other than tabs show as '?', so that
// a kernel cannot drive the terminal or the app's text.
KernelPrintout readPrintout(const fs::path& file) {
    KernelPrintout p;
    std::ifstream in(file, std::ios::binary);
    if (!in) return p;
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    p.bytes = ec ? 0 : size;
    std::string line;
    bool open = false;  // a line begun and not yet ended
    std::uint64_t scanned = 0;
    std::vector<char> buffer(64 * 1024);
    auto end = [&] {
        if (p.lines.size() < KernelPrintout::kMaxLines) {
            p.lines.push_back(std::move(line));
        } else {
            ++p.moreLines;
        }
        line.clear();
        open = false;
    };
    while (scanned < KernelPrintout::kMaxCountBytes && in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const std::size_t got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        for (std::size_t i = 0; i < got; ++i) {
            const char c = buffer[i];
            if (c == '\n') {
                end();
                continue;
            }
            if (c == '\r') continue;  // of a "\r\n", or a return to the line's start: left out
            open = true;
            // Past the lines kept, or past what may be read into memory: only counted.
            if (p.lines.size() >= KernelPrintout::kMaxLines || scanned + i >= KernelPrintout::kMaxReadBytes) continue;
            if (line.size() < KernelPrintout::kMaxLineBytes)
                line += (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f ? '?' : c;
            else if (line.size() == KernelPrintout::kMaxLineBytes)
                line += " [...]";
        }
        scanned += got;
    }
    if (open) end();
    // Past the ASCII controls: the C1 range, invalid UTF-8 and reordering marks.
    for (std::string& kept : p.lines) kept = printableText(kept, KernelPrintout::kMaxLineBytes + 8);
    p.uncounted = scanned < p.bytes;
    return p;
}

// What the worker wrote when it was stopped or crashed (worker_main.cpp).
struct Where {
    int signal = 0;
    int syscall = -1;      // the system call the sandbox's filter stopped (SIGSYS)
    std::string lineText;  // ":LINE" of the student's file, when known
    std::string text;      // "in block (0,0), thread (3,1), after line 27", with the line where known
};

Where readWhere(const fs::path& file, const std::string& library, const std::string& path) {
    Where w;
    std::stringstream in(base::readFileText(file).valueOr(""));
    std::string line;
    unsigned long pc = 0;
    while (std::getline(in, line)) {
        if (line.rfind("signal ", 0) == 0)
            w.signal = std::atoi(line.c_str() + 7);
        else if (line.rfind("pc ", 0) == 0)
            pc = std::strtoul(line.c_str() + 3, nullptr, 10);
        else if (line.rfind("syscall ", 0) == 0)
            w.syscall = std::atoi(line.c_str() + 8);
        else
            w.text += line;
    }
    // The kernel's process may have written any bytes there.
    w.text = printableText(w.text, 512);
    if (pc == 0) return w;
    // The instruction's line, from the shared object's line tables. The
    // translation's #line directives make them name the student's file.
    const fs::path out = fs::path(library).parent_path() / "addr2line.out";
    char address[32];
    std::snprintf(address, sizeof address, "0x%lx", pc);
    // -i: the instruction may be in code inlined from the kernel language's
    // headers; the chain of callers leads to the student's line.
    const Ended e = runChild({"/usr/bin/env", "addr2line", "-i", "-e", library, address}, out,
                             out.string() + ".err", 5.0, nullptr);
    if (!e.started || !WIFEXITED(e.status) || WEXITSTATUS(e.status) != 0) return w;
    std::stringstream chain(base::readFileText(out).valueOr(""));
    std::string found;
    unsigned n = 0;
    while (n == 0 && std::getline(chain, found)) {
        found = found.substr(0, found.find(" ("));  // "file:line (discriminator 2)"
        const std::size_t colon = found.rfind(':');
        if (colon == std::string::npos) continue;
        if (fs::path(found.substr(0, colon)).filename() != fs::path(path).filename()) continue;
        n = static_cast<unsigned>(std::atoi(found.c_str() + colon + 1));
    }
    if (n == 0) return w;
    w.lineText = ":" + std::to_string(n);
    // The line the instruction is on replaces the last recorded one.
    const std::size_t after = w.text.find(", after line ");
    const std::size_t last = w.text.find(", last at line ");
    if (after != std::string::npos) w.text = w.text.substr(0, after);
    if (last != std::string::npos) w.text = w.text.substr(0, last);
    w.text += ", at line " + std::to_string(n);
    return w;
}

// What ended the kernel, in words, for a signal: a crash, or one of the sandbox's limits.
std::string endedBy(int sig, const Where& where, const SandboxLimits& limits) {
    switch (sig) {
        case SIGSYS:
            // With every signal blocked (as system(), popen() and
            // posix_spawn block them around the clone that starts the
            // program) the kernel ends the worker before it can say which call.
            if (where.syscall < 0)
                return "the sandbox stopped the kernel: it tried to start a program or process (system(), popen() "
                       "or posix_spawn()), which a kernel file may not";
            if (startsAProcess(where.syscall))
                return "the sandbox stopped the kernel: it tried to start a program or process (it called " +
                       systemCallName(where.syscall) + "()), which a kernel file may not";
            return "the sandbox stopped the kernel: it called " + systemCallName(where.syscall) +
                   "(), which a kernel file may not (no network, no other process or program, no signal to another "
                   "process)";
        case SIGXCPU:
            return "the kernel used up its " + std::to_string(static_cast<long long>(limits.cpuSeconds)) +
                   " s of CPU time (the sandbox's limit)";
        case SIGXFSZ:
            return "the kernel wrote a file larger than " + std::to_string(limits.fileSizeBytes >> 20) +
                   " MB (the sandbox's limit)";
        case 0:
            return "the kernel crashed, and its report of where is missing or was tampered with";
        default:
            return "the kernel crashed with " + signalName(sig);
    }
}

// A student's tiles, from what the first block did: the output tile is what
// it stored (a square at the grid's origin, when its edge is not the
// block's), the input tile the shared array's edge (a square, or a row in
// 1D). The views draw them as they draw the book kernels' tiles. A kernel
// whose tiles are not of that shape is drawn as one output per thread.
void inferTiles(const OwnKernel& kernel, const WorkerResult& r, LaunchPlan& plan) {
    const Translation& t = kernel.translation;
    const BlockEvents* first = nullptr;
    for (const BlockEvents& b : r.blocks)
        if (b.block.x == 0 && b.block.y == 0) first = &b;
    if (!first || plan.width <= 0) return;
    int maxX = -1, maxY = -1, minX = plan.width, minY = plan.height;
    for (const Event& e : first->events)
        if (e.op == Op::Store && e.array == kArrayOutput) {
            const int x = e.index % plan.width, y = e.index / plan.width;
            maxX = std::max(maxX, x), maxY = std::max(maxY, y), minX = std::min(minX, x), minY = std::min(minY, y);
        }
    if (maxX < 0 || minX != 0 || minY != 0) return;
    const int edge = maxX + 1;
    // A tile past what a replay can draw (as many cells as a block may
    // have threads in all) is drawn as one output per thread.
    if (static_cast<long long>(edge) * (t.dims == 2 ? edge : 1) > 65536) return;
    // With one block across, the tile may be cut by the array's edge: its size is unknown.
    if (plan.grid.x < 2 || (t.dims == 2 && plan.grid.y < 2)) return;
    const bool blockIsTile =
        edge == static_cast<int>(plan.block.x) && (t.dims == 1 || maxY + 1 == static_cast<int>(plan.block.y));
    if (t.dims == 2 && maxY + 1 != edge) return;  // not square: drawn as one output per thread
    // The input tile: the part of the (first) shared array a tile of `edge`
    // with its halo uses. In 2D the array's row must be that wide, so that a
    // shared index maps to its cell.
    int in = 0;
    const KernelDeclaration* k = t.kernel(r.kernel);
    if (k && !k->shared.empty() && !k->shared.front().dynamic) {
        const SharedDeclaration& s = k->shared.front();
        const int halo = edge + 2 * plan.radius;
        if (t.dims == 1 && s.rows == 1 && s.cols >= halo) in = halo;
        else if (t.dims == 1 && s.rows == 1 && s.cols == edge) in = edge;
        else if (t.dims == 2 && s.rows == s.cols && (s.cols == halo || s.cols == edge)) in = s.cols;
    }
    if (blockIsTile && in == 0) return;  // one output per thread, as the geometry draws by default
    plan.outTile = edge;
    plan.inTile = in;
}

// What readResult checks the worker's answer against, beyond the job: the
// file's kernels and lines, and the mask as the kernel reads it (its
// constant array, or M).
ResultBounds resultBounds(const OwnKernel& kernel, const Mask& mask) {
    ResultBounds b;
    const Translation& t = kernel.translation;
    for (const KernelDeclaration& k : t.kernels) b.kernels.push_back(k.name);
    // Lines end in "\n", "\r\n" or a lone "\r", as the parser counts them.
    b.lines = 1;
    for (std::size_t i = 0; i < t.text.size(); ++i)
        if (t.text[i] == '\n' || (t.text[i] == '\r' && (i + 1 == t.text.size() || t.text[i + 1] != '\n')))
            ++b.lines;
    if (kernel.info->maskSpace == Space::Constant && !t.constants.empty())
        b.maskElements = t.constants.front().rows * t.constants.front().cols;
    else
        b.maskElements = static_cast<int>(mask.values.size());
    return b;
}

bool storesOutput(const TracedBlocks& blocks) {
    for (const BlockEvents& b : blocks)
        for (const Event& e : b.events)
            if (e.op == Op::Store && e.array == kArrayOutput) return true;
    return false;
}

Trace describeOwn(const OwnKernel& kernel, const LaunchPlan& plan, const Mask& mask, const WorkerResult& w) {
    const KernelInfo& k = *kernel.info;
    Trace t;
    t.kernel = std::string(k.name);
    t.backend = "cpu";
    t.plan = plan;
    const int size = plan.pitch * plan.height;
    for (int id : {int(kArrayInput), int(kArrayOutput)}) {
        ArrayInfo& a = t.arrays[id];
        a.name = std::string(k.arrayNames[id]);
        a.space = Space::Global;
        a.width = plan.width;
        a.height = plan.height;
        a.channels = 1;
        a.pitch = plan.pitch;
        a.size = size;
    }
    ArrayInfo& m = t.arrays[kArrayMask];
    m.name = std::string(k.arrayNames[kArrayMask]);
    m.space = k.maskSpace;
    m.width = mask.width;
    m.height = mask.height;
    const Translation& tr = kernel.translation;
    if (k.maskSpace == Space::Constant && !tr.constants.empty()) {
        const ConstantDeclaration& c = tr.constants.front();
        m.pitch = c.cols;
        m.size = c.rows * c.cols;
    } else {
        m.pitch = mask.width;
        m.size = mask.width * mask.height;
    }
    if (k.usesShared) {
        const KernelDeclaration* kd = tr.kernel(w.kernel);
        ArrayInfo& s = t.arrays[kArrayShared];
        s.name = std::string(k.arrayNames[kArrayShared]);
        s.space = Space::Shared;
        const int floats = static_cast<int>(plan.sharedBytes / sizeof(float));
        int cols = floats;
        if (kd && !kd->shared.empty() && !kd->shared.front().dynamic) cols = kd->shared.front().cols;
        if (plan.block.y == 1 && k.dims == 1) cols = floats;
        cols = cols > 0 ? cols : 1;
        s.width = cols;
        s.height = (floats + cols - 1) / cols;
        s.pitch = cols;
        s.size = floats;
        // One 3D array: its elements named by plane, row and column.
        if (kd && kd->shared.size() == 1 && kd->shared.front().planes > 1 && cols == kd->shared.front().cols)
            s.planeRows = kd->shared.front().rows;
        // Several arrays (or one 3D array of one plane): each element named
        // by the array it is in, with its own subscripts.
        // In the order of their offsets, which Subscript2D::part counts in;
        // where one does not fit, none (the block's memory by one name).
        if (kd && (kd->shared.size() > 1 || (kd->shared.size() == 1 && kd->shared.front().dims == 3))) {
            for (std::size_t i : kd->sharedInMemoryOrder()) {
                const SharedDeclaration& d = kd->shared[i];
                SharedPart part{d.name, d.offset, d.planes, d.rows, d.cols, d.dims};
                // extern __shared__ float x[]: the rest of the launch's shared memory.
                if (d.dynamic) part = SharedPart{d.name, d.offset, 1, 1, std::max(1, floats - d.offset), 1};
                s.parts.push_back(std::move(part));
            }
            const bool fit = std::all_of(s.parts.begin(), s.parts.end(), [&](const SharedPart& p) {
                return p.offset >= 0 && p.offset + p.size() <= floats;
            });
            if (!fit) s.parts.clear();
        }
    }
    return t;
}

}  // namespace

Result<RunResult> runOwnKernel(const OwnKernel& kernel, const RunRequest& req) {
    if (kernel.remote) return kernel.remote->run(kernel, req);
    if (!req.input || !req.mask) return Error{ExitCode::Internal, "runOwnKernel: no input or mask"};
    const Image& input = *req.input;
    const Mask& mask = *req.mask;
    const Translation& t = kernel.translation;
    const std::string& path = t.path;
    if (t.dims == 1 && input.rank != 1 && input.height > 1)
        return badInput(path + " is a 1D kernel (its launch() takes width only): give it a 1D signal");
    if (t.dims == 2 && input.rank == 1)
        return badInput(path + " is a 2D kernel (its launch() takes width and height): give it an image");
    if (mask.width > 2 * kMaxRadius + 1)
        return badInput("the mask is " + std::to_string(mask.width) + " wide; TileScope's masks are at most " +
                        std::to_string(2 * kMaxRadius + 1));
    if (Status s = checkBarrierDrop(*kernel.info, req.drop); !s)
        return s.error();
    auto wall = sandboxWall(kernel.sandbox);
    if (!wall)
        return wall.error();
    const SandboxLimits& limits = kernel.limits;
    static std::atomic<unsigned> runs{0};

    // Where it runs: as for a built-in kernel, the GPU when there is one
    // (through NVRTC, in the worker), else the CPU executor.
    std::string gpuReason, gpuName;
    const bool gpu = req.backend != Backend::Cpu && gpuAvailable(&gpuReason, &gpuName);
    const bool fallback = req.backend == Backend::Auto || req.fallbackToCpu;
    if (req.backend == Backend::Cuda && !gpu && !fallback)
        return Error{ExitCode::BackendUnavailable, "--backend cuda is not available: " + gpuReason};
    RunResult result;
    result.backend = gpu ? Backend::Cuda : Backend::Cpu;
    result.backendReason = gpu ? gpuName : req.backend == Backend::Cpu ? "requested" : "no GPU: " + gpuReason;
    result.output = input;
    for (int c = 0; c < input.channels; ++c) {
        const Image plane = input.channels == 1 ? input : input.plane(c);
        const bool traced = (req.trace || req.check) && c == 0;
        const fs::path job = fs::path(kernel.directory) / ("run" + std::to_string(runs.fetch_add(1)));
        fs::create_directories(job);
        struct Cleanup {
            fs::path dir;
            ~Cleanup() {
                std::error_code ignored;
                fs::remove_all(dir, ignored);
            }
        } cleanup{job};

        WorkerJob w;
        w.library = kernel.library;
        w.dims = t.dims;
        w.radius = mask.width / 2;
        w.maskWidth = mask.width;
        w.width = plane.width;
        w.height = t.dims == 1 ? 1 : plane.height;
        w.trace = traced;
        if (!req.check && !req.traceBlocks.empty()) {
            // The blocks asked for, and block (0,0), whose stores show the tiles.
            w.traceBlocks = req.traceBlocks;
            w.traceBlocks.push_back(Dim3{0, 0, 0});
        }
        w.eventBudget = req.eventBudget;
        w.dropAll = req.drop.all;
        w.dropLines = req.drop.lines;
        w.schedule = scheduleName(req.schedule);
        w.seed = req.seed;
        w.kernel = std::string(kernel.info->name);
        w.path = path;
        for (int a = 0; a < kArrayCount; ++a) w.arrayNames[a] = std::string(kernel.info->arrayNames[a]);
        for (std::string_view part : kernel.info->sharedParts) w.sharedParts.emplace_back(part);
        w.constantMask = kernel.info->maskSpace == Space::Constant;
        w.backend = result.backend == Backend::Cuda ? "cuda" : "cpu";
        w.benchRepeats = req.benchRepeats;
        w.filter = *wall != SandboxWall::Rlimits;
        w.addressSpaceBytes = limits.addressSpaceBytes;
        if (Status s = writeJob(job, w, plane.data, mask.values); !s)
            return s.error();

        const double limit = req.timeLimitSeconds > 0 ? req.timeLimitSeconds : 1e9;
        // Its output through pipes, the first outputBytes kept; a kernel that
        // prints without end is ended at 64 times that.
        // Beside the job's folder, not in it: in the sandbox the worker
        // cannot reach them (it could put a link in their place).
        ChildIo io;
        io.out = job.string() + ".stdout.txt";
        io.err = job.string() + ".stderr.txt";
        const RemoveOutput removeOutput{io.out, io.err};
        io.keepBytes = limits.outputBytes;
        io.endBytes = limits.outputBytes * 64;
        io.stopPipe = true;
        // It sees the scratch folder (the shared object, the sources)
        // read-only and writes in its job's folder alone; its address space
        // is its own to limit (not with CUDA).
        if (sandboxStatus().ownUser && *wall != SandboxWall::Rlimits) chmod(kernel.directory.c_str(), 0711);
        SandboxView view;
        view.readOnly.push_back(kernel.directory);
        view.writable = job.string();
        view.gpu = result.backend == Backend::Cuda;
        view.tmpBytes = limits.tmpBytes;
        const std::vector<std::string> command = {sandboxedWorker(view), job.string(), "--stop-fd", "3"};
        auto confined = confineCommand(*wall, command, view, limits, false, true);
        if (!confined)
            return confined.error();
        const bool bubblewrap = confined->bubblewrap;
        io.sandboxed = bubblewrap;
        const Ended ended =
            runChild(confined->argv, io, limit, req.cancel, &confined->environment, confined->limits);
        if (!ended.started)
            return Error{ExitCode::Internal, "cannot start the kernel's worker: " + ended.startError};
        const bool cut = ended.outBytes > limits.outputBytes;
        const std::string cutText = "output cut at " + std::to_string(limits.outputBytes) + " bytes";
        if (req.printout && c == 0) {
            *req.printout = plainFile(io.out) ? readPrintout(io.out) : KernelPrintout{};
            if (input.channels > 1)
                req.printout->note = "its run on channel 0 of " + std::to_string(input.channels);
            if (cut) {
                req.printout->bytes = ended.outBytes;
                req.printout->uncounted = true;
                req.printout->note += (req.printout->note.empty() ? "" : ", ") + cutText;
            }
        }
        // The job's files are the kernel's to tamper with: a link is not followed.
        const Where where =
            plainFile(job / kWhereFile, 64 * 1024) ? readWhere(job / kWhereFile, kernel.library, path) : Where{};
        const std::string at = where.text.empty() ? "" : " (" + where.text + ")";
        if (ended.outputEnded)
            return badInput(path + ": the kernel printed more than " + std::to_string(io.endBytes) +
                            " bytes and was ended (" + cutText + ")" + at);
        if (ended.cancelled)
            return badInput("cancelled" + at);
        if (ended.timedOut) {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%g", limit);
            return badInput(path + where.lineText + ": stopped after " + seconds +
                            " s, the time limit: the kernel did not finish" +
                            at + ". An endless loop? (a loop whose condition never changes, or a thread waiting "
                                 "for something no thread does)");
        }
        if (const int sig = unwrapStatus(ended.status, bubblewrap); sig != 0)
            return badInput(path + ": " + endedBy(sig, where, limits) + at);
        if (WIFEXITED(ended.status) && WEXITSTATUS(ended.status) == kCrashExit)
            return badInput(path + where.lineText + ": " + endedBy(where.signal, where, limits) + at);
        if (bubblewrap && WIFEXITED(ended.status) && WEXITSTATUS(ended.status) == 1) {
            // bwrap's own failure (the worker never exits with 1).
            const std::string err = base::readFileText(io.err, 4096).valueOr("");
            return Error{ExitCode::Internal,
                         "the sandbox could not start the kernel's worker: " + printableText(err.substr(0, err.find('\n')))};
        }
        // Everything the worker wrote is checked against the job asked.
        auto worker = readResult(job, w, resultBounds(kernel, mask));
        if (!worker && worker.error().code == ExitCode::BadInput)
            return worker.error();
        if (!worker) {
            const std::string err = base::readFileText(io.err, 64 * 1024).valueOr("");
            return Error{ExitCode::Internal, "the kernel's worker ended without a result (exit status " +
                                                 std::to_string(WEXITSTATUS(ended.status)) + ")" +
                                                 (err.empty() ? "" : ": " + printableText(err.substr(0, err.find('\n'))))};
        }
        WorkerResult& r = *worker;
        if (r.unavailable && result.backend == Backend::Cuda && fallback) {
            // The GPU failed in the worker: the CPU executor runs it instead.
            result.backend = Backend::Cpu;
            result.gpuFailure = r.message;
            result.backendReason = "the GPU failed (" + r.message + "); the CPU executor ran it instead";
            --c;
            continue;
        }
        if (r.unavailable) return Error{ExitCode::BackendUnavailable, r.message};
        if (r.plainSkipped)
            result.plainSkipped = "the instrumented kernel found accesses outside an array, so the plain kernel "
                                  "did not run (it would have made them)";
        if (!r.ok) {
            const std::string lineText = r.line > 0 ? ":" + std::to_string(r.line) : "";
            return badInput(path + lineText + ": " + r.message);
        }
        // A run that traced every block and holds no store to P wrote no
        // output: whatever P.f32 holds, it is not the kernel's result.
        if (traced && w.traceBlocks.empty() && !storesOutput(r.blocks))
            return badInput(path + ": the kernel stored nothing into " +
                            std::string(kernel.info->arrayNames[kArrayOutput]) +
                            ": no thread of any block wrote an element of it, so its output cannot be right");
        result.millis += r.millis;
        result.faults.merge(r.faults);
        LaunchPlan plan;
        plan.kernel = KernelId::Own;
        plan.entry = kernel.info;
        plan.grid = r.grid;
        plan.block = r.block;
        plan.sharedBytes = r.sharedBytes;
        plan.radius = mask.width / 2;
        plan.maskWidth = mask.width;
        plan.width = plane.width;
        plan.height = t.dims == 1 ? 1 : plane.height;
        plan.channels = 1;
        plan.pitch = plane.width;
        if (traced) inferTiles(kernel, r, plan);
        if (c == 0) result.plan = plan;
        if (traced) {
            result.trace = describeOwn(kernel, plan, mask, r);
            result.trace->backend = r.backend;
            result.trace->blocks = std::move(r.blocks);
            if (!req.check && !req.traceBlocks.empty()) {
                std::vector<BlockEvents> kept;
                for (BlockEvents& b : result.trace->blocks)
                    for (const Dim3& want : req.traceBlocks)
                        if (sameBlock(want, b.block, plan.grid)) {
                            kept.push_back(std::move(b));
                            break;
                        }
                result.trace->blocks = std::move(kept);
            }
        }
        if (input.channels == 1) {
            result.output.data = r.output;
        } else {
            Image out = plane;
            out.data = r.output;
            result.output.setPlane(c, out);
        }
    }
    if (req.check && result.trace) {
        const std::vector<double> want = reference::convolve(input, mask);
        const ResultCheck results{&result.output, want, reference::float32Tolerance(input, mask)};
        result.problems = detectProblems(*result.trace, &results);
    }
    return result;
}

}  // namespace tilescope::own
