#include "model/settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "io/file_checks.hpp"
#include "io/whole_file.hpp"
#include "model/setup_rules.hpp"

namespace tilescope::ui {

namespace {

using nlohmann::json;

constexpr int kSettingsVersion = 1;
constexpr std::size_t kMaxSettingsBytes = 1 << 20;

// A field of the expected type, or the default: a hand-edited file with one
// wrong field still loads the rest.
template <class T>
T field(const json& object, const char* key, T fallback) {
    if (!object.is_object())
        return fallback;
    auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if constexpr (std::is_same_v<T, bool>) {
        return it->is_boolean() ? it->template get<bool>() : fallback;
    } else if constexpr (std::is_integral_v<T>) {
        return it->is_number_integer() ? it->template get<T>() : fallback;
    } else if constexpr (std::is_floating_point_v<T>) {
        return it->is_number() ? it->template get<T>() : fallback;
    } else {
        return it->is_string() ? it->template get<T>() : fallback;
    }
}

const char* backendKey(Backend b) {
    return b == Backend::Cuda ? "cuda" : "cpu";
}

}  // namespace

std::filesystem::path defaultConfigDirectory() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "tilescope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".config" / "tilescope";
    return {};
}

std::string settingsToJson(const Settings& s) {
    // Field by field rather than as nested initializer lists: clearer to
    // read, and GCC 12 with sanitizers mis-handles nlohmann's nested lists.
    const SetupState& setup = s.setup;
    json input = json::object();
    input["source"] = std::string(inputSourceInfo(setup.input.source).key);
    input["path"] = setup.input.path;
    input["length"] = setup.input.length;
    input["width"] = setup.input.width;
    input["height"] = setup.input.height;
    input["fitFile"] = setup.input.fitFile;

    json js = json::object();
    js["kernel"] = setup.kernel;
    js["mask"] = std::string(maskPresetInfo(setup.preset).key);
    js["radius"] = setup.radius;
    js["custom"] = setup.customValues;
    js["block"] = setup.block;
    js["whatIf"] = setup.whatIf;
    js["backend"] = std::string(backendKey(setup.backend));
    js["input"] = std::move(input);
    js["droppedBarriers"] = setup.droppedBarriers;
    js["schedule"] = std::string(scheduleName(setup.schedule));

    // The panels whose visibility persists (the help overlay always starts
    // closed): the everyday ones under "panels", lecture-hall mode's under
    // "lecturePanels", whichever mode is on.
    auto panelsJson = [](const PanelVisibility& shown) {
        json panels = json::object();
        for (const PanelInfo& p : kPanelTable)
            if (p.persists)
                panels[std::string(p.key)] = shown[p.id];
        return panels;
    };
    json panels = panelsJson(s.lecture ? s.otherModePanels : s.panels);
    json lecturePanels = panelsJson(s.lecture ? s.panels : s.otherModePanels);

    json j = json::object();
    j["version"] = kSettingsVersion;
    j["lecture"] = s.lecture;
    j["panels"] = std::move(panels);
    j["lecturePanels"] = std::move(lecturePanels);
    j["setup"] = std::move(js);
    j["compare"] = s.compare;
    j["kernelFile"] = s.kernelFile;
    return j.dump(2) + "\n";
}

