// What the forge_* cases of tests/own/sandbox/ share: they write the
// worker's answer themselves, in its format (own/worker_protocol.hpp:
// result.json, P.f32 and events.bin in the job's folder, the worker's
// working folder), and end the process before the worker writes its own,
// as a kernel's code could. The caller must believe none of it past its
// checks.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hostile.hpp"

namespace forge {

// The 16 bytes of a trace event (trace/event.hpp).
struct Event {
    std::int32_t index = 0;
    float value = 0.0f;
    std::uint16_t thread = 0, line = 1, phase = 0;
    std::uint8_t op = 0, array = 0;
};
static_assert(sizeof(Event) == 16, "the trace's event");

struct Block {
    unsigned x = 0, y = 0, z = 0;
    std::vector<Event> events;
};

inline void write(const char* name, const void* data, std::size_t size) {
    std::FILE* f = std::fopen(name, "wb");
    if (!f) return;
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
}

// result.json's fields, as writeResult names them.
inline std::string result(bool ok, const std::string& message, const std::string& grid, const std::string& block,
                          std::size_t blocks) {
    return "{\"ok\":" + std::string(ok ? "true" : "false") + ",\"message\":\"" + message +
           "\",\"line\":0,\"kernel\":\"conv\",\"grid\":" + grid + ",\"block\":" + block +
           ",\"shared_bytes\":0,\"millis\":0.5,\"outside\":0,\"first_outside\":\"\",\"barrier_mismatches\":0,"
           "\"first_barrier\":\"\",\"blocks\":" + std::to_string(blocks) +
           ",\"backend\":\"cpu\",\"unavailable\":false,\"plain_skipped\":false}";
}

// Writes the three files (the result last, as the worker does) and ends
// the process with status 0, before the worker can write its own.
[[noreturn]] inline void answer(const std::string& json, const std::vector<float>& output,
                                const std::vector<Block>& blocks) {
    write("P.f32", output.data(), output.size() * sizeof(float));
    std::string events;
    for (const Block& b : blocks) {
        const std::uint64_t header[4] = {b.x, b.y, b.z, b.events.size()};
        events.append(reinterpret_cast<const char*>(header), sizeof header);
        events.append(reinterpret_cast<const char*>(b.events.data()), b.events.size() * sizeof(Event));
    }
    write("events.bin", events.data(), events.size());
    write("result.json", json.data(), json.size());
    _exit(0);
}

}  // namespace forge
