// The seven GPU Teaching Kit datasets (an external reference: produced by the
// lab's own generator), through conv2d_tiled_pitched and every other 2D
// kernel, on every backend this machine has. The expected output is
// quantised with ceil(clamp(x) * 255); the dataset README gives the rule.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/kernel_catalogue.hpp"
#include "api/runner.hpp"
#include "io/files.hpp"
#include "io/mask_file.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;

fs::path datasets() { return fs::path(TILESCOPE_TESTDATA_DIR) / "teaching-kit-convolution"; }

// Compares a float result x with the expected byte e as the README says.
bool matchesQuantised(float x, int expected) {
    const double clamped = std::min(1.0, std::max(0.0, static_cast<double>(x)));
    const double scaled = clamped * 255.0;
    const int got = static_cast<int>(std::ceil(scaled));
    if (got == expected) return true;
    const double nearest = std::round(scaled);
    return std::abs(got - expected) == 1 && std::abs(scaled - nearest) < 1e-3;
}

TEST(TeachingKit, EveryDatasetThroughEvery2DKernel) {
    if (!fs::exists(datasets())) GTEST_SKIP() << "datasets not found at " << datasets();
    int checked = 0;
    for (int d = 0; d < 7; ++d) {
        const fs::path dir = datasets() / std::to_string(d);
        auto input = io::readInput(dir / "input0.ppm");
        auto mask = io::readMask(dir / "input1.raw");
        auto expected = io::readInput(dir / "output.ppm");
        ASSERT_TRUE(input.ok()) << input.error().message;
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        ASSERT_TRUE(expected.ok()) << expected.error().message;
        ASSERT_EQ(input->channels, 3);
        for (Backend backend : availableBackends())
            for (const KernelInfo& k : allKernels()) {
                // A listing as printed is wrong on purpose.
                if (k.asPrinted || k.dims != 2)
                    continue;
                RunRequest r;
                r.kernel = std::string(k.name);
                r.input = &*input;
                r.mask = &*mask;
                r.block = 16;
                r.backend = backend;
                auto result = runKernel(r);
                ASSERT_TRUE(result.ok()) << k.name << " dataset " << d << ": " << result.error().message;
                const Image& out = result->output;
                ASSERT_EQ(out.data.size(), expected->data.size());
                int mismatches = 0;
                for (std::size_t i = 0; i < out.data.size(); ++i) {
                    const int e = static_cast<int>(std::lround(expected->data[i] * 255.0f));
                    if (!matchesQuantised(out.data[i], e)) ++mismatches;
                }
                EXPECT_EQ(mismatches, 0) << k.name << " on " << backendName(backend) << ", dataset " << d << " ("
                                         << input->width << "x" << input->height << ")";
                ++checked;
            }
    }
    EXPECT_GE(checked, 7 * 6);
}

}  // namespace
}  // namespace tilescope::test
