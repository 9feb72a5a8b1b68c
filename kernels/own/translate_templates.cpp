// Function templates, written out at the arguments the file uses.
//
// libclang sees a template's instantiations (`conv<float><<<g, b>>>(...)`,
// or its arguments deduced from the call) but walks only the template as
// written. So a file with function templates is read twice: first to learn,
// for each, the one set of arguments the file uses it with; then as the text
// it stands for, the `template <...>` header blanked, each parameter's name
// in the template replaced by its argument (`T` -> `float`, `TILE` -> `16`)
// and the explicit arguments at each use blanked. Lines stay where they were.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace tilescope::own::detail {

namespace {

struct TemplateUse {
    CXCursor declaration;  // the template's canonical cursor
    std::vector<std::string> arguments;
    unsigned line = 0;
    unsigned argumentsBegin = 0, argumentsEnd = 0;  // `<float>` after the name, if written
};

struct TemplateScan {
    std::vector<CXCursor> templates;  // canonical cursors
    std::vector<TemplateUse> uses;
    std::optional<Diagnostic> refused;
    const std::string* path;
    const std::string* text;
};

bool sameCursor(CXCursor a, CXCursor b) { return clang_equalCursors(a, b) != 0; }

CXChildVisitResult scanTemplateUse(CXCursor c, CXCursor, CXClientData data) {
    TemplateScan& scan = *static_cast<TemplateScan*>(data);
    if (scan.refused) return CXChildVisit_Break;
    const CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr) {
        const Where at = expansion(clang_getCursorLocation(c));
        const CXCursor referenced = clang_getCursorReferenced(c);
        const CXCursor pattern = clang_getSpecializedCursorTemplate(referenced);
        if (at.mainFile && !clang_Cursor_isNull(pattern)) {
            const CXCursor canonical = clang_getCanonicalCursor(pattern);
            for (const CXCursor& t : scan.templates) {
                if (!sameCursor(t, canonical)) continue;
                TemplateUse use{canonical, {}, at.line, 0, 0};
                const int n = clang_Cursor_getNumTemplateArguments(referenced);
                for (int i = 0; i < n; ++i) {
                    const CXTemplateArgumentKind k = clang_Cursor_getTemplateArgumentKind(referenced, static_cast<unsigned>(i));
                    if (k == CXTemplateArgumentKind_Type) {
                        use.arguments.push_back(str(clang_getTypeSpelling(
                            clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(referenced, static_cast<unsigned>(i))))));
                    } else if (k == CXTemplateArgumentKind_Integral) {
                        use.arguments.push_back(
                            std::to_string(clang_Cursor_getTemplateArgumentValue(referenced, static_cast<unsigned>(i))));
                    } else {
                        scan.refused = Diagnostic{*scan.path, at.line, 0,
                                                  str(clang_getCursorSpelling(t)) + "'s template arguments are "
                                                  "neither types nor numbers: write it as a plain function"};
                        return CXChildVisit_Break;
                    }
                }
                // `name<float, 16>`: the written arguments, after the name.
                const std::string name = str(clang_getCursorSpelling(t));
                const unsigned begin = expansion(clang_getRangeStart(clang_getCursorExtent(c))).offset;
                unsigned end = 0;
                clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), nullptr, nullptr, nullptr, &end);
                const std::string& text = *scan.text;
                std::size_t after = text.find(name, begin);
                if (after != std::string::npos && after < end) {
                    after += name.size();
                    while (after < end && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
                    if (after < end && text[after] == '<' && text[end - 1] == '>') {
                        use.argumentsBegin = static_cast<unsigned>(after);
                        use.argumentsEnd = end;
                    }
                }
                scan.uses.push_back(use);
            }
        }
    }
    return CXChildVisit_Recurse;
}

// The `template <...>` that opens a template's text: [begin, end) in the file.
std::pair<unsigned, unsigned> templateHeader(CXTranslationUnit tu, CXCursor t) {
    CXToken* tokens = nullptr;
    unsigned count = 0;
    clang_tokenize(tu, clang_getCursorExtent(t), &tokens, &count);
    std::pair<unsigned, unsigned> header{0, 0};
    int depth = 0;
    for (unsigned i = 0; i < count; ++i) {
        const std::string spelling = str(clang_getTokenSpelling(tu, tokens[i]));
        unsigned offset = 0;
        clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), nullptr, nullptr, nullptr, &offset);
        if (i == 0) {
            if (spelling != "template") break;
            header.first = offset;
            continue;
        }
        if (spelling == "<") ++depth;
        else if (spelling == ">") --depth;
        else if (spelling == ">>") depth -= 2;
        if (depth <= 0 && i > 1) {
            header.second = offset + static_cast<unsigned>(spelling.size());
            break;
        }
    }
    clang_disposeTokens(tu, tokens, count);
    return header;
}

// A type argument as one word where C++ has one: `T(x)`, a functional cast,
// takes a single word (`unsigned(x)`, never `unsigned int(x)`), and
// libclang spells uint32_t `unsigned int`.
std::string oneWordType(const std::string& type) {
    if (type == "unsigned int") return "unsigned";
    return type;
}

}  // namespace

