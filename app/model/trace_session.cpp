#include "model/trace_session.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "base/clock.hpp"
#include "core/kernel_catalogue.hpp"
#include "own/own_kernel.hpp"
#include "trace/trace_arrays.hpp"

namespace tilescope::ui {

namespace {

// Inputs up to this many cells are traced whole (every block: the heat map
// shows halo reuse across blocks); larger ones one block at a time.
constexpr long long kTraceWholeCells = 128 * 128;

// The block whose output tile holds P(x, y).
std::optional<Dim3> blockOfOutput(const LaunchPlan& plan, int x, int y) {
    for (unsigned by = 0; by < plan.grid.y; ++by)
        for (unsigned bx = 0; bx < plan.grid.x; ++bx) {
            const Dim3 b{bx, by, 0};
            if (blockGeometry(plan, b).computed.contains(x, y))
                return b;
        }
    return std::nullopt;
}

// The block of the trace that computes P(x, y). A kernel file's tiles are
// its own launch()'s: its block is the one whose thread writes P(x, y).
std::optional<std::size_t> traceBlockOfOutput(const TraceModel& model, int x, int y) {
    const Trace& trace = model.trace();
    if (trace.plan.kernel == KernelId::Own) {
        const int index = trace.arrays[kArrayOutput].indexOf(x, y);
        for (std::size_t b = 0; b < model.blockCount(); ++b) {
            const BlockReplay& replay = model.block(b);
            for (unsigned t = 0; t < replay.threadCount(); ++t)
                if (replay.thread(t).output == index)
                    return b;
        }
    }
    if (const auto block = blockOfOutput(trace.plan, x, y))
        return model.findBlock(*block);
    return std::nullopt;
}

// The same kernel, input, mask and launch (the traced blocks aside).
bool sameLaunch(const RunJob& a, const RunJob& b) {
    return a.kernel == b.kernel && a.own == b.own && a.input == b.input && a.mask.values == b.mask.values &&
           a.mask.width == b.mask.width && a.block == b.block && a.whatIf == b.whatIf &&
           a.eventBudget == b.eventBudget && a.backend == b.backend && a.drop == b.drop && a.schedule == b.schedule &&
           a.seed == b.seed;
}

bool sameBlocks(const std::vector<Dim3>& a, const std::vector<Dim3>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z)
            return false;
    return true;
}

// "block (1,0)", "block 3"
std::string blockName(const Trace& trace, Dim3 b) {
    if (trace.dims() == 1)
        return "block " + std::to_string(b.x);
    return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + ")";
}

}  // namespace

TraceSession::TraceSession(TraceSessionInputs inputs, TraceSessionCallbacks callbacks)
    : m_inputs(std::move(inputs)), m_callbacks(std::move(callbacks)) {
    for (auto& slot : m_runs) {
        slot = std::make_unique<TracedRun>();
        TracedRun* run = slot.get();
        run->runner = std::make_unique<Runner>();
        // On the runner's thread: the replay index of every traced block is
        // built here, never on the UI thread.
        run->runner->setOnPublish([run, wake = m_callbacks.wake] {
            std::shared_ptr<const RunOutcome> outcome = run->runner->latest();
            std::shared_ptr<const TraceModel> model;
            std::shared_ptr<const MemoryFigures> memory;
            if (outcome && outcome->result && outcome->result->trace) {
                model = std::make_shared<const TraceModel>(*outcome->result->trace);
                memory = std::make_shared<const MemoryFigures>(memoryFigures(model->trace()));
            }
            {
                std::lock_guard lock(run->mutex);
                run->built = std::move(model);
                run->builtMemory = std::move(memory);
                run->builtOutcome = std::move(outcome);
            }
            if (wake)
                wake();
        });
    }
    const ViewState& view = m_inputs.view;
    m_selected = view.selectedOutput;
    m_pendingStep = view.step;
    m_pendingProblem = view.problem;
    m_pendingRequest = view.request;
    if (view.granularity)
        m_granularity = *view.granularity;
    if (m_pendingRequest)
        m_granularity = Granularity::WarpRequest;
    m_lastTime = base::seconds();
}

