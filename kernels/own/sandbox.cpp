#include "own/sandbox.hpp"

#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(TILESCOPE_HAVE_SECCOMP)
#include <seccomp.h>
#endif

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sstream>

namespace tilescope::own {

namespace fs = std::filesystem;

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

std::string SandboxStatus::summary() const {
    if (available)
        return "sandbox: " + mechanism + " (" + bwrap + ")";
    return "sandbox: not available (" + reason + "); kernel files run behind the translator's checks alone";
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

// Runs argv (environment `env`), returns its exit status and what it wrote on stderr.
int runQuietly(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string& err) {
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

SandboxStatus probe() {
    SandboxStatus s;
    s.bwrap = findBwrap();
    if (s.bwrap.empty()) {
        s.reason = "bwrap (bubblewrap) is not installed (Debian: apt-get install bubblewrap)";
        return s;
    }
    if (access(s.bwrap.c_str(), X_OK) != 0) {
        s.reason = s.bwrap + " cannot be run: " + std::strerror(errno);
        return s;
    }
    char pattern[] = "/tmp/tilescope-sandbox-probe-XXXXXX";
    const std::string tmp = std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    std::string folder = tmp + "/tilescope-sandbox-probe-XXXXXX";
    if (!mkdtemp(folder.data()))
        folder = mkdtemp(pattern) ? pattern : "";
    if (folder.empty()) {
        s.reason = "no scratch folder to try bwrap in";
        return s;
    }
    SandboxView view;
    view.writable = folder;
    const std::vector<std::string> argv = wrap(s.bwrap, {"/usr/bin/true"}, view);
    std::string err;
    const int status = runQuietly(argv, sandboxEnvironment(), err);
    std::error_code ignored;
    fs::remove(folder, ignored);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        s.available = true;
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
    return s;
}

}  // namespace

const SandboxStatus& sandboxStatus() {
    static const SandboxStatus status = probe();
    return status;
}

Result<bool> sandboxWanted(SandboxMode mode) {
    if (mode == SandboxMode::Off)
        return false;
    const SandboxStatus& s = sandboxStatus();
    if (s.available)
        return true;
    if (mode == SandboxMode::Required)
        return Error{ExitCode::BackendUnavailable, "the sandbox is required but cannot be had: " + s.reason};
    return false;
}

std::string sandboxNote(SandboxMode mode) {
    if (mode != SandboxMode::Auto || sandboxStatus().available)
        return {};
    return "note: kernel files run without a sandbox (" + sandboxStatus().reason + ")";
}

std::vector<std::string> sandboxEnvironment() {
    return {"PATH=/usr/bin:/bin"};
}

std::vector<std::string> sandboxCommand(const std::vector<std::string>& argv, const SandboxView& view) {
    return wrap(sandboxStatus().bwrap.empty() ? "bwrap" : sandboxStatus().bwrap, argv, view);
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
    add({"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
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
            if (v.rfind("CUDA_", 0) == 0 || v.rfind("NVIDIA_", 0) == 0) {
                const std::size_t eq = v.find('=');
                add({"--setenv", v.substr(0, eq), v.substr(eq + 1)});
            }
        }
    c.push_back("--");
    c.insert(c.end(), argv.begin(), argv.end());
    return c;
}

}  // namespace

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

void applyChildLimits(const ChildLimits& l) {
    if (!l.apply)
        return;
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
    (void)gpu;  // the same filter: CUDA needs none of these calls either
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

#else

std::string installWorkerFilter(bool) {
    return {};
}
std::string systemCallName(int number) {
    return "system call " + std::to_string(number);
}

#endif

}  // namespace tilescope::own
