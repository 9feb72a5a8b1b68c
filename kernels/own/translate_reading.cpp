// How the translator reads what libclang gives: a cursor's place in the
// student's file and its tokens, what a type is, the operator between two
// operands, and what an expression is part of and names.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <array>
#include <cctype>
#include <climits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::own::detail {

// [SECTION] libclang helpers.

// The call a `<<<...>>>` holds, as the parser lowers it: CUDA 9.2 and later
// push the configuration (__cudaPushCallConfiguration); for an older CUDA,
// or where the parser finds no CUDA installation to read a version from (as
// in a sandbox whose view holds none), it lowers to cudaConfigureCall. The
// same launch either way.
bool launchConfiguration(const std::string& name) {
    return name == "__cudaPushCallConfiguration" || name == "cudaConfigureCall";
}

std::string str(CXString s) {
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

// The student's file, for the translation under way on this thread.
thread_local CXFile t_mainFile = nullptr;

// Where a location lands in the file: for text a macro made, where the macro
// was used. `mainFile` when that is the student's file (a declaration a
// macro of the file writes is the file's too; the prelude's are not).
Where expansion(CXSourceLocation loc) {
    CXFile file = nullptr;
    Where w;
    clang_getExpansionLocation(loc, &file, &w.line, &w.column, &w.offset);
    w.mainFile = file && t_mainFile && clang_File_isEqual(file, t_mainFile);
    return w;
}

std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData data) {
            static_cast<std::vector<CXCursor>*>(data)->push_back(child);
            return CXChildVisit_Continue;
        },
        &out);
    return out;
}

bool hasAttr(CXCursor c, CXCursorKind kind) {
    for (CXCursor child : children(c))
        if (clang_getCursorKind(child) == kind) return true;
    return false;
}

CXCursor unwrap(CXCursor c) {
    for (;;) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        std::vector<CXCursor> kids = children(c);
        if (kids.size() != 1) return c;
        c = kids[0];
    }
}

// [SECTION] Where a cursor is, and its tokens.

unsigned Translator::lineOf(CXCursor c) const { return expansion(clang_getCursorLocation(c)).line; }

unsigned Translator::beginOf(CXCursor c) const {
    return expansion(clang_getRangeStart(clang_getCursorExtent(c))).offset;
}

unsigned Translator::endOf(CXCursor c) const {
    // libclang's extents end just past their last character.
    const CXSourceRange r = clang_getCursorExtent(c);
    CXFile file;
    unsigned line, column, offset;
    clang_getExpansionLocation(clang_getRangeEnd(r), &file, &line, &column, &offset);
    return offset;
}

std::vector<Token> Translator::tokens(CXCursor c) const {
    CXToken* toks = nullptr;
    unsigned n = 0;
    clang_tokenize(m_tu, clang_getCursorExtent(c), &toks, &n);
    std::vector<Token> out;
    for (unsigned i = 0; i < n; ++i) {
        const CXSourceRange r = clang_getTokenExtent(m_tu, toks[i]);
        const Where b = expansion(clang_getRangeStart(r));
        const Where e = expansion(clang_getRangeEnd(r));
        out.push_back(Token{str(clang_getTokenSpelling(m_tu, toks[i])), b.offset, e.offset});
    }
    clang_disposeTokens(m_tu, toks, n);
    return out;
}

// The whole line(s) from `begin` to `end`, for blanking.
std::pair<unsigned, unsigned> Translator::wholeLines(unsigned begin, unsigned end) const {
    const std::size_t b = m_text.rfind('\n', begin == 0 ? 0 : begin - 1);
    std::size_t e = m_text.find('\n', end);
    if (e == std::string::npos) e = m_text.size();
    return {b == std::string::npos || begin == 0 ? 0u : static_cast<unsigned>(b + 1), static_cast<unsigned>(e)};
}

// [SECTION] What a type is.

std::string Translator::typeName(CXType t) { return str(clang_getTypeSpelling(t)); }

