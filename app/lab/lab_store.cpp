#include "lab/lab_store.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>


namespace tilescope::lab {

int verdictRank(const std::string& verdict) {
    if (verdict == "clean")
        return 4;
    if (verdict == "problems")
        return 3;
    if (verdict == "compiled")
        return 2;
    return 1;
}

Result<std::vector<CheckRecord>> LabStore::picked(Pick pick) {
    auto roster = students();
    if (!roster)
        return roster.error();
    std::vector<CheckRecord> out;
    for (const LabStudent& student : *roster) {
        auto all = checks(student.id, false);
        if (!all)
            return all.error();
        const CheckRecord* chosen = nullptr;
        for (const CheckRecord& c : *all)
            if (!chosen || pick == Pick::Last || verdictRank(c.verdict) >= verdictRank(chosen->verdict))
                chosen = &c;
        if (!chosen)
            continue;
        auto full = check(chosen->id);
        if (!full)
            return full.error();
        if (*full)
            out.push_back(std::move(**full));
    }
    return out;
}

std::string rosterHash(const std::vector<RosterStudent>& roster) {
    std::string text;
    for (const RosterStudent& s : roster)
        text += s.id + "," + s.name + "\n";
    return sha256Hex(text);
}

std::string utcNowMillis() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[40];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03lldZ", buffer, ms);
    return out;
}

}  // namespace tilescope::lab
