#include "cli/options.hpp"

#include <cstdio>
#include <iostream>

namespace tilescope::cli {

int fail(const Error& error) {
    std::cerr << "tilescope: " << error.message << "\n";
    return static_cast<int>(error.code);
}

void printPrintout(const Loaded& loaded) {
    const KernelPrintout& p = loaded.printout;
    if (!loaded.own || p.empty())
        return;
    std::string text = p.heading() + ":\n";
    for (const std::string& line : p.lines)
        text += "  | " + line + "\n";
    if (const std::string rest = p.rest(); !rest.empty())
        text += rest + "\n";
    std::fflush(stdout);
    std::fputs(text.c_str(), stderr);
}

void addKernelOptions(CLI::App& c, KernelOptions& o, bool allowGenerated) {
    auto* kernel = c.add_option("--kernel,-k", o.kernel, "kernel name (tilescope list)");
    auto* file = c.add_option("--kernel-file", o.kernelFile,
                              "your own CUDA kernel file (.cu) with its launch(): read, compiled and run here "
                              "(docs/own-kernel.md)");
    kernel->excludes(file);
    c.add_option("--time-limit", o.timeLimit, "seconds a --kernel-file kernel may run before it is stopped")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    c.add_option("--sandbox", o.sandbox,
                 "the sandbox around a --kernel-file kernel: auto (where bubblewrap works), required or off "
                 "(default: $TILESCOPE_SANDBOX, else auto; docs/own-kernel.md)")
        ->check(CLI::IsMember({"off", "auto", "required"}));
    auto* input = c.add_option("--input,-i", o.input, "input: .npy, .png, .jpg, .bmp, .pgm, .ppm");
    auto* mask = c.add_option("--mask,-m", o.mask, "mask: .npy, .raw, .csv, or a text file of rows");
    if (allowGenerated) {
        auto* size = c.add_option("--size", o.size, "generate a random input of N elements or WxH pixels");
        auto* radius = c.add_option("--radius,-r", o.radius, "generate a mask of radius R (width 2R+1)");
        input->excludes(size);
        mask->excludes(radius);
        c.add_option("--seed", o.seed, "seed of the generated input (and of --schedule random)");
    } else {
        input->required();
        mask->required();
    }
    c.add_option("--block,-b", o.block,
                 "block edge: blockDim.x for 1D kernels, blockDim.x = blockDim.y for 2D kernels (conv2d_fast at 7x7 "
                 "and 9x9: edge x edge/2)");
    c.add_option("--backend", o.backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    c.add_flag("--what-if", o.whatIf,
               "let the CPU executor run a configuration no GPU can launch (over 1024 threads, too much shared "
               "memory)");
}

void addRaceOptions(CLI::App& c, KernelOptions& o) {
    c.add_option("--drop-barrier", o.dropBarrier,
                 "leave out __syncthreads(): all, or the kernel file's line numbers (e.g. 23 or 23,41)");
    c.add_option("--schedule", o.schedule,
                 "CPU executor: the order warps run in between barriers: in-order, reverse (the default when a "
                 "barrier is dropped) or random (from --seed)")
        ->check(CLI::IsMember({"in-order", "reverse", "random"}));
    if (c.get_option_no_throw("--seed") == nullptr)
        c.add_option("--seed", o.seed, "seed of --schedule random");
}

void addTraceOptions(CLI::App& c, TraceSelection& selection, const char* verb) {
    c.add_option("--trace-blocks", selection.blocks,
                 std::string("blocks to ") + verb +
                     ": all (default), interior, or a list such as \"0,0;1,0\" (2D) or \"0;3\" (1D)");
    c.add_option("--event-budget", selection.eventBudget, "stop with a message past this many recorded events")
        ->capture_default_str();
}

int printReport(const Json& report, const LaunchPlan& plan) {
    std::printf("%s\n", report.dump(2).c_str());
    if (plan.whatIf)
        std::fprintf(stderr, "tilescope: what-if: %s\n", plan.whatIfReason.c_str());
    return 0;
}

}  // namespace tilescope::cli
