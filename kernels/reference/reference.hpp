// The oracle of the tests: convolution in double precision, straight from the
// definition in §7.1, with no tiling, no threads and no cleverness.
//
// P[y][x][c] = sum over i, j of M[i][j] * N[y - rm + i][x - rn + j][c], where
// rm and rn are half the mask's height and width and N is 0 outside the
// image (ghost cells). Like the book, this is cross-correlation: the mask is
// not flipped.
#pragma once

#include <vector>

#include "core/image.hpp"

namespace tilescope::reference {

// Same layout as `input` (interleaved channels, each convolved on its own).
std::vector<double> convolve(const Image& input, const Mask& mask);

// Largest |a - b| over all elements (infinity where a holds a NaN).
double maxAbsDifference(const std::vector<float>& a, const std::vector<double>& b);

// The float32 tolerance for one output element: every product and sum is
// rounded once, so the error stays below a few units in the last place of the
// largest partial sum, which is bounded by max|N| times the mask's absolute sum.
double float32Tolerance(const Image& input, const Mask& mask);

}  // namespace tilescope::reference
