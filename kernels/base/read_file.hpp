// One way to read a whole file. It is refused, with a FileError that says
// why, when it is missing, a directory, anything but a regular file (a FIFO
// would block the read for ever), unreadable, or larger than the caller's
// limit: the limit is checked before anything is allocated, so that a reader
// of untrusted files never reads a huge one into memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "base/file_error.hpp"

namespace tilescope::base {

inline constexpr std::size_t kNoSizeLimit = std::numeric_limits<std::size_t>::max();

FileResult<std::vector<unsigned char>> readFileBytes(const std::filesystem::path& path,
                                                     std::size_t maxBytes = kNoSizeLimit);
FileResult<std::string> readFileText(const std::filesystem::path& path, std::size_t maxBytes = kNoSizeLimit);

}  // namespace tilescope::base
