// The edits that make the kernel language out of the student's file
// (translate.hpp lists them): each replaces a span or inserts at an offset,
// and every other byte and line break stays where the student put it.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::own::detail {

// [SECTION] The edits, and the texts they make.

std::string Translator::rewritten(bool hostCode) const {
    std::vector<Edit> edits = m_edits;
    if (!hostCode) edits.insert(edits.end(), m_hostOnly.begin(), m_hostOnly.end());
    if (hostCode) edits.insert(edits.end(), m_cpuOnly.begin(), m_cpuOnly.end());
    return apply(edits);
}

std::string Translator::plainDevice() const { return apply(m_plainDevice); }

// Applies non-overlapping edits; a replaced span keeps its line breaks.
// Insertions at one offset: what closes, innermost first (made last),
// then what opens, outermost first (made first), then a replacement.
std::string Translator::apply(std::vector<Edit> edits) const {
    auto rank = [](const Edit& e) { return e.begin != e.end ? 2 : e.closing ? 0 : 1; };
    std::sort(edits.begin(), edits.end(), [&](const Edit& a, const Edit& b) {
        if (a.begin != b.begin) return a.begin < b.begin;
        if (rank(a) != rank(b)) return rank(a) < rank(b);
        return rank(a) == 0 ? a.order > b.order : a.order < b.order;
    });
    std::string out;
    unsigned at = 0;
    for (const Edit& e : edits) {
        if (e.begin < at) continue;  // inside a span already replaced (a blanked function)
        out.append(m_text, at, e.begin - at);
        out += e.text;
        out.append(static_cast<std::size_t>(
                       std::count(m_text.begin() + e.begin, m_text.begin() + e.end, '\n')),
                   '\n');
        at = e.end;
    }
    out.append(m_text, at, std::string::npos);
    return out;
}

void Translator::edit(unsigned begin, unsigned end, std::string text) {
    m_edits.push_back(Edit{begin, end, std::move(text), false, m_editCount++});
}

// An insertion that closes an expression an earlier insertion opened.
void Translator::close(unsigned at, std::string text) {
    m_edits.push_back(Edit{at, at, std::move(text), true, m_editCount++});
}

// [SECTION] Declarations and names, rewritten.

void Translator::hostOnly(CXCursor c) {
    const auto span = std::make_pair(beginOf(c), endOf(c));
    m_hostOnly.push_back(Edit{span.first, span.second, ""});
    m_plainDevice.push_back(Edit{span.first, span.second, ""});
}

// `const float* N` -> `Global<const float> N`; true when the array is writable.
bool Translator::arrayParameter(CXCursor p) {
    const CXType t = clang_getCursorType(p);
    const bool writable = !clang_isConstQualifiedType(clang_getPointeeType(clang_getCanonicalType(t)));
    const unsigned nameAt = expansion(clang_getCursorLocation(p)).offset;
    // A parameter without a name (a prototype's) ends where its type ends.
    const unsigned end = str(clang_getCursorSpelling(p)).empty() ? endOf(p) : nameAt;
    edit(beginOf(p), end, writable ? "Global<float> " : "Global<const float> ");
    return writable;
}

// `::M`, a name of the file's own global scope: the traced builds put the
// file inside a namespace of their own, where `::M` is that namespace's M.
void Translator::globalQualifier(CXCursor c) {
    // `::name` is a few bytes; a longer extent is a macro's use.
    if (endOf(c) < beginOf(c) || endOf(c) - beginOf(c) > kSmallExtent) return;
    const std::vector<Token> t = tokens(c);
    if (t.size() < 2 || t[0].spelling != "::" || t[1].spelling != str(clang_getCursorSpelling(c))) return;
    const CXCursor target = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(target)) return;
    if (expansion(clang_getCursorLocation(target)).mainFile) {
        edit(t[0].begin, t[0].end, "::tilescope::own_user::");
        return;
    }
    // `::min(x, 0.5f)`, `::floor(x)`: CUDA's overloads are global. On the
    // CPU executor they live in that namespace (own_cpu_prelude.hpp); on a
    // GPU they are CUDA's own.
    if (listed(t[1].spelling, kScopedOverloads))
        m_cpuOnly.push_back(Edit{t[0].begin, t[0].end, "::tilescope::own_user::", false, m_editCount++});
}

// [SECTION] Elements read as values. An element of a writable array (P,
// a __shared__ array) is an ElementRef in the traced language, which loads
// when it converts to float. A conversion is not a float: the conditional
// operator would give `c ? 0 : s[t]` the type int, `auto` would keep the
// reference, overloads (`abs`) and templates would see a class. So every
// element the kernel reads as a value is written `static_cast<float>(s[t])`,
// and only an element assigned to (`=`, `+=`, ++, a `float&` bound to it)
// stays a reference.

