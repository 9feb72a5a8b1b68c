// Numbers to and from text without the locale, and a float's bits, on every
// standard library the project builds with. libstdc++ (the desktop) has all
// of C++17's <charconv> and C++20's std::bit_cast; the libc++ of Debian's
// Emscripten (the browser build) has neither floating-point <charconv> nor
// bit_cast, and there these fall back to snprintf/strtod (the browser's C
// library has only the "C" locale, so the decimal point is always '.') and
// memcpy.
#pragma once

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#if defined(__cpp_lib_bit_cast) || __has_include(<bit>)
#include <bit>
#endif

namespace tilescope {

template <class To, class From>
To bitCast(const From& from) {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<To>(from);
#else
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
#endif
}

// What the browser build uses where the standard library lacks them
// (compiled everywhere, so that the desktop's tests compare them with the
// standard library's).
namespace portable {

inline std::string shortestDecimal(float f) {
    char buffer[64];
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(f));
        if (std::strtof(buffer, nullptr) == f)
            break;
    }
    return buffer;
}

inline std::errc parseDouble(std::string_view text, double& value, std::size_t& used) {
    used = 0;
    // strtod would also take leading spaces, a '+' and hexadecimal; from_chars
    // takes none of them, and reads "0x10" as 0 followed by other text.
    if (text.empty() || text.front() == '+' || std::isspace(static_cast<unsigned char>(text.front())) ||
        text.size() > 400)
        return std::errc::invalid_argument;
    const std::string copy(text.substr(0, text.find_first_of("xX")));
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(copy.c_str(), &end);
    used = static_cast<std::size_t>(end - copy.c_str());
    if (used == 0)
        return std::errc::invalid_argument;
    if (errno == ERANGE)  // too large, or too small to be told from 0: from_chars says out of range for both
        return std::errc::result_out_of_range;
    value = parsed;
    return std::errc();
}

}  // namespace portable

// The shortest decimal text that reads back as `f` (std::to_chars's promise).
inline std::string shortestDecimal(float f) {
#if defined(__cpp_lib_to_chars)
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f);
    if (ec == std::errc())
        return std::string(buffer, end);
#endif
    return portable::shortestDecimal(f);
}

// Reads the whole of `text` as a double, as std::from_chars does (no sign
// other than '-', no leading spaces). Returns std::errc() on success,
// result_out_of_range for a finite value too large, invalid_argument
// otherwise; `used` is how many characters made up the number.
inline std::errc parseDouble(std::string_view text, double& value, std::size_t& used) {
#if defined(__cpp_lib_to_chars)
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    used = static_cast<std::size_t>(end - text.data());
    return ec;
#else
    return portable::parseDouble(text, value, used);
#endif
}

}  // namespace tilescope
