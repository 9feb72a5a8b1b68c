#include "own/sandbox.hpp"

#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif

#if defined(TILESCOPE_HAVE_SECCOMP)
#include <seccomp.h>
#endif

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

extern char** environ;

// Landlock's system calls and the rights newer than the system's headers
// (the numbers are the same on every architecture).
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

namespace tilescope::own {

namespace fs = std::filesystem;

namespace {

// A Linux system call by number; the browser's build (Emscripten) has none,
// and there every Landlock call answers "not implemented".
template <class... Args>
long systemCall(long number, Args... args) {
#if defined(__EMSCRIPTEN__)
    (void)number;
    ((void)args, ...);
    errno = ENOSYS;
    return -1;
#else
    return syscall(number, args...);
#endif
}

// No new privileges for this process and its children (Landlock's condition).
int noNewPrivileges() {
#if defined(__EMSCRIPTEN__)
    errno = ENOSYS;
    return -1;
#else
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#endif
}

}  // namespace

const char* sandboxModeName(SandboxMode mode) {
    switch (mode) {
        case SandboxMode::Off:
            return "off";
        case SandboxMode::Auto:
            return "auto";
        case SandboxMode::Required:
            return "required";
    }
    return "auto";
}

std::optional<SandboxMode> parseSandboxMode(std::string_view text) {
    if (text == "off")
        return SandboxMode::Off;
    if (text == "auto")
        return SandboxMode::Auto;
    if (text == "required" || text == "on")
        return SandboxMode::Required;
    return std::nullopt;
}

SandboxMode sandboxModeFromEnvironment() {
    const char* env = std::getenv("TILESCOPE_SANDBOX");
    return env ? parseSandboxMode(env).value_or(SandboxMode::Auto) : SandboxMode::Auto;
}

const char* sandboxWallName(SandboxWall wall) {
    switch (wall) {
        case SandboxWall::Rlimits:
            return "rlimits";
        case SandboxWall::Seccomp:
            return "seccomp";
        case SandboxWall::Landlock:
            return "Landlock";
        case SandboxWall::Bubblewrap:
            return "bubblewrap";
    }
    return "rlimits";
}

std::string SandboxStatus::summary() const {
    const std::string user = ownUser ? ", a user id of its own" : "";
    switch (wall) {
        case SandboxWall::Bubblewrap:
            return "sandbox: " + mechanism + user + " (" + bwrap + ")";
        case SandboxWall::Landlock:
            return "sandbox: " + mechanism + user + "; no bubblewrap (" + reason + ")";
        case SandboxWall::Seccomp:
            return "sandbox: " + mechanism + user + ", no confinement of files (" + reason + "; " + landlockReason +
                   ")";
        case SandboxWall::Rlimits:
            break;
    }
    return "sandbox: not available (" + reason + "; " + landlockReason +
           "); kernel files run behind the translator's checks and rlimits alone";
}

namespace {

std::vector<std::string> wrap(const std::string& bwrap, const std::vector<std::string>& argv, const SandboxView& view);

std::string findBwrap() {
    if (const char* env = std::getenv("TILESCOPE_BWRAP"); env && *env)
        return env;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "bwrap";
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return {};
}

// Runs argv (environment `env`, `limits` between fork and exec), returns its
// exit status and what it wrote on stderr.
int runQuietly(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string& err,
               const ChildLimits& limits = {}) {
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0)
        return -1;
    std::vector<char*> args, envp;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(pipeFds[0]);
        close(pipeFds[1]);
        return -1;
    }
    if (pid == 0) {
        const int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(pipeFds[1], 2);
        if (applyChildLimits(limits) == 0)
            execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    close(pipeFds[1]);
    char buffer[4096];
    ssize_t n;
    while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0 && err.size() < 64 * 1024)
            err.append(buffer, static_cast<std::size_t>(n));
    close(pipeFds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// [SECTION] A user id of its own. Root ignores RLIMIT_NPROC (the kernel skips
// the check for uid 0), so where the caller is root a sandboxed process runs
// as a user id no account has, from a private range, one per child: its
// threads and processes are then bounded, and it can read no file of
// root's that is not readable by everyone.

constexpr unsigned kFirstOwnUser = 1'600'000'000;

unsigned nextOwnUser() {
    static std::atomic<unsigned> next{0};
    return kFirstOwnUser + (static_cast<unsigned>(getpid()) % 4096) * 256 + next.fetch_add(1) % 256;
}


// `folder` and what is in it, given to `user` (links not followed).
bool giveToUser(const std::string& folder, unsigned user) {
    if (lchown(folder.c_str(), user, user) != 0)
        return false;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (lchown(it->path().c_str(), user, user) != 0)
            return false;
    return !ec;
}

// [SECTION] Landlock.

constexpr std::uint64_t kReadFile = 1ull << 2, kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadDir = 1ull << 3,
                        kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeDir = 1ull << 7, kMakeReg = 1ull << 8,
                        kMakeSym = 1ull << 12, kRefer = 1ull << 13, kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
// The rights a rule on a file (not a folder) may hold.
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;
constexpr std::uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ull << 0, kScopeSignal = 1ull << 1;
constexpr int kRulePathBeneath = 1;

// The kernel's structures, spelled here: the system's header may be older
// than the kernel (the size passed tells the kernel which fields there are).
struct RulesetAttributes {
    std::uint64_t handledFs = 0;
    std::uint64_t handledNet = 0;
    std::uint64_t scoped = 0;
};
struct __attribute__((packed)) PathBeneath {
    std::uint64_t allowed = 0;
    std::int32_t parentFd = -1;
};

int landlockAbi() {
    const long abi = systemCall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? static_cast<int>(abi) : 0;
}

std::uint64_t handledFs(int abi) {
    std::uint64_t handled = (1ull << 13) - 1;  // ABI 1
    if (abi >= 2)
        handled |= kRefer;
    if (abi >= 3)
        handled |= kTruncate;
    if (abi >= 5)
        handled |= kIoctlDev;
    return handled;
}

void probeLandlock(SandboxStatus& s) {
    if (const char* env = std::getenv("TILESCOPE_LANDLOCK"); env && std::string_view(env) == "off") {
        s.landlockReason = "Landlock is turned off ($TILESCOPE_LANDLOCK=off)";
        return;
    }
    s.landlockAbi = landlockAbi();
    if (s.landlockAbi == 0)
        s.landlockReason = std::string("Landlock is not available here (it needs Linux 5.13 and the lsm= boot "
                                       "setting): ") +
                           std::strerror(errno);
}

}  // namespace

Ruleset& Ruleset::operator=(Ruleset&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0)
            close(m_fd);
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

Ruleset::~Ruleset() {
    if (m_fd >= 0)
        close(m_fd);
}

Result<Ruleset> landlockRuleset(const SandboxView& view) {
    const int abi = sandboxStatus().landlockAbi;
    if (abi == 0)
        return Error{ExitCode::BackendUnavailable, "Landlock: " + sandboxStatus().landlockReason};
    RulesetAttributes attributes;
    attributes.handledFs = handledFs(abi);
    std::size_t size = sizeof attributes.handledFs;
    if (abi >= 4) {
        // No TCP at all: no rule allows a port.
        attributes.handledNet = kNetBindTcp | kNetConnectTcp;
        size += sizeof attributes.handledNet;
    }
    if (abi >= 6) {
        attributes.scoped = kScopeAbstractUnixSocket | kScopeSignal;
        size += sizeof attributes.scoped;
    }
    const long created = systemCall(SYS_landlock_create_ruleset, &attributes, size, 0u);
    if (created < 0)
        return Error{ExitCode::Internal, std::string("Landlock: cannot create a ruleset: ") + std::strerror(errno)};
    // Above the standard descriptors and the stop pipe (3), which the child
    // is given in place of what it had at those numbers.
    const int fd = fcntl(static_cast<int>(created), F_DUPFD_CLOEXEC, 10);
    close(static_cast<int>(created));
    if (fd < 0)
        return Error{ExitCode::Internal, std::string("Landlock: ") + std::strerror(errno)};
    Ruleset ruleset(fd);
    std::string failure;
    // Allows `rights` beneath `path` (a folder, or a file alone); a path that
    // is not there is left out.
    auto allow = [&](const std::string& path, std::uint64_t rights) {
        const int at = open(path.c_str(), O_PATH | O_CLOEXEC);
        if (at < 0)
            return;
        struct stat st {};
        if (fstat(at, &st) == 0) {
            PathBeneath rule;
            rule.allowed = rights & attributes.handledFs & (S_ISDIR(st.st_mode) ? ~0ull : kFileRights);
            rule.parentFd = at;
            if (systemCall(SYS_landlock_add_rule, ruleset.fd(), kRulePathBeneath, &rule, 0u) != 0 && failure.empty())
                failure = path + ": " + std::strerror(errno);
        }
        close(at);
    };
    const std::uint64_t readOnly = kReadFile | kReadDir | kExecute;
    // /usr and the merged /usr's links (opened through them), the loader's cache.
    for (const char* top : {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"})
        allow(top, readOnly);
    allow("/etc/ld.so.cache", kReadFile);
    for (const char* device : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"})
        allow(device, kReadFile | kWriteFile | kTruncate);
    if (view.gpu) {
        // The driver's devices and what libcuda reads of the machine.
        glob_t g{};
        if (glob("/dev/nvidia*", 0, nullptr, &g) == 0)
            for (std::size_t i = 0; i < g.gl_pathc; ++i)
                allow(g.gl_pathv[i], kReadFile | kWriteFile | kIoctlDev | kReadDir);
        globfree(&g);
        for (const char* top : {"/sys", "/proc", "/etc/nvidia", "/usr/local/cuda", "/opt/nvidia"})
            allow(top, readOnly);
    }
#if defined(__SANITIZE_ADDRESS__)
    allow("/proc", readOnly);  // AddressSanitizer reads /proc/self/maps as it starts
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    allow("/proc", readOnly);
#endif
#endif
    for (const std::string& p : view.readOnly)
        allow(p, readOnly);
    if (!view.writable.empty())
        allow(view.writable, kReadFile | kReadDir | kWriteFile | kRemoveDir | kRemoveFile | kMakeDir | kMakeReg |
                                 kMakeSym | kRefer | kTruncate);
    if (!failure.empty())
        return Error{ExitCode::Internal, "Landlock: cannot allow " + failure};
    return ruleset;
}

namespace {

SandboxStatus probe() {
    SandboxStatus s;
#if defined(TILESCOPE_HAVE_SECCOMP)
    s.seccomp = true;
#endif
    s.ownUser = geteuid() == 0;
    probeLandlock(s);
    const std::string landlock = s.landlockAbi > 0 ? "Landlock (ABI " + std::to_string(s.landlockAbi) + ")" : "";
    // The weaker walls, in case bubblewrap cannot be had.
    auto fallBack = [&] {
        if (s.landlockAbi > 0) {
            s.wall = SandboxWall::Landlock;
            s.available = s.seccomp;
            s.mechanism = landlock + (s.seccomp ? ", seccomp and rlimits" : " and rlimits (no seccomp: built "
                                                                            "without libseccomp)");
        } else if (s.seccomp) {
            s.wall = SandboxWall::Seccomp;
            s.mechanism = "seccomp and rlimits";
        }
        return s;
    };
    s.bwrap = findBwrap();
    if (s.bwrap.empty()) {
        s.reason = "bwrap (bubblewrap) is not installed (Debian: apt-get install bubblewrap)";
        return fallBack();
    }
    if (access(s.bwrap.c_str(), X_OK) != 0) {
        s.reason = s.bwrap + " cannot be run: " + std::strerror(errno);
        return fallBack();
    }
    char pattern[] = "/tmp/tilescope-sandbox-probe-XXXXXX";
    const std::string tmp = std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    std::string folder = tmp + "/tilescope-sandbox-probe-XXXXXX";
    if (!mkdtemp(folder.data()))
        folder = mkdtemp(pattern) ? pattern : "";
    if (folder.empty()) {
        s.reason = "no scratch folder to try bwrap in";
        return fallBack();
    }
    SandboxView view;
    view.writable = folder;
    const std::vector<std::string> argv = wrap(s.bwrap, {"/usr/bin/true"}, view);
    // As the sandbox runs it: under a user id of its own where this is root.
    ChildLimits limits;
    if (s.ownUser && reachableByOthers(folder)) {
        limits.apply = true;
        limits.user = nextOwnUser();
        giveToUser(folder, limits.user);
    }
    std::string err;
    const int status = runQuietly(argv, sandboxEnvironment(), err, limits);
    std::error_code ignored;
    fs::remove(folder, ignored);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        s.available = true;
        s.wall = SandboxWall::Bubblewrap;
#if defined(TILESCOPE_HAVE_SECCOMP)
        s.mechanism = "bubblewrap namespaces, seccomp and rlimits";
#else
        s.mechanism = "bubblewrap namespaces and rlimits (no seccomp: built without libseccomp)";
#endif
        return s;
    }
    std::string first = err.substr(0, err.find('\n'));
    if (first.rfind("bwrap: ", 0) == 0)
        first = first.substr(7);
    if (first.empty())
        first = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status)) : "it was killed";
    std::string what = "its namespaces";
    if (first.find("user namespace") != std::string::npos || first.find("uid map") != std::string::npos ||
        first.find("setting up uid") != std::string::npos)
        what = "a user namespace";
    else if (first.find("loopback") != std::string::npos || first.find("network") != std::string::npos)
        what = "a network namespace";
    else if (first.find("mount") != std::string::npos || first.find("pivot") != std::string::npos)
        what = "its mounts";
    s.reason = "bwrap cannot create " + what + " here: " + first;
    return fallBack();
}

std::mutex g_statusMutex;
std::unique_ptr<SandboxStatus> g_status;

}  // namespace

const SandboxStatus& sandboxStatus() {
    const std::lock_guard<std::mutex> lock(g_statusMutex);
    if (!g_status)
        g_status = std::make_unique<SandboxStatus>(probe());
    return *g_status;
}

void probeSandboxAgain() {
    SandboxStatus fresh = probe();
    const std::lock_guard<std::mutex> lock(g_statusMutex);
    if (g_status)
        *g_status = std::move(fresh);
    else
        g_status = std::make_unique<SandboxStatus>(std::move(fresh));
}

Result<SandboxWall> sandboxWall(SandboxMode mode) {
    if (mode == SandboxMode::Off)
        return SandboxWall::Rlimits;
    const SandboxStatus& s = sandboxStatus();
    if (mode == SandboxMode::Required && !s.available)
        return Error{ExitCode::BackendUnavailable, "the sandbox is required but cannot be had: " + s.reason + "; " +
                                                       (s.landlockAbi > 0 ? "Landlock is here, but this build has "
                                                                            "no seccomp (libseccomp-dev)"
                                                                          : s.landlockReason)};
    return s.wall;
}

Result<bool> sandboxWanted(SandboxMode mode) {
    auto wall = sandboxWall(mode);
    if (!wall)
        return wall.error();
    return *wall != SandboxWall::Rlimits;
}

std::string sandboxNote(SandboxMode mode) {
    const SandboxStatus& s = sandboxStatus();
    if (mode != SandboxMode::Auto || s.wall == SandboxWall::Bubblewrap)
        return {};
    if (s.wall == SandboxWall::Landlock)
        return "note: kernel files run behind " + s.mechanism + ", without bubblewrap's namespaces (" + s.reason +
               ")";
    if (s.wall == SandboxWall::Seccomp)
        return "note: kernel files run behind seccomp and rlimits alone, their files unconfined (" + s.reason +
               "; " + s.landlockReason + ")";
    return "note: kernel files run without a sandbox (" + s.reason + ")";
}

std::vector<std::string> sandboxEnvironment() {
    return {"PATH=/usr/bin:/bin"};
}

std::vector<std::string> sandboxCommand(const std::vector<std::string>& argv, const SandboxView& view) {
    const std::string bwrap = sandboxStatus().bwrap;
    return wrap(bwrap.empty() ? "bwrap" : bwrap, argv, view);
}

namespace {

std::vector<std::string> wrap(const std::string& bwrap, const std::vector<std::string>& argv, const SandboxView& view) {
    std::vector<std::string> c = {bwrap};
    auto add = [&](std::initializer_list<std::string> a) { c.insert(c.end(), a); };
    // Every namespace (user, IPC, PID, network, UTS, cgroup); the command is
    // ended with its caller and cannot reach the caller's terminal.
    // The command is the PID namespace's first process (--as-pid-1): when
    // it ends the kernel ends every other process of the namespace before
    // bwrap, which waits for it, returns; nothing outlives the sandbox.
    add({"--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL"});
    add({"--ro-bind", "/usr", "/usr"});
    // The merged /usr's links (or, on an older layout, the folders themselves).
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"}) {
        std::error_code ec;
        if (fs::is_symlink(top, ec))
            add({"--symlink", fs::read_symlink(top, ec).string(), top});
        else if (fs::is_directory(top, ec))
            add({"--ro-bind", top, top});
    }
    // Where the dynamic loader finds libraries outside its default folders
    // (/usr/local/cuda/lib, the driver's libcuda): the cache, nothing else of /etc.
    add({"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"});
    // /tmp is the machine's memory: a tmpfs of a fixed size (--size applies
    // to the --tmpfs after it).
    add({"--proc", "/proc", "--dev", "/dev", "--size", std::to_string(view.tmpBytes), "--tmpfs", "/tmp"});
    if (view.gpu) {
        // The driver's devices and what libcuda reads of the machine.
        glob_t g{};
        if (glob("/dev/nvidia*", 0, nullptr, &g) == 0)
            for (std::size_t i = 0; i < g.gl_pathc; ++i)
                add({"--dev-bind", g.gl_pathv[i], g.gl_pathv[i]});
        globfree(&g);
        add({"--ro-bind-try", "/sys", "/sys", "--ro-bind-try", "/etc/nvidia", "/etc/nvidia"});
    }
    for (const std::string& p : view.readOnly)
        add({"--ro-bind", p, p});
    add({"--bind", view.writable, view.writable, "--chdir", view.writable});
    add({"--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", view.writable, "--setenv", "TMPDIR",
         view.writable, "--setenv", "LANG", "C.UTF-8"});
    if (view.gpu)
        for (char** e = environ; *e; ++e) {
            const std::string v = *e;
            // CUDA's variables, and the caller's library path: NVRTC opens its
            // builtins library (libnvrtc-builtins) by name, at run time.
            if (v.rfind("CUDA_", 0) == 0 || v.rfind("NVIDIA_", 0) == 0 || v.rfind("LD_LIBRARY_PATH=", 0) == 0) {
                const std::size_t eq = v.find('=');
                add({"--setenv", v.substr(0, eq), v.substr(eq + 1)});
            }
        }
    c.push_back("--");
    c.insert(c.end(), argv.begin(), argv.end());
    return c;
}

// What a confined command's environment holds, as bwrap's --clearenv
// --setenv make it: no variable of the caller's but CUDA's and the library
// path on a GPU.
std::vector<std::string> confinedEnvironment(const SandboxView& view) {
    std::vector<std::string> env = {"PATH=/usr/bin:/bin", "HOME=" + view.writable, "TMPDIR=" + view.writable,
                                    "LANG=C.UTF-8"};
    if (view.gpu)
        for (char** e = environ; *e; ++e) {
            const std::string v = *e;
            if (v.rfind("CUDA_", 0) == 0 || v.rfind("NVIDIA_", 0) == 0 || v.rfind("LD_LIBRARY_PATH=", 0) == 0)
                env.push_back(v);
        }
    return env;
}

}  // namespace

