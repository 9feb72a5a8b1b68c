// What the benchmarks share: a clock in seconds and a reproducible random image.
#pragma once

#include <chrono>
#include <random>

#include "core/image.hpp"

namespace tilescope::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// Values in [0, 1), the same for every run.
inline Image randomImage(int w, int h) {
    std::mt19937 random(1);
    std::uniform_real_distribution<float> v(0.0f, 1.0f);
    Image img = Image::planar(w, h);
    for (float& x : img.data) x = v(random);
    return img;
}

}  // namespace tilescope::bench
