// A kernel's run as a command or a request to the server asks for it: its
// options read into the runner's request (request.hpp).
#include "request/request.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

#include "core/kernel_catalogue.hpp"
#include "io/files.hpp"
#include "io/mask_file.hpp"
#include "own/compile_cache.hpp"
#include "trace/trace_select.hpp"

namespace tilescope::request {

namespace {

Status parseDrop(const std::string& text, BarrierDrop& drop) {
    drop = BarrierDrop{};
    if (text.empty())
        return success();
    if (text == "all") {
        drop.all = true;
        return success();
    }
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string::npos)
            end = text.size();
        const std::string item = text.substr(begin, end - begin);
        unsigned line = 0;
        std::size_t used = 0;
        try {
            const unsigned long v = std::stoul(item, &used);
            line = v <= kMaxBarrierLine ? static_cast<unsigned>(v) : 0;
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || item[0] == '-' || item[0] == '+' || line == 0)
            return badInput("--drop-barrier '" + text + "': give all, or line numbers from 1 to " +
                            std::to_string(kMaxBarrierLine) + " separated by commas");
        drop.lines.push_back(line);
        begin = end + 1;
    }
    return success();
}

Result<Image> generateInput(const std::string& size, int dims, unsigned seed) {
    int w = 0, h = 0;
    char x = 0;
    char extra = 0;
    const int fields = std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra);
    if (fields == 1 && w > 0) {
        h = 1;
    } else if (fields == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0) {
    } else {
        return badInput("--size '" + size + "' is not N or WxH with positive numbers");
    }
    if (static_cast<long long>(w) * h > (1LL << 28))
        return badInput("--size '" + size + "' is too large");
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    Image image = (fields == 1 && dims == 1) ? Image::signal(std::vector<float>(w)) : Image::planar(w, h);
    for (float& v : image.data)
        v = value(random);
    return image;
}

}  // namespace