Result<Settings> settingsFromJson(const std::string& text) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return badInput("not a JSON object");
    Settings s;
    s.lecture = field(j, "lecture", s.lecture);
    auto readPanels = [&j](const char* name, PanelVisibility& shown) {
        if (auto it = j.find(name); it != j.end()) {
            for (const PanelInfo& p : kPanelTable)
                if (p.persists)
                    shown[p.id] = field(*it, std::string(p.key).c_str(), shown[p.id]);
        }
    };
    readPanels("panels", s.panels);
    readPanels("lecturePanels", s.otherModePanels);
    if (s.lecture)
        std::swap(s.panels, s.otherModePanels);  // the mode that is on shows its own
    // The student's kernel file: its path; "own" names it as the kernel or the one compared with.
    s.kernelFile = field<std::string>(j, "kernelFile", "");
    const bool own = !s.kernelFile.empty();
    if (const std::string compare = field<std::string>(j, "compare", "");
        findKernel(compare) || (own && ui::isOwnKernel(compare)))
        s.compare = compare;
    auto it = j.find("setup");
    if (it == j.end())
        return s;
    const json& js = *it;
    SetupState& setup = s.setup;
    if (const std::string kernel = field<std::string>(js, "kernel", "");
        findKernel(kernel) || (own && ui::isOwnKernel(kernel)))
        setup.kernel = kernel;
    if (const MaskPresetInfo* p = findMaskPreset(field<std::string>(js, "mask", "")))
        setup.preset = p->id;
    setup.radius = std::clamp(field(js, "radius", setup.radius), 0, kMaxRadius);
    if (auto c = js.find("custom"); c != js.end() && c->is_array() && c->size() <= 15 * 15) {
        for (const json& v : *c)
            if (v.is_number())
                setup.customValues.push_back(v.get<float>());
    }
    setup.block = std::clamp(field(js, "block", setup.block), 1, kMaxWhatIfThreads);
    setup.whatIf = field(js, "whatIf", setup.whatIf);
    setup.backend = field<std::string>(js, "backend", "cpu") == "cuda" ? Backend::Cuda : Backend::Cpu;
    if (auto in = js.find("input"); in != js.end()) {
        if (const InputSourceInfo* src = findInputSource(field<std::string>(*in, "source", "")))
            setup.input.source = src->id;
        setup.input.path = field(*in, "path", setup.input.path);
        setup.input.length = std::clamp(field(*in, "length", setup.input.length), 1, kMaxInputLength);
        setup.input.width = std::clamp(field(*in, "width", setup.input.width), 1, kMaxInputEdge);
        setup.input.height = std::clamp(field(*in, "height", setup.input.height), 1, kMaxInputEdge);
        setup.input.fitFile = field(*in, "fitFile", setup.input.fitFile);
    }
    // Barriers of the kernel's own lines only (a file of an older kernel may name others).
    if (auto d = js.find("droppedBarriers"); d != js.end() && d->is_array()) {
        // A kernel file's lines are known once it has compiled (barrierDropOf keeps those that hold a barrier).
        const KernelInfo* kernel = findKernel(setup.kernel);
        const std::vector<unsigned> lines = kernel ? barrierLines(*kernel) : std::vector<unsigned>{};
        for (const json& v : *d)
            if (v.is_number_unsigned() &&
                (kernel ? std::find(lines.begin(), lines.end(), v.get<unsigned>()) != lines.end()
                        : v.get<unsigned>() <= kMaxBarrierLine) &&
                std::find(setup.droppedBarriers.begin(), setup.droppedBarriers.end(), v.get<unsigned>()) ==
                    setup.droppedBarriers.end())
                setup.droppedBarriers.push_back(v.get<unsigned>());
    }
    if (!scheduleFromName(field<std::string>(js, "schedule", ""), setup.schedule))
        setup.schedule = setup.droppedBarriers.empty() ? Schedule::InOrder : Schedule::Reverse;
    return s;
}

Result<Settings> loadSettings(const std::filesystem::path& file) {
    auto text = io::readFileText(file, kMaxSettingsBytes);
    if (!text)
        return text.error();
    auto settings = settingsFromJson(*text);
    if (!settings)
        return io::fileError(file, settings.error().message);
    return settings;
}

Status saveSettings(const std::filesystem::path& file, const Settings& settings) {
    std::error_code error;
    std::filesystem::create_directories(file.parent_path(), error);
    if (error)
        return io::fileError(file.parent_path(), "cannot create the folder: " + error.message());
    const std::string text = settingsToJson(settings);
    return io::writeFileAtomic(file, text);
}

}  // namespace tilescope::ui