bool reachableByOthers(const std::string& path) {
    std::error_code ec;
    const fs::path full = fs::absolute(path, ec);
    if (ec)
        return false;
    fs::path at = "/";
    for (auto part = std::next(full.begin()); part != full.end(); ++part) {
        struct stat st {};
        if (stat(at.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH))
            return false;
        at /= *part;
    }
    struct stat st {};
    if (stat(full.c_str(), &st) != 0)
        return false;
    return S_ISDIR(st.st_mode) ? (st.st_mode & S_IXOTH) != 0 : (st.st_mode & S_IROTH) != 0;
}

Result<ConfinedCommand> confineCommand(SandboxWall wall, const std::vector<std::string>& argv,
                                       const SandboxView& view, const SandboxLimits& limits, bool addressSpace,
                                       bool ownUser) {
    ConfinedCommand c;
    c.limits = childLimits(limits, addressSpace);
    if (wall == SandboxWall::Rlimits) {
        c.argv = argv;
        for (char** e = environ; *e; ++e)
            c.environment.emplace_back(*e);
        return c;
    }
    // A user id of its own, where this is root and it can reach its program
    // and its folders as a user that owns none of them.
    bool reachable = ownUser && sandboxStatus().ownUser && !argv.empty() && reachableByOthers(argv[0]);
    for (const std::string& p : view.readOnly)
        reachable = reachable && reachableByOthers(p);
    if (reachable && !view.writable.empty() && reachableByOthers(fs::path(view.writable).parent_path().string())) {
        c.limits.user = nextOwnUser();
        c.limits.processes = limits.processes;
        if (!giveToUser(view.writable, c.limits.user))
            return Error{ExitCode::Internal, "cannot give " + view.writable + " to the sandbox's user id: " +
                                                 std::strerror(errno)};
    }
    if (wall == SandboxWall::Bubblewrap) {
        c.argv = sandboxCommand(argv, view);
        c.environment = sandboxEnvironment();
        c.bubblewrap = true;
        return c;
    }
    c.argv = argv;
    c.environment = confinedEnvironment(view);
    if (wall == SandboxWall::Landlock) {
        auto ruleset = landlockRuleset(view);
        if (!ruleset)
            return ruleset.error();
        c.ruleset = std::move(*ruleset);
        c.limits.landlock = c.ruleset.fd();
        c.limits.landlockRights = handledFs(sandboxStatus().landlockAbi);
        if (view.gpu)
            c.limits.selfWritable = {"/proc/self/task"};
    }
    return c;
}

