// The app's commands: `tilescope` with no command opens the app on the
// built-in demo (or on the set-up saved last time); `tilescope screenshot`
// draws the app in a given state into a PNG; `tilescope export` steps
// through the trace of that state into a GIF, an MP4, PNGs, or draws its grid
// diagram as an SVG; `tilescope ui-bench` times its frames. Screenshot,
// export and ui-bench take the `run` options (--kernel, --input,
// --mask, --radius, --block, --backend, --what-if) plus the app's own choices
// (--builtin, --preset, --input-size), so a slide can be made of any state;
// --drop-barrier, --schedule and --problem put it where a race demonstration
// stands after a click in the Source or the Problems panel.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "export/frame_writer.hpp"
#include "model/class_results.hpp"
#include "model/live_class.hpp"
#include "model/lesson.hpp"
#include "model/setup_rules.hpp"
#include "ui/app.hpp"
#include "model/lesson.hpp"
#include "model/panel_table.hpp"
#include "model/setup_rules.hpp"
#include "ui/drivers/bench_driver.hpp"
#include "ui/drivers/export_driver.hpp"
#include "ui/drivers/lesson_render_driver.hpp"
#include "ui/drivers/screenshot_driver.hpp"
#include "ui/exporter.hpp"

#if defined(TILESCOPE_HAVE_SERVE)
#include "serve/class_client.hpp"
#endif

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
    std::string granularity;  // step, warp, event or request: what the stepping bar's > moves by
    long long request = -1;   // the selected thread's warp's K-th request (by warp request from the start)
    std::string focus;        // a panel that fills the window
    std::string lesson;       // a lesson (its name or file), shown at lessonStep
    int lessonStep = 1;
    std::string answer;       // the answer to the step's question
    bool reveal = false;      // and the answer revealed
    std::string classResults;  // a graded class in the Class panel
    std::string classOpen;     // that student's row clicked
    long long classPattern = -1;  // the K-th pattern of the panel's list clicked
    std::string classServer;      // a lab's server, followed live in the Class panel (the teacher's link)
    bool classNow = false;        // the projector's layout of the class
    bool classNames = false;      // the students' names shown
    std::string classOpenLive;    // that student's tile clicked (id, or number from 1)
};

// The options of a class followed live, for the app and its pictures alike.
void addLiveClassOptions(CLI::App& command, std::string& server, bool& now, bool& names) {
    command.add_option("--class-server", server,
                       "follow a running `tilescope serve --roster` in the Class panel, live: the teacher's link, "
                       "http://HOST:PORT/#token=... (roster.teacher.txt; docs/serve.md)");
    command.add_flag("--class-now", now,
                     "the class on a projector: lecture-hall mode, the Class panel filling the window");
    command.add_flag("--class-names", names, "show the students' names in the live class (hidden by default)");
}