// `last`: the last reading there will be, where a template still unused is
// dropped (before it, one may be used by a template written out this time:
// `f(x)` in a template's body names f's instantiation once x has a type).
TemplateText instantiateTemplates(const std::string& path, CXTranslationUnit tu, const std::string& text, bool last) {
    TemplateScan scan{{}, {}, std::nullopt, &path, &text};
    std::vector<CXCursor> written;  // every declaration of a template, prototype and definition
    for (CXCursor c : children(clang_getTranslationUnitCursor(tu))) {
        if (clang_getCursorKind(c) != CXCursor_FunctionTemplate || !expansion(clang_getCursorLocation(c)).mainFile)
            continue;
        written.push_back(c);
        const CXCursor canonical = clang_getCanonicalCursor(c);
        bool known = false;
        for (const CXCursor& t : scan.templates) known = known || sameCursor(t, canonical);
        if (!known) scan.templates.push_back(canonical);
    }
    if (written.empty()) return {};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), scanTemplateUse, &scan);
    if (scan.refused) return {std::nullopt, scan.refused};

    struct Replacement {
        unsigned begin, end;
        std::string text;
    };
    std::vector<Replacement> replacements;
    auto blank = [&](unsigned begin, unsigned end) {
        std::string spaces = text.substr(begin, end - begin);
        for (char& ch : spaces)
            if (ch != '\n') ch = ' ';
        replacements.push_back({begin, end, spaces});
    };
    for (const CXCursor& declaration : written) {
        const CXCursor canonical = clang_getCanonicalCursor(declaration);
        const std::string name = str(clang_getCursorSpelling(declaration));
        const unsigned line = expansion(clang_getRangeStart(clang_getCursorExtent(declaration))).line;
        const std::vector<std::string>* arguments = nullptr;
        for (const TemplateUse& use : scan.uses) {
            if (!sameCursor(use.declaration, canonical)) continue;
            if (arguments && *arguments != use.arguments) {
                auto listed = [](const std::vector<std::string>& a) {
                    std::string s = "<";
                    for (std::size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i];
                    return s + ">";
                };
                return {std::nullopt,
                        Diagnostic{path, use.line, 0,
                                   name + " is used at " + listed(*arguments) + " and at " + listed(use.arguments) +
                                       ": a kernel file's template is written out at one set of arguments; write "
                                       "a function of its own for each"}};
            }
            arguments = &use.arguments;
        }
        const auto header = templateHeader(tu, declaration);
        if (header.second <= header.first)
            return {std::nullopt, Diagnostic{path, line, 0, "the template " + name + " cannot be read: write it as "
                                                           "a plain function"}};
        unsigned end = 0;
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(declaration)), nullptr, nullptr, nullptr,
                                   &end);
        if (!arguments) {
            // Never used: nothing of it runs, and nothing of it is compiled. A
            // prototype's extent stops before its `;`, blanked with it (a
            // lone `;` is a declaration of nothing, refused).
            std::size_t after = end;
            while (after < text.size() && (text[after] == ' ' || text[after] == '\t' || text[after] == '\r' ||
                                           text[after] == '\n'))
                ++after;
            if (after < text.size() && text[after] == ';') end = static_cast<unsigned>(after + 1);
            if (last || scan.uses.empty()) blank(header.first, end);
            continue;
        }
        // Its parameters, in order.
        std::vector<std::string> parameters;
        for (CXCursor p : children(declaration)) {
            const CXCursorKind k = clang_getCursorKind(p);
            if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter)
                parameters.push_back(str(clang_getCursorSpelling(p)));
            else if (k == CXCursor_TemplateTemplateParameter)
                return {std::nullopt, Diagnostic{path, line, 0, name + " takes a template as a parameter: write it "
                                                                "as a plain function"}};
        }
        if (parameters.size() != arguments->size())
            return {std::nullopt, Diagnostic{path, line, 0, name + "'s parameters and arguments do not pair up (a "
                                                            "parameter pack?): write it as a plain function"}};
        blank(header.first, header.second);
        // Each use of a parameter's name in the rest of it.
        CXToken* tokens = nullptr;
        unsigned count = 0;
        clang_tokenize(tu, clang_getCursorExtent(declaration), &tokens, &count);
        for (unsigned i = 0; i < count; ++i) {
            if (clang_getTokenKind(tokens[i]) != CXToken_Identifier) continue;
            unsigned offset = 0;
            clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), nullptr, nullptr, nullptr, &offset);
            if (offset < header.second) continue;
            const std::string spelling = str(clang_getTokenSpelling(tu, tokens[i]));
            for (std::size_t p = 0; p < parameters.size(); ++p)
                if (!parameters[p].empty() && spelling == parameters[p] &&
                    text.compare(offset, spelling.size(), spelling) == 0)
                    replacements.push_back(
                        {offset, offset + static_cast<unsigned>(spelling.size()), oneWordType((*arguments)[p])});
        }
        clang_disposeTokens(tu, tokens, count);
    }
    for (const TemplateUse& use : scan.uses)
        if (use.argumentsEnd > use.argumentsBegin) blank(use.argumentsBegin, use.argumentsEnd);
    std::sort(replacements.begin(), replacements.end(),
              [](const Replacement& a, const Replacement& b) { return a.begin > b.begin; });
    std::string out = text;
    unsigned lastBegin = static_cast<unsigned>(out.size()) + 1;
    for (const Replacement& r : replacements) {
        if (r.end > lastBegin || r.end > out.size()) continue;  // overlapping (a use inside a blanked template)
        out.replace(r.begin, r.end - r.begin, r.text);
        lastBegin = r.begin;
    }
    return {out, std::nullopt};
}

}  // namespace tilescope::own::detail

#endif
