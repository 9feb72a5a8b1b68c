// What the parts of the translator share (own/translate.hpp is its public
// face). A student's file is read by libclang and walked once by Translator,
// whose member functions live in the part that says what they do:
//
//   translate.cpp              the messages of a compiler in the student's words
//   translate_parse.cpp        translate(): the parse, its stand-in headers, and the sources it gives
//   translate_reading.cpp      libclang's cursors, locations, tokens, types and operators, read
//   translate_attributes.cpp   the file's tokens: no asm, attributes from a short list
//   translate_recognising.cpp  the declarations: kernels, launch(), constants, shared arrays, launches
//   translate_statements.cpp   the walk over a body: each statement, name, operator and call
//   translate_refusing.cpp     the allow-lists, and what a body may not hold, refused with why
//   translate_rewriting.cpp    the edits that make the kernel language out of the file
//   translate_templates.cpp    function templates, written out at their arguments
//
// Everything here is internal to the translator (namespace detail).
#pragma once

#if TILESCOPE_HAVE_LIBCLANG
#include <clang-c/Index.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "own/translate.hpp"

namespace tilescope::own::detail {

// [SECTION] libclang helpers (translate_reading.cpp).

bool launchConfiguration(const std::string& name);
std::string str(CXString s);

struct Where {
    bool mainFile = false;
    unsigned line = 0, column = 0, offset = 0;
};

// The student's file, for the translation under way on this thread.
extern thread_local CXFile t_mainFile;

Where expansion(CXSourceLocation loc);
std::vector<CXCursor> children(CXCursor c);
bool hasAttr(CXCursor c, CXCursorKind kind);
CXCursor unwrap(CXCursor c);

struct Token {
    std::string spelling;
    unsigned begin = 0, end = 0;  // offsets in the main file
};

class Rejected {
public:
    Diagnostic diagnostic;
};

// [SECTION] The allow-lists (translate_refusing.cpp).

extern const std::span<const char* const> kMathCalls, kKernelCalls, kHostCalls, kScopedOverloads;
bool listed(const std::string& name, std::span<const char* const> list);
std::string whyNotCall(const std::string& name);

// [SECTION] Function templates (translate_templates.cpp).

struct TemplateText {
    std::optional<std::string> text;        // the file written out, when it has templates
    std::optional<Diagnostic> refused;
};

TemplateText instantiateTemplates(const std::string& path, CXTranslationUnit tu, const std::string& text, bool last);

// [SECTION] The translator.

class Translator {
public:
    Translator(const std::string& path, const std::string& text, CXTranslationUnit tu)
        : m_path(path), m_text(text), m_tu(tu) {}

    // translate_recognising.cpp: the __constant__ arrays first, then the file, then the launches.
    void noteConstants(const Translation& out);
    void run(Translation& out);
    void finishLaunches(Translation& out);
    // translate_rewriting.cpp
    std::string rewritten(bool hostCode) const;
    std::string plainDevice() const;

    [[noreturn]] void reject(unsigned line, const std::string& why) const {
        throw Rejected{Diagnostic{m_path, line, 0, why}};
    }

private:
    struct Edit {
        unsigned begin, end;
        std::string text;
        bool closing = false;  // an insertion that closes what an earlier one opened, like `)`
        unsigned order = 0;    // when it was made: an outer expression's before an inner one's
    };

    enum class Context { Kernel, Device, Host };

    struct Scope {
        Context context;
        KernelDeclaration* kernel;
    };

    struct Operator {
        std::string spelling;
        unsigned begin = 0, end = 0;
    };

    struct Launch {
        std::string kernel;
        unsigned calleeBegin, openBegin, openEnd, closeBegin, closeEnd;
        std::vector<std::uint8_t> arrays;  // per argument: the launch() array it passes, or kArrayNone
    };
    struct SharedEdit {
        std::pair<unsigned, unsigned> span;
        std::size_t declaration;
        bool later;  // a declarator after the first: its span starts at the comma
    };
    struct HostVariable {
        unsigned line;
        std::string message;
    };

    static constexpr long long kSharedLimit = 48 * 1024;
    static constexpr long long kConstantLimit = 64 * 1024;
    static constexpr unsigned kMaxNesting = 256;
    static constexpr unsigned kSmallExtent = 512;  // bytes: an expression whose tokens are cheap to read

    // translate_reading.cpp: where a cursor is, its tokens, what its type is, and the operators of the text.
    unsigned lineOf(CXCursor c) const;
    unsigned beginOf(CXCursor c) const;
    unsigned endOf(CXCursor c) const;
    std::vector<Token> tokens(CXCursor c) const;
    std::pair<unsigned, unsigned> wholeLines(unsigned begin, unsigned end) const;
    static std::string typeName(CXType t);
    std::optional<std::pair<int, int>> floatArray(CXType t, unsigned line, const std::string& what,
                                                  long long limitBytes, bool integers = false) const;
    std::optional<std::array<int, 3>> floatArray3D(CXType t, unsigned line, const std::string& what,
                                                   bool integers = false) const;
    static bool elementKind(CXTypeKind k, bool integers);
    static std::string elementSpelling(CXType t);
    static bool isFloatPointer(CXType t);
    static bool isScalar(CXType t);
    static bool isNumber(CXType t);
    static bool preludeRecord(CXType t, std::initializer_list<const char*> names);
    static bool cudaValueType(CXType t);
    static bool vectorMaker(CXCursor function);
    static bool isEventOrStream(CXType t);
    static bool isFunctionType(CXType t);
    static bool isPointerType(CXType t);
    static bool isArrayType(CXType t);
    static bool isHostType(CXType t);
    static bool is2D(CXType t);
    Operator operatorBetween(unsigned from, unsigned to) const;
    Operator binaryOperator(CXCursor c) const;
    std::pair<std::string, std::string> unaryOperator(CXCursor c, CXCursor operand) const;
    CXCursor userOfValue() const;
    std::string operatorOf(CXCursor c) const;
    bool valueUsed() const;
    unsigned spellingOf(CXCursor c) const;
    static CXCursor rootReference(CXCursor c);
    static unsigned declarationAt(CXCursor reference);
    static std::string rootArray(CXCursor c);
    std::size_t declaratorComma(unsigned begin, std::size_t* amp = nullptr) const;