// float[A] or float[A][B]: the sizes, or nothing. An array larger than
// `limitBytes` (what the memory it lives in holds) is refused here, before
// its size could overflow an int.
std::optional<std::pair<int, int>> Translator::floatArray(CXType t, unsigned line, const std::string& what,
                                                          long long limitBytes, bool integers) const {
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_ConstantArray) return std::nullopt;
    const long long outer = clang_getArraySize(t);
    CXType e = clang_getCanonicalType(clang_getArrayElementType(t));
    long long inner = 1;
    if (e.kind == CXType_ConstantArray) {
        inner = clang_getArraySize(e);
        e = clang_getCanonicalType(clang_getArrayElementType(e));
    }
    if (!elementKind(e.kind, integers) || outer < 0 || inner < 0) return std::nullopt;
    const bool huge = outer > limitBytes || inner > limitBytes;  // the product could overflow
    const long long bytes = huge ? limitBytes + 1 : outer * inner * 4;
    if (bytes > limitBytes)
        reject(line, what + " is " + (huge ? "more than " + std::to_string(limitBytes) : std::to_string(bytes)) +
                         " bytes: " +
                         (limitBytes == kSharedLimit ? "a block may have 48 KB (49152 bytes) of shared memory"
                                                     : "constant memory holds 64 KB (65536 bytes)"));
    if (!is2D(t)) return std::make_pair(1, static_cast<int>(outer));
    return std::make_pair(static_cast<int>(outer), static_cast<int>(inner));
}

// float[A][B][C] (a tile per channel, in shared memory): the three sizes, or nothing.
std::optional<std::array<int, 3>> Translator::floatArray3D(CXType t, unsigned line, const std::string& what,
                                                           bool integers) const {
    long long sizes[3] = {0, 0, 0};
    t = clang_getCanonicalType(t);
    for (long long& size : sizes) {
        if (t.kind != CXType_ConstantArray) return std::nullopt;
        size = clang_getArraySize(t);
        if (size < 0) return std::nullopt;
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    if (!elementKind(t.kind, integers)) return std::nullopt;
    long long bytes = 4;
    for (const long long size : sizes) bytes = size > kSharedLimit ? kSharedLimit + 1 : bytes * size;
    if (bytes > kSharedLimit)
        reject(line, what + " is " + (bytes == kSharedLimit + 1 ? "more than " + std::to_string(kSharedLimit)
                                                                 : std::to_string(bytes)) +
                         " bytes: a block may have 48 KB (49152 bytes) of shared memory");
    return std::array<int, 3>{static_cast<int>(sizes[0]), static_cast<int>(sizes[1]), static_cast<int>(sizes[2])};
}

// float, or with `integers` int and unsigned too (a __shared__ array's
// elements: each 4 bytes, one slot of the block's shared memory).
bool Translator::elementKind(CXTypeKind k, bool integers) {
    return k == CXType_Float || (integers && (k == CXType_Int || k == CXType_UInt));
}

// The element type of a __shared__ array, as the kernel language spells it.
std::string Translator::elementSpelling(CXType t) {
    t = clang_getCanonicalType(t);
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    return t.kind == CXType_Int ? "int" : t.kind == CXType_UInt ? "unsigned int" : "float";
}

bool Translator::isFloatPointer(CXType t) {
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Float;
}

bool Translator::isScalar(CXType t) {
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Int: case CXType_UInt: case CXType_Float: case CXType_Bool: case CXType_Long:
    case CXType_ULong: case CXType_Short: case CXType_UShort: case CXType_Double: case CXType_LongLong:
    case CXType_ULongLong: case CXType_Char_S: case CXType_Char_U:
        return true;
    default:
        return false;
    }
}

// A number: what a constant, a host variable or a helper's parameter may be.
bool Translator::isNumber(CXType t) {
    const CXTypeKind k = clang_getCanonicalType(t).kind;
    return isScalar(t) || k == CXType_Enum || k == CXType_UChar || k == CXType_SChar;
}

// A type of the prelude's (dim3, uint3, cudaEvent_t's and cudaStream_t's
// structs), never one the file declares.
bool Translator::preludeRecord(CXType t, std::initializer_list<const char*> names) {
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Record) return false;
    const CXCursor declaration = clang_getTypeDeclaration(t);
    if (expansion(clang_getCursorLocation(declaration)).mainFile) return false;
    const std::string name = str(clang_getCursorSpelling(declaration));
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

