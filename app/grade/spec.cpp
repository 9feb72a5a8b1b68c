#include "grade/spec.hpp"

#include <toml++/toml.h>

#include <cstdio>
#include <functional>
#include <random>
#include <set>

#include "core/kernel_info.hpp"
#include "io/mask_file.hpp"
#include "io/whole_file.hpp"

namespace tilescope::grade {

namespace fs = std::filesystem;

namespace {

// Inputs the spec may generate: large enough for any teaching case, small
// enough that a traced run of it takes seconds.
constexpr long long kMaxElements = 1LL << 20;

struct Reader {
    std::string file;  // as the messages name it

    Error at(const toml::node& node, const std::string& reason) const { return at(node.source(), reason); }
    Error at(const toml::source_region& where, const std::string& reason) const {
        return badInput(file + ":" + std::to_string(where.begin.line) + ": " + reason);
    }

    // Refuses keys other than `allowed` (a misspelt key would be ignored silently).
    Status onlyKeys(const toml::table& table, const std::set<std::string>& allowed, const std::string& where) const {
        for (const auto& [key, node] : table) {
            if (allowed.count(std::string(key.str())) == 0) {
                std::string list;
                for (const std::string& a : allowed)
                    list += (list.empty() ? "" : ", ") + a;
                return at(key.source().begin.line > 0 ? key.source() : node.source(),
                          "unknown key '" + std::string(key.str()) + "' in " + where + " (known: " + list + ")");
            }
        }
        return success();
    }

    template <class T>
    Status get(const toml::table& table, const char* key, const char* type, T& out) const {
        const toml::node* node = table.get(key);
        if (!node)
            return success();
        if constexpr (std::is_same_v<T, bool>) {
            if (!node->is_boolean())
                return at(*node, std::string("'") + key + "' must be " + type);
            out = node->as_boolean()->get();
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!node->is_string())
                return at(*node, std::string("'") + key + "' must be " + type);
            out = node->as_string()->get();
        } else if constexpr (std::is_same_v<T, double>) {
            if (node->is_integer())
                out = static_cast<double>(node->as_integer()->get());
            else if (node->is_floating_point())
                out = node->as_floating_point()->get();
            else
                return at(*node, std::string("'") + key + "' must be " + type);
        } else {
            if (!node->is_integer())
                return at(*node, std::string("'") + key + "' must be " + type);
            const long long v = node->as_integer()->get();
            if (v < -(1LL << 30) || v > (1LL << 30))
                return at(*node, std::string("'") + key + "' is out of range");
            out = static_cast<T>(v);
        }
        return success();
    }

    Status require(const toml::table& table, Require& r, bool allowMissing) const {
        (void)allowMissing;
        if (Status s = get(table, "no_races", "true or false", r.noRaces); !s)
            return s;
        if (Status s = get(table, "no_out_of_bounds", "true or false", r.noOutOfBounds); !s)
            return s;
        if (Status s = get(table, "no_uninitialised_reads", "true or false", r.noUninitialisedReads); !s)
            return s;
        if (Status s = get(table, "tiled", "true or false", r.tiled); !s)
            return s;
        if (const toml::node* n = table.get("max_time_ratio")) {
            double v = 0;
            if (Status s = get(table, "max_time_ratio", "a number", v); !s)
                return s;
            if (!(v > 0))
                return at(*n, "'max_time_ratio' must be a positive number");
            r.maxTimeRatio = v;
        }
        return success();
    }
};

const std::set<std::string> kRequireKeys{"no_races", "no_out_of_bounds", "no_uninitialised_reads", "tiled",
                                         "max_time_ratio"};

unsigned seedOf(const std::string& name) {
    // FNV-1a: the same name gives the same inputs on every machine.
    std::uint32_t h = 2166136261u;
    for (unsigned char c : name)
        h = (h ^ c) * 16777619u;
    return h;
}

}  // namespace

std::string defaultCaseName(const std::string& size, int radius) {
    return size + ", radius " + std::to_string(radius);
}

