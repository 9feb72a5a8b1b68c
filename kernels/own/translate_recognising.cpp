// What the file declares, recognised: its kernels and their parameters,
// launch() and the host functions it calls, the __constant__ array, the
// shared arrays of each kernel, and each kernel launch.
#include "own/translate_parts.hpp"

#if TILESCOPE_HAVE_LIBCLANG
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "own/text_checks.hpp"

namespace tilescope::own::detail {

// [SECTION] The file, declaration by declaration.

void Translator::run(Translation& out) {
    fileTokens();
    const CXCursor root = clang_getTranslationUnitCursor(m_tu);
    // A file with no kernel at all (the convolution written as a plain
    // C++ function) is told so before the host code's checks say why
    // its loops may not index N.
    bool anyKernel = false;
    for (CXCursor c : children(root)) {
        if (!expansion(clang_getCursorLocation(c)).mainFile) continue;
        const CXCursorKind k = clang_getCursorKind(c);
        for (CXCursor f : k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ? children(c)
                                                                                     : std::vector<CXCursor>{c})
            if ((clang_getCursorKind(f) == CXCursor_FunctionDecl && clang_isCursorDefinition(f) &&
                 hasAttr(f, CXCursor_CUDAGlobalAttr)) ||
                clang_getCursorKind(f) == CXCursor_FunctionTemplate ||  // refused below for what it is
                clang_getCursorKind(f) == CXCursor_Namespace)           // (a kernel inside one, say)
                anyKernel = true;
    }
    if (!anyKernel) reject(0, "the file has no __global__ kernel");
    for (CXCursor c : children(root)) {
        if (!expansion(clang_getCursorLocation(c)).mainFile) continue;
        topLevel(c, out);
    }
    if (out.kernels.empty()) reject(0, "the file has no __global__ kernel");
    if (!m_sawLaunch)
        reject(0, "the file has no launch(): write the host code that launches your kernel in "
                  "void launch(const float* N, const float* M, float* P, int r, int width, int height) "
                  "(2D) or void launch(const float* N, const float* M, float* P, int r, int width) (1D)");
    if (!m_launchesKernel) reject(m_launchLine, "launch() never launches a kernel (kernel<<<grid, block>>>(...))");
    if (m_hostSignature) throw Rejected{*m_hostSignature};
    out.dims = m_dims;
    for (unsigned line = 1, begin = 0; begin < m_text.size(); ++line) {
        std::size_t end = m_text.find('\n', begin);
        if (end == std::string::npos) end = m_text.size();
        const std::string body = m_text.substr(begin, end - begin);
        const std::size_t at = body.find("__syncthreads()");
        const std::size_t comment = body.find("//");
        if (at != std::string::npos && (comment == std::string::npos || at < comment))
            out.barrierLines.push_back(line);
        begin = static_cast<unsigned>(end + 1);
    }
}

// [SECTION] Top-level declarations.

void Translator::topLevel(CXCursor c, Translation& out) {
    const CXCursorKind kind = clang_getCursorKind(c);
    // A refused declaration is named at its first line (`template <class T>`, not its name's).
    const unsigned line = expansion(clang_getRangeStart(clang_getCursorExtent(c))).line;
    const std::string name = str(clang_getCursorSpelling(c));
    if (clang_isDeclaration(kind)) attributes(c);
    switch (kind) {
    case CXCursor_InclusionDirective: {
        if (!allowedHeader(name))
            reject(line, "#include <" + name + ">: a kernel file may include only CUDA's and C's own headers "
                                               "(cuda_runtime.h, stdio.h, math.h, ...)");
        const auto span = wholeLines(beginOf(c), beginOf(c));
        edit(span.first, span.second, "");
        m_plainDevice.push_back(Edit{span.first, span.second, ""});
        return;
    }
    case CXCursor_MacroDefinition:
    case CXCursor_MacroExpansion:
        return;
    case CXCursor_FunctionDecl:
        function(c, out);
        return;
    case CXCursor_LinkageSpec:
        linkage(c, out);
        return;
    case CXCursor_UnexposedDecl: {  // libclang before 16 shows `extern "C"` so
        const std::vector<Token> t = tokens(c);
        if (t.size() >= 2 && t[0].spelling == "extern" && t[1].spelling == "\"C\"") {
            linkage(c, out);
            return;
        }
        reject(line, notSupported(c));
    }
    case CXCursor_VarDecl:
        globalVariable(c, out);
        return;
    case CXCursor_TypedefDecl:
    case CXCursor_TypeAliasDecl:
    case CXCursor_EnumDecl:
        return;
    case CXCursor_FunctionTemplate:
        // Written out at its arguments before this reading (instantiateTemplates).
        reject(line, "the template " + name + " cannot be written out: write it as a plain function with its "
                     "types (float) and sizes in place of its parameters");
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
    case CXCursor_ClassTemplate:
        reject(line, "classes and structs are not supported in a kernel file: pass their fields to the kernel as "
                     "numbers, and keep arrays as its float* parameters or __shared__ arrays");
    case CXCursor_Namespace:
        reject(line, "namespaces are not supported in a kernel file: declare everything at the file's top level");
    case CXCursor_UsingDirective:
    case CXCursor_UsingDeclaration:
        reject(line, "`using` is not supported in a kernel file: write names in full (a typedef of a number type is "
                     "fine)");
    default:
        reject(line, notSupported(c));
    }
}

// `extern "C" __global__ void k(...)` or `extern "C" { ... }`: C linkage,
// which the plain CUDA build keeps (the kernel is found by its name either
// way) and the traced builds leave out, their kernels living in a
// namespace of their own. What it declares is read as if it stood alone.
void Translator::linkage(CXCursor c, Translation& out) {
    const std::vector<Token> toks = tokens(c);
    if (toks.size() >= 2 && toks[0].spelling == "extern") {
        edit(toks[0].begin, toks[1].end, std::string(toks[1].end - toks[0].begin, ' '));
        if (toks.size() >= 4 && toks[2].spelling == "{" && toks.back().spelling == "}") {
            edit(toks[2].begin, toks[2].end, " ");
            edit(toks.back().begin, toks.back().end, " ");
        }
    }
    for (CXCursor child : children(c)) {
        // `extern "C" char** environ;`: the C library's variable itself.
        if (clang_getCursorKind(child) == CXCursor_VarDecl)
            reject(lineOf(child), "extern \"C\" variable " + str(clang_getCursorSpelling(child)) +
                                      ": a variable with C linkage is the C library's (environ, say); a kernel "
                                      "file's constants are #define or const numbers");
        topLevel(child, out);
    }
}

// A declaration of a kind a kernel file may not hold, named by its first words.
std::string Translator::notSupported(CXCursor c) const {
    std::string words;
    const std::vector<Token> t = tokens(c);
    for (std::size_t i = 0; i < t.size() && i < 4 && t[i].spelling != "{" && t[i].spelling != ";"; ++i)
        words += (words.empty() ? "" : " ") + t[i].spelling;
    return (words.empty() ? std::string("this declaration") : "`" + words + "`") +
           " is not supported in a kernel file: it may hold __global__ and __device__ functions, launch() and "
           "the host functions it calls, #define, const numbers, and one __constant__ float array";
}

void Translator::globalVariable(CXCursor c, Translation& out) {
    const unsigned line = lineOf(c);
    const std::string name = str(clang_getCursorSpelling(c));
    // `extern char** const e;`: a variable defined elsewhere, the C library's.
    if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
        reject(line, "extern variable " + name + ": a kernel file may not declare a variable defined elsewhere "
                                                 "(the C library's environ, say); its constants are #define or const "
                                                 "numbers");
    if (hasAttr(c, CXCursor_CUDAConstantAttr)) {
        const auto sizes = floatArray(clang_getCursorType(c), line, "__constant__ " + name, kConstantLimit);
        if (!sizes)
            reject(line, "__constant__ " + name + ": constant memory holds the mask here, a float array of "
                                                   "one or two dimensions with sizes known at compile time");
        for (CXCursor child : children(c))
            if (clang_getCursorKind(child) == CXCursor_InitListExpr)
                reject(line, "__constant__ " + name + " has an initialiser: the mask comes from launch(), "
                                                       "copied with cudaMemcpyToSymbol(" + name + ", M, bytes)");
        if (!out.constants.empty())
            reject(line, "a second __constant__ array (" + name + "): the trace follows one constant array, "
                                                                   "the mask");
        out.constants.push_back(ConstantDeclaration{name, sizes->first, sizes->second, line});
        const std::string type = sizes->first == 1 && !is2D(clang_getCursorType(c))
                                     ? "float[" + std::to_string(sizes->second) + "]"
                                     : "float[" + std::to_string(sizes->first) + "][" +
                                           std::to_string(sizes->second) + "]";
        edit(beginOf(c), endOf(c), "__constant__ ConstantArray<" + type + "> " + name);
        return;
    }
    if (hasAttr(c, CXCursor_CUDASharedAttr))
        reject(line, "__shared__ " + name + " outside a kernel: declare shared arrays inside the kernel");
    if (hasAttr(c, CXCursor_CUDADeviceAttr))
        reject(line, "__device__ variable " + name + ": global device variables are not supported (use "
                                                      "#define or const for constants)");
    if (!clang_isConstQualifiedType(clang_getCursorType(c)))
        reject(line, "global variable " + name + ": only constants may be global here (#define, const or "
                                                  "constexpr)");
    // A constant is a number known when the file is compiled: an
    // initialiser that calls a function or a constructor would run when
    // the kernel's object is loaded, before anything of TileScope's.
    const CXType type = clang_getCursorType(c);
    if (!isNumber(type))
        reject(line, "global constant " + name + " is " + typeName(type) +
                         ": a global constant here is a number (const int, const float, constexpr ...); "
                         "declare dim3 and the rest inside launch()");
    Scope scope{Context::Host, nullptr};
    for (CXCursor child : children(c))
        if (clang_isExpression(clang_getCursorKind(child))) statement(child, scope);
    if (!constantInitialiser(c))
        reject(line, "global constant " + name + " is not a constant expression: its initialiser would run code "
                                                  "when the kernel is loaded; write numbers, #define and other "
                                                  "constants");
}

// A variable's initialiser, when it is a number the compiler computes.
bool Translator::constantInitialiser(CXCursor variable) {
    CXCursor init = clang_getNullCursor();
    for (CXCursor child : children(variable))
        if (clang_isExpression(clang_getCursorKind(child))) init = child;
    if (clang_Cursor_isNull(init)) return true;  // none: zero
    const CXEvalResult value = clang_Cursor_Evaluate(init);
    if (!value) return false;
    const CXEvalResultKind kind = clang_EvalResult_getKind(value);
    clang_EvalResult_dispose(value);
    return kind == CXEval_Int || kind == CXEval_Float;
}

void Translator::function(CXCursor c, Translation& out) {
    const std::string name = str(clang_getCursorSpelling(c));
    const unsigned line = lineOf(c);
    const bool global = hasAttr(c, CXCursor_CUDAGlobalAttr);
    for (CXCursor child : children(c))
        if (clang_getCursorKind(child) == CXCursor_ParmDecl) attributes(child);
    if (!clang_isCursorDefinition(c)) {
        // A declaration ahead of its definition: a kernel's declares the
        // same parameters as the definition will, in the traced language.
        if (global) {
            for (CXCursor child : children(c))
                if (clang_getCursorKind(child) == CXCursor_ParmDecl && isFloatPointer(clang_getCursorType(child)))
                    arrayParameter(child);
            m_declaredKernels.insert(name);  // launch() may launch it before its definition
        }
        return;
    }
    const bool device = hasAttr(c, CXCursor_CUDADeviceAttr);
    const bool host = hasAttr(c, CXCursor_CUDAHostAttr) || !device;
    std::vector<CXCursor> params;
    CXCursor body{};
    bool haveBody = false;
    for (CXCursor child : children(c)) {
        if (clang_getCursorKind(child) == CXCursor_ParmDecl) params.push_back(child);
        if (clang_getCursorKind(child) == CXCursor_CompoundStmt) {
            body = child;
            haveBody = true;
        }
    }
    if (!haveBody) return;
    if (global) {
        kernel(c, name, line, params, body, out);
        // The kernel alone goes to NVRTC; its rewritten form to the traced builds.
    } else if (device && !hasAttr(c, CXCursor_CUDAHostAttr)) {
        for (CXCursor p : params)
            if (!isScalar(clang_getCursorType(p)) && !cudaValueType(clang_getCursorType(p)))
                reject(lineOf(p), "__device__ " + name + " takes " + typeName(clang_getCursorType(p)) +
                                      ": a __device__ function here takes numbers, dim3 and CUDA's vector "
                                      "types (int2, float4, ...) only (index arrays in the kernel itself, so "
                                      "that every access is traced)");
        Scope scope{Context::Device, nullptr};
        statement(body, scope);
    } else if (name == "launch") {
        launchFunction(c, line, params, body);
    } else if (host) {
        // A helper of launch() computes numbers: the arrays are launch()'s
        // alone. One that takes an array is refused once the file has been
        // read (run), after what says more (a file with no kernel, say:
        // a C++ function forgot its __global__); its body is not read.
        if (std::optional<Diagnostic> refused = hostSignature(c, name, line, params)) {
            if (!m_hostSignature) m_hostSignature = refused;
        } else {
            hostBody(body);
        }
    }
    // launch() and its helpers are host code: the device sources leave them out.
    if (name == "launch" || (!global && !device)) hostOnly(c);
}

std::optional<Diagnostic> Translator::hostSignature(CXCursor c, const std::string& name, unsigned line,
                                                    const std::vector<CXCursor>& params) const {
    for (CXCursor p : params)
        if (!isHostType(clang_getCursorType(p)))
            return Diagnostic{m_path, lineOf(p), 0,
                              "host function " + name + " takes " + typeName(clang_getCursorType(p)) +
                                  ": a host function other than launch() takes numbers and dim3 (launch() alone "
                                  "passes N, M and P to the kernel)"};
    const CXType result = clang_getCursorResultType(c);
    if (clang_getCanonicalType(result).kind != CXType_Void && !isHostType(result))
        return Diagnostic{m_path, line, 0,
                          "host function " + name + " returns " + typeName(result) +
                              ": a host function other than launch() returns a number, dim3 or nothing"};
    return std::nullopt;
}

void Translator::launchFunction(CXCursor c, unsigned line, const std::vector<CXCursor>& params, CXCursor body) {
    (void)c;
    const char* expected2 = "void launch(const float* N, const float* M, float* P, int r, int width, int height)";
    const char* expected1 = "void launch(const float* N, const float* M, float* P, int r, int width)";
    auto is = [&](std::size_t i, bool pointer, bool constant) {
        const CXType t = clang_getCanonicalType(clang_getCursorType(params[i]));
        if (pointer)
            return isFloatPointer(t) && (clang_isConstQualifiedType(clang_getPointeeType(t)) != 0) == constant;
        return t.kind == CXType_Int;
    };
    const bool shape = (params.size() == 5 || params.size() == 6) && is(0, true, true) && is(1, true, true) &&
                       is(2, true, false) && is(3, false, false) && is(4, false, false) &&
                       (params.size() == 5 || is(5, false, false));
    if (!shape)
        reject(line, std::string("launch() must have exactly this signature: ") + expected2 + " (2D), or " +
                         expected1 + " (1D)");
    if (m_sawLaunch) reject(line, "a second launch()");
    m_sawLaunch = true;
    m_launchLine = line;
    m_dims = params.size() == 6 ? 2 : 1;
    for (CXCursor p : params) m_launchParams.push_back(str(clang_getCursorSpelling(p)));
    hostBody(body);
}

// launch()'s body or a helper's. A pointer or array variable is refused
// once the body has been read, so that what it was for (cudaMalloc,
// malloc, a builtin) is named first when the body has one.
void Translator::hostBody(CXCursor body) {
    m_hostVariable.reset();
    Scope scope{Context::Host, nullptr};
    statement(body, scope);
    if (m_hostVariable) reject(m_hostVariable->line, m_hostVariable->message);
}

// [SECTION] Kernels, the variables a body declares, and kernel launches.

void Translator::kernel(CXCursor c, const std::string& name, unsigned line, const std::vector<CXCursor>& params,
                        CXCursor body, Translation& out) {
    KernelDeclaration k;
    k.name = name;
    k.line = line;
    const CXType result = clang_getCursorResultType(c);
    if (clang_getCanonicalType(result).kind != CXType_Void) reject(line, "a __global__ kernel returns void: store its results in P instead");
    for (CXCursor p : params) {
        const std::string pname = str(clang_getCursorSpelling(p));
        const CXType t = clang_getCursorType(p);
        const unsigned pline = lineOf(p);
        if (pname.empty()) reject(pline, "every parameter of " + name + " needs a name");
        KernelParameter kp{pname, false, false};
        if (isFloatPointer(t)) {
            kp.array = true;
            kp.writable = arrayParameter(p);
            m_arrays.insert(pname);
        } else if (cudaValueType(t)) {
            // A launch passes N, M, P and numbers: the vector's fields as
            // numbers, made into one in the kernel (advice that is accepted).
            std::string vector = typeName(t);
            if (vector.rfind("const ", 0) == 0) vector.erase(0, 6);
            const char last = vector.empty() ? '1' : vector.back();
            const std::string fields = last == '4' ? "x, y, z, w" : last == '3' ? "x, y, z" : last == '2' ? "x, y" : "x";
            reject(pline, "parameter " + pname + " of " + name + " is " + typeName(t) +
                              ": a kernel here takes float arrays and numbers; pass its fields as numbers (" +
                              fields + ") and make the " + vector + " in the kernel: " + vector + " " + pname +
                              " = make_" + vector + "(" + fields + ");");
        } else if (clang_getCanonicalType(t).kind == CXType_Pointer) {
            reject(pline, "parameter " + pname + " of " + name + " is " + typeName(t) +
                              ": launch() passes the kernel N, M and P only, float arrays in device memory; keep "
                              "integer data in a __shared__ int array (__shared__ int flags[256];), or pass numbers");
        } else if (!isScalar(t)) {
            reject(pline, "parameter " + pname + " of " + name + " is " + typeName(t) +
                              ": a kernel takes float arrays (const float* N, float* P) and numbers");
        }
        k.parameters.push_back(kp);
    }
    out.kernels.push_back(k);
    KernelDeclaration& declared = out.kernels.back();
    m_arrayParams = {};
    for (const KernelParameter& p : declared.parameters)
        if (p.array) m_arrayParams.insert(p.name);
    m_kernels.insert(name);
    Scope scope{Context::Kernel, &declared};
    statement(body, scope);
    // Dynamic arrays start after the static ones.
    for (SharedDeclaration& s : declared.shared)
        if (s.dynamic) s.offset = declared.staticSharedFloats;
    // Each array's part (Subscript2D::part): its place among them by offset.
    const std::vector<std::size_t> inMemory = declared.sharedInMemoryOrder();
    std::vector<int> partOf(inMemory.size());
    for (std::size_t place = 0; place < inMemory.size(); ++place) partOf[inMemory[place]] = static_cast<int>(place);
    for (const auto& [offset, s, later] : m_sharedEdits) {
        const SharedDeclaration& d = declared.shared[s];
        const int at = d.dynamic ? declared.staticSharedFloats : d.offset;
        const std::string part = ", " + std::to_string(partOf[s]);
        std::string text;
        if (d.dynamic)
            text = "SharedArray<float> " + d.name + " = tsDynamicShared(" + std::to_string(at) + ")";
        else if (m_shared3D.count(d.name))  // before the 1D test: s[2][1][33] has rows == 1
            text = "SharedArray3D<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                   std::to_string(d.planes * d.rows * d.cols) + part + "), " + std::to_string(d.planes) + ", " +
                   std::to_string(d.rows) + ", " + std::to_string(d.cols) + ")";
        else if (d.rows == 1 && !m_shared2D.count(d.name))
            text = "SharedArray<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                   std::to_string(d.cols) + part + "), " + std::to_string(d.cols) + ")";
        else
            text = "SharedArray2D<" + d.element + "> " + d.name + "(tsSharedAt(" + std::to_string(at) + ", " +
                   std::to_string(d.rows * d.cols) + part + "), " + std::to_string(d.rows) + ", " +
                   std::to_string(d.cols) + ")";
        edit(offset.first, offset.second, (later ? "; " : "") + text);
    }
    m_sharedEdits.clear();
}

