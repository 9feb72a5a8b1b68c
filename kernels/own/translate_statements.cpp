// The walk over a body: each statement, name, operator and call, sent to
// what checks it (translate_refusing.cpp) and what rewrites it
// (translate_rewriting.cpp).
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <algorithm>
#include <string>
#include <vector>

#include "own/text_checks.hpp"

namespace tilescope::own::detail {

// [SECTION] Kernels and what their bodies may do.

void Translator::statement(CXCursor c, Scope& scope) {
    const CXCursorKind kind = clang_getCursorKind(c);
    // A conversion the parser adds is no level of the student's.
    const bool counted = kind != CXCursor_UnexposedExpr;
    m_ancestors.push_back(c);
    struct Pop {
        std::vector<CXCursor>& stack;
        unsigned& nesting;
        bool counted;
        ~Pop() {
            stack.pop_back();
            if (counted) --nesting;
        }
    } pop{m_ancestors, m_nesting, counted};
    const unsigned line = lineOf(c);
    if (counted && ++m_nesting > kMaxNesting)
        reject(line, "this is nested more than " + std::to_string(kMaxNesting) +
                         " levels deep (operators, conditions, blocks): split it into statements of their own, "
                         "with a local variable for each part");
    const std::string name = str(clang_getCursorSpelling(c));
    const bool device = scope.context != Context::Host;
    switch (kind) {
    case CXCursor_VarDecl:
        localVariable(c, scope);
        return;
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
        reject(line, "new and delete are not supported in a kernel file: launch() receives N, M and P in device "
                     "memory; in a kernel, use a local array of fixed size or a __shared__ array");
    case CXCursor_LambdaExpr:
        reject(line, "lambdas are not supported in a kernel file: write a __device__ function");
    case CXCursor_GCCAsmStmt:
    case CXCursor_MSAsmStmt:
        reject(line, "inline assembly is not supported: write it in CUDA C++");
    case CXCursor_CXXThrowExpr:
    case CXCursor_CXXTryStmt:
        reject(line, "exceptions are not supported in a kernel file (nor in CUDA device code): check the "
                     "condition and return");
    case CXCursor_CallExpr:
        call(c, scope);
        return;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXDynamicCastExpr:
    case CXCursor_CXXAddrspaceCastExpr:
    case CXCursor_CXXConstCastExpr:
        cast(c, kind);
        if (!device) hostCast(c, kind);
        break;
    case CXCursor_BuiltinBitCastExpr:
        reject(line, whyNotCompilerName("__builtin_bit_cast"));
    case CXCursor_UnexposedExpr:
        // A conversion has one operand. One with more is a builtin that
        // is no call (`__atomic_load_n(p, 0)`, its name made by `##`).
        if (children(c).size() > 1) reject(line, whyNotCompilerName(builtinAround()));
        break;
    case CXCursor_ArraySubscriptExpr: {
        if (!device)
            reject(line, "an array element (a[i]) in host code: N, M and P are in device memory, which only "
                         "kernels index, and launch() and its host functions hold no array of their own");
        const std::vector<CXCursor> kids = children(c);
        if (!kids.empty()) {
            const CXCursor base = unwrap(kids[0]);
            if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) m_subscripted.insert(beginOf(base));
            // `"abc"[i]`: an element of what no name says. (Other bases are
            // refused for what they are: a cast, an address, an array passed on.)
            else if (clang_getCursorKind(base) == CXCursor_StringLiteral)
                reject(line, "an element of something other than an array the kernel names (" +
                                 inWords(c, kind) + "): index N, M, P and the kernel's own arrays by their names");
        }
        if (device) elementRead(c);
        break;
    }
    case CXCursor_DeclRefExpr:
        builtinReference(c);
        globalQualifier(c);
        if (device) {
            reference(c, scope);
            elementReferenceRead(c);
        } else {
            hostReference(c);
        }
        functionValue(c);
        break;
    case CXCursor_UnaryOperator:
        functionAddress(c);
        if (device) unary(c);
        else hostOperator(c);
        break;
    case CXCursor_CompoundAssignOperator:
        if (!device) hostOperator(c);
        if (device) {
            constantWrite(c);
            assigned(c);
        }
        if (device && compoundAssign(c, scope)) return;
        break;
    case CXCursor_BinaryOperator:
        if (!device) hostOperator(c);
        if (device) {
            constantWrite(c);
            if (operatorOf(c) == "=") assigned(c);
        }
        break;
    default:
        otherCursor(c, kind, device);
        break;
    }
    (void)name;
    for (CXCursor child : children(c)) statement(child, scope);
}

