#include "own/worker_protocol.hpp"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
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
           {"shared_parts", job.sharedParts},
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
        job.sharedParts = j.at("shared_parts").get<std::vector<std::string>>();
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
    // A message may quote the student's bytes: invalid UTF-8 is replaced, not thrown on.
    if (const auto failure = base::writeFileAtomic(
            dir / "result.json", j.dump(-1, ' ', false, json::error_handler_t::replace), scratchWrite()))
        return Error{ExitCode::Internal, "cannot write the result"};
    return success();
}

bool plainFile(const fs::path& path, std::uint64_t maxBytes) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) <= maxBytes;
}

// [SECTION] Text from an untrusted process.

namespace {

// The code point of the UTF-8 sequence at text[i] and its length; length 0
// for an invalid sequence (overlong, a surrogate, past U+10FFFF, cut short).
std::uint32_t decodeUtf8(std::string_view text, std::size_t i, std::size_t& length) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    length = 0;
    if (c < 0x80) {
        length = 1;
        return c;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0, least = 0;
    if ((c & 0xe0) == 0xc0) n = 2, cp = c & 0x1f, least = 0x80;
    else if ((c & 0xf0) == 0xe0) n = 3, cp = c & 0x0f, least = 0x800;
    else if ((c & 0xf8) == 0xf0) n = 4, cp = c & 0x07, least = 0x10000;
    else return 0;
    if (i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    length = n;
    return cp;
}

// Characters that move the cursor, change the terminal's state or reorder
// the text around them.
bool controlCharacter(std::uint32_t cp) {
    return (cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
           cp == 0x061c;
}

}  // namespace

std::string printableText(std::string_view text, std::size_t maxBytes) {
    std::string out;
    out.reserve(std::min(text.size(), maxBytes) + 8);
    for (std::size_t i = 0; i < text.size();) {
        std::size_t length = 0;
        const std::uint32_t cp = decodeUtf8(text, i, length);
        const bool keep = length > 0 && !controlCharacter(cp);
        const std::size_t adds = keep ? length : 1;
        if (out.size() + adds > maxBytes) {
            out += " [...]";
            break;
        }
        if (keep) out.append(text.substr(i, length));
        else out += '?';
        i += length > 0 ? length : 1;
    }
    return out;
}

// [SECTION] Reading the worker's result.

namespace {

// A field the worker wrote that the job did not ask for: what, in words.
struct Refused {
    std::string what;
};

const json& field(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) throw Refused{std::string("no \"") + key + "\""};
    return *it;
}

bool flagOf(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_boolean()) throw Refused{std::string("\"") + key + "\" is not true or false"};
    return v.get<bool>();
}

std::string textOf(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_string()) throw Refused{std::string("\"") + key + "\" is not text"};
    return printableText(v.get_ref<const std::string&>());
}

