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
#include "trace/cache_model.hpp"
#include "trace/sources.hpp"
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

// The traced run of one block of `kernel` (16x16 threads unless 1D) on a size x size image.
Trace traceOneBlock(const char* kernel, int size, int maskWidth, Dim3 block) {
    const Image in = randomImage(size, size, 1, 21);
    const Mask mask = randomMask(maskWidth, true, 22);
    RunRequest req = requestFor(kernel, in, mask, 16, Backend::Cpu, true);
    req.traceBlocks = {block};
    auto run = runKernel(req);
    EXPECT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(run->trace->blocks.size(), 1u);
    return std::move(*run->trace);
}

TEST(WarpRequests, GhostTapsLeaveTheOtherLanesInStep) {
    // conv2d_basic's corner block (0,0), radius 2, 16x16 threads: lanes on
    // the image's edge skip their ghost taps. The GPU still issues tap
    // (fRow, fCol) once for the lanes of a warp that read inside the image;
    // the sectors of that request are those lanes' addresses. By hand, tap by tap:
    const int r = 2, width = 64;
    const Trace t = traceOneBlock("conv2d_basic", width, 2 * r + 1, Dim3{0, 0, 0});
    std::uint64_t requests = 0, sectors = 0;
    for (int warp = 0; warp < 8; ++warp)
        for (int fRow = 0; fRow <= 2 * r; ++fRow)
            for (int fCol = 0; fCol <= 2 * r; ++fCol) {
                std::set<int> touched;
                for (int lane = 0; lane < 32; ++lane) {
                    const int tx = lane % 16, ty = warp * 2 + lane / 16;
                    const int inRow = ty - r + fRow, inCol = tx - r + fCol;
                    if (inRow >= 0 && inCol >= 0) touched.insert((inRow * width + inCol) * 4 / 32);
                }
                if (!touched.empty()) ++requests, sectors += touched.size();
            }
    const MemoryCounters m = countMemory(t, 0);
    // N's taps and, in global memory too, M's: one request each per tap; M's
    // element is the same for every lane (one sector).
    EXPECT_EQ(m.globalLoadRequests, 2 * requests);
    EXPECT_EQ(m.globalLoadSectors, sectors + requests);
}

TEST(WarpRequests, TileAndHaloBranchesOfOneTapAreOneStepOfTheWarp) {
    // conv2d_tiled_cached, interior block, r = 4: at tap (fRow, fCol) a lane
    // reads N_s when its neighbour is in the tile and N when it is in the
    // halo. The warp issues one shared load for the lanes of the first kind
    // and one global load for the others: by hand, per warp and tap.
    const int r = 4, width = 64;
    const Trace t = traceOneBlock("conv2d_tiled_cached", width, 2 * r + 1, Dim3{1, 1, 0});
    std::uint64_t shared = 0, halo = 0, haloSectors = 0;
    for (int warp = 0; warp < 8; ++warp)
        for (int fRow = 0; fRow <= 2 * r; ++fRow)
            for (int fCol = 0; fCol <= 2 * r; ++fCol) {
                bool anyTile = false;
                std::set<int> sectorsOfHalo;
                for (int lane = 0; lane < 32; ++lane) {
                    const int tx = lane % 16, ty = warp * 2 + lane / 16;
                    const int tileRow = ty - r + fRow, tileCol = tx - r + fCol;
                    if (tileRow >= 0 && tileRow < 16 && tileCol >= 0 && tileCol < 16)
                        anyTile = true;
                    else
                        sectorsOfHalo.insert(((16 + tileRow) * width + 16 + tileCol) * 4 / 32);
                }
                shared += anyTile;
                if (!sectorsOfHalo.empty()) ++halo, haloSectors += sectorsOfHalo.size();
            }
    EXPECT_EQ(shared, 576u);  // 81 taps x 8 warps, less the taps whose rows lie above or below the tile
    const MemoryCounters m = countMemory(t, 0);
    EXPECT_EQ(m.sharedLoadRequests, shared);
    EXPECT_EQ(m.sharedLoadWavefronts, shared);  // two rows of 16 words: 32 banks, no conflict
    EXPECT_EQ(m.globalLoadRequests, halo + 8);  // the halo taps, and each warp's load of its own tile cells
    EXPECT_EQ(m.globalLoadSectors, haloSectors + 8 * 4);
}

