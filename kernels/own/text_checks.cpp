#include "own/text_checks.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string_view>

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
//
// The same reading bounds what the parser is given. libclang's parse
// recurses once per bracket and per prefix operator (1 MB of `!` overflowed
// its stack) and expands macros without limit (a 2 KB file of #defines grew
// it to gigabytes): brackets nest at most 256 deep, at most 256 prefix
// operators stand in a row, and the macros' expansion is estimated from
// their definitions and bounded, before the parser starts.

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

template <std::size_t K>
bool listed(std::string_view name, const char* const (&list)[K]) {
    for (const char* n : list)
        if (name == n) return true;
    return false;
}

template <std::size_t K>
bool startsWithOne(std::string_view name, const char* const (&list)[K]) {
    for (const char* p : list)
        if (name.rfind(p, 0) == 0) return true;
    return false;
}

}  // namespace

bool compilerName(const std::string& name) { return startsWithOne(name, kCompilerPrefixes); }

std::string whyNotCompilerName(const std::string& name) {
    return name + ": a kernel file may call only CUDA's and C's documented functions; compiler builtins and "
                  "intrinsics reach memory that no trace sees";
}

// [SECTION] Names: the compilers', CUDA's, the prelude's and the translation's.
//
// Each compiler that reads the file (libclang here, g++ for the CPU
// executor, NVRTC on a GPU) predefines macros of its own (`__clang__`,
// `__GNUC__`, `__CUDA_ARCH__`, `__cplusplus` of different values), all of
// them reserved names: `__` and anything, or `_` and a capital. A file that
// tests them is a different program for each compiler, and only the
// parser's is checked. So a kernel file writes none, except CUDA's own
// keywords and functions, which are reserved names too.
namespace {

// CUDA's keywords of the form __x__, and the GNU spellings that TileScope's
// allowlist names (it refuses asm and attributes outside its short list,
// with its own words).
constexpr const char* kCudaReservedKeywords[] = {
    "__global__",   "__device__",  "__host__",       "__shared__",    "__constant__", "__managed__",
    "__restrict__", "__launch_bounds__", "__align__", "__forceinline__", "__noinline__", "__inline__",
    "__attribute__", "__asm__",    "__volatile__",
};

// The predefined macros of the form __x... (lower case) that no CUDA name
// starts with: the language's version and features, the compiler, the
// machine and the system.
constexpr const char* kCompilerLowerPrefixes[] = {
    "__cplusplus", "__cpp_", "__clang", "__gnu", "__linux", "__unix", "__x86", "__amd64", "__k8", "__i386", "__i486",
    "__i586", "__i686", "__aarch64", "__arm", "__ppc", "__powerpc", "__riscv", "__seg_", "__llvm", "__nvcc",
    "__cuda", "__nv_", "__has_", "__is_", "__pic", "__pie", "__code_model", "__tune", "__private_extern",
    "__elf", "__apple", "__mingw", "__windows", "__wasm", "__emscripten",
};

bool reservedName(std::string_view name) {
    return name.size() >= 2 && name[0] == '_' &&
           (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1])));
}

}  // namespace

bool compilersOwnName(const std::string& name) {
    if (!reservedName(name)) return false;
    if (name == "__LINE__" || name == "__FILE__" || name == "__func__") return false;
    if (name[1] != '_') return true;  // _Bool, _Static_assert, _GLIBCXX_...
    if (name.size() < 3 || !std::islower(static_cast<unsigned char>(name[2]))) return true;  // __GNUC__, __STDC__
    if (name.size() >= 5 && name.compare(name.size() - 2, 2, "__") == 0) return !listed(name, kCudaReservedKeywords);
    // CUDA's functions (__syncthreads, __expf, __fdividef, __shfl_sync) are of this form.
    return startsWithOne(name, kCompilerLowerPrefixes);
}

std::string whyNotCompilersOwnName(const std::string& name) {
    return name + " is one of the compilers' own names: a kernel file is compiled the same way by every compiler "
                  "that runs it (the parser, g++, NVRTC), so it may not use them; remove the #if and keep the code "
                  "all of them should compile";
}

namespace {

// C++'s keywords, and the identifiers with a special meaning.
constexpr const char* kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "defined", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "final", "float", "for",
    "friend", "goto", "if", "import", "inline", "int", "long", "module", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "override", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};

// CUDA's built-in variables and types.
constexpr const char* kCudaNames[] = {
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "uint3", "int3", "float2", "float3",
    "float4", "int2", "int4", "uint2", "uint4",
};

