#include "own/worker_protocol.hpp"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <span>

#include "base/atomic_file.hpp"
#include "base/read_file.hpp"
#include "core/barrier_drop.hpp"

namespace tilescope::own {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The job's folder is the worker's and the app's alone, and made again for
// every run: its files are written without fsync. Each is renamed into
// place whole (base/atomic_file.hpp), so that a reader never sees half.
base::AtomicWriteOptions scratchWrite() {
    base::AtomicWriteOptions options;
    options.sync = false;
    return options;
}

std::span<const unsigned char> bytesOf(const void* data, std::size_t size) {
    return {static_cast<const unsigned char*>(data), size};
}

Status writeFloats(const fs::path& path, const std::vector<float>& values) {
    if (const auto failure =
            base::writeFileAtomic(path, bytesOf(values.data(), values.size() * sizeof(float)), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write " + path.string()};
    return success();
}

Status readFloats(const fs::path& path, std::vector<float>& values) {
    auto bytes = base::readFileBytes(path);
    if (!bytes) return Error{ExitCode::Internal, "cannot read " + path.string()};
    values.resize(bytes->size() / sizeof(float));
    std::memcpy(values.data(), bytes->data(), values.size() * sizeof(float));
    return success();
}

json dim(Dim3 d) { return json::array({d.x, d.y, d.z}); }
Dim3 dim(const json& j) { return Dim3{j.at(0).get<unsigned>(), j.at(1).get<unsigned>(), j.at(2).get<unsigned>()}; }

}  // namespace

Status writeJob(const fs::path& dir, const WorkerJob& job, const std::vector<float>& N, const std::vector<float>& M) {
    json j{{"library", job.library},
           {"dims", job.dims},
           {"radius", job.radius},
           {"mask_width", job.maskWidth},
           {"width", job.width},
           {"height", job.height},
           {"trace", job.trace},
           {"event_budget", job.eventBudget},
           {"drop_all", job.dropAll},
           {"drop_lines", job.dropLines},
           {"schedule", job.schedule},
           {"seed", job.seed},
           {"kernel", job.kernel},
           {"path", job.path},
           {"array_names", job.arrayNames},
           {"constant_mask", job.constantMask},
           {"backend", job.backend},
           {"bench_repeats", job.benchRepeats},
           {"filter", job.filter},
           {"address_space", job.addressSpaceBytes}};
    j["trace_blocks"] = json::array();
    for (const Dim3& b : job.traceBlocks) j["trace_blocks"].push_back(dim(b));
    if (const auto failure = base::writeFileAtomic(dir / "job.json", j.dump(), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write " + (dir / "job.json").string()};
    if (Status s = writeFloats(dir / "N.f32", N); !s) return s;
    return writeFloats(dir / "M.f32", M);
}

Status readJob(const fs::path& dir, WorkerJob& job, std::vector<float>& N, std::vector<float>& M) {
    try {
        std::ifstream in(dir / "job.json");
        const json j = json::parse(in);
        job.library = j.at("library");
        job.dims = j.at("dims");
        job.radius = j.at("radius");
        job.maskWidth = j.at("mask_width");
        job.width = j.at("width");
        job.height = j.at("height");
        job.trace = j.at("trace");
        job.eventBudget = j.at("event_budget");
        job.dropAll = j.at("drop_all");
        job.dropLines = j.at("drop_lines").get<std::vector<unsigned>>();
        job.schedule = j.at("schedule");
        job.seed = j.at("seed");
        job.kernel = j.at("kernel");
        job.path = j.at("path");
        job.arrayNames = j.at("array_names").get<std::array<std::string, kArrayCount>>();
        job.constantMask = j.at("constant_mask");
        job.backend = j.at("backend");
        job.benchRepeats = j.at("bench_repeats");
        job.filter = j.at("filter");
        job.addressSpaceBytes = j.at("address_space");
        for (const json& b : j.at("trace_blocks"))
            job.traceBlocks.push_back(dim(b));
    } catch (const std::exception& e) {
        return Error{ExitCode::Internal, std::string("the worker's job is unreadable: ") + e.what()};
    }
    if (Status s = readFloats(dir / "N.f32", N); !s) return s;
    return readFloats(dir / "M.f32", M);
}

Status writeResult(const fs::path& dir, const WorkerResult& r) {
    json j{{"ok", r.ok},
           {"message", r.message},
           {"line", r.line},
           {"kernel", r.kernel},
           {"grid", dim(r.grid)},
           {"block", dim(r.block)},
           {"shared_bytes", r.sharedBytes},
           {"millis", r.millis},
           {"outside", r.faults.outside},
           {"first_outside", r.faults.firstOutside},
           {"barrier_mismatches", r.faults.barrierMismatches},
           {"first_barrier", r.faults.firstBarrier},
           {"blocks", r.blocks.size()},
           {"backend", r.backend},
           {"unavailable", r.unavailable},
           {"plain_skipped", r.plainSkipped}};
    if (Status s = writeFloats(dir / "P.f32", r.output); !s) return s;
    // A failure is kept and returned by every later call: commit() says
    // whether all of it was written.
    base::AtomicFile events(dir / "events.bin", scratchWrite());
    events.open();
    for (const BlockEvents& b : r.blocks) {
        const std::uint64_t header[4] = {b.block.x, b.block.y, b.block.z, b.events.size()};
        events.write(bytesOf(header, sizeof header));
        events.write(bytesOf(b.events.data(), b.events.size() * sizeof(Event)));
    }
    if (const auto failure = events.commit()) return Error{ExitCode::Internal, "cannot write the trace"};
    // The result last: its presence says the rest is complete.
    if (const auto failure = base::writeFileAtomic(dir / "result.json", j.dump(), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write the result"};
    return success();
}

bool plainFile(const fs::path& path, std::uint64_t maxBytes) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) <= maxBytes;
}

Result<WorkerResult> readResult(const fs::path& dir) {
    WorkerResult r;
    struct stat folder {};
    if (lstat(dir.c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode))
        return Error{ExitCode::Internal, "the job's folder was replaced"};
    for (const char* name : {"result.json", "P.f32", "events.bin"})
        if (!plainFile(dir / name))
            return Error{ExitCode::Internal, std::string("no result (") + name + " is missing or not a plain file)"};
    try {
        std::ifstream in(dir / "result.json");
        if (!in) return Error{ExitCode::Internal, "no result"};
        const json j = json::parse(in);
        r.ok = j.at("ok");
        r.message = j.at("message");
        r.line = j.at("line");
        r.kernel = j.at("kernel");
        r.grid = dim(j.at("grid"));
        r.block = dim(j.at("block"));
        r.sharedBytes = j.at("shared_bytes");
        r.millis = j.at("millis");
        r.faults.outside = j.at("outside");
        r.faults.firstOutside = j.at("first_outside");
        r.faults.barrierMismatches = j.at("barrier_mismatches");
        r.faults.firstBarrier = j.at("first_barrier");
        const std::size_t blocks = j.at("blocks");
        r.backend = j.at("backend");
        r.unavailable = j.at("unavailable");
        r.plainSkipped = j.at("plain_skipped");
        if (Status s = readFloats(dir / "P.f32", r.output); !s) return s.error();
        std::ifstream events(dir / "events.bin", std::ios::binary);
        std::error_code ec;
        std::uint64_t left = fs::file_size(dir / "events.bin", ec);
        for (std::size_t i = 0; i < blocks; ++i) {
            std::uint64_t header[4];
            if (!events.read(reinterpret_cast<char*>(header), sizeof header))
                return Error{ExitCode::Internal, "the trace is cut short"};
            BlockEvents b;
            b.block = Dim3{static_cast<unsigned>(header[0]), static_cast<unsigned>(header[1]),
                           static_cast<unsigned>(header[2])};
            left -= std::min<std::uint64_t>(left, sizeof header);
            if (header[3] > left / sizeof(Event))
                return Error{ExitCode::Internal, "the trace is cut short"};
            left -= header[3] * sizeof(Event);
            b.events.resize(header[3]);
            events.read(reinterpret_cast<char*>(b.events.data()),
                        static_cast<std::streamsize>(b.events.size() * sizeof(Event)));
            if (!events) return Error{ExitCode::Internal, "the trace is cut short"};
            r.blocks.push_back(std::move(b));
        }
    } catch (const std::exception& e) {
        return Error{ExitCode::Internal, std::string("the worker's result is unreadable: ") + e.what()};
    }
    return r;
}

// [SECTION] The translation's request and reply.

namespace {

json toJson(const Diagnostic& d) {
    return json{{"path", d.path}, {"line", d.line}, {"column", d.column}, {"message", d.message}};
}
Diagnostic diagnosticFrom(const json& j) {
    return Diagnostic{j.at("path"), j.at("line"), j.at("column"), j.at("message")};
}

json toJson(const Translation& t) {
    json kernels = json::array();
    for (const KernelDeclaration& k : t.kernels) {
        json parameters = json::array(), shared = json::array();
        for (const KernelParameter& p : k.parameters)
            parameters.push_back({{"name", p.name}, {"array", p.array}, {"writable", p.writable}});
        for (const SharedDeclaration& d : k.shared)
            shared.push_back({{"name", d.name},
                              {"rows", d.rows},
                              {"cols", d.cols},
                              {"offset", d.offset},
                              {"dynamic", d.dynamic},
                              {"line", d.line}});
        kernels.push_back({{"name", k.name},
                           {"array_of", k.arrayOf},
                           {"line", k.line},
                           {"parameters", parameters},
                           {"shared", shared},
                           {"static_shared_floats", k.staticSharedFloats}});
    }
    json constants = json::array();
    for (const ConstantDeclaration& c : t.constants)
        constants.push_back({{"name", c.name}, {"rows", c.rows}, {"cols", c.cols}, {"line", c.line}});
    return json{{"path", t.path},
                {"text", t.text},
                {"dims", t.dims},
                {"kernels", kernels},
                {"constants", constants},
                {"barrier_lines", t.barrierLines},
                {"cpu_source", t.cpuSource},
                {"device_source", t.deviceSource},
                {"traced_device_source", t.tracedDeviceSource}};
}

Translation translationFrom(const json& j) {
    Translation t;
    t.path = j.at("path");
    t.text = j.at("text");
    t.dims = j.at("dims");
    for (const json& k : j.at("kernels")) {
        KernelDeclaration d;
        d.name = k.at("name");
        d.arrayOf = k.at("array_of").get<std::vector<std::uint8_t>>();
        d.line = k.at("line");
        for (const json& p : k.at("parameters"))
            d.parameters.push_back({p.at("name"), p.at("array"), p.at("writable")});
        for (const json& s : k.at("shared"))
            d.shared.push_back(
                {s.at("name"), s.at("rows"), s.at("cols"), s.at("offset"), s.at("dynamic"), s.at("line")});
        d.staticSharedFloats = k.at("static_shared_floats");
        t.kernels.push_back(std::move(d));
    }
    for (const json& c : j.at("constants"))
        t.constants.push_back({c.at("name"), c.at("rows"), c.at("cols"), c.at("line")});
    t.barrierLines = j.at("barrier_lines").get<std::vector<unsigned>>();
    t.cpuSource = j.at("cpu_source");
    t.deviceSource = j.at("device_source");
    t.tracedDeviceSource = j.at("traced_device_source");
    return t;
}

}  // namespace

Status writeTranslateRequest(const fs::path& dir, const TranslateRequest& r) {
    const json j{{"path", r.path}, {"text", r.text}, {"probe", r.probe}};
    // Invalid UTF-8 in a student's file is kept byte for byte (as \u00XX escapes would not be).
    if (const auto failure = base::writeFileAtomic(
            dir / "translate.json", j.dump(-1, ' ', false, json::error_handler_t::replace), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write " + (dir / "translate.json").string()};
    if (const auto failure = base::writeFileAtomic(dir / "translate.txt", r.text, scratchWrite()))
        return Error{ExitCode::Internal, "cannot write " + (dir / "translate.txt").string()};
    return success();
}

Status readTranslateRequest(const fs::path& dir, TranslateRequest& r) {
    try {
        std::ifstream in(dir / "translate.json");
        const json j = json::parse(in);
        r.path = j.at("path");
        r.probe = j.at("probe");
        auto text = base::readFileBytes(dir / "translate.txt");
        if (!text)
            return Error{ExitCode::Internal, "cannot read the kernel file's text"};
        r.text.assign(text->begin(), text->end());
    } catch (const std::exception& e) {
        return Error{ExitCode::Internal, std::string("the translation's request is unreadable: ") + e.what()};
    }
    return success();
}

Status writeTranslateReply(const fs::path& dir, const TranslateReply& r) {
    json j{{"ok", r.ok},   {"message", r.message},           {"code", r.code}, {"diagnostic", toJson(r.diagnostic)},
           {"pid", r.pid}, {"probe_visible", r.probeVisible}};
    if (r.ok)
        j["translation"] = toJson(r.translation);
    // The student's text and sources travel byte for byte in files of their own.
    if (r.ok) {
        for (const auto& [name, text] : {std::pair{"text", &r.translation.text},
                                         {"cpu_source", &r.translation.cpuSource},
                                         {"device_source", &r.translation.deviceSource},
                                         {"traced_device_source", &r.translation.tracedDeviceSource}}) {
            j["translation"][name] = "";
            if (const auto failure =
                    base::writeFileAtomic(dir / (std::string("translation.") + name), *text, scratchWrite()))
                return Error{ExitCode::Internal, "cannot write the translation"};
        }
    }
    if (const auto failure = base::writeFileAtomic(
            dir / "translation.json", j.dump(-1, ' ', false, json::error_handler_t::replace), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write the translation"};
    return success();
}

Result<TranslateReply> readTranslateReply(const fs::path& dir) {
    TranslateReply r;
    if (!plainFile(dir / "translation.json", 64ull << 20))
        return Error{ExitCode::Internal, "no translation"};
    try {
        std::ifstream in(dir / "translation.json");
        const json j = json::parse(in);
        r.ok = j.at("ok");
        r.message = j.at("message");
        r.code = j.at("code");
        r.diagnostic = diagnosticFrom(j.at("diagnostic"));
        r.pid = j.at("pid");
        r.probeVisible = j.at("probe_visible");
        if (r.ok) {
            r.translation = translationFrom(j.at("translation"));
            for (auto [name, text] : {std::pair{"text", &r.translation.text},
                                      {"cpu_source", &r.translation.cpuSource},
                                      {"device_source", &r.translation.deviceSource},
                                      {"traced_device_source", &r.translation.tracedDeviceSource}}) {
                const fs::path file = dir / (std::string("translation.") + name);
                if (!plainFile(file, 64ull << 20))
                    return Error{ExitCode::Internal, "the translation is incomplete"};
                auto bytes = base::readFileBytes(file);
                if (!bytes)
                    return Error{ExitCode::Internal, "the translation is incomplete"};
                text->assign(bytes->begin(), bytes->end());
            }
        }
    } catch (const std::exception& e) {
        return Error{ExitCode::Internal, std::string("the translation is unreadable: ") + e.what()};
    }
    return r;
}

}  // namespace tilescope::own
