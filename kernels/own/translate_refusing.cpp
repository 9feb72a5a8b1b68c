// What a kernel file may not do, refused with its line and why: the calls it
// may make (the allow-lists), and each construct of a body that the
// executions cannot follow, named as the student wrote it.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <cctype>
#include <span>
#include <string>
#include <vector>

#include "own/text_checks.hpp"

namespace tilescope::own::detail {

// [SECTION] What a kernel and launch() may call.

namespace {

// CUDA's math API, single and double precision (the names its headers
// declare, with C++'s float overloads): what a kernel and launch() may call
// of it. sincosf, sincospif, frexpf, modff, remquof, nanf, normf and rnormf
// take pointers, which a kernel file does not hold (whyNotCall says what to
// write instead).
constexpr const char* kMathCallsList[] = {
    "ceil", "ceilf", "floor", "floorf", "sqrt", "sqrtf", "exp", "expf", "fabs", "fabsf", "round", "roundf", "log",
    "logf", "sin", "sinf", "cos", "cosf", "trunc", "truncf", "acos", "acosf", "acosh", "acoshf", "asin", "asinf",
    "asinh", "asinhf", "atan", "atanf", "atanh", "atanhf", "cbrt", "cbrtf", "cosh", "coshf", "erf", "erff", "erfc",
    "erfcf", "exp2", "exp2f", "exp10", "exp10f", "expm1", "expm1f", "lgamma", "lgammaf", "log10", "log10f",
    "log1p", "log1pf", "log2", "log2f", "logb", "logbf", "nearbyint", "nearbyintf", "rint", "rintf", "sinh",
    "sinhf", "tan", "tanf", "tanh", "tanhf", "tgamma", "tgammaf", "rsqrt", "rsqrtf", "rcbrt", "rcbrtf", "sinpi",
    "sinpif", "cospi", "cospif", "erfinv", "erfinvf", "erfcinv", "erfcinvf", "erfcx", "erfcxf", "normcdf",
    "normcdff", "normcdfinv", "normcdfinvf", "j0", "j0f", "j1", "j1f", "y0", "y0f", "y1", "y1f", "cyl_bessel_i0",
    "cyl_bessel_i0f", "cyl_bessel_i1", "cyl_bessel_i1f", "atan2", "atan2f", "copysign", "copysignf", "fdim",
    "fdimf", "fmod", "fmodf", "hypot", "hypotf", "nextafter", "nextafterf", "remainder", "remainderf", "rhypot",
    "rhypotf", "pow", "powf", "fmin", "fminf", "fmax", "fmaxf", "fma", "fmaf", "norm3d", "norm3df", "rnorm3d",
    "rnorm3df", "norm4d", "norm4df", "rnorm4d", "rnorm4df", "fdividef", "ldexp", "ldexpf", "scalbn", "scalbnf",
    "scalbln", "scalblnf", "jn", "jnf", "yn", "ynf", "ilogb", "ilogbf", "lrint", "lrintf", "llrint", "llrintf",
    "lround", "lroundf", "llround", "llroundf", "isfinite", "isinf", "isnan", "signbit", "abs", "min", "max",
};
// What the kernel may call, besides its own __device__ functions and the math API.
constexpr const char* kKernelCallsList[] = {
    "__syncthreads", "printf", "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__fmaf_rn", "__frcp_rn",
    "__fsqrt_rn", "__fdividef", "__saturatef", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__sinf",
    "__cosf", "__tanf", "__powf",
};
// What launch() may call, besides its own host functions and the math API.
constexpr const char* kHostCallsList[] = {
    "cudaMemcpyToSymbol", "cudaDeviceSynchronize", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
    "cudaEventCreate", "cudaEventRecord", "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy",
    "printf",
};

// CUDA's global functions that the CPU executor's prelude declares in its own
// namespace (own_cpu_prelude.hpp, own_cpu_math.inl): float overloads, and
// what CUDA has and C has not.
constexpr const char* kScopedOverloadsList[] = {
    "min", "max", "abs", "ceil", "floor", "sqrt", "exp", "fabs", "round", "log", "sin", "cos", "trunc", "acos",
    "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "erf", "erfc", "exp2", "exp10", "expm1", "lgamma",
    "log10", "log1p", "log2", "logb", "nearbyint", "rint", "sinh", "tan", "tanh", "tgamma", "rsqrt", "rcbrt",
    "sinpi", "cospi", "erfinv", "erfcinv", "erfcx", "normcdf", "normcdfinv", "j0", "j1", "y0", "y1",
    "cyl_bessel_i0", "cyl_bessel_i1", "atan2", "copysign", "fdim", "fmod", "hypot", "nextafter", "remainder",
    "rhypot", "pow", "fmin", "fmax", "fma", "isfinite", "isinf", "isnan", "signbit", "ilogb", "ldexp", "llrint",
    "llround", "lrint", "lround", "scalbln", "scalbn", "jn", "yn", "norm3d", "rnorm3d", "norm4d", "rnorm4d",
    "rsqrtf", "rcbrtf", "sinpif", "cospif", "exp10f", "erfinvf", "erfcinvf", "erfcxf", "normcdff", "normcdfinvf",
    "cyl_bessel_i0f", "cyl_bessel_i1f", "j0f", "j1f", "y0f", "y1f", "jnf", "ynf", "rhypotf", "norm3df", "rnorm3df",
    "norm4df", "rnorm4df", "fdividef",
    // The intrinsics (own_cpu_math.inl), `::__fadd_rn(a, b)` as CUDA allows.
    "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__fmaf_rn", "__frcp_rn", "__fsqrt_rn", "__fdividef",
    "__saturatef", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__sinf", "__cosf", "__tanf", "__powf",
};

}  // namespace

// The lists, as the other parts read them (translate_parts.hpp).
const std::span<const char* const> kMathCalls{kMathCallsList}, kKernelCalls{kKernelCallsList},
    kHostCalls{kHostCallsList}, kScopedOverloads{kScopedOverloadsList};

bool listed(const std::string& name, std::span<const char* const> list) {
    for (const char* n : list)
        if (name == n) return true;
    return false;
}

// Why a call is refused, for the calls a student is likely to try.
std::string whyNotCall(const std::string& name) {
    if (name.rfind("atomic", 0) == 0)
        return "atomics (" + name + ") are not supported: each output is written by one thread in a convolution";
    if (name.rfind("__shfl", 0) == 0 || name == "__syncwarp" || name.rfind("__ballot", 0) == 0 ||
        name.rfind("__any", 0) == 0 || name.rfind("__all", 0) == 0)
        return "warp-level primitives (" + name + ") are not supported";
    if (name == "sincosf" || name == "sincos" || name == "sincospif" || name == "sincospi")
        return name + " writes through pointers, which a kernel file does not hold: write s = sinf(x); c = cosf(x); "
                      "(sinpif and cospif for " + name.substr(0, 6) + "pi)";
    if (name == "frexpf" || name == "frexp" || name == "modff" || name == "modf" || name == "remquof" ||
        name == "remquo" || name == "nanf" || name == "nan" || name == "normf" || name == "rnormf" ||
        name == "norm" || name == "rnorm")
        return name + " takes a pointer, which a kernel file does not hold: docs/own-kernel.md lists CUDA's math "
                      "functions a kernel file may call";
    if (name == "__ldg") return "__ldg is not supported: read N[i] directly (the compiler picks the cache)";
    if (name == "__syncthreads_count" || name == "__syncthreads_and" || name == "__syncthreads_or")
        return name + " is not supported: use __syncthreads()";
    if (name == "cudaMalloc" || name == "cudaMallocManaged" || name == "cudaFree" || name == "cudaMemcpy" ||
        name == "cudaMemcpyAsync" || name == "cudaMallocPitch" || name == "cudaMemset" || name == "malloc" ||
        name == "free")
        return name + " is not needed: launch() receives N, M and P already in device memory; copy the mask "
                      "into constant memory with cudaMemcpyToSymbol";
    return "a call to " + name + " is not supported here (docs/own-kernel.md lists what is)";
}

// [SECTION] What else a body may hold: a list, and everything else refused
// by name. (Declarations, calls, casts, names and operators have checks
// of their own: below, in translate_statements.cpp and in
// translate_recognising.cpp.)

namespace {

constexpr const char* kHostHolds =
    "launch() and its host functions may hold numbers, dim3, cudaEvent_t and cudaStream_t, if, for, while, do, "
    "switch and return, calls of CUDA's documented functions and of the file's own, and kernel launches";
constexpr const char* kDeviceHolds =
    "a kernel may hold numbers and local arrays of them, its arrays indexed with [], if, for, while, do, switch "
    "and return, and calls of CUDA's documented functions and of the file's own __device__ functions";

}  // namespace

void Translator::otherCursor(CXCursor c, CXCursorKind kind, bool device) const {
    const unsigned line = lineOf(c);
    if (clang_isAttribute(kind)) return;  // checked with the declaration they belong to
    switch (kind) {
    case CXCursor_CompoundStmt: case CXCursor_DeclStmt: case CXCursor_IfStmt: case CXCursor_ForStmt:
    case CXCursor_WhileStmt: case CXCursor_DoStmt: case CXCursor_SwitchStmt: case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: case CXCursor_BreakStmt: case CXCursor_ContinueStmt: case CXCursor_ReturnStmt:
    case CXCursor_NullStmt: case CXCursor_TypeRef: case CXCursor_TemplateRef: case CXCursor_TypedefDecl:
    case CXCursor_TypeAliasDecl: case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral: case CXCursor_StringLiteral: case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_CXXNullPtrLiteralExpr: case CXCursor_ParenExpr: case CXCursor_UnaryExpr:
    case CXCursor_InitListExpr:
    case CXCursor_ParmDecl:  // a parameter of a function type a declaration names
        return;
    case CXCursor_ConditionalOperator:
        if (!device && (isPointerType(clang_getCursorType(c)) || isFunctionType(clang_getCursorType(c))))
            reject(line, "a choice between pointers (c ? N : P) in host code: launch() passes N, M and P to the "
                         "kernel as they are; choose between two launches instead");
        return;
    case CXCursor_MemberRefExpr: {
        const CXCursor member = clang_getCursorReferenced(c);
        const CXCursor owner = clang_getCursorSemanticParent(member);
        // x, y, z and w, and dim3's conversion to uint3 (`uint3 t = blockDim;`, implicit).
        const CXCursorKind memberKind = clang_getCursorKind(member);
        if ((memberKind == CXCursor_FieldDecl || memberKind == CXCursor_ConversionFunction) &&
            cudaValueType(clang_getCursorType(owner)))
            return;
        reject(line, "." + str(clang_getCursorSpelling(c)) + " is a member of something other than dim3 or "
                         "CUDA's vector types: " + (device ? kDeviceHolds : kHostHolds));
    }
    case CXCursor_UnexposedStmt: {
        // `#pragma unroll` or [[likely]] before one statement.
        const std::vector<CXCursor> kids = children(c);
        if (kids.size() == 1 && clang_isStatement(clang_getCursorKind(kids[0]))) return;
        break;
    }
    case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt: case CXCursor_LabelStmt: case CXCursor_AddrLabelExpr:
        reject(line, "goto and labels are not supported in a kernel file: use a loop, break, continue or return");
    default:
        break;
    }
    reject(line, inWords(c, kind) + " is not supported in " +
                     (device ? "device code: " : "launch() or its host functions: ") +
                     (device ? kDeviceHolds : kHostHolds));
}

// A construct, in words, or as the file writes it (its first tokens).
std::string Translator::inWords(CXCursor c, CXCursorKind kind) const {
    switch (kind) {
    case CXCursor_CXXForRangeStmt: return "a range-based for loop (for (x : a))";
    case CXCursor_StmtExpr: return "a statement expression (({ ... }))";
    case CXCursor_CompoundLiteralExpr: return "a compound literal";
    case CXCursor_CXXThisExpr: return "this";
    case CXCursor_CXXTypeidExpr: return "typeid";
    case CXCursor_GenericSelectionExpr: return "_Generic";
    case CXCursor_StructDecl: case CXCursor_UnionDecl: case CXCursor_ClassDecl: case CXCursor_EnumDecl:
        return "a struct, union, class or enum declared in a function";
    default: break;
    }
    std::string words;
    if (endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
        const std::vector<Token> t = tokens(c);
        for (std::size_t i = 0; i < t.size() && i < 4 && t[i].spelling != "{" && t[i].spelling != ";"; ++i)
            words += (words.empty() ? "" : " ") + t[i].spelling;
    }
    for (char& ch : words)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
    return words.empty() ? std::string("this construct") : "`" + words + "`";
}

// A function named other than as the one a call calls: its address.
// (A variable it initialises is refused for what it is, and a call through
// it at the call.)
void Translator::functionValue(CXCursor c) const {
    const CXCursorKind tk = clang_getCursorKind(clang_getCursorReferenced(c));
    if (clang_getCursorKind(userOfValue()) == CXCursor_VarDecl) return;
    if (tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate)
        reject(lineOf(c), "the address of a function (" + str(clang_getCursorSpelling(c)) +
                              "): a kernel file calls functions by their name (" + str(clang_getCursorSpelling(c)) +
                              "(...)) and holds no pointer to one");
}

// `&printf`: a function's address, whatever uses it.
void Translator::functionAddress(CXCursor c) const {
    const std::vector<CXCursor> kids = children(c);
    if (kids.size() != 1 || clang_getCursorKind(unwrap(kids[0])) != CXCursor_DeclRefExpr) return;
    const CXCursorKind tk = clang_getCursorKind(clang_getCursorReferenced(unwrap(kids[0])));
    if (tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate)
        reject(lineOf(c), "the address of a function (" + str(clang_getCursorSpelling(unwrap(kids[0]))) +
                              "): a kernel file calls functions by their name, and holds no pointer to one");
}

namespace {

bool isKernelLaunch(CXCursor call) {
    if (clang_getCursorKind(call) != CXCursor_CallExpr) return false;
    for (CXCursor k : children(call)) {
        k = unwrap(k);
        if (clang_getCursorKind(k) == CXCursor_CallExpr &&
            launchConfiguration(str(clang_getCursorSpelling(k))))
            return true;
    }
    return false;
}

}  // namespace

// A name in host code: a number, a dim3, an event or a stream of the
// file's; launch()'s N, M and P only as a kernel's or cudaMemcpyToSymbol's
// argument (or in sizeof), and the __constant__ array only there too.
void Translator::hostReference(CXCursor c) const {
    const CXCursor target = clang_getCursorReferenced(c);
    const CXCursorKind tk = clang_getCursorKind(target);
    const std::string name = str(clang_getCursorSpelling(c));
    const unsigned line = lineOf(c);
    if (tk == CXCursor_EnumConstantDecl || tk == CXCursor_FunctionDecl || tk == CXCursor_FunctionTemplate) return;
    if (tk == CXCursor_CXXMethod &&
        preludeRecord(clang_getCursorType(clang_getCursorSemanticParent(target)), {"dim3"}))
        return;  // dim3's assignment
    const CXCursor user = userOfValue();
    const bool unevaluated = clang_getCursorKind(user) == CXCursor_UnaryExpr;  // sizeof
    // A pointer variable it initialises is refused once the body has been read (hostBody).
    const bool passed = isKernelLaunch(user) || clang_getCursorKind(user) == CXCursor_VarDecl ||
                        (clang_getCursorKind(user) == CXCursor_CallExpr &&
                         str(clang_getCursorSpelling(user)) == "cudaMemcpyToSymbol");
    if (tk == CXCursor_ParmDecl) {
        if (!isPointerType(clang_getCursorType(target)) || unevaluated || passed) return;
        reject(line, name + " is used in host code other than as an argument of a kernel launch or of "
                            "cudaMemcpyToSymbol: launch() passes N, M and P on as they are, and holds no other "
                            "pointer");
    }
    if (tk == CXCursor_VarDecl) {
        if (!expansion(clang_getCursorLocation(target)).mainFile)
            reject(line, name + " is not available in host code: launch() computes the grid and the block from "
                                "the sizes it is given");
        if (m_constantNames.count(name) &&
            clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit &&
            !unevaluated && !passed)
            reject(line, name + ", the __constant__ array, is used in host code other than in "
                                "cudaMemcpyToSymbol(" + name + ", M, bytes) or sizeof");
        return;
    }
    reject(line, name + " cannot be used in launch() or its host functions: " + kHostHolds);
}

// An operator in host code works on numbers: on a pointer it is pointer
// arithmetic, a comparison or an assignment of pointers, an address or a
// load through one.
void Translator::hostOperator(CXCursor c) {
    const std::vector<CXCursor> kids = children(c);
    auto pointer = [](CXType t) { return isPointerType(t) || isArrayType(t) || isFunctionType(t); };
    bool onPointer = pointer(clang_getCursorType(c));
    CXType which = clang_getCursorType(c);
    for (CXCursor k : kids)
        if (pointer(clang_getCursorType(k))) {
            onPointer = true;
            which = clang_getCursorType(k);
        }
    if (!onPointer) return;
    const unsigned line = lineOf(c);
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator && !kids.empty()) {
        const std::string op = unaryOperator(c, kids[0]).first;
        const std::string operand = str(clang_getCursorSpelling(unwrap(kids[0])));
        if (op == "&")
            reject(line, "the address of a variable (&" + operand + ") in host code: only cudaEventCreate(&event) "
                         "and cudaEventElapsedTime(&ms, start, stop) take one");
        if (op == "*")
            reject(line, "a load through a pointer (*" + operand + ") in host code: N, M and P are in device "
                         "memory, which only kernels index");
    }
    const std::string op = clang_getCursorKind(c) == CXCursor_UnaryOperator
                               ? [&] {
                                     const auto ops = unaryOperator(c, kids.empty() ? c : kids[0]);
                                     return ops.first.empty() ? ops.second : ops.first;
                                 }()
                               : operatorOf(c);
    reject(line, "pointer arithmetic (" + (op.empty() ? std::string("an operator") : "`" + op + "`") + " on " +
                     typeName(which) + ") in host code: launch() passes N, M and P to the kernel as they are, and "
                                       "holds no other pointer");
}

