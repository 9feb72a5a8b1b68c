#include "serve/limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace tilescope::serve {

namespace fs = std::filesystem;

bool sameToken(std::string_view given, std::string_view expected) {
    // Every byte of `expected` is compared whatever happens; a different
    // length makes the answer false without a shorter loop.
    unsigned char diff = given.size() == expected.size() ? 0 : 1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const unsigned char g = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
        diff |= static_cast<unsigned char>(g ^ static_cast<unsigned char>(expected[i]));
    }
    // Keep the compiler from ending the loop early.
    volatile unsigned char result = diff;
    return result == 0;
}

std::string textHash(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
    return buffer;
}

bool RateLimiter::take(const std::string& client, double* retryAfter) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    if (m_buckets.size() > 100'000) {
        // Forget the clients whose buckets are full again: they lose nothing.
        for (auto it = m_buckets.begin(); it != m_buckets.end();) {
            const double seconds = std::chrono::duration<double>(now - it->second.last).count();
            it = it->second.tokens + seconds * m_perSecond >= m_burst ? m_buckets.erase(it) : std::next(it);
        }
    }
    auto [it, fresh] = m_buckets.try_emplace(client, Bucket{m_burst, now});
    Bucket& b = it->second;
    if (!fresh) {
        const double seconds = std::chrono::duration<double>(now - b.last).count();
        b.tokens = std::min(m_burst, b.tokens + seconds * m_perSecond);
        b.last = now;
    }
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return true;
    }
    if (retryAfter)
        *retryAfter = (1.0 - b.tokens) / m_perSecond;
    return false;
}

StaticVerdict resolveStaticPath(const fs::path& root, std::string_view urlPath, fs::path& file) {
    if (urlPath.empty() || urlPath.front() != '/')
        return StaticVerdict::NotFound;
    if (urlPath.find('\0') != std::string_view::npos || urlPath.find('\\') != std::string_view::npos)
        return StaticVerdict::Forbidden;
    fs::path relative;
    std::size_t start = 1;
    while (start <= urlPath.size()) {
        std::size_t end = urlPath.find('/', start);
        if (end == std::string_view::npos)
            end = urlPath.size();
        const std::string_view part = urlPath.substr(start, end - start);
        if (part == "..")
            return StaticVerdict::Forbidden;
        if (!part.empty() && part != ".")
            relative /= std::string(part);
        start = end + 1;
    }
    std::error_code ec;
    fs::path candidate = root / relative;
    if (fs::is_directory(candidate, ec))
        candidate /= "index.html";
    // Links are followed here, then the real place must still be under the root.
    const fs::path real = fs::canonical(candidate, ec);
    if (ec)
        return StaticVerdict::NotFound;
    const std::string rootText = root.string();
    const std::string realText = real.string();
    if (realText.size() <= rootText.size() || realText.compare(0, rootText.size(), rootText) != 0 ||
        realText[rootText.size()] != '/')
        return StaticVerdict::Forbidden;
    if (!fs::is_regular_file(real, ec))
        return StaticVerdict::NotFound;
    file = real;
    return StaticVerdict::Found;
}

const char* contentType(const fs::path& file) {
    const std::string ext = file.extension().string();
    if (ext == ".html")
        return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs")
        return "text/javascript";
    if (ext == ".wasm")
        return "application/wasm";
    if (ext == ".css")
        return "text/css";
    if (ext == ".json")
        return "application/json";
    if (ext == ".png")
        return "image/png";
    if (ext == ".svg")
        return "image/svg+xml";
    if (ext == ".ico")
        return "image/x-icon";
    if (ext == ".txt" || ext == ".cu" || ext == ".md")
        return "text/plain; charset=utf-8";
    if (ext == ".data")
        return "application/octet-stream";
    return "application/octet-stream";
}

std::uint64_t estimatedEvents(int dims, std::uint64_t width, std::uint64_t height, int radius) {
    const std::uint64_t side = 2 * static_cast<std::uint64_t>(std::max(radius, 0)) + 1;
    const std::uint64_t taps = dims == 1 ? side : side * side;
    const std::uint64_t outputs = width * std::max<std::uint64_t>(height, 1);
    // Per output: a load of the input and of the mask and a multiply-add per
    // tap, then its store; per input element, a load into a tile and its store.
    return outputs * (3 * taps + 1) + 2 * outputs;
}

}  // namespace tilescope::serve
