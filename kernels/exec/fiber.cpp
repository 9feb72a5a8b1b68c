#include "exec/fiber.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>

// [SECTION] Which implementation, and AddressSanitizer
//
// AddressSanitizer keeps a shadow of the current stack's bounds: it poisons
// the red zones between locals, and when an exception is thrown (a kernel's
// fault is, inside its fiber) it unpoisons the stack from the throw up to the
// stack's top. After a switch to another stack it must be told, or it
// unpoisons or reports on the wrong memory; untold, it says so itself on the
// first fault a kernel throws ("ASan is ignoring requested
// __asan_handle_no_return ... False positive error reports may follow"). The
// ucontext implementation below tells it around every switch
// (__sanitizer_start_switch_fiber before, __sanitizer_finish_switch_fiber after).
//
// Boost.Context can announce its switches too (BOOST_USE_ASAN), but only in
// its ucontext implementation (boost/context/fiber_ucontext.hpp); Debian's
// libboost_context is built with fcontext, whose assembly switches ASan never
// sees, and so does ASan never see our own switch's. So a sanitized build
// uses our ucontext fibers, which say exactly what they do, and leaves the
// faster switches to the ordinary build.
#if defined(__SANITIZE_ADDRESS__)  // GCC
#define TILESCOPE_FIBER_ASAN 1
#elif defined(__has_feature)  // Clang
#if __has_feature(address_sanitizer)
#define TILESCOPE_FIBER_ASAN 1
#endif
#endif
#ifndef TILESCOPE_FIBER_ASAN
#define TILESCOPE_FIBER_ASAN 0
#endif


// Which the build asked for (the browser build: always Emscripten's) (kernels/CMakeLists.txt, the option
// TILESCOPE_FIBERS): our own switch (TILESCOPE_FIBERS_OWN), Boost.Context
// (TILESCOPE_HAVE_BOOST_CONTEXT) or, with neither, ucontext. AddressSanitizer
// overrides the choice, whatever the option says.
#if defined(__EMSCRIPTEN__)
#define TILESCOPE_FIBER_EMSCRIPTEN 1
#define TILESCOPE_FIBER_OWN 0
#define TILESCOPE_FIBER_BOOST 0
#elif TILESCOPE_FIBER_ASAN
#define TILESCOPE_FIBER_EMSCRIPTEN 0
#define TILESCOPE_FIBER_OWN 0
#define TILESCOPE_FIBER_BOOST 0
#elif TILESCOPE_FIBERS_OWN
#define TILESCOPE_FIBER_EMSCRIPTEN 0
#define TILESCOPE_FIBER_OWN 1
#define TILESCOPE_FIBER_BOOST 0
#elif TILESCOPE_HAVE_BOOST_CONTEXT
#define TILESCOPE_FIBER_EMSCRIPTEN 0
#define TILESCOPE_FIBER_OWN 0
#define TILESCOPE_FIBER_BOOST 1
#else
#define TILESCOPE_FIBER_EMSCRIPTEN 0
#define TILESCOPE_FIBER_OWN 0
#define TILESCOPE_FIBER_BOOST 0
#endif

#if TILESCOPE_FIBER_EMSCRIPTEN
#include <emscripten/fiber.h>
#elif TILESCOPE_FIBER_OWN
#if !defined(__linux__) || !(defined(__x86_64__) || defined(__aarch64__)) || defined(__ILP32__)
#error "our own fiber switch is written for 64-bit x86-64 and AArch64 Linux: configure with -DTILESCOPE_FIBERS=ucontext"
#endif
#elif TILESCOPE_FIBER_BOOST
#include <boost/context/fiber.hpp>
#else
#include <ucontext.h>
#endif

#if TILESCOPE_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace tilescope::cpu {

StackPool::~StackPool() {
    for (void* s : m_free) std::free(s);
}

void* StackPool::take() {
    if (!m_free.empty()) {
        void* s = m_free.back();
        m_free.pop_back();
        return s;
    }
    void* s = std::aligned_alloc(64, m_stackBytes);
    if (!s) throw std::bad_alloc();
    return s;
}

