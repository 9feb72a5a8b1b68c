#include "model/runner.hpp"

#include <algorithm>
#include <cmath>

#include "base/clock.hpp"
#include "core/planner.hpp"
#include "core/threads.hpp"
#include "own/own_kernel.hpp"
#include "reference/reference.hpp"

namespace tilescope::ui {

namespace {

constexpr std::size_t kCachedInputs = 4;

// The outputs the problem detector would call wrong: beyond float32 rounding
// from the reference, or not a number (a race can leave shared memory's NaN
// in an output, and a NaN compares as no difference at all).
void findWrongOutputs(const Image& output, const std::vector<double>& expected, RunOutcome& outcome) {
    const std::size_t n = std::min(output.data.size(), expected.size());
    const std::size_t channels = static_cast<std::size_t>(std::max(output.channels, 1));
    std::uint32_t lastPixel = ~0u;
    for (std::size_t i = 0; i < n; ++i) {
        const float got = output.data[i];
        const bool nan = std::isnan(got);
        const double difference = nan ? 0.0 : std::abs(static_cast<double>(got) - expected[i]);
        outcome.largestNumberDifference = std::max(outcome.largestNumberDifference, difference);
        if (!nan && difference <= outcome.tolerance)
            continue;
        ++outcome.wrongCount;
        outcome.nanCount += nan;
        const auto pixel = static_cast<std::uint32_t>(i / channels);
        if (pixel != lastPixel && outcome.wrongPixels.size() < RunOutcome::kMaxWrongListed)
            outcome.wrongPixels.push_back(pixel);
        lastPixel = pixel;
    }
}

}  // namespace

Runner::Runner() {
    if constexpr (kThreadsAvailable)
        m_thread = std::thread([this] { work(); });
}

Runner::~Runner() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_pending.reset();
        // No callback once destruction began: the owner may already be half
        // gone (a unique_ptr being reset reads as null while this joins).
        m_onPublish = nullptr;
    }
    m_cancel = true;
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

std::uint64_t Runner::submit(RunJob job) {
    std::uint64_t id;
    {
        std::lock_guard lock(m_mutex);
        id = m_nextId++;
        m_pending = std::move(job);
        m_pendingId = id;
        m_awaiting = false;
        if (m_runningId != 0)
            m_cancel = true;  // superseded: stop it, publish nothing
    }
    m_wake.notify_one();
    return id;
}

void Runner::cancel() {
    std::lock_guard lock(m_mutex);
    m_pending.reset();
    m_awaiting = false;
    if (m_runningId != 0) {
        m_userCancelled = true;
        m_cancel = true;
    }
}

void Runner::drop() {
    std::lock_guard lock(m_mutex);
    m_pending.reset();
    m_awaiting = false;
    if (m_runningId != 0)
        m_cancel = true;  // without m_userCancelled: superseded, not published
}

RunProgress Runner::progress() const {
    std::lock_guard lock(m_mutex);
    RunProgress p;
    p.busy = m_runningId != 0 || m_pending.has_value();
    p.id = m_runningId != 0 ? m_runningId : m_pendingId;
    p.stage = m_runningId != 0 ? m_stage : m_awaiting ? "on the server" : "waiting";
    p.blocksDone = m_blocksDone.load();
    p.blocksTotal = m_blocksTotal;
    p.seconds = m_runningId != 0 ? base::seconds() - m_startedAt : 0.0;
    return p;
}

std::shared_ptr<const RunOutcome> Runner::latest() const {
    std::lock_guard lock(m_mutex);
    return m_latest;
}

std::optional<InputShape> Runner::knownShape(const InputSpec& spec, int dims) const {
    std::lock_guard lock(m_mutex);
    for (const CachedInput& c : m_inputs)
        if (c.spec == spec && c.dims == dims)
            return InputShape{c.image->width, c.image->height, c.image->channels, c.image->rank};
    return std::nullopt;
}

void Runner::forgetInputs() {
    std::lock_guard lock(m_mutex);
    m_inputs.clear();
}

void Runner::setOnPublish(std::function<void()> callback) {
    std::lock_guard lock(m_mutex);
    m_onPublish = std::move(callback);
}

void Runner::work() {
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            // A job waiting on a server is asked again when its answer comes.
            m_wake.wait(lock, [this] { return m_stopping || (m_pending.has_value() && (!m_awaiting || m_answerArrived)); });
            m_answerArrived = false;
            if (m_stopping)
                return;
        }
        runPendingJob();
    }
}

void Runner::answerArrived() {
    {
        std::lock_guard lock(m_mutex);
        m_answerArrived = true;
    }
    m_wake.notify_one();
}

bool Runner::runPending() {
    if constexpr (kThreadsAvailable)
        return false;  // the worker thread does it
    {
        std::lock_guard lock(m_mutex);
        if (!m_pending || m_stopping || (m_awaiting && !m_answerArrived))
            return false;
        m_answerArrived = false;
    }
    runPendingJob();
    return true;
}

