// The warps' memory requests (trace/warp_requests.hpp) against hand
// computations: sectors of a 16x16 block's tile load, a column halo load, a
// pitched row; shared-memory banks of patterns built to conflict or not;
// constant-memory broadcast and serialisation; and `stats --json` carrying
// the counters for the totals and each block.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "api/runner.hpp"
#include "test_support.hpp"
#include "trace/warp_requests.hpp"

namespace tilescope::test {
namespace {

// One block of 32 threads (one warp); each thread makes the accesses `index(t)` gives.
Trace syntheticTrace(Space space, ArrayId array, int pitch, const std::function<std::vector<int>(int)>& index,
                     Op op = Op::Load) {
    Trace t;
    t.kernel = "synthetic";
    t.plan.kernel = KernelId::Conv1dBasic;
    t.plan.block = Dim3{32, 1, 1};
    t.plan.grid = Dim3{1, 1, 1};
    for (int a = 0; a < kArrayCount; ++a)
        t.arrays[a] = ArrayInfo{"A" + std::to_string(a), Space::Global, 4096, 1, 1, 0, 1 << 20};
    t.arrays[array].space = space;
    t.arrays[array].pitch = pitch;
    BlockEvents b;
    b.block = Dim3{0, 0, 0};
    for (int thread = 0; thread < 32; ++thread)
        for (int i : index(thread))
            b.events.push_back(Event{i, 0.0f, static_cast<std::uint16_t>(thread), 7, 0, op, array});
    t.blocks.push_back(std::move(b));
    return t;
}

TEST(WarpRequests, AColumnLoadTouchesASectorPerLane) {
    // 32 lanes read one column of a 64-float-wide image: 32 rows, 32 sectors, 4 of 32 bytes used each.
    const Trace t = syntheticTrace(Space::Global, kArrayInput, 0, [](int lane) { return std::vector<int>{lane * 64}; });
    const std::vector<WarpRequest> r = warpRequests(t, 0);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].sectors, 32u);
    EXPECT_EQ(r[0].lines, 32u);
    const MemoryCounters c = countRequests(r);
    EXPECT_EQ(c.globalLoadRequests, 1u);
    EXPECT_EQ(c.globalLoadSectors, 32u);
    EXPECT_DOUBLE_EQ(c.globalLoadEfficiency(), 4.0 / 32.0);
}

TEST(WarpRequests, APitchedRowIsFourSectorsOneLine) {
    // Row 3 of an image pitched to 128 floats: 32 consecutive floats from a 512-byte boundary.
    const Trace t =
        syntheticTrace(Space::Global, kArrayInput, 128, [](int lane) { return std::vector<int>{3 * 128 + lane}; });
    const MemoryCounters c = countMemory(t, 0);
    EXPECT_EQ(c.globalLoadRequests, 1u);
    EXPECT_EQ(c.globalLoadSectors, 4u);
    EXPECT_DOUBLE_EQ(c.globalLoadEfficiency(), 1.0);
    // One float off the boundary: the 128 bytes straddle 5 sectors.
    const Trace off =
        syntheticTrace(Space::Global, kArrayInput, 128, [](int lane) { return std::vector<int>{3 * 128 + 1 + lane}; });
    EXPECT_EQ(countMemory(off, 0).globalLoadSectors, 5u);
}

TEST(WarpRequests, SharedBanksConflictWhenLanesShareABank) {
    auto wavefronts = [](const std::function<std::vector<int>(int)>& index) {
        const Trace t = syntheticTrace(Space::Shared, kArrayShared, 0, index);
        const MemoryCounters c = countMemory(t, 0);
        EXPECT_EQ(c.sharedLoadRequests, 1u);
        return c.sharedLoadWavefronts;
    };
    EXPECT_EQ(wavefronts([](int lane) { return std::vector<int>{lane}; }), 1u);       // one word per bank
    EXPECT_EQ(wavefronts([](int lane) { return std::vector<int>{lane * 2}; }), 2u);   // two words in each even bank
    EXPECT_EQ(wavefronts([](int lane) { return std::vector<int>{lane * 32}; }), 32u); // every word in bank 0
    EXPECT_EQ(wavefronts([](int) { return std::vector<int>{5}; }), 1u);               // one word: a broadcast
    EXPECT_EQ(wavefronts([](int lane) { return std::vector<int>{lane * 33}; }), 1u);  // padded rows: no conflict
}

TEST(WarpRequests, ConstantLoadsBroadcastOrSerialise) {
    const Trace same = syntheticTrace(Space::Constant, kArrayMask, 0, [](int) { return std::vector<int>{3}; });
    const MemoryCounters a = countMemory(same, 0);
    EXPECT_EQ(a.constantLoadRequests, 1u);
    EXPECT_EQ(a.constantLoadSerialised, 0u);
    const Trace four = syntheticTrace(Space::Constant, kArrayMask, 0, [](int lane) { return std::vector<int>{lane % 4}; });
    EXPECT_EQ(countMemory(four, 0).constantLoadSerialised, 3u);
}

