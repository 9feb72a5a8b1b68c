// Every kernel, on every backend this machine has, against the
// double-precision reference; and the book's own worked numbers.
#include <gtest/gtest.h>

#include "api/kernels.hpp"
#include "api/runner.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

struct Shape {
    int width, height;
};

Result<RunResult> run(std::string_view kernel, const Image& in, const Mask& mask, int block, Backend backend) {
    RunRequest r;
    r.kernel = std::string(kernel);
    r.input = &in;
    r.mask = &mask;
    r.block = block;
    r.backend = backend;
    return runKernel(r);
}

class EveryKernel : public ::testing::TestWithParam<Backend> {};

TEST_P(EveryKernel, MatchesReferenceOnAwkwardSizesAndEveryRadius) {
    const Backend backend = GetParam();
    // 1, a prime, sizes that are not multiples of any tile, tall and thin,
    // short and wide, and sizes smaller than the widest mask.
    const std::vector<Shape> shapes2D{{1, 1}, {13, 13}, {37, 23}, {3, 67}, {67, 3}, {5, 5}};
    const std::vector<int> sizes1D{1, 2, 13, 97, 300};
    for (const KernelInfo& k : allKernels()) {
        for (int r = 0; r <= 7; ++r) {
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
        if (k.dims != 2) continue;
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
        if (k.dims != 1) continue;
        auto result = run(k.name, signal, mask5, 4, GetParam());
        ASSERT_TRUE(result.ok()) << k.name << ": " << result.error().message;
        EXPECT_TRUE(matchesReference(signal, mask5, result->output)) << k.name;
    }
    const Image image = randomImage(20, 12, 1, 8);
    const Mask mask3 = randomMask(3, true, 4);
    for (const KernelInfo& k : allKernels()) {
        if (k.dims != 2) continue;
        for (int block : {4, 8, 32}) {
            auto result = run(k.name, image, mask3, block, GetParam());
            ASSERT_TRUE(result.ok()) << k.name << ": " << result.error().message;
            EXPECT_TRUE(matchesReference(image, mask3, result->output)) << k.name << " block " << block;
        }
    }
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
            if (k.dims != 1) continue;
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
            if (k.dims != 1) continue;
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
            if (k.dims != 2) continue;
            auto result = run(k.name, in, mask, 8, backend);
            ASSERT_TRUE(result.ok()) << result.error().message;
            EXPECT_FLOAT_EQ(result->output.at(2, 2), 321.0f) << k.name;
        }
}

}  // namespace
}  // namespace tilescope::test
