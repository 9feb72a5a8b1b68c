// The program's input and output files, chosen by extension: the one place
// that knows which reader or writer takes which file. The readers and
// writers themselves (npy.hpp, image_file.hpp) sit below it and share the
// checks of file_checks.hpp.
#pragma once

#include <filesystem>
#include <span>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// .npy -> readNpy; .png .jpg .jpeg .bmp .pgm .ppm .pnm -> readImageFile
// (extensions compared case-insensitively).
Result<Image> readInput(const std::filesystem::path& path);

// The same for a file's bytes already in memory, chosen by the extension of
// `name`, which also stands for the file in messages (a built-in input).
Result<Image> readInputBytes(const std::filesystem::path& name, std::span<const unsigned char> bytes);

// .npy -> writeNpy; .png .pgm .ppm -> writeImageFile. Atomic, see writeFileAtomic (whole_file.hpp).
Status writeOutput(const std::filesystem::path& path, const Image& image);

}  // namespace tilescope::io