    // translate_attributes.cpp
    void fileTokens() const;
    void attributes(CXCursor c) const;

    // translate_recognising.cpp
    void topLevel(CXCursor c, Translation& out);
    void linkage(CXCursor c, Translation& out);
    std::string notSupported(CXCursor c) const;
    void globalVariable(CXCursor c, Translation& out);
    static bool constantInitialiser(CXCursor variable);
    void function(CXCursor c, Translation& out);
    std::optional<Diagnostic> hostSignature(CXCursor c, const std::string& name, unsigned line,
                                            const std::vector<CXCursor>& params) const;
    void launchFunction(CXCursor c, unsigned line, const std::vector<CXCursor>& params, CXCursor body);
    void hostBody(CXCursor body);
    void kernel(CXCursor c, const std::string& name, unsigned line, const std::vector<CXCursor>& params,
                CXCursor body, Translation& out);
    void localVariable(CXCursor c, Scope& scope);
    void hostVariable(CXCursor c, const std::string& name, unsigned line, CXType type);
    void kernelLaunch(CXCursor c, const std::vector<Token>& toks, Scope& scope);

    // translate_statements.cpp
    void statement(CXCursor c, Scope& scope);
    void reference(CXCursor c, Scope& scope);
    void unary(CXCursor c);
    void call(CXCursor c, Scope& scope);
    static bool eventAddress(const std::string& function, std::size_t argument, CXCursor e);

    // translate_refusing.cpp
    void otherCursor(CXCursor c, CXCursorKind kind, bool device) const;
    std::string inWords(CXCursor c, CXCursorKind kind) const;
    void functionValue(CXCursor c) const;
    void functionAddress(CXCursor c) const;
    void hostReference(CXCursor c) const;
    void hostOperator(CXCursor c);
    void hostCast(CXCursor c, CXCursorKind kind) const;
    static bool builtinFunction(CXCursor target);
    void builtinReference(CXCursor c) const;
    std::string builtinAround() const;
    void cast(CXCursor c, CXCursorKind kind) const;
    void constantWrite(CXCursor c);
    void printfCall(CXCursor c, const std::vector<CXCursor>& kids) const;

    // translate_rewriting.cpp
    std::string apply(std::vector<Edit> edits) const;
    void edit(unsigned begin, unsigned end, std::string text);
    void close(unsigned at, std::string text);
    void hostOnly(CXCursor c);
    bool arrayParameter(CXCursor p);
    void globalQualifier(CXCursor c);
    void assigned(CXCursor c);
    void written(CXCursor e);
    bool writableElement(CXCursor element) const;
    bool readAsFloat(unsigned at, const std::string& name, int brackets, const std::string& as = "float");
    static std::string readAs(CXCursor element);
    void elementRead(CXCursor c);
    void macroElementRead(CXCursor c);
    void nestedMacroElementRead(CXCursor c, unsigned outer);
    void elementReferenceRead(CXCursor c);
    bool elementReference(CXCursor c);
    bool compoundAssign(CXCursor c, Scope& scope);
    void fusedMultiplyAdd(CXCursor c, const std::string& name);

    std::vector<std::string> m_launchParams;

    const std::string& m_path;
    const std::string& m_text;
    CXTranslationUnit m_tu;
    std::vector<Edit> m_edits;
    unsigned m_editCount = 0;
    std::vector<Edit> m_hostOnly;     // blanked in the device sources
    std::vector<Edit> m_cpuOnly;      // the CPU executor's source alone
    std::vector<Edit> m_plainDevice;  // the edits of the plain device source
    std::vector<Launch> m_launches;
    std::vector<SharedEdit> m_sharedEdits;
    std::set<std::string> m_arrays, m_arrayParams, m_shared2D, m_shared3D, m_constantNames, m_kernels;
    std::set<unsigned> m_subscripted;  // offsets of array names used as a[...]
    std::set<unsigned> m_sharedDeclarations;  // where each __shared__ array's name is declared
    std::set<std::string> m_declaredKernels;  // kernels declared ahead of their definition
    std::set<unsigned> m_lvalues;            // where an element assigned to is spelled
    std::set<unsigned> m_readAsFloat;        // where static_cast<float>( was written
    std::set<unsigned> m_elementReferences;  // the names of float& bound to elements
    bool m_declarationIsAuto = false;  // the declaration under way is written as auto (references to elements)
    std::vector<CXCursor> m_ancestors;                 // the cursors statement() is inside, innermost last
    unsigned m_nesting = 0;                            // how many of them the student wrote (no conversions)
    std::optional<HostVariable> m_hostVariable;  // the first pointer or array variable of the host body under way
    std::optional<Diagnostic> m_hostSignature;  // the first host function that takes or returns what it may not
    bool m_sawLaunch = false;
    bool m_launchesKernel = false;
    unsigned m_launchLine = 1;
    int m_dims = 2;
};

}  // namespace tilescope::own::detail

#endif