// dim3, uint3 and CUDA's vector types (int2, float4, ...): the
// prelude's aggregates of numbers, which a variable may hold and whose
// x, y, z and w may be read and written.
bool Translator::cudaValueType(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Record) return false;
    const CXCursor declaration = clang_getTypeDeclaration(t);
    if (expansion(clang_getCursorLocation(declaration)).mainFile) return false;
    const std::string name = str(clang_getCursorSpelling(declaration));
    if (name == "dim3" || name == "uint3") return true;
    if (name.size() < 2 || name.back() < '1' || name.back() > '4') return false;
    const std::string element = name.substr(0, name.size() - 1);
    for (const char* e : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
                          "ulonglong", "float", "double"})
        if (element == e) return true;
    return false;
}

// make_int2 and the other makers of CUDA's vector types (the prelude's).
bool Translator::vectorMaker(CXCursor function) {
    if (clang_Cursor_isNull(function) || clang_getCursorKind(function) != CXCursor_FunctionDecl) return false;
    if (expansion(clang_getCursorLocation(function)).mainFile) return false;
    const std::string name = str(clang_getCursorSpelling(function));
    return name.rfind("make_", 0) == 0 && cudaValueType(clang_getResultType(clang_getCursorType(function)));
}

// cudaEvent_t and cudaStream_t, the two pointers host code may hold.
bool Translator::isEventOrStream(CXType t) {
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer && preludeRecord(clang_getPointeeType(t), {"CUevent_st", "CUstream_st"});
}

bool Translator::isFunctionType(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    return t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto;
}

bool Translator::isPointerType(CXType t) {
    const CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_Pointer || k == CXType_BlockPointer || k == CXType_MemberPointer ||
           k == CXType_ObjCObjectPointer || k == CXType_NullPtr;
}

bool Translator::isArrayType(CXType t) {
    const CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
           k == CXType_DependentSizedArray;
}

// What launch() and its host functions may declare: numbers, dim3,
// events, streams and cudaError_t (an enum), or a reference to one.
bool Translator::isHostType(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    return isNumber(t) || isEventOrStream(t) || cudaValueType(t);
}

bool Translator::is2D(CXType t) {
    t = clang_getCanonicalType(t);
    return clang_getCanonicalType(clang_getArrayElementType(t)).kind == CXType_ConstantArray;
}

// [SECTION] Operators, read from the text between their operands.

// The operator the file's text holds between `from` and `to`, spaces and
// comments apart. Reading it there costs what the operator's text does;
// tokenising a whole expression at each of its levels would cost its size
// at every level, quadratic in a deep one.
Translator::Operator Translator::operatorBetween(unsigned from, unsigned to) const {
    static const std::string kOperatorCharacters = "+-*/%=<>!&|^~";
    if (to > m_text.size()) to = static_cast<unsigned>(m_text.size());
    for (unsigned i = from; i < to;) {
        if (m_text.compare(i, 2, "//") == 0) {
            while (i < to && m_text[i] != '\n') ++i;
            continue;
        }
        if (m_text.compare(i, 2, "/*") == 0) {
            const std::size_t end = m_text.find("*/", i + 2);
            i = end == std::string::npos ? to : static_cast<unsigned>(end + 2);
            continue;
        }
        if (kOperatorCharacters.find(m_text[i]) == std::string::npos) {
            ++i;
            continue;
        }
        unsigned e = i;
        while (e < to && kOperatorCharacters.find(m_text[e]) != std::string::npos &&
               m_text.compare(e, 2, "//") != 0 && m_text.compare(e, 2, "/*") != 0)
            ++e;
        return Operator{m_text.substr(i, e - i), i, e};
    }
    return {};
}

// A binary expression's operator: after its left operand. Where a macro
// wrote the expression (no text between the operands), its tokens, when
// they are few.
Translator::Operator Translator::binaryOperator(CXCursor c) const {
    const std::vector<CXCursor> kids = children(c);
    if (kids.size() != 2) return {};
    const unsigned lhsEnd = endOf(kids[0]);
    if (const Operator op = operatorBetween(lhsEnd, beginOf(kids[1])); !op.spelling.empty()) return op;
    if (endOf(c) < beginOf(c) || endOf(c) - beginOf(c) > kSmallExtent) return {};
    for (const Token& t : tokens(c))
        if (t.begin >= lhsEnd) return Operator{t.spelling, t.begin, t.end};
    return {};
}

