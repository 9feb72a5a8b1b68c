// The app's commands: `tilescope` with no command opens the app on the
// built-in demo (or on the set-up saved last time); `tilescope screenshot`
// draws the app in a given state into a PNG; `tilescope ui-bench` times its
// frames. Screenshot and ui-bench take the `run` options (--kernel, --input,
// --mask, --radius, --block, --backend, --what-if) plus the app's own choices
// (--builtin, --preset, --input-size), so a slide can be made of any state;
// --drop-barrier, --schedule and --problem put it where a race demonstration
// stands after a click in the Source or the Problems panel.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "api/kernels.hpp"
#include "api/runner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "ui/app.hpp"
#include "ui/setup_rules.hpp"

namespace tilescope::cli {

namespace {

std::string keys(auto range) {
    std::string text;
    for (const auto& item : range) {
        if (item.key == "file" || item.key == "custom")
            continue;
        if (!text.empty())
            text += ", ";
        text += std::string(item.key);
    }
    return text;
}

// [SECTION] The options that put the app in a state

constexpr const char* kPanelNames =
    "setup, result, device, help, grid, threads, shared, output, source, counts, hardware, problems, editor, charts";

struct StateOptions {
    KernelOptions run;      // --kernel, --input, --mask, --radius, --block, --backend, --what-if
    std::string builtin;    // a built-in input instead of --input
    std::string preset;     // a mask preset instead of --mask
    std::string inputSize;  // N or WxH: the built-in input's size (or a file's, resized)
    std::string select;     // X or X,Y
    long long step = -1;
    std::string compare;
    bool lecture = false;
    std::string windowSize = "1600x900";
    std::string panels;  // setup,result,device,help
    std::string openTrace;  // a trace file to show instead of tracing
    std::size_t eventBudget = ui::kDefaultEventBudget;
    std::string dropBarrier;  // all, or LINE[,LINE...]: the Source panel's check boxes unticked
    std::string schedule;     // in-order, reverse, random (default: reverse when a barrier is dropped)
    long long problem = -1;   // select the N-th problem of the Problems panel
};

void addStateOptions(CLI::App& command, StateOptions& o) {
    addKernelOptions(command, o.run, true);
    // `run`'s --size generates a random input; here --size is the picture's
    // size (as issue 4 specifies), and the input's size is --input-size.
    command.remove_option(command.get_option("--size"));
    command.remove_option(command.get_option("--seed"));
    command.get_option("--kernel")->required(false)->description("kernel name (tilescope list); default: the demo's");
    // The kernel file in the editor; with --kernel too, the one compared with (--compare own).
    command.get_option("--kernel")->remove_excludes(command.get_option("--kernel-file"));
    command.get_option("--kernel-file")->remove_excludes(command.get_option("--kernel"));
    command.get_option("--kernel-file")
        ->description(
            "your own CUDA kernel file (.cu): open in the editor, compiled and run as the kernel (with "
            "--kernel K, as the one compared with: --compare own)");
    command.get_option("--radius")->description("the mask's radius, with --preset (alone: a box blur, as `run` makes)");
    auto* builtin = command.add_option("--builtin", o.builtin,
                                       "a built-in input: " + keys(ui::inputSources()) + " (default: the demo's)");
    builtin->excludes(command.get_option("--input"));
    auto* preset =
        command.add_option("--preset", o.preset, "a mask preset: " + keys(ui::maskPresets()) + " (with --radius)");
    preset->excludes(command.get_option("--mask"));
    command.add_option("--input-size", o.inputSize,
                       "size of the built-in input (or of --input, resized): N elements or WxH pixels");
    command.add_option("--select", o.select, "the output element to select: X (1D) or X,Y");
    command.add_option("--step", o.step, "the step of the trace to show")->check(CLI::NonNegativeNumber);
    command.add_option("--compare", o.compare,
                       "a second kernel to compare with, side by side (own: the --kernel-file)");
    command.add_flag("--lecture", o.lecture, "lecture-hall mode: large type, thick lines, high contrast");
    command.add_option("--size", o.windowSize, "the window's size in pixels, WxH (default 1600x900)");
    command.add_option("--panels", o.panels, std::string("panels to show, comma-separated: ") + kPanelNames);
    command.add_option("--open-trace", o.openTrace,
                       "a trace file written by `tilescope trace --out` (on any machine): the step-through views step "
                       "through it, the hardware panel shows which SM ran each block");
    command
        .add_option("--event-budget", o.eventBudget,
                    "the most events the step-through views trace at once (past it: the selected block only)")
        ->check(CLI::PositiveNumber);
    command.add_option("--drop-barrier", o.dropBarrier,
                       "leave out __syncthreads(): all, or the kernel file's line numbers (e.g. 23 or 23,41), as "
                       "unticking them in the Source panel does");
    command
        .add_option("--schedule", o.schedule,
                    "the order the CPU executor runs warps in: in-order, reverse (the default when a barrier is "
                    "dropped) or random")
        ->check(CLI::IsMember({"in-order", "reverse", "random"}));
    command
        .add_option("--problem", o.problem, "select the N-th problem (from 0) of the Problems panel, as a click would")
        ->check(CLI::NonNegativeNumber);
}

// --drop-barrier all|LINE[,LINE...] for `kernel`: the lines, checked against
// its source (a kernel file's, null here, are checked once it has compiled).
Result<std::vector<unsigned>> parseDroppedBarriers(const std::string& text, const KernelInfo* kernel) {
    if (!kernel && text == "all")
        return badInput("--drop-barrier all with --kernel-file: name the lines of its __syncthreads()");
    const std::vector<unsigned> lines = kernel ? barrierLines(*kernel) : std::vector<unsigned>{};
    if (text == "all") {
        if (lines.empty())
            return badInput("--drop-barrier all: " + std::string(kernel->name) + " has no __syncthreads() to drop");
        return lines;
    }
    BarrierDrop drop;
    for (std::size_t begin = 0; begin <= text.size();) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        const bool digits =
            !item.empty() && item.size() <= 3 && item.find_first_not_of("0123456789") == std::string::npos;
        const unsigned line = digits ? static_cast<unsigned>(std::stoul(item)) : 0;
        if (line == 0 || line > kMaxBarrierLine)
            return badInput("--drop-barrier '" + text + "': give all, or line numbers from 1 to " +
                            std::to_string(kMaxBarrierLine) + " separated by commas");
        if (std::find(drop.lines.begin(), drop.lines.end(), line) == drop.lines.end())
            drop.lines.push_back(line);
        begin = end + 1;
    }
    if (Status s = kernel ? checkBarrierDrop(*kernel, drop) : success(); !s)
        return s.error();
    std::sort(drop.lines.begin(), drop.lines.end());
    return drop.lines;
}

Result<std::pair<int, int>> parsePair(const std::string& text, char separator, const char* what) {
    int a = 0, b = 0;
    char sep = 0, extra = 0;
    const int fields = std::sscanf(text.c_str(), "%d%c%d%c", &a, &sep, &b, &extra);
    if (fields == 1)
        return std::pair{a, -1};
    if (fields == 3 && (sep == separator || (separator == 'x' && sep == 'X')))
        return std::pair{a, b};
    return badInput(std::string(what) + " '" + text + "' is not N or N" + separator + "M");
}

Result<ui::AppOptions> toAppOptions(const StateOptions& o, ui::AppMode mode) {
    ui::AppOptions options;
    options.mode = mode;
    const ui::GpuStatus gpu = ui::queryGpu();
    ui::SetupState s = ui::demoSetup(gpu);

    const KernelInfo* kernel = findKernel(s.kernel);
    if (!o.run.kernel.empty()) {
        const KernelInfo* chosen = findKernel(o.run.kernel);
        if (!chosen)
            return badInput("unknown kernel '" + o.run.kernel + "' (`tilescope list` names the ten kernels)");
        s.kernel = o.run.kernel;
        ui::adaptToKernel(s, *kernel, *chosen);
        kernel = chosen;
    }
    // A kernel file is the kernel, or with --kernel the one compared with; its
    // dimension is known once it has compiled (the app then fits the set-up to it).
    const bool ownMain = !o.run.kernelFile.empty() && o.run.kernel.empty();
    if (!o.run.kernelFile.empty()) {
        options.kernelFile = o.run.kernelFile;
        if (ownMain)
            s.kernel = std::string(ui::kOwnKernelKey);
        else if (!ui::isOwnKernel(o.compare))
            return badInput("--kernel and --kernel-file: add --compare own to compare your kernel with " +
                            o.run.kernel);
    }
    const int dims = kernel->dims;

    if (!o.run.input.empty()) {
        s.input.source = ui::InputSource::File;
        s.input.path = o.run.input;  // read by the app: a bad file is shown in place, not fatal
    }
    if (!o.builtin.empty()) {
        const ui::InputSourceInfo* source = ui::findInputSource(o.builtin);
        if (!source || source->id == ui::InputSource::File)
            return badInput("unknown --builtin '" + o.builtin + "' (one of " + keys(ui::inputSources()) + ")");
        s.input.source = source->id;
    }
    if (!o.inputSize.empty()) {
        auto size = parsePair(o.inputSize, 'x', "--input-size");
        if (!size)
            return size.error();
        auto [w, h] = *size;
        if (w <= 0 || (h != -1 && h <= 0))
            return badInput("--input-size '" + o.inputSize + "' must be positive");
        if (dims == 1 && h != -1 && !ownMain)
            return badInput("--input-size for a 1D kernel is one number (elements)");
        s.input.length = w;
        s.input.width = w;
        s.input.height = h == -1 ? w : h;
        if (s.input.source == ui::InputSource::File)
            s.input.fitFile = true;
    }

    if (!o.preset.empty()) {
        const ui::MaskPresetInfo* preset = ui::findMaskPreset(o.preset);
        if (!preset || preset->id == ui::MaskPreset::Custom)
            return badInput("unknown --preset '" + o.preset + "' (one of " + keys(ui::maskPresets()) + ")");
        s.preset = preset->id;
        if (preset->fixedRadius >= 0)
            s.radius = preset->fixedRadius;
    } else if (o.run.radius >= 0 && o.run.mask.empty()) {
        s.preset = ui::MaskPreset::BoxBlur;  // as `run --radius` does: an averaging mask of that size
    }
    if (o.run.radius >= 0)
        s.radius = o.run.radius;  // out of range: the set-up panel explains
    options.maskFile = o.run.mask;

    if (o.run.block < 0)
        return badInput("--block " + std::to_string(o.run.block) + " is negative");
    if (o.run.block > 0)
        s.block = o.run.block;
    s.whatIf = o.run.whatIf;
    s.backend = o.run.backend == "cpu"    ? Backend::Cpu
                : o.run.backend == "cuda" ? Backend::Cuda
                                          : (gpu.available ? Backend::Cuda : Backend::Cpu);
    if (!o.dropBarrier.empty()) {
        auto lines = parseDroppedBarriers(o.dropBarrier, ownMain ? nullptr : kernel);
        if (!lines)
            return lines.error();
        s.droppedBarriers = std::move(*lines);
        s.schedule = Schedule::Reverse;  // as the Source panel does when a first barrier is dropped
    }
    if (!o.schedule.empty())
        scheduleFromName(o.schedule, s.schedule);
    options.setup = s;

    if (!o.select.empty()) {
        auto xy = parsePair(o.select, ',', "--select");
        if (!xy)
            return xy.error();
        if (xy->first < 0 || xy->second < -1)
            return badInput("--select '" + o.select + "' must not be negative");
        options.view.selectedOutput = std::array<int, 2>{xy->first, std::max(xy->second, 0)};
    }
    if (o.step >= 0)
        options.view.step = o.step;
    if (o.problem >= 0)
        options.view.problem = static_cast<std::size_t>(o.problem);
    if (ui::isOwnKernel(o.compare) && o.run.kernelFile.empty())
        return badInput("--compare own compares with your kernel file: give it with --kernel-file");
    if (ui::isOwnKernel(o.compare) && ownMain)
        return badInput("--compare own: your kernel file is the kernel already; compare it with a kernel of the book");
    if (!o.compare.empty() && ui::isOwnKernel(o.compare)) {
        options.view.compareKernel = o.compare;  // its dimension is checked once it has compiled
    } else if (!o.compare.empty()) {
        const KernelInfo* other = findKernel(o.compare);
        if (!other)
            return badInput("unknown --compare kernel '" + o.compare + "'");
        if (other->dims != dims && !ownMain)
            return badInput("--compare " + o.compare + " is a " + std::to_string(other->dims) + "D kernel; compare " +
                            "kernels of the same dimension as " + s.kernel);
        options.view.compareKernel = o.compare;
    }

    auto window = parsePair(o.windowSize, 'x', "--size");
    if (!window)
        return window.error();
    if (window->second == -1 || window->first < 320 || window->second < 240 || window->first > 8192 ||
        window->second > 8192)
        return badInput("--size '" + o.windowSize + "' must be WxH, from 320x240 to 8192x8192");
    options.width = window->first;
    options.height = window->second;
    if (o.lecture)
        options.lecture = true;

    if (!o.panels.empty()) {
        ui::PanelVisibility panels{false, false, false, false, false, false, false,
                                   false, false, false, false, false, false};
        std::size_t start = 0;
        while (start <= o.panels.size()) {
            const std::size_t end = std::min(o.panels.find(',', start), o.panels.size());
            const std::string name = o.panels.substr(start, end - start);
            if (name == "setup")
                panels.setup = true;
            else if (name == "result")
                panels.result = true;
            else if (name == "device")
                panels.device = true;
            else if (name == "help")
                panels.help = true;
            else if (name == "grid")
                panels.grid = true;
            else if (name == "threads")
                panels.threads = true;
            else if (name == "shared")
                panels.shared = true;
            else if (name == "output")
                panels.output = true;
            else if (name == "source")
                panels.source = true;
            else if (name == "counts")
                panels.counts = true;
            else if (name == "hardware")
                panels.hardware = true;
            else if (name == "problems")
                panels.problems = true;
            else if (name == "editor")
                panels.editor = true;
            else if (name == "charts")
                panels.charts = true;
            else
                return badInput("unknown panel '" + name + "' in --panels (" + kPanelNames + ")");
            start = end + 1;
        }
        options.panels = panels;
    }
    options.openTrace = o.openTrace;
    options.eventBudget = o.eventBudget;
    return options;
}

// [SECTION] The commands

struct AppCommandState {
    // tilescope [--lecture] [--config-dir DIR]
    bool lecture = false;
    std::string configDir;
    int frames = 0;
    std::string openTrace;
    std::size_t eventBudget = ui::kDefaultEventBudget;
    std::string compare;
    std::string kernelFile;
    // tilescope screenshot
    StateOptions screenshot;
    std::string out;
    std::string layout;
    std::string thenOpen;
    // tilescope ui-bench
    StateOptions bench;
    int benchFrames = 300;
    int recomputeEvery = 0;
    int stepEvery = 0;
};

int runApp(const AppCommandState& state) {
    ui::AppOptions options;
    options.mode = ui::AppMode::Interactive;
    if (state.lecture)
        options.lecture = true;
    options.configDir = state.configDir;
    options.frames = state.frames;
    options.openTrace = state.openTrace;
    options.eventBudget = state.eventBudget;
    options.kernelFile = state.kernelFile;
    if (ui::isOwnKernel(state.compare) && state.kernelFile.empty())
        return fail(badInput("--compare own compares with your kernel file: give it with --kernel-file"));
    if (!state.compare.empty() && !findKernel(state.compare) && !ui::isOwnKernel(state.compare))
        return fail(badInput("unknown --compare kernel '" + state.compare + "' (`tilescope list` names the kernels)"));
    options.view.compareKernel = state.compare;  // one of another dimension than the set-up's is dropped
    ui::App app(std::move(options));
    return app.run();
}

int runScreenshot(const AppCommandState& state) {
    auto options = toAppOptions(state.screenshot, ui::AppMode::Screenshot);
    if (!options)
        return fail(options.error());
    options->screenshot = state.out;
    options->layoutJson = state.layout;
    options->thenOpen = state.thenOpen;
    ui::App app(std::move(*options));
    return app.run();
}

int runBench(const AppCommandState& state) {
    auto options = toAppOptions(state.bench, ui::AppMode::Bench);
    if (!options)
        return fail(options.error());
    options->frames = state.benchFrames;
    options->recomputeEvery = state.recomputeEvery;
    options->stepEvery = state.stepEvery;
    ui::App app(std::move(*options));
    return app.run();
}

}  // namespace

