// The memory model's counters as the JSON of `stats` and `memory`
// (docs/memory-model.md names every key).
#pragma once

#include <nlohmann/json.hpp>

#include "trace/cache_model.hpp"
#include "trace/trace.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope::cli {

// global_load_requests ... constant_load_serialised, and the efficiencies.
void addMemoryJson(nlohmann::ordered_json& j, const MemoryCounters& m);
// {"blocks_per_sm", "l1_bytes", "load_sectors", "l1_hits", "l1_hit_rate", "l2_load_sectors",
//  "l2_load_hits", "store_sectors", "l2_store_hits", "l2_hit_rate", "dram_read_bytes",
//  "lines": [{"line", "array", "sectors", "l1_hits", "l2_hits", "dram_sectors"}]}
nlohmann::ordered_json cachesJson(const CacheModel& model, const Trace& trace);

}  // namespace tilescope::cli