Result<Spec> readSpec(const fs::path& path) {
    Reader r{path.string()};
    std::error_code ec;
    if (!fs::exists(path, ec))
        return badInput(path.string() + ": no such spec file");
    if (fs::is_directory(path, ec))
        return badInput(path.string() + ": is a folder; --spec takes a TOML file");
    auto text = io::readFileText(path, 1 << 20);
    if (!text)
        return text.error();
    toml::table root;
    try {
        root = toml::parse(std::string_view(*text), path.string());
    } catch (const toml::parse_error& e) {
        return badInput(path.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                        std::string(e.description()));
    }
    Spec spec;
    spec.path = path;
    if (Status s = r.onlyKeys(root, {"assignment", "case", "require"}, "the spec"); !s)
        return s.error();

    const toml::table* assignment = root["assignment"].as_table();
    if (!assignment) {
        if (root.get("assignment"))
            return r.at(*root.get("assignment"), "[assignment] must be a table");
        return badInput(path.string() + ":1: no [assignment] table (name and dims)");
    }
    if (Status s = r.onlyKeys(*assignment, {"name", "dims", "seed", "time_limit"}, "[assignment]"); !s)
        return s.error();
    if (!assignment->get("name"))
        return r.at(*assignment, "[assignment] has no name");
    if (Status s = r.get(*assignment, "name", "a string", spec.name); !s)
        return s.error();
    if (spec.name.empty())
        return r.at(*assignment->get("name"), "'name' is empty");
    if (!assignment->get("dims"))
        return r.at(*assignment, "[assignment] has no dims (1 or 2)");
    if (Status s = r.get(*assignment, "dims", "1 or 2", spec.dims); !s)
        return s.error();
    if (spec.dims != 1 && spec.dims != 2)
        return r.at(*assignment->get("dims"), "'dims' must be 1 or 2");
    spec.seed = seedOf(spec.name);
    if (const toml::node* n = assignment->get("seed")) {
        long long seed = 0;
        if (Status s = r.get(*assignment, "seed", "a whole number", seed); !s)
            return s.error();
        if (seed < 0)
            return r.at(*n, "'seed' must not be negative");
        spec.seed = static_cast<unsigned>(seed);
    }
    if (const toml::node* n = assignment->get("time_limit")) {
        if (Status s = r.get(*assignment, "time_limit", "a number of seconds", spec.timeLimitSeconds); !s)
            return s.error();
        if (!(spec.timeLimitSeconds > 0) || spec.timeLimitSeconds > 600)
            return r.at(*n, "'time_limit' must be between 0 and 600 seconds");
    }

    Require defaults;
    if (const toml::node* n = root.get("require")) {
        const toml::table* t = n->as_table();
        if (!t)
            return r.at(*n, "[require] must be a table");
        if (Status s = r.onlyKeys(*t, kRequireKeys, "[require]"); !s)
            return s.error();
        if (Status s = r.require(*t, defaults, true); !s)
            return s.error();
    }

    const toml::node* casesNode = root.get("case");
    if (!casesNode)
        return badInput(path.string() + ":1: no [[case]]: give at least one");
    const toml::array* cases = casesNode->as_array();
    if (!cases || cases->empty())
        return r.at(*casesNode, "'case' must be one or more [[case]] tables");
    std::mt19937 random(spec.seed);
    std::set<std::string> names;
    for (const toml::node& node : *cases) {
        const toml::table* t = node.as_table();
        if (!t)
            return r.at(node, "each case must be a [[case]] table");
        std::set<std::string> keys{"size", "radius", "points", "mask", "block", "name"};
        keys.insert(kRequireKeys.begin(), kRequireKeys.end());
        if (Status s = r.onlyKeys(*t, keys, "[[case]]"); !s)
            return s.error();
        Case c;
        c.line = node.source().begin.line;
        c.require = defaults;
        if (Status s = r.require(*t, c.require, false); !s)
            return s.error();
        if (!t->get("size"))
            return r.at(node, "the case has no size (\"N\" for 1D, \"WxH\" for 2D)");
        if (!t->get("radius"))
            return r.at(node, "the case has no radius");
        if (Status s = r.get(*t, "size", "a string such as \"200\" or \"45x37\"", c.size); !s)
            return s.error();
        if (Status s = r.get(*t, "radius", "a whole number", c.radius); !s)
            return s.error();
        if (Status s = r.get(*t, "points", "a whole number", c.points); !s)
            return s.error();
        if (Status s = r.get(*t, "block", "a whole number", c.block); !s)
            return s.error();
        if (Status s = r.get(*t, "mask", "a file name", c.maskFile); !s)
            return s.error();
        if (Status s = r.get(*t, "name", "a string", c.name); !s)
            return s.error();
        const toml::node& sizeNode = *t->get("size");
        int w = 0, h = 0;
        char x = 0, extra = 0;
        const int fields = std::sscanf(c.size.c_str(), "%d%c%d%c", &w, &x, &h, &extra);
        if (spec.dims == 1) {
            if (fields != 1 || w <= 0 || c.size.find_first_not_of("0123456789") != std::string::npos)
                return r.at(sizeNode, "size '" + c.size +
                                          "' does not fit dims = 1: give a number of elements, "
                                          "such as \"200\"");
            h = 1;
        } else if (fields != 3 || (x != 'x' && x != 'X') || w <= 0 || h <= 0 ||
                   c.size.find_first_not_of("0123456789xX") != std::string::npos) {
            return r.at(sizeNode, "size '" + c.size + "' does not fit dims = 2: give WxH, such as \"45x37\"");
        }
        if (static_cast<long long>(w) * h > kMaxElements)
            return r.at(sizeNode, "size '" + c.size + "' is too large to trace (at most " +
                                      std::to_string(kMaxElements) + " elements)");
        c.width = w;
        c.height = h;
        if (c.radius < 0 || c.radius > kMaxRadius)
            return r.at(*t->get("radius"), "radius " + std::to_string(c.radius) +
                                               " cannot run: TileScope's masks "
                                               "have a radius from 0 to " +
                                               std::to_string(kMaxRadius));
        if (c.points < 0)
            return r.at(*t->get("points"), "'points' must not be negative");
        if (c.block < 0 || c.block > 1024)
            return r.at(*t->get("block"), "block " + std::to_string(c.block) + " cannot run: from 1 to 1024");
        if (c.name.empty())
            c.name = defaultCaseName(c.size, c.radius);
        if (!names.insert(c.name).second)
            return r.at(node, "two cases are named '" + c.name + "'");
        // The input, generated from the spec's seed: the same for every student.
        std::uniform_real_distribution<float> value(0.0f, 1.0f);
        c.input = spec.dims == 1 ? Image::signal(std::vector<float>(static_cast<std::size_t>(w))) : Image::planar(w, h);
        for (float& v : c.input.data)
            v = value(random);
        const int mw = 2 * c.radius + 1;
        if (!c.maskFile.empty()) {
            const fs::path file = path.parent_path() / c.maskFile;
            auto mask = io::readMask(file);
            if (!mask)
                return r.at(*t->get("mask"), "mask '" + c.maskFile + "': " + mask.error().message);
            const bool fits =
                spec.dims == 1 ? mask->height == 1 && mask->width == mw : mask->height == mw && mask->width == mw;
            if (!fits)
                return r.at(*t->get("mask"), "mask '" + c.maskFile + "' is " + std::to_string(mask->width) + "x" +
                                                 std::to_string(mask->height) + "; radius " + std::to_string(c.radius) +
                                                 " in " + std::to_string(spec.dims) + "D needs " + std::to_string(mw) +
                                                 (spec.dims == 1 ? " wide, one row" : "x" + std::to_string(mw)));
            c.mask = std::move(*mask);
            c.maskText = c.maskFile + ", " + std::to_string(c.mask.width) +
                         (c.mask.height > 1 ? "x" + std::to_string(c.mask.height) : " wide");
        } else {
            // Random weights: no flip or transpose of the mask is equal to it.
            const int n = spec.dims == 1 ? mw : mw * mw;
            std::vector<float> weights(static_cast<std::size_t>(n));
            double sum = 0;
            for (float& v : weights)
                sum += (v = 0.25f + value(random));
            for (float& v : weights)
                v = static_cast<float>(v / sum);
            c.mask = spec.dims == 1 ? Mask::row(weights) : Mask::square(mw, weights);
            c.maskText =
                "generated " +
                (spec.dims == 1 ? std::to_string(mw) + " wide" : std::to_string(mw) + "x" + std::to_string(mw)) +
                ", random weights from the spec's seed";
        }
        spec.cases.push_back(std::move(c));
    }
    return spec;
}

}  // namespace tilescope::grade