ChildLimits childLimits(const SandboxLimits& limits, bool addressSpace) {
    ChildLimits c;
    c.apply = true;
    c.cpuSeconds = limits.cpuSeconds;
#if defined(__SANITIZE_ADDRESS__)
    addressSpace = false;  // ASan reserves terabytes of shadow memory at start
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    addressSpace = false;
#endif
#endif
    c.addressSpaceBytes = addressSpace ? limits.addressSpaceBytes : 0;
    c.fileSizeBytes = limits.fileSizeBytes;
    c.openFiles = limits.openFiles;
    return c;
}

int applyChildLimits(const ChildLimits& l) {
    if (!l.apply)
        return 0;
    rlimit r{};
    if (l.cpuSeconds > 0) {
        // SIGXCPU at the limit (the worker reports where it was), SIGKILL a second later.
        r.rlim_cur = static_cast<rlim_t>(std::ceil(l.cpuSeconds));
        r.rlim_max = r.rlim_cur + 1;
        setrlimit(RLIMIT_CPU, &r);
    }
    if (l.addressSpaceBytes > 0) {
        r.rlim_cur = r.rlim_max = l.addressSpaceBytes;
        setrlimit(RLIMIT_AS, &r);
    }
    if (l.fileSizeBytes > 0) {
        r.rlim_cur = r.rlim_max = l.fileSizeBytes;
        setrlimit(RLIMIT_FSIZE, &r);
    }
    if (l.openFiles > 0) {
        r.rlim_cur = r.rlim_max = l.openFiles;
        setrlimit(RLIMIT_NOFILE, &r);
    }
    r.rlim_cur = r.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &r);
    if (l.user != 0) {
        // The count is of the user id's processes and threads: it holds once
        // the child is that user (root's count is never checked).
        if (l.processes > 0) {
            r.rlim_cur = r.rlim_max = l.processes;
            if (setrlimit(RLIMIT_NPROC, &r) != 0)
                return errno;
        }
        const gid_t group = static_cast<gid_t>(l.user);
        if (setgroups(0, nullptr) != 0 || setgid(group) != 0 || setuid(static_cast<uid_t>(l.user)) != 0)
            return errno != 0 ? errno : EPERM;
    }
    if (l.landlock >= 0) {
        for (const char* path : l.selfWritable) {
            const int at = open(path, O_PATH | O_CLOEXEC);
            struct stat st {};
            if (at < 0 || fstat(at, &st) != 0)
                return errno;
            PathBeneath rule;
            rule.allowed = (kReadFile | kWriteFile | kTruncate | (S_ISDIR(st.st_mode) ? kReadDir : 0)) & l.landlockRights;
            rule.parentFd = at;
            const long added = systemCall(SYS_landlock_add_rule, l.landlock, kRulePathBeneath, &rule, 0u);
            const int error = errno;
            close(at);
            if (added != 0)
                return error;
        }
        if (noNewPrivileges() != 0)
            return errno;
        if (systemCall(SYS_landlock_restrict_self, l.landlock, 0u) != 0)
            return errno;
    }
    return 0;
}

