// Picture files: PNG, JPEG and BMP through stb_image; PGM and PPM through a
// strict parser of our own, so that absurd headers are refused before any
// allocation and every byte of the pixel data is accounted for.
#pragma once

#include <filesystem>
#include <span>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// The format is recognised by the file's first bytes, not its name. Grey
// (and grey + alpha) -> 1 channel, rank 2; RGB (and RGBA) -> 3 channels,
// rank 3: alpha is dropped because the convolution has no use for it.
// Values are scaled to [0, 1]: 8-bit PNG/JPEG/BMP by 255, 16-bit PNG by
// 65535, PGM/PPM by the file's maxval (1..65535).
Result<Image> readImageFile(const std::filesystem::path& path);

// The same for a file's bytes already in memory (a built-in input the binary
// carries); `name` stands for the file in messages.
Result<Image> readImageBytes(const std::filesystem::path& name, std::span<const unsigned char> bytes);

// By extension: .png (1 to 4 channels), .pgm (binary P5, 1 channel only),
// .ppm (binary P6, 3 channels only). A PGM of a 3-channel image or a PPM of a
// 1-channel image is refused rather than converted, so that an output never
// silently changes its number of channels. Values are clamped to [0, 1] and
// written as round(v * 255).
Status writeImageFile(const std::filesystem::path& path, const Image& image);

}  // namespace tilescope::io
