// Every kernel, on every backend this machine has, against the
// double-precision reference; and the book's own worked numbers.
#include "core/kernel_catalogue.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "api/limits.hpp"
#include "api/runner.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

struct Shape {
    int width, height;
};

Result<RunResult> run(std::string_view kernel, const Image& in, const Mask& mask, int block, Backend backend) {
    return runKernel(requestFor(std::string(kernel), in, mask, block, backend));
}

class EveryKernel : public ::testing::TestWithParam<Backend> {};

TEST_P(EveryKernel, MatchesReferenceOnAwkwardSizesAndEveryRadius) {
    const Backend backend = GetParam();
    // 1, a prime, sizes that are not multiples of any tile, tall and thin,
    // short and wide, sizes smaller than the widest mask, and a width that is
    // a multiple of 4 (conv2d_fast's float4 version, with interior patches
    // at every radius).
    const std::vector<Shape> shapes2D{{1, 1}, {13, 13}, {37, 23}, {3, 67}, {67, 3}, {5, 5}, {40, 29}};
    const std::vector<int> sizes1D{1, 2, 13, 97, 300};
    for (const KernelInfo& k : allKernels()) {
        // A listing as printed is wrong on purpose (as_printed_test.cpp checks it).
        if (k.asPrinted)
            continue;
        for (int r = 0; r <= 7; ++r) {
            if (!inSweep(r, 7))
                continue;
            const int w = 2 * r + 1;
            const Mask mask = randomMask(w, k.dims == 2, 100 + r);
            if (k.dims == 1) {
                for (int n : sizes1D)
                    for (int block : {32, 64}) {
                        Image in = randomSignal(n, n * 7 + r);
                        auto result = run(k.name, in, mask, block, backend);
                        ASSERT_TRUE(result.ok()) << k.name << " n=" << n << " r=" << r << ": " << result.error().message;
                        EXPECT_TRUE(matchesReference(in, mask, result->output))
                            << k.name << " n=" << n << " r=" << r << " block=" << block;
                    }
            } else {
                for (const Shape& s : shapes2D)
                    for (int block : {16, 20}) {
                        Image in = randomImage(s.width, s.height, 1, s.width * 31 + s.height + r);
                        auto result = run(k.name, in, mask, block, backend);
                        ASSERT_TRUE(result.ok()) << k.name << " " << s.width << "x" << s.height << " r=" << r << ": "
                                                 << result.error().message;
                        EXPECT_TRUE(matchesReference(in, mask, result->output))
                            << k.name << " " << s.width << "x" << s.height << " r=" << r << " block=" << block;
                    }
            }
        }
    }
}

TEST_P(EveryKernel, MultiChannelImagesConvolveEachChannelOnItsOwn) {
    const Image in = randomImage(29, 17, 3, 5);
    const Mask mask = randomMask(5, true, 9);
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted || k.dims != 2)
            continue;
        auto result = run(k.name, in, mask, 12, GetParam());
        ASSERT_TRUE(result.ok()) << k.name << ": " << result.error().message;
        EXPECT_EQ(result->output.channels, 3);
        EXPECT_TRUE(matchesReference(in, mask, result->output)) << k.name;
    }
}

TEST_P(EveryKernel, SmallBlocksOfTheBooksFigures) {
    // Figure 7.10 draws four blocks of four threads; Figure 7.13 a 2D tile of 8.
    const Image signal = randomSignal(16, 3);
    const Mask mask5 = randomMask(5, false, 4);
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted || k.dims != 1)
            continue;
        auto result = run(k.name, signal, mask5, 4, GetParam());
        ASSERT_TRUE(result.ok()) << k.name << ": " << result.error().message;
        EXPECT_TRUE(matchesReference(signal, mask5, result->output)) << k.name;
    }
    const Image image = randomImage(20, 12, 1, 8);
    const Mask mask3 = randomMask(3, true, 4);
    for (const KernelInfo& k : allKernels()) {
        if (k.asPrinted || k.dims != 2)
            continue;
        for (int block : {4, 8, 32}) {
            auto result = run(k.name, image, mask3, block, GetParam());
            ASSERT_TRUE(result.ok()) << k.name << ": " << result.error().message;
            EXPECT_TRUE(matchesReference(image, mask3, result->output)) << k.name << " block " << block;
        }
    }
}

