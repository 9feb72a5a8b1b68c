// The file's tokens, read before anything else: no asm, and attributes from
// a short list only, checked again on every declaration where the attribute
// was spelled.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <cctype>
#include <functional>
#include <memory>
#include <string>

namespace tilescope::own::detail {

// [SECTION] Attributes and asm. An attribute can make code run at load
// (constructor), name another symbol (alias, ifunc, section, weak) or keep
// what the checks refused (used, cleanup); an asm label makes a declaration
// the C library's system() or environ. So the file's tokens are read
// first, comments and strings apart: no asm at all, and attributes from a
// short list only. Then every attribute the parser attached to a
// declaration is checked again where it was spelled, for one that a
// macro's ## made out of pieces.

namespace {

constexpr const char* kAttributeList =
    "the attributes a kernel file may use are __restrict__, __launch_bounds__, __align__ (aligned), unused and "
    "CUDA's own (__global__, __device__, __host__, __shared__, __constant__, __forceinline__, __noinline__)";

bool allowedAttributeWord(std::string word) {
    while (word.size() > 2 && word.compare(0, 2, "__") == 0) word.erase(0, 2);
    while (word.size() > 2 && word.compare(word.size() - 2, 2, "__") == 0) word.erase(word.size() - 2);
    for (const char* w : {"unused", "maybe_unused", "aligned", "align", "launch_bounds", "global", "device", "host",
                          "shared", "constant", "forceinline", "noinline", "always_inline", "fallthrough", "likely",
                          "unlikely"})
        if (word == w) return true;
    return false;
}

}  // namespace

void Translator::fileTokens() const {
    const CXSourceRange whole = clang_getRange(clang_getLocationForOffset(m_tu, t_mainFile, 0),
                                               clang_getLocationForOffset(m_tu, t_mainFile,
                                                                          static_cast<unsigned>(m_text.size())));
    CXToken* toks = nullptr;
    unsigned n = 0;
    clang_tokenize(m_tu, whole, &toks, &n);
    std::unique_ptr<CXToken, std::function<void(CXToken*)>> guard(
        toks, [&](CXToken* t) { clang_disposeTokens(m_tu, t, n); });
    auto spelling = [&](unsigned i) { return i < n ? str(clang_getTokenSpelling(m_tu, toks[i])) : std::string(); };
    auto word = [&](unsigned i) {
        const CXTokenKind k = clang_getTokenKind(toks[i]);
        return k == CXToken_Identifier || k == CXToken_Keyword;
    };
    auto lineAt = [&](unsigned i) { return expansion(clang_getTokenLocation(m_tu, toks[i])).line; };
    for (unsigned i = 0; i < n; ++i) {
        const CXTokenKind kind = clang_getTokenKind(toks[i]);
        if (kind == CXToken_Comment || kind == CXToken_Literal) continue;
        const std::string s = spelling(i);
        if (word(i) && (s == "asm" || s == "__asm" || s == "__asm__"))
            reject(lineAt(i), s + " is not supported in a kernel file: neither inline assembly nor an asm label "
                                  "(int run(const char*) asm(\"system\") names a function of the C library); "
                                  "write it in CUDA C++");
        if (word(i) && s == "__declspec")
            reject(lineAt(i), std::string("__declspec is not supported in a kernel file: ") + kAttributeList);
        if (word(i) && (s == "__attribute__" || s == "__attribute")) {
            // __attribute__((name, name(arguments), ...)): each name at depth 2.
            int depth = 0;
            bool expectName = false;
            for (unsigned k = i + 1; k < n; ++k) {
                const std::string t = spelling(k);
                if (t == "(") {
                    ++depth;
                    expectName = depth == 2;
                    continue;
                }
                if (t == ")") {
                    if (--depth <= 0) break;
                    continue;
                }
                if (depth == 2 && t == ",") {
                    expectName = true;
                    continue;
                }
                if (depth == 2 && expectName && word(k) && !allowedAttributeWord(t))
                    reject(lineAt(i), "__attribute__((" + t + ")) is not supported in a kernel file: " +
                                          kAttributeList);
                expectName = false;
                if (depth <= 0) break;
            }
        }
        // `[[` opens an attribute wherever it stands in C++.
        if (s == "[" && i + 1 < n && spelling(i + 1) == "[") {
            bool expectName = true;
            for (unsigned k = i + 2; k < n; ++k) {
                const std::string t = spelling(k);
                if (t == "]") break;
                if (t == ",") {
                    expectName = true;
                    continue;
                }
                if (expectName && word(k)) {
                    const bool scoped = spelling(k + 1) == "::";
                    if (t == "using" || scoped || !allowedAttributeWord(t))
                        reject(lineAt(i), "[[" + t + (scoped ? "::" + spelling(k + 2) : std::string()) +
                                              "]] is not supported in a kernel file: " + kAttributeList);
                }
                expectName = false;
                if (t == "(") {  // an attribute's arguments
                    int depth = 1;
                    while (++k < n && depth > 0) {
                        const std::string a = spelling(k);
                        depth += a == "(" ? 1 : a == ")" ? -1 : 0;
                    }
                    --k;
                }
            }
        }
    }
}

// The attributes the parser attached to a declaration, where they were
// spelled: in the file (a word of the list), or in the prelude (CUDA's
// keywords). An attribute spelled nowhere, made by ##, is refused.
void Translator::attributes(CXCursor c) const {
    for (CXCursor child : children(c)) {
        const CXCursorKind k = clang_getCursorKind(child);
        if (!clang_isAttribute(k)) continue;
        switch (k) {
        case CXCursor_CUDAConstantAttr: case CXCursor_CUDADeviceAttr: case CXCursor_CUDAGlobalAttr:
        case CXCursor_CUDAHostAttr: case CXCursor_CUDASharedAttr:
            continue;
        case CXCursor_AsmLabelAttr:
            reject(lineOf(c), "asm(\"" + str(clang_getCursorSpelling(child)) + "\") on " +
                                  str(clang_getCursorSpelling(c)) +
                                  ": an asm label makes a declaration another symbol (the C library's system or "
                                  "environ); a kernel file may not use one");
        default:
            break;
        }
        CXFile file = nullptr;
        unsigned line = 0, column = 0, offset = 0;
        clang_getSpellingLocation(clang_getCursorLocation(child), &file, &line, &column, &offset);
        std::string word;
        if (file && t_mainFile && clang_File_isEqual(file, t_mainFile)) {
            for (std::size_t i = offset; i < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[i])) ||
                                                                 m_text[i] == '_');
                 ++i)
                word += m_text[i];
            if (allowedAttributeWord(word)) continue;
        } else if (file) {
            const std::string name = str(clang_getFileName(file));
            const std::string prelude = "tilescope_prelude.h";
            if (name.size() >= prelude.size() &&
                name.compare(name.size() - prelude.size(), prelude.size(), prelude) == 0)
                continue;
        }
        reject(lineOf(c), (word.empty() ? std::string("an attribute made by a macro") : "__attribute__((" + word + "))") +
                              " on " + str(clang_getCursorSpelling(c)) + " is not supported in a kernel file: " +
                              kAttributeList);
    }
}

}  // namespace tilescope::own::detail

#endif