Mask generatedMask(int dims, int radius) {
    const int w = 2 * std::max(radius, 0) + 1;
    const int n = dims == 1 ? w : w * w;
    std::vector<float> values(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
        values[static_cast<std::size_t>(k)] = static_cast<float>(2.0 * (k + 1) / (static_cast<double>(n) * (n + 1)));
    return dims == 1 ? Mask::row(values) : Mask::square(w, values);
}

std::string generatedMaskText(int dims, int radius) {
    const std::string w = std::to_string(2 * std::max(radius, 0) + 1);
    const std::string size = dims == 1 ? w + " wide" : w + "x" + w;
    if (radius <= 0)
        return "generated " + size + " (a single weight: there is nothing to flip)";
    return "generated " + size + ", asymmetric (" +
           (dims == 1 ? "its mirror image is not equal to it" : "no flip or transpose of it is equal to it") +
           "): the weights 1 to " + std::to_string(dims == 1 ? 2 * radius + 1 : (2 * radius + 1) * (2 * radius + 1)) +
           " in reading order, scaled to add up to 1";
}

Result<own::SandboxMode> classSandbox(const std::string& text, const char* fallback, const std::string& why) {
    const std::string name = text.empty() ? fallback : text;
    const std::optional<own::SandboxMode> mode = own::parseSandboxMode(name);
    if (!mode)
        return badInput("--sandbox " + name + ": give required, auto or off");
    if (Result<bool> wanted = own::sandboxWanted(*mode); !wanted)
        return Error{wanted.error().code, wanted.error().message + "; " + why};
    return *mode;
}

Status load(const KernelOptions& o, Loaded& loaded) {
    const KernelInfo* kernel = nullptr;
    if (!o.kernelFile.empty()) {
        own::CompileOptions options = o.compile;
        options.cache = own::userCompileCache();
        if (!o.sandbox.empty())
            options.sandbox = own::parseSandboxMode(o.sandbox).value_or(own::SandboxMode::Auto);
        else if (!o.kernelText)
            options.sandbox = own::sandboxModeFromEnvironment();
        // Auto without a sandbox to be had: said once, on stderr (the server
        // says it once when it starts).
        if (const std::string note = own::sandboxNote(options.sandbox); !note.empty() && !o.kernelText)
            std::fprintf(stderr, "tilescope: %s\n", note.c_str());
        auto compiled = o.kernelText
                            ? own::compileKernelText(o.kernelFile, *o.kernelText, options, &loaded.diagnostic)
                            : own::compileKernelFile(o.kernelFile, options, &loaded.diagnostic);
        if (!compiled)
            return compiled.error();
        loaded.own = *compiled;
        kernel = loaded.own->info;
    } else if (o.kernel.empty()) {
        return badInput("name a kernel: --kernel NAME (tilescope list) or --kernel-file FILE.cu");
    } else {
        kernel = findKernel(o.kernel);
    }
    if (!kernel)
        return badInput("unknown kernel '" + o.kernel + "' (`tilescope list` names the kernels)");
    if (o.inputValues) {
        const Image& given = *o.inputValues;
        if (kernel->dims == 1 && given.height != 1)
            return badInput(std::string(kernel->name) + " is a 1D kernel: give it a signal (a size of N, not WxH)");
        if (kernel->dims == 2 && given.rank == 1)
            return badInput(std::string(kernel->name) + " is a 2D kernel: give it an image (a size of WxH)");
        loaded.input = given;
    } else if (!o.input.empty()) {
        auto input = io::readInput(o.input);
        if (!input)
            return input.error();
        loaded.input = std::move(*input);
    } else if (!o.size.empty()) {
        auto input = generateInput(o.size, kernel->dims, o.seed);
        if (!input)
            return input.error();
        loaded.input = std::move(*input);
    } else {
        return badInput("give an input: --input FILE or --size N (or WxH)");
    }
    if (o.maskValues) {
        if (o.maskValues->width % 2 == 0 || o.maskValues->height % 2 == 0)
            return badInput("the mask is " + std::to_string(o.maskValues->width) + "x" +
                            std::to_string(o.maskValues->height) + "; a mask of radius R is 2R+1 wide and high");
        if (kernel->dims == 1 ? o.maskValues->height != 1 : o.maskValues->height != o.maskValues->width)
            return badInput(std::string("a ") + (kernel->dims == 2 ? "2D kernel takes a square mask (rows of values)"
                                                                   : "1D kernel takes a mask of one row"));
        loaded.mask = *o.maskValues;
        loaded.maskText = "given, " + std::to_string(loaded.mask.width) +
                          (loaded.mask.height > 1 ? "x" + std::to_string(loaded.mask.height) : " wide");
    } else if (!o.mask.empty()) {
        auto mask = io::readMask(o.mask);
        if (!mask)
            return mask.error();
        loaded.mask = std::move(*mask);
        loaded.maskText = o.mask + ", " + std::to_string(loaded.mask.width) +
                          (loaded.mask.height > 1 ? "x" + std::to_string(loaded.mask.height) : " wide");
    } else if (o.radius < -1) {
        return badInput("--radius " + std::to_string(o.radius) + " is negative; a mask of radius R is 2R+1 wide");
    } else if (o.radius >= 0) {
        // Asymmetric, so that `check` tells a mask read flipped or transposed.
        loaded.mask = generatedMask(kernel->dims, o.radius);
        loaded.maskText = generatedMaskText(kernel->dims, o.radius);
    } else {
        return badInput("give a mask: --mask FILE or --radius R");
    }
    RunRequest& r = loaded.request;
    r.kernel = std::string(kernel->name);
    // Resolved here, once: the runner and everything below it read the entry
    // (a student's kernel is RunRequest::own, which holds its own).
    r.entry = loaded.own ? nullptr : kernel;
    r.own = loaded.own;
    r.printout = loaded.own ? &loaded.printout : nullptr;
    r.timeLimitSeconds = o.timeLimit;
    r.input = &loaded.input;
    r.mask = &loaded.mask;
    r.block = o.block;
    r.whatIf = o.whatIf;
    r.backend = o.backend == "cpu" ? Backend::Cpu : o.backend == "cuda" ? Backend::Cuda : Backend::Auto;
    if (o.block < 0)
        return badInput("--block " + std::to_string(o.block) + " is negative");
    if (Status s = parseDrop(o.dropBarrier, r.drop); !s)
        return s;
    r.seed = o.seed;
    r.asIs = o.asIs;
    r.schedule = r.drop.any() ? Schedule::Reverse : Schedule::InOrder;
    if (!o.schedule.empty()) {
        scheduleFromName(o.schedule, r.schedule);
        // The GPU's warp scheduler decides its own order.
        if (r.backend == Backend::Cuda)
            return badInput(
                "--schedule orders the CPU executor's warps; on the GPU the hardware chooses (use "
                "--backend cpu, or leave --schedule out)");
        r.backend = Backend::Cpu;
    }
    return success();
}

Result<RunResult> runTraced(const KernelOptions& options, const TraceSelection& selection, Loaded& loaded) {
    if (Status s = load(options, loaded); !s)
        return s.error();
    loaded.request.trace = true;
    loaded.request.eventBudget = selection.eventBudget;
    if (loaded.own) {
        // A kernel file's launch is its own: known once it has run. Every
        // block is traced, then the blocks asked for are kept.
        auto result = runKernel(loaded.request);
        if (!result)
            return result.error();
        auto blocks = parseTraceBlocks(selection.blocks, result->plan);
        if (!blocks)
            return blocks.error();
        if (result->trace && !blocks->empty()) {
            std::vector<BlockEvents> kept;
            for (BlockEvents& b : result->trace->blocks)
                for (const Dim3& want : *blocks)
                    if (sameBlock(want, b.block, result->plan.grid)) {
                        kept.push_back(std::move(b));
                        break;
                    }
            result->trace->blocks = std::move(kept);
        }
        if (!result->trace)
            return Error{ExitCode::Internal, "the run returned no trace"};
        return result;
    }
    auto plan = planRequest(loaded.request);
    if (!plan)
        return plan.error();
    auto blocks = parseTraceBlocks(selection.blocks, *plan);
    if (!blocks)
        return blocks.error();
    loaded.request.plan = *plan;
    loaded.request.traceBlocks = *blocks;
    auto result = runKernel(loaded.request);
    if (!result)
        return result.error();
    if (!result->trace)
        return Error{ExitCode::Internal, "the run returned no trace"};
    return result;
}

Json launchJson(const RunResult& run) {
    const Trace& trace = *run.trace;
    const LaunchPlan& p = trace.plan;
    Json j;
    j["kernel"] = trace.kernel;
    if (p.kernel == KernelId::Own)
        j["kernel_file"] = std::string(kernelOf(p).sourceFile.substr(4));
    j["backend"] = trace.backend;
    j["backend_reason"] = run.backendReason;
    if (!run.gpuFailure.empty())
        j["gpu_failure"] = run.gpuFailure;
    j["what_if"] = p.whatIf;
    j["what_if_reason"] = p.whatIfReason;
    j["grid"] = {p.grid.x, p.grid.y};
    j["block_dim"] = {p.block.x, p.block.y};
    return j;
}

}  // namespace tilescope::request