// Every block edge a launch can have, odd and even, from one thread to the
// largest block, at every radius, on sizes that fit no tile: what the planner
// accepts must compute the reference; what it refuses must be one of the two
// launches the book's kernels cannot do (an input tile with no output tile
// left, a 1D halo wider than the block that loads it).
TEST_P(EveryKernel, EveryBlockEdgeAtEveryRadius) {
    const Backend backend = GetParam();
    const Image image = randomImage(37, 23, 1, 21);
    const Image signal = randomSignal(301, 22);
    int ran = 0, refused = 0;
    for (const KernelInfo& k : allKernels()) {
        // A listing as printed is wrong on purpose (as_printed_test.cpp checks it).
        if (k.asPrinted)
            continue;
        const std::vector<int> edges = k.dims == 1 ? std::vector<int>{1, 3, 4, 32, 33, 100, 256, 1024}
                                                   : std::vector<int>{1, 3, 4, 8, 12, 16, 20, 24, 31, 32};
        const Image& in = k.dims == 1 ? signal : image;
        for (int r = 0; r <= 7; ++r) {
            if (!inSweep(r, 7))
                continue;
            const Mask mask = randomMask(2 * r + 1, k.dims == 2, 300 + r);
            for (int edge : edges) {
                auto result = run(k.name, in, mask, edge, backend);
                if (!result) {
                    const std::string& why = result.error().message;
                    const bool expected = why.find("leaves no output tile") != std::string::npos ||
                                          why.find("halo cells on each side") != std::string::npos ||
                                          why.find("the block edge must be even") != std::string::npos ||
                                          why.find("bytes a block can have") != std::string::npos;
                    EXPECT_TRUE(expected) << k.name << " r=" << r << " block " << edge << ": " << why;
                    ++refused;
                    continue;
                }
                ++ran;
                EXPECT_TRUE(matchesReference(in, mask, result->output)) << k.name << " r=" << r << " block " << edge;
            }
        }
    }
    // 4 kernels x 8 radii x 8 edges in 1D and 7 x 8 x 10 in 2D; refused: the
    // tiled-input kernels (conv2d_tiled_in, conv2d_tiled_pitched) whenever
    // edge <= 2r, conv1d_tiled whenever r > edge, and conv2d_fast at 7x7 and
    // 9x9, where its block is edge x edge/2 threads, for an odd edge and where
    // its two staged tiles, 4 * edge + 8 floats wide and 2 * edge + 2r tall,
    // need more shared memory than the run's device gives a block.
    const DeviceLimits limits = currentLimits();  // what the runner plans with, for either backend
    int expectedRefused = 0, radii = 0;
    for (int r = 0; r <= 7; ++r) {
        if (!inSweep(r, 7))
            continue;
        ++radii;
        for (int edge : {1, 3, 4, 8, 12, 16, 20, 24, 31, 32}) {
            expectedRefused += edge <= 2 * r ? 2 : 0;
            if (r == 3 || r == 4) {
                const std::size_t staged = 2u * (4 * edge + 8) * (2 * edge + 2 * r) * sizeof(float);
                expectedRefused += edge % 2 != 0 || staged > limits.sharedPerBlockOptin ? 1 : 0;
            }
        }
        for (int edge : {1, 3, 4, 32, 33, 100, 256, 1024})
            expectedRefused += r > edge ? 1 : 0;
    }
    EXPECT_EQ(refused, expectedRefused);
    EXPECT_EQ(ran + refused, 4 * radii * 8 + 7 * radii * 10);
}

INSTANTIATE_TEST_SUITE_P(Backends, EveryKernel, ::testing::ValuesIn(availableBackends()),
                         [](const auto& info) { return std::string(backendName(info.param)); });

// §7.1: N = 1..7, M = 3 4 5 4 3 gives P[1] = 38, P[2] = 57, P[3] = 76, and
// exercise 1 asks for P[0] = 0*3 + 0*4 + 1*5 + 2*4 + 3*3 = 22.
TEST(BookNumbers, Figure7_1To7_3AndExercise1) {
    const Image in = Image::signal({1, 2, 3, 4, 5, 6, 7});
    const Mask mask = Mask::row({3, 4, 5, 4, 3});
    for (Backend backend : availableBackends())
        for (const KernelInfo& k : allKernels()) {
            if (k.asPrinted || k.dims != 1)
                continue;
            auto result = run(k.name, in, mask, 4, backend);
            ASSERT_TRUE(result.ok()) << result.error().message;
            EXPECT_FLOAT_EQ(result->output.data[0], 22.0f) << k.name;
            EXPECT_FLOAT_EQ(result->output.data[1], 38.0f) << k.name;
            EXPECT_FLOAT_EQ(result->output.data[2], 57.0f) << k.name;
            EXPECT_FLOAT_EQ(result->output.data[3], 76.0f) << k.name;
        }
}