void TraceSession::answerArrived() {
    for (auto& run : m_runs)
        run->runner->answerArrived();
}

void TraceSession::runPending() {
    for (auto& run : m_runs)
        run->runner->runPending();
}

TraceSession::~TraceSession() {
    // The runners first: their threads call back into the runs.
    for (auto& run : m_runs)
        run->runner.reset();
}

bool TraceSession::busy() const {
    for (int i = 0; i < runCount(); ++i)
        if (m_runs[static_cast<std::size_t>(i)]->runner->progress().busy)
            return true;
    return false;
}

bool TraceSession::settled() const {
    for (int i = 0; i < runCount(); ++i) {
        const TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
        if (run.submittedId == 0 || run.runner->progress().busy)
            return false;
        if (!run.outcome || run.outcome->id != run.submittedId)
            return false;
    }
    return true;
}

std::string TraceSession::status() const {
    for (int i = 0; i < runCount(); ++i) {
        const TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
        if (run.runner->progress().busy)
            return "tracing " + run.kernel + "...";
        if (run.outcome && run.outcome->inputError)
            return "No trace: the input could not be read (the Set-up panel says why).";
        if (run.problem) {
            if (run.submitted && exceedsTraceBudget(*run.problem, run.submitted->eventBudget))
                return run.kernel + ": this block alone would record more than " +
                       std::to_string(run.submitted->eventBudget) +
                       " events (the trace budget); choose a smaller block edge, radius or input";
            return run.kernel + ": " + inAppWords(run.problem->message);
        }
    }
    return {};
}

std::string TraceSession::note() const {
    if (m_file)
        return m_fileNote;
    for (int i = 0; i < runCount(); ++i) {
        const TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
        if (run.overBudget)
            return "Only the selected block is traced: every block of " + run.kernel + " together would record " +
                   "more than " + std::to_string(run.overBudget->eventBudget) + " events (the trace budget).";
    }
    return {};
}

// [SECTION] Once a frame

void TraceSession::update() {
    if (const std::shared_ptr<const Trace>& file = m_inputs.openedTraceFile) {
        m_compareOn = false;  // a file has no second kernel to compare with
        showFile(file);
        resolveSelection(0);
    } else {
        if (m_file)
            leaveFile();
        const std::string compare = m_inputs.view.compareKernel;
        const std::shared_ptr<const own::OwnKernel> own = ownKernel();
        m_compareOn = !compare.empty() && setupKernel(compare, own ? own->info : nullptr) != nullptr;
        submitIfNeeded(0, m_inputs.setup.kernel);
        if (m_compareOn)
            submitIfNeeded(1, compare);
        for (int i = 0; i < runCount(); ++i) {
            takeBuilt(i);
            resolveSelection(i);
        }
        // A step asked for while the trace shown is already the set-up's own
        // (a lesson step that changes only the selection or the step).
        TracedRun& first = *m_runs[0];
        if (m_pendingStep && first.replay && first.outcome && first.outcome->id == first.submittedId &&
            !first.runner->progress().busy) {
            first.cursor = stepCursor(*first.replay, *m_pendingStep);
            m_pendingStep.reset();
            if (m_compareOn)
                alignSecondRun();
        }
    }

    const double now = base::seconds();
    const double dt = std::min(now - m_lastTime, 0.25);
    m_lastTime = now;
    if (m_playing && replay()) {
        m_playCarry += dt * m_speed;
        while (m_playCarry >= 1.0) {
            m_playCarry -= 1.0;
            stepForward();
        }
        if (cursor() >= replay()->size())
            m_playing = false;
    } else {
        m_playCarry = 0.0;
    }
}