// The left operand of an assignment is written to, not read: an element,
// or both elements a conditional operator chooses between. An assignment
// whose value is used (`auto v = (P[i] *= 2.5f)`) gives that value as a
// float, as C++'s `float&` does once it is read.
void Translator::assigned(CXCursor c) {
    const std::vector<CXCursor> kids = children(c);
    if (!kids.empty()) written(kids[0]);
    if (kids.empty() || !valueUsed()) return;
    const CXCursor lhs = unwrap(kids[0]);
    if (clang_getCursorKind(lhs) != CXCursor_ArraySubscriptExpr || !writableElement(lhs)) return;
    const unsigned begin = spellingOf(c);
    if (begin == UINT_MAX || begin != beginOf(c)) return;  // inside a macro: left as it is
    edit(begin, begin, "static_cast<" + readAs(lhs) + ">(");
    close(endOf(c), ")");
}

void Translator::written(CXCursor e) {
    e = unwrap(e);
    if (clang_getCursorKind(e) == CXCursor_ConditionalOperator) {
        const std::vector<CXCursor> kids = children(e);
        for (std::size_t k = 1; k < kids.size(); ++k) written(kids[k]);
        return;
    }
    m_lvalues.insert(spellingOf(e));
}

// An element of an array the kernel writes (P, a __shared__ array): an
// ElementRef in the traced language. Found by the declaration the name
// refers to, not by the name, which another kernel or a helper may reuse.
bool Translator::writableElement(CXCursor element) const {
    const CXCursor ref = rootReference(element);
    if (clang_Cursor_isNull(ref)) return false;
    const CXCursor target = clang_getCursorReferenced(ref);
    if (clang_getCursorKind(target) == CXCursor_ParmDecl)
        return isFloatPointer(clang_getCursorType(target)) &&
               !clang_isConstQualifiedType(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(target))));
    return m_sharedDeclarations.count(declarationAt(ref)) > 0;
}

// Writes `static_cast<float>(` before the name at `at` and `)` after it and
// its `brackets` subscripts, when the text there is that.
bool Translator::readAsFloat(unsigned at, const std::string& name, int brackets, const std::string& as) {
    if (m_readAsFloat.count(at)) return true;
    if (at == UINT_MAX || m_text.compare(at, name.size(), name) != 0) return false;
    std::size_t end = at + name.size();
    for (int b = 0; b < brackets; ++b) {
        while (end < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[end]))) ++end;
        if (end >= m_text.size() || m_text[end] != '[') return false;
        int depth = 0;
        for (; end < m_text.size(); ++end) {
            depth += m_text[end] == '[' ? 1 : m_text[end] == ']' ? -1 : 0;
            if (depth == 0) break;
        }
        if (end >= m_text.size()) return false;
        ++end;
    }
    m_readAsFloat.insert(at);
    edit(at, at, "static_cast<" + as + ">(");
    close(static_cast<unsigned>(end), ")");
    return true;
}

// What an element is read as: float, or an int or unsigned array's own type.
std::string Translator::readAs(CXCursor element) {
    const CXTypeKind k = clang_getCanonicalType(clang_getCursorType(element)).kind;
    return k == CXType_Int ? "int" : k == CXType_UInt ? "unsigned int" : "float";
}

void Translator::elementRead(CXCursor c) {
    if (!elementKind(clang_getCanonicalType(clang_getCursorType(c)).kind, true)) return;  // a row, not an element
    if (!writableElement(c)) return;  // reads of N and of the mask give floats already
    const std::string array = rootArray(c);
    const unsigned at = spellingOf(c);
    if (m_lvalues.count(at)) return;
    int brackets = 0;
    for (CXCursor e = c; clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr; ++brackets) {
        const std::vector<CXCursor> kids = children(e);
        if (kids.empty()) return;
        e = unwrap(kids[0]);
    }
    // Not spelled where it is used: written by a macro's definition.
    if (!readAsFloat(at, array, brackets, readAs(c))) macroElementRead(c);
}

// An element a macro's definition writes (`#define SH(i) s[(i)]`), read as
// a value: where the macro's use is that element and nothing more (its
// parent expression reaches beyond the use), the use is read as a float.
void Translator::macroElementRead(CXCursor c) {
    const unsigned begin = beginOf(c), end = endOf(c);
    if (begin >= end) {
        nestedMacroElementRead(c, begin);
        return;
    }
    if (m_readAsFloat.count(begin)) return;
    for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
        const CXCursor a = m_ancestors[i];
        const CXCursorKind k = clang_getCursorKind(a);
        if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr) {
            if (beginOf(a) == begin && endOf(a) == end) continue;
        }
        if (beginOf(a) == begin && endOf(a) == end) return;  // the macro holds more than the element
        break;
    }
    m_readAsFloat.insert(begin);
    edit(begin, begin, "static_cast<" + readAs(c) + ">(");
    close(end, ")");
}