// What the parser's prelude and the CPU executor's declare for a kernel
// file (translate.cpp's kParsePrelude, own_cpu_prelude.hpp): a macro of the
// file's with one of these names would be one thing to the parser and
// another to the compilers, which declare them in other places.
constexpr const char* kPreludeNames[] = {
    "size_t", "NULL", "printf", "min", "max", "abs", "ceil", "ceilf", "floor", "floorf", "sqrt", "sqrtf", "exp",
    "expf", "fabs", "fabsf", "round", "roundf", "log", "logf", "sin", "sinf", "cos", "cosf", "trunc", "truncf",
    "fmin", "fmax", "fminf", "fmaxf", "pow", "powf", "malloc", "free",
    "cudaStream_t", "cudaEvent_t", "cudaError_t", "cudaSuccess", "cudaMemcpyKind", "cudaMemcpyHostToHost",
    "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault",
    "cudaConfigureCall", "cudaMemcpyToSymbol", "cudaDeviceSynchronize", "cudaEventCreate", "cudaEventRecord",
    "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy", "cudaGetLastError", "cudaPeekAtLastError",
    "cudaGetErrorString", "cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaFree", "cudaMemcpy",
    "cudaMemcpyAsync", "cudaMemset", "CUstream_st", "CUevent_st",
    "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
    "atomicAnd", "atomicOr", "atomicXor",
};

// What the translation writes into the file's text (translate.cpp's edits,
// the preludes' macros, the entry points after it): the kernel language's
// types and functions and the namespaces they live in. Besides these, any
// name of TileScope's own form: ts and a capital or `_` (tsAddTo,
// tsSharedAt), Ts and a capital (TsEvent), TS_ (TS_FN), tilescope....
constexpr const char* kTranslationNames[] = {
    "Global", "SharedArray", "SharedArray2D", "SharedSlice", "ConstantArray", "ElementRef", "Accumulator",
    "InputArray", "OutputArray", "Recorder", "CpuRecorder", "DeviceRecorder", "Dim3", "Launcher", "ArgOf",
    "convertArg", "convertAll", "launchKernel", "runtime", "own", "own_user", "cpu", "traced", "instrumented",
    "syncthreads", "g_trace", "std", "Op", "kArrayNone", "values", "Index", "IfNumber", "Addend",
};

bool translationName(std::string_view name) {
    auto capitalOr_ = [&](std::size_t at) {
        return name.size() > at && (std::isupper(static_cast<unsigned char>(name[at])) || name[at] == '_');
    };
    if (name.rfind("ts", 0) == 0 && capitalOr_(2)) return true;
    if (name.rfind("Ts", 0) == 0 && name.size() > 2 && std::isupper(static_cast<unsigned char>(name[2]))) return true;
    if (name.rfind("TS_", 0) == 0) return true;
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.rfind("tilescope", 0) == 0 || listed(name, kTranslationNames);
}

}  // namespace