// Exercise 2: N = {4,1,3,2,3}, M = {2,1,4} gives {8,21,13,20,7}.
TEST(BookNumbers, Exercise2) {
    const Image in = Image::signal({4, 1, 3, 2, 3});
    const Mask mask = Mask::row({2, 1, 4});
    const std::vector<float> expected{8, 21, 13, 20, 7};
    for (Backend backend : availableBackends())
        for (const KernelInfo& k : allKernels()) {
            if (k.asPrinted || k.dims != 1)
                continue;
            auto result = run(k.name, in, mask, 32, backend);
            ASSERT_TRUE(result.ok()) << result.error().message;
            EXPECT_EQ(result->output.data, expected) << k.name;
        }
}

// Figure 7.4: the 5x5 mask and the input whose top-left 5x5 corner holds
// N[y][x] = x + y + 1 (with the figure's 5 in the bottom-right corner of the
// product) give P[2][2] = 321.
TEST(BookNumbers, Figure7_4) {
    const std::vector<float> m{1, 2, 3, 2, 1, 2, 3, 4, 3, 2, 3, 4, 5, 4, 3, 2, 3, 4, 3, 2, 1, 2, 3, 2, 1};
    const Mask mask = Mask::square(5, m);
    Image in = Image::planar(7, 7);
    const float rows[7][7] = {{1, 2, 3, 4, 5, 6, 7}, {2, 3, 4, 5, 6, 7, 8}, {3, 4, 5, 6, 7, 8, 9},
                              {4, 5, 6, 7, 8, 5, 6}, {5, 6, 7, 8, 5, 6, 7}, {6, 7, 8, 9, 0, 1, 2},
                              {7, 8, 9, 0, 1, 2, 3}};
    for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 7; ++x) in.at(x, y) = rows[y][x];
    for (Backend backend : availableBackends())
        for (const KernelInfo& k : allKernels()) {
            if (k.asPrinted || k.dims != 2)
                continue;
            auto result = run(k.name, in, mask, 8, backend);
            ASSERT_TRUE(result.ok()) << result.error().message;
            EXPECT_FLOAT_EQ(result->output.at(2, 2), 321.0f) << k.name;
        }
}

// [SECTION] The device panel's limits, each with what it constrains

// An H100's limits, as cudaGetDeviceProperties reports them.
DeviceLimits hopperLimits() {
    DeviceLimits l;
    l.name = "H100-like";
    l.maxThreadsPerBlock = 1024;
    l.sharedPerBlock = 48 * 1024;
    l.sharedPerBlockOptin = 227 * 1024;
    l.sharedPerSm = 228 * 1024;
    l.maxThreadsPerSm = 2048;
    l.maxBlocksPerSm = 32;
    l.constantBytes = 64 * 1024;
    l.l2Bytes = 50 * 1024 * 1024;
    l.smCount = 132;
    return l;
}

const LimitUse& rowNamed(const std::vector<LimitUse>& rows, const std::string& name) {
    for (const LimitUse& r : rows)
        if (r.limit == name)
            return r;
    static const LimitUse none;
    ADD_FAILURE() << "no row " << name;
    return none;
}