void TraceSession::submitIfNeeded(int i, const std::string& kernel) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    const SetupState& setup = m_inputs.setup;
    const SetupCheck& check = m_inputs.check;
    if (!check.runnable())
        return;
    const std::shared_ptr<const own::OwnKernel> own = ownKernel();
    const KernelInfo* ownInfo = own ? own->info : nullptr;
    const KernelInfo* info = setupKernel(kernel, ownInfo);
    if (!info)
        return;

    RunJob job;
    job.kernel = kernel;
    if (isOwnKernel(kernel)) {
        job.own = own;
        job.kernel = ownKernelName(*info);
    }
    job.dims = info->dims;
    job.input = setup.input;
    job.mask = *check.mask;
    job.block = setup.block;
    // With the GPU chosen, the instrumented CUDA kernels record the trace,
    // and with it which SM ran each block and when (the hardware panel); the
    // CPU executor records the same events, and runs what-if launches.
    job.backend = setup.backend == Backend::Cuda && !setup.whatIf ? Backend::Cuda : Backend::Cpu;
    job.whatIf = setup.whatIf;
    job.trace = true;
    job.eventBudget = m_inputs.eventBudget;
    // The set-up's barriers dropped (the lines are its kernel's: the kernel
    // compared with keeps all of its own), and the warp order.
    if (kernel == setup.kernel)
        job.drop = barrierDropOf(setup, ownInfo);
    job.schedule = setup.schedule;
    const auto shape = m_inputs.runner.knownShape(setup.input, info->dims);
    const long long cells = shape ? static_cast<long long>(shape->width) * shape->height : kTraceWholeCells + 1;
    if (run.overBudget && !sameLaunch(*run.overBudget, job))
        run.overBudget.reset();  // a new set-up: try the whole launch again
    if (cells > kTraceWholeCells || run.overBudget) {
        // One block: the selected output's, once a plan is known.
        Dim3 block{0, 0, 0};
        if (run.model && m_selected) {
            const Trace& trace = run.model->trace();
            if (trace.plan.kernel != KernelId::Own) {
                if (auto b = blockOfOutput(trace.plan, (*m_selected)[0], (*m_selected)[1]))
                    block = *b;
            } else if (auto b = traceBlockOfOutput(*run.model, (*m_selected)[0], (*m_selected)[1])) {
                block = run.model->block(*b).block();
            }
        }
        job.traceBlocks = {block};
    }
    // A whole launch is checked for problems, wrong outputs included; one
    // block is checked on its own when it comes in (Runner::execute).
    job.check = job.traceBlocks.empty();
    if (run.submitted && sameLaunch(*run.submitted, job) && sameBlocks(run.submitted->traceBlocks, job.traceBlocks))
        return;
    run.kernel = job.kernel;
    run.submitted = job;
    run.submittedId = run.runner->submit(std::move(job));
}

void TraceSession::takeBuilt(int i) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    std::shared_ptr<const TraceModel> built;
    std::shared_ptr<const MemoryFigures> memory;
    std::shared_ptr<const RunOutcome> outcome;
    {
        std::lock_guard lock(run.mutex);
        if (!run.builtOutcome)
            return;
        built = std::move(run.built);
        memory = std::move(run.builtMemory);
        outcome = std::move(run.builtOutcome);
    }
    if (outcome->id != run.submittedId)
        return;  // superseded
    if (outcome->runError && outcome->job.traceBlocks.empty() &&
        exceedsTraceBudget(*outcome->runError, outcome->job.eventBudget)) {
        // Too many events for the whole launch: the selected block alone,
        // submitted at the next update. The last model stays until then.
        run.overBudget = outcome->job;
        run.submitted.reset();
        return;
    }
    run.problem = outcome->runError ? outcome->runError : outcome->inputError;
    run.memory = std::move(memory);
    install(i, std::move(built), std::move(outcome));
}