std::string whyNotMacroName(const std::string& name, const std::string& directive) {
    const std::string tail = ": a kernel file may not #" + directive + " it";
    if (reservedName(name)) return name + " is a name reserved for the compilers and CUDA" + tail;
    if (listed(name, kKeywords)) return name + " is a C++ keyword" + tail;
    if (listed(name, kCudaNames)) return name + " is one of CUDA's own names" + tail;
    if (listed(name, kPreludeNames)) return name + " is a name CUDA and C declare for the kernel file" + tail;
    if (translationName(name)) return name + " is a name TileScope's translation uses" + tail;
    return "";
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

// The directives a kernel file may hold. #line is not one: it would make
// the lines the trace and the messages name other than the file's own.
bool allowedDirective(const std::string& directive) {
    for (const char* d : {"", "define", "undef", "include", "pragma", "if", "ifdef", "ifndef", "elif", "elifdef",
                          "elifndef", "else", "endif", "error", "warning"})
        if (directive == d) return true;
    return false;
}

bool conditional(const std::string& directive) {
    for (const char* d : {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"})
        if (directive == d) return true;
    return false;
}

// [SECTION] The text as the preprocessor reads it.

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Phase 2: `\` and a line break (spaces between them too, as Clang accepts)
// join two lines. Each character keeps its line, and where it was.
struct Logical {
    std::string s;
    std::vector<unsigned> lineOf;
    std::vector<std::size_t> offsetOf;
    unsigned lastLine = 1;
};

Logical splice(const std::string& text) {
    Logical l;
    l.s.reserve(text.size());
    l.lineOf.reserve(text.size());
    l.offsetOf.reserve(text.size());
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
        l.s += c == '\r' ? '\n' : c;
        l.lineOf.push_back(line);
        l.offsetOf.push_back(i);
        if (c == '\n' || c == '\r') ++line;
    }
    l.lastLine = line;
    return l;
}

// Punctuators, longest first; `<::` is `<` then `::` (C++11).
std::size_t punctuatorLength(std::string_view s, std::size_t i) {
    static constexpr const char* kLong[] = {
        "%:%:", "...", "<<=", ">>=", "->*", "<=>", "##", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
        "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "<:", ":>", "<%", "%>", "%:",
    };
    for (const char* p : kLong) {
        const std::string_view t(p);
        if (s.compare(i, t.size(), t) != 0) continue;
        if (t == "<:" && s.compare(i, 3, "<::") == 0 && (i + 3 >= s.size() || (s[i + 3] != ':' && s[i + 3] != '>')))
            return 1;
        return t.size();
    }
    return 1;
}

enum class TokenKind { Identifier, Number, Literal, Punctuator };

// The end of a pp-number that starts at i: digits, letters, `.`, digit
// separators (1'000) and signed exponents (1e-5, 0x1p+3).
std::size_t numberEnd(std::string_view s, std::size_t i) {
    for (++i; i < s.size(); ++i) {
        if ((s[i] == '+' || s[i] == '-') &&
            (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))
            continue;
        if (s[i] == '\'' && i + 1 < s.size() && identChar(s[i + 1])) continue;
        if (!identChar(s[i]) && s[i] != '.') break;
    }
    return i;
}

bool numberStart(std::string_view s, std::size_t i) {
    return std::isdigit(static_cast<unsigned char>(s[i])) ||
           (s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])));
}

// The tokens of a directive's text (comments already spaces).
std::vector<std::string> ppTokens(std::string_view s) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (numberStart(s, i)) {
            const std::size_t e = numberEnd(s, i);
            out.emplace_back(s.substr(i, e - i));
            i = e;
        } else if (identStart(c)) {
            std::size_t e = i;
            while (e < s.size() && identChar(s[e])) ++e;
            out.emplace_back(s.substr(i, e - i));
            i = e;
        } else if (c == '"' || c == '\'') {
            std::size_t e = i + 1;
            for (; e < s.size() && s[e] != c; ++e)
                if (s[e] == '\\') ++e;
            e = std::min(e + 1, s.size());
            out.emplace_back(s.substr(i, e - i));
            i = e;
        } else {
            const std::size_t len = punctuatorLength(s, i);
            out.emplace_back(s.substr(i, len));
            i += len;
        }
    }
    return out;
}

// Walks the logical text as the preprocessor does: each directive, with
// the rest of its line (comments as spaces), and each token of the code
// between them. A callback's diagnostic ends the walk.
class Scanner {
public:
    struct Directive {
        std::size_t at = 0;         // its `#`
        std::string name;           // include, define, ...; digits for `# 12 "file"`
        std::size_t restBegin = 0;  // where what follows the name starts
        std::string rest;           // what follows the name, comments as spaces
        std::size_t end = 0;        // its line break, or the text's end
    };
    using OnDirective = std::function<std::optional<Diagnostic>(const Directive&)>;
    using OnToken = std::function<std::optional<Diagnostic>(TokenKind, std::size_t begin, std::size_t end)>;

    explicit Scanner(const std::string& s) : m_s(s), m_n(s.size()) {}

    std::optional<Diagnostic> walk(const OnDirective& directive, const OnToken& token) {
        bool lineStart = true;
        for (std::size_t i = 0; i < m_n;) {
            const char c = m_s[i];
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
                if (std::string_view(m_s).substr(from, i - from).find('\n') != std::string_view::npos)
                    lineStart = true;
                continue;
            }
            const bool hash = c == '#' || (c == '%' && i + 1 < m_n && m_s[i + 1] == ':') ||
                              (c == '?' && m_s.compare(i, 3, "?\?=") == 0);
            if (lineStart && hash) {
                Directive d;
                d.at = i;
                i += c == '#' ? 1 : c == '%' ? 2 : 3;
                blank(i);
                d.name = name(i);
                blank(i);
                d.restBegin = i;
                while (i < m_n && m_s[i] != '\n') {
                    if (comment(i)) {
                        d.rest += ' ';
                        continue;
                    }
                    d.rest += m_s[i++];
                }
                d.end = i;
                if (auto refused = directive(d)) return refused;
                continue;
            }
            lineStart = false;
            const std::size_t at = i;
            if (numberStart(m_s, i)) {
                i = numberEnd(m_s, i);
                if (auto refused = token(TokenKind::Number, at, i)) return refused;
                continue;
            }
            if (identStart(c)) {
                const std::string word = name(i);
                // A raw string: R"delim( ... )delim", with its prefixes; a
                // delimiter is at most 16 characters. Without one, the parser
                // says what is wrong, and the text after it is read on.
                if (i < m_n && m_s[i] == '"' && !word.empty() && word.back() == 'R' &&
                    (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
                    std::size_t open = i + 1;
                    while (open < m_n && open - i <= 17 && std::string_view(" ()\\\t\v\f\n\"").find(m_s[open]) ==
                                                                std::string_view::npos)
                        ++open;
                    if (open < m_n && m_s[open] == '(') {
                        const std::string close = ")" + m_s.substr(i + 1, open - i - 1) + "\"";
                        const std::size_t end = m_s.find(close, open);
                        i = end == std::string::npos ? m_n : end + close.size();
                        if (auto refused = token(TokenKind::Literal, at, i)) return refused;
                        continue;
                    }
                }
                if (auto refused = token(TokenKind::Identifier, at, i)) return refused;
                continue;
            }
            if (c == '"' || c == '\'') {
                // To its closing quote; one left open ends with its line, the line break not in it.
                for (++i; i < m_n && m_s[i] != c && m_s[i] != '\n'; ++i)
                    if (m_s[i] == '\\') ++i;
                if (i < m_n && m_s[i] == c) ++i;
                if (auto refused = token(TokenKind::Literal, at, i)) return refused;
                continue;
            }
            i += punctuatorLength(m_s, i);
            if (auto refused = token(TokenKind::Punctuator, at, i)) return refused;
        }
        return std::nullopt;
    }

private:
    // Skips a comment at i; true if there was one. A line comment stops at its line break.
    bool comment(std::size_t& i) const {
        if (i + 1 >= m_n || m_s[i] != '/') return false;
        if (m_s[i + 1] == '/') {
            while (i < m_n && m_s[i] != '\n') ++i;
            return true;
        }
        if (m_s[i + 1] == '*') {
            const std::size_t end = m_s.find("*/", i + 2);
            i = end == std::string::npos ? m_n : end + 2;
            return true;
        }
        return false;
    }
    // Skips spaces and comments within the line.
    void blank(std::size_t& i) const {
        for (;;) {
            while (i < m_n && m_s[i] != '\n' && std::isspace(static_cast<unsigned char>(m_s[i]))) ++i;
            if (!comment(i)) return;
        }
    }
    std::string name(std::size_t& i) const {
        const std::size_t from = i;
        while (i < m_n && identChar(m_s[i])) ++i;
        return m_s.substr(from, i - from);
    }

    const std::string& m_s;
    const std::size_t m_n;
};

// [SECTION] How large the macros could expand.
//
// The estimate of a token sequence is c + m * a: c tokens, and m copies of
// the largest argument of the macro whose body it is. An object-like macro
// costs what its body does; a function-like macro's call costs its body with
// each parameter's uses multiplied by the argument's size; a macro being
// expanded is one token where it meets itself again (the preprocessor
// stops there too). What a macro can make that this does not follow (a
// parameter called as a function-like macro, a macro whose expansion ends
// in one's name and is followed by brackets) is taken at the largest
// function-like macro of the file.

struct MacroDefinition {
    std::string name;
    bool function = false;
    std::vector<std::string> params;
    std::vector<std::string> body;
    unsigned line = 0;
};

struct Size {
    double c = 0, m = 0;
};

constexpr double kSaturated = 1e18;

double saturate(double v) { return v > kSaturated ? kSaturated : v; }
Size plus(Size a, Size b) { return Size{saturate(a.c + b.c), saturate(a.m + b.m)}; }
Size larger(Size a, Size b) { return Size{std::max(a.c, b.c), std::max(a.m, b.m)}; }
// A function-like macro of size f called with arguments of size a.
Size apply(Size f, Size a) { return Size{saturate(f.c + saturate(f.m * a.c)), saturate(f.m * a.m)}; }

using Tokens = std::vector<std::string_view>;

// For each `(`, the index of its `)` (the end when it has none).
std::vector<std::size_t> matchingParens(const Tokens& t) {
    std::vector<std::size_t> match(t.size(), t.size()), open;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == "(") open.push_back(i);
        if (t[i] == ")" && !open.empty()) {
            match[open.back()] = i;
            open.pop_back();
        }
    }
    return match;
}