// A cast in host code makes a number, a dim3, or passes launch()'s own
// N, M or P on as another pointer type (const_cast<float*>(N), (float*)M),
// or makes a null stream ((cudaStream_t)0). Nothing else becomes a pointer.
void Translator::hostCast(CXCursor c, CXCursorKind kind) const {
    const CXType to = clang_getCursorType(c);
    if (!isPointerType(to) && kind != CXCursor_CXXConstCastExpr) return;  // a number: its operand is checked
    CXCursor operand = c;
    for (;;) {
        CXCursor next = clang_getNullCursor();
        for (CXCursor child : children(operand))
            if (clang_isExpression(clang_getCursorKind(child))) next = child;
        if (clang_Cursor_isNull(next)) break;
        operand = next;
        const CXCursorKind k = clang_getCursorKind(operand);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
            k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXConstCastExpr &&
            k != CXCursor_CXXFunctionalCastExpr)
            break;
    }
    // `(float*)malloc(...)`: the call is refused for what it is, or what it
    // gives (cudaGetErrorString's text) is checked where it is used.
    if (clang_getCursorKind(operand) == CXCursor_CallExpr) return;
    const CXCursor target = clang_getCursorReferenced(operand);
    if (clang_getCursorKind(operand) == CXCursor_DeclRefExpr && clang_getCursorKind(target) == CXCursor_ParmDecl &&
        isFloatPointer(clang_getCursorType(target)))
        return;  // N, M or P
    if (kind != CXCursor_CXXConstCastExpr && isPointerType(to)) {
        if (clang_getCursorKind(operand) == CXCursor_CXXNullPtrLiteralExpr) return;
        const CXEvalResult value = clang_Cursor_Evaluate(operand);
        if (value) {
            const bool zero = clang_EvalResult_getKind(value) == CXEval_Int &&
                              clang_EvalResult_getAsLongLong(value) == 0;
            clang_EvalResult_dispose(value);
            if (zero) return;  // (cudaStream_t)0
        }
    }
    reject(lineOf(c), std::string(kind == CXCursor_CXXConstCastExpr ? "const_cast<" : "a cast to ") +
                          typeName(to) + (kind == CXCursor_CXXConstCastExpr ? ">" : "") +
                          " in host code: launch() passes N, M and P on as they are (const_cast<float*>(N) and "
                          "(float*)N are fine), and holds no other pointer");
}

