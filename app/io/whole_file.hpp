// A whole file in or out, for app/io's readers and writers and for the rest
// of the app: the base library's read and atomic write (base/read_file.hpp,
// base/atomic_file.hpp), each failure as the one-line Error of fileError.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tilescope::io {

// The whole file, refused if it is missing, a directory, not a regular file,
// unreadable, or larger than maxBytes.
Result<std::vector<unsigned char>> readFileBytes(const std::filesystem::path& path, std::size_t maxBytes);
Result<std::string> readFileText(const std::filesystem::path& path, std::size_t maxBytes);

// Writes to a temporary file in the same directory, fsyncs it, then renames
// it over `path`: a failure leaves no partial file and never destroys an
// existing one. A directory, or anything but a regular file, is refused.
Status writeFileAtomic(const std::filesystem::path& path, std::span<const unsigned char> bytes);
Status writeFileAtomic(const std::filesystem::path& path, std::string_view text);

}  // namespace tilescope::io