void TraceSession::install(int i, std::shared_ptr<const TraceModel> built, std::shared_ptr<const RunOutcome> outcome) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    run.outcome = std::move(outcome);
    const bool sameKernel = run.model && built && run.model->trace().kernel == built->trace().kernel;
    const Cursor keep = run.cursor;
    run.model = std::move(built);
    run.replay = nullptr;
    resolveSelection(i);
    if (run.replay) {
        if (m_pendingStep && i == 0) {
            // --step S: after S lockstep steps.
            run.cursor = stepCursor(*run.replay, *m_pendingStep);
        } else {
            run.cursor = sameKernel ? std::min(keep, run.replay->size()) : 0;
        }
        // Compare mode: the second run stands where the first stands, in
        // steps, whichever trace came in first.
        if (i == 1 || (m_compareOn && m_runs[1]->replay))
            alignSecondRun();
    }
    if (i == 0) {
        m_pendingStep.reset();
        if (m_pendingProblem && run.replay) {
            const ProblemSet* set = problems();
            if (set && *m_pendingProblem < set->items.size())
                selectProblem(*m_pendingProblem);
            else
                std::fprintf(stderr, "tilescope: --problem %zu: the trace has %zu problem%s listed\n",
                             *m_pendingProblem, set ? set->items.size() : 0, set && set->items.size() == 1 ? "" : "s");
        }
        m_pendingProblem.reset();
        if (m_pendingRequest && run.replay) {
            // --request K: from the start, K + 1 steps by warp request.
            run.cursor = 0;
            run.request.reset();
            for (long long k = 0; k <= *m_pendingRequest; ++k)
                stepRun(0, true);
            m_pendingRequest.reset();
        }
    }
}

void TraceSession::alignSecondRun() {
    TracedRun& second = *m_runs[1];
    const BlockReplay* first = replay(0);
    if (!first || !second.replay)
        return;
    const Cursor c = cursor(0);
    const std::uint32_t steps = c == 0 ? 0 : (c >= first->size() ? first->stepCount() : first->stepAt(c));
    const std::uint32_t s = std::min(steps, second.replay->stepCount());
    second.cursor = s == 0 ? 0 : second.replay->step(s - 1).end;
}

// The outcome id a trace file stands under (no runner ever hands it out).
constexpr std::uint64_t kFileOutcome = ~std::uint64_t{0};

void TraceSession::showFile(const std::shared_ptr<const Trace>& file) {
    if (m_file == file)
        return;
    m_file = file;
    TracedRun& run = *m_runs[0];
    run.runner->drop();  // the set-up's tracing, if any, is moot
    const Trace& trace = *file;
    const TracedArrays arrays = arraysOfTrace(trace);
    auto outcome = std::make_shared<RunOutcome>();
    outcome->id = kFileOutcome;
    outcome->job.kernel = trace.kernel;
    outcome->job.dims = trace.dims();
    outcome->job.mask = arrays.mask;
    outcome->job.block = static_cast<int>(trace.plan.block.x);
    outcome->job.trace = true;
    outcome->input = std::make_shared<const Image>(arrays.input);
    RunResult result;
    result.output = arrays.output;
    result.backend = trace.backend == "cuda" ? Backend::Cuda : Backend::Cpu;
    result.backendReason = "a trace file";
    result.plan = trace.plan;
    outcome->result = std::move(result);
    // Races and accesses outside the arrays, from the file's events alone
    // (its outputs are not compared with a reference: N may be known only in part).
    outcome->problems = std::make_shared<const ProblemSet>(detectProblems(trace));

    const std::size_t cells = arrays.inputRead.size();
    m_fileNote = "Trace file " + m_inputs.openedTracePath.filename().string() + " (" +
                 trace.kernel + ", recorded on " + (trace.backend == "cuda" ? "the GPU" : "the CPU executor") + ", " +
                 std::to_string(trace.blocks.size()) + " of " + std::to_string(trace.plan.grid.count()) + " blocks" +
                 (arrays.inputCellsRead() < cells ? "; N is known where they read it" : "") +
                 "): the set-up does not change it. File > Close the trace file traces the set-up again.";
    run.kernel = trace.kernel;
    run.submitted.reset();
    run.submittedId = kFileOutcome;
    run.overBudget.reset();
    run.problem.reset();
    auto model = std::make_shared<const TraceModel>(trace);
    run.memory = std::make_shared<const MemoryFigures>(memoryFigures(model->trace()));
    install(0, std::move(model), std::move(outcome));
}

void TraceSession::leaveFile() {
    m_file.reset();
    m_fileNote.clear();
    TracedRun& run = *m_runs[0];
    run.model.reset();
    run.memory.reset();
    run.outcome.reset();
    run.replay = nullptr;
    run.cursor = 0;
    run.submitted.reset();  // the set-up is traced again at once
    run.submittedId = 0;
}