// A unary expression's operator: before its operand (first) or after it (second).
std::pair<std::string, std::string> Translator::unaryOperator(CXCursor c, CXCursor operand) const {
    std::string first = operatorBetween(beginOf(c), beginOf(operand)).spelling;
    std::string last = operatorBetween(endOf(operand), endOf(c)).spelling;
    if ((first.empty() && last.empty()) && endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
        const std::vector<Token> t = tokens(c);
        if (!t.empty()) {
            first = t.front().spelling;
            last = t.back().spelling;
        }
    }
    return {first, last};
}

// The operator of a binary expression: the first token after its left operand.
std::string Translator::operatorOf(CXCursor c) const { return binaryOperator(c).spelling; }

// [SECTION] What an expression is part of, and what it names.

// The expression that uses the value statement() is at: past
// parentheses, conversions and casts.
CXCursor Translator::userOfValue() const {
    for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
        const CXCursorKind k = clang_getCursorKind(m_ancestors[i]);
        if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr ||
            k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXConstCastExpr ||
            k == CXCursor_CXXFunctionalCastExpr)
            continue;
        return m_ancestors[i];
    }
    return clang_getNullCursor();
}

// Whether the value of the expression statement() is in (the innermost
// cursor) is used: false for one that is a statement of its own.
bool Translator::valueUsed() const {
    for (std::size_t i = m_ancestors.size() - 1; i-- > 0;) {
        const CXCursorKind k = clang_getCursorKind(m_ancestors[i]);
        if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) continue;
        // In a statement (a block, if, for, ...) it is a statement of its
        // own or a condition, which reads an element as a bool as it is.
        return !clang_isStatement(k);
    }
    return false;
}

// Where the expression's text starts in the file: its own place, or for an
// expression passed to a macro, its place in the macro's arguments. None
// (UINT_MAX) for one written inside a macro's definition, which every use
// of the macro shares.
unsigned Translator::spellingOf(CXCursor c) const {
    const CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile file;
    unsigned line, column, offset;
    clang_getSpellingLocation(start, &file, &line, &column, &offset);
    const Where at = expansion(start);
    if (!at.mainFile || !clang_File_isEqual(file, t_mainFile)) return UINT_MAX;
    if (offset < at.offset) return UINT_MAX;  // in a #define, above its use
    return offset;
}

// The name the element or row is indexed through (s for s[i][j]), as written.
CXCursor Translator::rootReference(CXCursor c) {
    while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
        const std::vector<CXCursor> kids = children(c);
        if (kids.empty()) return clang_getNullCursor();
        c = unwrap(kids[0]);
    }
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? c : clang_getNullCursor();
}

// Where a declaration's name is: what tells two declarations of one name apart.
unsigned Translator::declarationAt(CXCursor reference) {
    const CXCursor target = clang_getCursorReferenced(reference);
    if (clang_Cursor_isNull(target)) return UINT_MAX;
    const Where at = expansion(clang_getCursorLocation(target));
    return at.mainFile ? at.offset : UINT_MAX;  // the prelude's names are none of the file's arrays
}

// The name of the array an element or row belongs to (s for s[i][j]).
std::string Translator::rootArray(CXCursor c) {
    while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
        const std::vector<CXCursor> kids = children(c);
        if (kids.empty()) return {};
        c = unwrap(kids[0]);
    }
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? str(clang_getCursorSpelling(c)) : std::string();
}

// A declarator after the first of its declaration (`b` in `float& a = x,
// &b = y;` or `__shared__ float a[32], b[8];`), whose extent starts at its
// name: where the comma before it is, or npos. `amp`, when given, is set
// to where its `&` is (npos without one).
std::size_t Translator::declaratorComma(unsigned begin, std::size_t* amp) const {
    std::size_t k = begin;
    if (amp) *amp = std::string::npos;
    while (k > 0 && (std::isspace(static_cast<unsigned char>(m_text[k - 1])) || m_text[k - 1] == '&' ||
                     m_text[k - 1] == '*')) {
        if (amp && m_text[k - 1] == '&') *amp = k - 1;
        --k;
    }
    return k > 0 && m_text[k - 1] == ',' ? k - 1 : std::string::npos;
}

}  // namespace tilescope::own::detail

#endif
