#include "own/compile_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "base/sha256.hpp"

namespace tilescope::own {

namespace fs = std::filesystem;

namespace {

// A kept library's file name: its key (64 hex digits) and ".so".
bool keptName(const std::string& name) {
    if (name.size() != 64 + 3 || name.compare(64, 3, ".so") != 0) return false;
    return std::all_of(name.begin(), name.begin() + 64,
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A folder only this user may write: another user's, or one others may write
// into, could hold a library planted under a key.
bool ownPrivateFolder(const fs::path& folder) {
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    return st.st_uid == ::geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

}  // namespace

CompileCache::CompileCache(fs::path folder, std::uintmax_t maxBytes)
    : m_folder(std::move(folder)), m_maxBytes(maxBytes) {
    std::error_code ec;
    if (!fs::exists(m_folder, ec)) {
        fs::create_directories(m_folder, ec);
        if (!ec) ::chmod(m_folder.c_str(), 0700);
    }
    m_usable = !ec && ownPrivateFolder(m_folder) && ::access(m_folder.c_str(), W_OK) == 0;
}

std::string CompileCache::key(std::string_view translated, const std::string& compiler,
                              const std::vector<std::string>& flags,
                              const std::vector<std::pair<std::string_view, std::string_view>>& headers) {
    // Each part with its length first: no two different lists of parts make
    // the same bytes.
    std::string all;
    auto part = [&all](std::string_view p) {
        all += std::to_string(p.size());
        all += ':';
        all += p;
    };
    part("tilescope compile cache 1");
    part(translated);
    std::error_code ec;
    const fs::path real = fs::canonical(compiler, ec);
    part(ec ? compiler : real.string());
    struct stat st {};
    if (!ec && ::stat(real.c_str(), &st) == 0) {
        part(std::to_string(st.st_size));
        part(std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec));
    }
    for (const std::string& f : flags) part(f);
    for (const auto& [path, text] : headers) {
        part(path);
        part(text);
    }
    return base::sha256Hex(all);
}

bool CompileCache::fetch(const std::string& key, const fs::path& target) const {
    if (!m_usable || !keptName(key + ".so")) return false;
    const fs::path kept = m_folder / (key + ".so");
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(kept, ec);
    if (ec || !fs::is_regular_file(status)) {
        ++m_misses;
        return false;
    }
    if (!fs::copy_file(kept, target, fs::copy_options::overwrite_existing, ec) || ec) {
        ++m_misses;
        return false;
    }
    // Used now: the last to leave.
    fs::last_write_time(kept, fs::file_time_type::clock::now(), ec);
    ++m_hits;
    return true;
}

void CompileCache::store(const std::string& key, const fs::path& library) const {
    if (!m_usable || !keptName(key + ".so")) return;
    const fs::path kept = m_folder / (key + ".so");
    const fs::path part = m_folder / ("." + key + "." + std::to_string(::getpid()) + ".part");
    std::error_code ec;
    if (!fs::copy_file(library, part, fs::copy_options::overwrite_existing, ec) || ec) {
        fs::remove(part, ec);
        return;
    }
    fs::rename(part, kept, ec);
    if (ec) {
        fs::remove(part, ec);
        return;
    }
    trim();
}

void CompileCache::trim() const {
    struct Kept {
        fs::path path;
        fs::file_time_type used;
        std::uintmax_t bytes;
    };
    std::vector<Kept> kept;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(m_folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (!keptName(it->path().filename().string()) || !it->is_regular_file(ec)) continue;
        Kept k{it->path(), it->last_write_time(ec), it->file_size(ec)};
        if (ec) {
            ec.clear();
            continue;
        }
        total += k.bytes;
        kept.push_back(std::move(k));
    }
    if (total <= m_maxBytes) return;
    std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.used < b.used; });
    for (const Kept& k : kept) {
        if (total <= m_maxBytes) break;
        if (fs::remove(k.path, ec)) total -= k.bytes;
    }
}

std::shared_ptr<const CompileCache> userCompileCache() {
    static const std::shared_ptr<const CompileCache> cache = []() -> std::shared_ptr<const CompileCache> {
        const char* off = std::getenv("TILESCOPE_COMPILE_CACHE");
        if (off && std::string(off) == "off") return nullptr;
        const char* xdg = std::getenv("XDG_CACHE_HOME");
        const char* home = std::getenv("HOME");
        if ((!xdg || !*xdg) && (!home || !*home)) return nullptr;
        const fs::path folder = (xdg && *xdg ? fs::path(xdg) : fs::path(home) / ".cache") / "tilescope" / "kernels";
        auto c = std::make_shared<const CompileCache>(folder, std::uintmax_t{256} << 20);
        return c->usable() ? c : nullptr;
    }();
    return cache;
}

}  // namespace tilescope::own