void TraceSession::resolveSelection(int i) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    if (!run.model) {
        run.replay = nullptr;
        return;
    }
    const Trace& trace = run.model->trace();
    const ArrayInfo& p = trace.arrays[kArrayOutput];
    if (!m_selected) {
        // The corner block: ghosts, halo and switched-off threads all at once.
        m_selected = std::array<int, 2>{0, 0};
    }
    int x = std::clamp((*m_selected)[0], 0, std::max(p.width - 1, 0));
    int y = std::clamp((*m_selected)[1], 0, std::max(p.height - 1, 0));
    if (i == 0)
        m_selected = std::array<int, 2>{x, y};
    const BlockReplay* replay = nullptr;
    if (const auto b = traceBlockOfOutput(*run.model, x, y))
        replay = &run.model->block(*b);
    if (replay != run.replay) {
        run.replay = replay;
        run.cursor = replay ? std::min(run.cursor, replay->size()) : 0;
    }
    if (!replay)
        return;
    // A thread chosen for this selection (a click, a problem) stays chosen.
    const std::array<int, 2> at{x, y};
    if (run.threadFor == at && run.threadReplay == replay)
        return;
    run.threadFor = at;
    run.threadReplay = replay;
    // The thread that writes P(x, y).
    const int index = p.indexOf(x, y);
    for (unsigned t = 0; t < replay->threadCount(); ++t)
        if (replay->thread(t).output == index) {
            run.thread = t;
            return;
        }
    run.thread = std::min(run.thread, replay->threadCount() ? replay->threadCount() - 1 : 0u);
}

// [SECTION] Selection and stepping

Cursor TraceSession::stepCursor(const BlockReplay& replay, long long step) {
    // After `step` lockstep steps; -1 (or past the last): the end.
    const long long s = step < 0 ? replay.stepCount() : std::min<long long>(step, replay.stepCount());
    return s == 0 ? 0 : replay.step(static_cast<std::uint32_t>(s - 1)).end;
}

void TraceSession::requestView(std::optional<std::array<int, 2>> select, long long step) {
    if (select)
        selectOutput((*select)[0], (*select)[1]);
    m_pendingStep = step;
    m_playing = false;
}

void TraceSession::selectOutput(int x, int y) {
    m_selected = std::array<int, 2>{x, y};
    m_inputs.view.selectedOutput = m_selected;
    for (int i = 0; i < runCount(); ++i)
        resolveSelection(i);
}

void TraceSession::selectThread(int i, unsigned t) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    if (!run.replay || t >= run.replay->threadCount())
        return;
    run.thread = t;
    // Its output element becomes the selection, so that the other views follow.
    const int output = run.replay->thread(t).output;
    if (output >= 0) {
        const auto c = run.model->trace().arrays[kArrayOutput].coords(output);
        m_selected = std::array<int, 2>{c.x, c.y};
        m_inputs.view.selectedOutput = m_selected;
        if (m_compareOn)
            resolveSelection(1 - i);
    }
    run.threadFor = m_selected;
    run.threadReplay = run.replay;
}

void TraceSession::selectBlockThread(int i, std::size_t block, unsigned thread) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    if (!run.model || block >= run.model->blockCount())
        return;
    const BlockReplay& replay = run.model->block(block);
    if (thread >= replay.threadCount())
        return;
    // An output element of the block selects it: the thread's own, or (for a
    // thread that writes none) the one nearest its place in the block.
    int x = 0, y = 0;
    if (const int output = replay.thread(thread).output; output >= 0) {
        const auto c = run.model->trace().arrays[kArrayOutput].coords(output);
        x = c.x;
        y = c.y;
    } else {
        const Rect& r = replay.geometry().computed;
        if (r.empty())
            return;
        const Dim3 t = replay.threadCoords(thread);
        x = std::clamp(r.x0 + static_cast<int>(t.x), r.x0, r.x1 - 1);
        y = std::clamp(r.y0 + static_cast<int>(t.y), r.y0, r.y1 - 1);
    }
    m_selected = std::array<int, 2>{x, y};
    m_inputs.view.selectedOutput = m_selected;
    for (int k = 0; k < runCount(); ++k)
        resolveSelection(k);
    if (run.replay != &replay)
        return;  // another block computes that element (not expected): leave the selection as it resolved
    run.thread = thread;
}

