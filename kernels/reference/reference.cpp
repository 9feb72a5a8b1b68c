#include "reference/reference.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::reference {

std::vector<double> convolve(const Image& in, const Mask& m) {
    std::vector<double> out(in.data.size(), 0.0);
    const int rm = m.height / 2, rn = m.width / 2;
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x)
            for (int c = 0; c < in.channels; ++c) {
                double sum = 0.0;
                for (int i = 0; i < m.height; ++i)
                    for (int j = 0; j < m.width; ++j) {
                        int row = y - rm + i, col = x - rn + j;
                        if (row < 0 || row >= in.height || col < 0 || col >= in.width) continue;  // ghost cell
                        sum += static_cast<double>(m.at(j, i)) * in.at(col, row, c);
                    }
                out[(static_cast<std::size_t>(y) * in.width + x) * in.channels + c] = sum;
            }
    return out;
}

double maxAbsDifference(const std::vector<float>& a, const std::vector<double>& b) {
    double worst = 0.0;
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const double d = std::fabs(static_cast<double>(a[i]) - b[i]);
        if (std::isnan(d)) return INFINITY;  // a NaN (shared memory nobody wrote) is as wrong as can be
        worst = std::max(worst, d);
    }
    return a.size() == b.size() ? worst : INFINITY;
}

double float32Tolerance(const Image& in, const Mask& m) {
    double maxIn = 0.0;
    for (float v : in.data) maxIn = std::max(maxIn, static_cast<double>(std::fabs(v)));
    const double taps = static_cast<double>(m.values.size());
    // (taps + 1) roundings, each at most 2^-24 relative to the running bound.
    return (taps + 2.0) * 0x1p-23 * std::max(1e-30, maxIn * m.absSum()) + 1e-30;
}

}  // namespace tilescope::reference