// A name used on its own: the arrays may only be indexed.
void Translator::reference(CXCursor c, Scope& scope) {
    const std::string name = str(clang_getCursorSpelling(c));
    const CXCursor target = clang_getCursorReferenced(c);
    const CXCursorKind tk = clang_getCursorKind(target);
    const bool array = (tk == CXCursor_ParmDecl && isFloatPointer(clang_getCursorType(target))) ||
                       m_sharedDeclarations.count(declarationAt(c)) ||
                       (tk == CXCursor_VarDecl && m_constantNames.count(name) &&
                        clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit);
    if (array && !m_subscripted.count(beginOf(c)))
        reject(lineOf(c), name + " is used here other than as " + name + "[...] (pointer arithmetic, &, sizeof, "
                          "or passed on): TileScope follows arrays through their [] alone, so index it directly");
    if (tk == CXCursor_FunctionDecl && hasAttr(target, CXCursor_CUDAGlobalAttr) && scope.context != Context::Host)
        reject(lineOf(c), "a kernel launching a kernel (dynamic parallelism) is not supported");
}

void Translator::unary(CXCursor c) {
    const std::vector<CXCursor> kids = children(c);
    if (kids.empty()) return;
    const CXCursor operand = unwrap(kids[0]);
    const bool element = clang_getCursorKind(operand) == CXCursor_ArraySubscriptExpr;
    const auto [first, last] = unaryOperator(c, kids[0]);
    if (element && (first == "&"))
        reject(lineOf(c), "the address of an array element (&a[i]) is not supported: index the array itself");
    // `(&x)[100000]` reaches past a local variable, where no trace looks.
    // Device code holds no pointer but the arrays it indexes: a unary
    // operator that gives one takes an address (`&x`, also through a macro).
    if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer)
        reject(lineOf(c), "the address of a variable (&" + str(clang_getCursorSpelling(operand)) +
                          ") is not supported in device code: use the variable itself");
    if (first == "++" || first == "--" || last == "++" || last == "--") {
        const std::string array = element ? rootArray(operand) : "";
        if (m_constantNames.count(array))
            reject(lineOf(c), "a kernel writes " + array + ", a __constant__ array: constant memory is "
                              "read-only to kernels (launch() fills it with cudaMemcpyToSymbol)");
        written(kids[0]);  // loaded, then stored
        // `++s[t]` gives the element; where its value is used, as a float.
        if (element && (first == "++" || first == "--") && valueUsed() &&
            writableElement(operand) &&
            spellingOf(c) == beginOf(c)) {
            edit(beginOf(c), beginOf(c), "static_cast<" + readAs(operand) + ">(");
            close(endOf(c), ")");
        }
    }
}