// [SECTION] Problems

const ProblemSet* TraceSession::problems() const {
    const TracedRun& run = *m_runs[0];
    return run.model && run.outcome ? run.outcome->problems.get() : nullptr;
}

bool TraceSession::problemsOfWholeLaunch() const {
    const TracedRun& run = *m_runs[0];
    return run.model && run.outcome && run.outcome->problems && run.outcome->problemsOfWholeLaunch;
}

std::string TraceSession::problemsScope() const {
    const TracedRun& run = *m_runs[0];
    if (!problems() || problemsOfWholeLaunch())
        return {};
    const Trace& trace = run.model->trace();
    if (m_file)
        return "The trace file's " + std::to_string(trace.blocks.size()) + " of " +
               std::to_string(trace.plan.grid.count()) +
               " blocks were checked; its outputs are not compared with a reference.";
    std::string blocks;
    for (const BlockEvents& b : trace.blocks)
        blocks += (blocks.empty() ? "" : ", ") + blockName(trace, b.block);
    return "Only " + blocks +
           " was checked (the whole launch is too large to trace): races between blocks and "
           "wrong outputs are not looked for here.";
}

std::optional<std::size_t> TraceSession::selectedProblemIndex() const {
    const ProblemSet* set = problems();
    if (!m_problem || !set || set != m_problemSet.get() || *m_problem >= set->items.size())
        return std::nullopt;
    return m_problem;
}

const ProblemReport* TraceSession::selectedProblem() const {
    const auto index = selectedProblemIndex();
    return index ? &problems()->items[*index] : nullptr;
}

void TraceSession::selectProblem(std::size_t index) {
    TracedRun& run = *m_runs[0];
    const ProblemSet* set = problems();
    if (!set || index >= set->items.size())
        return;
    const ProblemReport& p = set->items[index];
    m_problem = index;
    m_problemSet = run.outcome->problems;
    m_playing = false;
    const ProblemAccess& at = p.at();
    if (!at.valid() || at.block >= run.model->blockCount()) {
        if (p.kind == ProblemKind::WrongResult)
            selectOutput(p.x, p.y);  // no thread wrote it: the element itself
        return;
    }
    selectBlockThread(0, at.block, at.thread);
    if (!run.replay || run.replay->blockIndex() != at.block)
        return;
    // Just after the later of the two accesses: both have happened.
    Cursor c = run.replay->positionOf(at.event) + 1;
    if (p.first.valid() && p.first.block == at.block)
        c = std::max(c, run.replay->positionOf(p.first.event) + 1);
    run.cursor = std::min(c, run.replay->size());
    if (m_compareOn)
        alignSecondRun();
}

void TraceSession::setCursor(int i, Cursor c) {
    TracedRun& run = *m_runs[static_cast<std::size_t>(i)];
    if (run.replay)
        run.cursor = std::min(c, run.replay->size());
}

// [SECTION] The memory the hardware moves

const BlockRequests* TraceSession::requests(int i) {
    TracedRun& r = run(i);
    if (!r.replay || !r.model)
        return nullptr;
    if (!r.requests || &r.requests->replay() != r.replay || r.requestsModel != r.model) {
        // Once per block shown: the model is kept with them, so the replay they point into lives as long.
        r.requests = std::make_unique<BlockRequests>(*r.replay);
        r.requestsModel = r.model;
        r.request.reset();
    }
    return r.requests.get();
}

std::optional<std::uint32_t> TraceSession::currentRequest(int i,
                                                          const std::function<bool(const WarpRequest&)>& wanted) {
    const BlockRequests* all = requests(i);
    if (!all)
        return std::nullopt;
    const TracedRun& r = run(i);
    if (r.cursor == 0)
        return std::nullopt;
    const unsigned warp = r.thread / kWarpSize;
    // Only this barrier phase's: past a barrier, the tile's loads are history.
    const std::uint32_t phase = r.replay->step(r.replay->stepAt(r.cursor - 1)).phase;
    auto ofPhase = [&](const WarpRequest& q) { return q.phase == phase && (!wanted || wanted(q)); };
    if (r.request && *r.request < all->all().size() && all->shownAt(*r.request) == r.cursor) {
        const WarpRequest& q = all->request(*r.request);
        if (q.warp == warp && ofPhase(q))
            return r.request;
        if (q.warp == warp) {
            // Another kind than asked for: the latest of that kind before the one stepped to.
            const auto& list = all->ofWarp(warp);
            auto at = std::find(list.begin(), list.end(), *r.request);
            for (; at != list.begin();) {
                --at;
                if (ofPhase(all->request(*at)))
                    return *at;
            }
            return std::nullopt;
        }
    }
    return all->latest(warp, r.cursor, ofPhase);
}

