// What keeps `tilescope serve` standing in front of a class: the token
// compared in constant time, a token bucket per client, the static files'
// confinement to the web folder, and the estimate of a request's events.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tilescope::serve {

// Whether `given` equals `expected`, in a time that depends on the length of
// `expected` only (never on where the two first differ).
bool sameToken(std::string_view given, std::string_view expected);

// FNV-1a of the text, as 16 hex digits: the kernel's name in the log.
std::string textHash(std::string_view text);

// A bucket per client: `burst` requests at once, then one every
// 1/perSecond seconds. Clients not seen for a while are forgotten.
class RateLimiter {
public:
    RateLimiter(double perSecond, double burst) : m_perSecond(perSecond), m_burst(burst) {}
    // Takes a token for `client`; false when its bucket is empty, and then
    // `retryAfter` says in how many seconds one is back.
    bool take(const std::string& client, double* retryAfter = nullptr);

private:
    struct Bucket {
        double tokens = 0.0;
        std::chrono::steady_clock::time_point last;
    };
    double m_perSecond, m_burst;
    std::mutex m_mutex;
    std::unordered_map<std::string, Bucket> m_buckets;
};

// The file under `root` (a canonical folder) that the URL path `urlPath`
// (already percent-decoded) names, or nothing when it names none: a path
// holding "..", a NUL or a backslash, or one that leads, through links or
// otherwise, outside `root`. A folder names its index.html.
enum class StaticVerdict { Found, NotFound, Forbidden };
StaticVerdict resolveStaticPath(const std::filesystem::path& root, std::string_view urlPath,
                                std::filesystem::path& file);
// The Content-Type of a file by its extension.
const char* contentType(const std::filesystem::path& file);

// The events a checked run of a kernel of `dims` dimensions records on a
// width x height input with a mask of radius `radius`, at most (each output
// loads its (2r+1)^dims inputs and mask values, multiplies and adds them and
// stores, with a tiled kernel's loads into shared memory on top): what the
// server compares with its event budget before it runs anything.
std::uint64_t estimatedEvents(int dims, std::uint64_t width, std::uint64_t height, int radius);

}  // namespace tilescope::serve
