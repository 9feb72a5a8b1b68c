// The runner: the only way the UI runs a kernel. Panels never call CUDA (or
// the CPU executor, or the file readers of big inputs) themselves: they
// submit a job, and one background thread loads the input, runs the kernel,
// checks the output against the double-precision reference, and publishes the
// outcome under a mutex. The UI reads the latest outcome each frame, so it
// never waits on the work (the Tracy model: a worker that owns the data, a
// view that reads it under a lock).
//
// A new job supersedes the one waiting and cancels the one running (the CPU
// executor stops between blocks), so dragging a slider never queues up work.
// The browser build has no threads: there the app runs the waiting job
// between two frames (runPending), and the page shows "running" meanwhile.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/runner.hpp"
#include "core/barrier_drop.hpp"
#include "core/image.hpp"
#include "model/inputs.hpp"
#include "trace/problems.hpp"

namespace tilescope::own {
class OwnKernel;
}

namespace tilescope::ui {

struct RunJob {
    std::string kernel;  // a catalogue name, or what the app calls a kernel file ("your conv2d_tiled")
    // A student's kernel file, compiled: it runs instead of `kernel`, in a
    // worker process (RunRequest::own).
    std::shared_ptr<const own::OwnKernel> own;
    int dims = 2;  // the kernel's, to load the input the way it needs
    InputSpec input;
    Mask mask;
    int block = 0;
    Backend backend = Backend::Auto;
    bool whatIf = false;
    // For the step-through views: a trace of these blocks (empty: all), at
    // most eventBudget events.
    bool trace = false;
    std::vector<Dim3> traceBlocks;
    std::size_t eventBudget = 20'000'000;
    // Trace every block and run the problem detector, wrong results included
    // (RunRequest::check). A trace of some blocks only is checked too, block
    // by block, without the wrong results (RunOutcome::problemsOfWholeLaunch).
    bool check = false;
    // The race demonstration: barriers left out, and the order warps run in.
    BarrierDrop drop;
    Schedule schedule = Schedule::InOrder;
    unsigned seed = 1;
};

struct RunOutcome {
    std::uint64_t id = 0;  // the id submit() returned
    RunJob job;
    std::shared_ptr<const Image> input;  // null when the input could not be loaded
    std::optional<Error> inputError;     // the input could not be loaded
    std::optional<Error> runError;       // the kernel could not run (or was cancelled)
    std::optional<RunResult> result;     // output, backend, time, plan (and trace when asked)
    double maxDifference = 0.0;          // largest |output - reference| (infinite where an output is NaN)
    double tolerance = 0.0;              // what float32 rounding allows
    // Outputs that differ from the reference beyond the tolerance, or are not
    // a number: how many, and which (pixel indices, row-major, at most
    // kMaxWrongListed; an element wrong in several channels is listed once).
    std::size_t wrongCount = 0;
    std::size_t nanCount = 0;
    double largestNumberDifference = 0.0;  // the largest |output - reference| of the outputs that are numbers
    std::vector<std::uint32_t> wrongPixels;
    static constexpr std::size_t kMaxWrongListed = 1 << 20;
    // Traced runs: what the problem detector found in the trace; null when
    // nothing was traced. Over the whole launch (with wrong results) when
    // every block was traced, else over the traced blocks only.
    std::shared_ptr<const ProblemSet> problems;
    bool problemsOfWholeLaunch = false;
    double wallSeconds = 0.0;            // load + run + check
    bool cancelled = false;
    // A kernel file's printf output, also when it failed; null when it printed nothing.
    std::shared_ptr<const KernelPrintout> printout;
    // A kernel run elsewhere (own::OwnKernel::remote) whose answer has not
    // come yet: not published; the job waits and is asked again.
    bool awaiting = false;
};

struct RunProgress {
    bool busy = false;
    std::uint64_t id = 0;     // the job in progress
    const char* stage = "";   // "loading the input", "running", "checking", "on the server"
    unsigned blocksDone = 0;  // CPU executor only; CUDA runs report no progress
    unsigned blocksTotal = 0;
    double seconds = 0.0;  // since the job started
};

class Runner {
public:
    Runner();
    ~Runner();  // cancels and joins
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // Queues the job (replacing one that waits) and cancels the running one.
    std::uint64_t submit(RunJob job);
    // Cancels the running job; its outcome says so.
    void cancel();
    // Drops the waiting job and stops the running one without publishing it
    // (the set-up changed into one that cannot run: its old result is moot).
    void drop();

    RunProgress progress() const;
    // The most recent finished outcome (superseded runs are not published).
    std::shared_ptr<const RunOutcome> latest() const;
    // The shape of an input the worker has loaded (files at their own size
    // are only known once read).
    std::optional<InputShape> knownShape(const InputSpec& spec, int dims) const;
    // Forgets the inputs read so far, so that the next job reads its file again.
    void forgetInputs();
    // Called on the worker thread after each publication (the app wakes its
    // event loop with it); never after the destructor has started.
    void setOnPublish(std::function<void()> callback);
    // In a build without threads (the browser's, core/threads.hpp), runs the
    // waiting job here and now, and says whether there was one; the app calls
    // it between frames. With threads, the worker does that and this does
    // nothing.
    bool runPending();
    // An answer came for a job waiting on a server (ServedClient): asks again.
    void answerArrived();

private:
    void work();
    void runPendingJob();
    RunOutcome execute(std::uint64_t id, RunJob job);
    Result<std::shared_ptr<const Image>> inputFor(const InputSpec& spec, int dims);

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<RunJob> m_pending;
    std::uint64_t m_pendingId = 0;
    std::uint64_t m_nextId = 1;
    std::shared_ptr<const RunOutcome> m_latest;
    std::function<void()> m_onPublish;
    bool m_stopping = false;
    bool m_awaiting = false;       // the pending job waits for a server's answer
    bool m_answerArrived = false;  // ...which has come since it last asked

    // The job in progress, read by progress().
    std::uint64_t m_runningId = 0;
    const char* m_stage = "";
    double m_startedAt = 0.0;
    unsigned m_blocksTotal = 0;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_userCancelled{false};
    std::atomic<unsigned> m_blocksDone{0};

    // Inputs already loaded, most recent last (a few: reading a file again
    // for every mask change would be slow).
    struct CachedInput {
        InputSpec spec;
        int dims;
        std::shared_ptr<const Image> image;
    };
    std::vector<CachedInput> m_inputs;

    std::thread m_thread;  // last: starts once everything above exists
};

}  // namespace tilescope::ui