// --class-server: the teacher's link, followed over HTTP (cpp-httplib, as
// `serve` is; model/live_class.hpp).
Result<std::shared_ptr<ui::ClassFollower>> classFollowerFor(const std::string& link) {
    auto parsed = ui::parseClassLink(link);
    if (!parsed)
        return parsed.error();
#if defined(TILESCOPE_HAVE_SERVE)
    auto client = std::make_shared<serve::ClassHttpClient>(parsed->base, parsed->prefix, parsed->token);
    ui::ClassTransport transport = [client](const std::string& path, double delay,
                                            std::function<void(ui::ServedReply)> done) {
        client->get(path, delay, [done = std::move(done)](int status, std::string body) {
            done(ui::ServedReply{status, std::move(body)});
        });
    };
    return std::make_shared<ui::ClassFollower>(std::move(transport), parsed->base.substr(parsed->base.find("://") + 3));
#else
    return badInput("--class-server: this tilescope was built without cpp-httplib (libcpp-httplib-dev), which "
                    "follows a server");
#endif
}

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
    command.get_option("--radius")->description("the mask's radius, with --preset (alone: a box blur)");
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
    command.add_option("--panels", o.panels, "panels to show, comma-separated: " + ui::panelNameList() + ", or all");
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
    command
        .add_option("--granularity", o.granularity,
                    "what a step of the stepping bar moves by: step, warp (one warp's part of a step), event, or "
                    "request (the selected thread's warp's memory requests, one at a time)")
        ->check(CLI::IsMember({"step", "warp", "event", "request"}));
    command
        .add_option("--request", o.request,
                    "show the selected thread's warp's K-th memory request (from 0), stepping by warp request from "
                    "the start")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--focus", o.focus, "a panel that fills the window: " + ui::focusPanelNameList());
    addLiveClassOptions(command, o.classServer, o.classNow, o.classNames);
    command.add_option("--class-open-live", o.classOpenLive,
                       "with --class-server: open that student's latest kernel at its first problem, as a click on "
                       "their tile would (their id, or their number from 1)");
    command.add_option("--class", o.classResults,
                       "a graded class in the Class panel: a results folder of `tilescope grade`, or its class.json");
    command.add_option("--class-open", o.classOpen,
                       "with --class: open that student's kernel at its first problem, as a click on the row would");
    command
        .add_option("--class-pattern", o.classPattern,
                    "with --class: list only the submissions of the K-th pattern (from 0, most students first), as a "
                    "click on it would")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--lesson", o.lesson,
                       "a lesson: its name (tilescope lesson --list) or a lesson file; the lesson sets the kernel, "
                       "the input and the panels");
    command.add_option("--lesson-step", o.lessonStep, "the lesson's step to show (from 1)")
        ->check(CLI::PositiveNumber);
    command.add_option("--answer", o.answer,
                       "an answer to the step's question: a number, numbers separated by spaces, or cells \"x,y x,y\"");
    command.add_flag("--reveal", o.reveal, "reveal the step's answer (with --answer: graded)");
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

// The state the options put the app in (the driver of each command sets its mode).
Result<ui::AppOptions> toAppOptions(const StateOptions& o) {
    ui::AppOptions options;
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
        // An averaging mask of that size, a picture to look at (`run --radius`
        // makes an asymmetric mask instead, for checking: cli::generatedMask).
        s.preset = ui::MaskPreset::BoxBlur;
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
    if (!o.granularity.empty())
        options.view.granularity = o.granularity == "warp"      ? Granularity::WarpStep
                                   : o.granularity == "event"   ? Granularity::Event
                                   : o.granularity == "request" ? Granularity::WarpRequest
                                                                : Granularity::Step;
    if (o.request >= 0) {
        if (o.step >= 0)
            return badInput("--request K and --step S both put the cursor somewhere: give one");
        if (!o.granularity.empty() && o.granularity != "request")
            return badInput("--request K steps by warp request: leave out --granularity " + o.granularity);
        options.view.request = o.request;
    }
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
        ui::PanelVisibility panels = ui::PanelVisibility::none();
        std::size_t start = 0;
        while (start <= o.panels.size()) {
            const std::size_t end = std::min(o.panels.find(',', start), o.panels.size());
            const std::string name = o.panels.substr(start, end - start);
            if (name == "all") {
                for (const ui::PanelInfo& p : ui::kPanelTable)
                    panels[p.id] = true;
                start = end + 1;
                continue;
            }
            bool* flag = panels.find(name);
            if (!flag)
                return badInput("unknown panel '" + name + "' in --panels (" + ui::panelNameList() + ")");
            *flag = true;
            start = end + 1;
        }
        options.panels = panels;
    }
    options.openTrace = o.openTrace;
    options.eventBudget = o.eventBudget;
    options.focus = o.focus;
    options.lesson = o.lesson;
    options.lessonStep = o.lessonStep - 1;
    options.lessonAnswer = o.answer;
    options.lessonReveal = o.reveal;
    if ((!o.classOpen.empty() || o.classPattern >= 0) && o.classResults.empty())
        return badInput("--class-open and --class-pattern belong to a graded class: give it with --class");
    if (!o.classResults.empty()) {
        // Read here too: a class.json that cannot be read is one message and exit 2, before any window.
        if (auto read = ui::readClassResults(o.classResults); !read)
            return read.error();
        options.classResults = o.classResults;
        options.classOpen = o.classOpen;
        if (o.classPattern >= 0)
            options.classPattern = static_cast<std::size_t>(o.classPattern);
    }
    if (!o.classServer.empty()) {
        auto follower = classFollowerFor(o.classServer);
        if (!follower)
            return follower.error();
        options.classFollower = std::move(*follower);
    }
    if (o.classNow) {
        options.lecture = true;
        options.focus = "class";
    }
    options.classNames = o.classNames;
    if (!o.classOpenLive.empty() && o.classServer.empty())
        return badInput("--class-open-live belongs to a class followed live: give it with --class-server");
    options.classOpenLive = o.classOpenLive;
    if (o.lesson.empty() && (o.lessonStep != 1 || !o.answer.empty() || o.reveal))
        return badInput("--lesson-step, --answer and --reveal belong to a lesson: give it with --lesson");
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
    std::string classResults;
    std::string classServer;
    bool classNow = false, classNames = false, classShownLog = false;
    // tilescope screenshot
    StateOptions screenshot;
    std::string out;
    std::string layout;
    std::string thenOpen;
    std::vector<std::string> input;  // screenshot --do: scripted input (tests)
    std::string appLesson;  // tilescope --lesson NAME|FILE
    // tilescope lesson
    std::vector<std::string> checkFiles;
    bool listLessons = false;
    std::string renderLesson;
    std::string renderDir;
    bool renderLecture = false;
    std::string renderSize = "1920x1080";
    // tilescope export
    StateOptions exportState;
    std::string gif, mp4, pngDir, svg;
    std::string view = "grid";
    std::string by = "step";
    long long from = -1, to = -1, every = 1;
    double fps = 8.0;
    std::string exportSize;
    // tilescope ui-bench
    StateOptions bench;
    int benchFrames = 300;
    int recomputeEvery = 0;
    int stepEvery = 0;
    bool panelCosts = false;
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
    options.lesson = state.appLesson;
    if (!state.classResults.empty()) {
        if (auto read = ui::readClassResults(state.classResults); !read)
            return fail(read.error());
        options.classResults = state.classResults;
    }
    if (!state.classServer.empty()) {
        auto follower = classFollowerFor(state.classServer);
        if (!follower)
            return fail(follower.error());
        options.classFollower = std::move(*follower);
    }
    if (state.classNow) {
        options.lecture = true;
        options.focus = "class";
    }
    options.classNames = state.classNames;
    options.classShownLog = state.classShownLog;
    ui::App app(std::move(options));
    return app.run();
}

