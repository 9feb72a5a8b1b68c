// What every reader and writer of app/io checks, and how each words a
// failure: one line naming the file and the problem. Readers never throw and
// never crash on a bad file, because they face whatever a user (or a fuzzer)
// hands them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "core/image.hpp"
#include "core/result.hpp"

namespace tilescope::io {

// Limits checked against headers before anything is allocated, so that a
// 20-byte file claiming to be 10^9 x 10^9 pixels is refused, not attempted.
inline constexpr std::size_t kMaxDimension = 65536;
inline constexpr std::size_t kMaxElements = std::size_t{1} << 28;

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
