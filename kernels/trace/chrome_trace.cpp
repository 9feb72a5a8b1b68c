#include "trace/chrome_trace.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tilescope {

std::string chromeTraceJson(const Trace& trace) {
    nlohmann::json events = nlohmann::json::array();
    std::uint64_t origin = 0;
    unsigned maxSm = 0;
    for (const BlockHardware& h : trace.hardware) {
        if (h.startNs == 0) continue;
        origin = origin == 0 ? h.startNs : std::min(origin, h.startNs);
        maxSm = std::max(maxSm, h.sm);
    }
    const bool twoD = trace.dims() == 2;
    for (const BlockHardware& h : trace.hardware) {
        if (h.startNs == 0) continue;
        std::string name = "block (" + std::to_string(h.block.x) + (twoD ? "," + std::to_string(h.block.y) : "") + ")";
        nlohmann::json warps = h.warpIds;
        events.push_back({{"name", name},
                          {"cat", trace.kernel},
                          {"ph", "X"},
                          {"pid", 0},
                          {"tid", h.sm},
                          // Chrome traces count microseconds; keep the nanoseconds as fractions.
                          {"ts", static_cast<double>(h.startNs - origin) / 1000.0},
                          {"dur", static_cast<double>(std::max<std::uint64_t>(h.endNs - h.startNs, 1)) / 1000.0},
                          {"args", {{"sm", h.sm}, {"warp_slots", warps}}}});
    }
    for (unsigned sm = 0; sm <= maxSm && !trace.hardware.empty(); ++sm)
        events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", sm},
                          {"args", {{"name", "SM " + std::to_string(sm)}}}});
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0},
                      {"args", {{"name", trace.kernel + " on " + trace.backend}}}});
    nlohmann::json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
    return doc.dump(1);
}

}  // namespace tilescope
