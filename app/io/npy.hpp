// NumPy .npy files (format versions 1, 2 and 3), the exchange format with
// Python notebooks that check TileScope's results.
#pragma once

#include <filesystem>
#include <span>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// Accepts little-endian float32 ('<f4'), float64 ('<f8', narrowed to float)
// and uint8 ('|u1', kept as its value 0..255, not scaled), C order only.
// Shape (n) -> Image::signal; (H, W) -> rank 2; (H, W, C) with C in 1..4 -> rank 3.
Result<Image> readNpy(const std::filesystem::path& path);

// The same for a file's bytes already in memory (a built-in input the binary
// carries); `name` stands for the file in messages.
Result<Image> readNpyBytes(const std::filesystem::path& name, std::span<const unsigned char> bytes);

// Shape (n) -> Mask::row; (H, W) -> a mask of that width and height.
Result<Mask> readNpyMask(const std::filesystem::path& path);

// float32, version 1.0, shape from image.rank: 1 -> (W,), 2 -> (H, W), 3 -> (H, W, C).
Status writeNpy(const std::filesystem::path& path, const Image& image);

}  // namespace tilescope::io
