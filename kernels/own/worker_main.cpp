// tilescope-worker: runs one student's kernel file, compiled into a shared
// object, in a process of its own, so that whatever the kernel does (crash,
// loop for ever, ask for all the memory) the app and the command line carry
// on. Usage: tilescope-worker JOB_FOLDER [--stop-fd N] (own/worker_protocol.hpp),
// or tilescope-worker --translate FOLDER [--filter]: the libclang
// translation of a kernel file, in a process (and, with the sandbox, a
// sandbox) of its own.
//
// In the sandbox (sandbox.hpp) the worker, already confined by its caller
// (bubblewrap or Landlock, rlimits, a user id of its own), sets its address
// space, starts CUDA on a GPU (the driver needs calls the filter refuses),
// installs the system-call filter, and only then loads the kernel's shared
// object: its constructors, which run at dlopen, are behind every wall.
//
// The student's launch() is called with N, M and P; its kernel launch comes
// back here (own::Runtime) and runs on the CPU executor, one fiber per CUDA
// thread, recording the trace. When it is stopped (SIGUSR1, the caller's time
// limit or cancel) or crashes, it writes where it was: the block, the thread
// and the last line that thread recorded.
//
// Its standard output is the kernel's: what `printf` prints in the kernel or
// in launch() (on a GPU, the device's printf too), which the caller shows
// (exec/printout.hpp). The worker itself writes nothing there: it answers in
// files of the job folder (worker_protocol.hpp) and says what went wrong on
// stderr.
#include <dlfcn.h>
#include <fcntl.h>
#if defined(TILESCOPE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "exec/cpu_executor.hpp"
#include "exec/cpu_runtime.hpp"
#include "own/own_runtime.hpp"
#include "own/sandbox.hpp"
#include "own/translate.hpp"
#include "own/worker_protocol.hpp"
#include "own/worker_runtime.hpp"

namespace tilescope::own {

namespace {

namespace fs = std::filesystem;

class CpuRuntime final : public WorkerRuntime {
public:
    CpuRuntime(const WorkerJob& job, std::vector<float>& N, std::vector<float>& M, std::vector<float>& P)
        : WorkerRuntime(job, N, M, P) {}

    void launch(const KernelLaunch& l, const std::function<void()>& thread) override {
        if (m_launched)
            throw LaunchError{"launch() launches a second kernel: TileScope follows one launch (this one is on line " +
                                  std::to_string(l.line) + ")",
                              l.line};
        m_launched = true;
        m_kernel = l.kernel;
        const Dim3 b = l.block, g = l.grid;
        const std::string shape = "<<<" + dims(g) + ", " + dims(b) + ">>>";
        if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
            throw LaunchError{shape + ": a grid or block with a zero size launches nothing", l.line};
        if (b.count() > 1024 || b.x > 1024 || b.y > 1024 || b.z > 64)
            throw LaunchError{shape + ": a block of " + std::to_string(b.count()) +
                                  " threads; CUDA allows at most 1024 (and 1024 x 1024 x 64 on each side)",
                              l.line};
        if (g.y > 65535 || g.z > 65535)
            throw LaunchError{shape + ": grid y and z are at most 65535", l.line};
        const unsigned long long threads = 1ull * g.count() * b.count();
        if (threads > 64ull * 1024 * 1024)
            throw LaunchError{shape + ": " + std::to_string(threads) + " threads in all; the CPU executor runs at "
                                                                      "most 67,108,864",
                              l.line};
        const std::size_t shared = l.staticShared + l.dynamicShared;
        if (shared > 48 * 1024)
            throw LaunchError{shape + ": " + std::to_string(shared) + " bytes of shared memory a block; a block "
                                                                       "may have 48 KB (49152 bytes)",
                              l.line};
        m_plan.kernel = KernelId::Own;
        m_plan.entry = &m_entry.info();
        m_plan.grid = g;
        m_plan.block = b;
        m_plan.sharedBytes = shared;
        m_plan.radius = m_job.radius;
        m_plan.maskWidth = m_job.maskWidth;
        m_plan.width = m_job.width;
        m_plan.height = m_job.height;
        m_plan.pitch = m_job.width;

        cpu::CpuOptions options;
        options.trace = m_job.trace;
        if (!m_job.traceBlocks.empty()) {
            options.traceBlock = [this, g](Dim3 block) {
                for (const Dim3& want : m_job.traceBlocks)
                    if (want.x == block.x && want.y == block.y && (g.z == 1 || want.z == block.z)) return true;
                return false;
            };
        }
        options.eventBudget = m_job.eventBudget;
        options.drop.all = m_job.dropAll;
        options.drop.lines = m_job.dropLines;
        scheduleFromName(m_job.schedule, options.schedule);
        options.seed = m_job.seed;
        options.workers = 1;  // one thread: a stop or a crash names the block and thread it was in
        options.faults = &m_faults;
        const base::Stopwatch stopwatch;
        auto blocks = cpu::runGrid(m_plan, thread, options);
        m_millis = stopwatch.milliseconds();
        if (!blocks) throw LaunchError{blocks.error().message, 0};
        m_blocks = std::move(*blocks);
    }

