// A student's own kernel file: read, translated, compiled with the system's
// C++ compiler into a shared object, and run in a child process (the worker,
// tilescope-worker) that the caller survives whatever the kernel does. The
// runner (api/runner.hpp) runs it like a built-in kernel when a request
// carries one (RunRequest::own); its catalogue entry is its own (OwnEntry).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "core/kernel_info.hpp"
#include "core/result.hpp"
#include "exec/run_request.hpp"
#include "own/own_entry.hpp"
#include "own/sandbox.hpp"
#include "own/translate.hpp"

namespace tilescope::own {

class CompileCache;

struct CompileOptions {
    // The C++ compiler; empty: $TILESCOPE_CXX, else c++, g++ or clang++ from PATH.
    std::string compiler;
    double timeLimitSeconds = 60.0;
    const std::atomic<bool>* cancel = nullptr;
    // The sandbox (sandbox.hpp) around the translation, the compiler and
    // every run of the kernel: the kernel remembers it for runOwnKernel.
    SandboxMode sandbox = SandboxMode::Auto;
    SandboxLimits limits;
    // Libraries compiled before (compile_cache.hpp); none: every compile runs the compiler.
    std::shared_ptr<const CompileCache> cache;
};

class OwnKernel;

// Where a kernel compiled elsewhere runs: the page's kernels, compiled and
// run by a `tilescope serve` (app/model/served_client.hpp). runOwnKernel
// hands such a kernel's runs to it.
class RemoteRuns {
public:
    virtual ~RemoteRuns() = default;
    // Whether the run `request` asks for has its answer here (the server
    // answered, or refused). When not, asks the server for it (once) and
    // returns false: the caller asks again later.
    virtual bool ready(const OwnKernel& kernel, const RunRequest& request) = 0;
    // The run, once ready: as runOwnKernel answers for a kernel of this
    // machine (the server's refusal as an Error naming the file's line).
    virtual Result<RunResult> run(const OwnKernel& kernel, const RunRequest& request) = 0;
};

class OwnKernel {
public:
    Translation translation;
    std::string directory;  // scratch folder: sources, the shared object, each run's files
    std::string library;    // the shared object
    double translateMs = 0.0;
    double compileMs = 0.0;
    bool compiledFromCache = false;  // the library came from the compile cache
    // Its runs' sandbox, from CompileOptions; `sandboxed` says whether its
    // compile had one (Auto where bwrap cannot run: no).
    SandboxMode sandbox = SandboxMode::Auto;
    SandboxLimits limits;
    bool sandboxed = false;
    // The kernel's catalogue entry: what the app and the trace call it and its
    // arrays. Plans and traces of its runs point at it, so the kernel lives as
    // long as they are used.
    std::optional<OwnEntry> entry;
    const KernelInfo* info = nullptr;  // &entry->info()
    // A kernel compiled and run elsewhere (no directory, no library): its
    // runs are the remote's.
    std::shared_ptr<RemoteRuns> remote;

    OwnKernel() = default;
    OwnKernel(const OwnKernel&) = delete;
    OwnKernel& operator=(const OwnKernel&) = delete;
    ~OwnKernel();  // removes the scratch folder: nothing is left behind
};

// Reads the file (or takes `text` as its content), translates and compiles
// it. A parse error, a construct that cannot be followed or a compiler error
// comes back as one line "file.cu:LINE:COL: error: ..." naming the student's
// line (Diagnostic holds it apart), with nothing left on disk.
Result<std::shared_ptr<const OwnKernel>> compileKernelFile(const std::string& path, const CompileOptions& options = {},
                                                           Diagnostic* diagnostic = nullptr);
Result<std::shared_ptr<const OwnKernel>> compileKernelText(const std::string& path, const std::string& text,
                                                           const CompileOptions& options = {},
                                                           Diagnostic* diagnostic = nullptr);

// The catalogue entry of the kernel a translated file launches: its name, dimension,
// where it reads the mask, and the names of its arrays.
OwnEntryDescription describeKernel(const Translation& translation, const std::string& path, const std::string& text);

// Runs the kernel in the worker (the runner calls this for RunRequest::own):
// the student's launch() with N, M and P, on the CPU executor. A crash, a
// time limit passed (RunRequest::timeLimitSeconds) or a cancel ends the
// worker, never the caller, and comes back as an Error that says what
// happened and, where the executor knew it, in which block, thread and line.
Result<RunResult> runOwnKernel(const OwnKernel& kernel, const RunRequest& request);

// The translation alone, in tilescope-worker --translate inside the sandbox
// (compileKernelText's path when the sandbox is on; translate() is the one
// in this process). `scratch` is the kernel's scratch folder; with `probe`,
// `view` (when given) says what the translator saw: its process id and
// whether `probe` was there.
struct TranslatorView {
    int pid = 0;
    bool probeVisible = false;
};
Result<Translation> translateInSandbox(const std::string& path, const std::string& text, const std::string& scratch,
                                       const CompileOptions& options, Diagnostic* diagnostic = nullptr,
                                       const std::string& probe = {}, TranslatorView* view = nullptr);

// The worker program: $TILESCOPE_WORKER; else beside the running program (an
// installed bin/tilescope-worker); else in the folder above it (a build tree:
// build/tilescope-worker for build/app/tilescope and build/tests/*); else
// tilescope-worker on the PATH. No absolute path is built in.
std::string workerPath();

}  // namespace tilescope::own