const char* fiberImplementation() {
#if TILESCOPE_FIBER_EMSCRIPTEN
    return "emscripten";
#elif TILESCOPE_FIBER_OWN
    return "own";
#elif TILESCOPE_FIBER_BOOST
    return "boost";
#else
    return "ucontext";
#endif
}

#if TILESCOPE_FIBER_EMSCRIPTEN

// [SECTION] Emscripten's fibers (the browser build)
//
// WebAssembly cannot switch stacks: its call stack is the engine's, out of a
// program's reach. Emscripten's Asyncify (the link option -sASYNCIFY) gets
// round that by rewriting the program so that every function that may be
// on the stack during a switch can save its locals to a buffer and return,
// and later be called again to restore them and go on where it left off.
// emscripten_fiber_swap unwinds the running fiber into its buffer that way
// and rewinds the other from its own. Each fiber then needs two stacks: the C
// stack of its address-taken locals (as on any machine) and Asyncify's
// buffer; the pool's stack is split between them. The resumer's context (the
// executor's worker, on the page's one thread) is kept in a buffer of its
// own, as deep as the frames of the app that called the executor.
//
// Slower than a native switch (a few hundred nanoseconds), but a barrier is
// still a real barrier: every thread of the block stops there and goes on
// only when all have arrived.

namespace {
constexpr std::size_t kCallerAsyncifyBytes = 256 * 1024;
}

struct Fiber::Impl {
    emscripten_fiber_t self{};
    emscripten_fiber_t caller{};
    StackPool* pool = nullptr;
    void* stack = nullptr;
    Entry entry = nullptr;
    void* argument = nullptr;
    bool done = false;
    static thread_local std::unique_ptr<char[]> callerAsyncify;

    // The fiber's outermost function. An Emscripten fiber's entry must never
    // return: it switches back for the last time instead.
    static void main(void* self) {
        auto* impl = static_cast<Impl*>(self);
        impl->entry(impl->argument);
        impl->done = true;
        emscripten_fiber_swap(&impl->self, &impl->caller);
        __builtin_trap();  // nobody resumes a finished fiber
    }
    void release() {
        if (stack) pool->give(stack);
        stack = nullptr;
    }
};
thread_local std::unique_ptr<char[]> Fiber::Impl::callerAsyncify;

Fiber::Fiber() : m_impl(std::make_unique<Impl>()) {}
Fiber::~Fiber() { m_impl->release(); }

void Fiber::start(StackPool& pool, Entry entry, void* argument) {
    Impl* impl = m_impl.get();
    impl->release();
    impl->pool = &pool;
    impl->stack = pool.take();
    impl->entry = entry;
    impl->argument = argument;
    impl->done = false;
    // The first half is the C stack, the second Asyncify's (16-byte aligned).
    const std::size_t half = (pool.stackBytes() / 2) & ~std::size_t{15};
    char* base = static_cast<char*>(impl->stack);
    emscripten_fiber_init(&impl->self, &Impl::main, impl, base, half, base + half, pool.stackBytes() - half);
}

void Fiber::resume() {
    Impl* impl = m_impl.get();
    if (!Impl::callerAsyncify) Impl::callerAsyncify = std::make_unique<char[]>(kCallerAsyncifyBytes);
    emscripten_fiber_init_from_current_context(&impl->caller, Impl::callerAsyncify.get(), kCallerAsyncifyBytes);
    emscripten_fiber_swap(&impl->caller, &impl->self);
    if (impl->done) impl->release();
}

void Fiber::yield() {
    Impl* impl = m_impl.get();
    emscripten_fiber_swap(&impl->self, &impl->caller);
}

bool Fiber::finished() const { return m_impl->done; }

void Fiber::reset() {
    // As with the other switches: the suspended frames are abandoned, the
    // stack goes back to the pool.
    m_impl->release();
    m_impl->done = false;
}

#elif TILESCOPE_FIBER_OWN

