// Reading and writing traces in JSON and in the compact binary form; the
// formats are documented in trace_io.hpp.
#include "trace/trace_io.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/read_file.hpp"
#include "core/charconv.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"

namespace tilescope {

using Json = nlohmann::ordered_json;

const char* spaceName(Space s) {
    switch (s) {
        case Space::Global:
            return "global";
        case Space::Shared:
            return "shared";
        case Space::Constant:
            return "constant";
        case Space::Register:
            return "register";
    }
    return "global";
}

namespace {

constexpr char kMagic[8] = {'T', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
// Version 2 records an access outside a 2D array with the shared array it
// went through (event.hpp's subscriptIndex); version 1's records, subscripts
// alone in 15 bits each, are read and recorded again (upgradeVersion1).
constexpr std::uint32_t kVersion = 2;

// [SECTION] Names

bool spaceFromName(const std::string& n, Space& s) {
    for (Space c : {Space::Global, Space::Shared, Space::Constant, Space::Register})
        if (n == spaceName(c)) {
            s = c;
            return true;
        }
    return false;
}

const char* opName(Op op) {
    switch (op) {
        case Op::Load:
            return "load";
        case Op::Store:
            return "store";
        case Op::MultiplyAdd:
            return "multiply_add";
        case Op::Barrier:
            return "barrier";
        case Op::LoadOutside:
            return "load_outside";
        case Op::StoreOutside:
            return "store_outside";
    }
    return "load";
}

bool opFromName(const std::string& n, Op& op) {
    for (Op o : {Op::Load, Op::Store, Op::MultiplyAdd, Op::Barrier, Op::LoadOutside, Op::StoreOutside})
        if (n == opName(o)) {
            op = o;
            return true;
        }
    return false;
}

// [SECTION] The launch description (shared by both formats)

Json dim3Json(Dim3 d) {
    return Json::array({d.x, d.y, d.z});
}

Json floatJson(float f) {
    if (std::isnan(f))
        return "nan";
    if (std::isinf(f))
        return f > 0 ? "inf" : "-inf";
    // The shortest decimal that reads back as this float, as a double (so
    // the file says 0.42, not 0.41999998688697815); the exact double when
    // that decimal would not read back.
    const std::string text = shortestDecimal(f);
    const double d = std::strtod(text.c_str(), nullptr);
    if (static_cast<float>(d) == f && std::signbit(d) == std::signbit(f))
        return d;
    return static_cast<double>(f);
}

bool floatFromJson(const Json& j, float& f) {
    if (j.is_number()) {
        f = static_cast<float>(j.get<double>());
        return true;
    }
    if (j.is_string()) {
        const std::string s = j.get<std::string>();
        if (s == "nan")
            f = std::numeric_limits<float>::quiet_NaN();
        else if (s == "inf")
            f = std::numeric_limits<float>::infinity();
        else if (s == "-inf")
            f = -std::numeric_limits<float>::infinity();
        else
            return false;
        return true;
    }
    return false;
}

Json launchJson(const Trace& t) {
    const LaunchPlan& p = t.plan;
    Json j;
    j["format"] = "tilescope-trace";
    j["version"] = kVersion;
    j["kernel"] = t.kernel;
    j["backend"] = t.backend;
    j["what_if"] = p.whatIf;
    j["what_if_reason"] = p.whatIfReason;
    j["plan"] = {{"grid", dim3Json(p.grid)},
                 {"block_dim", dim3Json(p.block)},
                 {"shared_bytes", p.sharedBytes},
                 {"radius", p.radius},
                 {"mask_width", p.maskWidth},
                 {"in_tile", p.inTile},
                 {"out_tile", p.outTile},
                 {"width", p.width},
                 {"height", p.height},
                 {"channels", p.channels},
                 {"pitch", p.pitch}};
    Json arrays = Json::array();
    for (int id = 0; id < kArrayCount; ++id) {
        const ArrayInfo& a = t.arrays[id];
        arrays.push_back({{"id", id},
                          {"name", a.name},
                          {"space", spaceName(a.space)},
                          {"width", a.width},
                          {"height", a.height},
                          {"channels", a.channels},
                          {"pitch", a.pitch},
                          {"size", a.size}});
        if (a.planeRows > 0) arrays.back()["plane_rows"] = a.planeRows;
        if (!a.parts.empty()) {
            Json parts = Json::array();
            for (const SharedPart& part : a.parts)
                parts.push_back({{"name", part.name},
                                 {"offset", part.offset},
                                 {"planes", part.planes},
                                 {"rows", part.rows},
                                 {"cols", part.cols},
                                 {"dims", part.dims}});
            arrays.back()["parts"] = parts;
        }
    }
    j["arrays"] = arrays;
    // What the GPU did (instrumented runs only; empty for the CPU executor).
    Json hardware = Json::array();
    for (const BlockHardware& h : t.hardware)
        hardware.push_back({{"block", dim3Json(h.block)},
                            {"sm", h.sm},
                            {"start_ns", h.startNs},
                            {"end_ns", h.endNs},
                            {"warp_ids", h.warpIds}});
    j["hardware"] = hardware;
    return j;
}

// Reads what launchJson wrote; any missing or mistyped key is an error.
Status launchFromJson(const Json& j, Trace& t, const KernelInfo* entry) {
    try {
        if (j.at("format").get<std::string>() != "tilescope-trace")
            return badInput("not a TileScope trace");
        const std::uint32_t version = j.at("version").get<std::uint32_t>();
        if (version != kVersion && version != 1)
            return badInput("trace version " + std::to_string(version) + " is not supported (this TileScope reads " +
                            "versions 1 and " + std::to_string(kVersion) + ")");
        t.kernel = j.at("kernel").get<std::string>();
        const KernelInfo* k = entry ? entry : findKernel(t.kernel);
        if (!k)
            return badInput("unknown kernel '" + t.kernel + "' in the trace");
        if (entry && t.kernel != entry->name)
            return badInput("the trace is of kernel '" + t.kernel + "', not of " + std::string(entry->name));
        t.backend = j.at("backend").get<std::string>();
        LaunchPlan& p = t.plan;
        p.kernel = k->id;
        p.entry = k;
        p.whatIf = j.at("what_if").get<bool>();
        p.whatIfReason = j.at("what_if_reason").get<std::string>();
        const Json& plan = j.at("plan");
        auto dim3 = [](const Json& a) {
            return Dim3{a.at(0).get<unsigned>(), a.at(1).get<unsigned>(), a.at(2).get<unsigned>()};
        };
        p.grid = dim3(plan.at("grid"));
        p.block = dim3(plan.at("block_dim"));
        p.sharedBytes = plan.at("shared_bytes").get<std::size_t>();
        p.radius = plan.at("radius").get<int>();
        p.maskWidth = plan.at("mask_width").get<int>();
        p.inTile = plan.at("in_tile").get<int>();
        p.outTile = plan.at("out_tile").get<int>();
        p.width = plan.at("width").get<int>();
        p.height = plan.at("height").get<int>();
        p.channels = plan.at("channels").get<int>();
        p.pitch = plan.at("pitch").get<int>();
        const Json& arrays = j.at("arrays");
        if (!arrays.is_array() || arrays.size() != kArrayCount)
            return badInput("the trace must describe " + std::to_string(kArrayCount) + " arrays");
        for (const Json& a : arrays) {
            const int id = a.at("id").get<int>();
            if (id < 0 || id >= kArrayCount)
                return badInput("array id " + std::to_string(id) + " is out of range");
            ArrayInfo& info = t.arrays[id];
            info.name = a.at("name").get<std::string>();
            if (!spaceFromName(a.at("space").get<std::string>(), info.space))
                return badInput("unknown memory space '" + a.at("space").get<std::string>() + "'");
            info.width = a.at("width").get<int>();
            info.height = a.at("height").get<int>();
            info.channels = a.at("channels").get<int>();
            info.pitch = a.at("pitch").get<int>();
            info.size = a.at("size").get<int>();
            info.planeRows = a.contains("plane_rows") ? a.at("plane_rows").get<int>() : 0;
            info.parts.clear();
            if (a.contains("parts"))
                for (const Json& part : a.at("parts"))
                    info.parts.push_back(SharedPart{part.at("name").get<std::string>(), part.at("offset").get<int>(),
                                                    part.at("planes").get<int>(), part.at("rows").get<int>(),
                                                    part.at("cols").get<int>(), part.at("dims").get<int>()});
        }
        if (j.contains("hardware")) {
            for (const Json& h : j.at("hardware")) {
                BlockHardware hw;
                hw.block = dim3(h.at("block"));
                hw.sm = h.at("sm").get<unsigned>();
                hw.startNs = h.at("start_ns").get<std::uint64_t>();
                hw.endNs = h.at("end_ns").get<std::uint64_t>();
                hw.warpIds = h.at("warp_ids").get<std::vector<unsigned>>();
                t.hardware.push_back(std::move(hw));
            }
        }
    } catch (const Json::exception& e) {
        return badInput(std::string("the trace's description is incomplete: ") + e.what());
    }
    return success();
}

std::string coordsText(Dim3 b) {
    return "(" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

// [SECTION] Binary encoding

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

template <class T>
void putRaw(std::string& out, T v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // x86 and ARM are little-endian, as the format is
    out.append(reinterpret_cast<const char*>(b), sizeof(T));
}

constexpr unsigned kTagLine = 1u << 4, kTagZero = 1u << 5, kTagPhase = 1u << 6, kTagRaw = 1u << 7;

void putRawEvent(std::string& out, const Event& e) {
    putRaw(out, e.index);
    putRaw(out, e.value);
    putRaw(out, e.thread);
    putRaw(out, e.line);
    putRaw(out, e.phase);
    putRaw(out, static_cast<std::uint8_t>(e.op));
    putRaw(out, e.array);
}

// One thread's events, as the header comment describes.
void encodeThread(std::string& out, const Event* events, std::size_t n) {
    std::int64_t lastIndex[kArrayCount] = {0, 0, 0, 0};
    unsigned line = 0, barriers = 0;
    bool first = true;
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = events[i];
        const bool memory = e.op == Op::Load || e.op == Op::Store;
        const bool expressible = static_cast<unsigned>(e.op) <= 3 &&
                                 (memory ? e.array < kArrayCount : (e.array == kArrayNone && e.index == -1)) &&
                                 (e.op != Op::Barrier || bitCast<std::uint32_t>(e.value) == 0);
        if (!expressible) {
            out.push_back(static_cast<char>(kTagRaw));
            putRawEvent(out, e);
        } else {
            unsigned tag = static_cast<unsigned>(e.op) | (memory ? static_cast<unsigned>(e.array) << 2 : 0u);
            if (first || e.line != line)
                tag |= kTagLine;
            const bool zero = bitCast<std::uint32_t>(e.value) == 0;
            if (zero)
                tag |= kTagZero;
            if (e.phase != barriers)
                tag |= kTagPhase;
            out.push_back(static_cast<char>(tag));
            if (memory) {
                putVarint(out, zigzag(static_cast<std::int64_t>(e.index) - lastIndex[e.array]));
                lastIndex[e.array] = e.index;
            }
            if (tag & kTagLine)
                putVarint(out, e.line);
            if (tag & kTagPhase)
                putVarint(out, e.phase);
            if (!zero && e.op != Op::Barrier)
                putRaw(out, e.value);
        }
        line = e.line;
        if (e.op == Op::Barrier)
            ++barriers;
        first = false;
    }
}

class Reader {
public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
    bool varint(std::uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_at >= m_bytes.size())
                return false;
            const auto b = static_cast<unsigned char>(m_bytes[m_at++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    }
    template <class T>
    bool raw(T& v) {
        if (m_bytes.size() - m_at < sizeof(T))
            return false;
        std::memcpy(&v, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return true;
    }
    bool byte(unsigned& v) {
        if (m_at >= m_bytes.size())
            return false;
        v = static_cast<unsigned char>(m_bytes[m_at++]);
        return true;
    }
    bool take(std::size_t n, std::string_view& s) {
        if (m_bytes.size() - m_at < n)
            return false;
        s = m_bytes.substr(m_at, n);
        m_at += n;
        return true;
    }
    bool atEnd() const { return m_at == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

bool decodeThread(Reader& in, std::uint16_t thread, std::uint64_t n, std::vector<Event>& out) {
    std::int64_t lastIndex[kArrayCount] = {0, 0, 0, 0};
    unsigned line = 0, barriers = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        unsigned tag = 0;
        if (!in.byte(tag))
            return false;
        Event e{};
        if (tag & kTagRaw) {
            std::uint8_t op = 0;
            if (!in.raw(e.index) || !in.raw(e.value) || !in.raw(e.thread) || !in.raw(e.line) || !in.raw(e.phase) ||
                !in.raw(op) || !in.raw(e.array) || e.thread != thread || op >= kOpCount)
                return false;
            e.op = static_cast<Op>(op);
        } else {
            e.op = static_cast<Op>(tag & 3u);
            e.thread = thread;
            const bool memory = e.op == Op::Load || e.op == Op::Store;
            e.array = memory ? static_cast<std::uint8_t>((tag >> 2) & 3u) : static_cast<std::uint8_t>(kArrayNone);
            e.index = -1;
            if (memory) {
                std::uint64_t d = 0;
                if (!in.varint(d))
                    return false;
                const std::int64_t index = lastIndex[e.array] + unzigzag(d);
                if (index < std::numeric_limits<std::int32_t>::min() ||
                    index > std::numeric_limits<std::int32_t>::max())
                    return false;
                e.index = static_cast<std::int32_t>(index);
                lastIndex[e.array] = index;
            }
            std::uint64_t v = line;
            if ((tag & kTagLine) && !in.varint(v))
                return false;
            if (v > 0xffff)
                return false;
            e.line = static_cast<std::uint16_t>(v);
            v = barriers;
            if ((tag & kTagPhase) && !in.varint(v))
                return false;
            if (v > 0xffff)
                return false;
            e.phase = static_cast<std::uint16_t>(v);
            e.value = 0.0f;
            if (!(tag & kTagZero) && e.op != Op::Barrier && !in.raw(e.value))
                return false;
        }
        line = e.line;
        if (e.op == Op::Barrier)
            ++barriers;
        out.push_back(e);
    }
    return true;
}

// [SECTION] Files

Result<std::string> readFile(const std::string& path) {
    auto bytes = base::readFileText(path);
    if (!bytes) {
        const auto kind = bytes.error().kind;
        if (kind == base::FileError::Kind::Missing || kind == base::FileError::Kind::Open)
            return badInput(path + ": cannot open the file");
        return badInput(path + ": cannot read the file");
    }
    return std::move(*bytes);
}

// Written beside, then renamed (base/atomic_file.hpp): a reader never sees
// half a trace. Without fsync: a trace is made again in seconds.
Status writeFile(const std::string& path, const std::string& bytes) {
    namespace fs = std::filesystem;
    base::AtomicWriteOptions options;
    options.sync = false;
    const auto failure = base::writeFileAtomic(path, bytes, options);
    if (!failure)
        return success();
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    switch (failure->kind) {
        case base::FileError::Kind::IsDirectory:
            return badInput(path + ": cannot be written: it is a directory");
        case base::FileError::Kind::NotRegularFile:
            return badInput(path + ": cannot be written: it exists and is not a regular file");
        case base::FileError::Kind::NotAFileName:
        case base::FileError::Kind::CreateTemporary:
            if (fs::is_directory(path, ec))
                return badInput(path + ": cannot be written: it is a directory");
            if (!parent.empty() && !fs::is_directory(parent, ec))
                return badInput(path + ": cannot be written: the folder '" + parent.string() + "' does not exist");
            return badInput(path + ": cannot create the file (" + failure->detail + ")");
        case base::FileError::Kind::Rename:
            return badInput(path + ": cannot write the file (" + failure->detail + ")");
        default:
            return badInput(path + ": cannot write the file (disk full?)");
    }
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// [SECTION] Public

const char* formatName(TraceFormat format) {
    switch (format) {
        case TraceFormat::Auto:
            return "auto";
        case TraceFormat::Json:
            return "json";
        case TraceFormat::Binary:
            return "binary";
    }
    return "auto";
}

TraceFormat chooseFormat(const std::string& path, std::size_t events, TraceFormat requested) {
    if (requested != TraceFormat::Auto)
        return requested;
    if (endsWith(path, ".json"))
        return TraceFormat::Json;
    if (endsWith(path, ".tstrace"))
        return TraceFormat::Binary;
    return events <= kJsonEventLimit ? TraceFormat::Json : TraceFormat::Binary;
}

std::string traceToJson(const Trace& trace) {
    Json j = launchJson(trace);
    j["event_fields"] = {"thread", "seq", "phase", "op", "array", "index", "value", "line"};
    Json blocks = Json::array();
    for (const BlockEvents& b : trace.blocks) {
        Json events = Json::array();
        unsigned seq = 0;
        for (std::size_t i = 0; i < b.events.size(); ++i) {
            const Event& e = b.events[i];
            if (i > 0 && b.events[i - 1].thread != e.thread)
                seq = 0;
            events.push_back(Json::array({e.thread, seq++, e.phase, opName(e.op),
                                          e.array < kArrayCount ? Json(e.array) : Json(nullptr), e.index,
                                          floatJson(e.value), e.line}));
        }
        blocks.push_back({{"block", dim3Json(b.block)}, {"events", std::move(events)}});
    }
    j["blocks"] = std::move(blocks);
    return j.dump() + "\n";
}

// A version 1 trace's accesses outside a 2D array: subscripts biased by
// 2^14 in 15 bits each, no part (one shared array, or the mask). Recorded
// again as version 2 records them; a subscript past version 2's range keeps
// the nearest it holds (they name the same side of the array).
void upgradeVersion1(Trace& t) {
    constexpr std::int64_t bias = 1 << 14, span = 2 * bias;
    for (BlockEvents& b : t.blocks)
        for (Event& e : b.events) {
            if (!isOutside(e.op) || e.index >= kSubscripted + span * span) continue;
            const std::int64_t at = static_cast<std::int64_t>(e.index) - kSubscripted;
            const auto held = [](std::int64_t v) {
                return static_cast<int>(std::clamp<std::int64_t>(v, -kSubscriptBias, kSubscriptBias - 1));
            };
            e.index = subscriptIndex(held(at / span - bias), held(at % span - bias), 0);
        }
}

Result<Trace> traceFromJson(std::string_view text, const KernelInfo* entry) {
    Json j = Json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded())
        return badInput("the trace is not valid JSON");
    Trace t;
    if (Status s = launchFromJson(j, t, entry); !s)
        return s.error();
    try {
        for (const Json& b : j.at("blocks")) {
            const Json& d = b.at("block");
            BlockEvents block{Dim3{d.at(0).get<unsigned>(), d.at(1).get<unsigned>(), d.at(2).get<unsigned>()}, {}};
            const Json& events = b.at("events");
            block.events.reserve(events.size());
            unsigned seq = 0;
            for (const Json& f : events) {
                if (!f.is_array() || f.size() != 8)
                    return badInput("an event of block " + coordsText(block.block) + " does not have 8 fields");
                Event e{};
                const unsigned thread = f.at(0).get<unsigned>();
                if (thread > 0xffff)
                    return badInput("thread " + std::to_string(thread) + " is out of range");
                if (!block.events.empty() && block.events.back().thread != thread)
                    seq = 0;
                if (f.at(1).get<unsigned>() != seq++)
                    return badInput("block " + coordsText(block.block) + ", thread " + std::to_string(thread) +
                                    ": events are not in program order (seq)");
                e.thread = static_cast<std::uint16_t>(thread);
                e.phase = f.at(2).get<std::uint16_t>();
                if (!opFromName(f.at(3).get<std::string>(), e.op))
                    return badInput("unknown op '" + f.at(3).get<std::string>() + "'");
                e.array = f.at(4).is_null() ? static_cast<std::uint8_t>(kArrayNone) : f.at(4).get<std::uint8_t>();
                e.index = f.at(5).get<std::int32_t>();
                if (!floatFromJson(f.at(6), e.value))
                    return badInput("an event's value is not a number");
                e.line = f.at(7).get<std::uint16_t>();
                block.events.push_back(e);
            }
            t.blocks.push_back(std::move(block));
        }
    } catch (const Json::exception& e) {
        return badInput(std::string("the trace's events are malformed: ") + e.what());
    }
    if (j.at("version").get<std::uint32_t>() == 1) upgradeVersion1(t);
    if (Status s = validateTrace(t); !s)
        return s.error();
    return t;
}

std::string encodeBinary(const Trace& trace) {
    Json header = launchJson(trace);
    Json blocks = Json::array();
    for (const BlockEvents& b : trace.blocks)
        blocks.push_back({{"block", dim3Json(b.block)}, {"events", b.events.size()}});
    header["blocks"] = std::move(blocks);
    const std::string h = header.dump();

    std::string out;
    out.append(kMagic, sizeof kMagic);
    putRaw(out, kVersion);
    putRaw(out, static_cast<std::uint32_t>(h.size()));
    out += h;
    const unsigned threads = trace.plan.block.count();
    std::vector<std::size_t> begin(threads + 1);
    for (const BlockEvents& b : trace.blocks) {
        std::fill(begin.begin(), begin.end(), 0);
        for (const Event& e : b.events)
            if (e.thread < threads)
                ++begin[e.thread + 1];
        for (unsigned t = 0; t < threads; ++t)
            putVarint(out, begin[t + 1]);
        // Events are grouped by ascending thread, so thread t's are contiguous.
        std::size_t at = 0;
        for (unsigned t = 0; t < threads; ++t) {
            encodeThread(out, b.events.data() + at, begin[t + 1]);
            at += begin[t + 1];
        }
    }
    return out;
}

Result<Trace> decodeBinary(std::string_view bytes, const KernelInfo* entry) {
    Reader in(bytes);
    std::string_view magic;
    std::uint32_t version = 0, headerSize = 0;
    if (!in.take(sizeof kMagic, magic) || magic != std::string_view(kMagic, sizeof kMagic))
        return badInput("not a binary TileScope trace (the magic bytes are wrong)");
    if (!in.raw(version) || !in.raw(headerSize))
        return badInput("the trace is truncated in its header");
    if (version != kVersion && version != 1)
        return badInput("binary trace version " + std::to_string(version) + " is not supported (this TileScope reads " +
                        "versions 1 and " + std::to_string(kVersion) + ")");
    std::string_view headerText;
    if (!in.take(headerSize, headerText))
        return badInput("the trace is truncated in its header");
    Json header = Json::parse(headerText.begin(), headerText.end(), nullptr, false);
    if (header.is_discarded())
        return badInput("the trace's header is not valid JSON");
    Trace t;
    if (Status s = launchFromJson(header, t, entry); !s)
        return s.error();
    const unsigned threads = t.plan.block.count();
    if (threads == 0 || threads > 65536)
        return badInput("the trace's block has " + std::to_string(threads) + " threads");
    try {
        for (const Json& b : header.at("blocks")) {
            const Json& d = b.at("block");
            BlockEvents block{Dim3{d.at(0).get<unsigned>(), d.at(1).get<unsigned>(), d.at(2).get<unsigned>()}, {}};
            const std::uint64_t expected = b.at("events").get<std::uint64_t>();
            if (expected > bytes.size())
                return badInput("block " + coordsText(block.block) + " claims too many events");
            std::vector<std::uint64_t> perThread(threads);
            std::uint64_t sum = 0;
            for (unsigned th = 0; th < threads; ++th) {
                if (!in.varint(perThread[th]))
                    return badInput("the trace is truncated in block " + coordsText(block.block));
                sum += perThread[th];
            }
            if (sum != expected)
                return badInput("block " + coordsText(block.block) + ": the thread counts add up to " +
                                std::to_string(sum) + " events, the header says " + std::to_string(expected));
            block.events.reserve(static_cast<std::size_t>(expected));
            for (unsigned th = 0; th < threads; ++th)
                if (!decodeThread(in, static_cast<std::uint16_t>(th), perThread[th], block.events))
                    return badInput("the trace is truncated or corrupt in block " + coordsText(block.block) +
                                    ", thread " + std::to_string(th));
            t.blocks.push_back(std::move(block));
        }
    } catch (const Json::exception& e) {
        return badInput(std::string("the trace's header is malformed: ") + e.what());
    }
    if (!in.atEnd())
        return badInput("the trace has bytes after its last block");
    if (version == 1) upgradeVersion1(t);
    if (Status s = validateTrace(t); !s)
        return s.error();
    return t;
}

Result<std::string> writeTrace(const Trace& trace, const std::string& path, TraceFormat format) {
    const TraceFormat f = chooseFormat(path, trace.eventCount(), format);
    Status s = writeFile(path, f == TraceFormat::Json ? traceToJson(trace) : encodeBinary(trace));
    if (!s)
        return s.error();
    return std::string(formatName(f));
}

Result<Trace> readTrace(const std::string& path) {
    auto bytes = readFile(path);
    if (!bytes)
        return bytes.error();
    const bool binary = bytes->size() >= sizeof kMagic && std::memcmp(bytes->data(), kMagic, sizeof kMagic) == 0;
    auto trace = binary ? decodeBinary(*bytes) : traceFromJson(*bytes);
    if (!trace)
        return badInput(path + ": " + trace.error().message);
    return trace;
}

Status validateTrace(const Trace& t) {
    const LaunchPlan& p = t.plan;
    const unsigned threads = p.block.count();
    if (threads == 0 || threads > 65536)
        return badInput("a block of " + std::to_string(threads) + " threads");
    if (p.grid.count() == 0)
        return badInput("an empty grid");
    // The launch must be one the planner makes for this kernel and shape, so
    // that a damaged or hand-made file cannot send the model's tile
    // arithmetic astray.
    const KernelInfo* k = p.entry && p.entry->id == KernelId::Own ? p.entry : findKernel(t.kernel);
    if (!k || k->id != p.kernel)
        return badInput("the trace's kernel '" + t.kernel + "' is unknown");
    const Problem problem{p.width,
                          p.height,
                          p.channels,
                          k->dims == 1 ? 1 : (p.channels > 1 ? 3 : 2),
                          p.maskWidth,
                          k->dims == 1 ? 1 : p.maskWidth,
                          static_cast<int>(p.block.x)};
    // A student's kernel file chooses its own launch (its launch() ran):
    // there is no plan to compare it with, only the bounds below.
    const bool own = k->id == KernelId::Own;
    auto again = own ? Result<LaunchPlan>(p) : planLaunch(*k, problem, DeviceLimits{}, true);
    if (!again)
        return badInput("the trace's launch is impossible: " + again.error().message);
    if (!(again->grid == p.grid) || !(again->block == p.block) || again->inTile != p.inTile ||
        again->outTile != p.outTile || again->pitch != p.pitch || again->radius != p.radius ||
        again->sharedBytes != p.sharedBytes || again->channels != p.channels)
        return badInput("the trace's launch (grid, block, tiles, pitch) does not match what " + t.kernel +
                        " plans for a " + std::to_string(p.width) + "x" + std::to_string(p.height) + " input");
    const int imageSize = p.pitch * p.height;
    for (int id : {int(kArrayInput), int(kArrayOutput)}) {
        const ArrayInfo& a = t.arrays[id];
        if (a.size != imageSize || a.pitch != p.pitch || a.width != p.width || a.height != p.height ||
            a.channels != p.channels)
            return badInput("the trace's array " + a.name + " does not match the launch");
    }
    const int sharedFloats = static_cast<int>(p.sharedBytes / sizeof(float));
    if (t.arrays[kArrayShared].size != (k->usesShared ? sharedFloats : 0) || t.arrays[kArrayMask].size < 0 ||
        t.arrays[kArrayMask].size > kMaxWhatIfThreads)
        return badInput("the trace's shared or mask array does not match the launch");
    for (const ArrayInfo& a : t.arrays) {
        // Parts: in shared memory, each of a size it can hold, in ascending
        // order, none over another or past the array's end.
        long long end = 0;
        for (const SharedPart& part : a.parts) {
            const bool sizes = part.planes >= 1 && part.rows >= 1 && part.cols >= 1 && part.dims >= 1 &&
                               part.dims <= 3 && static_cast<long long>(part.planes) * part.rows * part.cols <= a.size;
            if (a.space != Space::Shared || !sizes || part.offset < end ||
                part.offset + static_cast<long long>(part.size()) > a.size)
                return badInput("the trace's array " + a.name + " has a part " + part.name +
                                " that does not fit in it");
            end = part.offset + static_cast<long long>(part.size());
        }
    }
    for (const ArrayInfo& a : t.arrays)
        if (a.planeRows < 0 || (a.planeRows > 0 && (a.space != Space::Shared || a.planeRows > a.height)))
            return badInput("the trace's array " + a.name + " has planes of " + std::to_string(a.planeRows) +
                            " rows, which it cannot hold");
    long long previous = -1;
    for (const BlockEvents& b : t.blocks) {
        const std::string where = "block " + coordsText(b.block);
        if (b.block.x >= p.grid.x || b.block.y >= p.grid.y || b.block.z >= p.grid.z)
            return badInput(where + " is outside the grid");
        const long long linear = t.linearBlock(b.block);
        if (linear <= previous)
            return badInput(where + " is out of order (blocks go in ascending linear order)");
        previous = linear;
        for (std::size_t i = 0; i < b.events.size(); ++i) {
            const Event& e = b.events[i];
            if (e.thread >= threads)
                return badInput(where + ": thread " + std::to_string(e.thread) + " is outside the block");
            if (i > 0 && e.thread < b.events[i - 1].thread)
                return badInput(where + ": events are not grouped by ascending thread");
            const bool sameThread = i > 0 && e.thread == b.events[i - 1].thread;
            if (static_cast<unsigned>(e.op) >= static_cast<unsigned>(kOpCount))
                return badInput(where + ": an unknown op");
            // An access outside its array is recorded where it pointed (it was
            // not made): only its array is bounded.
            if (isOutside(e.op) && e.array >= kArrayCount)
                return badInput(where + ": an access outside an array names no array");
            const bool memory = e.op == Op::Load || e.op == Op::Store;
            if (memory) {
                if (e.array >= kArrayCount)
                    return badInput(where + ": a load or store without an array");
                if (e.index < 0 || e.index >= t.arrays[e.array].size)
                    return badInput(where + ": " + t.arrays[e.array].name + "[" + std::to_string(e.index) +
                                    "] is outside the array");
            }
            if (sameThread && e.phase < b.events[i - 1].phase)
                return badInput(where + ", thread " + std::to_string(e.thread) + ": its phases go backwards");
        }
    }
    return success();
}

}  // namespace tilescope