TEST(DeviceLimits, EachLimitSaysWhichSettingItBoundsWithThisLaunchsNumbers) {
    const DeviceLimits limits = hopperLimits();
    const KernelInfo& tiledIn = *findKernel("conv2d_tiled_in");
    // 100 x 100, r = 2, IN_TILE_DIM 32: OUT_TILE_DIM 28, a grid of 4 x 4 blocks.
    auto plan = planLaunch(tiledIn, Problem{100, 100, 1, 2, 5, 5, 32}, limits, false);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    const auto rows = describeLimits(tiledIn, &*plan, limits, 5);

    const LimitUse& threads = rowNamed(rows, "threads per block");
    EXPECT_EQ(threads.value, "1024");
    EXPECT_EQ(threads.used, "1024");
    EXPECT_FALSE(threads.over);
    // sqrt(1024) = 32: IN_TILE_DIM <= 32, so OUT_TILE_DIM <= 32 - 2*2 = 28.
    EXPECT_NE(threads.constrains.find("IN_TILE_DIM <= 32"), std::string::npos) << threads.constrains;
    EXPECT_NE(threads.constrains.find("<= 28 at r = 2"), std::string::npos) << threads.constrains;

    // 32 x 32 floats = 4096 bytes; 227 KiB hold a tile of edge floor(sqrt(58112)) = 241.
    const LimitUse& shared = rowNamed(rows, "shared memory per block");
    EXPECT_EQ(shared.used, "4 KiB");
    EXPECT_EQ(shared.value, "48 KiB (227 KiB opt-in)");
    EXPECT_NE(shared.constrains.find("at most 241"), std::string::npos) << shared.constrains;

    // Threads allow 2048 / 1024 = 2 blocks per SM; shared memory 228 KiB / 4 KiB = 57.
    EXPECT_EQ(residentBlocksPerSm(*plan, limits), 2);
    const LimitUse& perSm = rowNamed(rows, "shared memory per SM");
    EXPECT_NE(perSm.constrains.find("2 of this launch at once"), std::string::npos) << perSm.constrains;
    EXPECT_NE(perSm.constrains.find("allows 57"), std::string::npos) << perSm.constrains;

    // 16 blocks on 132 SMs x 2: one wave, and 116 SMs idle.
    const LimitUse& sms = rowNamed(rows, "streaming multiprocessors");
    EXPECT_EQ(sms.used, "16 blocks");
    EXPECT_NE(sms.constrains.find("take 1 wave"), std::string::npos) << sms.constrains;
    EXPECT_NE(sms.constrains.find("116 SMs have nothing to do"), std::string::npos) << sms.constrains;

    // 5 x 5 floats = 100 bytes; F_c is reserved for 15 x 15 = 900 bytes.
    const LimitUse& constant = rowNamed(rows, "constant memory");
    EXPECT_EQ(constant.used, "100 B (mask)");
    EXPECT_NE(constant.constrains.find("900 B of 64 KiB"), std::string::npos) << constant.constrains;

    // 100 x 100 floats = 40000 bytes fit in 50 MiB of L2.
    const LimitUse& l2 = rowNamed(rows, "L2 cache");
    EXPECT_EQ(l2.used, "40000 B (input)");
    EXPECT_NE(l2.constrains.find("fits in L2"), std::string::npos) << l2.constrains;
}

TEST(Plan, Conv2dFastTakesItsBlockPerRadiusUnlessOneIsAsked) {
    const DeviceLimits limits = hopperLimits();
    const KernelInfo& fast = *findKernel("conv2d_fast");
    // Block 0: the radius picks it (24x24 at r = 1, 16x16 at r = 2, 5, 6 and
    // 7; staged, 24 x 12 threads at r = 3 and 16 x 8 at r = 4).
    for (auto [mask, edge] : {std::pair{3, 24}, std::pair{5, 16}, std::pair{7, 24}, std::pair{9, 16}, std::pair{11, 16},
                              std::pair{13, 16}, std::pair{15, 16}}) {
        const int r = mask / 2;
        const bool staged = r == 3 || r == 4;
        auto plan = planLaunch(fast, Problem{1000, 700, 1, 2, mask, mask, 0}, limits, false);
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        EXPECT_EQ(plan->block.x, static_cast<unsigned>(edge)) << "mask " << mask;
        EXPECT_EQ(plan->block.y, static_cast<unsigned>(staged ? edge / 2 : edge)) << "mask " << mask;
        // Each thread a 4x4 patch (staged: one in each of two bands): a block covers 4 * edge outputs on each side.
        EXPECT_EQ(plan->outTile, 4 * edge);
        EXPECT_EQ(plan->grid.x, static_cast<unsigned>((1000 + 4 * edge - 1) / (4 * edge)));
        EXPECT_EQ(plan->grid.y, static_cast<unsigned>((700 + 4 * edge - 1) / (4 * edge)));
        // Staged: two tiles of 4 * edge + 8 columns (whole float4s of halo) by a band's 2 * edge rows and 2r more.
        const std::size_t tiles = staged ? 2u * (4 * edge + 8) * (2 * edge + 2 * r) * sizeof(float) : 0u;
        EXPECT_EQ(plan->sharedBytes, tiles) << "mask " << mask;
        const PatchStaging f = patchStaging(fast, *plan);
        EXPECT_EQ(f.bands, staged ? 2 : 0);
        if (staged) {
            EXPECT_EQ(f.tileWidth, 4 * edge + 8);
            EXPECT_EQ(f.tileHeight, 2 * edge + 2 * r);
            EXPECT_EQ(f.bandRows, 2 * edge);
        }
    }
    // A block that is asked for is kept, and the other kernels keep theirs.
    auto asked = planLaunch(fast, Problem{1000, 700, 1, 2, 9, 9, 24}, limits, false);
    ASSERT_TRUE(asked.ok());
    EXPECT_EQ(asked->block.x, 24u);
    EXPECT_EQ(asked->block.y, 12u);
    auto basic = planLaunch(*findKernel("conv2d_basic"), Problem{1000, 700, 1, 2, 9, 9, 0}, limits, false);
    ASSERT_TRUE(basic.ok());
    EXPECT_EQ(basic->block.x, 16u);
    // A staged block is edge x edge/2: an odd edge is refused, with the even one to use.
    auto odd = planLaunch(fast, Problem{1000, 700, 1, 2, 7, 7, 15}, limits, false);
    ASSERT_FALSE(odd.ok());
    EXPECT_NE(odd.error().message.find("must be even (got 15); use --block 16"), std::string::npos)
        << odd.error().message;
    EXPECT_TRUE(planLaunch(fast, Problem{1000, 700, 1, 2, 5, 5, 15}, limits, false).ok());
}