TEST(WarpRequests, RepeatedAccessesOfALineAreSeparateRequests) {
    // Each lane reads 5 consecutive floats from its own start (a 1D mask's taps): 5 requests.
    const Trace t = syntheticTrace(Space::Global, kArrayInput, 0, [](int lane) {
        std::vector<int> v;
        for (int j = 0; j < 5; ++j)
            v.push_back(lane + j);
        return v;
    });
    const MemoryCounters c = countMemory(t, 0);
    EXPECT_EQ(c.globalLoadRequests, 5u);
    // Request j reads floats j..j+31: 4 sectors when j = 0, 5 otherwise.
    EXPECT_EQ(c.globalLoadSectors, 4u + 4u * 5u);
}

TEST(WarpRequests, TheTileLoadOfA16x16BlockByHand) {
    // conv2d_tiled_in, 16x16 blocks, radius 2, a 64x64 image: block (1,1)'s
    // input tile starts at column and row 1 * 12 - 2 = 10. Each warp loads
    // two tile rows of 16 floats; a row starting at byte 40 of its
    // 256-byte image row spans bytes 40..103: sectors 1, 2 and 3.
    const Image in = randomImage(64, 64, 1, 11);
    const Mask mask = randomMask(5, true, 12);
    RunRequest req = requestFor("conv2d_tiled_in", in, mask, 16, Backend::Cpu, true);
    req.traceBlocks = {Dim3{1, 1, 0}};
    auto run = runKernel(req);
    ASSERT_TRUE(run.ok()) << run.error().message;
    const Trace& trace = *run->trace;
    ASSERT_EQ(trace.blocks.size(), 1u);
    int tileLoads = 0;
    for (const WarpRequest& r : warpRequests(trace, 0)) {
        if (r.space != RequestSpace::Global || r.store || r.array != kArrayInput)
            continue;
        ++tileLoads;
        EXPECT_EQ(r.events.size(), 32u);
        std::set<int> rows;
        for (std::uint32_t e : r.events)
            rows.insert(trace.arrays[kArrayInput].coords(trace.blocks[0].events[e].index).y);
        ASSERT_EQ(rows.size(), 2u);
        int expected = 0;
        for (int row : rows) {
            const int start = (row * 64 + 10) * 4, end = start + 16 * 4;
            expected += (end - 1) / 32 - start / 32 + 1;
        }
        EXPECT_EQ(r.sectors, static_cast<std::uint32_t>(expected));
        EXPECT_EQ(expected, 6);
    }
    EXPECT_EQ(tileLoads, 8);  // 256 threads, 8 warps, one load each
    // The stores of P: only threads of rows 2..13 compute (the r = 2 rows at
    // each edge are switched off), and warp w holds rows 2w and 2w + 1:
    // warps 1 to 6 store, each two rows of 12 floats.
    const MemoryCounters m = countMemory(trace, 0);
    EXPECT_EQ(m.globalStoreRequests, 6u);
    EXPECT_EQ(m.globalStoreBytes, 6u * 2u * 12u * 4u);
}

TEST(WarpRequests, StatsJsonCarriesTheCounters) {
    const std::string out = std::string(::testing::TempDir()) + "/stats.json";
    const std::string command = std::string("'") + TILESCOPE_BINARY +
                                "' stats --kernel conv2d_tiled_in --size 64x64 --radius 2 --block 16 --backend cpu > '" +
                                out + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::FILE* f = std::fopen(out.c_str(), "r");
    ASSERT_NE(f, nullptr);
    const nlohmann::json j = nlohmann::json::parse(f);
    std::fclose(f);
    const auto& totals = j["totals"];
    for (const char* key : {"global_load_requests", "global_load_sectors", "global_store_requests",
                            "global_store_sectors", "shared_load_requests", "shared_load_wavefronts",
                            "shared_store_requests", "shared_store_wavefronts", "constant_load_requests",
                            "constant_load_serialised", "global_load_efficiency", "shared_load_efficiency"})
        EXPECT_TRUE(totals.contains(key)) << key;
    std::uint64_t sectors = 0;
    for (const auto& b : j["blocks"])
        sectors += b["global_load_sectors"].get<std::uint64_t>();
    EXPECT_EQ(sectors, totals["global_load_sectors"].get<std::uint64_t>());
    EXPECT_GE(totals["global_load_sectors"].get<std::uint64_t>(), totals["global_load_requests"].get<std::uint64_t>());
}

}  // namespace
}  // namespace tilescope::test
