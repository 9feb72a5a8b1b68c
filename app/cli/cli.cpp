#include "cli/cli.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "io/files.hpp"
#include "reference/reference.hpp"

namespace tilescope::cli {

namespace {

// The corrected kernels, one name a line; after a blank line and a heading,
// the listings as printed (with -v, each with its defect).
int listKernels(bool verbose) {
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted) continue;
        if (verbose)
            std::printf("%-22s %dD  %-34s %s\n", std::string(k.name).c_str(), k.dims, std::string(k.figure).c_str(),
                        std::string(k.strategy).c_str());
        else
            std::printf("%s\n", std::string(k.name).c_str());
    }
    std::printf("\nListings as printed (tilescope check shows what goes wrong):\n");
    for (const KernelInfo& k : allKernels()) {
        if (!k.asPrinted) continue;
        if (verbose)
            std::printf("%-31s %dD  %-24s %s\n", std::string(k.name).c_str(), k.dims, std::string(k.figure).c_str(),
                        std::string(k.defect).c_str());
        else
            std::printf("%s\n", std::string(k.name).c_str());
    }
    return 0;
}

int runOnce(const KernelOptions& options, const std::string& output) {
    Loaded loaded;
    if (Status s = load(options, loaded); !s) return fail(s.error());
    auto result = runKernel(loaded.request);
    printPrintout(loaded);
    if (!result) return fail(result.error());
    const double error = reference::maxAbsDifference(result->output.data, reference::convolve(loaded.input, loaded.mask));
    if (Status s = io::writeOutput(output, result->output); !s) return fail(s.error());
    std::fprintf(stderr, "tilescope: %s ran on %s (%s): %.3f ms, grid %ux%u, block %ux%u, largest difference from the "
                 "double-precision reference %.3g\n",
                 loaded.request.kernel.c_str(), backendName(result->backend), result->backendReason.c_str(), result->millis,
                 result->plan.grid.x, result->plan.grid.y, result->plan.block.x, result->plan.block.y, error);
    if (result->plan.whatIf) std::fprintf(stderr, "tilescope: what-if: %s\n", result->plan.whatIfReason.c_str());
    if (!result->plainSkipped.empty()) std::fprintf(stderr, "tilescope: %s\n", result->plainSkipped.c_str());
    if (result->faults.any())
        std::fprintf(stderr, "tilescope: the kernel went wrong: %s; `tilescope check` with the same options names "
                     "every problem\n", result->faults.summary().c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"TileScope: the convolution chapter of Programming Massively Parallel Processors, step by step",
                 "tilescope"};
    app.require_subcommand(0, 1);

    bool verbose = false;
    auto* list = app.add_subcommand("list", "print the kernel names, one per line, then the listings as printed");
    list->add_flag("--verbose,-v", verbose,
                   "also print each kernel's book figure and strategy (a listing as printed: its defect)");

    KernelOptions runOptions;
    std::string output;
    auto* run = app.add_subcommand("run", "run a kernel on an input file and write the result");
    addKernelOptions(*run, runOptions, false);
    addRaceOptions(*run, runOptions);
    run->add_flag("--as-is", runOptions.asIs,
                  "a listing as printed on the GPU: run the plain CUDA kernel as it is, accesses outside its arrays "
                  "included (for compute-sanitizer; by default the instrumented kernel runs it, which never makes "
                  "them)");
    run->add_option("--output,-o", output, "output: .npy (float32) or .png, .pgm, .ppm (clamped to [0,1])")->required();

    std::vector<Command> commands = addCommands(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        std::cerr << "tilescope: " << what << " (tilescope --help lists the commands)\n";
        return static_cast<int>(ExitCode::BadInput);
    }

    if (*list) return listKernels(verbose);
    if (*run) return runOnce(runOptions, output);
    for (const Command& c : commands)
        if (c.subcommand && *c.subcommand) return c.run();
    return commands.front().run();  // no command: the app
}

}  // namespace tilescope::cli