// A compiler's builtin, named or taken: a function the parser declares
// itself (no file holds its declaration) or one with a builtin's name.
bool Translator::builtinFunction(CXCursor target) {
    const CXCursorKind k = clang_getCursorKind(target);
    if (k != CXCursor_FunctionDecl) return false;
    if (compilerName(str(clang_getCursorSpelling(target)))) return true;
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(target), &file, nullptr, nullptr, nullptr);
    return file == nullptr;
}

void Translator::builtinReference(CXCursor c) const {
    const CXCursor target = clang_getCursorReferenced(c);
    if (!clang_Cursor_isNull(target) && builtinFunction(target))
        reject(lineOf(c), whyNotCompilerName(str(clang_getCursorSpelling(target))));
}

// The name of the builtin in the statement under way, as the parser
// prints it (the file may spell it in pieces).
std::string Translator::builtinAround() const {
    for (std::size_t i = m_ancestors.size(); i-- > 0;) {
        const std::string printed = str(clang_getCursorPrettyPrinted(m_ancestors[i], nullptr));
        for (std::size_t k = 0; k < printed.size();) {
            if (!std::isalpha(static_cast<unsigned char>(printed[k])) && printed[k] != '_') {
                ++k;
                continue;
            }
            std::size_t e = k;
            while (e < printed.size() && (std::isalnum(static_cast<unsigned char>(printed[e])) || printed[e] == '_'))
                ++e;
            if (compilerName(printed.substr(k, e - k))) return printed.substr(k, e - k);
            k = e;
        }
    }
    return "a compiler builtin";
}