// [SECTION] Our own switch
//
// A fiber that is not running is nothing but a stack pointer. Whatever else
// it needs to go on is on its stack: the registers that the calling
// convention says a function must give back unchanged (callee-saved), and the
// address to return to. A switch is an ordinary function call,
//
//   tilescope_fiber_switch(&from, to)
//
// that pushes those registers, stores the stack pointer in `from`, loads `to`
// into the stack pointer, pops the other fiber's registers and returns: into
// the other fiber, just after the call of tilescope_fiber_switch that
// suspended it. The registers that a callee may change (the caller-saved ones,
// all vector registers but the low halves of d8-d15 on AArch64, the flags)
// need no saving: the compiler, seeing an ordinary call, has already kept
// whatever it still needs of them in memory or in callee-saved registers.
// There is no system call (ucontext's swapcontext saves and restores the
// signal mask, which the executor never changes), and no memory is
// allocated: a switch costs about as much as a function call that saves a
// dozen registers.
//
// A new fiber's stack is made to look as though it had been suspended in the
// switch: its top holds a frame with the entry and its argument in two of the
// callee-saved registers and, as the return address, tilescope_fiber_start,
// which calls entry(argument). Both functions are written below in each
// architecture's assembly, from its calling convention:
//
//   x86-64, System V ABI: rbx, rbp, r12-r15 and rsp are callee-saved, as are
//   the control bits of MXCSR (SSE rounding, flush-to-zero, exception masks)
//   and the x87 control word. The stack pointer is 16-byte aligned before a
//   call, so a function starts with rsp + 8 aligned.
//
//   AArch64, AAPCS64: x19-x28, the frame pointer x29, the link register x30
//   (the return address: saved, since the switch returns through it), sp,
//   the low 64 bits of v8-v15 (d8-d15) and FPCR's rounding, flush-to-zero and
//   default-NaN bits are callee-saved; sp is always 16-byte aligned.
//
// Each switch saves and restores the floating-point control state, as a
// function that changed it would have to: a kernel that set its own rounding
// mode keeps it in its fiber without changing the worker's or another
// fiber's.
//
// Exceptions never cross from one stack to another. The fiber's first frame,
// tilescope_fiber_start, tells unwinders (through its call frame information)
// that there is no frame above it, and its return address is null, so a
// backtrace ends there; fiberMain, the only function it calls, is noexcept,
// so an exception that leaves the entry function ends the program
// (std::terminate), as it would at the top of a thread. The executor's entry
// catches the faults a kernel throws inside the fiber (cpu_executor.cpp).
//
// The switch is invisible to AddressSanitizer (which is why ASan builds use
// ucontext, above). Nor does it take part in x86's CET: it keeps no shadow
// stack, and its jump lands on return sites without endbr64. Linux checks
// neither unless a process asks for shadow stacks (glibc's tunable
// glibc.cpu.x86_shstk, off by default); such a process must be built with
// -DTILESCOPE_FIBERS=ucontext.

extern "C" {
// Saves the running fiber's callee-saved registers on its stack and its stack
// pointer in *save, then continues the fiber whose stack pointer is `next`.
// Returns when some other fiber switches back to *save.
__attribute__((visibility("hidden"))) void tilescope_fiber_switch(void** save, void* next);
// A new fiber's first frame: calls entry(argument) with the two values that
// the initial frame put in callee-saved registers. Never returns.
__attribute__((visibility("hidden"))) void tilescope_fiber_start();
}

#if defined(__x86_64__)