Command addAppCommands(CLI::App& app, std::vector<Command>&) {
    auto state = std::make_shared<AppCommandState>();

    app.add_flag("--lecture", state->lecture, "open the app in lecture-hall mode (large type, high contrast)");
    app.add_option("--config-dir", state->configDir,
                   "where the app keeps settings.json and imgui.ini (default: $XDG_CONFIG_HOME/tilescope)");
    app.add_option("--frames", state->frames, "close the app after this many frames (for tests)")
        ->check(CLI::NonNegativeNumber)
        ->group("");
    app.add_option("--event-budget", state->eventBudget,
                   "the most events the step-through views trace at once (past it: the selected block only)")
        ->check(CLI::PositiveNumber);
    app.add_option("--compare", state->compare,
                   "a second kernel to compare with, side by side (also in the set-up panel, and remembered)");
    app.add_option("--kernel-file", state->kernelFile,
                   "your own CUDA kernel file (.cu): opened in the editor, compiled and run (also File > Open "
                   "kernel..., and remembered)");
    app.add_option("--open-trace", state->openTrace,
                   "a trace file written by `tilescope trace --out` (on any machine): the step-through views step "
                   "through it, the hardware panel shows which SM ran each block");

    auto* screenshot = app.add_subcommand(
        "screenshot", "draw the app in a given state into a PNG (needs an X display: use xvfb-run without one)");
    addStateOptions(*screenshot, state->screenshot);
    screenshot->add_option("--out,-o", state->out, "the PNG to write")->required();
    screenshot->add_option("--layout", state->layout,
                           "also write where things were drawn, as JSON (for tests that check pixels)");
    screenshot->add_option("--then-open", state->thenOpen,
                           "once the first result is in, open this input file (as if dropped on the window), "
                           "and draw the app after that");

    auto* bench = app.add_subcommand("ui-bench", "time the app's frames and print the median and the worst");
    addStateOptions(*bench, state->bench);
    bench->add_option("--frames", state->benchFrames, "frames to time (default 300)")->check(CLI::PositiveNumber);
    bench
        ->add_option("--recompute-every", state->recomputeEvery,
                     "re-run the kernel every K frames, to time frames that take in new results")
        ->check(CLI::NonNegativeNumber);
    bench
        ->add_option("--step-every", state->stepEvery,
                     "step the trace forward every K frames (with the step-through views open), to time stepping")
        ->check(CLI::NonNegativeNumber);

    // One command that dispatches: this file's subcommands are not pushed
    // into `commands`, because the command line runs commands.front() when no
    // subcommand matched, and that must stay the app.
    return Command{nullptr, [state, screenshot, bench] {
                       if (*screenshot)
                           return runScreenshot(*state);
                       if (*bench)
                           return runBench(*state);
                       return runApp(*state);
                   }};
}

}  // namespace tilescope::cli
