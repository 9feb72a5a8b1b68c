// `tilescope trace ... --out FILE`: runs a kernel with tracing on and writes
// the trace (JSON for small traces, the compact binary form for large ones;
// both documented in kernels/trace/trace_io.hpp). Prints a summary as JSON
// on stdout, with fixed key names:
//   {"kernel", "backend", "backend_reason", "what_if", "what_if_reason",
//    "grid", "block_dim", "out", "format", "events", "bytes", "bytes_per_event",
//    "traced_blocks", "blocks": [[bx, by], ...]}
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/whole_file.hpp"
#include "trace/chrome_trace.hpp"
#include "cli/options.hpp"
#include "trace/trace_io.hpp"
#include "trace/trace_select.hpp"

namespace tilescope::cli {

namespace {


struct TraceOptions {
    KernelOptions kernel;
    TraceSelection selection;
    std::string out;
    std::string format = "auto";
    std::string chrome;  // also export the hardware record (GPU runs) for Perfetto
};

int runTrace(const TraceOptions& o) {
    Loaded loaded;
    auto result = runTraced(o.kernel, o.selection, loaded);
    printPrintout(loaded);
    if (!result)
        return fail(result.error());
    const Trace& trace = *result->trace;
    // Refuse before writing anything, so that a failed request leaves no file.
    if (!o.chrome.empty() && trace.hardware.empty())
        return fail(Error{ExitCode::BackendUnavailable,
                          "--chrome shows which SM ran each block and when, which only a GPU run records; this run "
                          "used the CPU executor (" + result->backendReason + ")"});

    const TraceFormat requested = o.format == "json"     ? TraceFormat::Json
                                  : o.format == "binary" ? TraceFormat::Binary
                                                         : TraceFormat::Auto;
    auto written = writeTrace(trace, o.out, requested);
    if (!written)
        return fail(written.error());
    if (!o.chrome.empty()) {
        const std::string json = chromeTraceJson(trace);
        Status chrome = io::writeFileAtomic(o.chrome, json);
        if (!chrome) return fail(chrome.error());
    }
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(o.out, ec);
    const std::size_t events = trace.eventCount();

    const LaunchPlan& p = trace.plan;
    Json j = launchJson(*result);
    j["out"] = o.out;
    j["format"] = *written;
    j["events"] = events;
    j["bytes"] = ec ? 0 : bytes;
    j["bytes_per_event"] = events > 0 && !ec ? static_cast<double>(bytes) / static_cast<double>(events) : 0.0;
    j["traced_blocks"] = trace.blocks.size();
    if (!o.chrome.empty()) j["chrome"] = o.chrome;
    Json list = Json::array();
    for (const BlockEvents& b : trace.blocks)
        list.push_back({b.block.x, b.block.y});
    j["blocks"] = std::move(list);
    return printReport(j, p);
}

}  // namespace

Command addTraceCommand(CLI::App& app) {
    auto options = std::make_shared<TraceOptions>();
    CLI::App* c =
        app.add_subcommand("trace", "record every load, store, multiply-add and barrier of a launch to a file");
    addKernelOptions(*c, options->kernel, true);
    addRaceOptions(*c, options->kernel);
    addTraceOptions(*c, options->selection, "record");
    c->add_option("--out,-o", options->out, "the trace file (.json, .tstrace, or any name)")->required();
    c->add_option("--format", options->format, "auto (by the file name, else JSON up to 100000 events), json or binary")
        ->check(CLI::IsMember({"auto", "json", "binary"}));
    c->add_option("--chrome", options->chrome,
                  "also write which SM ran each block and when, in the Chrome trace format (open it in Perfetto); "
                  "GPU runs only");
    return Command{c, [options] { return runTrace(*options); }};
}

}  // namespace tilescope::cli
