// trace_bench: how fast the CPU executor records a trace on one core, how
// compact the trace is in memory and on disk, how long the replay model takes
// to build, and what stepping and jumping cost on traces of about a million
// events. Prints numbers; asserts nothing (the tests check correctness).
//
//   trace_bench [repeats]     (default 3; the best of the repeats is shown)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "api/runner.hpp"
#include "bench_support.hpp"
#include "trace/problems.hpp"
#include "trace/trace_index.hpp"
#include "trace/trace_io.hpp"

using namespace tilescope;
using namespace tilescope::bench;

namespace {

Mask boxMask(int width) {
    return Mask::square(width, std::vector<float>(width * width, 1.0f / (width * width)));
}

struct Timed {
    double best = 1e30;
    Result<RunResult> result = Error{};
};

Timed runBest(const RunRequest& req, int repeats) {
    Timed t;
    for (int i = 0; i < repeats; ++i) {
        auto start = Clock::now();
        auto r = runKernel(req);
        const double s = seconds(start, Clock::now());
        if (!r) {
            std::fprintf(stderr, "trace_bench: %s\n", r.error().message.c_str());
            std::exit(1);
        }
        t.best = std::min(t.best, s);
        t.result = std::move(r);
    }
    return t;
}

// Calls f() n times and returns nanoseconds per call; `sink` keeps results alive.
template <class F>
double nsPerCall(std::size_t n, F&& f) {
    auto start = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
        f(i);
    return seconds(start, Clock::now()) * 1e9 / static_cast<double>(n);
}

volatile std::uint64_t sink = 0;

void recordBench(const char* label, const std::string& kernel, const Image& in, const Mask& mask, int block,
                 bool whatIf, int repeats) {
    RunRequest req;
    req.kernel = kernel;
    req.input = &in;
    req.mask = &mask;
    req.block = block;
    req.backend = Backend::Cpu;
    req.whatIf = whatIf;
    req.cpuWorkers = 1;  // one core
    const Timed plain = runBest(req, repeats);
    req.trace = true;
    const Timed traced = runBest(req, repeats);
    const Trace& trace = *traced.result->trace;
    const std::size_t events = trace.eventCount();

    auto start = Clock::now();
    TraceModel model(trace);
    const double build = seconds(start, Clock::now());
    std::size_t indexBytes = 0;
    for (std::size_t b = 0; b < model.blockCount(); ++b)
        indexBytes += model.block(b).memoryBytes();

    start = Clock::now();
    const std::string binary = encodeBinary(trace);
    const double encode = seconds(start, Clock::now());
    start = Clock::now();
    auto decoded = decodeBinary(binary);
    const double decode = seconds(start, Clock::now());
    if (!decoded)
        std::fprintf(stderr, "trace_bench: %s\n", decoded.error().message.c_str());

    const double e = static_cast<double>(events);
    std::printf("\n%s: %s, %dx%d, block %d, %zu blocks traced, %zu events (best of %d, one core)\n", label,
                kernel.c_str(), in.width, in.height, block, trace.blocks.size(), events, repeats);
    std::printf("  run without trace          %8.1f ms\n", plain.best * 1e3);
    std::printf("  run with trace             %8.1f ms   -> %.1f M events/s recorded (%.1f ns an event)\n",
                traced.best * 1e3, e / traced.best / 1e6, traced.best * 1e9 / e);
    std::printf("  bytes per event            %8.1f in memory (Event) + %.1f replay index\n", 16.0,
                static_cast<double>(indexBytes) / e);
    std::printf("                             %8.2f binary file (%.1f MB; encode %.1f ms, decode %.1f ms)\n",
                static_cast<double>(binary.size()) / e, static_cast<double>(binary.size()) / 1e6, encode * 1e3,
                decode * 1e3);
    std::printf("  build replay model         %8.1f ms   (%.1f ns an event)\n", build * 1e3, build * 1e9 / e);
}

void stepBench(const TraceModel& model) {
    // The largest block: the one a student steps through.
    std::size_t biggest = 0;
    for (std::size_t b = 1; b < model.blockCount(); ++b)
        if (model.block(b).size() > model.block(biggest).size())
            biggest = b;
    const BlockReplay& r = model.block(biggest);
    const Cursor n = r.size();
    std::printf("  stepping one block of %u events, %u threads, %u steps, %u phases:\n", n, r.threadCount(),
                r.stepCount(), r.phaseCount());

    std::mt19937 random(3);
    std::vector<Cursor> cursors(100000);
    for (Cursor& c : cursors)
        c = static_cast<Cursor>(random() % (n + 1));

    Cursor c = 0;
    std::size_t steps = 0;
    auto start = Clock::now();
    while (c < n) {
        c = r.next(c, Granularity::Step);
        ++steps;
    }
    const double forward = seconds(start, Clock::now()) * 1e9 / static_cast<double>(steps);
    start = Clock::now();
    while (c > 0)
        c = r.previous(c, Granularity::Step);
    const double backward = seconds(start, Clock::now()) * 1e9 / static_cast<double>(steps);
    std::printf("    next/previous step           %7.0f / %.0f ns\n", forward, backward);
    std::printf("    next warp step (random)      %7.0f ns\n", nsPerCall(cursors.size(), [&](std::size_t i) {
                    sink = sink + r.next(cursors[i], Granularity::WarpStep);
                }));
    std::printf("    jump to a phase              %7.0f ns\n", nsPerCall(cursors.size(), [&](std::size_t i) {
                    sink = sink + r.phaseBegin(static_cast<std::uint32_t>(i % r.phaseCount()));
                }));
    std::printf("    jump to a thread's next event %6.0f ns\n", nsPerCall(cursors.size(), [&](std::size_t i) {
                    sink = sink + r.nextOfThread(cursors[i], static_cast<unsigned>(i % r.threadCount())).value_or(0);
                }));
    std::printf("    state of one thread          %7.0f ns\n", nsPerCall(cursors.size(), [&](std::size_t i) {
                    sink = sink +
                           static_cast<unsigned>(r.threadState(static_cast<unsigned>(i % r.laneCount()), cursors[i]));
                }));
    std::printf("    describe an event            %7.0f ns\n",
                nsPerCall(10000, [&](std::size_t i) { sink = sink + r.describe(r.eventAt(cursors[i] % n)).size(); }));

    // What the app asks for each frame: every lane's state, every shared
    // element, every footprint cell's load count, at one cursor.
    const Rect fp = r.geometry().footprint;
    const int frames = 50;
    auto frameStart = Clock::now();
    for (int f = 0; f < frames; ++f) {
        const Cursor at = cursors[static_cast<std::size_t>(f)];
        for (unsigned lane = 0; lane < r.laneCount(); ++lane)
            sink = sink + static_cast<unsigned>(r.threadState(lane, at));
        for (int i = 0; i < r.sharedSize(); ++i)
            sink = sink + (r.sharedAt(i, at) ? 1 : 0);
        for (int y = fp.y0; y < fp.y1; ++y)
            for (int x = fp.x0; x < fp.x1; ++x)
                sink = sink + r.loadsOfCellBefore(x, y, at);
    }
    std::printf("    a whole frame (%u lanes, %d shared, %lld cells)  %.2f ms\n", r.laneCount(), r.sharedSize(),
                fp.area(), seconds(frameStart, Clock::now()) * 1e3 / frames);
}

}  // namespace