std::uint64_t countOf(const json& j, const char* key, std::uint64_t most) {
    const json& v = field(j, key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
        throw Refused{std::string("\"") + key + "\" is not a count"};
    const std::uint64_t n = v.get<std::uint64_t>();
    if (n > most)
        throw Refused{std::string("\"") + key + "\" is " + std::to_string(n) + ", past " + std::to_string(most)};
    return n;
}

std::string dimText(Dim3 d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

Dim3 dimOf(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_array() || v.size() != 3) throw Refused{std::string("\"") + key + "\" is not three sizes"};
    std::uint64_t d[3];
    for (std::size_t i = 0; i < 3; ++i) {
        if (!v[i].is_number_unsigned() && !(v[i].is_number_integer() && v[i].get<std::int64_t>() >= 0))
            throw Refused{std::string("\"") + key + "\" holds a negative or fractional size"};
        d[i] = v[i].get<std::uint64_t>();
        if (d[i] > 0xffffffffull) throw Refused{std::string("\"") + key + "\" holds a size past 2^32"};
    }
    return Dim3{static_cast<unsigned>(d[0]), static_cast<unsigned>(d[1]), static_cast<unsigned>(d[2])};
}

std::uint64_t count64(Dim3 d) { return std::uint64_t{d.x} * d.y * d.z; }

// The grid and block launch() may launch: what the worker's runtimes allow
// (worker_main.cpp, own_gpu.cpp), which are CUDA's limits.
constexpr std::uint64_t kMostBlocks = 64ull * 1024 * 1024;  // and threads, on the CPU executor
constexpr std::size_t kMostSharedBytes = 48 * 1024;

void checkLaunch(const WorkerResult& r, const WorkerJob& job) {
    const Dim3 b = r.block, g = r.grid;
    if (b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 || b.y > 1024 || b.z > 64 || count64(b) > 1024)
        throw Refused{"a block of " + dimText(b) + "; a block has 1 to 1024 threads"};
    if (g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535 ||
        count64(g) > kMostBlocks)
        throw Refused{"a grid of " + dimText(g) + " blocks"};
    if (job.backend != "cuda" && count64(g) * count64(b) > kMostBlocks)
        throw Refused{"a grid of " + dimText(g) + " blocks of " + dimText(b) + ": more threads than the CPU runs"};
    if (r.sharedBytes > kMostSharedBytes)
        throw Refused{std::to_string(r.sharedBytes) + " bytes of shared memory a block"};
    if (!std::isfinite(r.millis) || r.millis < 0.0) throw Refused{"its time is not a time"};
}

// Reads events.bin as writeResult writes it, checking every block and event
// against the launch it reports and the job.
void readEvents(const fs::path& file, std::uint64_t blocks, WorkerResult& r, const WorkerJob& job,
                const ResultBounds& bounds) {
    std::ifstream events(file, std::ios::binary);
    if (!events) throw Refused{"events.bin cannot be read"};
    std::error_code ec;
    std::uint64_t left = fs::file_size(file, ec);
    if (ec) throw Refused{"events.bin cannot be read"};
    const unsigned threads = r.block.count();  // at most 1024: checked
    const std::uint64_t image = std::uint64_t(job.width) * std::uint64_t(job.height);
    std::uint64_t sizes[kArrayCount] = {};
    sizes[kArrayInput] = sizes[kArrayOutput] = image;
    sizes[kArrayMask] = bounds.maskElements > 0 ? std::uint64_t(bounds.maskElements)
                                                : std::uint64_t(job.maskWidth) * (job.dims == 2 ? job.maskWidth : 1);
    sizes[kArrayShared] = r.sharedBytes / sizeof(float);
    const bool lines = bounds.lines > 0 && bounds.lines < 65536;  // Event::line holds 16 bits
    std::uint64_t total = 0;
    long long previous = -1;
    for (std::uint64_t i = 0; i < blocks; ++i) {
        std::uint64_t header[4];
        if (left < sizeof header || !events.read(reinterpret_cast<char*>(header), sizeof header))
            throw Refused{"events.bin is cut short"};
        left -= sizeof header;
        if (header[0] >= r.grid.x || header[1] >= r.grid.y || header[2] >= r.grid.z)
            throw Refused{"a traced block outside the grid"};
        BlockEvents b;
        b.block = Dim3{static_cast<unsigned>(header[0]), static_cast<unsigned>(header[1]),
                       static_cast<unsigned>(header[2])};
        const long long linear =
            static_cast<long long>(b.block.x + std::uint64_t{r.grid.x} * (b.block.y + std::uint64_t{r.grid.y} * b.block.z));
        if (linear <= previous) throw Refused{"traced blocks out of order"};
        previous = linear;
        if (!job.traceBlocks.empty()) {
            bool asked = false;
            for (const Dim3& want : job.traceBlocks)
                asked = asked || (want.x == b.block.x && want.y == b.block.y && (r.grid.z == 1 || want.z == b.block.z));
            if (!asked) throw Refused{"block " + dimText(b.block) + " traced, which was not asked for"};
        }
        if (header[3] > left / sizeof(Event)) throw Refused{"events.bin is cut short"};
        total += header[3];
        if (total > job.eventBudget) throw Refused{"more events than the trace's budget"};
        left -= header[3] * sizeof(Event);
        b.events.resize(static_cast<std::size_t>(header[3]));
        events.read(reinterpret_cast<char*>(b.events.data()),
                    static_cast<std::streamsize>(b.events.size() * sizeof(Event)));
        if (!events) throw Refused{"events.bin is cut short"};
        const std::string where = "block " + dimText(b.block);
        for (std::size_t k = 0; k < b.events.size(); ++k) {
            const Event& e = b.events[k];
            if (e.thread >= threads) throw Refused{where + ": an event of thread " + std::to_string(e.thread) +
                                                   ", outside its block of " + std::to_string(threads)};
            if (k > 0 && e.thread < b.events[k - 1].thread) throw Refused{where + ": events out of order"};
            if (k > 0 && e.thread == b.events[k - 1].thread && e.phase < b.events[k - 1].phase)
                throw Refused{where + ": a thread's phases go backwards"};
            if (static_cast<unsigned>(e.op) >= kOpCount) throw Refused{where + ": an unknown op"};
            const bool memory = e.op != Op::MultiplyAdd && e.op != Op::Barrier;
            if (memory ? e.array >= kArrayCount : (e.array >= kArrayCount && e.array != kArrayNone))
                throw Refused{where + ": an unknown array"};
            if ((e.op == Op::Load || e.op == Op::Store) &&
                (e.index < 0 || static_cast<std::uint64_t>(e.index) >= sizes[e.array]))
                throw Refused{where + ": an access of element " + std::to_string(e.index) + " of array " +
                              std::to_string(e.array) + " (" + std::to_string(sizes[e.array]) +
                              " elements) that is not marked outside"};
            if (lines && e.line > bounds.lines)
                throw Refused{where + ": line " + std::to_string(e.line) + ", past the file's " +
                              std::to_string(bounds.lines)};
        }
        r.blocks.push_back(std::move(b));
    }
    if (left > 0) throw Refused{"events.bin holds bytes after its last block"};
}

}  // namespace

