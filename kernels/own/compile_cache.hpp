// Compiled kernels kept between compiles. A library is kept under the SHA-256
// of everything that decides its bytes: the translated text (what the parser
// saw and the translator accepted, never the student's bytes), the kernel
// language's headers this program was built with, the compiler (its path,
// size and time) and its flags. A student's repeated check of the same text,
// `/api/compile` then `/api/run`, and `grade` run again on the same
// submissions then skip the compiler. The folder is bounded in bytes: past
// the bound the least recently used libraries leave first.
//
// Nothing in the folder is trusted for what it says: a library is used only
// under its own key, copied into the kernel's scratch folder, and loaded by
// the worker inside the same walls as a fresh one. The folder is made 0700;
// a folder that cannot be made or written leaves every compile uncached.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::own {

class CompileCache {
public:
    // The folder is made when missing. maxBytes: the libraries' bytes at most.
    CompileCache(std::filesystem::path folder, std::uintmax_t maxBytes);

    // The key of a library compiled from `translated` by `compiler` with
    // `flags`, against `headers` (path, text pairs).
    static std::string key(std::string_view translated, const std::string& compiler,
                           const std::vector<std::string>& flags,
                           const std::vector<std::pair<std::string_view, std::string_view>>& headers);

    // Copies the library kept under `key` to `target` and marks it used;
    // false when there is none (or the copy failed).
    bool fetch(const std::string& key, const std::filesystem::path& target) const;
    // Keeps a copy of `library` under `key` (written beside it, then renamed
    // into place: a reader never sees half of one), then removes the least
    // recently used until the folder is within its bound.
    void store(const std::string& key, const std::filesystem::path& library) const;

    const std::filesystem::path& folder() const { return m_folder; }
    std::uintmax_t maxBytes() const { return m_maxBytes; }
    bool usable() const { return m_usable; }
    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }

private:
    void trim() const;

    std::filesystem::path m_folder;
    std::uintmax_t m_maxBytes;
    bool m_usable = false;
    mutable std::atomic<std::uint64_t> m_hits{0}, m_misses{0};
};

// The cache of this user's compiles (`check`, `grade`, the app): 256 MB in
// $XDG_CACHE_HOME/tilescope/kernels (else ~/.cache/...), or none when
// $TILESCOPE_COMPILE_CACHE is "off" or neither variable is set.
std::shared_ptr<const CompileCache> userCompileCache();

}  // namespace tilescope::own
