// `tilescope bench`: times kernels on the GPU and prints, for each kernel,
// size and mask, the median time, the effective bandwidth (8 bytes per pixel:
// each input read once, each output written once), that bandwidth as a
// percentage of a device-to-device cudaMemcpy of the same bytes measured in
// the same run, GFLOP/s (2 per tap per output, ghost taps included) and that
// as a percentage of the FP32 FMA peak (SMs x FP32 lanes x 2 x boost clock).
// Each kernel's floor is the larger of the copy's time and the time of its
// multiply-adds at the FMA peak; "% of floor" is the floor over the kernel's
// time. conv2d_fast runs the shape tuned for this GPU (api/fast_tuning.hpp),
// and the bench says which shape ran and how it was chosen.
// The table goes to stdout as Markdown, progress to stderr; --csv and
// --markdown write files. The timing itself (events, warm-up, rotation, the
// check against a double-precision reference) is kernels/exec/cuda_bench.cu;
// this file has no CUDA in it, and without a GPU it says so and exits with 3.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "api/fast_tuning.hpp"
#include "api/runner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "exec/backends.hpp"
#include "io/whole_file.hpp"
#include "own/own_kernel.hpp"
#include "reference/reference.hpp"

namespace tilescope::cli {

namespace {

struct BenchCli {
    std::vector<std::string> kernels{"all"};
    std::vector<std::string> sizes{"8192x8192", "67108864"};
    std::vector<int> radii{1, 2, 4, 7};
    std::vector<int> blocks{0};
    cuda::BenchOptions timing;
    std::string csv;
    std::string markdown;
    std::string kernelFile;  // a student's own kernel, timed instead
    std::string tune = "auto";  // conv2d_fast's shape: auto, again or off (api/fast_tuning.hpp)
    bool menu = false;          // conv2d_fast: every shape of the tuning menu, each a row
};

struct Size {
    int width = 0, height = 1;
    bool twoD = false;
    std::string text;
};

struct Row {
    const KernelInfo* kernel = nullptr;  // null: the copy
    Size size;
    LaunchPlan plan;
    cuda::BenchTiming t;
    double copyMs = 0.0;
    double bytes = 0.0;
    double flops = 0.0;
    std::string shape;  // conv2d_fast: the shape that ran (tuning::describe) ...
    std::string how;    // ... and how it was chosen
    bool tune = false;  // conv2d_fast at its default block: the tuner chooses its shape
};

Result<Size> parseSize(const std::string& text) {
    Size s;
    s.text = text;
    char x = 0, extra = 0;
    long long w = 0, h = 0;
    const int fields = std::sscanf(text.c_str(), "%lld%c%lld%c", &w, &x, &h, &extra);
    if (fields == 1 && w > 0) {
        s.width = static_cast<int>(w);
    } else if (fields == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0) {
        s.width = static_cast<int>(w);
        s.height = static_cast<int>(h);
        s.twoD = true;
    } else {
        return badInput("--size '" + text + "' is not N (1D kernels) or WxH (2D kernels)");
    }
    if (w * h > (1LL << 30))
        return badInput("--size '" + text + "' is over 2^30 elements");
    return s;
}

Result<std::vector<const KernelInfo*>> chooseKernels(const std::vector<std::string>& names) {
    std::vector<const KernelInfo*> chosen;
    auto add = [&](const KernelInfo* k) {
        for (const KernelInfo* c : chosen)
            if (c == k)
                return;
        chosen.push_back(k);
    };
    for (const std::string& name : names) {
        if (name == "all" || name == "1d" || name == "2d") {
            for (const KernelInfo& k : allKernels())
                if (!k.asPrinted && (name == "all" || (name == "1d") == (k.dims == 1)))
                    add(&k);
        } else if (const KernelInfo* k = findKernel(name); k && k->asPrinted) {
            // The plain kernel would touch memory outside its arrays on the GPU.
            return badInput("'" + name + "' is a listing as printed: `tilescope check --kernel " + name +
                            "` shows what goes wrong; bench times the corrected kernels");
        } else if (k) {
            add(k);
        } else {
            return badInput("unknown kernel '" + name + "' (`tilescope list` names the kernels; or all, 1d, 2d)");
        }
    }
    return chosen;
}

std::string fixed(double v, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

std::string maskText(const Row& r) {
    if (!r.kernel)
        return "-";
    const int w = r.plan.maskWidth;
    return r.kernel->dims == 1 ? std::to_string(w) : std::to_string(w) + "x" + std::to_string(w);
}

std::string blockText(const Row& r) {
    if (!r.kernel)
        return "-";
    return r.kernel->dims == 1 ? std::to_string(r.plan.block.x)
                               : std::to_string(r.plan.block.x) + "x" + std::to_string(r.plan.block.y);
}

struct Derived {
    double gbps, percentCopy, gflops, percentPeak;
    double floorMs;     // max(the copy's time, the multiply-adds' time at the FMA peak)
    const char* bound;  // which of the two it is: "copy" or "FMA"
    double percentFloor;
};

Derived derive(const Row& r, const cuda::BenchDevice& d) {
    const double seconds = r.t.medianMs * 1e-3;
    Derived v{};
    v.gbps = r.bytes / seconds * 1e-9;
    v.percentCopy = 100.0 * r.copyMs / r.t.medianMs;
    v.gflops = r.flops / seconds * 1e-9;
    v.percentPeak = 100.0 * v.gflops / d.peakGflops();
    const double fmaMs = r.flops / (d.peakGflops() * 1e9) * 1e3;
    v.floorMs = std::max(r.copyMs, fmaMs);
    v.bound = fmaMs > r.copyMs ? "FMA" : "copy";
    v.percentFloor = 100.0 * v.floorMs / r.t.medianMs;
    return v;
}

// "staged 16x8, 32 regs": the shape in a table's cell.
std::string shapeCell(const Row& r) {
    if (!r.kernel || r.kernel->tiles != TileShape::ThreadPatch)
        return "-";
    const std::string regs = r.plan.fast.registers > 0 ? std::to_string(r.plan.fast.registers) + " regs" : "own regs";
    return std::string(r.plan.fast.staged ? "staged" : "cached") + ", " + regs;
}

std::string markdownTable(const std::vector<Row>& rows, const cuda::BenchDevice& d) {
    std::ostringstream md;
    md << "| kernel | size | mask | block | shape | time (ms) | GB/s | GFLOP/s | floor (ms) | bound | % of floor | check "
          "|\n"
       << "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |\n";
    for (const Row& r : rows) {
        const Derived v = derive(r, d);
        md << "| " << (r.kernel ? "`" + std::string(r.kernel->name) + "`" : std::string("cudaMemcpy D2D")) << " | "
           << r.size.text << " | " << maskText(r) << " | " << blockText(r) << " | " << shapeCell(r) << " | "
           << fixed(r.t.medianMs, 3) << " | " << fixed(v.gbps, 0) << " | " << (r.kernel ? fixed(v.gflops, 0) : "-")
           << " | " << (r.kernel ? fixed(v.floorMs, 3) : "-") << " | " << (r.kernel ? v.bound : "-") << " | "
           << (r.kernel ? fixed(v.percentFloor, 1) : "-") << " | " << (r.kernel ? (r.t.correct ? "ok" : "FAILED") : "-")
           << " |\n";
    }
    return md.str();
}

// A text for a quoted CSV field: its quotes doubled.
std::string csvText(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out;
}

std::string csvTable(const std::vector<Row>& rows, const cuda::BenchDevice& d) {
    std::ostringstream csv;
    csv << "device,kernel,dims,width,height,mask_width,radius,block_x,block_y,grid_x,grid_y,median_ms,min_ms,max_ms,"
           "repeats,buffers,bytes,gb_per_s,copy_ms,pct_copy,flops,gflop_per_s,peak_gflop_per_s,pct_fp32_peak,"
           "checked,max_rel_error,correct,floor_ms,floor_bound,pct_floor,staged,registers,shape_how\n";
    for (const Row& r : rows) {
        const Derived v = derive(r, d);
        const bool k = r.kernel != nullptr;
        char line[2048];
        std::snprintf(
            line, sizeof line,
            "\"%s\",%s,%d,%d,%d,%d,%d,%u,%u,%u,%u,%.5f,%.5f,%.5f,%d,%d,%.0f,%.1f,%.5f,%.2f,%.0f,%.1f,%.1f,%.2f,"
            "%d,%.3g,%d,%.5f,%s,%.2f,%d,%d,\"%s\"\n",
            csvText(d.name).c_str(), k ? std::string(r.kernel->name).c_str() : "cudaMemcpy_d2d",
            k ? r.kernel->dims : (r.size.twoD ? 2 : 1), r.size.width, r.size.height, k ? r.plan.maskWidth : 0,
            k ? r.plan.radius : 0, k ? r.plan.block.x : 0, k ? r.plan.block.y : 0, k ? r.plan.grid.x : 0,
            k ? r.plan.grid.y : 0, r.t.medianMs, r.t.minMs, r.t.maxMs, r.t.repeats, r.t.buffers, r.bytes, v.gbps,
            r.copyMs, v.percentCopy, r.flops, k ? v.gflops : 0.0, d.peakGflops(), k ? v.percentPeak : 0.0, r.t.checked,
            r.t.maxError, k ? (r.t.correct ? 1 : 0) : 1, k ? v.floorMs : r.copyMs, k ? v.bound : "copy",
            k ? v.percentFloor : 100.0, r.plan.fast.staged ? 1 : 0, r.plan.fast.registers, csvText(r.how).c_str());
        csv << line;
    }
    return csv.str();
}

Status writeText(const std::string& path, const std::string& text) {
    return io::writeFileAtomic(path, text);
}

int runBench(const BenchCli& o) {
    auto kernels = chooseKernels(o.kernels);
    if (!kernels)
        return fail(kernels.error());
    std::vector<Size> sizes;
    for (const std::string& s : o.sizes) {
        auto size = parseSize(s);
        if (!size)
            return fail(size.error());
        sizes.push_back(*size);
    }
    for (int r : o.radii)
        if (r < 0 || r > kMaxRadius)
            return fail(badInput("--radius " + std::to_string(r) + " is outside 0.." + std::to_string(kMaxRadius)));
    if (o.timing.minRepeats < 1 || o.timing.maxRepeats < 1 || o.timing.warmup < 0)
        return fail(badInput("--repeat and --min-repeat must be at least 1, --warmup at least 0"));

    std::string reason;
    if (!gpuAvailable(&reason))
        return fail(
            Error{ExitCode::BackendUnavailable, "bench times kernels on a CUDA GPU, and there is none: " + reason});

    // Every combination is planned before anything is timed, so that a bad
    // one is reported at once.
    const DeviceLimits limits = currentLimits();
    std::vector<Row> cases;
    for (const KernelInfo* k : *kernels) {
        bool sized = false;
        for (const Size& s : sizes) {
            if (s.twoD != (k->dims == 2))
                continue;
            sized = true;
            for (int r : o.radii)
                for (int block : o.blocks) {
                    const int w = 2 * r + 1;
                    const Problem p{s.width, s.height, 1, s.twoD ? 2 : 1, w, k->dims == 2 ? w : 1, block};
                    const bool patches = k->tiles == TileShape::ThreadPatch;
                    // --menu: each shape of the tuning menu, planned as asked.
                    std::vector<Problem> problems;
                    if (patches && o.menu) {
                        for (const tuning::Shape& shape : tuning::menu(*k, r)) {
                            Problem q = p;
                            q.block = shape.block;
                            q.staged = shape.fast.staged ? 1 : 0;
                            q.registers = shape.fast.registers;
                            problems.push_back(q);
                        }
                    } else {
                        problems.push_back(p);
                    }
                    for (const Problem& q : problems) {
                        auto plan = planLaunch(*k, q, limits, false);
                        if (!plan)
                            return fail(plan.error());
                        Row row;
                        row.kernel = k;
                        row.size = s;
                        row.plan = *plan;
                        row.tune = patches && !o.menu && block == 0;
                        if (patches)
                            row.how = o.menu ? "a shape of the menu (--menu)" : "the model's shape at the block asked for";
                        const double outputs = static_cast<double>(s.width) * s.height;
                        row.bytes = 8.0 * outputs;
                        row.flops = 2.0 * outputs * (k->dims == 2 ? w * w : w);
                        cases.push_back(row);
                    }
                }
        }
        if (!sized)
            return fail(badInput(std::string(k->name) + " is a " + std::to_string(k->dims) +
                                 "D kernel and no --size is " + (k->dims == 2 ? "WxH" : "N") + "; add one"));
    }

    auto device = cuda::benchDevice();
    if (!device)
        return fail(device.error());
    std::fprintf(stderr, "tilescope bench: %s, %d SMs x %d FP32 lanes at %.0f MHz: FP32 FMA peak %.0f GFLOP/s\n",
                 device->name.c_str(), device->smCount, device->fp32LanesPerSm, device->clockKHz / 1000.0,
                 device->peakGflops());

    // The copy, once per size: the same bytes a kernel moves (read N, write P).
    std::vector<Row> rows;
    std::map<std::string, double> copyMs;
    for (const Size& s : sizes) {
        if (copyMs.count(s.text))
            continue;
        const std::size_t bytes = static_cast<std::size_t>(s.width) * s.height * sizeof(float);
        auto copy = cuda::benchCopy(bytes, o.timing);
        if (!copy)
            return fail(copy.error());
        copyMs[s.text] = copy->medianMs;
        Row row;
        row.size = s;
        row.t = *copy;
        row.copyMs = copy->medianMs;
        row.bytes = 2.0 * static_cast<double>(bytes);
        rows.push_back(row);
        std::fprintf(stderr, "tilescope bench: cudaMemcpy D2D %s: %.3f ms, %.0f GB/s\n", s.text.c_str(), copy->medianMs,
                     row.bytes / (copy->medianMs * 1e-3) * 1e-9);
    }

    // conv2d_fast's shape: the cached choice for this GPU, else the menu
    // timed now (shorter runs than the table's), else the model's.
    tuning::Mode mode = o.tune == "off" ? tuning::Mode::Off : o.tune == "again" ? tuning::Mode::Again : tuning::Mode::Auto;
    std::optional<tuning::Cache> cache;
    std::vector<std::string> notes;
    auto note = [&](const std::string& text) {
        for (const std::string& n : notes)
            if (n == text)
                return;
        notes.push_back(text);
        std::fprintf(stderr, "tilescope bench: note: %s\n", text.c_str());
    };
    const bool anyTuned = std::any_of(cases.begin(), cases.end(), [](const Row& r) { return r.tune; });
    if (anyTuned && mode != tuning::Mode::Off) {
        const auto folder = tuning::userFolder();
        if (!folder) {
            note("conv2d_fast runs its model's shapes: neither XDG_CACHE_HOME nor HOME is set, so no choice could be "
                 "kept");
        } else if (auto why = tuning::whyNotWritable(*folder)) {
            note("conv2d_fast runs its model's shapes: the tuning cache folder " + *why);
        } else {
            const tuning::Key key{device->name, std::to_string(device->driverVersion), tuning::thisBuild()};
            cache = tuning::Cache::open(*folder / "conv2d_fast-tuning.json", key);
            if (!cache->note().empty())
                note(cache->note());
        }
    }
    cuda::BenchOptions tuneTiming = o.timing;
    tuneTiming.millisPerCase = std::min(o.timing.millisPerCase, 30.0);
    tuneTiming.minRepeats = std::min(o.timing.minRepeats, 10);
    const tuning::TimeFunction timeShape = [&](const LaunchPlan& plan) -> Result<tuning::Timed> {
        auto t = cuda::benchKernel(plan, tuneTiming);
        if (!t)
            return t.error();
        return tuning::Timed{t->medianMs, t->correct};
    };

    bool allCorrect = true;
    for (Row& row : cases) {
        if (row.tune) {
            const Problem p{row.size.width, row.size.height, 1, 2, row.plan.maskWidth, row.plan.maskWidth, 0};
            auto planned = tuning::planFast(*row.kernel, p, limits, mode, cache ? &*cache : nullptr, timeShape);
            if (!planned)
                return fail(Error{planned.error().code, std::string(row.kernel->name) + ": " + planned.error().message});
            row.plan = planned->plan;
            row.how = planned->how;
            for (const std::string& n : planned->notes)
                note(n);
        }
        auto t = cuda::benchKernel(row.plan, o.timing);
        if (!t)
            return fail(Error{t.error().code, std::string(row.kernel->name) + ": " + t.error().message});
        row.t = *t;
        row.copyMs = copyMs[row.size.text];
        allCorrect = allCorrect && t->correct;
        const Derived v = derive(row, *device);
        std::fprintf(stderr,
                     "tilescope bench: %-22s %s %5s block %-5s %9.3f ms %6.0f GB/s %5.1f%% of copy %7.0f GFLOP/s "
                     "%5.1f%% of peak%s\n",
                     std::string(row.kernel->name).c_str(), row.size.text.c_str(), maskText(row).c_str(),
                     blockText(row).c_str(), t->medianMs, v.gbps, v.percentCopy, v.gflops, v.percentPeak,
                     t->correct ? "" : "  WRONG RESULT");
        if (row.kernel->tiles == TileShape::ThreadPatch)
            std::fprintf(stderr, "tilescope bench:   %s: %s; %s; %.1f%% of its floor (%s, %.3f ms)\n",
                         std::string(row.kernel->name).c_str(), tuning::describe(row.plan).c_str(), row.how.c_str(),
                         v.percentFloor, v.bound, v.floorMs);
        rows.push_back(row);
    }

    const std::string table = markdownTable(rows, *device);
    std::printf("%s", table.c_str());
    std::fflush(stdout);
    if (!o.markdown.empty()) {
        char header[512];
        std::snprintf(header, sizeof header,
                      "Device: %s, %d SMs, compute capability %d.%d, boost clock %.0f MHz, FP32 FMA peak %.0f GFLOP/s "
                      "(%d SMs x %d lanes x 2 FLOP x clock).\n\n",
                      device->name.c_str(), device->smCount, device->ccMajor, device->ccMinor,
                      device->clockKHz / 1000.0, device->peakGflops(), device->smCount, device->fp32LanesPerSm);
        if (Status s = writeText(o.markdown, std::string(header) + table); !s)
            return fail(s.error());
    }
    if (!o.csv.empty())
        if (Status s = writeText(o.csv, csvTable(rows, *device)); !s)
            return fail(s.error());
    if (!allCorrect)
        return fail(Error{ExitCode::Internal, "a kernel's output disagreed with the reference (marked FAILED above)"});
    return 0;
}

// A kernel file: the plain kernel, compiled with NVRTC in the worker, timed
// there with CUDA events (a warm-up, then the median of the repeats) on
// random data at each size and radius; the output checked against the
// float64 reference.
int runOwnBench(const BenchCli& o) {
    auto kernel = own::compileKernelFile(o.kernelFile);
    if (!kernel) return fail(kernel.error());
    std::string reason;
    if (!gpuAvailable(&reason)) return fail(Error{ExitCode::BackendUnavailable, "bench needs a GPU: " + reason});
    const int dims = (*kernel)->translation.dims;
    std::printf("%-12s %6s %10s %10s %8s\n", "size", "radius", "median ms", "GB/s", "right");
    for (const std::string& text : o.sizes) {
        auto size = parseSize(text);
        if (!size) return fail(size.error());
        if (size->twoD != (dims == 2)) continue;  // a 1D file takes the 1D sizes, a 2D file the 2D ones
        Image input = dims == 1 ? Image::signal(std::vector<float>(size->width)) : Image::planar(size->width, size->height);
        for (std::size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
        for (int r : o.radii) {
            // Asymmetric, as `check --radius` makes it: a mask read flipped or transposed is not right.
            const Mask mask = generatedMask(dims, r);
            RunRequest req;
            req.own = *kernel;
            req.kernel = std::string((*kernel)->info->name);
            req.input = &input;
            req.mask = &mask;
            req.backend = Backend::Cuda;
            req.benchRepeats = std::max(o.timing.minRepeats, 10);
            req.timeLimitSeconds = 120;
            auto run = runKernel(req);
            if (!run) return fail(run.error());
            const double error =
                reference::maxAbsDifference(run->output.data, reference::convolve(input, mask));
            const bool right = error <= reference::float32Tolerance(input, mask);
            const double bytes = 8.0 * static_cast<double>(input.data.size());
            std::printf("%-12s %6d %10.4f %10.1f %8s\n", text.c_str(), r, run->millis, bytes / (run->millis * 1e6),
                        right ? "yes" : "NO");
        }
    }
    return 0;
}

}  // namespace

Command addBenchCommand(CLI::App& app) {
    auto options = std::make_shared<BenchCli>();
    auto* c = app.add_subcommand("bench", "time kernels on the GPU: ms, GB/s, % of copy, GFLOP/s, % of FP32 peak");
    c->add_option("--kernel,-k", options->kernels, "kernels to time, comma-separated: names, all, 1d or 2d")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--size", options->sizes,
                  "sizes, comma-separated: WxH for 2D kernels, N for 1D kernels (each kernel runs on each size of "
                  "its kind)")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--radius,-r", options->radii, "mask radii, comma-separated (mask width 2r+1)")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--block,-b", options->blocks, "block edges, comma-separated (0: each kernel's default)")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--warmup", options->timing.warmup, "untimed launches first")->capture_default_str();
    c->add_option("--min-repeat", options->timing.minRepeats, "timed launches at least")->capture_default_str();
    c->add_option("--repeat", options->timing.maxRepeats, "timed launches at most")->capture_default_str();
    c->add_option("--millis", options->timing.millisPerCase, "GPU time to aim for per case, in ms")
        ->capture_default_str();
    c->add_option("--csv", options->csv, "also write the table as CSV here");
    c->add_option("--markdown", options->markdown, "also write the table as Markdown here");
    c->add_option("--tune", options->tune,
                  "conv2d_fast's shape: auto (the choice cached for this GPU, else the menu timed now and cached), "
                  "again (time the menu anew) or off (the model's shape)")
        ->check(CLI::IsMember({"auto", "again", "off"}))
        ->capture_default_str();
    c->add_flag("--menu", options->menu, "conv2d_fast: time every shape of the tuning menu, one row each");
    c->add_option("--kernel-file", options->kernelFile,
                  "your own CUDA kernel file: its plain kernel, compiled with NVRTC, timed at each size and radius")
        ->excludes("--kernel");
    return Command{c, [options] { return options->kernelFile.empty() ? runBench(*options) : runOwnBench(*options); }};
}

}  // namespace tilescope::cli
