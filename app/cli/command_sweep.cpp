// `tilescope sweep`: the book's quantities over tile sizes and mask sizes,
// measured from traces (one interior block per point, on the CPU executor)
// beside the book's closed forms, as a table and, with --csv, a file for
// charts. With a GPU, each point's plain kernel is also timed at --gpu-size.
//   tilescope sweep --kernel conv2d_tiled_in,conv2d_tiled_out --block 8,16,32 --radius 1,2,4 --csv fig7_14.csv
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "api/sweep.hpp"
#include "base/atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace tilescope::cli {

namespace {

struct SweepCli {
    std::vector<std::string> kernels;
    std::vector<int> blocks{8, 16, 32};
    std::vector<int> radii{1, 2, 4};
    std::string csv;
    std::string gpuSize = "4096x4096";
    bool noGpu = false;
};

std::string number(const std::optional<double>& v, const char* format = "%.4g") {
    if (!v) return "";
    char text[32];
    std::snprintf(text, sizeof text, format, *v);
    return text;
}
std::string number(double v, const char* format = "%.4g") { return number(std::optional<double>(v), format); }

int runSweep(const SweepCli& o) {
    SweepRequest req;
    for (const std::string& k : o.kernels) {
        if (k == "all" || k == "1d" || k == "2d") {
            for (const KernelInfo& info : allKernels())
                if (!info.asPrinted && (k == "all" || (k == "1d") == (info.dims == 1)))
                    req.kernels.push_back(std::string(info.name));
        } else {
            req.kernels.push_back(k);
        }
    }
    req.blocks = o.blocks;
    req.radii = o.radii;
    for (int b : req.blocks)
        if (b <= 0) return fail(badInput("--block " + std::to_string(b) + " must be positive"));
    auto points = sweep(req);
    if (!points) return fail(points.error());

    // GPU times of the plain kernels, where there is a GPU and the point can launch.
    std::vector<std::optional<double>> gpuMs(points->size());
    std::string gpuReason;
    const bool gpu = !o.noGpu && gpuAvailable(&gpuReason);
    if (gpu) {
        int w = 0, h = 0;
        if (std::sscanf(o.gpuSize.c_str(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0)
            return fail(badInput("--gpu-size '" + o.gpuSize + "' is not WxH"));
        gpuMs = timeSweep(*points, w, h);
    }

    std::printf("%-22s %5s %4s %4s %3s | %9s %9s | %9s %9s | %9s %9s%s\n", "kernel", "block", "in", "out", "r",
                "FLOP/B", "book", "loads/out", "book", "reduction", "book", gpu ? " |   GPU ms" : "");
    for (std::size_t i = 0; i < points->size(); ++i) {
        const SweepPoint& p = (*points)[i];
        if (!p.skipped.empty()) {
            std::printf("%-22s %5d %4s %4s %3d | %s\n", p.kernel.c_str(), p.block, "", "", p.radius, p.skipped.c_str());
            continue;
        }
        std::printf("%-22s %5d %4d %4d %3d | %9s %9s | %9s %9s | %9s %9s%s%s\n", p.kernel.c_str(), p.block,
                    p.plan.inTile, p.plan.outTile, p.radius, number(p.measured.flopPerByte, "%.2f").c_str(),
                    number(p.bookFlopPerByte, "%.2f").c_str(), number(p.measured.globalLoadsPerOutput, "%.3f").c_str(),
                    number(p.bookGlobalLoadsPerOutput, "%.3f").c_str(),
                    number(p.measured.inputLoadReduction, "%.2f").c_str(),
                    number(p.bookInputLoadReduction, "%.2f").c_str(), gpu ? " | " : "",
                    gpu ? number(gpuMs[i], "%9.4f").c_str() : "");
    }
    std::fflush(stdout);
    if (!gpu && !o.noGpu) std::fprintf(stderr, "tilescope: no GPU times: %s\n", gpuReason.c_str());

    if (!o.csv.empty()) {
        std::ostringstream csv;
        csv << "kernel,dims,block,radius,mask_width,in_tile,out_tile,what_if,outputs,global_loads,global_load_bytes,"
               "input_loads,flops,flop_per_byte,book_flop_per_byte,global_loads_per_output,"
               "book_global_loads_per_output,input_load_reduction,book_input_load_reduction,gpu_ms,skipped\n";
        for (std::size_t i = 0; i < points->size(); ++i) {
            const SweepPoint& p = (*points)[i];
            std::string why = p.skipped;
            for (char& c : why)
                if (c == ',' || c == '"' || c == '\n') c = ' ';
            csv << p.kernel << ',' << p.dims << ',' << p.block << ',' << p.radius << ',' << 2 * p.radius + 1 << ','
                << p.plan.inTile << ',' << p.plan.outTile << ',' << (p.plan.whatIf ? 1 : 0) << ','
                << p.counts.globalStores << ',' << p.counts.globalLoads << ',' << p.counts.globalLoadBytes << ','
                << p.counts.inputLoads << ',' << p.counts.flops << ',';
            if (p.skipped.empty())
                csv << number(p.measured.flopPerByte, "%.6g") << ',' << number(p.bookFlopPerByte, "%.6g") << ','
                    << number(p.measured.globalLoadsPerOutput, "%.6g") << ','
                    << number(p.bookGlobalLoadsPerOutput, "%.6g") << ','
                    << number(p.measured.inputLoadReduction, "%.6g") << ','
                    << number(p.bookInputLoadReduction, "%.6g") << ',';
            else
                csv << ",,,,,,";
            csv << number(gpuMs[i], "%.6g") << ',' << why << '\n';
        }
        // Written whole or not at all: a half-written file never replaces a good one.
        base::AtomicWriteOptions options;
        options.sync = false;
        if (const auto failure = base::writeFileAtomic(o.csv, csv.str(), options))
            return fail(badInput(o.csv + ": cannot be written"));
    }
    return 0;
}

}  // namespace

Command addSweepCommand(CLI::App& app) {
    auto options = std::make_shared<SweepCli>();
    auto* c = app.add_subcommand("sweep", "the book's quantities over tile and mask sizes, measured from traces beside "
                                          "the book's formulas (Figures 7.14 and 7.22)");
    c->add_option("--kernel,-k", options->kernels, "kernels, comma-separated: names, all, 1d or 2d")
        ->delimiter(',')
        ->required();
    c->add_option("--block,-b", options->blocks, "block edges, comma-separated (each kernel reads its own: IN_TILE_DIM, "
                                                 "OUT_TILE_DIM, BLOCK_WIDTH, ...)")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--radius,-r", options->radii, "mask radii, comma-separated")->delimiter(',')->capture_default_str();
    c->add_option("--csv", options->csv, "also write every point as CSV here");
    c->add_option("--gpu-size", options->gpuSize, "with a GPU: the input each point's plain kernel is timed on (1D: W*H elements)")
        ->capture_default_str();
    c->add_flag("--no-gpu", options->noGpu, "leave out the GPU times");
    return Command{c, [options] { return runSweep(*options); }};
}

}  // namespace tilescope::cli