    bool launched() const override { return m_launched; }
    WorkerResult result() override {
        WorkerResult r;
        r.ok = true;
        r.kernel = m_kernel;
        r.grid = m_plan.grid;
        r.block = m_plan.block;
        r.sharedBytes = m_plan.sharedBytes;
        r.millis = m_millis;
        r.faults = m_faults;
        r.blocks = std::move(m_blocks);
        return r;
    }

private:
    static std::string dims(Dim3 d) {
        std::string s = "(" + std::to_string(d.x);
        if (d.y != 1 || d.z != 1) s += ", " + std::to_string(d.y);
        if (d.z != 1) s += ", " + std::to_string(d.z);
        return s + ")";
    }

    bool m_launched = false;
    std::string m_kernel;
    LaunchPlan m_plan;
    LaunchFaults m_faults;
    double m_millis = 0.0;
    TracedBlocks m_blocks;
};

Runtime* g_runtime = nullptr;

// [SECTION] Where the kernel was, for a stop or a crash. Only async-signal-safe
// calls: the text is put together in a fixed buffer and written with write().

int g_whereFd = -1;
int g_dims = 2;
std::uintptr_t g_libraryBase = 0;  // where the kernel's shared object is loaded
std::uintptr_t g_libraryEnd = 0;
volatile sig_atomic_t g_stopSamples = 0;
// Where the kernel's own code runs outside its kernel: in launch(), or in
// its shared object's constructors while it is being loaded.
const char* volatile g_outsideKernel = "in launch(), before or after the kernel";

struct Text {
    char data[512];
    std::size_t size = 0;
    void add(const char* s) {
        while (*s && size + 1 < sizeof data) data[size++] = *s++;
    }
    void add(unsigned long v) {
        char digits[24];
        int n = 0;
        do digits[n++] = static_cast<char>('0' + v % 10); while ((v /= 10) && n < 24);
        while (n > 0 && size + 1 < sizeof data) data[size++] = digits[--n];
    }
    void dim(const Dim3& d) {
        add("(");
        add(static_cast<unsigned long>(d.x));
        if (g_dims > 1) {
            add(",");
            add(static_cast<unsigned long>(d.y));
        }
        add(")");
    }
};

// Writes "signal N", then "pc OFFSET" (the instruction in the kernel's
// shared object, which the caller turns into a line of the student's file
// with addr2line), then the block, thread and last recorded line in words.
void reportWhere(int sig, std::uintptr_t pc, int syscall = -1) {
    Text t;
    t.add("signal ");
    t.add(static_cast<unsigned long>(sig));
    t.add("\n");
    if (syscall >= 0) {
        t.add("syscall ");
        t.add(static_cast<unsigned long>(syscall));
        t.add("\n");
    }
    if (g_libraryBase && pc > g_libraryBase) {
        t.add("pc ");
        t.add(static_cast<unsigned long>(pc - g_libraryBase));
        t.add("\n");
    }
    const cpu::BlockState* b = cpu::t_block;
    if (b) {
        t.add(sig == SIGUSR1 ? "it was running block " : "in block ");
        t.dim(cpu::blockIdx);
        t.add(", thread ");
        t.dim(cpu::threadIdx);
        // The running thread's last recorded line.
        unsigned line = 0;
        for (std::size_t i = b->events.size(); i-- > 0;)
            if (b->events[i].thread == b->current) {
                line = b->events[i].line;
                break;
            }
        if (line > 0) {
            t.add(sig == SIGUSR1 ? ", last at line " : ", after line ");
            t.add(static_cast<unsigned long>(line));
        }
    } else {
        t.add(g_outsideKernel);
    }
    if (g_whereFd >= 0) (void)!write(g_whereFd, t.data, t.size);
}

void onSignal(int sig, siginfo_t* info, void* context) {
    std::uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#else
    (void)context;
#endif
    // Stopped while in the executor or the C library rather than in the
    // kernel's own code: carry on, and be sampled again by the next signal
    // (the caller sends several), so that the line named is the kernel's.
    const bool inKernel = pc >= g_libraryBase && pc < g_libraryEnd;
    if (sig == SIGUSR1 && !inKernel && g_stopSamples < 10) {
        g_stopSamples = g_stopSamples + 1;
        return;
    }
    // What the kernel printed so far, still in stdout's buffer: written out,
    // where the kernel's own code was running (not inside printf, whose
    // buffer may be half updated), so that a stopped or crashed kernel's
    // output is shown too. (Not async-signal-safe in general; the process
    // ends right after.)
    if (inKernel)
        std::fflush(stdout);
    reportWhere(sig, pc, sig == SIGSYS && info ? info->si_syscall : -1);
    if (sig == SIGUSR1)
        _exit(0);
    _exit(kCrashExit);
}

void catchSignals() {
    // Its own stack: a fiber that overflows its stack must still be reported.
    static std::vector<char> altStack(256 * 1024);
    stack_t ss{};
    ss.ss_sp = altStack.data();
    ss.ss_size = altStack.size();
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = onSignal;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGUSR1, SIGSYS, SIGXCPU, SIGXFSZ})
        sigaction(sig, &sa, nullptr);
}

