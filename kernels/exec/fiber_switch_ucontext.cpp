// POSIX ucontext's fibers (TILESCOPE_FIBERS=ucontext), in every glibc: for
// systems that have neither our own switch nor Boost.Context, and for every
// build with AddressSanitizer. Each switch costs a system call (swapcontext
// saves and restores the signal mask).
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
// faster switches to the ordinary build (CMake chooses this file for it).
#include <ucontext.h>

#include <cstdint>
#include <memory>

#include "exec/fiber.hpp"
#include "exec/fiber_switch.hpp"

#if TILESCOPE_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace tilescope::cpu {

const char* fiberImplementation() {
    return "ucontext";
}

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

}  // namespace tilescope::cpu