TEST(WarpRequests, TheTileLoadingPassesOfConv2dTiledOutByHand) {
    // conv2d_tiled_out, 16x16 threads, a 64x64 image: the input tile is
    // 16 + 2r wide, so the threads copy it in passes of two nested loops
    // (sRow = ty, ty + 16; sCol = tx, tx + 16). Lanes run different numbers
    // of passes, and at the image's edge some store a ghost zero instead of
    // loading; the warp still issues pass (i, j)'s load once, for the lanes
    // that load in that pass. By hand, per warp and pass, for a corner block
    // and an interior block:
    for (const int r : {1, 4}) {
        for (const Dim3 block : {Dim3{0, 0, 0}, Dim3{1, 1, 0}}) {
            const int width = 64, in = 16 + 2 * r;
            const Trace t = traceOneBlock("conv2d_tiled_out", width, 2 * r + 1, block);
            std::uint64_t requests = 0, sectors = 0;
            for (int warp = 0; warp < 8; ++warp)
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j) {
                        std::set<int> touched;
                        for (int lane = 0; lane < 32; ++lane) {
                            const int sRow = warp * 2 + lane / 16 + 16 * i, sCol = lane % 16 + 16 * j;
                            const int inRow = static_cast<int>(block.y) * 16 + sRow - r;
                            const int inCol = static_cast<int>(block.x) * 16 + sCol - r;
                            if (sRow < in && sCol < in && inRow >= 0 && inRow < width && inCol >= 0 && inCol < width)
                                touched.insert((inRow * width + inCol) * 4 / 32);
                        }
                        if (!touched.empty()) ++requests, sectors += touched.size();
                    }
            const MemoryCounters m = countMemory(t, 0);
            EXPECT_EQ(m.globalLoadRequests, requests) << "r = " << r << ", block " << block.x << "," << block.y;
            EXPECT_EQ(m.globalLoadSectors, sectors) << "r = " << r << ", block " << block.x << "," << block.y;
            if (r == 1 && block.x == 1) {
                // Written out: 8 warps x (pass (0,0): two rows of 16 floats from column 15, 6 sectors;
                // (0,1): columns 31 and 32 of two rows, 4 sectors) + warp 0's rows 16 and 17 again.
                EXPECT_EQ(requests, 18u);
                EXPECT_EQ(sectors, 90u);
            }
        }
    }
}

TEST(WarpRequests, Float4AccessesAreOneRequestOf16BytesPerLane) {
    // conv2d_fast, radius 1, an interior block of 16x16 threads, each
    // thread a 4x4 patch: a warp (two rows of 16 threads) reads, for each of
    // the 6 input rows of its patches, three float4s per lane. The lanes of
    // a thread row read 64 floats in a row starting 4 floats before the
    // block's first column (k = 0), at it (k = 1), 4 floats after (k = 2).
    const Trace t = traceOneBlock("conv2d_fast", 256, 3, Dim3{1, 1, 0});
    const std::vector<WarpRequest> all = warpRequests(t, 0);
    std::uint64_t loads = 0, sectors = 0;
    for (const WarpRequest& r : all) {
        if (r.space != RequestSpace::Global || r.store) continue;
        ++loads;
        EXPECT_EQ(r.laneBytes, 16);
        EXPECT_EQ(r.events.size(), 32u * 4u);
        sectors += r.sectors;
    }
    EXPECT_EQ(loads, 8u * 6u * 3u);
    // Per thread row and input row: k = 1 is 256 aligned bytes (8 sectors),
    // k = 0 and k = 2 start 16 bytes off a sector (9 sectors); two thread rows per request.
    EXPECT_EQ(sectors, 8u * 6u * 2u * (9u + 8u + 9u));
    const MemoryCounters m = countMemory(t, 0);
    EXPECT_EQ(m.globalStoreRequests, 8u * 4u);  // four store4s per thread
    EXPECT_EQ(m.globalStoreSectors, 8u * 4u * 2u * 8u);
}