class ExpansionEstimate {
public:
    explicit ExpansionEstimate(const std::vector<MacroDefinition>& macros) : m_macros(macros) {
        for (std::size_t k = 0; k < macros.size(); ++k) {
            m_byName[macros[k].name].push_back(k);
            Tokens body(macros[k].body.begin(), macros[k].body.end());
            m_match.push_back(matchingParens(body));
            m_bodies.push_back(std::move(body));
        }
    }

    // One definition, its arguments a token each.
    double ofDefinition(std::size_t k) {
        const MacroDefinition& d = m_macros[k];
        m_expanding.insert(d.name);
        const Size s = sequence(m_bodies[k], m_match[k], 0, m_bodies[k].size(), &d);
        m_expanding.erase(d.name);
        return saturate(s.c + s.m);
    }

    // The token at i, and what it takes with it (a call's arguments); `next` is the token after.
    Size unit(const Tokens& t, const std::vector<std::size_t>& match, std::size_t i, std::size_t end,
              const MacroDefinition* inside, std::size_t& next) {
        const std::string_view w = t[i];
        next = i + 1;
        const bool called = next < end && t[next] == "(";
        if (inside && std::find(inside->params.begin(), inside->params.end(), w) != inside->params.end()) {
            if (i > 0 && (t[i - 1] == "#" || t[i - 1] == "%:")) return Size{1, 0};  // made a string
            Size s{0, 1};
            if (called) s = plus(s, apply(worstFunction(), arguments(t, match, next, end, inside, next)));
            return s;
        }
        if (w.empty() || !identStart(w[0])) return Size{1, 0};
        const auto found = m_byName.find(std::string(w));
        if (found == m_byName.end() || m_expanding.count(found->first)) return Size{1, 0};
        const bool function = called && ofName(found->first, true);
        Size s;
        if (function) {
            s = apply(*ofName(found->first, true), arguments(t, match, next, end, inside, next));
        } else {
            const std::optional<Size> object = ofName(found->first, false);
            if (!object) return Size{1, 0};  // a function-like macro's name alone
            s = *object;
        }
        // What ends in a function-like macro's name calls it with the brackets that follow (G(a)(b)).
        if (endsInFunction(found->first, function))
            while (next < end && t[next] == "(")
                s = plus(s, apply(worstFunction(), arguments(t, match, next, end, inside, next)));
        return s;
    }