#if defined(TILESCOPE_HAVE_SECCOMP)

// libseccomp's SCMP_A0..SCMP_A5 are C compound literals, which C++ lacks.
static scmp_arg_cmp argument(unsigned index, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
    scmp_arg_cmp cmp{};
    cmp.arg = index;
    cmp.op = op;
    cmp.datum_a = a;
    cmp.datum_b = b;
    return cmp;
}

std::string installWorkerFilter(bool gpu) {
    // The same filter: the worker starts the CUDA driver before it (the
    // driver's sockets, for MPS, are made then), and CUDA needs none of
    // these calls afterwards.
    (void)gpu;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return "seccomp_init failed";
    const scmp_datum_t self = static_cast<scmp_datum_t>(getpid());
    int rc = 0;
    auto trap = [&](int call) {
        if (call >= 0 && rc == 0)
            rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, call, 0);
    };
    // No network, no new program or process, no reaching into another
    // process, no change to the machine or the namespaces.
    for (const char* name : {"socket",
                             "socketpair",
                             "connect",
                             "bind",
                             "listen",
                             "accept",
                             "accept4",
                             "fork",
                             "vfork",
                             "execve",
                             "execveat",
                             "ptrace",
                             "process_vm_readv",
                             "process_vm_writev",
                             "kcmp",
                             "pidfd_open",
                             "pidfd_getfd",
                             "pidfd_send_signal",
                             "tkill",
                             "mount",
                             "umount2",
                             "pivot_root",
                             "chroot",
                             "unshare",
                             "setns",
                             "bpf",
                             "perf_event_open",
                             "keyctl",
                             "add_key",
                             "request_key",
                             "init_module",
                             "finit_module",
                             "delete_module",
                             "kexec_load",
                             "kexec_file_load",
                             "reboot",
                             "swapon",
                             "swapoff",
                             "io_uring_setup",
                             "io_uring_enter",
                             "io_uring_register",
                             "userfaultfd",
                             "open_by_handle_at",
                             "name_to_handle_at",
                             "iopl",
                             "ioperm",
                             "acct",
                             "settimeofday",
                             "clock_settime",
                             "clock_adjtime",
                             "adjtimex",
                             "sethostname",
                             "setdomainname",
                             "fanotify_init",
                             "quotactl",
                             "mknod",
                             "mknodat",
                             "move_mount",
                             "open_tree",
                             "fsopen",
                             "fsmount",
                             "fspick",
                             "mount_setattr"})
        trap(seccomp_syscall_resolve_name(name));
    // A thread (CLONE_THREAD) is allowed; a process is not. clone3 hides its
    // flags from the filter: "not here" makes glibc fall back to clone.
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(clone), 1,
                              argument(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    // Signals to itself alone (raise, abort and pthread_kill are tgkill to itself).
    for (int call : {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)})
        if (rc == 0)
            rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, call, 1, argument(0, SCMP_CMP_NE, self));
    // prlimit64 on another process (glibc's own are prlimit64(0, ...); raising
    // past the hard limit needs a capability it does not have).
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(prlimit64), 1, argument(0, SCMP_CMP_NE, 0));
    // Typing into the terminal it no longer has (--new-session), to be sure.
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(ioctl), 1,
                              argument(1, SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc == 0 ? std::string() : std::string("seccomp: ") + std::strerror(-rc);
}

std::string systemCallName(int number) {
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
    std::string s = name ? name : "system call " + std::to_string(number);
    std::free(name);
    return s;
}

bool startsAProcess(int number) {
    for (const char* name : {"clone", "clone3", "fork", "vfork", "execve", "execveat"})
        if (number == seccomp_syscall_resolve_name(name))
            return true;
    return false;
}

#else

std::string installWorkerFilter(bool) {
    return {};
}
std::string systemCallName(int number) {
    return "system call " + std::to_string(number);
}
bool startsAProcess(int) {
    return false;
}

#endif

}  // namespace tilescope::own
