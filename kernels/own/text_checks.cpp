#include "own/text_checks.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tilescope::own {

bool allowedHeader(const std::string& name) {
    for (const char* h : kAllowedHeaders)
        if (name == h) return true;
    return false;
}

// [SECTION] The file's text, read before the parser reads anything.
//
// An #include is followed by the parser as it reads: a file of the machine
// named there (`#include "/etc/passwd"`) would be read, its words echoed in
// the parser's errors, and `/dev/zero` or a named pipe read without end. So
// the preprocessor's directives are found in the text first, as the
// preprocessor finds them (comments, `\` line splices, `%:` for `#`), and
// any #include but the allowed headers' is refused with its line, naming
// only what the student wrote. The parser is then kept inside the stand-in
// headers as well (translateHere's file system overlay).

// A compiler's own names: builtins and intrinsics that read and write memory
// no trace sees (`__builtin_memcpy`, `__sync_fetch_and_add`, `__atomic_load_n`),
// and the preprocessor's ways to reach a file or a pragma from an expression.
// None is one of CUDA's documented functions (__syncthreads, __shfl_sync,
// __ldg, __fmul_rn, __expf keep their names).
namespace {

constexpr const char* kCompilerPrefixes[] = {
    "__builtin", "__sync_", "__atomic_", "__c11_atomic", "__opencl_atomic", "__hip_atomic", "__scoped_atomic",
    "__nvvm_",   "__arithmetic_fence",
};

}  // namespace

bool compilerName(const std::string& name) {
    for (const char* p : kCompilerPrefixes)
        if (name.rfind(p, 0) == 0) return true;
    return false;
}

std::string whyNotCompilerName(const std::string& name) {
    return name + ": a kernel file may call only CUDA's and C's documented functions; compiler builtins and "
                  "intrinsics reach memory that no trace sees";
}

// What #pragma may say: loop unrolling as CUDA code writes it, and the
// compilers' warnings switched off. Anything else (`#pragma clang __debug
// crash`, `#pragma GCC dependency "file"`, `#pragma clang module import`)
// is refused.
namespace {

bool allowedPragma(const std::string& words) {
    std::string first, second;
    std::size_t i = 0;
    auto word = [&](std::string& out) {
        while (i < words.size() && std::isspace(static_cast<unsigned char>(words[i]))) ++i;
        while (i < words.size() && (std::isalnum(static_cast<unsigned char>(words[i])) || words[i] == '_'))
            out += words[i++];
    };
    word(first);
    word(second);
    if (first == "unroll" || first == "nounroll" || first == "once" || first == "warning" || first == "message" ||
        first == "nv_diag_suppress" || first == "nv_diag_default" || first == "diag_suppress" ||
        first == "hd_warning_disable" || first == "nv_exec_check_disable")
        return true;
    return (first == "GCC" || first == "clang") && (second == "diagnostic" || second == "unroll" || second == "ivdep");
}

}  // namespace