Result<WorkerResult> readResult(const fs::path& dir, const WorkerJob& job, const ResultBounds& bounds) {
    WorkerResult r;
    struct stat folder {};
    if (lstat(dir.c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode))
        return Error{ExitCode::Internal, "the job's folder was replaced"};
    for (const char* name : {"result.json", "P.f32", "events.bin"})
        if (!plainFile(dir / name))
            return Error{ExitCode::Internal, std::string("no result (") + name + " is missing or not a plain file)"};
    const std::string refused = job.path + ": the kernel's process returned a result TileScope did not ask for (";
    try {
        if (!plainFile(dir / "result.json", kMaxResultJsonBytes))
            throw Refused{"result.json is over " + std::to_string(kMaxResultJsonBytes) + " bytes"};
        auto text = base::readFileBytes(dir / "result.json");
        if (!text) return Error{ExitCode::Internal, "no result"};
        const json j = json::parse(text->begin(), text->end(), nullptr, false);
        if (!j.is_object()) throw Refused{"result.json is not a JSON object"};
        r.ok = flagOf(j, "ok");
        r.message = textOf(j, "message");
        r.backend = textOf(j, "backend");
        r.unavailable = flagOf(j, "unavailable");
        r.plainSkipped = flagOf(j, "plain_skipped");
        if (r.backend != "cpu" && r.backend != "cuda") throw Refused{"a backend that is neither cpu nor cuda"};
        const bool lines = bounds.lines > 0;
        r.line = static_cast<unsigned>(countOf(j, "line", lines ? bounds.lines : 0xffffffffu));
        if (r.unavailable) {
            // Only a GPU can be missing, and then nothing ran.
            if (job.backend != "cuda" || r.ok) throw Refused{"a CPU run that says the GPU is unavailable"};
            return r;
        }
        // A failure is a message and a line; nothing else of it is read.
        if (!r.ok) return r;
        if (r.backend != job.backend) throw Refused{"a run on " + r.backend + ", not " + job.backend};
        if (r.plainSkipped && job.backend != "cuda") throw Refused{"a CPU run that skipped the GPU's plain kernel"};
        r.kernel = textOf(j, "kernel");
        if (!bounds.kernels.empty() &&
            std::find(bounds.kernels.begin(), bounds.kernels.end(), r.kernel) == bounds.kernels.end())
            throw Refused{"a kernel named \"" + r.kernel + "\", which the file does not define"};
        r.grid = dimOf(j, "grid");
        r.block = dimOf(j, "block");
        r.sharedBytes = static_cast<std::size_t>(countOf(j, "shared_bytes", ~0ull));
        const json& millis = field(j, "millis");
        if (!millis.is_number()) throw Refused{"its time is not a number"};
        r.millis = millis.get<double>();
        checkLaunch(r, job);
        const std::uint64_t blocks = count64(r.grid);
        r.faults.outside = countOf(j, "outside", ~0ull);
        r.faults.firstOutside = textOf(j, "first_outside");
        r.faults.barrierMismatches = countOf(j, "barrier_mismatches", blocks);
        r.faults.firstBarrier = textOf(j, "first_barrier");
        const std::uint64_t traced = countOf(j, "blocks", job.trace ? blocks : 0);
        // The output: exactly the plane asked for.
        const std::uint64_t floats = std::uint64_t(job.width) * std::uint64_t(job.height);
        std::error_code ec;
        const std::uint64_t bytes = fs::file_size(dir / "P.f32", ec);
        if (ec || bytes != floats * sizeof(float))
            throw Refused{"an output of " + std::to_string(ec ? 0 : bytes) + " bytes, not " + std::to_string(job.width) +
                          " x " + std::to_string(job.height) + " floats"};
        if (Status s = readFloats(dir / "P.f32", r.output); !s) return s.error();
        if (r.output.size() != floats) throw Refused{"an output that changed while it was read"};
        readEvents(dir / "events.bin", traced, r, job, bounds);
    } catch (const Refused& why) {
        return badInput(refused + printableText(why.what, 512) + ")");
    } catch (const std::exception& e) {
        return badInput(refused + printableText(e.what(), 512) + ")");
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
                              {"line", d.line},
                              {"planes", d.planes},
                              {"dims", d.dims},
                              {"element", d.element}});
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
                {"launched", t.launched},
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
        for (const json& s : k.at("shared")) {
            d.shared.push_back(
                {s.at("name"), s.at("rows"), s.at("cols"), s.at("offset"), s.at("dynamic"), s.at("line")});
            d.shared.back().planes = s.value("planes", 1);
            d.shared.back().element = s.value("element", std::string("float"));
            d.shared.back().dims = s.value("dims", 1);
            if (d.shared.back().dims < 1 || d.shared.back().dims > 3)
                throw std::out_of_range("a shared array of " + std::to_string(d.shared.back().dims) + " subscripts");
            // Spelled into the compiled text: one of the three names, nothing else.
            if (d.shared.back().element != "float" && d.shared.back().element != "int" &&
                d.shared.back().element != "unsigned int")
                throw std::out_of_range("a shared array of an unknown element type");
            // At most 48 KB of floats in all; a plane count past it is no array a file declared.
            if (d.shared.back().planes < 1 || d.shared.back().planes > 12288)
                throw std::out_of_range("a shared array of " + std::to_string(d.shared.back().planes) + " planes");
        }
        d.staticSharedFloats = k.at("static_shared_floats");
        t.kernels.push_back(std::move(d));
    }
    t.launched = j.at("launched");
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
        // The translator's words name the student's text: made printable,
        // and its code one of the codes there are.
        r.message = printableText(j.at("message").get<std::string>());
        r.code = j.at("code");
        if (r.code != static_cast<int>(ExitCode::BadInput) && r.code != static_cast<int>(ExitCode::BackendUnavailable))
            r.code = static_cast<int>(ExitCode::Internal);
        r.diagnostic = diagnosticFrom(j.at("diagnostic"));
        r.diagnostic.path = printableText(r.diagnostic.path);
        r.diagnostic.message = printableText(r.diagnostic.message);
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
