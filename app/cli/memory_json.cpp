#include "cli/memory_json.hpp"

namespace tilescope::cli {

void addMemoryJson(nlohmann::ordered_json& j, const MemoryCounters& m) {
    j["global_load_requests"] = m.globalLoadRequests;
    j["global_load_sectors"] = m.globalLoadSectors;
    j["global_store_requests"] = m.globalStoreRequests;
    j["global_store_sectors"] = m.globalStoreSectors;
    j["shared_load_requests"] = m.sharedLoadRequests;
    j["shared_load_wavefronts"] = m.sharedLoadWavefronts;
    j["shared_store_requests"] = m.sharedStoreRequests;
    j["shared_store_wavefronts"] = m.sharedStoreWavefronts;
    j["constant_load_requests"] = m.constantLoadRequests;
    j["constant_load_serialised"] = m.constantLoadSerialised;
    j["global_load_efficiency"] = m.globalLoadEfficiency();
    j["global_store_efficiency"] = m.globalStoreEfficiency();
    j["shared_load_efficiency"] = m.sharedLoadEfficiency();
    j["shared_store_efficiency"] = m.sharedStoreEfficiency();
}

nlohmann::ordered_json cachesJson(const CacheModel& model, const Trace& trace) {
    const CacheCounters& c = model.counters();
    nlohmann::ordered_json j;
    j["blocks_per_sm"] = model.blocksPerSm();
    j["l1_bytes"] = model.l1Bytes();
    j["load_sectors"] = c.loadSectors;
    j["l1_hits"] = c.l1Hits;
    j["l1_hit_rate"] = c.l1HitRate();
    j["l2_load_sectors"] = c.l2LoadSectors;
    j["l2_load_hits"] = c.l2LoadHits;
    j["store_sectors"] = c.storeSectors;
    j["l2_store_hits"] = c.l2StoreHits;
    j["l2_hit_rate"] = c.l2HitRate();
    j["dram_read_bytes"] = c.dramReadBytes;
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    for (const CacheLineCounts& l : c.lines) {
        nlohmann::ordered_json line;
        line["line"] = l.line;
        line["array"] = l.array < kArrayCount ? trace.arrays[l.array].name : std::string("?");
        line["sectors"] = l.sectors;
        line["l1_hits"] = l.l1Hits;
        line["l2_hits"] = l.l2Hits;
        line["dram_sectors"] = l.dramSectors;
        lines.push_back(std::move(line));
    }
    j["lines"] = std::move(lines);
    return j;
}

}  // namespace tilescope::cli
