// cpu_bench: how fast the CPU executor emulates a GPU. For each case it runs
// the same launch untraced and traced on one worker thread (one core), counts
// the thread-events the traced run records (loads, stores, multiply-adds and
// barriers of every simulated CUDA thread), and prints
//   - simulated thread-events per second, untraced and traced (the untraced
//     run does the same work without keeping the events, so its rate is the
//     traced run's event count over the untraced time);
//   - bytes per event: 16 in memory (sizeof(Event)), and in the binary trace
//     file (trace/trace_io.hpp);
//   - the wall time of the untraced run on one worker and on all cores.
// The headline case is the one the issue names: a 512x512 image, a 5x5 mask,
// conv2d_tiled_in with its default 16x16 block.
//
//   cpu_bench [--repeat N] [--csv FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/runner.hpp"
#include "core/image.hpp"
#include "exec/fiber.hpp"
#include "trace/trace_io.hpp"

namespace {

using namespace tilescope;

struct Case {
    const char* kernel;
    int width, height, maskWidth;
};

Image randomImage(int width, int height) {
    std::mt19937 random(5);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    Image image = Image::planar(width, height);
    for (float& v : image.data)
        v = value(random);
    return image;
}

Mask randomMask(int width) {
    std::mt19937 random(9);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> v(static_cast<std::size_t>(width) * width);
    for (float& x : v)
        x = value(random);
    return Mask::square(width, v);
}

// Seconds of the fastest of `repeat` runs (the least disturbed by the machine).
double timeRun(RunRequest request, int repeat, std::size_t* events, std::string* error) {
    double best = 1e30;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto result = runKernel(request);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!result) {
            *error = result.error().message;
            return -1.0;
        }
        if (events && result->trace)
            *events = result->trace->eventCount();
        best = std::min(best, seconds);
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 3;
    std::string csvPath;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
            csvPath = argv[++i];
        } else {
            std::fprintf(stderr, "usage: cpu_bench [--repeat N] [--csv FILE]\n");
            return 2;
        }
    }

    const Case cases[] = {
        {"conv2d_tiled_in", 512, 512, 5},  // the case
        {"conv2d_basic", 512, 512, 5},
        {"conv2d_fast", 512, 512, 5},
        {"conv2d_tiled_in", 256, 256, 15},
    };
    std::FILE* csv = csvPath.empty() ? nullptr : std::fopen(csvPath.c_str(), "w");
    if (!csvPath.empty() && !csv) {
        std::fprintf(stderr, "cpu_bench: cannot write %s\n", csvPath.c_str());
        return 2;
    }
    if (csv)
        std::fprintf(csv,
                     "kernel,width,height,mask_width,events,untraced_s_1core,traced_s_1core,untraced_s_all,"
                     "workers_all,events_per_s_untraced,events_per_s_traced,bytes_per_event_memory,"
                     "bytes_per_event_binary\n");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("CPU executor fibers: %s\n\n", cpu::fiberImplementation());
    std::printf(
        "| kernel | image | mask | events | untraced, 1 core (s) | traced, 1 core (s) | untraced, %u cores (s) | "
        "Mevents/s untraced | Mevents/s traced | bytes/event (memory, binary file) |\n",
        cores);
    std::printf("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (const Case& c : cases) {
        const Image image = randomImage(c.width, c.height);
        const Mask mask = randomMask(c.maskWidth);
        RunRequest r;
        r.kernel = c.kernel;
        r.input = &image;
        r.mask = &mask;
        r.backend = Backend::Cpu;
        r.cpuWorkers = 1;
        std::string error;

        // The traced run first: it says how many events the launch makes.
        RunRequest traced = r;
        traced.trace = true;
        traced.eventBudget = 400'000'000;
        std::size_t events = 0;
        const double tracedSeconds = timeRun(traced, repeat, &events, &error);
        const double untracedSeconds = tracedSeconds < 0 ? -1 : timeRun(r, repeat, nullptr, &error);
        RunRequest all = r;
        all.cpuWorkers = 0;
        const double allSeconds = untracedSeconds < 0 ? -1 : timeRun(all, repeat, nullptr, &error);
        if (tracedSeconds < 0 || untracedSeconds < 0 || allSeconds < 0) {
            std::fprintf(stderr, "cpu_bench: %s: %s\n", c.kernel, error.c_str());
            return 4;
        }

        // Bytes per event in the binary trace file: encode one traced run.
        auto result = runKernel(traced);
        double binaryBytes = 0.0;
        if (result && result->trace && events > 0)
            binaryBytes = static_cast<double>(encodeBinary(*result->trace).size()) / static_cast<double>(events);

        const double untracedRate = events / untracedSeconds, tracedRate = events / tracedSeconds;
        std::printf("| `%s` | %dx%d | %dx%d | %zu | %.3f | %.3f | %.3f | %.1f | %.1f | %zu, %.2f |\n", c.kernel,
                    c.width, c.height, c.maskWidth, c.maskWidth, events, untracedSeconds, tracedSeconds, allSeconds,
                    untracedRate * 1e-6, tracedRate * 1e-6, sizeof(Event), binaryBytes);
        std::fflush(stdout);
        if (csv)
            std::fprintf(csv, "%s,%d,%d,%d,%zu,%.4f,%.4f,%.4f,%u,%.0f,%.0f,%zu,%.3f\n", c.kernel, c.width, c.height,
                         c.maskWidth, events, untracedSeconds, tracedSeconds, allSeconds, cores, untracedRate,
                         tracedRate, sizeof(Event), binaryBytes);
    }
    if (csv)
        std::fclose(csv);
    return 0;
}