std::optional<Diagnostic> refusedPreprocessing(const std::string& path, const std::string& text) {
    // Phase 2 first: `\` and a line break (spaces between them too, as Clang
    // accepts) join two lines. Each character keeps the line it was on.
    std::string s;
    std::vector<unsigned> lineOf;
    s.reserve(text.size());
    lineOf.reserve(text.size());
    unsigned line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') {
            std::size_t j = i + 1;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\f' || text[j] == '\v')) ++j;
            if (j < text.size() && (text[j] == '\n' || text[j] == '\r')) {
                if (text[j] == '\r' && j + 1 < text.size() && text[j + 1] == '\n') ++j;
                ++line;
                i = j;
                continue;
            }
        }
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;  // CR LF: the LF ends the line
        s += c == '\r' ? '\n' : c;
        lineOf.push_back(line);
        if (c == '\n' || c == '\r') ++line;
    }
    const std::size_t n = s.size();
    auto refuse = [&](std::size_t at, const std::string& why) {
        return Diagnostic{path, at < n ? lineOf[at] : line, 0, why};
    };
    auto identStart = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
    auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
    // Skips a comment at i; true if there was one. A line comment stops at its line break.
    auto comment = [&](std::size_t& i) {
        if (i + 1 >= n || s[i] != '/') return false;
        if (s[i + 1] == '/') {
            while (i < n && s[i] != '\n') ++i;
            return true;
        }
        if (s[i + 1] == '*') {
            const std::size_t end = s.find("*/", i + 2);
            i = end == std::string::npos ? n : end + 2;
            return true;
        }
        return false;
    };
    // Skips spaces and comments within the line.
    auto blank = [&](std::size_t& i) {
        for (;;) {
            while (i < n && s[i] != '\n' && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
            if (!comment(i)) return;
        }
    };
    auto name = [&](std::size_t& i) {
        std::string out;
        while (i < n && identChar(s[i])) out += s[i++];
        return out;
    };
    auto checkName = [&](const std::string& word, std::size_t at) -> std::optional<Diagnostic> {
        if (compilerName(word)) return refuse(at, whyNotCompilerName(word));
        if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed")
            return refuse(at, word + ": a kernel file may not look for files; it may include only CUDA's and C's "
                                     "own headers (cuda_runtime.h, stdio.h, math.h, ...)");
        if (word == "_Pragma")
            return refuse(at, "_Pragma is not supported in a kernel file: write #pragma unroll on a line of its own");
        return std::nullopt;
    };
    bool lineStart = true;
    for (std::size_t i = 0; i < n;) {
        const char c = s[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (const std::size_t from = i; comment(i)) {
            // A comment over several lines ends where the next line starts.
            if (s.find('\n', from) < i) lineStart = true;
            continue;
        }
        const bool hash = c == '#' || (c == '%' && i + 1 < n && s[i + 1] == ':') ||
                          (c == '?' && s.compare(i, 3, "?\?=") == 0);
        if (lineStart && hash) {
            const std::size_t at = i;
            i += c == '#' ? 1 : c == '%' ? 2 : 3;
            blank(i);
            const std::string directive = name(i);
            blank(i);
            const std::size_t restBegin = i;
            // The rest of the directive's line, comments as spaces.
            std::string rest;
            while (i < n && s[i] != '\n') {
                if (comment(i)) {
                    rest += ' ';
                    continue;
                }
                rest += s[i++];
            }
            if (directive == "include" || directive == "include_next" || directive == "import" ||
                directive == "embed") {
                std::string header;
                const std::string shown = rest.substr(0, rest.find_last_not_of(" \t\f\v") + 1);
                const bool named = shown.size() >= 2 &&
                                   ((shown.front() == '<' && shown.back() == '>') ||
                                    (shown.front() == '"' && shown.back() == '"')) &&
                                   shown.find_first_of("<>\"", 1) == shown.size() - 1;
                if (named) header = shown.substr(1, shown.size() - 2);
                if (directive != "include" || !named || !allowedHeader(header)) {
                    // What the student wrote, on one line; nothing of the file it names.
                    std::string what = named ? "<" + header + ">" : shown;
                    if (what.size() > 80) what = what.substr(0, 80) + "...";
                    for (char& ch : what)
                        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
                    return refuse(at, "#" + directive + " " + what + ": a kernel file may include only CUDA's and "
                                      "C's own headers (cuda_runtime.h, stdio.h, math.h, ...), by their names");
                }
            } else if (directive == "pragma" && !allowedPragma(rest)) {
                return refuse(at, "#pragma " + rest.substr(0, std::min<std::size_t>(rest.find_first_of(" \t("), 40)) +
                                      " is not supported in a kernel file (#pragma unroll is)");
            }
            // Names in the directive (`#if __has_include(...)`, a #define's body).
            for (std::size_t k = 0; k < rest.size();) {
                if (rest[k] == '"' || rest[k] == '\'') {
                    const char q = rest[k];
                    for (++k; k < rest.size() && rest[k] != q; ++k)
                        if (rest[k] == '\\') ++k;
                    ++k;
                } else if (identStart(rest[k]) && (k == 0 || !identChar(rest[k - 1]))) {
                    std::size_t e = k;
                    while (e < rest.size() && identChar(rest[e])) ++e;
                    if (auto d = checkName(rest.substr(k, e - k), restBegin)) return d;
                    k = e;
                } else {
                    ++k;
                }
            }
            continue;
        }
        lineStart = false;
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            // A number, its digit separators (1'000) and exponents included.
            for (++i; i < n; ++i) {
                if ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))
                    continue;
                if (s[i] == '\'' && i + 1 < n && identChar(s[i + 1])) continue;
                if (!identChar(s[i]) && s[i] != '.') break;
            }
            continue;
        }
        if (identStart(c)) {
            const std::size_t at = i;
            const std::string word = name(i);
            // A raw string: R"delim( ... )delim", with its prefixes.
            if (i < n && s[i] == '"' && !word.empty() && word.back() == 'R' &&
                (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
                const std::size_t open = s.find('(', i);
                if (open == std::string::npos) return std::nullopt;  // the parser says what is wrong
                const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
                const std::size_t end = s.find(close, open);
                i = end == std::string::npos ? n : end + close.size();
                continue;
            }
            if (auto d = checkName(word, at)) return d;
            continue;
        }
        if (c == '"' || c == '\'') {
            for (++i; i < n && s[i] != c && s[i] != '\n'; ++i)
                if (s[i] == '\\') ++i;
            ++i;
            continue;
        }
        ++i;
    }
    return std::nullopt;
}

}  // namespace tilescope::own