void Translator::call(CXCursor c, Scope& scope) {
    if (launchConfiguration(str(clang_getCursorSpelling(c)))) {
        const std::vector<CXCursor> kids = children(c);
        for (std::size_t i = 1; i < kids.size(); ++i) statement(kids[i], scope);  // <<<grid, block>>>'s values
        return;
    }
    const std::string name = str(clang_getCursorSpelling(c));
    const unsigned line = lineOf(c);
    // A kernel launch is a call with a launch configuration, whatever the
    // <<< >>> hold (a macro, a call) and however they are spaced.
    const std::vector<CXCursor> kids = children(c);
    const bool launch = std::any_of(kids.begin(), kids.end(), [](CXCursor k) {
        k = unwrap(k);
        return clang_getCursorKind(k) == CXCursor_CallExpr &&
               launchConfiguration(str(clang_getCursorSpelling(k)));
    });
    if (launch) {
        if (scope.context != Context::Host)
            reject(line, "a kernel launch inside device code (dynamic parallelism) is not supported");
        kernelLaunch(c, tokens(c), scope);
        return;
    }
    const CXCursor callee = clang_getCursorReferenced(c);
    const CXCursorKind calleeKind = clang_getCursorKind(callee);
    // dim3's and uint3's constructors and assignments (`dim3 b; b = dim3(16, 16);`, `t = blockIdx;`).
    const std::string calleeOwner = str(clang_getCursorSpelling(clang_getCursorSemanticParent(callee)));
    const bool dim3Member = (calleeKind == CXCursor_CXXMethod || calleeKind == CXCursor_Constructor) &&
                            (calleeOwner == "dim3" || calleeOwner == "uint3");
    if (calleeKind == CXCursor_Constructor || calleeKind == CXCursor_ConversionFunction || name == "dim3" ||
        dim3Member) {
        for (CXCursor child : children(c)) statement(child, scope);
        return;
    }
    if (!clang_Cursor_isNull(callee) && builtinFunction(callee))
        reject(line, whyNotCompilerName(str(clang_getCursorSpelling(callee))));
    if (compilerName(name)) reject(line, whyNotCompilerName(name));
    // A call names the function it calls: anything else (a variable, *p,
    // a cast, a choice) calls through a pointer, to wherever it points.
    const CXCursor calleeExpression = kids.empty() ? clang_getNullCursor() : unwrap(kids[0]);
    const CXCursorKind named = clang_getCursorKind(clang_getCursorReferenced(calleeExpression));
    if (clang_getCursorKind(calleeExpression) != CXCursor_DeclRefExpr ||
        (named != CXCursor_FunctionDecl && named != CXCursor_FunctionTemplate))
        reject(line, "a call through " +
                         (clang_getCursorKind(calleeExpression) == CXCursor_DeclRefExpr
                              ? "the variable " + str(clang_getCursorSpelling(calleeExpression))
                              : std::string("an expression")) +
                         ": a kernel file calls functions by their name (f(x)), never through a pointer or a "
                         "variable");
    builtinReference(calleeExpression);
    globalQualifier(calleeExpression);
    const bool ownFunction = !clang_Cursor_isNull(callee) && expansion(clang_getCursorLocation(callee)).mainFile;
    if (ownFunction && calleeKind == CXCursor_FunctionDecl && !hasAttr(callee, CXCursor_CUDAGlobalAttr)) {
        // Declared in the file, defined nowhere in it: the compiler would
        // link it to whatever function of that name it finds (`extern "C"
        // int system(const char*);`).
        const CXCursor definition = clang_getCursorDefinition(callee);
        if (clang_Cursor_isNull(definition) || !expansion(clang_getCursorLocation(definition)).mainFile)
            reject(line, name + " is declared in the file but not defined in it: a kernel file may call only "
                                "its own functions and CUDA's and C's documented ones");
    }
    if (scope.context != Context::Host) {
        if (!ownFunction && !listed(name, kKernelCalls) && !listed(name, kMathCalls) && !vectorMaker(callee))
            reject(line, whyNotCall(name));
        if (ownFunction && hasAttr(callee, CXCursor_CUDAGlobalAttr))
            reject(line, "a kernel launching a kernel (dynamic parallelism) is not supported");
        if (!ownFunction && (name == "fmaf" || name == "__fmaf_rn")) fusedMultiplyAdd(c, name);
    } else {
        if (!ownFunction && !listed(name, kHostCalls) && !listed(name, kMathCalls) && !vectorMaker(callee))
            reject(line, whyNotCall(name));
        if (name == "cudaMemcpyToSymbol") {
            const std::vector<CXCursor> kids = children(c);
            // children: the callee, then the arguments
            if (kids.size() >= 2) {
                const CXCursor symbol = unwrap(kids[1]);
                const std::string s = str(clang_getCursorSpelling(symbol));
                if (clang_getCursorKind(symbol) != CXCursor_DeclRefExpr || !m_constantNames.count(s))
                    reject(line, "cudaMemcpyToSymbol copies into a __constant__ array declared in this file");
                m_subscripted.insert(beginOf(symbol));
            }
        }
    }
    if (name == "printf") printfCall(c, kids);
    // The arguments; the callee was read above.
    for (std::size_t i = 1; i < kids.size(); ++i)
        if (scope.context != Context::Kernel && scope.context != Context::Device && eventAddress(name, i, kids[i]))
            continue;
        else
            statement(kids[i], scope);
}

// `cudaEventCreate(&start)`, `cudaEventElapsedTime(&ms, start, stop)`:
// the one place host code takes an address, of a local variable of its own.
bool Translator::eventAddress(const std::string& function, std::size_t argument, CXCursor e) {
    if (argument != 1 || (function != "cudaEventCreate" && function != "cudaEventElapsedTime")) return false;
    e = unwrap(e);
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator) return false;
    const std::vector<CXCursor> kids = children(e);
    if (kids.size() != 1 || clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Pointer) return false;
    const CXCursor variable = unwrap(kids[0]);
    if (clang_getCursorKind(variable) != CXCursor_DeclRefExpr) return false;
    const CXCursor target = clang_getCursorReferenced(variable);
    if (clang_getCursorKind(target) != CXCursor_VarDecl || !expansion(clang_getCursorLocation(target)).mainFile ||
        clang_getCursorKind(clang_getCursorSemanticParent(target)) == CXCursor_TranslationUnit)
        return false;
    const CXType t = clang_getCursorType(target);
    return function == "cudaEventCreate" ? isEventOrStream(t) : clang_getCanonicalType(t).kind == CXType_Float;
}

}  // namespace tilescope::own::detail

#endif