void Translator::localVariable(CXCursor c, Scope& scope) {
    const std::string name = str(clang_getCursorSpelling(c));
    const unsigned line = lineOf(c);
    const CXType type = clang_getCursorType(c);
    const bool device = scope.context != Context::Host;
    attributes(c);
    if (hasAttr(c, CXCursor_CUDASharedAttr)) {
        if (scope.context != Context::Kernel)
            reject(line, "__shared__ " + name + " outside a kernel: declare it in the __global__ function");
        KernelDeclaration& k = *scope.kernel;
        SharedDeclaration d{name, 1, 0, k.staticSharedFloats, false, line};
        const CXType canonical = clang_getCanonicalType(type);
        if (canonical.kind == CXType_IncompleteArray &&
            clang_getCanonicalType(clang_getArrayElementType(canonical)).kind == CXType_Float) {
            d.dynamic = true;
        } else if (const auto sizes = floatArray(type, line, "__shared__ " + name, kSharedLimit, true)) {
            d.rows = sizes->first;
            d.cols = sizes->second;
            d.element = elementSpelling(type);
            if (is2D(type)) m_shared2D.insert(name);
            d.dims = is2D(type) ? 2 : 1;
            k.staticSharedFloats += d.rows * d.cols;
        } else if (const auto sizes3 = floatArray3D(type, line, "__shared__ " + name, true)) {
            d.element = elementSpelling(type);
            d.planes = (*sizes3)[0];
            d.rows = (*sizes3)[1];
            d.cols = (*sizes3)[2];
            d.dims = 3;
            m_shared3D.insert(name);
            k.staticSharedFloats += d.planes * d.rows * d.cols;
        } else {
            reject(line, "__shared__ " + name + " is " + typeName(type) +
                             ": shared arrays here are float, int or unsigned arrays of one, two or three "
                             "dimensions whose sizes are known at compile time (#define them), or extern "
                             "__shared__ float " + name + "[]");
        }
        unsigned begin = beginOf(c);
        const unsigned end = endOf(c);
        // `__shared__ float a[32], b[4][8];`: b's declaration starts at its
        // name, after the comma, which becomes the end of a's statement.
        const std::size_t comma = declaratorComma(begin);
        const bool later = comma != std::string::npos;
        if (later) begin = static_cast<unsigned>(comma);
        m_sharedEdits.push_back({{begin, end}, k.shared.size(), later});
        k.shared.push_back(d);
        m_sharedDeclarations.insert(expansion(clang_getCursorLocation(c)).offset);
        return;
    }
    if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
        reject(line, "extern variable " + name + ": a kernel file may not declare a variable defined elsewhere "
                                                 "(the C library's environ, say)");
    if (device && clang_getCanonicalType(type).kind == CXType_Pointer)
        reject(line, "pointer variable " + name + ": index the kernel's arrays directly (N[i]), so that every "
                                                  "access is traced");
    if (device && isFunctionType(type))
        reject(line, "function pointer " + name + ": a kernel file calls functions by their name, and holds no "
                                                  "pointer to one");
    if (device && (clang_Cursor_getStorageClass(c) == CX_SC_Static))
        reject(line, "static variable " + name + " in device code is not supported: use a local variable, or a "
                     "__shared__ array for what the block shares");
    if (device) {
        // The first declarator of a declaration, or one after it (`, b`).
        const bool later = declaratorComma(beginOf(c)) != std::string::npos;
        if (!elementReference(c)) {
            if (later && m_declarationIsAuto)
                reject(line, "declare a reference to an array element in a declaration of its own, not beside "
                             "other names");
            if (!later) m_declarationIsAuto = false;
        }
    }
    for (CXCursor child : children(c)) statement(child, scope);
    if (!device) hostVariable(c, name, line, type);
}

