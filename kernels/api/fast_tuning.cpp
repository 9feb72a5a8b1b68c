#include "api/fast_tuning.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "base/atomic_file.hpp"
#include "core/kernel_catalogue.hpp"
#include "base/read_file.hpp"

#ifndef TILESCOPE_FAST_BUILD
#define TILESCOPE_FAST_BUILD "unknown"
#endif

namespace tilescope::tuning {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr const char* kFormat = "tilescope conv2d_fast tuning 1";
constexpr int kEdges[] = {8, 16, 24, 32};
constexpr std::size_t kMaxCacheBytes = 1 << 20;

std::string str(int v) { return std::to_string(v); }

std::string shapeText(const Shape& s, int bands) {
    const int y = s.fast.staged ? s.block / bands : s.block;
    std::string text = s.fast.staged ? "staged in shared memory" : "through the caches";
    text += ", " + str(s.block) + "x" + str(y) + " threads, ";
    text += s.fast.registers > 0 ? "at most " + str(s.fast.registers) + " registers" : "the compiler's registers";
    return text;
}

std::string millisText(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", ms);
    return text;
}

}  // namespace

std::vector<Shape> menu(const KernelInfo& kernel, int radius) {
    std::vector<Shape> shapes;
    const ThreadPatch& patch = kernel.patch;
    for (const bool staged : {false, true}) {
        if (staged && radius == 0) continue;  // a mask of one tap has no halo to stage
        for (const int edge : kEdges)
            for (const int registers : {staged ? patch.stagedRegisters : patch.directRegisters, 0})
                shapes.push_back(Shape{edge, FastShape{staged, registers}});
    }
    return shapes;
}

bool inMenu(const KernelInfo& kernel, int radius, const Shape& shape) {
    for (const Shape& s : menu(kernel, radius))
        if (s == shape) return true;
    return false;
}

std::string describe(const LaunchPlan& plan) {
    const Shape s{static_cast<int>(plan.block.x), plan.fast};
    return shapeText(s, plan.block.y > 0 ? static_cast<int>(plan.block.x / plan.block.y) : 1);
}

std::string thisBuild() { return TILESCOPE_FAST_BUILD; }

Cache Cache::open(const fs::path& file, const Key& key) {
    Cache c;
    c.m_file = file;
    c.m_key = key;
    auto text = base::readFileText(file, kMaxCacheBytes);
    if (!text) {
        if (text.error().kind != base::FileError::Kind::Missing)
            c.m_note = file.string() + " could not be read (" + text.error().problem() + "): the shapes are timed again";
        return c;
    }
    auto ignored = [&](const std::string& why) {
        c.m_choices.clear();
        c.m_note = file.string() + " " + why + ": ignored, and rewritten with this run's choices";
        return c;
    };
    Json j = Json::parse(text.value(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return ignored("is not a tuning cache (not JSON)");
    if (!j.contains("format") || j["format"] != kFormat) return ignored("is not a tuning cache of this format");
    const auto field = [&](const char* name) {
        return j.contains(name) && j[name].is_string() ? j[name].get<std::string>() : std::string("?");
    };
    if (field("gpu") != key.gpu) return ignored("was made on another GPU (" + field("gpu") + ")");
    if (field("driver") != key.driver) return ignored("was made under another driver (" + field("driver") + ")");
    if (field("build") != key.build) return ignored("was made by another build of TileScope");
    if (!j.contains("radii") || !j["radii"].is_object()) return ignored("holds no choices");
    const KernelInfo* fast = findKernel("conv2d_fast");
    for (auto& [name, e] : j["radii"].items()) {
        int radius = -1;
        try {
            std::size_t used = 0;
            radius = std::stoi(name, &used);
            if (used != name.size()) radius = -1;
        } catch (...) {
            radius = -1;
        }
        if (radius < 0 || radius > kMaxRadius || !e.is_object()) return ignored("holds a radius that is not one");
        Choice ch;
        try {
            ch.shape.block = e.at("block").get<int>();
            ch.shape.fast.staged = e.at("staged").get<bool>();
            ch.shape.fast.registers = e.at("registers").get<int>();
            ch.millis = e.at("ms").get<double>();
            ch.timed = e.at("timed").get<int>();
            ch.size = e.at("size").get<std::string>();
        } catch (...) {
            return ignored("holds a choice with a missing or wrong field");
        }
        if (!fast || !inMenu(*fast, radius, ch.shape) || !(ch.millis > 0) || ch.timed < 1)
            return ignored("holds a shape that is not on the menu");
        c.m_choices[radius] = ch;
    }
    return c;
}

std::optional<Choice> Cache::find(int radius) const {
    auto it = m_choices.find(radius);
    if (it == m_choices.end()) return std::nullopt;
    return it->second;
}

void Cache::put(int radius, const Choice& choice) { m_choices[radius] = choice; }

std::optional<std::string> Cache::save() const {
    Json j;
    j["format"] = kFormat;
    j["gpu"] = m_key.gpu;
    j["driver"] = m_key.driver;
    j["build"] = m_key.build;
    Json radii = Json::object();
    for (const auto& [r, c] : m_choices)
        radii[str(r)] = {{"block", c.shape.block}, {"staged", c.shape.fast.staged}, {"registers", c.shape.fast.registers},
                         {"ms", c.millis},        {"timed", c.timed},               {"size", c.size}};
    j["radii"] = radii;
    std::error_code ec;
    fs::create_directories(m_file.parent_path(), ec);
    if (auto failure = base::writeFileAtomic(m_file, j.dump(2) + "\n")) return failure->message();
    return std::nullopt;
}

std::optional<fs::path> userFolder() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (xdg && *xdg) return fs::path(xdg) / "tilescope";
    if (home && *home) return fs::path(home) / ".cache" / "tilescope";
    return std::nullopt;
}

std::string whyNotTimed() {
    if (const char* off = std::getenv("TILESCOPE_TUNE"); off && std::string(off) == "off")
        return "TILESCOPE_TUNE=off";
    // compute-sanitizer and Nsight Compute load themselves into the process
    // through this variable; under them a launch takes the tool's time.
    if (const char* tool = std::getenv("CUDA_INJECTION64_PATH"); tool && *tool)
        return "a CUDA tool is attached (compute-sanitizer or Nsight Compute), whose timings are its own";
    return "";
}

std::optional<std::string> whyNotWritable(const fs::path& folder) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) return folder.string() + " cannot be made (" + ec.message() + ")";
    std::string probe = (folder / ".write-probe-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return folder.string() + " cannot be written (" + std::strerror(errno) + ")";
    ::close(fd);
    fs::remove(probe, ec);
    return std::nullopt;
}