// The caller's stop, through a pipe (--stop-fd): in the sandbox the worker
// is in a PID namespace of its own, where the caller's signals do not reach
// it. Each byte read becomes a SIGUSR1 to the main thread, which runs the
// kernel; the end of the pipe (the caller gone) ends the watch.
void watchStops(int fd) {
    const pthread_t main = pthread_self();
    std::thread([fd, main] {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, nullptr);
        char c;
        for (;;) {
            const ssize_t n = read(fd, &c, 1);
            if (n == 0 || (n < 0 && errno != EINTR))
                return;
            if (n == 1)
                pthread_kill(main, SIGUSR1);
        }
    }).detach();
}

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

// tilescope-worker --translate FOLDER: FOLDER/translate.json in,
// FOLDER/translation.json out (worker_protocol.hpp).
// With `filter`, the sandbox's system-call filter first: the parser reads
// the student's bytes.
int translateMain(const fs::path& dir, bool filter) {
    TranslateRequest request;
    if (Status s = readTranslateRequest(dir, request); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 4;
    }
    if (filter && !sanitized()) {
        if (const std::string why = installWorkerFilter(false); !why.empty()) {
            std::fprintf(stderr, "the sandbox's system-call filter cannot be installed: %s\n", why.c_str());
            return 4;
        }
    }
    TranslateReply reply;
    reply.pid = static_cast<int>(getpid());
    if (!request.probe.empty())
        reply.probeVisible = access(request.probe.c_str(), F_OK) == 0;
    Diagnostic diagnostic;
    auto translation = translate(request.path, request.text, dir.string(), &diagnostic);
    if (translation) {
        reply.ok = true;
        reply.translation = std::move(*translation);
    } else {
        reply.message = translation.error().message;
        reply.code = static_cast<int>(translation.error().code);
        reply.diagnostic = diagnostic;
    }
    if (Status s = writeTranslateReply(dir, reply); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 4;
    }
    return 0;
}

}  // namespace

Runtime& runtime() { return *g_runtime; }