// What launch() and its host functions declare: numbers, dim3, events,
// streams and cudaError_t. A pointer or an array is refused once the body
// has been read (hostBody); a static variable's initialiser is a constant,
// which runs no code.
void Translator::hostVariable(CXCursor c, const std::string& name, unsigned line, CXType type) {
    const CXType t = clang_getCanonicalType(type);
    if (isFunctionType(t)) {
        if (!m_hostVariable)
            m_hostVariable = HostVariable{line, "function pointer " + name + ": a kernel file calls functions by "
                                                "their name, and holds no pointer to one"};
        return;
    }
    if (t.kind == CXType_Pointer && !isEventOrStream(t)) {
        if (!m_hostVariable)
            m_hostVariable = HostVariable{line, "pointer variable " + name + " in host code: launch() passes N, M "
                                                "and P to the kernel as they are (const_cast<float*>(N) too), and "
                                                "holds no other pointer; cudaMalloc, malloc and new are not needed"};
        return;
    }
    if (isArrayType(t)) {
        if (!m_hostVariable)
            m_hostVariable = HostVariable{line, "array " + name + " in host code: launch() and its host functions "
                                                "hold numbers, dim3, cudaEvent_t and cudaStream_t; arrays belong "
                                                "in kernels"};
        return;
    }
    if (!isHostType(t))
        reject(line, name + " is " + typeName(type) + ": launch() and its host functions declare numbers, dim3, "
                                                      "cudaEvent_t, cudaStream_t and cudaError_t");
    if (clang_Cursor_getStorageClass(c) == CX_SC_Static && !constantInitialiser(c))
        reject(line, "static variable " + name + " with an initialiser that is not a constant: it would run code "
                                                 "at a time of its own; give it a number, or make it a local "
                                                 "variable");
}