std::vector<Cursor> TraceSession::cursorPositions(const BlockReplay& replay, Granularity by) {
    std::vector<Cursor> positions{0};
    for (Cursor c = 0; c < replay.size();)
        positions.push_back(c = replay.next(c, by));
    return positions;
}

std::vector<Cursor> TraceSession::cursorPositions(int i, Granularity by) {
    TracedRun& r = run(i);
    if (!r.replay)
        return {0};
    if (by != Granularity::WarpRequest)
        return cursorPositions(*r.replay, by);
    std::vector<Cursor> positions{0};
    const BlockRequests* all = requests(i);
    const unsigned warp = r.thread / kWarpSize;
    for (std::uint32_t q : all->ofWarp(warp))
        positions.push_back(all->shownAt(q));
    if (positions.back() != r.replay->size())
        positions.push_back(r.replay->size());
    return positions;
}

void TraceSession::stepRun(int i, bool forward) {
    TracedRun& r = run(i);
    if (!r.replay)
        return;
    if (m_granularity != Granularity::WarpRequest) {
        r.cursor = forward ? r.replay->next(r.cursor, m_granularity) : r.replay->previous(r.cursor, m_granularity);
        return;
    }
    const BlockRequests* all = requests(i);
    const unsigned warp = r.thread / kWarpSize;
    const RequestStep to =
        forward ? nextRequest(*all, warp, r.cursor, r.request) : previousRequest(*all, warp, r.cursor, r.request);
    r.cursor = to.cursor;
    r.request = to.request;
}

// Every run moves by the same amount (steps together in compare mode).
void TraceSession::stepForward() {
    for (int i = 0; i < runCount(); ++i)
        stepRun(i, true);
}

void TraceSession::stepBack() {
    for (int i = 0; i < runCount(); ++i)
        stepRun(i, false);
}

namespace {
std::uint32_t phaseOf(const BlockReplay& replay, Cursor c) {
    if (replay.size() == 0)
        return 0;
    if (c >= replay.size())
        return replay.phaseCount();
    return replay.step(replay.stepAt(c)).phase;
}
}  // namespace

void TraceSession::nextPhase() {
    for (int i = 0; i < runCount(); ++i)
        if (TracedRun& r = run(i); r.replay) {
            const std::uint32_t phase = phaseOf(*r.replay, r.cursor);
            r.cursor = phase + 1 < r.replay->phaseCount() ? r.replay->phaseBegin(phase + 1) : r.replay->size();
        }
}

void TraceSession::previousPhase() {
    for (int i = 0; i < runCount(); ++i)
        if (TracedRun& r = run(i); r.replay) {
            const std::uint32_t phase = phaseOf(*r.replay, r.cursor);
            const Cursor begin = r.replay->phaseBegin(std::min(phase, r.replay->phaseCount() - 1));
            r.cursor = begin < r.cursor ? begin : (phase > 0 ? r.replay->phaseBegin(phase - 1) : 0);
        }
}

void TraceSession::home() {
    for (int i = 0; i < runCount(); ++i)
        run(i).cursor = 0;
}

void TraceSession::end() {
    for (int i = 0; i < runCount(); ++i)
        if (TracedRun& r = run(i); r.replay)
            r.cursor = r.replay->size();
}

void TraceSession::nextOfThread() {
    for (int i = 0; i < runCount(); ++i)
        if (TracedRun& r = run(i); r.replay)
            if (auto c = r.replay->nextOfThread(r.cursor, r.thread))
                r.cursor = *c;
}

}  // namespace tilescope::ui
