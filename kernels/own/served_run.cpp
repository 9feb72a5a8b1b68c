#include "own/served_run.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "exec/backend.hpp"
#include "exec/printout.hpp"
#include "own/worker_protocol.hpp"
#include "trace/trace_io.hpp"

namespace tilescope::own {

namespace {

using Json = nlohmann::ordered_json;

constexpr char kMagic[8] = {'T', 'S', 'R', 'U', 'N', 0, 0, 0};
constexpr std::uint32_t kVersion = 1;

template <class T>
void put(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));  // little-endian hosts (x86-64, AArch64, WebAssembly)
    out.append(bytes, sizeof(T));
}

template <class T>
bool get(std::string_view& in, T& value) {
    if (in.size() < sizeof(T)) return false;
    std::memcpy(&value, in.data(), sizeof(T));
    in.remove_prefix(sizeof(T));
    return true;
}

}  // namespace

std::string encodeServedRun(const RunResult& result, const std::string& status,
                            const std::vector<std::string>& printout) {
    const Image& out = result.output;
    Json j;
    j["status"] = status;
    j["backend"] = backendName(result.backend);
    j["backend_reason"] = result.backendReason;
    j["gpu_failure"] = result.gpuFailure;
    j["kernel_ms"] = result.millis;
    j["plain_skipped"] = result.plainSkipped;
    j["printout"] = printout;
    j["faults"] = Json{{"outside", result.faults.outside},
                       {"first_outside", result.faults.firstOutside},
                       {"barrier_mismatches", result.faults.barrierMismatches},
                       {"first_barrier", result.faults.firstBarrier}};
    j["output"] = Json{{"width", out.width}, {"height", out.height}, {"channels", out.channels}, {"rank", out.rank}};
    const std::string header = j.dump(-1, ' ', false, Json::error_handler_t::replace);
    const std::string trace = result.trace ? encodeBinary(*result.trace) : std::string();

    std::string bytes(kMagic, sizeof kMagic);
    put(bytes, kVersion);
    put(bytes, static_cast<std::uint32_t>(header.size()));
    bytes += header;
    put(bytes, static_cast<std::uint64_t>(trace.size()));
    bytes += trace;
    bytes.append(reinterpret_cast<const char*>(out.data.data()), out.data.size() * sizeof(float));
    return bytes;
}

Result<ServedRun> decodeServedRun(std::string_view in, const KernelInfo* entry) {
    if (in.size() < sizeof kMagic || std::memcmp(in.data(), kMagic, sizeof kMagic) != 0)
        return badInput("not a run from tilescope serve (the magic bytes are wrong)");
    in.remove_prefix(sizeof kMagic);
    std::uint32_t version = 0, headerSize = 0;
    if (!get(in, version) || !get(in, headerSize) || in.size() < headerSize)
        return badInput("the served run is truncated in its header");
    if (version != kVersion)
        return badInput("served run version " + std::to_string(version) + " (this page reads " +
                        std::to_string(kVersion) + ")");
    const std::string_view headerText = in.substr(0, headerSize);
    const Json j = Json::parse(headerText.begin(), headerText.end(), nullptr, false);
    in.remove_prefix(headerSize);
    if (!j.is_object())
        return badInput("the served run's header is not a JSON object");
    std::uint64_t traceSize = 0;
    if (!get(in, traceSize) || traceSize == 0 || in.size() < traceSize)
        return badInput("the served run has no trace, or a truncated one");
    auto trace = decodeBinary(in.substr(0, static_cast<std::size_t>(traceSize)), entry);
    if (!trace)
        return Error{trace.error().code, "the served run's trace: " + trace.error().message};
    in.remove_prefix(static_cast<std::size_t>(traceSize));

    ServedRun run;
    try {
        // Its words reach the page as text: made printable, as the server's own are.
        run.status = j.at("status").get<std::string>();
        if (run.status != "clean" && run.status != "problems")
            return badInput("the served run's status is neither clean nor problems");
        RunResult& r = run.result;
        r.backend = j.at("backend").get<std::string>() == "cuda" ? Backend::Cuda : Backend::Cpu;
        r.backendReason = printableText(j.at("backend_reason").get<std::string>());
        r.gpuFailure = printableText(j.at("gpu_failure").get<std::string>());
        r.millis = j.at("kernel_ms").get<double>();
        if (!std::isfinite(r.millis) || r.millis < 0.0)
            return badInput("the served run's time is not a time");
        r.plainSkipped = printableText(j.at("plain_skipped").get<std::string>());
        run.printout = j.at("printout").get<std::vector<std::string>>();
        if (run.printout.size() > KernelPrintout::kMaxLines + 1)
            return badInput("the served run's printout holds " + std::to_string(run.printout.size()) + " lines");
        for (std::string& line : run.printout) line = printableText(line, KernelPrintout::kMaxLineBytes + 8);
        const Json& f = j.at("faults");
        r.faults.outside = f.at("outside").get<std::uint64_t>();
        r.faults.firstOutside = printableText(f.at("first_outside").get<std::string>());
        r.faults.barrierMismatches = f.at("barrier_mismatches").get<std::uint64_t>();
        r.faults.firstBarrier = printableText(f.at("first_barrier").get<std::string>());
        const Json& o = j.at("output");
        Image& out = r.output;
        out.width = o.at("width").get<int>();
        out.height = o.at("height").get<int>();
        out.channels = o.at("channels").get<int>();
        out.rank = o.at("rank").get<int>();
        if (out.width <= 0 || out.height <= 0 || out.channels <= 0 || out.channels > 4)
            return badInput("the served run's output has no valid shape");
        const std::uint64_t values = static_cast<std::uint64_t>(out.width) * static_cast<std::uint64_t>(out.height) *
                                     static_cast<std::uint64_t>(out.channels);
        if (in.size() != values * sizeof(float))
            return badInput("the served run's output holds " + std::to_string(in.size()) + " bytes, not " +
                            std::to_string(values * sizeof(float)));
        out.data.resize(static_cast<std::size_t>(values));
        std::memcpy(out.data.data(), in.data(), in.size());
    } catch (const Json::exception& e) {
        return badInput(std::string("the served run's header is malformed: ") + e.what());
    }
    run.result.plan = trace->plan;
    run.result.trace = std::move(*trace);
    return run;
}

}  // namespace tilescope::own
