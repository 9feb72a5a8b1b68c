// Convolution masks from files. Masks are small and usually typed by hand, so
// the text formats are parsed strictly and every error names its line.
#pragma once

#include <filesystem>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// Chosen by extension (case-insensitive):
//   .npy  readNpyMask: (n) -> a 1D mask, (H, W) -> a 2D mask.
//   .raw  the GPU Teaching Kit layout: a first line "rows cols", then
//         rows * cols whitespace-separated values, laid out freely over lines.
//   .csv  one mask row per line, values separated by commas. A first line
//         of two integers is an optional "rows,cols" header, checked against
//         the data, unless the file without it would be a two-column mask the
//         header does not describe: then that line is the mask's first row.
//   else  one mask row per line, values separated by whitespace.
// In the text formats, blank lines and lines starting with '#' are ignored.
// Every row must hold the same number of values, every value must be a
// finite number written in full ("1.5x" is refused), and a mask of one row is
// 1D (height 1).
Result<Mask> readMask(const std::filesystem::path& path);

}  // namespace tilescope::io