// The frame tilescope_fiber_switch leaves on a suspended fiber's stack, at
// the saved stack pointer (lowest address first): 8 bytes of floating-point
// control (MXCSR, then the x87 control word), r15, r14, r13, r12, rbx, rbp,
// and the return address, 64 bytes in all.
//
// The switch ends with an indirect jump to the other fiber's return address
// rather than with ret. The processor predicts a ret from the calls it has
// seen on this stack, which is always wrong straight after a switch of
// stacks; an indirect jump it predicts from the jump's own history, and the
// executor's switches go to the same few places again and again (the
// resumer's call in resume(), a barrier's yield(), a new fiber's start).
// On this executor that took a fifth off a barrier-heavy run (cpu_bench).
asm(R"(
    .text
    .globl  tilescope_fiber_switch
    .hidden tilescope_fiber_switch
    .type   tilescope_fiber_switch, @function
    .p2align 4
tilescope_fiber_switch:                 # rdi: where to save this stack's pointer; rsi: the stack to go on with
    .cfi_startproc
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbp, 0
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r12, 0
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r13, 0
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r14, 0
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r15, 0
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    movq    %rsp, (%rdi)                # this fiber is now suspended
    movq    %rsi, %rsp                  # and the other one's stack is current: the same frame
    ldmxcsr (%rsp)                      # layout, so the call frame information stays true
    fldcw   4(%rsp)
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq    %r15
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r15
    popq    %r14
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r14
    popq    %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    popq    %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    popq    %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    popq    %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    popq    %rcx                        # the return address, as ret would take it, but
    .cfi_adjust_cfa_offset -8           # jumped to rather than returned to: see below
    .cfi_register %rip, %rcx
    jmpq    *%rcx
    .cfi_endproc
    .size   tilescope_fiber_switch, . - tilescope_fiber_switch

    .globl  tilescope_fiber_start
    .hidden tilescope_fiber_start
    .type   tilescope_fiber_start, @function
    .p2align 4
tilescope_fiber_start:                  # reached by the first switch's ret; rsp + 8 is 16-byte aligned and
    .cfi_startproc                      # (rsp) is a null return address
    .cfi_undefined %rip                 # no caller: unwinders and debuggers stop here
    pushq   %rbp                        # rbp is 0 (the initial frame): the frame-pointer chain ends here,
    .cfi_adjust_cfa_offset 8            # and rsp is 16-byte aligned for the call
    movq    %rsp, %rbp
    movq    %r13, %rdi                  # the argument
    callq   *%r12                       # the entry; it never returns
    ud2
    .cfi_endproc
    .size   tilescope_fiber_start, . - tilescope_fiber_start
)");

namespace {

// A new fiber's stack as tilescope_fiber_switch expects to find it.
struct InitialFrame {
    std::uint32_t mxcsr;
    std::uint16_t x87Control;
    std::uint16_t unused;
    void* r15;
    void* r14;
    void* r13;  // the entry's argument
    void* r12;  // the entry
    void* rbx;
    void* rbp;            // 0: the end of the frame-pointer chain
    void* returnAddress;  // tilescope_fiber_start
    void* startReturn;    // 0: tilescope_fiber_start's own (null) return address
};
static_assert(sizeof(InitialFrame) == 72);

InitialFrame initialFrame(void (*entry)(void*), void* argument) {
    InitialFrame f{};
    // The new fiber starts with the floating-point modes of whoever starts it.
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(f.mxcsr), "=m"(f.x87Control));
    f.r13 = argument;
    f.r12 = reinterpret_cast<void*>(entry);
    f.returnAddress = reinterpret_cast<void*>(&tilescope_fiber_start);
    return f;
}

}  // namespace

#elif defined(__aarch64__)