void Translator::kernelLaunch(CXCursor c, const std::vector<Token>& toks, Scope& scope) {
    const unsigned line = lineOf(c);
    const std::vector<CXCursor> kids = children(c);
    if (kids.empty()) reject(line, "a kernel launch TileScope cannot read: write kernel<<<grid, block>>>(arguments)");
    const CXCursor callee = unwrap(kids[0]);
    const std::string kernel = str(clang_getCursorSpelling(callee));
    if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr) globalQualifier(callee);

    if (!m_kernels.count(kernel) && !m_declaredKernels.count(kernel))
        reject(line, "launch() may launch only a __global__ kernel declared above it in this file");
    auto open = std::find_if(toks.begin(), toks.end(), [](const Token& t) { return t.spelling == "<<<"; });
    auto close = std::find_if(open, toks.end(), [](const Token& t) { return t.spelling == ">>>"; });
    if (open == toks.end() || close == toks.end()) reject(line, "a kernel launch without its closing >>>");
    int commas = 0, depth = 0;
    for (auto t = open + 1; t != close; ++t) {
        if (t->spelling == "(" || t->spelling == "{" || t->spelling == "[") ++depth;
        if (t->spelling == ")" || t->spelling == "}" || t->spelling == "]") --depth;
        if (t->spelling == "," && depth == 0) ++commas;
    }
    if (commas > 3) reject(line, "<<<grid, block, bytes, stream>>> takes at most four values");
    m_launchesKernel = true;
    Launch launch{kernel, beginOf(callee), open->begin, open->end, close->begin, close->end, {}};
    // Which of launch()'s arrays (N, M, P: its first three parameters) each argument passes.
    for (std::size_t i = 1; i < kids.size(); ++i) {
        const CXCursor arg = unwrap(kids[i]);
        if (clang_getCursorKind(arg) == CXCursor_CallExpr &&
            launchConfiguration(str(clang_getCursorSpelling(arg))))
            continue;
        // Seen through its casts and parentheses: `(float*)N`, `static_cast<const float*>(N)` and
        // `const_cast<float*>(P)` pass N and P on as well.
        CXCursor passed = arg;
        for (;;) {
            const CXCursorKind k = clang_getCursorKind(passed);
            if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
                k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXConstCastExpr &&
                k != CXCursor_CXXFunctionalCastExpr)
                break;
            CXCursor operand = clang_getNullCursor();
            for (CXCursor child : children(passed))
                if (clang_isExpression(clang_getCursorKind(child))) operand = child;
            if (clang_Cursor_isNull(operand)) break;
            passed = operand;
        }
        std::uint8_t array = kArrayNone;
        if (clang_getCursorKind(passed) == CXCursor_DeclRefExpr) {
            const std::string name = str(clang_getCursorSpelling(passed));
            for (std::size_t p = 0; p < m_launchParams.size() && p < 3; ++p)
                if (m_launchParams[p] == name)
                    array = p == 0 ? kArrayInput : p == 1 ? kArrayMask : kArrayOutput;
        }
        launch.arrays.push_back(array);
    }
    m_launches.push_back(launch);
    for (std::size_t i = 1; i < kids.size(); ++i) statement(kids[i], scope);
}

// The launch edits need each kernel's static shared size, known only once
// every kernel has been read. The first launch names the kernel the run follows.
void Translator::finishLaunches(Translation& out) {
    if (!m_launches.empty()) out.launched = m_launches.front().kernel;
    for (const Launch& l : m_launches) {
        KernelDeclaration* k = nullptr;
        for (KernelDeclaration& d : out.kernels)
            if (d.name == l.kernel) k = &d;
        const int bytes = k ? k->staticSharedFloats * 4 : 0;
        if (k && k->arrayOf.empty()) k->arrayOf = l.arrays;
        edit(l.calleeBegin, l.calleeBegin, "::tilescope::own_user::launchKernel(");
        edit(l.openBegin, l.openEnd, ", \"" + l.kernel + "\", " + std::to_string(bytes) + ", ");
        edit(l.closeBegin, l.closeEnd, ")");  // replaces >>>
    }
}

void Translator::noteConstants(const Translation& out) {
    for (const ConstantDeclaration& c : out.constants) m_constantNames.insert(c.name);
}

}  // namespace tilescope::own::detail

#endif
