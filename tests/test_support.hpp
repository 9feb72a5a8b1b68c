// Helpers shared by the tests: random inputs, the backends this machine has,
// and the reference check.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "core/image.hpp"
#include "reference/reference.hpp"

namespace tilescope::test {

// The sanitizer build (TILESCOPE_SANITIZE, scripts/bootstrap.sh) runs each
// sweep over a sample of its radii (the detector's, of its block edges too):
// ASan makes the CPU executor several times slower, and the ordinary build
// runs every radius. The sample keeps the smallest and the largest.
#if defined(TILESCOPE_SANITIZED_BUILD)
inline constexpr int kSweepStride = 3;
#else
inline constexpr int kSweepStride = 1;
#endif
inline bool inSweep(int r, int largest) {
    return r % kSweepStride == 0 || r == largest;
}

inline Image randomImage(int width, int height, int channels, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    Image image = Image::planar(width, height, channels);
    for (float& v : image.data) v = value(random);
    return image;
}

inline Image randomSignal(int n, unsigned seed) {
    Image image = randomImage(n, 1, 1, seed);
    image.rank = 1;
    return image;
}

inline Mask randomMask(int width, bool twoD, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> v(twoD ? width * width : width);
    for (float& x : v) x = value(random);
    return twoD ? Mask::square(width, v) : Mask::row(v);
}

inline std::vector<Backend> availableBackends() {
    std::vector<Backend> b{Backend::Cpu};
    if (gpuAvailable()) b.push_back(Backend::Cuda);
    return b;
}

// A request to run `kernel` on `input` with `mask` (the pointers are kept:
// input and mask must outlive it).
inline RunRequest requestFor(std::string kernel, const Image& input, const Mask& mask, int block, Backend backend,
                             bool trace = false) {
    RunRequest r;
    r.kernel = std::move(kernel);
    r.input = &input;
    r.mask = &mask;
    r.block = block;
    r.backend = backend;
    r.trace = trace;
    return r;
}

// The output agrees with the double-precision reference within float32 rounding.
inline ::testing::AssertionResult matchesReference(const Image& input, const Mask& mask, const Image& output) {
    const double error = reference::maxAbsDifference(output.data, reference::convolve(input, mask));
    const double tolerance = reference::float32Tolerance(input, mask);
    if (error <= tolerance) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "largest difference " << error << " over tolerance " << tolerance;
}

}  // namespace tilescope::test