Result<Planned> planFast(const KernelInfo& kernel, const Problem& problem, const DeviceLimits& limits, Mode mode,
                         Cache* cache, const TimeFunction& time) {
    Problem modelProblem = problem;
    modelProblem.staged = modelProblem.registers = -1;
    auto model = planLaunch(kernel, modelProblem, limits, false);
    if (!model) return model.error();
    Planned out;
    out.plan = *model;
    const int r = model->radius;
    if (kernel.tiles != TileShape::ThreadPatch) {
        out.how = "";
        return out;
    }
    if (problem.block > 0) {
        out.how = "the model's shape at the block asked for";
        return out;
    }
    if (mode == Mode::Off) {
        out.how = "the model's shape (--tune off)";
        return out;
    }
    if (problem.width % 4 != 0) {
        out.how = "the model's shape: the menu's shapes need a width that is a multiple of 4";
        return out;
    }
    if (!cache) {
        out.how = "the model's shape: no cache folder to keep a choice in";
        return out;
    }
    const std::string size = str(problem.width) + "x" + str(problem.height);
    auto planShape = [&](const Shape& s) {
        Problem p = problem;
        p.block = s.block;
        p.staged = s.fast.staged ? 1 : 0;
        p.registers = s.fast.registers;
        return planLaunch(kernel, p, limits, false);
    };
    if (mode == Mode::Auto) {
        if (auto cached = cache->find(r)) {
            if (auto plan = planShape(cached->shape)) {
                out.plan = *plan;
                out.how = "tuned: the cached choice, the fastest of " + str(cached->timed) + " shapes at " +
                          cached->size + " (" + millisText(cached->millis) + ")";
                return out;
            }
        }
    }
    // A cached choice needs no timing; timing the menu needs a clean process.
    if (const std::string why = whyNotTimed(); !why.empty()) {
        out.how = "the model's shape: not timed, " + why;
        return out;
    }
    Choice best;
    std::optional<LaunchPlan> bestPlan;
    int timed = 0, wrong = 0;
    double modelMillis = 0.0;
    for (const Shape& s : menu(kernel, r)) {
        auto plan = planShape(s);
        if (!plan) continue;  // past this GPU's shared memory or threads per block
        auto t = time(*plan);
        if (!t) return t.error();
        out.timings.emplace_back(s, *t);
        if (!t->correct) {
            ++wrong;
            continue;
        }
        ++timed;
        if (plan->fast == model->fast && plan->block == model->block) modelMillis = t->millis;
        if (!bestPlan || t->millis < best.millis) {
            best.shape = s;
            best.millis = t->millis;
            bestPlan = *plan;
        }
    }
    if (wrong > 0)
        out.notes.push_back(str(wrong) + " of the menu's shapes gave a wrong result and were left out (a bug: please "
                                         "report it)");
    if (!bestPlan) {
        out.how = "the model's shape: no shape of the menu ran right";
        return out;
    }
    best.timed = timed;
    best.size = size;
    cache->put(r, best);
    out.plan = *bestPlan;
    out.how = "tuned now: the fastest of " + str(timed) + " shapes (" + millisText(best.millis) +
              (modelMillis > 0 ? ", the model's " + millisText(modelMillis) : std::string()) + ")";
    if (auto failure = cache->save())
        out.notes.push_back("the choice could not be cached: " + *failure);
    return out;
}

}  // namespace tilescope::tuning