int workerMain(int argc, char** argv) {
    if ((argc == 3 || (argc == 4 && std::strcmp(argv[3], "--filter") == 0)) &&
        std::strcmp(argv[1], "--translate") == 0)
        return translateMain(argv[2], argc == 4);
    if (argc == 4 && std::strcmp(argv[2], "--stop-fd") == 0) {
        watchStops(std::atoi(argv[3]));
    } else if (argc != 2) {
        std::fprintf(stderr, "usage: tilescope-worker JOB_FOLDER [--stop-fd N] (the app and tilescope start it)\n");
        return 2;
    }
    const fs::path dir = argv[1];
    WorkerJob job;
    std::vector<float> N, M;
    if (Status s = readJob(dir, job, N, M); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 4;
    }
    g_dims = job.dims;
    // Its job's folder is where it works (in the sandbox, the one folder it may write).
    if (chdir(dir.c_str()) != 0) {
        std::fprintf(stderr, "cannot enter %s\n", dir.c_str());
        return 4;
    }
    g_whereFd = open((dir / kWhereFile).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    catchSignals();
    // A kernel that asks for all the memory fails here, not on the machine.
    // (Not with CUDA, which reserves far more address space than it uses,
    // nor with ASan, which has reserved terabytes of shadow memory by now.)
    if (job.backend != "cuda" && job.addressSpaceBytes > 0 && !sanitized()) {
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = job.addressSpaceBytes;
        setrlimit(RLIMIT_AS, &limit);
    }

    auto fail = [&](const std::string& message, unsigned line) {
        WorkerResult r;
        r.ok = false;
        r.message = message;
        r.line = line;
        if (Status s = writeResult(dir, r); !s) return 4;
        return 0;
    };
#if defined(TILESCOPE_HAVE_CUDA)
    // The CUDA driver opens its devices, reads the machine and starts its
    // threads when it starts: here, before the filter. (An error is left
    // for makeGpuRuntime to report.)
    if (job.backend == "cuda" && cudaSetDevice(0) == cudaSuccess)
        (void)cudaFree(nullptr);
#endif
    // The sandbox's system-call filter, before the kernel's shared object
    // is loaded: its constructors run at dlopen, and from there on every
    // instruction of the student's code runs behind it. (Not with ASan:
    // LeakSanitizer's check at exit stops the world with clone and ptrace,
    // which the filter forbids.)
    if (job.filter && !sanitized()) {
        if (const std::string why = installWorkerFilter(job.backend == "cuda"); !why.empty())
            return fail("the sandbox's system-call filter cannot be installed: " + why, 0);
    }
    g_outsideKernel = "while its shared object was being loaded (in a constructor)";
    void* library = dlopen(job.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    g_outsideKernel = "in launch(), before or after the kernel";
    if (!library) return fail(std::string("the compiled kernel cannot be loaded: ") + dlerror(), 0);
    using Entry = void (*)(const float*, const float*, float*, int, int, int);
    auto entry = reinterpret_cast<Entry>(dlsym(library, "tilescope_own_launch"));
    if (!entry) return fail("the compiled kernel has no launch()", 0);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(entry), &info) && info.dli_fbase) {
        g_libraryBase = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
        dl_iterate_phdr(
            [](dl_phdr_info* object, std::size_t, void*) {
                if (object->dlpi_addr != g_libraryBase) return 0;
                for (int i = 0; i < object->dlpi_phnum; ++i)
                    if (object->dlpi_phdr[i].p_type == PT_LOAD)
                        g_libraryEnd = std::max<std::uintptr_t>(
                            g_libraryEnd, g_libraryBase + object->dlpi_phdr[i].p_vaddr + object->dlpi_phdr[i].p_memsz);
                return 1;
            },
            nullptr);
    }

    std::vector<float> P(N.size(), 0.0f);
    std::unique_ptr<WorkerRuntime> rt;
    if (job.backend == "cuda") {
        using ConstantEntry = int (*)(int, const char**, const void**, unsigned long*);
        auto constant = reinterpret_cast<ConstantEntry>(dlsym(library, "tilescope_own_constant"));
        std::vector<HostConstant> constants;
        const char* name = nullptr;
        const void* values = nullptr;
        unsigned long bytes = 0;
        for (int i = 0; constant && constant(i, &name, &values, &bytes); ++i)
            constants.push_back(HostConstant{name, values, bytes});
        auto gpu = makeGpuRuntime(job, dir.parent_path(), dir, N, M, P, std::move(constants));
        if (!gpu) {
            WorkerResult r;
            r.message = gpu.error().message;
            r.unavailable = true;
            if (Status s = writeResult(dir, r); !s) return 4;
            return 0;
        }
        rt = std::move(*gpu);
    } else {
        rt = std::make_unique<CpuRuntime>(job, N, M, P);
    }
    g_runtime = rt.get();
    try {
        entry(N.data(), M.data(), P.data(), job.radius, job.width, job.height);
    } catch (const LaunchError& e) {
        return fail(e.message, e.line);
    } catch (const std::bad_alloc&) {
        char limit[64] = "";
        if (job.backend != "cuda" && job.addressSpaceBytes > 0)
            std::snprintf(limit, sizeof limit, " (it may take %llu MB)",
                          static_cast<unsigned long long>(job.addressSpaceBytes >> 20));
        return fail(std::string("launch() ran out of memory") + limit, 0);
    } catch (const std::exception& e) {
        return fail(std::string("launch() failed: ") + e.what(), 0);
    }
    if (!rt->launched()) return fail("launch() returned without launching a kernel", 0);
    WorkerResult r = rt->result();
    if (job.backend != "cuda") r.output = P;
    if (Status s = writeResult(dir, r); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 4;
    }
    return 0;
}

}  // namespace tilescope::own

int main(int argc, char** argv) { return tilescope::own::workerMain(argc, argv); }