    Size sequence(const Tokens& t, const std::vector<std::size_t>& match, std::size_t begin, std::size_t end,
                  const MacroDefinition* inside) {
        Size total;
        for (std::size_t i = begin, next = begin; i < end; i = next)
            total = plus(total, unit(t, match, i, end, inside, next));
        return total;
    }

private:
    // The largest argument of the call whose `(` is at `open`; `next` is the token after its `)`.
    Size arguments(const Tokens& t, const std::vector<std::size_t>& match, std::size_t open, std::size_t end,
                   const MacroDefinition* inside, std::size_t& next) {
        const std::size_t close = std::min(match[open], end);
        Size largest;
        std::size_t from = open + 1;
        for (std::size_t k = open + 1; k <= close; ++k) {
            if (k < close && t[k] == "(") {
                k = std::min(match[k], close) - (match[k] >= close ? 1 : 0);
                continue;
            }
            if (k == close || t[k] == ",") {
                largest = larger(largest, sequence(t, match, from, k, inside));
                from = k + 1;
            }
        }
        next = std::min(close + 1, end);
        return largest;
    }

    // The largest of a name's definitions of one kind, or nothing when it has none of that kind.
    std::optional<Size> ofName(const std::string& name, bool function) {
        const std::string key = (function ? "(" : "") + name;
        if (const auto memo = m_memo.find(key); memo != m_memo.end()) return memo->second;
        std::optional<Size> s;
        m_expanding.insert(name);
        for (std::size_t k : m_byName[name]) {
            if (m_macros[k].function != function) continue;
            const Size one = sequence(m_bodies[k], m_match[k], 0, m_bodies[k].size(), &m_macros[k]);
            s = s ? larger(*s, one) : one;
        }
        m_expanding.erase(name);
        m_memo[key] = s;
        return s;
    }

    bool endsInFunction(const std::string& name, bool function) {
        for (std::size_t k : m_byName[name]) {
            const MacroDefinition& d = m_macros[k];
            if (d.function != function || d.body.empty()) continue;
            const auto last = m_byName.find(d.body.back());
            if (last == m_byName.end()) continue;
            for (std::size_t j : last->second)
                if (m_macros[j].function) return true;
        }
        return false;
    }

    Size worstFunction() {
        if (m_worst) return *m_worst;
        if (m_findingWorst) return Size{1, 1};
        m_findingWorst = true;
        Size worst{1, 1};
        for (const auto& [name, definitions] : m_byName)
            if (!m_expanding.count(name))
                if (const std::optional<Size> s = ofName(name, true)) worst = larger(worst, *s);
        m_findingWorst = false;
        m_worst = worst;
        return worst;
    }

    const std::vector<MacroDefinition>& m_macros;
    std::vector<Tokens> m_bodies;
    std::vector<std::vector<std::size_t>> m_match;
    std::map<std::string, std::vector<std::size_t>> m_byName;
    std::map<std::string, std::optional<Size>> m_memo;
    std::set<std::string> m_expanding;
    std::optional<Size> m_worst;
    bool m_findingWorst = false;
};

// A #define's name, parameters and body, read from what follows `#define`.
MacroDefinition readDefinition(const std::string& rest, unsigned line) {
    MacroDefinition d;
    d.line = line;
    std::size_t k = 0;
    while (k < rest.size() && identChar(rest[k])) d.name += rest[k++];
    if (k < rest.size() && rest[k] == '(') {
        d.function = true;
        const std::size_t close = rest.find(')', k);
        for (const std::string& p : ppTokens(std::string_view(rest).substr(k + 1, close == std::string::npos
                                                                                     ? std::string::npos
                                                                                     : close - k - 1)))
            if (p == "...") d.params.push_back("__VA_ARGS__");
            else if (p != ",") d.params.push_back(p);
        k = close == std::string::npos ? rest.size() : close + 1;
    }
    d.body = ppTokens(std::string_view(rest).substr(k));
    return d;
}