// tilescope lesson --check FILE... | --list | NAME|FILE --render DIR
int runLesson(const AppCommandState& state) {
    if (state.listLessons) {
        const ui::LessonLibrary library = ui::shippedLessons();
        for (const ui::Lesson& l : library.lessons)
            std::printf("%-20s %2zu steps  %s\n", l.file.stem().string().c_str(), l.steps.size(), l.title.c_str());
        for (const ui::LessonError& e : library.errors)
            std::fprintf(stderr, "tilescope: %s\n", e.message().c_str());
        return library.errors.empty() ? 0 : static_cast<int>(ExitCode::BadInput);
    }
    if (!state.checkFiles.empty()) {
        bool bad = false;
        for (const std::string& file : state.checkFiles) {
            const ui::LessonRead read = ui::readLesson(file);
            if (read.lesson) {
                int questions = 0;
                for (const ui::LessonStep& step : read.lesson->steps)
                    questions += step.question ? 1 : 0;
                std::printf("%s: %zu steps, %d questions: \"%s\"\n", file.c_str(), read.lesson->steps.size(), questions,
                            read.lesson->title.c_str());
            }
            for (const ui::LessonError& e : read.errors)
                std::fprintf(stderr, "tilescope: %s\n", e.message().c_str());
            bad |= !read.lesson;
        }
        return bad ? static_cast<int>(ExitCode::BadInput) : 0;
    }
    if (state.renderLesson.empty() || state.renderDir.empty())
        return fail(badInput("tilescope lesson: give --check FILE..., --list, or a lesson and --render DIR"));
    std::error_code error;
    std::filesystem::create_directories(state.renderDir, error);
    if (error || !std::filesystem::is_directory(state.renderDir))
        return fail(badInput("--render " + state.renderDir + ": cannot make that folder"));
    StateOptions o;
    o.lecture = state.renderLecture;
    o.windowSize = state.renderSize;
    o.lesson = state.renderLesson;
    auto options = toAppOptions(o);
    if (!options)
        return fail(options.error());
    return ui::renderLesson(std::move(*options), state.renderDir);
}