// The problem detector on one core: a clean trace (every access looked at,
// nothing found) and the same launch with its barrier dropped (every read of
// a neighbour's element a race), each about a million events.
void detectBench(const char* label, const Trace& trace, int repeats) {
    double best = 1e30;
    ProblemSet found;
    for (int i = 0; i < repeats; ++i) {
        auto start = Clock::now();
        found = detectProblems(trace);
        best = std::min(best, seconds(start, Clock::now()));
    }
    const double events = static_cast<double>(trace.eventCount());
    std::printf("  detector, %-22s %9.0f events  %8.3f s  %6.1f M events/s  problems: %s\n", label, events, best,
                events / best / 1e6, found.clean() ? "none" : found.summary().c_str());
}

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    std::printf("trace_bench: recording on the CPU executor with one worker; Event is %zu bytes\n", sizeof(Event));

    // About a million events over many blocks: conv2d_tiled_in, IN_TILE_DIM 16, r 2
    // (11,712 events per interior block), 9 x 10 blocks.
    {
        const Image in = randomImage(108, 120);
        const Mask mask = boxMask(5);
        recordBench("many blocks", "conv2d_tiled_in", in, mask, 16, false, repeats);
        RunRequest req;
        req.kernel = "conv2d_tiled_in";
        req.input = &in;
        req.mask = &mask;
        req.block = 16;
        req.backend = Backend::Cpu;
        req.cpuWorkers = 1;
        req.trace = true;
        auto r = runKernel(req);
        detectBench("clean (many blocks)", *r->trace, repeats);
        req.drop.all = true;
        req.schedule = Schedule::Reverse;
        auto racy = runKernel(req);
        if (racy) detectBench("barrier dropped", *racy->trace, repeats);
        TraceModel model(std::move(*r->trace));
        stepBench(model);
    }
    // About 1.3 million events in ONE block: the pitched kernel with
    // O_TILE_WIDTH 64 and Mask_Width 9 (BLOCK_WIDTH 72, 5184 threads, what-if),
    // the book's largest configuration (Figure 7.22); only block (1,1) traced.
    {
        const Image in = randomImage(3 * 64 + 9, 3 * 64 + 9);
        const Mask mask = boxMask(9);
        RunRequest req;
        req.kernel = "conv2d_tiled_pitched";
        req.input = &in;
        req.mask = &mask;
        req.block = 72;
        req.backend = Backend::Cpu;
        req.whatIf = true;
        req.cpuWorkers = 1;
        req.trace = true;
        req.traceBlocks = {Dim3{1, 1, 0}};
        const Timed t = runBest(req, repeats);
        const Trace& trace = *t.result->trace;
        std::printf(
            "\none big block: conv2d_tiled_pitched, %dx%d, BLOCK_WIDTH 72 (what-if), block (1,1) of 16 traced: "
            "%zu events, run %.1f ms\n",
            in.width, in.height, trace.eventCount(), t.best * 1e3);
        auto start = Clock::now();
        TraceModel model(trace);
        const double build = seconds(start, Clock::now());
        std::printf("  build replay model         %8.1f ms   (%.1f ns an event, %.1f index bytes an event)\n",
                    build * 1e3, build * 1e9 / static_cast<double>(trace.eventCount()),
                    static_cast<double>(model.block(0).memoryBytes()) / static_cast<double>(trace.eventCount()));
        stepBench(model);
    }
    return sink == 42 ? 1 : 0;
}