void Runner::runPendingJob() {
    {
        RunJob job;
        std::uint64_t id;
        {
            std::unique_lock lock(m_mutex);
            if (!m_pending)
                return;
            job = std::move(*m_pending);
            id = m_pendingId;
            m_pending.reset();
            m_runningId = id;
            m_stage = "loading the input";
            m_startedAt = base::seconds();
            m_blocksTotal = 0;
            m_blocksDone = 0;
            m_cancel = false;
            m_userCancelled = false;
        }

        RunOutcome outcome = execute(id, std::move(job));

        std::function<void()> onPublish;
        {
            std::lock_guard lock(m_mutex);
            m_runningId = 0;
            if (outcome.awaiting) {
                // Asked of a server: the job waits for the answer, unless a
                // newer one has come meanwhile.
                if (!m_pending && !m_cancel) {
                    m_pending = std::move(outcome.job);
                    m_pendingId = id;
                    m_awaiting = true;
                }
                return;
            }
            // A run cancelled because a newer job arrived is of no interest;
            // one the user cancelled is (the panel says so).
            const bool superseded = outcome.cancelled && !m_userCancelled;
            if (!superseded)
                m_latest = std::make_shared<const RunOutcome>(std::move(outcome));
            onPublish = m_onPublish;
        }
        if (onPublish)
            onPublish();
    }
}

Result<std::shared_ptr<const Image>> Runner::inputFor(const InputSpec& spec, int dims) {
    {
        std::lock_guard lock(m_mutex);
        for (const CachedInput& c : m_inputs)
            if (c.spec == spec && c.dims == dims)
                return c.image;
    }
    auto loaded = loadInput(spec, dims);  // outside the lock: may read a large file
    if (!loaded)
        return loaded.error();
    auto image = std::make_shared<const Image>(std::move(*loaded));
    std::lock_guard lock(m_mutex);
    m_inputs.push_back({spec, dims, image});
    if (m_inputs.size() > kCachedInputs)
        m_inputs.erase(m_inputs.begin());
    return image;
}

RunOutcome Runner::execute(std::uint64_t id, RunJob job) {
    const double start = base::seconds();
    RunOutcome outcome;
    outcome.id = id;

    auto input = inputFor(job.input, job.dims);
    if (!input) {
        outcome.inputError = input.error();
        outcome.job = std::move(job);
        outcome.wallSeconds = base::seconds() - start;
        return outcome;
    }
    outcome.input = *input;
    const Image& image = *outcome.input;

    // The kernel and its launch, resolved once here and handed to the runner
    // (which plans it alike, with the same limits, when this fails and it
    // must say why); the plan also gives the block count for the progress bar.
    const KernelInfo* entry = job.own ? nullptr : findKernel(job.kernel);
    std::optional<LaunchPlan> plan;
    if (entry) {
        Problem problem{image.width,    image.height,    image.channels, image.rank,
                        job.mask.width, job.mask.height, job.block};
        if (auto planned = planLaunch(*entry, problem, currentLimits(), job.whatIf)) {
            plan = *planned;
            const unsigned planes = entry->multiChannel ? 1u : static_cast<unsigned>(image.channels);
            std::lock_guard lock(m_mutex);
            m_blocksTotal = plan->grid.x * plan->grid.y * plan->grid.z * planes;
        }
    }
    {
        std::lock_guard lock(m_mutex);
        m_stage = "running the kernel";
    }
    if (m_cancel) {  // superseded while the input was read: do not start (a GPU run cannot be stopped)
        outcome.cancelled = true;
        outcome.runError = Error{ExitCode::BadInput, "cancelled"};
        outcome.job = std::move(job);
        outcome.wallSeconds = base::seconds() - start;
        return outcome;
    }

    RunRequest request;
    request.kernel = job.kernel;
    request.entry = entry;
    request.plan = plan;
    request.own = job.own;
    request.input = &image;
    request.mask = &job.mask;
    request.block = job.block;
    request.backend = job.backend;
    request.whatIf = job.whatIf;
    request.trace = job.trace;
    request.traceBlocks = job.traceBlocks;
    request.eventBudget = job.eventBudget;
    request.check = job.check && job.trace;
    request.drop = job.drop;
    request.schedule = job.schedule;
    request.seed = job.seed;
    // The app never stops at a failing GPU: the CPU executor runs the same
    // launch, and the outcome says what the GPU reported.
    request.fallbackToCpu = true;
    request.cancel = &m_cancel;
    request.blocksDone = &m_blocksDone;
    KernelPrintout printout;
    request.printout = job.own ? &printout : nullptr;
    if (job.own && job.own->remote && !job.own->remote->ready(*job.own, request)) {
        outcome.awaiting = true;
        outcome.job = std::move(job);
        return outcome;
    }
    auto result = runKernel(request);
    if (!printout.empty())
        outcome.printout = std::make_shared<const KernelPrintout>(std::move(printout));

    if (m_cancel) {
        outcome.cancelled = true;
        outcome.runError = Error{ExitCode::BadInput, "cancelled"};
    } else if (!result) {
        outcome.runError = result.error();
    } else {
        {
            std::lock_guard lock(m_mutex);
            m_stage = "checking against the reference";
        }
        const std::vector<double> expected = reference::convolve(image, job.mask);
        outcome.maxDifference = reference::maxAbsDifference(result->output.data, expected);
        outcome.tolerance = reference::float32Tolerance(image, job.mask);
        findWrongOutputs(result->output, expected, outcome);
        if (result->problems) {
            outcome.problems = std::make_shared<const ProblemSet>(std::move(*result->problems));
            outcome.problemsOfWholeLaunch = true;
        } else if (job.trace && result->trace) {
            // Only some blocks traced: each is checked on its own (a race
            // between blocks, or a wrong output, needs them all).
            outcome.problems = std::make_shared<const ProblemSet>(detectProblems(*result->trace));
        }
        outcome.result = std::move(*result);
    }
    outcome.job = std::move(job);
    outcome.wallSeconds = base::seconds() - start;
    return outcome;
}

}  // namespace tilescope::ui