int runScreenshot(const AppCommandState& state) {
    auto options = toAppOptions(state.screenshot);
    if (!options)
        return fail(options.error());
    ui::ScreenshotOptions screenshot;
    screenshot.png = state.out;
    screenshot.layoutJson = state.layout;
    screenshot.thenOpen = state.thenOpen;
    screenshot.input = state.input;
    return ui::runScreenshot(std::move(*options), screenshot);
}

int runExport(const AppCommandState& state) {
    ui::ExportRequest request;
    int formats = 0;
    for (const auto& [path, format] :
         {std::pair{&state.gif, ui::ExportFormat::Gif}, std::pair{&state.mp4, ui::ExportFormat::Mp4},
          std::pair{&state.pngDir, ui::ExportFormat::PngSequence}, std::pair{&state.svg, ui::ExportFormat::Svg}})
        if (!path->empty()) {
            ++formats;
            request.format = format;
            request.path = *path;
        }
    if (formats != 1)
        return fail(badInput("export: give one of --gif FILE, --mp4 FILE, --png-dir DIR or --svg FILE"));
    const auto view = ui::exportViewFromName(state.view);
    if (!view)
        return fail(badInput("unknown --view '" + state.view + "' (grid, threads, shared, output or window)"));
    request.view = *view;
    request.by = state.by == "event"     ? Granularity::Event
                 : state.by == "warp"    ? Granularity::WarpStep
                 : state.by == "request" ? Granularity::WarpRequest
                                         : Granularity::Step;
    if (state.from >= 0)
        request.from = state.from;
    if (state.to >= 0)
        request.to = state.to;
    request.every = state.every;
    request.fps = state.fps;
    if (!state.exportSize.empty()) {
        auto size = parsePair(state.exportSize, 'x', "--size");
        if (!size)
            return fail(size.error());
        if (size->second == -1)
            return fail(badInput("--size '" + state.exportSize + "' must be WxH (the frames' size in pixels)"));
        request.size = std::array<int, 2>{size->first, size->second};
    }
    if (Status s = ui::checkExportRequest(request); !s)
        return fail(s.error());
    auto options = toAppOptions(state.exportState);
    if (!options)
        return fail(options.error());
    if (options->panels) {  // the view is drawn to be read back
        ui::PanelVisibility& p = *options->panels;
        p[ui::PanelId::Grid] |= request.view == ui::ExportView::Grid;
        p[ui::PanelId::Threads] |= request.view == ui::ExportView::Threads;
        p[ui::PanelId::Shared] |= request.view == ui::ExportView::Shared;
        p[ui::PanelId::Output] |= request.view == ui::ExportView::Output;
    }
    return ui::runExport(std::move(*options), request);
}

