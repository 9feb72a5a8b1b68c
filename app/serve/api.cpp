#include "serve/api.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "request/check_json.hpp"
#include "own/served_run.hpp"
#include "serve/limits.hpp"
#include "trace/trace_io.hpp"

namespace tilescope::serve {

namespace {

using Json = nlohmann::ordered_json;

// The name the kernel file is given: messages say "kernel.cu:12:5: ...".
constexpr const char* kFileName = "kernel.cu";

bool readSize(const std::string& size, std::uint64_t& width, std::uint64_t& height) {
    unsigned long long w = 0, h = 1;
    char x = 0, rest = 0;
    if (std::sscanf(size.c_str(), "%llu%c%llu%c", &w, &x, &h, &rest) == 3 && (x == 'x' || x == 'X')) {
    } else if (std::sscanf(size.c_str(), "%llu%c", &w, &rest) == 1) {
        h = 1;
    } else {
        return false;
    }
    width = w;
    height = h;
    return w > 0 && h > 0;
}

Json refusedJson(const std::string& reason, unsigned line, unsigned column) {
    Json j;
    j["status"] = "refused";
    j["line"] = line > 0 ? Json(line) : Json(nullptr);
    j["column"] = column > 0 ? Json(column) : Json(nullptr);
    j["reason"] = reason;
    return j;
}

Answer jsonAnswer(const Json& j, const std::string& verdict) {
    Answer a;
    a.body = j.dump(2, ' ', false, Json::error_handler_t::replace);
    a.verdict = verdict;
    if (verdict == "refused" || verdict == "backend") {
        Json p{{"kind", verdict}};
        if (j.contains("line"))
            p["line"] = j["line"];
        if (j.contains("column"))
            p["column"] = j["column"];
        p["reason"] = j.value("reason", "");
        a.problems = Json::array({p}).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    return a;
}

// "cpu", or "cuda (NVIDIA H200)": where a run was made, for the record.
std::string whereItRan(const RunResult& result) {
    return result.backend == Backend::Cuda ? "cuda (" + result.backendReason + ")" : "cpu";
}

}  // namespace

Answer errorAnswer(int httpStatus, const std::string& status, const std::string& message) {
    Answer a;
    a.status = httpStatus;
    a.body = Json{{"status", status}, {"error", message}}.dump(2, ' ', false, Json::error_handler_t::replace);
    a.verdict = status;
    return a;
}

std::optional<ApiRequest> parseApiRequest(std::string_view body, const JobSettings& settings, Answer& error,
                                          Job job) {
    Json j = Json::parse(body.begin(), body.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        error = errorAnswer(400, "bad_request", "the body is not a JSON object");
        return std::nullopt;
    }
    ApiRequest r;
    auto bad = [&](const std::string& message) {
        error = errorAnswer(400, "bad_request", message);
        return std::nullopt;
    };
    if (!j.contains("kernel") || !j["kernel"].is_string())
        return bad("\"kernel\" must be the kernel file's text");
    r.kernel = j["kernel"].get<std::string>();
    if (r.kernel.size() > kMaxKernelBytes) {
        error = errorAnswer(413, "too_large",
                            "the kernel file is " + std::to_string(r.kernel.size()) + " bytes; at most " +
                                std::to_string(kMaxKernelBytes) + " are taken");
        return std::nullopt;
    }
    if (job == Job::Compile)
        return r;
    if (!j.contains("size") || !j["size"].is_string())
        return bad("\"size\" must be a string such as \"45x37\" or \"1000\"");
    r.size = j["size"].get<std::string>();
    std::uint64_t width = 0, height = 0;
    if (!readSize(r.size, width, height) || width > 1'000'000 || height > 1'000'000)
        return bad("\"size\" is \"" + r.size + "\"; give WxH (\"45x37\") or N (\"1000\")");
    if (j.contains("radius")) {
        if (!j["radius"].is_number_integer() || j["radius"].get<long long>() < 0 || j["radius"].get<long long>() > 64)
            return bad("\"radius\" must be an integer from 0 to 64");
        r.radius = j["radius"].get<int>();
    }
    if (j.contains("mask")) {
        // Rows of numbers (a 2D mask), or one row of numbers (a 1D mask).
        const Json& m = j["mask"];
        if (!m.is_array() || m.empty() || m.size() > 129)
            return bad("\"mask\" must be rows of numbers ([[...], ...]) or one row ([...])");
        const bool rows = m[0].is_array();
        const std::size_t width = rows ? m[0].size() : m.size();
        Mask mask;
        mask.width = static_cast<int>(width);
        mask.height = rows ? static_cast<int>(m.size()) : 1;
        for (std::size_t y = 0; y < static_cast<std::size_t>(mask.height); ++y) {
            const Json& row = rows ? m[y] : m;
            if (!row.is_array() || row.size() != width || width == 0 || width > 129)
                return bad("\"mask\" must be rows of numbers, each as long as the first");
            for (const Json& v : row) {
                if (!v.is_number() || !std::isfinite(v.get<double>()))
                    return bad("\"mask\" holds something other than a finite number");
                mask.values.push_back(v.get<float>());
            }
        }
        r.radius = (mask.width - 1) / 2;
        r.mask = std::move(mask);
    }
    if (r.radius < 0)
        return bad("give \"radius\" (a generated mask) or \"mask\"");
    if (j.contains("block")) {
        if (!j["block"].is_number_integer() || j["block"].get<long long>() < 0 || j["block"].get<long long>() > 1024)
            return bad("\"block\" must be an integer from 0 to 1024");
        r.block = j["block"].get<int>();
    }
    if (j.contains("backend")) {
        if (!j["backend"].is_string())
            return bad("\"backend\" must be \"auto\", \"cpu\" or \"cuda\"");
        r.backend = j["backend"].get<std::string>();
        if (r.backend != "auto" && r.backend != "cpu" && r.backend != "cuda")
            return bad("\"backend\" is \"" + r.backend + "\"; give \"auto\", \"cpu\" or \"cuda\"");
    }
    if (j.contains("drop_barrier")) {
        const Json& d = j["drop_barrier"];
        if (d.is_string() && d.get<std::string>() == "all") {
            r.dropBarrier = "all";
        } else if (d.is_array()) {
            for (const Json& line : d) {
                if (!line.is_number_integer() || line.get<long long>() <= 0 || line.get<long long>() > 1'000'000)
                    return bad("\"drop_barrier\" must be line numbers ([23, 31]) or \"all\"");
                r.dropBarrier += (r.dropBarrier.empty() ? "" : ",") + std::to_string(line.get<long long>());
            }
        } else {
            return bad("\"drop_barrier\" must be line numbers ([23, 31]) or \"all\"");
        }
    }
    if (j.contains("schedule")) {
        if (!j["schedule"].is_string())
            return bad("\"schedule\" must be \"in-order\", \"reverse\" or \"random\"");
        r.schedule = j["schedule"].get<std::string>();
        if (r.schedule != "in-order" && r.schedule != "reverse" && r.schedule != "random")
            return bad("\"schedule\" is \"" + r.schedule + "\"; give \"in-order\", \"reverse\" or \"random\"");
    }
    if (j.contains("input")) {
        // The input's values, as the image holds them (row by row, a pixel's
        // channels together): width x height x channels numbers.
        const Json& in = j["input"];
        int channels = 1;
        if (j.contains("channels")) {
            if (!j["channels"].is_number_integer() || j["channels"].get<long long>() < 1 ||
                j["channels"].get<long long>() > 4)
                return bad("\"channels\" must be an integer from 1 to 4");
            channels = j["channels"].get<int>();
        }
        const std::uint64_t count = width * height * static_cast<std::uint64_t>(channels);
        if (!in.is_array() || count > kMaxInputValues || in.size() != count)
            return bad("\"input\" must hold width x height x channels numbers (" + std::to_string(count) +
                       " for this size, at most " + std::to_string(kMaxInputValues) + ")");
        Image image = height > 1 || r.size.find_first_of("xX") != std::string::npos
                          ? Image::planar(static_cast<int>(width), static_cast<int>(height), channels)
                          : Image::signal(std::vector<float>(static_cast<std::size_t>(width)));
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (!in[i].is_number() || !std::isfinite(in[i].get<double>()))
                return bad("\"input\" holds something other than a finite number");
            image.data[i] = in[i].get<float>();
        }
        r.input = std::move(image);
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            return bad("\"seed\" must be a whole number");
        r.seed = j["seed"].get<unsigned>();
    }
    const std::uint64_t events = estimatedEvents(height > 1 ? 2 : 1, width, height, r.radius);
    if (events > settings.eventBudget) {
        error = errorAnswer(413, "too_large",
                            "a " + r.size + " input with a mask of radius " + std::to_string(r.radius) +
                                " records about " + std::to_string(events) + " events; this server traces at most " +
                                std::to_string(settings.eventBudget) + " (a smaller size)");
        return std::nullopt;
    }
    return r;
}

namespace {

// The kernel file translated and compiled, and what the page needs to know
// of it before it runs: its catalogue entry and its barriers' lines.
Answer compileJob(const ApiRequest& request, const JobSettings& settings) {
    own::CompileOptions options;
    options.timeLimitSeconds = settings.compileLimitSeconds;
    options.sandbox = settings.sandbox;
    options.cache = settings.compileCache;
    own::Diagnostic diagnostic;
    const auto started = std::chrono::steady_clock::now();
    auto kernel = own::compileKernelText(kFileName, request.kernel, options, &diagnostic);
    if (!kernel) {
        const Error& e = kernel.error();
        if (e.code == ExitCode::BadInput)
            return jsonAnswer(refusedJson(diagnostic.line > 0 ? diagnostic.text() : e.message, diagnostic.line,
                                          diagnostic.column),
                              "refused");
        return errorAnswer(500, "internal", e.message);
    }
    const KernelInfo& info = *(*kernel)->info;
    Json names = Json::array();
    for (std::string_view name : info.arrayNames)
        names.push_back(std::string(name));
    Json j;
    j["status"] = "compiled";
    j["kernel"] = Json{{"name", std::string(info.name)},
                       {"dims", info.dims},
                       {"mask_space", info.maskSpace == Space::Constant ? "constant" : "global"},
                       {"uses_shared", info.usesShared},
                       {"array_names", names}};
    j["barrier_lines"] = (*kernel)->translation.barrierLines;
    j["compile_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return jsonAnswer(j, "compiled");
}

}  // namespace

Answer runJob(const ApiRequest& request, const JobSettings& settings, Job job) {
    if (job == Job::Compile)
        return compileJob(request, settings);
    const bool trace = job != Job::Check;
    // Which backend: "auto" is the server's; the CPU is always there; the GPU
    // only where the server is not held to the CPU.
    std::string backend = request.backend == "auto" ? settings.backend : request.backend;
    if (backend == "cuda" && settings.backend == "cpu") {
        Json j{{"status", "backend"},
               {"reason", "this server runs kernels on the CPU only (tilescope serve --backend cpu)"}};
        return jsonAnswer(j, "backend");
    }
    request::KernelOptions o;
    o.kernelFile = kFileName;
    o.kernelText = request.kernel;
    o.size = request.size;
    o.radius = request.mask ? -1 : request.radius;
    o.maskValues = request.mask;
    o.block = request.block;
    o.backend = backend;
    o.dropBarrier = request.dropBarrier;
    o.schedule = request.schedule;
    o.seed = request.seed;
    o.inputValues = request.input;
    o.timeLimit = settings.timeLimitSeconds;
    o.compile.timeLimitSeconds = settings.compileLimitSeconds;
    o.compile.sandbox = settings.sandbox;

    request::Loaded loaded;
    if (Status s = request::load(o, loaded); !s) {
        const Error& e = s.error();
        if (!loaded.own && e.code == ExitCode::BadInput) {
            // The translator or the compiler refused the file.
            const own::Diagnostic& d = loaded.diagnostic;
            return jsonAnswer(refusedJson(d.line > 0 ? d.text() : e.message, d.line, d.column), "refused");
        }
        if (e.code == ExitCode::BackendUnavailable)
            return jsonAnswer(Json{{"status", "backend"}, {"reason", e.message}}, "backend");
        if (e.code == ExitCode::BadInput)
            return errorAnswer(400, "bad_request", e.message);
        return errorAnswer(500, "internal", e.message);
    }
    loaded.request.check = true;
    loaded.request.trace = trace;
    loaded.request.eventBudget = settings.eventBudget;
    auto result = runKernel(loaded.request);
    if (!result) {
        const Error& e = result.error();
        if (e.code == ExitCode::BackendUnavailable)
            return jsonAnswer(Json{{"status", "backend"}, {"reason", e.message}}, "backend");
        if (e.code == ExitCode::Internal)
            return errorAnswer(500, "internal", e.message);
        // The run failed: a crash, the time limit, the event budget, a launch
        // that cannot run. Where the message names a line of the file, so
        // does the answer.
        unsigned line = 0;
        const std::string key = std::string(kFileName) + ":";
        if (auto at = e.message.find(key); at != std::string::npos)
            line = static_cast<unsigned>(std::strtoul(e.message.c_str() + at + key.size(), nullptr, 10));
        Json j = refusedJson(e.message, line, 0);
        if (!loaded.printout.empty())
            j["printout"] = loaded.printout.lines;
        return jsonAnswer(j, "refused");
    }
    if (!result->trace || !result->problems)
        return errorAnswer(500, "internal", "the run returned no trace");
    const std::string verdict = result->problems->clean() ? "clean" : "problems";
    const Json report = request::checkJson(loaded, *result);
    auto recorded = [&](Answer a) {
        a.problems = report["groups"].dump(-1, ' ', false, Json::error_handler_t::replace);
        a.backend = whereItRan(*result);
        a.kernelMs = result->millis;
        return a;
    };
    if (job == Job::Run) {
        Answer a;
        a.contentType = "application/octet-stream";
        a.body = own::encodeServedRun(*result, verdict, loaded.printout.lines);
        a.verdict = verdict;
        a.events = result->trace->eventCount();
        return recorded(std::move(a));
    }
    if (trace) {
        Answer a;
        a.contentType = "application/octet-stream";
        a.body = encodeBinary(*result->trace);
        a.verdict = verdict;
        a.events = result->trace->eventCount();
        return recorded(std::move(a));
    }
    Json j;
    j["status"] = verdict;
    for (auto it = report.begin(); it != report.end(); ++it)
        j[it.key()] = it.value();
    j["kernel_ms"] = result->millis;
    j["printout"] = loaded.printout.lines;
    return recorded(jsonAnswer(j, verdict));
}

std::string requestJson(const ApiRequest& r, Job job) {
    Json j;
    j["job"] = job == Job::Check ? "check" : job == Job::Trace ? "trace" : job == Job::Run ? "run" : "compile";
    if (job != Job::Compile) {
        j["size"] = r.size;
        if (r.mask)
            j["mask"] = std::to_string(r.mask->width) + "x" + std::to_string(r.mask->height);
        else
            j["radius"] = r.radius;
        if (r.block > 0)
            j["block"] = r.block;
        j["backend"] = r.backend;
        if (!r.dropBarrier.empty())
            j["drop_barrier"] = r.dropBarrier;
        if (!r.schedule.empty())
            j["schedule"] = r.schedule;
        j["seed"] = r.seed;
        if (r.input)
            j["input"] = "given";
    }
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tilescope::serve