// A cast that makes a pointer out of what is not one (`(float*)0x1000`,
// `reinterpret_cast<float*>(12345)`, a number through `(long&)p`) points
// wherever the number says, at memory no trace sees. Casts between
// pointers stay (`(void**)&d_N`, `(float*)malloc(...)`, `(const float*)P`),
// and so does a null pointer (`(cudaStream_t)0`).
void Translator::cast(CXCursor c, CXCursorKind kind) const {
    const CXType to = clang_getCanonicalType(clang_getCursorType(c));
    const std::string spelled = typeName(clang_getCursorType(c));
    CXCursor operand = clang_getNullCursor();
    for (CXCursor child : children(c))
        if (clang_isExpression(clang_getCursorKind(child))) operand = child;
    if (clang_Cursor_isNull(operand)) return;
    const CXType from = clang_getCanonicalType(clang_getCursorType(operand));
    auto isPointer = [](CXType t) {
        return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer || t.kind == CXType_MemberPointer ||
               t.kind == CXType_ObjCObjectPointer;
    };
    // `(long)printf`, `(void (*)())x`: a function is called by its name, never through a number.
    if (isFunctionType(from) || isFunctionType(to))
        reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                              ": a kernel file calls functions by their name, and holds no pointer to one");
    // `(long&)p`, `static_cast<float&>(x)`: a reference, written before
    // the operand (an expression's type is never one). Read from the
    // text before the operand, or the tokens of a cast a macro wrote.
    bool reference = false;
    const unsigned operandAt = beginOf(operand);
    if (operandAt > beginOf(c)) {
        for (unsigned i = beginOf(c); i < operandAt && i < m_text.size(); ++i)
            if (m_text[i] == '&') reference = true;
    } else if (endOf(c) >= beginOf(c) && endOf(c) - beginOf(c) <= kSmallExtent) {
        for (const Token& t : tokens(c))
            if (t.begin < operandAt && (t.spelling == "&" || t.spelling == "&&")) reference = true;
    }
    if (kind == CXCursor_CXXReinterpretCastExpr && (isPointer(to) || reference))
        reject(lineOf(c), "reinterpret_cast<" + spelled + (reference ? "&" : "") +
                              ">: a kernel file may not reinterpret memory; index the kernel's arrays as they are "
                              "(static_cast and const_cast between pointers are fine)");
    // A pointer read as a number, or a variable as another type's: its bits.
    if (isPointer(from) && !isPointer(to) && to.kind != CXType_Bool && to.kind != CXType_Void)
        reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                              (reference ? "&" : "") + " reads a pointer as a number: a kernel file may not");
    if (reference && !isPointer(to) && to.kind != from.kind)
        reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                              "& reads its bytes as another type: a kernel file may not");
    if (!isPointer(to)) return;
    switch (from.kind) {
    case CXType_Pointer: case CXType_BlockPointer: case CXType_MemberPointer: case CXType_ObjCObjectPointer:
    case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
    case CXType_DependentSizedArray: case CXType_NullPtr: case CXType_FunctionProto: case CXType_FunctionNoProto:
        return;
    default:
        break;
    }
    // `(float*)malloc(...)`: the call is refused for what it is.
    const CXCursor inner = unwrap(operand);
    if (clang_getCursorKind(inner) == CXCursor_CallExpr) {
        const std::string callee = str(clang_getCursorSpelling(inner));
        const CXCursor target = clang_getCursorReferenced(inner);
        if (!clang_Cursor_isNull(target) && !expansion(clang_getCursorLocation(target)).mainFile &&
            !listed(callee, kKernelCalls) && !listed(callee, kHostCalls) && !listed(callee, kMathCalls))
            return;
    }
    // A number that is 0 is the null pointer (`(cudaStream_t)0`, `(float*)NULL`).
    const CXEvalResult value = clang_Cursor_Evaluate(operand);
    if (value) {
        const bool zero = clang_EvalResult_getKind(value) == CXEval_Int &&
                          clang_EvalResult_getAsLongLong(value) == 0;
        clang_EvalResult_dispose(value);
        if (zero) return;
    }
    reject(lineOf(c), "a cast of " + typeName(clang_getCursorType(operand)) + " to " + spelled +
                          " makes a pointer out of a number: a kernel file may use only the pointers it is given "
                          "(N, M, P) and its own arrays, which the trace follows");
}

