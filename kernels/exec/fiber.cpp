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
// sees. So a sanitized build uses our own ucontext fibers, which say exactly
// what they do, and leaves Boost.Context to the ordinary build.
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

#if TILESCOPE_HAVE_BOOST_CONTEXT && !TILESCOPE_FIBER_ASAN
#define TILESCOPE_FIBER_BOOST 1
#include <boost/context/fiber.hpp>
#else
#define TILESCOPE_FIBER_BOOST 0
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

#if TILESCOPE_FIBER_BOOST

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

    static void trampoline(unsigned hi, unsigned lo) {
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
