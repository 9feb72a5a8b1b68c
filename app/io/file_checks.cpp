#include "io/file_checks.hpp"

#include <cctype>
#include <cmath>
#include <optional>

namespace tilescope::io {

namespace fs = std::filesystem;

namespace {

std::optional<std::size_t> firstNonFinite(std::span<const float> values) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) return i;
    return std::nullopt;
}

std::string describeNonFinite(float value, std::size_t index) {
    return std::string(std::isnan(value) ? "NaN" : "infinity") + " at element " + std::to_string(index);
}

}  // namespace

Error fileError(const fs::path& path, std::string_view problem) {
    std::string name = path.string();
    for (char& c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return badInput(name + ": " + std::string(problem));
}

std::string quoteUntrusted(std::string_view text) {
    constexpr std::size_t kMaxQuoted = 32;
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < kMaxQuoted; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (text.size() > kMaxQuoted) out += "...";
    return out + "'";
}

std::string lowerExtension(const fs::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

Status checkShape(const fs::path& path, std::span<const std::size_t> dims) {
    std::size_t elements = 1;
    for (std::size_t d : dims) {
        if (d == 0) return fileError(path, "has a zero-sized dimension");
        // A 1D array is one long row: only its element count is limited.
        if (dims.size() > 1 && d > kMaxDimension)
            return fileError(path, "has a dimension of " + std::to_string(d) + " (the limit is " +
                                       std::to_string(kMaxDimension) + ")");
        // With several dimensions each factor is at most 2^16, and the
        // product stays at most 2^28 before this multiplication, so it
        // cannot overflow; a single dimension is the product itself.
        elements *= d;
        if (elements > kMaxElements)
            return fileError(path, "has more than " + std::to_string(kMaxElements) + " elements (2^28, the limit)");
    }
    return success();
}

Status checkFinite(const fs::path& path, std::span<const float> values) {
    if (auto bad = firstNonFinite(values)) return fileError(path, "contains " + describeNonFinite(values[*bad], *bad));
    return success();
}

Status checkWritable(const fs::path& path, const Image& image) {
    const std::string shape = std::to_string(image.width) + " x " + std::to_string(image.height) + " x " +
                              std::to_string(image.channels);
    if (image.width < 1 || image.height < 1 || image.channels < 1 || image.channels > 4)
        return fileError(path, "cannot write an image of " + shape + " (width x height x channels)");
    const std::size_t expected = static_cast<std::size_t>(image.width) * image.height * image.channels;
    if (image.data.size() != expected)
        return fileError(path, "cannot write: the image holds " + std::to_string(image.data.size()) +
                                   " values but its shape " + shape + " needs " + std::to_string(expected));
    const bool rankFits = (image.rank == 1 && image.height == 1 && image.channels == 1) ||
                          (image.rank == 2 && image.channels == 1) || image.rank == 3;
    if (!rankFits)
        return fileError(path, "cannot write: rank " + std::to_string(image.rank) + " does not fit the shape " + shape);
    if (auto bad = firstNonFinite(image.data))
        return fileError(path, "cannot write an image that contains " + describeNonFinite(image.data[*bad], *bad));
    return success();
}

}  // namespace tilescope::io