// The frame tilescope_fiber_switch leaves on a suspended fiber's stack, at
// the saved stack pointer (lowest address first): x19-x28, x29, x30 (the
// return address), d8-d15, FPCR and 8 bytes of padding, 176 bytes in all (a
// multiple of 16, as sp must be). Unlike x86-64's, this switch ends with ret:
// a `br` to the return address would land, where branch target
// identification is on, on a return site that has no landing pad.
asm(R"(
    .text
    .globl  tilescope_fiber_switch
    .hidden tilescope_fiber_switch
    .type   tilescope_fiber_switch, %function
    .p2align 4
tilescope_fiber_switch:                 // x0: where to save this stack's pointer; x1: the stack to go on with
    .cfi_startproc
    hint    #34                         // bti c: a landing pad where branch target identification is on
    sub     sp, sp, #176
    .cfi_def_cfa_offset 176
    stp     x19, x20, [sp, #0]
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    .cfi_offset x19, -176
    .cfi_offset x20, -168
    .cfi_offset x21, -160
    .cfi_offset x22, -152
    .cfi_offset x23, -144
    .cfi_offset x24, -136
    .cfi_offset x25, -128
    .cfi_offset x26, -120
    .cfi_offset x27, -112
    .cfi_offset x28, -104
    .cfi_offset x29, -96
    .cfi_offset x30, -88
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    mrs     x9, fpcr
    str     x9, [sp, #160]
    mov     x9, sp
    str     x9, [x0]                    // this fiber is now suspended
    mov     sp, x1                      // and the other one's stack is current: the same frame
    ldp     x19, x20, [sp, #0]          // layout, so the call frame information stays true
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    ldr     x9, [sp, #160]
    mrs     x10, fpcr
    cmp     x9, x10                     // writing FPCR may stall the pipeline: only when it differs
    b.eq    1f
    msr     fpcr, x9
1:
    add     sp, sp, #176
    .cfi_def_cfa_offset 0
    .cfi_restore x19
    .cfi_restore x20
    .cfi_restore x21
    .cfi_restore x22
    .cfi_restore x23
    .cfi_restore x24
    .cfi_restore x25
    .cfi_restore x26
    .cfi_restore x27
    .cfi_restore x28
    .cfi_restore x29
    .cfi_restore x30
    ret
    .cfi_endproc
    .size   tilescope_fiber_switch, . - tilescope_fiber_switch

    .globl  tilescope_fiber_start
    .hidden tilescope_fiber_start
    .type   tilescope_fiber_start, %function
    .p2align 4
tilescope_fiber_start:                  // reached by the first switch's ret, sp at the stack's (aligned) top
    .cfi_startproc
    .cfi_undefined x30                  // no caller: unwinders and debuggers stop here
    hint    #34                         // bti c
    stp     xzr, xzr, [sp, #-16]!       // a frame record of zeros, null frame and null return address:
    mov     x29, sp                     // the end of the frame chain
    mov     x0, x20                     // the argument
    blr     x19                         // the entry; it never returns
    brk     #0
    .cfi_endproc
    .size   tilescope_fiber_start, . - tilescope_fiber_start
)");

namespace {

// A new fiber's stack as tilescope_fiber_switch expects to find it.
struct InitialFrame {
    void* x19;  // the entry
    void* x20;  // the entry's argument
    void* x21to28[8];
    void* x29;  // 0: the end of the frame chain
    void* x30;  // tilescope_fiber_start
    double d8to15[8];
    std::uint64_t fpcr;
    std::uint64_t unused;
};
static_assert(sizeof(InitialFrame) == 176);

InitialFrame initialFrame(void (*entry)(void*), void* argument) {
    InitialFrame f{};
    // The new fiber starts with the floating-point modes of whoever starts it.
    asm volatile("mrs %0, fpcr" : "=r"(f.fpcr));
    f.x19 = reinterpret_cast<void*>(entry);
    f.x20 = argument;
    f.x30 = reinterpret_cast<void*>(&tilescope_fiber_start);
    return f;
}

}  // namespace

#endif

struct Fiber::Impl {
    void* sp = nullptr;        // the fiber's stack pointer while it is suspended
    void* callerSp = nullptr;  // the resumer's, while the fiber runs
    StackPool* pool = nullptr;
    void* stack = nullptr;
    Entry entry = nullptr;
    void* argument = nullptr;
    bool done = false;

    // The fiber's outermost function, called by tilescope_fiber_start. It
    // switches away for the last time when the entry returns: the stack goes
    // back to the pool (resume() gives it) and is never switched to again.
    static void main(void* self) noexcept {
        auto* impl = static_cast<Impl*>(self);
        impl->entry(impl->argument);
        impl->done = true;
        tilescope_fiber_switch(&impl->sp, impl->callerSp);
        __builtin_trap();  // nobody resumes a finished fiber
    }
    void release() {
        if (stack) pool->give(stack);
        stack = nullptr;
        sp = nullptr;
    }
};

Fiber::Fiber() : m_impl(std::make_unique<Impl>()) {}
Fiber::~Fiber() { m_impl->release(); }

void Fiber::start(StackPool& pool, Entry entry, void* argument) {
    Impl* impl = m_impl.get();
    impl->release();
    impl->pool = &pool;
    impl->stack = pool.take();
    impl->entry = entry;
    impl->argument = argument;
    impl->done = false;
    // The frame goes at the top of the stack, which grows down; the top is
    // rounded down to 16 bytes, the alignment both conventions want there.
    auto top = (reinterpret_cast<std::uintptr_t>(impl->stack) + pool.stackBytes()) & ~std::uintptr_t{15};
    auto* frame = reinterpret_cast<InitialFrame*>(top - sizeof(InitialFrame));
    *frame = initialFrame(&Impl::main, impl);
    impl->sp = frame;
}

void Fiber::resume() {
    Impl* impl = m_impl.get();
    tilescope_fiber_switch(&impl->callerSp, impl->sp);
    if (impl->done) impl->release();
}

void Fiber::yield() {
    Impl* impl = m_impl.get();
    tilescope_fiber_switch(&impl->sp, impl->callerSp);
}

bool Fiber::finished() const { return m_impl->done; }

void Fiber::reset() {
    // The suspended frames are abandoned where they are, without unwinding,
    // as with ucontext: a kernel's frames own nothing that needs destroying.
    // The stack goes back to the pool for the next fiber.
    m_impl->release();
    m_impl->done = false;
}

#elif TILESCOPE_FIBER_BOOST

namespace ctx = boost::context;

namespace {
// Hands Boost.Context a stack from our pool and takes it back when the fiber ends.
struct PoolAllocator {
    StackPool* pool;
    ctx::stack_context allocate() {
        ctx::stack_context sc;
        sc.size = pool->stackBytes();
        sc.sp = static_cast<char*>(pool->take()) + sc.size;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept { pool->give(static_cast<char*>(sc.sp) - sc.size); }
};
}  // namespace

struct Fiber::Impl {
    ctx::fiber self;    // the suspended fiber, resumed by resume()
    ctx::fiber caller;  // whoever resumed it, resumed by yield()
    bool started = false;
    bool done = false;
};

Fiber::Fiber() : m_impl(std::make_unique<Impl>()) {}
Fiber::~Fiber() = default;

void Fiber::start(StackPool& pool, Entry entry, void* argument) {
    Impl* impl = m_impl.get();
    impl->done = false;
    impl->started = true;
    impl->self = ctx::fiber(std::allocator_arg, PoolAllocator{&pool}, [impl, entry, argument](ctx::fiber&& caller) {
        impl->caller = std::move(caller);
        entry(argument);
        impl->done = true;
        return std::move(impl->caller);
    });
}

void Fiber::resume() { m_impl->self = std::move(m_impl->self).resume(); }

void Fiber::yield() { m_impl->caller = std::move(m_impl->caller).resume(); }

bool Fiber::finished() const { return m_impl->done; }

void Fiber::reset() {
    m_impl->self = ctx::fiber();  // unwinds the suspended stack
    m_impl->caller = ctx::fiber();
    m_impl->done = false;
}

#else  // ucontext

namespace {

#if TILESCOPE_FIBER_ASAN
// A switch is getcontext + setcontext rather than swapcontext: ASan
// intercepts swapcontext only to clear the whole target stack's shadow (which
// the annotations make unnecessary, and which would also erase the red zones
// of the suspended thread's live frames), and the interceptor prints a
// "doesn't fully support swapcontext" warning on stderr, which would break
// the command line's promise of exactly one line there. `resumed` lives on
// the switching stack and tells the first return of getcontext (go on to the
// other context) from the second (someone switched back here).
void switchContext(ucontext_t* from, const ucontext_t* to) {
    volatile bool resumed = false;
    getcontext(from);
    if (!resumed) {
        resumed = true;
        setcontext(to);
    }
}
#else
void switchContext(ucontext_t* from, const ucontext_t* to) { swapcontext(from, to); }
#endif

}  // namespace

struct Fiber::Impl {
    ucontext_t self;
    ucontext_t caller;
    StackPool* pool = nullptr;
    void* stack = nullptr;
    Entry entry = nullptr;
    void* argument = nullptr;
    bool done = false;
#if TILESCOPE_FIBER_ASAN
    // The stack the fiber was resumed from (the worker's), learnt on each
    // switch into the fiber and named when it switches back.
    const void* callerBottom = nullptr;
    std::size_t callerSize = 0;
    // ASan's fake stack of this fiber while it is suspended (used only with
    // detect_stack_use_after_return).
    void* fakeStack = nullptr;
#endif

    static void trampoline(unsigned hi, unsigned lo) noexcept {
        auto* impl = reinterpret_cast<Impl*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
#if TILESCOPE_FIBER_ASAN
        __sanitizer_finish_switch_fiber(nullptr, &impl->callerBottom, &impl->callerSize);
#endif
        impl->entry(impl->argument);
        impl->done = true;
#if TILESCOPE_FIBER_ASAN
        // The last switch out of this fiber: a null save slot tells ASan the
        // fiber is gone, so that it frees the fiber's fake stack.
        __sanitizer_start_switch_fiber(nullptr, impl->callerBottom, impl->callerSize);
#endif
        // Returning resumes uc_link, the caller.
    }
    void release() {
        if (stack) pool->give(stack);
        stack = nullptr;
    }
};

Fiber::Fiber() : m_impl(std::make_unique<Impl>()) {}
Fiber::~Fiber() { m_impl->release(); }

void Fiber::start(StackPool& pool, Entry entry, void* argument) {
    Impl* impl = m_impl.get();
    impl->release();
    impl->pool = &pool;
    impl->stack = pool.take();
    impl->entry = entry;
    impl->argument = argument;
    impl->done = false;
#if TILESCOPE_FIBER_ASAN
    // A stack abandoned by reset() still carries the red zones of the frames
    // that were live on it; a new fiber's frames must not trip over them.
    ASAN_UNPOISON_MEMORY_REGION(impl->stack, pool.stackBytes());
    impl->fakeStack = nullptr;
#endif
    getcontext(&impl->self);
    impl->self.uc_stack.ss_sp = impl->stack;
    impl->self.uc_stack.ss_size = pool.stackBytes();
    impl->self.uc_link = &impl->caller;
    auto bits = reinterpret_cast<std::uintptr_t>(impl);
    makecontext(&impl->self, reinterpret_cast<void (*)()>(&Impl::trampoline), 2,
                static_cast<unsigned>(bits >> 32), static_cast<unsigned>(bits & 0xffffffffu));
}

void Fiber::resume() {
    Impl* impl = m_impl.get();
#if TILESCOPE_FIBER_ASAN
    void* callerFakeStack = nullptr;
    __sanitizer_start_switch_fiber(&callerFakeStack, impl->stack, impl->pool->stackBytes());
#endif
    switchContext(&impl->caller, &impl->self);
#if TILESCOPE_FIBER_ASAN
    __sanitizer_finish_switch_fiber(callerFakeStack, nullptr, nullptr);
#endif
    if (impl->done) impl->release();
}

void Fiber::yield() {
    Impl* impl = m_impl.get();
#if TILESCOPE_FIBER_ASAN
    __sanitizer_start_switch_fiber(&impl->fakeStack, impl->callerBottom, impl->callerSize);
#endif
    switchContext(&impl->self, &impl->caller);
#if TILESCOPE_FIBER_ASAN
    __sanitizer_finish_switch_fiber(impl->fakeStack, &impl->callerBottom, &impl->callerSize);
#endif
}

bool Fiber::finished() const { return m_impl->done; }

void Fiber::reset() {
    m_impl->release();
    m_impl->done = false;
}

#endif

}  // namespace tilescope::cpu
