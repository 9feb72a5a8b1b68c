// Reading and writing the program's input and output files, chosen by extension,
// plus the checks every reader shares. Readers never throw and never crash on a
// bad file: each failure comes back as one line naming the file and the problem,
// because these functions face whatever a user (or a fuzzer) hands them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// Limits checked against headers before anything is allocated, so that a
// 20-byte file claiming to be 10^9 x 10^9 pixels is refused, not attempted.
inline constexpr std::size_t kMaxDimension = 65536;
inline constexpr std::size_t kMaxElements = std::size_t{1} << 28;

// .npy -> readNpy; .png .jpg .jpeg .bmp .pgm .ppm .pnm -> readImageFile
// (extensions compared case-insensitively).
Result<Image> readInput(const std::filesystem::path& path);

// The same for a file's bytes already in memory, chosen by the extension of
// `name`, which also stands for the file in messages (a built-in input).
Result<Image> readInputBytes(const std::filesystem::path& name, std::span<const unsigned char> bytes);

// .npy -> writeNpy; .png .pgm .ppm -> writeImageFile. Atomic, see writeFileAtomic.
Status writeOutput(const std::filesystem::path& path, const Image& image);

// The whole file, refused if it is missing, a directory, not a regular file,
// unreadable, or larger than maxBytes.
Result<std::vector<unsigned char>> readFileBytes(const std::filesystem::path& path, std::size_t maxBytes);

// Writes to a temporary file in the same directory, then renames it over
// `path`: a failure leaves no partial file and never destroys an existing one.
Status writeFileAtomic(const std::filesystem::path& path, std::span<const unsigned char> bytes);

// [SECTION] Helpers shared by the readers and writers of this library.

// "<path>: <problem>", with control characters in the path replaced so that
// the message stays on one line.
Error fileError(const std::filesystem::path& path, std::string_view problem);

// Text taken from a file, made safe to quote in a message: at most 32
// characters, non-printable bytes shown as '?'.
std::string quoteUntrusted(std::string_view text);

// Lower-case extension with its dot (".png"), or "" when there is none.
std::string lowerExtension(const std::filesystem::path& path);

// Refuses zero-sized dimensions, a dimension over kMaxDimension (of an image
// or a mask; a 1D array may be as long as kMaxElements), and more than
// kMaxElements elements in all.
Status checkShape(const std::filesystem::path& path, std::span<const std::size_t> dims);

// Refuses NaN and infinity, naming the first offending element.
Status checkFinite(const std::filesystem::path& path, std::span<const float> values);

// What every writer checks first: the shape agrees with the data and rank,
// and every value is finite.
Status checkWritable(const std::filesystem::path& path, const Image& image);

}  // namespace tilescope::io
