#include "io/whole_file.hpp"

#include "base/atomic_file.hpp"
#include "base/read_file.hpp"
#include "io/file_checks.hpp"

namespace tilescope::io {

Result<std::vector<unsigned char>> readFileBytes(const std::filesystem::path& path, std::size_t maxBytes) {
    auto bytes = base::readFileBytes(path, maxBytes);
    if (!bytes)
        return fileError(path, bytes.error().problem());
    return std::move(*bytes);
}

Result<std::string> readFileText(const std::filesystem::path& path, std::size_t maxBytes) {
    auto text = base::readFileText(path, maxBytes);
    if (!text)
        return fileError(path, text.error().problem());
    return std::move(*text);
}

Status writeFileAtomic(const std::filesystem::path& path, std::span<const unsigned char> bytes) {
    if (auto failure = base::writeFileAtomic(path, bytes))
        return fileError(path, failure->problem());
    return success();
}

Status writeFileAtomic(const std::filesystem::path& path, std::string_view text) {
    if (auto failure = base::writeFileAtomic(path, text))
        return fileError(path, failure->problem());
    return success();
}

}  // namespace tilescope::io
