#include "grade/grader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "api/runner.hpp"
#include "core/kernel_catalogue.hpp"
#include "exec/backend.hpp"
#include "own/compile_cache.hpp"
#include "own/own_kernel.hpp"
#include "trace/classify.hpp"
#include "trace/counters.hpp"
#include "trace/problems.hpp"

namespace tilescope::grade {

namespace {

constexpr std::array<Schedule, 3> kSchedules{Schedule::InOrder, Schedule::Reverse, Schedule::Random};

std::string number(double v) {
    char s[32];
    std::snprintf(s, sizeof s, "%.2f", v);
    std::string t = s;
    while (!t.empty() && t.back() == '0')
        t.pop_back();
    if (!t.empty() && t.back() == '.')
        t.pop_back();
    return t;
}

// Loads of N from global memory per output element written, over the traced grid.
double loadsPerOutput(const Trace& trace) {
    const Counters c = countTrace(trace).totals;
    return c.globalStores == 0 ? -1.0 : static_cast<double>(c.inputLoads) / static_cast<double>(c.globalStores);
}

// What the event of an access does, from the trace: a store of a halo or an
// interior cell into shared memory, a read of the tile, the output's store,
// a load from global memory, a barrier. classify.hpp's block geometry says
// which cells are halo (the UI's halo and ghost cells).
std::string accessRole(const Trace& t, const ProblemAccess& a) {
    if (!a.valid() || a.block >= t.blocks.size())
        return "none";
    const BlockEvents& b = t.blocks[a.block];
    if (a.event >= b.events.size())
        return "other";
    const Event& e = b.events[a.event];
    const Space space = t.space(e);
    if (e.op == Op::Barrier)
        return "barrier";
    if (isStore(e.op) && space == Space::Shared) {
        // The thread's events: a block's are grouped by thread.
        std::size_t begin = a.event, end = a.event + 1;
        while (begin > 0 && b.events[begin - 1].thread == e.thread)
            --begin;
        while (end < b.events.size() && b.events[end].thread == e.thread)
            ++end;
        const std::span<const Event> thread(b.events.data() + begin, end - begin);
        const long long source = storeSource(thread, a.event - begin);
        if (source < 0)
            return "halo load";  // a ghost zero: a cell outside the array
        const ArrayInfo::Coords cell = t.arrays[kArrayInput].coords(thread[static_cast<std::size_t>(source)].index);
        const BlockGeometry g = blockGeometry(t.plan, b.block);
        return g.classify(cell.x, cell.y) == CellKind::Internal ? "tile load" : "halo load";
    }
    if (isLoad(e.op) && space == Space::Shared)
        return "tile use";
    if (isStore(e.op) && e.array == kArrayOutput)
        return "output store";
    if (isLoad(e.op) && space == Space::Global)
        return "global load";
    return "other";
}

std::string roleText(const std::string& role) {
    if (role == "halo load")
        return "the halo load";
    if (role == "tile load")
        return "the tile load";
    if (role == "tile use")
        return "the tile's use";
    if (role == "output store")
        return "the output's store";
    if (role == "global load")
        return "a load from global memory";
    if (role == "barrier")
        return "a barrier";
    return "a line of no single role";
}

std::string hint(ProblemKind k) {
    switch (k) {
        case ProblemKind::SharedRace:
            return "look at the __syncthreads() between the stores into the shared tile and the reads of it, and at "
                   "which thread stores which element (each element should be stored by one thread)";
        case ProblemKind::GlobalRace:
            return "look at which thread reads which element of N and P: one thread stores an element another reads";
        case ProblemKind::DuplicateStore:
            return "look at the output index: two threads compute the same element of P";
        case ProblemKind::OutOfBounds:
            return "look at the test that keeps the index inside the array (ghost cells are 0, not loaded)";
        case ProblemKind::UninitialisedRead:
            return "look at whether every element of the tile is stored (ghost cells as 0.0f) before the barrier";
        case ProblemKind::BarrierMismatch:
            return "look at the __syncthreads() inside an if: every thread of the block must reach it";
        case ProblemKind::WrongResult:
            return "look at the mask index (is the mask flipped or transposed?), the ghost-cell test and the tile's "
                   "offsets";
    }
    return "";
}

bool isRace(ProblemKind k) {
    return k == ProblemKind::SharedRace || k == ProblemKind::GlobalRace || k == ProblemKind::DuplicateStore ||
           k == ProblemKind::BarrierMismatch;
}

bool required(ProblemKind k, const Require& r) {
    switch (k) {
        case ProblemKind::SharedRace:
        case ProblemKind::GlobalRace:
        case ProblemKind::DuplicateStore:
        case ProblemKind::BarrierMismatch:
            return r.noRaces;
        case ProblemKind::OutOfBounds:
            return r.noOutOfBounds;
        case ProblemKind::UninitialisedRead:
            return r.noUninitialisedReads;
        case ProblemKind::WrongResult:
            return true;  // always
    }
    return true;
}

// A run that ended without a result: which of class.json's kinds it was.
std::string failureKind(const Error& e) {
    const std::string& m = e.message;
    if (m.find("time limit") != std::string::npos)
        return "time_limit";
    if (m.find("crashed") != std::string::npos)
        return "crashed";
    if (m.find("memory") != std::string::npos && m.find("limit") != std::string::npos)
        return "memory_limit";
    if (m.find("output") != std::string::npos && m.find("limit") != std::string::npos)
        return "output_limit";
    if (m.find("sandbox") != std::string::npos)
        return "sandbox";
    return "run_error";
}

struct Found {
    ProblemReport report;
    std::string line;  // problemLine
    Schedule schedule = Schedule::InOrder;
    bool outputRight = false;                // the run that found it gave the right output
    std::string first, second, barrier;      // roles
    std::optional<CaseResult::Place> place;  // where it happens (ProblemReport::at())
};

std::string orderKey(HazardOrder o) {
    return o == HazardOrder::None ? "none" : hazardOrderName(o);
}

struct Timing {
    double mine = 0, theirs = 0, ratio = 0;
    std::string book, device;
};

// A run of one of the book's kernels on a case.
RunRequest builtInRun(const KernelInfo& kernel, const Case& c, Backend backend) {
    RunRequest r;
    r.kernel = std::string(kernel.name);
    r.entry = &kernel;
    r.input = &c.input;
    r.mask = &c.mask;
    r.backend = backend;
    return r;
}

// The plain kernels on the GPU: the student's (compiled with NVRTC in the
// worker, the median of its repeats) against the book's tiled kernel at the
// same size and mask (the median of as many runs). The book's time depends on
// the size and the mask's width alone, so it is measured once per grading
// process for each, not again for every submission: the timings are taken one
// at a time, and a class of 200 would otherwise wait 200 times for it.
Result<Timing> timeRatio(const Spec& spec, const Case& c, const std::shared_ptr<const own::OwnKernel>& kernel,
                         const GradeOptions& options) {
    constexpr int kRepeats = 10;
    // One timing at a time: kernels of two submissions on the GPU at once would time each other.
    static std::mutex gpu;
    static std::map<std::string, double> bookMillis;  // "kernel WxHxC mask" -> median ms
    std::lock_guard<std::mutex> lock(gpu);
    RunRequest r;
    r.kernel = std::string(kernel->info->name);
    r.own = kernel;
    r.input = &c.input;
    r.mask = &c.mask;
    r.backend = Backend::Cuda;
    r.benchRepeats = kRepeats;
    r.timeLimitSeconds = options.timeLimitSeconds;
    r.cancel = options.cancel;
    auto mine = runKernel(r);
    if (!mine)
        return mine.error();
    if (mine->backend != Backend::Cuda)
        return badInput(mine->backendReason);
    const KernelInfo* book = findKernel(spec.dims == 1 ? "conv1d_tiled" : "conv2d_tiled_in");
    if (!book)
        return Error{ExitCode::Internal, "the book's tiled kernel is missing from the catalogue"};
    const std::string key = std::string(book->name) + " " + std::to_string(c.input.width) + "x" +
                            std::to_string(c.input.height) + "x" + std::to_string(c.input.channels) + " " +
                            std::to_string(c.mask.width) + "x" + std::to_string(c.mask.height);
    auto known = bookMillis.find(key);
    if (known == bookMillis.end()) {
        const RunRequest b = builtInRun(*book, c, Backend::Cuda);
        std::vector<double> times;
        for (int i = 0; i <= kRepeats; ++i) {  // the first is a warm-up
            auto run = runKernel(b);
            if (!run)
                return run.error();
            if (i > 0)
                times.push_back(run->millis);
        }
        std::sort(times.begin(), times.end());
        known = bookMillis.emplace(key, times[times.size() / 2]).first;
    }
    Timing t;
    t.mine = mine->millis;
    t.theirs = known->second;
    t.ratio = t.theirs > 0 ? t.mine / t.theirs : 0;
    t.book = std::string(book->name);
    t.device = mine->backendReason;
    return t;
}

CaseResult gradeCase(const Spec& spec, const Case& c, const Baseline& baseline,
                     const std::shared_ptr<const own::OwnKernel>& kernel, const GradeOptions& options) {
    CaseResult out;
    out.name = c.name;
    out.points = c.points;
    out.basicLoadsPerOutput = baseline.loadsPerOutput;
    std::map<ProblemKind, Found> firstOfKind;
    // Groups over every order: the same kind between the same lines once.
    std::map<std::tuple<int, int, int, int, unsigned, unsigned>, CaseProblem> groups;
    bool allRight = true;
    bool ran = false;
    std::string failure;
    for (Schedule schedule : kSchedules) {
        RunRequest r;
        r.kernel = std::string(kernel->info->name);
        r.own = kernel;
        r.input = &c.input;
        r.mask = &c.mask;
        r.block = c.block;
        r.backend = Backend::Cpu;
        r.check = true;
        r.schedule = schedule;
        r.seed = spec.seed;
        r.timeLimitSeconds = options.timeLimitSeconds;
        r.cancel = options.cancel;
        KernelPrintout printout;
        r.printout = &printout;
        auto result = runKernel(r);
        if (!result) {
            const Error& e = result.error();
            CaseProblem p;
            p.kind = failureKind(e);
            p.order = "none";
            p.pattern = p.kind;
            // "file.cu:31: the kernel crashed ...": the line, where the message names one.
            const std::string& m = e.message;
            const std::size_t colon = m.find(".cu:");
            if (colon != std::string::npos)
                p.firstLine = static_cast<unsigned>(std::atoi(m.c_str() + colon + 4));
            out.problems.push_back(p);
            failure = "the run with " + std::string(scheduleName(schedule)) + " warps did not finish: " + m;
            break;
        }
        ran = true;
        if (!result->trace || !result->problems) {
            failure = "the run returned no trace";
            break;
        }
        const Trace& t = *result->trace;
        const ProblemSet& problems = *result->problems;
        const bool right = problems.count(ProblemKind::WrongResult) == 0;
        allRight = allRight && right;
        if (schedule == Schedule::InOrder)
            out.loadsPerOutput = loadsPerOutput(t);
        for (const ProblemReport& p : problems.items) {
            const std::string first = accessRole(t, p.first);
            const std::string second = p.second.valid() ? accessRole(t, p.second) : "none";
            std::string barrier = "none";
            if (p.first.valid() && p.second.valid()) {
                const Event& a = t.blocks[p.first.block].events[p.first.event];
                const Event& b = t.blocks[p.second.block].events[p.second.event];
                barrier = p.first.block == p.second.block && a.phase != b.phase ? "barrier" : "no barrier";
            }
            if (!firstOfKind.count(p.kind)) {
                Found f{p, problemLine(t, p), schedule, right, first, second, barrier, std::nullopt};
                if (const ProblemAccess& at = p.at(); at.valid()) {
                    const Dim3 b = t.blocks[at.block].block;
                    const Dim3 th = t.threadCoords(at.thread);
                    f.place = CaseResult::Place{at.line, {b.x, b.y}, {th.x, th.y}, at.step, scheduleName(schedule)};
                }
                firstOfKind[p.kind] = std::move(f);
            }
        }
        for (const ProblemGroup& g : problems.groups) {
            auto key = std::make_tuple(static_cast<int>(g.kind), static_cast<int>(g.order), static_cast<int>(g.array),
                                       g.part, g.firstLine, g.secondLine);
            CaseProblem& p = groups[key];
            if (p.kind.empty()) {
                p.kind = problemKindKey(g.kind);
                p.order = orderKey(g.order);
                p.array = g.array < kArrayCount ? groupArrayName(t, g) : "";
                p.firstLine = g.firstLine;
                p.secondLine = g.secondLine;
                // Where its first problem is: the first report of the same kind and lines.
                for (const ProblemReport& r2 : problems.items) {
                    const unsigned l1 = r2.first.valid() ? r2.first.line : 0;
                    const unsigned l2 = r2.second.valid() ? r2.second.line : 0;
                    if (r2.kind != g.kind || r2.order != g.order || r2.part != g.part)
                        continue;
                    if (g.kind != ProblemKind::WrongResult &&
                        (l1 != g.firstLine || (g.secondLine && l2 != g.secondLine)))
                        continue;
                    const ProblemAccess& at = r2.at();
                    if (at.valid()) {
                        const Dim3 b = t.blocks[at.block].block;
                        const Dim3 th = t.threadCoords(at.thread);
                        p.block = {b.x, b.y};
                        p.thread = {th.x, th.y};
                        p.line = at.line;
                        p.step = at.step;
                        p.schedule = scheduleName(schedule);
                        p.located = true;
                    }
                    const std::string r1 = accessRole(t, r2.first);
                    const std::string rr = r2.second.valid() ? accessRole(t, r2.second) : "none";
                    std::string barrier = "none";
                    if (r2.first.valid() && r2.second.valid()) {
                        const Event& a = t.blocks[r2.first.block].events[r2.first.event];
                        const Event& b = t.blocks[r2.second.block].events[r2.second.event];
                        barrier = r2.first.block == r2.second.block && a.phase != b.phase ? "barrier" : "no barrier";
                    }
                    p.pattern = p.kind + "/" + p.order + "/" + r1 + "/" + rr + "/" + barrier;
                    break;
                }
                if (p.pattern.empty())
                    p.pattern = p.kind + "/" + p.order + "/none/none/none";
            }
            p.count = std::max(p.count, g.count);
        }
    }
    for (auto& [key, p] : groups)
        out.problems.push_back(p);
    out.outputRight = ran && failure.empty() && allRight;

    std::vector<std::string> lines;
    if (!failure.empty()) {
        out.passed = false;
        out.explanation = failure;
        return out;
    }
    bool passed = allRight;
    for (const auto& [kind, f] : firstOfKind) {
        if (!required(kind, c.require))
            continue;
        passed = false;
        if (!out.first)
            out.first = f.place;
        std::string line = f.line + " (with " + scheduleName(f.schedule) + " warps); " + hint(kind) + ".";
        if (isRace(kind)) {
            out.raced = true;
            if (f.outputRight)
                line +=
                    " Your output is right on this run, but the race means the result depends on the order "
                    "the warps run in: another order, or a GPU, can give a different one.";
        }
        lines.push_back(line);
    }
    if (c.require.tiled) {
        const double mine = out.loadsPerOutput, basic = baseline.loadsPerOutput;
        if (mine < 0 || !(mine < basic)) {
            passed = false;
            lines.push_back("not tiled: " + (mine < 0 ? std::string("no output was written") : number(mine)) +
                            " loads of N from global memory per output, the basic kernel's " + number(basic) +
                            " at the same size and radius; load the input tile into shared memory once per block "
                            "and compute from it.");
            CaseProblem p;
            p.kind = "not_tiled";
            p.order = "none";
            p.pattern = "not_tiled";
            out.problems.push_back(p);
        } else {
            lines.push_back("tiled: " + number(mine) +
                            " loads of N from global memory per output, the basic "
                            "kernel's " +
                            number(basic) + ".");
        }
    }
    if (c.require.maxTimeRatio) {
        std::string reason;
        const double limit = *c.require.maxTimeRatio;
        if (!passed || !allRight) {
            // The GPU times one kernel at a time for the whole class: a case that failed already keeps its place
            // in that queue for the kernels whose time can still decide their grade.
            out.timeRatio = "max_time_ratio " + number(limit) + ": not timed (the case failed already)";
            lines.push_back(out.timeRatio + ".");
        } else if (!gpuAvailable(&reason)) {
            out.timeRatio = "max_time_ratio " + number(limit) + ": not checked (no GPU on this machine)";
            lines.push_back(out.timeRatio + ".");
        } else if (auto ratio = timeRatio(spec, c, kernel, options); !ratio) {
            passed = false;
            out.timeRatio = "max_time_ratio " + number(limit) +
                            ": the plain kernel did not run on the GPU: " + ratio.error().message;
            lines.push_back(out.timeRatio + ".");
        } else {
            const bool fast = ratio->ratio <= limit;
            passed = passed && fast;
            char text[256];
            std::snprintf(text, sizeof text,
                          "%s: on the GPU (%s) your kernel took %.4f ms, the book's %s %.4f ms: %.2f times its "
                          "time, %s %s.",
                          fast ? "fast enough" : "too slow", ratio->device.c_str(), ratio->mine, ratio->book.c_str(),
                          ratio->theirs, ratio->ratio, fast ? "within" : "over", number(limit).c_str());
            out.timeRatio = text;
            lines.push_back(text);
            if (!fast) {
                CaseProblem p;
                p.kind = "too_slow";
                p.order = "none";
                p.pattern = "too_slow";
                out.problems.push_back(p);
            }
        }
    }
    if (passed && !allRight)
        passed = false;
    if (passed)
        lines.insert(lines.begin(),
                     "passed: the output matches the float64 reference with in-order, reverse and "
                     "random warp orders, and every requirement holds.");
    else if (allRight && !firstOfKind.empty())
        lines.insert(lines.begin(), "failed: the output matches the reference, but a requirement does not hold:");
    else if (!allRight)
        lines.insert(lines.begin(), "failed: the output differs from the float64 reference:");
    else
        lines.insert(lines.begin(), "failed:");
    out.passed = passed;
    out.score = passed ? c.points : 0;
    std::string text;
    for (const std::string& l : lines)
        text += (text.empty() ? "" : "\n") + l;
    out.explanation = text;
    return out;
}

}  // namespace

Result<std::vector<Baseline>> measureBaselines(const Spec& spec) {
    std::vector<Baseline> out;
    const KernelInfo* basic = findKernel(spec.dims == 1 ? "conv1d_basic" : "conv2d_basic");
    if (!basic)
        return Error{ExitCode::Internal, "the basic kernel is missing from the catalogue"};
    for (const Case& c : spec.cases) {
        RunRequest r = builtInRun(*basic, c, Backend::Cpu);
        r.trace = true;
        auto result = runKernel(r);
        if (!result || !result->trace)
            return badInput(spec.path.string() + ":" + std::to_string(c.line) + ": case '" + c.name +
                            "' cannot run: " + (result ? "no trace" : result.error().message));
        out.push_back(Baseline{loadsPerOutput(*result->trace)});
    }
    return out;
}

SubmissionResult gradeSubmission(const Spec& spec, const std::vector<Baseline>& baselines, const Submission& submission,
                                 const GradeOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    SubmissionResult out;
    out.submission = submission;
    out.maxScore = spec.maxScore();
    auto finish = [&]() -> SubmissionResult {
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return out;
    };
    auto zeroCases = [&](const std::string& why) {
        for (const Case& c : spec.cases) {
            CaseResult r;
            r.name = c.name;
            r.points = c.points;
            r.explanation = why;
            out.cases.push_back(r);
        }
    };
    if (!submission.refused.empty()) {
        out.status = "refused";
        out.message = submission.refused;
        out.reason = submission.refused;
        zeroCases("not graded: " + submission.refused);
        return finish();
    }
    own::CompileOptions compile;
    compile.cancel = options.cancel;
    compile.sandbox = options.sandbox;
    compile.cache = own::userCompileCache();
    auto kernel = own::compileKernelFile(submission.file.string(), compile);
    if (!kernel) {
        out.status = "compile_error";
        out.message = kernel.error().message;
        out.reason = "does not compile: " + out.message;
        zeroCases("does not compile: " + out.message);
        return finish();
    }
    if ((*kernel)->translation.dims != spec.dims) {
        out.status = "refused";
        out.message = "the assignment is " + std::to_string(spec.dims) + "D, and this kernel file's launch() is " +
                      std::to_string((*kernel)->translation.dims) + "D (" +
                      (spec.dims == 1 ? "launch(N, M, P, r, width)" : "launch(N, M, P, r, width, height)") +
                      " is asked for)";
        out.reason = out.message;
        zeroCases("not graded: " + out.message);
        return finish();
    }
    int finished = 0;
    for (std::size_t i = 0; i < spec.cases.size(); ++i) {
        CaseResult r = gradeCase(spec, spec.cases[i], baselines[i], *kernel, options);
        out.score += r.score;
        bool ended = true;
        for (const CaseProblem& p : r.problems)
            if (p.kind == "crashed" || p.kind == "time_limit" || p.kind == "run_error" || p.kind == "memory_limit" ||
                p.kind == "output_limit" || p.kind == "sandbox")
                ended = false;
        finished += ended;
        if (!r.passed && !out.firstProblem && r.first)
            out.firstProblem = SubmissionResult::First{static_cast<int>(i), r.first->line, r.first->block,
                                                       r.first->thread,     r.first->step, r.first->schedule};
        if (!r.passed && !out.firstProblem) {
            for (const CaseProblem& p : r.problems) {
                if (!p.located)
                    continue;
                out.firstProblem =
                    SubmissionResult::First{static_cast<int>(i), p.line, p.block, p.thread, p.step, p.schedule};
                break;
            }
        }
        out.cases.push_back(std::move(r));
    }
    if (finished == 0 && !spec.cases.empty())
        out.status = "failed";
    int passed = 0;
    std::string firstFailure;
    for (const CaseResult& r : out.cases) {
        passed += r.passed;
        if (!r.passed && firstFailure.empty()) {
            const std::size_t nl = r.explanation.find('\n');
            std::string why = nl == std::string::npos ? r.explanation : r.explanation.substr(nl + 1);
            why = why.substr(0, why.find('\n'));
            // Short, for one line: up to the first "; " (the hint follows it).
            if (const std::size_t cut = why.find("; "); cut != std::string::npos)
                why = why.substr(0, cut);
            if (why.size() > 160)
                why = why.substr(0, 157) + "...";
            firstFailure = r.name + ": " + why;
        }
    }
    out.reason =
        passed == static_cast<int>(out.cases.size())
            ? "every case passed"
            : std::to_string(passed) + " of " + std::to_string(out.cases.size()) + " cases passed; " + firstFailure;
    return finish();
}

std::vector<SubmissionResult> gradeAll(const Spec& spec, const std::vector<Baseline>& baselines,
                                       const std::vector<Submission>& submissions, int jobs,
                                       const GradeOptions& options,
                                       const std::function<void(const SubmissionResult&)>& onGraded) {
    std::vector<SubmissionResult> results(submissions.size());
    std::atomic<std::size_t> next{0};
    std::mutex reporting;
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < submissions.size();) {
            results[i] = gradeSubmission(spec, baselines, submissions[i], options);
            if (onGraded) {
                std::lock_guard<std::mutex> lock(reporting);
                onGraded(results[i]);
            }
        }
    };
    const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), submissions.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    std::sort(results.begin(), results.end(), [](const SubmissionResult& a, const SubmissionResult& b) {
        return a.submission.student < b.submission.student;
    });
    return results;
}