bool opening(std::string_view p) { return p == "(" || p == "[" || p == "{" || p == "<:" || p == "<%"; }
bool closing(std::string_view p) { return p == ")" || p == "]" || p == "}" || p == ":>" || p == "%>"; }
bool prefixOperator(std::string_view p) {
    return p == "!" || p == "~" || p == "-" || p == "+" || p == "*" || p == "&" || p == "++" || p == "--" ||
           p == "&&";
}

std::string nestingMessage() {
    return "expressions nest deeper than " + std::to_string(kMaxTextNesting) +
           " here: split it into named variables";
}

std::string about(double tokens) { return std::to_string(static_cast<long long>(tokens)); }

}  // namespace

std::optional<Diagnostic> refusedPreprocessing(const std::string& path, const std::string& text) {
    if (text.size() > kMaxFileBytes) return Diagnostic{path, 0, 0, "is over 1 MB; a kernel file is a page or two"};
    {
        const auto breaks = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
        const std::size_t lines = breaks + (text.empty() || text.back() == '\n' ? 0 : 1);
        if (lines > kMaxFileLines)
            return Diagnostic{path, kMaxFileLines + 1, 0,
                              "the file is longer than " + std::to_string(kMaxFileLines) +
                                  " lines, the most TileScope's trace can name; a kernel file is a page or two"};
    }
    // A `\` that ends the last line would join it to whatever a compiler
    // reads after the file (the translation's own lines): another program.
    if (const std::size_t last = text.find_last_not_of(" \t\f\v\r\n");
        last != std::string::npos && text[last] == '\\') {
        const std::string_view before = std::string_view(text).substr(0, last);
        return Diagnostic{path, static_cast<unsigned>(std::count(before.begin(), before.end(), '\n') + 1), 0,
                          "the file's last line ends in \\, which would join it to the line after the file: "
                          "remove the \\"};
    }
    const Logical logical = splice(text);
    const std::string& s = logical.s;
    const std::size_t n = s.size();
    auto refuse = [&](std::size_t at, const std::string& why) {
        return Diagnostic{path, at < n ? logical.lineOf[at] : logical.lastLine, 0, why};
    };
    auto checkName = [&](const std::string& word, std::size_t at) -> std::optional<Diagnostic> {
        if (compilerName(word)) return refuse(at, whyNotCompilerName(word));
        if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed")
            return refuse(at, word + ": a kernel file may not look for files; it may include only CUDA's and C's "
                                     "own headers (cuda_runtime.h, stdio.h, math.h, ...)");
        if (word == "_Pragma")
            return refuse(at, "_Pragma is not supported in a kernel file: write #pragma unroll on a line of its own");
        if (compilersOwnName(word)) return refuse(at, whyNotCompilersOwnName(word));
        return std::nullopt;
    };

    // nvcc declares the fixed-width integers (uint32_t, int64_t, ...) only
    // through <cstdint>, <stdint.h> or <cuda.h>: without one of them, the
    // first use is its error "identifier "uint32_t" is undefined". A file that
    // declares the name itself (typedef, using, #define) needs none.
    bool fixedWidthDeclared = false;
    const auto ownDeclaration = [&](const std::string& name) {
        const std::regex own("(\\btypedef\\b[^;]*\\b" + name + "\\s*;)|(\\busing\\s+" + name +
                             "\\s*=)|(#\\s*define\\s+" + name + "\\b)");
        return std::regex_search(s, own);
    };

    std::vector<MacroDefinition> macros;
    std::set<std::string> defined;
    Tokens code;                    // the code's tokens, for the estimate
    std::vector<std::size_t> where;  // and where each one is
    int depth = 0, prefixes = 0;

    Scanner scanner(s);
    auto onDirective = [&](const Scanner::Directive& d) -> std::optional<Diagnostic> {
        const std::string& directive = d.name;
        const std::string& rest = d.rest;
        const std::size_t at = d.at;
        if (directive == "include" || directive == "include_next" || directive == "import" || directive == "embed") {
            std::string header;
            const std::string shown = rest.substr(0, rest.find_last_not_of(" \t\f\v") + 1);
            const bool named = shown.size() >= 2 &&
                               ((shown.front() == '<' && shown.back() == '>') ||
                                (shown.front() == '"' && shown.back() == '"')) &&
                               shown.find_first_of("<>\"", 1) == shown.size() - 1;
            if (named) header = shown.substr(1, shown.size() - 2);
            if (header == "stdint.h" || header == "cstdint" || header == "cuda.h") fixedWidthDeclared = true;
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
        } else if (directive == "line" ||
                   (!directive.empty() && std::isdigit(static_cast<unsigned char>(directive[0])))) {
            return refuse(at, "#" + directive.substr(0, 20) + " is not supported in a kernel file: the lines " +
                                  "TileScope names, in the trace and in every message, are the file's own");
        } else if (!allowedDirective(directive) ||
                   (directive.empty() && rest.find_first_not_of(" \t\f\v") != std::string::npos)) {
            std::string what = directive.empty() ? rest.substr(0, 20) : directive.substr(0, 40);
            for (char& ch : what)
                if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
            return refuse(at, "#" + what + " is not supported in a kernel file: it may use #define, #undef, #if, "
                                           "#ifdef, #ifndef, #elif, #else, #endif, #include of CUDA's and C's "
                                           "headers, #pragma unroll, #error and #warning");
        }
        if (directive == "define" || directive == "undef") {
            std::size_t k = 0;
            std::string macro;
            while (k < rest.size() && identChar(rest[k])) macro += rest[k++];
            if (!macro.empty()) {  // without a name, the parser says what is wrong
                if (const std::string why = whyNotMacroName(macro, directive); !why.empty()) return refuse(at, why);
                if (directive == "undef" && !defined.count(macro))
                    return refuse(at, "#undef " + macro + ": the file has no #define " + macro +
                                          " before this line; a kernel file may #undef only its own macros");
                if (directive == "define") {
                    defined.insert(macro);
                    macros.push_back(readDefinition(rest, logical.lineOf[at]));
                    int bodyDepth = 0, bodyPrefixes = 0;
                    for (const std::string& t : macros.back().body) {
                        bodyDepth = opening(t) ? bodyDepth + 1 : closing(t) ? std::max(0, bodyDepth - 1) : bodyDepth;
                        bodyPrefixes = prefixOperator(t) ? bodyPrefixes + 1 : 0;
                        if (bodyDepth > kMaxTextNesting || bodyPrefixes > kMaxTextNesting)
                            return refuse(at, nestingMessage());
                    }
                }
            }
        }
        // Names in the directive (`#if __has_include(...)`, `#if __clang__`, a #define's body).
        for (std::size_t k = 0; k < rest.size();) {
            if (rest[k] == '"' || rest[k] == '\'') {
                const char q = rest[k];
                for (++k; k < rest.size() && rest[k] != q; ++k)
                    if (rest[k] == '\\') ++k;
                ++k;
            } else if (identStart(rest[k]) && (k == 0 || !identChar(rest[k - 1]))) {
                std::size_t e = k;
                while (e < rest.size() && identChar(rest[e])) ++e;
                const std::string word = rest.substr(k, e - k);
                const bool variadic = directive == "define" && (word == "__VA_ARGS__" || word == "__VA_OPT__");
                if (!variadic)
                    if (auto refused = checkName(word, d.restBegin)) return refused;
                k = e;
            } else {
                ++k;
            }
        }
        return std::nullopt;
    };
    auto onToken = [&](TokenKind kind, std::size_t begin, std::size_t end) -> std::optional<Diagnostic> {
        const std::string_view t = std::string_view(s).substr(begin, end - begin);
        if (kind == TokenKind::Identifier) {
            if (auto refused = checkName(std::string(t), begin)) return refused;
            static const std::regex fixedWidth("u?int((_least|_fast)?(8|16|32|64)|ptr|max)_t");
            if (!fixedWidthDeclared && std::regex_match(t.begin(), t.end(), fixedWidth) &&
                !ownDeclaration(std::string(t))) {
                const std::string name(t);
                return refuse(begin, name + " is not declared: nvcc declares the fixed-width integers only through "
                                            "<cstdint>, <stdint.h> or <cuda.h> (without one: identifier \"" +
                                            name + "\" is undefined); add #include <cstdint> before its first use");
            }
        }
        if (kind == TokenKind::Punctuator) {
            if (opening(t) && ++depth > kMaxTextNesting) return refuse(begin, nestingMessage());
            if (closing(t)) depth = std::max(0, depth - 1);
        }
        prefixes = kind == TokenKind::Punctuator && prefixOperator(t) ? prefixes + 1 : 0;
        if (prefixes > kMaxTextNesting) return refuse(begin, nestingMessage());
        code.push_back(t);
        where.push_back(begin);
        return std::nullopt;
    };
    if (auto refused = scanner.walk(onDirective, onToken)) return refused;

    // The macros, each alone and where the code uses them, and the whole file.
    ExpansionEstimate estimate(macros);
    for (std::size_t k = 0; k < macros.size(); ++k)
        if (const double tokens = estimate.ofDefinition(k); tokens > kMaxMacroTokens)
            return Diagnostic{path, macros[k].line, 0,
                              macros[k].name + " expands to about " + about(tokens) + " tokens, more than the " +
                                  about(kMaxMacroTokens) + " a kernel file's macro may make: write a loop or a "
                                  "__device__ function instead"};
    const std::vector<std::size_t> match = matchingParens(code);
    double total = 0;
    for (std::size_t i = 0, next = 0; i < code.size(); i = next) {
        const double tokens = estimate.unit(code, match, i, code.size(), nullptr, next).c;
        if (tokens > kMaxMacroTokens)
            return refuse(where[i], std::string(code[i]) + " expands to about " + about(tokens) +
                                        " tokens here, more than the " + about(kMaxMacroTokens) +
                                        " a kernel file's macro may make: write a loop or a __device__ function "
                                        "instead");
        total += tokens;
        if (total > kMaxFileTokens)
            return refuse(where[i], "with its macros expanded, the file is longer than " + about(kMaxFileTokens) +
                                        " tokens by this line: a kernel file is a page or two; write loops and "
                                        "__device__ functions instead of copies");
    }
    return std::nullopt;
}