// An assignment into a __constant__ array: constant memory is read-only to kernels.
void Translator::constantWrite(CXCursor c) {
    const std::vector<CXCursor> kids = children(c);
    if (kids.size() != 2) return;
    CXCursor base = unwrap(kids[0]);
    if (clang_getCursorKind(base) != CXCursor_ArraySubscriptExpr) return;
    while (clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr) {
        const std::vector<CXCursor> sub = children(base);
        if (sub.empty()) return;
        base = unwrap(sub[0]);
    }
    const std::string name = str(clang_getCursorSpelling(base));
    if (!m_constantNames.count(name)) return;
    const std::string op = operatorOf(c);
    if (op.size() >= 1 && op.back() == '=' && op != "==" && op != "<=" && op != ">=" && op != "!=")
        reject(lineOf(c), "a kernel writes " + name + ", a __constant__ array: constant memory is "
                          "read-only to kernels (launch() fills it with cudaMemcpyToSymbol)");
}

// printf's format is a literal the check reads: no %n (which writes
// through its argument), a string (%s) only from a literal or
// cudaGetErrorString, and no fewer values than the format takes (printf
// would read values that are not there).
void Translator::printfCall(CXCursor c, const std::vector<CXCursor>& kids) const {
    const unsigned line = lineOf(c);
    if (kids.size() < 2 || clang_getCursorKind(unwrap(kids[1])) != CXCursor_StringLiteral)
        reject(line, "printf's format is a string literal here (printf(\"%d\\n\", x)), so that TileScope "
                     "knows what it reads");
    std::string format;
    bool evaluated = false;
    // The literal as the compiler reads it (escapes, pieces joined), through
    // the conversion to a pointer that printf's parameter makes.
    for (const CXCursor literal : {kids[1], unwrap(kids[1])}) {
        if (evaluated) break;
        if (const CXEvalResult value = clang_Cursor_Evaluate(literal)) {
            if (clang_EvalResult_getKind(value) == CXEval_StrLiteral) {
                format = clang_EvalResult_getAsStr(value);
                evaluated = true;
            }
            clang_EvalResult_dispose(value);
        }
    }
    if (!evaluated) reject(line, "printf's format is a plain string literal here (printf(\"%d\\n\", x))");
    auto any = [](char ch, const char* set) { return ch != '\0' && std::string(set).find(ch) != std::string::npos; };
    std::vector<char> takes;  // per value: its conversion, '*' for a width or a precision
    for (std::size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%') continue;
        if (++i < format.size() && format[i] == '%') continue;
        while (i < format.size() && any(format[i], "-+ #0'")) ++i;
        if (i < format.size() && format[i] == '*') {
            takes.push_back('*');
            ++i;
        }
        while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
        if (i < format.size() && format[i] == '$')
            reject(line, "printf's numbered values (%1$d) are not supported: pass the values in the order the "
                         "format takes them");
        if (i < format.size() && format[i] == '.') {
            ++i;
            if (i < format.size() && format[i] == '*') {
                takes.push_back('*');
                ++i;
            }
            while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
        }
        while (i < format.size() && any(format[i], "hlLqjzt")) ++i;
        const char conversion = i < format.size() ? format[i] : '\0';
        if (conversion == 'n')
            reject(line, "printf's %n writes through its argument: a kernel file may not use it");
        if (!any(conversion, "diouxXeEfFgGaAcsp"))
            reject(line, std::string("printf's format holds %") +
                             (std::isprint(static_cast<unsigned char>(conversion)) ? std::string(1, conversion)
                                                                                  : std::string()) +
                             ", which a kernel file's printf does not take (%d, %u, %x, %f, %e, %g, %c, %s, %p "
                             "and %% do)");
        takes.push_back(conversion);
    }
    const std::size_t values = kids.size() - 2;
    if (values < takes.size())
        reject(line, "printf's format takes " + std::to_string(takes.size()) + " values and the call passes " +
                         std::to_string(values) + ": printf would read values that are not there");
    for (std::size_t v = 0; v < values; ++v) {
        const CXCursor value = unwrap(kids[2 + v]);
        const bool string = clang_getCursorKind(value) == CXCursor_StringLiteral ||
                            (clang_getCursorKind(value) == CXCursor_CallExpr &&
                             str(clang_getCursorSpelling(value)) == "cudaGetErrorString");
        if ((v < takes.size() && takes[v] == 's' && !string) ||
            (!string && isPointerType(clang_getCursorType(kids[2 + v]))))
            reject(line, "printf's %s takes a string literal or cudaGetErrorString(err) here, and printf no "
                         "other pointer");
    }
}

}  // namespace tilescope::own::detail

#endif
