// memory_bench: how fast the memory model (trace/warp_requests.hpp and
// trace/cache_model.hpp) replays a trace on one core: the warps' requests
// alone, then the requests through the caches. Traces of about ten million
// events from three kernels. Prints numbers; asserts nothing (the tests check
// the counts).
//
//   memory_bench [repeats]     (default 3; the best of the repeats is shown)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "api/runner.hpp"
#include "bench_support.hpp"
#include "trace/cache_model.hpp"
#include "trace/warp_requests.hpp"

using namespace tilescope;
using namespace tilescope::bench;

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    struct Case {
        const char* kernel;
        int size;
        int maskWidth;
    };
    // Sizes chosen for about ten million events each.
    const Case cases[] = {{"conv2d_basic", 368, 5}, {"conv2d_tiled_cached", 384, 5}, {"conv2d_fast", 560, 5}};
    std::printf("%-22s %10s %12s %12s %14s %12s %14s\n", "kernel", "size", "events", "requests s", "events/s",
                "+caches s", "events/s");
    for (const Case& c : cases) {
        const Image input = randomImage(c.size, c.size);
        const Mask mask = Mask::square(c.maskWidth, std::vector<float>(c.maskWidth * c.maskWidth, 0.04f));
        RunRequest req;
        req.kernel = c.kernel;
        req.input = &input;
        req.mask = &mask;
        req.backend = Backend::Cpu;
        req.trace = true;
        req.eventBudget = 40'000'000;
        auto run = runKernel(req);
        if (!run) {
            std::fprintf(stderr, "memory_bench: %s\n", run.error().message.c_str());
            return 1;
        }
        const Trace& trace = *run->trace;
        double bestRequests = 1e30, bestCaches = 1e30;
        std::uint64_t sectors = 0, dram = 0;
        for (int i = 0; i < repeats; ++i) {
            auto start = Clock::now();
            MemoryCounters total;
            for (std::size_t b = 0; b < trace.blocks.size(); ++b) total += countMemory(trace, b);
            bestRequests = std::min(bestRequests, seconds(start, Clock::now()));
            sectors = total.globalLoadSectors;
            start = Clock::now();
            const CacheCounters caches = modelCaches(trace);
            bestCaches = std::min(bestCaches, seconds(start, Clock::now()));
            dram = caches.dramReadBytes;
        }
        const double events = static_cast<double>(trace.eventCount());
        std::printf("%-22s %5dx%-4d %12.0f %12.3f %14.3g %12.3f %14.3g   (load sectors %llu, DRAM bytes %llu)\n",
                    c.kernel, c.size, c.size, events, bestRequests, events / bestRequests, bestCaches,
                    events / bestCaches, static_cast<unsigned long long>(sectors),
                    static_cast<unsigned long long>(dram));
    }
    return 0;
}