// [SECTION] What the compilers are given: the text the parser read.

std::vector<std::pair<std::size_t, std::size_t>> conditionalDirectives(const std::string& text) {
    const Logical logical = splice(text);
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    Scanner scanner(logical.s);
    scanner.walk(
        [&](const Scanner::Directive& d) -> std::optional<Diagnostic> {
            if (conditional(d.name)) {
                const std::size_t end = d.end < logical.s.size() ? logical.offsetOf[d.end] : text.size();
                spans.emplace_back(logical.offsetOf[d.at], end);
            }
            return std::nullopt;
        },
        [](TokenKind, std::size_t, std::size_t) -> std::optional<Diagnostic> { return std::nullopt; });
    return spans;
}

std::optional<Diagnostic> blankWhatWasNotRead(const std::string& path, std::string& text,
                                              const std::vector<std::pair<std::size_t, std::size_t>>& skipped) {
    const std::vector<std::pair<std::size_t, std::size_t>> directives = conditionalDirectives(text);
    // The directive holding offset `at`, if any (the spans are in order and apart).
    auto inDirective = [&](std::size_t at) {
        auto after = std::upper_bound(directives.begin(), directives.end(), at,
                                      [](std::size_t a, const auto& span) { return a < span.first; });
        return after != directives.begin() && at < std::prev(after)->second;
    };
    auto blank = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end && i < text.size(); ++i)
            if (text[i] != '\n' && text[i] != '\r') text[i] = ' ';
    };
    for (const auto& [begin, end] : skipped) {
        if (end <= begin) continue;
        if (!inDirective(begin) || !inDirective(end - 1)) {
            const std::string_view before = std::string_view(text).substr(0, begin);
            const auto line = static_cast<unsigned>(std::count(before.begin(), before.end(), '\n') + 1);
            return Diagnostic{path, line, 0,
                              "the parser skipped text here that TileScope cannot place between an #if and its "
                              "#endif: write each #if, #else and #endif on a line of its own"};
        }
        blank(begin, end);
    }
    for (const auto& [begin, end] : directives) blank(begin, end);
    return std::nullopt;
}