TEST(WarpRequests, StagedCopiesAreOneRequestOf16BytesPerLane) {
    // conv2d_fast at 9x9 (radius 4) stages its input: an interior block of
    // 16 x 8 threads (block (1,1) of a 256x256 image, output tile 64x64 from
    // (64, 64)) copies two band tiles of 40 rows x 18 float4s. Thread (tx, ty)
    // copies the float4 above its patch's first column in tile rows ty,
    // ty + 8, ... (5 trips a band): a warp (two rows of 16 threads) copies
    // 2 x 256 aligned bytes a trip, 16 sectors, one request of 16 bytes a
    // lane on the H100 and in the model. The 80 halo float4s of a band go to
    // threads 0-79 from another line; the model places those by their offset
    // from each lane's first store (docs/memory-model.md), which differs from
    // lane to lane there, so only their bytes are held to the hardware's.
    const Trace t = traceOneBlock("conv2d_fast", 256, 9, Dim3{1, 1, 0});
    ASSERT_EQ(t.plan.block.x, 16u);
    ASSERT_EQ(t.plan.block.y, 8u);
    std::vector<std::uint16_t> copyLines;  // the main loop's copyAsync4, then the halo loop's
    {
        const std::string_view text = kernelSource(kernelInfo(KernelId::Conv2dFast));
        std::uint16_t line = 1;
        for (std::size_t b = 0; b < text.size(); ++line) {
            std::size_t e = text.find('\n', b);
            if (e == std::string_view::npos) e = text.size();
            const std::string_view code = text.substr(b, e - b).substr(0, text.substr(b, e - b).find("//"));
            if (code.find("copyAsync4(") != std::string_view::npos) copyLines.push_back(line);
            b = e + 1;
        }
    }
    ASSERT_EQ(copyLines.size(), 2u);
    std::uint64_t mainLoads = 0, mainSectors = 0, haloFloats = 0, sharedLoads = 0, mainStores = 0;
    for (const WarpRequest& r : warpRequests(t, 0)) {
        if (r.space == RequestSpace::Global && !r.store) {
            EXPECT_EQ(r.laneBytes, 16);
            if (r.line == copyLines[0]) {
                ++mainLoads;
                mainSectors += r.sectors;
            } else {
                EXPECT_EQ(r.line, copyLines[1]);
                haloFloats += r.events.size();
            }
        } else if (r.space == RequestSpace::Shared) {
            EXPECT_EQ(r.laneBytes, 16);
            // 16 bytes a lane: a quarter-warp a wavefront, and these are conflict-free (8 lanes, 128 bytes
            // in a row): 4 wavefronts for a whole warp.
            if (r.store && r.line == copyLines[0]) {
                ++mainStores;
                EXPECT_EQ(r.wavefronts, 4u);
            }
            if (!r.store) {
                ++sharedLoads;
                EXPECT_EQ(r.wavefronts, 4u);
            }
        }
    }
    EXPECT_EQ(mainLoads, 2u * 4u * 5u);
    EXPECT_EQ(mainSectors, 2u * 4u * 5u * 16u);
    EXPECT_EQ(mainStores, mainLoads);  // each copy's store: the same 16 bytes a lane, into the tile
    EXPECT_EQ(haloFloats, 2u * 80u * 4u);
    // Each warp reads 3 float4s of each of its patch's 12 input rows, once per band.
    EXPECT_EQ(sharedLoads, 2u * 4u * 12u * 3u);
    const MemoryCounters m = countMemory(t, 0);
    EXPECT_EQ(m.globalStoreRequests, 2u * 4u * 4u);  // four store4s per thread and band
}

// A launch of `blocks` one-warp blocks; lane 0 of block b reads (or writes) the sectors `reads(b)`, one request each.
Trace cacheTrace(int blocks, const std::function<std::vector<int>(int)>& reads, Op op = Op::Load) {
    Trace t;
    t.kernel = "synthetic";
    t.plan.kernel = KernelId::Conv1dBasic;
    t.plan.block = Dim3{32, 1, 1};
    t.plan.grid = Dim3{static_cast<unsigned>(blocks), 1, 1};
    for (int a = 0; a < kArrayCount; ++a)
        t.arrays[a] = ArrayInfo{"A" + std::to_string(a), Space::Global, 1 << 20, 1, 1, 0, 1 << 20};
    for (int b = 0; b < blocks; ++b) {
        BlockEvents block;
        block.block = Dim3{static_cast<unsigned>(b), 0, 0};
        std::uint16_t line = 1;
        for (int sector : reads(b))  // lane 0 reads the sector's first float, one request per line
            block.events.push_back(Event{sector * 8, 0.0f, 0, line++, 0, op, kArrayInput});
        t.blocks.push_back(std::move(block));
    }
    return t;
}

TEST(CacheModel, ASectorReadTwiceOnOneSmHitsL1OnTwoSmsL2) {
    CacheConfig config;
    config.blocksPerSm = 1;
    config.sms = 2;
    // Blocks 0 and 2 run on SM 0 (waves of two), block 1 on SM 1: each reads sector 5.
    const CacheCounters c = modelCaches(cacheTrace(3, [](int) { return std::vector<int>{5}; }), config);
    EXPECT_EQ(c.loadSectors, 3u);
    EXPECT_EQ(c.l1Hits, 1u);        // block 2 finds block 0's sector in SM 0's L1
    EXPECT_EQ(c.l2LoadSectors, 2u);
    EXPECT_EQ(c.l2LoadHits, 1u);    // block 1, on SM 1, finds it in L2
    EXPECT_EQ(c.dramReadBytes, 32u);
    EXPECT_DOUBLE_EQ(c.l2HitRate(), 0.5);
}