int runBench(const AppCommandState& state) {
    auto options = toAppOptions(state.bench);
    if (!options)
        return fail(options.error());
    ui::BenchOptions bench;
    bench.frames = state.benchFrames;
    bench.recomputeEvery = state.recomputeEvery;
    bench.stepEvery = state.stepEvery;
    bench.panelCosts = state.panelCosts;
    return ui::runBench(std::move(*options), bench);
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
    app.add_option("--class", state->classResults,
                   "a graded class: a results folder of `tilescope grade` (or its class.json), in the Class panel "
                   "(also File > Open class results...)");
    app.add_option("--open-trace", state->openTrace,
                   "a trace file written by `tilescope trace --out` (on any machine): the step-through views step "
                   "through it, the hardware panel shows which SM ran each block");
    addLiveClassOptions(app, state->classServer, state->classNow, state->classNames);
    app.add_flag("--class-shown-log", state->classShownLog,
                 "print a line as each new check of the live class is drawn (for tests)")
        ->group("");

    auto* screenshot = app.add_subcommand(
        "screenshot", "draw the app in a given state into a PNG (needs an X display: use xvfb-run without one)");
    addStateOptions(*screenshot, state->screenshot);
    screenshot->add_option("--out,-o", state->out, "the PNG to write")->required();
    screenshot->add_option("--layout", state->layout,
                           "also write where things were drawn, as JSON (for tests that check pixels)");
    screenshot->add_option("--then-open", state->thenOpen,
                           "once the first result is in, open this input file (as if dropped on the window), "
                           "and draw the app after that");
    screenshot->add_option("--do", state->input,
                           "then input, as a user would give it, one step per --do: click:NAME or hover:NAME (the "
                           "middle of what the layout probe calls NAME), key:CHORD (ctrl+z, ctrl+shift+z, enter), "
                           "type:TEXT; each waits a few frames, and the picture is drawn once all have settled");

    app.add_option("--lesson", state->appLesson,
                   "open the app on a lesson: its name (tilescope lesson --list) or a lesson file");

    auto* lesson = app.add_subcommand(
        "lesson", "check lesson files, list the lessons, or draw every step of one into PNG files");
    lesson->add_option("--check", state->checkFiles, "lesson files to check: each error with its file and line")
        ->expected(1, -1);
    lesson->add_flag("--list", state->listLessons, "list the lessons that ship (built in)");
    lesson->add_option("lesson", state->renderLesson, "with --render: a lesson's name or file");
    lesson->add_option("--render", state->renderDir,
                       "draw every step (and each question revealed) into this folder as PNG files with their "
                       "layout JSON (needs an X display)");
    lesson->add_flag("--lecture", state->renderLecture, "with --render: in lecture-hall mode");
    lesson->add_option("--size", state->renderSize, "with --render: the window's size, WxH (default 1920x1080)");
    auto* exporter = app.add_subcommand(
        "export",
        "step through the trace of a state of the app into an animated GIF, an MP4 or PNGs, or draw its grid "
        "diagram as an SVG, for slides (needs an X display: use xvfb-run without one)");
    addStateOptions(*exporter, state->exportState);
    // Here --size is the frames' size; the window's is --window.
    exporter->remove_option(exporter->get_option("--size"));
    exporter->add_option("--window", state->exportState.windowSize,
                         "the app's window size in pixels, WxH (default 1600x900): a larger window draws the "
                         "views larger");
    exporter->add_option("--gif", state->gif, "write an animated GIF of the steps");
    exporter->add_option("--mp4", state->mp4,
                         std::string("write an MP4 video of the steps (") +
                             (exports::mp4Available() ? exports::mp4Codec() : "not in this build") + ")");
    exporter->add_option("--png-dir", state->pngDir, "write the steps as frame_0000.png, ... into this folder");
    exporter->add_option("--svg", state->svg,
                         "write the grid of N at --step as an SVG (vector: cells, tiles, halo, loads, legend)");
    exporter->add_option("--view", state->view,
                         "the view to export: grid, threads, shared, output or window (default grid)");
    exporter
        ->add_option("--by", state->by,
                     "what a frame advances by: step (every thread of the block, lockstep: the default), warp (one "
                     "warp's part of a step), event, or request (the selected thread's warp's memory requests)")
        ->check(CLI::IsMember({"step", "warp", "event", "request"}));
    exporter->add_option("--from", state->from, "the first step (default 0)")->check(CLI::NonNegativeNumber);
    exporter->add_option("--to", state->to, "the last step (default: the end of the block's trace)")
        ->check(CLI::NonNegativeNumber);
    exporter->add_option("--every", state->every, "every N-th step (default 1)");
    exporter->add_option("--fps", state->fps, "frames a second (default 8)");
    exporter->add_option("--size", state->exportSize,
                         "the frames' size, WxH (default: the view's, as drawn; others are scaled)");

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
    bench->add_flag("--panel-costs", state->panelCosts,
                    "then time as many frames again, each panel's drawing (CPU) and rendering (one window at a time, "
                    "finished before the next) apart, and print their medians");

    // One command that dispatches: this file's subcommands are not pushed
    // into `commands`, because the command line runs commands.front() when no
    // subcommand matched, and that must stay the app.
    return Command{nullptr, [state, screenshot, exporter, bench, lesson] {
                       if (*screenshot)
                           return runScreenshot(*state);
                       if (*exporter)
                           return runExport(*state);
                       if (*lesson)
                           return runLesson(*state);
                       if (*bench)
                           return runBench(*state);
                       return runApp(*state);
                   }};
}

}  // namespace tilescope::cli