namespace {

// The names the text uses, in its code and in its directives, and those its #defines define.
void namesOf(const std::string& text, std::set<std::string>& used, std::set<std::string>& defined) {
    const Logical logical = splice(text);
    const std::string& s = logical.s;
    Scanner scanner(s);
    scanner.walk(
        [&](const Scanner::Directive& d) -> std::optional<Diagnostic> {
            for (const std::string& t : ppTokens(d.rest))
                if (identStart(t[0])) used.insert(t);
            if (d.name == "define") defined.insert(readDefinition(d.rest, 0).name);
            return std::nullopt;
        },
        [&](TokenKind kind, std::size_t begin, std::size_t end) -> std::optional<Diagnostic> {
            if (kind == TokenKind::Identifier) used.insert(s.substr(begin, end - begin));
            return std::nullopt;
        });
}

}  // namespace

std::string undefineUsedNames(const std::string& text) {
    std::set<std::string> used, defined;
    namesOf(text, used, defined);
    std::string out;
    for (const std::string& name : used) {
        // The compilers' and CUDA's own names keep their meaning (__global__,
        // __syncthreads, __LINE__, threadIdx, printf: a prelude or a
        // compiler defines some), and so do the keywords (some may not be
        // #undef'd).
        if (reservedName(name) || listed(name, kKeywords) || listed(name, kCudaNames) || listed(name, kPreludeNames))
            continue;
        out += "#undef " + name + "\n";
    }
    return out;
}

std::string undefineDefinedNames(const std::string& text) {
    std::set<std::string> used, defined;
    namesOf(text, used, defined);
    std::string out;
    for (const std::string& name : defined)
        if (!name.empty() && whyNotMacroName(name).empty()) out += "#undef " + name + "\n";
    return out;
}

}  // namespace tilescope::own