TEST(CacheModel, RowsOfAPowerOfTwoImageShareL1LikeAnyOtherLines) {
    // One block reads the first three lines of 100 rows of a 1024-float
    // image (rows 32 lines apart), then reads them again: 300 lines in a
    // 64 KiB L1 of 512 lines. Were a line's set its address modulo the 128
    // sets, the rows would fall in 12 sets and evict one another (no hit on
    // the second pass); hashed, as the GPU's sets are, most stay (sets that
    // drew more than four of the lines still lose theirs).
    CacheConfig config;
    config.sms = 1;
    config.blocksPerSm = 1;
    config.l1Bytes = 64 * 1024;
    config.l1Ways = 4;
    std::vector<int> sectors;
    for (int pass = 0; pass < 2; ++pass)
        for (int row = 0; row < 100; ++row)
            for (int line = 0; line < 3; ++line)
                sectors.push_back((row * 32 + line) * 4);
    const CacheCounters c = modelCaches(cacheTrace(1, [&](int) { return sectors; }), config);
    EXPECT_EQ(c.loadSectors, 600u);
    EXPECT_GE(c.l1Hits, 180u) << "most of the second pass";
    EXPECT_LE(c.l1Hits, 300u);
}

TEST(CacheModel, TheLeastRecentlyUsedLineIsEvicted) {
    CacheConfig config;
    config.sms = 1;
    config.blocksPerSm = 1;
    config.l1Bytes = 2 * 128;  // one set of two lines
    config.l1Ways = 2;
    // Lines 0, 1, 0, 2 (evicts 1, used least recently), 0 (still there), 1 (gone).
    const CacheCounters c =
        modelCaches(cacheTrace(1, [](int) { return std::vector<int>{0, 4, 0, 8, 0, 4}; }), config);
    EXPECT_EQ(c.loadSectors, 6u);
    EXPECT_EQ(c.l1Hits, 2u);
    EXPECT_EQ(c.l2LoadHits, 1u);  // line 1's sector comes back from L2
    EXPECT_EQ(c.dramReadBytes, 3u * 32u);
}

TEST(CacheModel, StoresAllocateInL2WithoutReadingDram) {
    CacheConfig config;
    config.sms = 1;
    const CacheCounters c = modelCaches(cacheTrace(1, [](int) { return std::vector<int>{3, 3}; }, Op::Store), config);
    EXPECT_EQ(c.storeSectors, 2u);
    EXPECT_EQ(c.l2StoreHits, 1u);
    EXPECT_EQ(c.dramReadBytes, 0u);
    EXPECT_EQ(c.loadSectors, 0u);
    EXPECT_DOUBLE_EQ(c.l2HitRate(), 1.0);  // nothing was missing: both count as hits
}

TEST(CacheModel, AWholeLaunchReadsItsInputFromDramOnce) {
    // With caches larger than the image, DRAM serves each sector of N and
    // of the mask once: the image's bytes, rounded up to sectors.
    for (const char* kernel : {"conv2d_basic", "conv2d_tiled_cached", "conv2d_tiled_in"}) {
        const Image in = randomImage(80, 48, 1, 31);
        const Mask mask = randomMask(5, true, 32);
        RunRequest req = requestFor(kernel, in, mask, 16, Backend::Cpu, true);
        auto run = runKernel(req);
        ASSERT_TRUE(run.ok()) << run.error().message;
        const CacheCounters c = modelCaches(*run->trace);
        // A mask in global memory (conv2d_basic's M): 25 floats, 100 bytes, 4 sectors.
        const bool globalMask = run->trace->arrays[kArrayMask].space == Space::Global;
        EXPECT_EQ(c.dramReadBytes, 80u * 48u * 4u + (globalMask ? 4u * 32u : 0u)) << kernel;
        std::uint64_t sectors = 0;
        for (std::size_t b = 0; b < run->trace->blocks.size(); ++b)
            sectors += countMemory(*run->trace, b).globalLoadSectors;
        EXPECT_EQ(c.loadSectors, sectors) << kernel;  // every sector of every request is looked up once
        EXPECT_EQ(c.l1Hits + c.l2LoadHits + c.dramReadBytes / 32u, c.loadSectors) << kernel;
    }
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
    // Every block traced: the caches' replay, every sector looked up once.
    ASSERT_TRUE(j["caches"].is_object());
    EXPECT_EQ(j["caches"]["load_sectors"].get<std::uint64_t>(), sectors);
    EXPECT_EQ(j["caches"]["dram_read_bytes"].get<std::uint64_t>(), 64u * 64u * 4u);  // the image, once
}

}  // namespace
}  // namespace tilescope::test
