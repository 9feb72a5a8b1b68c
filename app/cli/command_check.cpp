// `tilescope check`: runs a kernel with every block traced and prints what
// went wrong, one problem a line, then a summary (kernels/trace/problems.hpp
// says what is found and how). Exit codes: 0 clean, 1 problems found, 2 bad
// input, 3 the backend asked for is unavailable. --json prints the launch,
// the counts per kind and every problem (up to ProblemSet::kMaxPerKind of a
// kind) with its words, for scripts and the GPU cross-check.
//
// --watch FILE.cu checks the kernel file again on every save, and prints the
// verdict and each problem at its place, `FILE:LINE:COLUMN: error: ...`, the
// form compilers print and editors (VS Code's problem matchers, Vim's
// quickfix, Emacs' compilation mode) turn into clickable locations. It ends
// on Ctrl-C, or when the file is deleted, saying which.
#include <signal.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "request/check_json.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/kernel_catalogue.hpp"
#include "io/whole_file.hpp"
#include "model/editor_markers.hpp"
#include "own/translate.hpp"
#include "trace/fault.hpp"
#include "trace/problems.hpp"

namespace tilescope::cli {

namespace {

struct CheckOptions {
    KernelOptions kernel;
    std::size_t eventBudget = 20'000'000;
    bool json = false;
    int shown = 20;  // lines per kind; 0: all
    std::string watch;  // --watch FILE: check it on every save
};

int runCheck(const CheckOptions& o) {
    Loaded loaded;
    if (Status s = load(o.kernel, loaded); !s)
        return fail(s.error());
    loaded.request.check = true;
    loaded.request.eventBudget = o.eventBudget;
    auto result = runKernel(loaded.request);
    printPrintout(loaded);
    if (!result)
        return fail(result.error());
    if (!result->trace || !result->problems)
        return fail(Error{ExitCode::Internal, "the run returned no trace"});
    const Trace& t = *result->trace;
    const ProblemSet& problems = *result->problems;
    const std::string drop = request::droppedBarriersText(loaded, *result);

    if (o.json) {
        const Json j = request::checkJson(loaded, *result);
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        std::array<int, kProblemKindCount> printed{};
        for (const ProblemReport& p : problems.items) {
            int& n = printed[static_cast<std::size_t>(p.kind)];
            if (o.shown > 0 && n >= o.shown)
                continue;
            ++n;
            std::printf("%s\n", problemLine(t, p).c_str());
        }
        // Where they come from: each kind between the same two lines, once.
        if (!problems.clean())
            std::printf("where:\n");
        for (const ProblemGroup& g : problems.groups) {
            std::string what = problemKindName(g.kind);
            if (g.order != HazardOrder::None)
                what += std::string(" (") + hazardOrderName(g.order) + ")";
            if (g.array < kArrayCount)
                what += " on " + groupArrayName(t, g);
            const std::string lines =
                g.secondLine > 0  ? "lines " + std::to_string(g.firstLine) + " -> " + std::to_string(g.secondLine)
                : g.firstLine > 0 ? "line " + std::to_string(g.firstLine)
                                  : "never written";
            std::printf("  %s, %s: %llu\n", what.c_str(), lines.c_str(), static_cast<unsigned long long>(g.count));
        }
        for (int k = 0; k < kProblemKindCount; ++k) {
            const std::uint64_t all = problems.counts[static_cast<std::size_t>(k)];
            const std::uint64_t shown = static_cast<std::uint64_t>(printed[static_cast<std::size_t>(k)]);
            if (all > shown)
                std::printf("... and %llu more (%s; --all prints every one)\n",
                            static_cast<unsigned long long>(all - shown), problemKindName(static_cast<ProblemKind>(k)));
        }
    }
    std::fflush(stdout);  // the problems first, then the mask and the summary line
    if (!o.json)
        std::fprintf(stderr, "tilescope check: mask: %s\n", loaded.maskText.c_str());
    const std::string where = std::string(backendName(result->backend)) +
                              (result->backend == Backend::Cuda ? " (" + result->backendReason + ")" : "");
    const std::string name = t.plan.kernel == KernelId::Own
                                 ? "your " + t.kernel + " (" + std::string(kernelOf(t.plan).sourceFile.substr(4)) + ")"
                                 : t.kernel;
    std::fprintf(stderr, "tilescope check: %s on %s%s, grid %ux%u, block %ux%u: %s\n", name.c_str(), where.c_str(),
                 drop.empty() ? "" : (", " + drop).c_str(), t.plan.grid.x, t.plan.grid.y, t.plan.block.x,
                 t.plan.block.y,
                 problems.clean() ? "no problems (every shared access ordered by a barrier, nothing outside the "
                                    "arrays, the output matches the float64 reference)"
                                  : problems.summary().c_str());
    if (loaded.input.channels > 1 && !kernelOf(t.plan).multiChannel)
        std::fprintf(stderr, "tilescope check: the trace covers channel 0 of %d; wrong outputs cover every channel\n",
                     loaded.input.channels);
    return problems.clean() ? 0 : 1;
}


// [SECTION] --watch

volatile std::sig_atomic_t g_interrupted = 0;
constexpr std::size_t kMaxKernelFile = 4 << 20;

void onInterrupt(int) {
    g_interrupted = 1;
}

std::string clockTime() {
    const std::time_t now = std::time(nullptr);
    char text[16] = "";
    std::tm local{};
    localtime_r(&now, &local);
    std::strftime(text, sizeof text, "%H:%M:%S", &local);
    return text;
}

// "error: expected ';'" stays; "expected ';'" gets its "error: ".
std::string asError(const std::string& message) {
    for (const char* kind : {"error:", "fatal error:", "warning:", "note:"})
        if (message.rfind(kind, 0) == 0)
            return message;
    return "error: " + message;
}

// One check of the file as it is now: each problem at its place, then the
// verdict.
void checkOnce(const CheckOptions& o, const std::string& path, const std::string& text) {
    std::printf("tilescope check: checking %s (%s)\n", path.c_str(), clockTime().c_str());
    std::fflush(stdout);
    CheckOptions once = o;
    once.kernel.kernelFile = path;
    Loaded loaded;
    if (Status s = load(once.kernel, loaded); !s) {
        const own::Diagnostic& d = loaded.diagnostic;
        if (d.line > 0)
            std::printf("%s:%u:%u: %s\n", path.c_str(), d.line, std::max(d.column, 1u), asError(d.message).c_str());
        else
            std::printf("%s: %s\n", path.c_str(), asError(s.error().message).c_str());
        std::printf("tilescope check: %s: does not compile\n", path.c_str());
        return;
    }
    loaded.request.check = true;
    loaded.request.eventBudget = o.eventBudget;
    auto result = runKernel(loaded.request);
    printPrintout(loaded);
    if (!result || !result->trace || !result->problems) {
        const std::string message = result ? "the run returned no trace" : result.error().message;
        const unsigned line = own::diagnosticLine(message, path);
        const std::string prefix = path + ":" + std::to_string(line) + ": ";
        const std::string words = line > 0 && message.rfind(prefix, 0) == 0 ? message.substr(prefix.size())
                                  : message.rfind(path + ": ", 0) == 0    ? message.substr(path.size() + 2)
                                                                         : message;
        if (line > 0)
            std::printf("%s:%u:1: %s\n", path.c_str(), line, asError(words).c_str());
        else
            std::printf("%s: %s\n", path.c_str(), asError(words).c_str());
        std::printf("tilescope check: %s: compiled, then did not run to the end\n", path.c_str());
        return;
    }
    const ProblemSet& problems = *result->problems;
    for (const ui::EditorMarker& m : ui::problemMarkers(problems, *result->trace, text)) {
        std::string words = m.text;
        // The arrow the panels draw, in ASCII for every terminal and matcher.
        if (const std::size_t arrow = words.find("\xE2\x86\x92"); arrow != std::string::npos)
            words.replace(arrow, 3, "->");
        std::printf("%s:%u:%u: error: %s\n", path.c_str(), m.line, std::max(m.column, 1u), words.c_str());
    }
    const std::uint64_t wrong = problems.counts[static_cast<std::size_t>(ProblemKind::WrongResult)];
    if (wrong > 0)
        std::printf("%s: error: wrong at %llu of %zu outputs\n", path.c_str(), static_cast<unsigned long long>(wrong),
                    result->output.data.size());
    if (problems.clean())
        std::printf("tilescope check: %s: right (the output matches the float64 reference; no race, nothing "
                    "outside the arrays, every barrier reached)\n",
                    path.c_str());
    else
        std::printf("tilescope check: %s: %s\n", path.c_str(), problems.summary().c_str());
}

int runWatch(const CheckOptions& o) {
    namespace fs = std::filesystem;
    const std::string& path = o.watch;
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    std::optional<std::string> checked;  // the text checked last
    int missing = 0;                     // polls that found no file
    constexpr auto kPoll = std::chrono::milliseconds(150);
    for (;;) {
        if (g_interrupted) {
            std::printf("tilescope check: stopped watching %s (Ctrl-C)\n", path.c_str());
            return 0;
        }
        std::error_code error;
        if (!fs::is_regular_file(path, error)) {
            // An editor that saves by renaming leaves the name empty for a moment.
            if (++missing * kPoll >= std::chrono::seconds(1) || !checked) {
                std::printf("tilescope check: %s %s: stopped watching\n", path.c_str(),
                            checked ? "was deleted" : "is not there");
                return checked ? 0 : 2;
            }
            std::this_thread::sleep_for(kPoll);
            continue;
        }
        missing = 0;
        auto text = io::readFileText(path, kMaxKernelFile);
        if (text && (!checked || *text != *checked)) {
            // Written in pieces: checked once it has stayed the same for a poll.
            std::this_thread::sleep_for(kPoll);
            auto again = io::readFileText(path, kMaxKernelFile);
            if (again && *again == *text && !g_interrupted) {
                checked = *text;
                checkOnce(o, path, *text);
                std::printf("tilescope check: watching %s for changes (Ctrl-C stops)\n", path.c_str());
                std::fflush(stdout);
            }
            continue;
        }
        std::this_thread::sleep_for(kPoll);
    }
}

}  // namespace

Command addCheckCommand(CLI::App& app) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* c = app.add_subcommand(
        "check",
        "run a kernel with every thread traced and name what goes wrong: races, reads of unwritten memory, "
        "accesses outside an array, barriers not reached, wrong outputs (exit 1 when any)");
    addKernelOptions(*c, options->kernel, true);
    addRaceOptions(*c, options->kernel);
    c->add_option("--event-budget", options->eventBudget, "stop with a message past this many recorded events")
        ->capture_default_str();
    c->add_flag("--json", options->json, "print the launch and every problem as JSON");
    c->add_flag_function(
        "--all", [options](std::int64_t) { options->shown = 0; }, "print every problem (default: 20 of each kind)");
    c->add_option("--watch", options->watch,
                  "check this kernel file (.cu) again on every save, printing each problem as FILE:LINE:COLUMN: "
                  "(clickable in VS Code, Vim, Emacs); ends on Ctrl-C or when the file is deleted")
        ->excludes("--kernel")
        ->excludes("--kernel-file")
        ->excludes("--json");
    return Command{c, [options] { return options->watch.empty() ? runCheck(*options) : runWatch(*options); }};
}

}  // namespace tilescope::cli