// The same, with the macro's use inside another macro's arguments
// (`ID(SH(t))`), where the parser gives the element no extent of its own:
// the inner use, `SH(t)`, is found where the file spells it.
void Translator::nestedMacroElementRead(CXCursor c, unsigned outer) {
    CXFile file = nullptr;
    unsigned line, column, at;
    clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), &file, &line, &column, &at);
    if (!file || !clang_File_isEqual(file, t_mainFile) || at <= outer || m_readAsFloat.count(at)) return;
    std::size_t end = at;
    while (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
        ++end;
    if (end == at || end >= m_text.size() || m_text[end] != '(') return;  // not a macro's use
    int depth = 0;
    for (; end < m_text.size(); ++end) {
        depth += m_text[end] == '(' ? 1 : m_text[end] == ')' ? -1 : 0;
        if (depth == 0) break;
    }
    if (end >= m_text.size()) return;
    m_readAsFloat.insert(at);
    edit(at, at, "static_cast<" + readAs(c) + ">(");
    close(static_cast<unsigned>(end + 1), ")");
}

// A `float&` bound to an element is that element: reading it loads it.
void Translator::elementReferenceRead(CXCursor c) {
    const CXCursor target = clang_getCursorReferenced(c);
    if (clang_getCursorKind(target) != CXCursor_VarDecl) return;
    if (!m_elementReferences.count(expansion(clang_getCursorLocation(target)).offset)) return;
    const unsigned at = spellingOf(c);
    if (!m_lvalues.count(at)) readAsFloat(at, str(clang_getCursorSpelling(c)), 0);
}

// `float& e = s[t]` or `const float& c = s[j]`: the reference is the element
// (`auto e = s[t]`, an ElementRef), so that a later store to s[t] is seen.
bool Translator::elementReference(CXCursor c) {
    const CXType type = clang_getCanonicalType(clang_getCursorType(c));
    if (type.kind != CXType_LValueReference ||
        clang_getCanonicalType(clang_getPointeeType(type)).kind != CXType_Float)
        return false;
    CXCursor init{};
    bool found = false;
    for (CXCursor child : children(c))
        if (clang_isExpression(clang_getCursorKind(child))) {
            init = unwrap(child);
            found = true;
        }
    // `float& e{s[t]}`: the braces hold the element.
    if (found && clang_getCursorKind(init) == CXCursor_InitListExpr) {
        const std::vector<CXCursor> inner = children(init);
        found = inner.size() == 1;
        if (found) init = unwrap(inner[0]);
    }
    const unsigned begin = beginOf(c);
    const bool element = found && clang_getCursorKind(init) == CXCursor_ArraySubscriptExpr && writableElement(init);
    if (!element) return false;
    const unsigned nameAt = expansion(clang_getCursorLocation(c)).offset;
    std::size_t amp;
    if (declaratorComma(begin, &amp) != std::string::npos && amp != std::string::npos) {
        // `, &b = s[j]` after `const float& a = s[i]`: the same auto, without its &.
        if (!m_declarationIsAuto)
            reject(lineOf(c), "declare a reference to an array element in a declaration of its own, not beside "
                              "other names");
        edit(static_cast<unsigned>(amp), static_cast<unsigned>(amp + 1), " ");
    } else {
        if (spellingOf(c) != begin || nameAt <= begin)
            reject(lineOf(c), "a reference to an array element declared through a macro is not supported: "
                              "write float& e = s[i]; as it is");
        edit(begin, nameAt, "auto ");  // `const float& a` -> `auto a`
        m_declarationIsAuto = true;
    }
    m_lvalues.insert(spellingOf(init));
    m_elementReferences.insert(nameAt);
    return true;
}

// [SECTION] Multiply-adds, recorded on their lines.

// `sum += x` on a local float: one multiply-add, recorded on its line.
bool Translator::compoundAssign(CXCursor c, Scope& scope) {
    const std::vector<CXCursor> kids = children(c);
    if (kids.size() != 2) return false;
    const CXCursor lhs = unwrap(kids[0]);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr) return false;
    const CXCursor target = clang_getCursorReferenced(lhs);
    if (clang_getCursorKind(target) != CXCursor_VarDecl) return false;
    if (clang_getCanonicalType(clang_getCursorType(target)).kind != CXType_Float) return false;
    if (clang_Cursor_getStorageClass(target) != CX_SC_None) return false;
    const Operator op = binaryOperator(c);
    if (op.spelling != "+=") return false;
    const std::string var = str(clang_getCursorSpelling(lhs));
    edit(beginOf(kids[0]), op.end, "tsAddTo(" + var + ", ");
    close(endOf(c), ", " + std::to_string(lineOf(c)) + ")");
    statement(kids[1], scope);
    return true;
}

// `fmaf(a, b, c)` in device code, written out where the file spells it:
// one multiply-add, fused as CUDA's, recorded on its line as `sum += a * b`
// is (tsFmaf, own_language.inl). Through a macro or `::fmaf` it is left
// as it is: computed, not counted.
void Translator::fusedMultiplyAdd(CXCursor c, const std::string& name) {
    const unsigned begin = beginOf(c), end = endOf(c);
    if (end <= begin + name.size() || end > m_text.size() || m_text.compare(begin, name.size(), name) != 0 ||
        m_text[end - 1] != ')')
        return;
    edit(begin, begin + static_cast<unsigned>(name.size()), "tsFmaf");
    close(end - 1, ", " + std::to_string(lineOf(c)));
}

}  // namespace tilescope::own::detail

#endif
