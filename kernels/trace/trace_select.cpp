// Block lists: see trace_select.hpp.
#include "trace/trace_select.hpp"

#include <charconv>
#include <string>

#include "core/kernel_catalogue.hpp"
#include "trace/classify.hpp"

namespace tilescope {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool parseUnsigned(std::string_view s, unsigned& v) {
    s = trim(s);
    if (s.empty())
        return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<std::vector<Dim3>> parseTraceBlocks(std::string_view spec, const LaunchPlan& plan) {
    std::vector<Dim3> blocks;
    spec = trim(spec);
    if (spec.empty() || spec == "all")
        return blocks;
    const bool twoD = kernelOf(plan).dims == 2;
    const std::string grid =
        twoD ? std::to_string(plan.grid.x) + "x" + std::to_string(plan.grid.y) : std::to_string(plan.grid.x);
    if (spec == "interior") {
        for (unsigned y = 0; y < plan.grid.y; ++y)
            for (unsigned x = 0; x < plan.grid.x; ++x)
                if (blockGeometry(plan, Dim3{x, y, 0}).interior)
                    blocks.push_back(Dim3{x, y, 0});
        if (blocks.empty())
            return badInput("the grid of " + grid +
                            " blocks has no interior block (every input tile holds ghost cells); use a larger input");
        return blocks;
    }
    std::size_t at = 0;
    while (at <= spec.size()) {
        std::size_t end = spec.find(';', at);
        if (end == std::string_view::npos)
            end = spec.size();
        const std::string_view item = trim(spec.substr(at, end - at));
        at = end + 1;
        if (item.empty())
            continue;
        Dim3 b{0, 0, 0};  // the executors number blocks from z = 0, like blockIdx
        const std::size_t comma = item.find(',');
        bool ok = comma == std::string_view::npos
                      ? parseUnsigned(item, b.x)
                      : parseUnsigned(item.substr(0, comma), b.x) && parseUnsigned(item.substr(comma + 1), b.y);
        if (!ok)
            return badInput("--trace-blocks: '" + std::string(item) + "' is not a block (" + (twoD ? "bx,by" : "bx") +
                            "); separate blocks with ';', or say all or interior");
        if (b.x >= plan.grid.x || b.y >= plan.grid.y)
            return badInput("--trace-blocks: block " + std::string(item) + " is outside the grid of " + grid +
                            " blocks");
        bool seen = false;
        for (const Dim3& o : blocks)
            seen = seen || o == b;
        if (!seen)
            blocks.push_back(b);
    }
    if (blocks.empty())
        return badInput("--trace-blocks: no block given");
    return blocks;
}

}  // namespace tilescope