std::string patternText(const std::string& key) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (true) {
        const std::size_t slash = key.find('/', begin);
        parts.push_back(key.substr(begin, slash - begin));
        if (slash == std::string::npos)
            break;
        begin = slash + 1;
    }
    std::string kind = parts[0];
    for (char& ch : kind)
        if (ch == '_')
            ch = ' ';
    if (parts.size() < 5) {
        if (parts[0] == "not_tiled")
            return "not tiled: as many loads of N from global memory as the basic kernel";
        if (parts[0] == "time_limit")
            return "stopped at the time limit (an endless loop?)";
        if (parts[0] == "run_error")
            return "the run ended with an error";
        return kind;
    }
    const std::string& order = parts[1];
    const std::string first = roleText(parts[2]), second = roleText(parts[3]);
    std::string s = kind;
    if (parts[3] == "none")
        return s + " at " + first;
    if (order == "read after write")
        s += ", read at " + second + ", written at " + first;
    else if (order == "write after read")
        s += ", written at " + second + ", read at " + first;
    else if (order == "write after write")
        s += ", written at " + first + " and again at " + second;
    else
        s += ", between " + first + " and " + second;
    if (parts[4] == "no barrier")
        s += ", no barrier between them";
    else if (parts[4] == "barrier")
        s += ", a barrier between them";
    return s;
}

}  // namespace tilescope::grade
