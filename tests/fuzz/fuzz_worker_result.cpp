// libFuzzer target: the caller's reader of what the kernel's process writes
// (own/worker_protocol.hpp readResult), which the kernel's code can forge
// byte for byte. An input is split into the job folder's three files:
//
//   bytes 0-3   u32 J, the length of result.json
//   bytes 4-7   u32 F, the length of P.f32
//   J bytes     result.json
//   F bytes     P.f32
//   the rest    events.bin
//
// (an input shorter than 8 bytes is result.json alone), read against a
// fixed job. A refusal must be one line with exit code 2 or a missing
// result; a result accepted must hold what the job asked for, and its trace
// is replayed, indexed and searched for problems as the caller would. The
// seeds in corpus/worker_result/ are the worker's own writeResult output
// (own_forged_test checks that they still are).
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_support.hpp"
#include "own/own_entry.hpp"
#include "own/worker_protocol.hpp"
#include "worker_result_job.hpp"
#include "trace/problems.hpp"
#include "trace/trace_index.hpp"

using namespace tilescope;

namespace {

using test::fixedBounds;
using test::fixedJob;

const own::OwnEntry& entry() {
    static const own::OwnEntry e([] {
        own::OwnEntryDescription d;
        d.name = "conv";
        d.path = "mine.cu";
        d.dims = 2;
        d.arrayNames = {"N", "M", "P", "N_s"};
        d.usesShared = true;
        return d;
    }());
    return e;
}

void write(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// The trace the caller builds from an accepted result (own_kernel.cpp's describeOwn, in short).
Trace traceOf(const own::WorkerResult& r, const own::WorkerJob& job) {
    Trace t;
    t.kernel = "conv";
    t.backend = r.backend;
    t.plan.kernel = KernelId::Own;
    t.plan.entry = &entry().info();
    t.plan.grid = r.grid;
    t.plan.block = r.block;
    t.plan.sharedBytes = r.sharedBytes;
    t.plan.radius = job.radius;
    t.plan.maskWidth = job.maskWidth;
    t.plan.width = job.width;
    t.plan.height = job.height;
    t.plan.pitch = job.width;
    for (int a : {int(kArrayInput), int(kArrayOutput)}) {
        t.arrays[a].width = job.width;
        t.arrays[a].height = job.height;
        t.arrays[a].pitch = job.width;
        t.arrays[a].size = job.width * job.height;
    }
    t.arrays[kArrayMask].width = t.arrays[kArrayMask].height = t.arrays[kArrayMask].pitch = job.maskWidth;
    t.arrays[kArrayMask].size = job.maskWidth * job.maskWidth;
    t.arrays[kArrayShared].space = Space::Shared;
    t.arrays[kArrayShared].size = static_cast<int>(r.sharedBytes / sizeof(float));
    t.arrays[kArrayShared].width = t.arrays[kArrayShared].pitch = 6;
    t.blocks = r.blocks;
    return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path dir = fuzz::scratchDirectory() / "job";
    std::filesystem::create_directories(dir);
    std::uint32_t jsonSize = static_cast<std::uint32_t>(size), floatsSize = 0;
    std::size_t at = 0;
    if (size >= 8) {
        std::memcpy(&jsonSize, data, 4);
        std::memcpy(&floatsSize, data + 4, 4);
        at = 8;
    }
    const std::size_t json = std::min<std::size_t>(jsonSize, size - at);
    const std::size_t floats = std::min<std::size_t>(floatsSize, size - at - json);
    write(dir / "result.json", data + at, json);
    write(dir / "P.f32", data + at + json, floats);
    write(dir / "events.bin", data + at + json + floats, size - at - json - floats);

    const own::WorkerJob job = fixedJob();
    auto r = own::readResult(dir, job, fixedBounds());
    if (!r) {
        const Error& e = r.error();
        if (e.message.find('\n') != std::string::npos) fuzz::broken("a refusal is one line", e.message);
        if (e.code == ExitCode::BadInput && e.message.rfind("mine.cu: ", 0) != 0)
            fuzz::broken("a refusal names the file", e.message);
        if (e.code != ExitCode::BadInput && e.message.rfind("no result", 0) != 0)
            fuzz::broken("a result is refused or missing", e.message);
        return 0;
    }
    for (unsigned char c : r->message)
        if ((c < 0x20 && c != '\t') || c == 0x7f) fuzz::broken("a message is printable", r->message);
    if (!r->ok || r->unavailable) return 0;
    if (r->output.size() != 48) fuzz::broken("the output is the plane asked for", std::to_string(r->output.size()));
    if (r->block.count() == 0 || r->block.count() > 1024) fuzz::broken("the block is one a launch makes", "");
    for (const BlockEvents& b : r->blocks) {
        if (b.block.x >= r->grid.x || b.block.y >= r->grid.y || b.block.z >= r->grid.z)
            fuzz::broken("a traced block is inside the grid", "");
        for (const Event& e : b.events)
            if (e.thread >= r->block.count()) fuzz::broken("an event's thread is inside the block", "");
    }
    // The caller's uses of it: the problems, the replay of every block, the words.
    const Trace trace = traceOf(*r, job);
    const ProblemSet problems = detectProblems(trace);
    for (const ProblemReport& p : problems.items) (void)problemLine(trace, p);
    const TraceModel model(trace);
    for (std::size_t b = 0; b < model.blockCount(); ++b) {
        const BlockReplay& replay = model.block(b);
        for (std::uint32_t e = 0; e < replay.events().size(); ++e) (void)replay.describe(e);
        for (Cursor c = 0; c < replay.size(); c = replay.next(c, Granularity::Step))
            for (unsigned lane = 0; lane < replay.laneCount(); ++lane) (void)replay.threadState(lane, c);
    }
    return 0;
}