TEST(DeviceLimits, AWhatIfLaunchIsMarkedOverAndTheMaskInGlobalMemoryIsNamed) {
    const DeviceLimits limits = hopperLimits();
    const KernelInfo& basic = *findKernel("conv2d_basic");
    auto plan = planLaunch(basic, Problem{64, 64, 1, 2, 3, 3, 40}, limits, true);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_TRUE(plan->whatIf);
    const auto rows = describeLimits(basic, &*plan, limits, 3);
    const LimitUse& threads = rowNamed(rows, "threads per block");
    EXPECT_EQ(threads.used, "1600");
    EXPECT_TRUE(threads.over);
    EXPECT_NE(rowNamed(rows, "constant memory").constrains.find("global memory"), std::string::npos);
    EXPECT_NE(rowNamed(rows, "shared memory per block").constrains.find("no tile"), std::string::npos);

    // 1D, the tiled kernel: its tile holds blockDim.x + 2r floats.
    const KernelInfo& tiled1d = *findKernel("conv1d_tiled");
    auto plan1d = planLaunch(tiled1d, Problem{1000, 1, 1, 1, 7, 1, 256}, limits, false);
    ASSERT_TRUE(plan1d.ok());
    const auto rows1d = describeLimits(tiled1d, &*plan1d, limits, 7);
    EXPECT_NE(rowNamed(rows1d, "shared memory per block").constrains.find("holds 262 (1048 B)"), std::string::npos)
        << rowNamed(rows1d, "shared memory per block").constrains;
    // 4 blocks of 256 threads: 8 per SM by threads; 132 x 8 at once, one wave.
    EXPECT_EQ(residentBlocksPerSm(*plan1d, limits), 8);

    // Without a launch (the set-up cannot run) the bound stays in symbols.
    const auto unplanned = describeLimits(*findKernel("conv2d_tiled_in"), nullptr, limits, 5);
    EXPECT_NE(rowNamed(unplanned, "threads per block").constrains.find("OUT_TILE_DIM = IN_TILE_DIM - 2r <= 32 - 2r."),
              std::string::npos)
        << rowNamed(unplanned, "threads per block").constrains;
    EXPECT_EQ(rowNamed(unplanned, "threads per block").used, "-");

    // Without a GPU the per-SM rows are left out rather than guessed.
    const auto reference = describeLimits(tiled1d, &*plan1d, DeviceLimits{}, 7);
    for (const LimitUse& r : reference) {
        EXPECT_NE(r.limit, "shared memory per SM");
        EXPECT_NE(r.limit, "streaming multiprocessors");
    }
}

}  // namespace
}  // namespace tilescope::test
