#include "exec/fiber.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>

#if TILESCOPE_HAVE_BOOST_CONTEXT
#include <boost/context/fiber.hpp>
#else
#include <ucontext.h>
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

#if TILESCOPE_HAVE_BOOST_CONTEXT

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

struct Fiber::Impl {
    ucontext_t self;
    ucontext_t caller;
    StackPool* pool = nullptr;
    void* stack = nullptr;
    Entry entry = nullptr;
    void* argument = nullptr;
    bool done = false;

    static void trampoline(unsigned hi, unsigned lo) {
        auto* impl = reinterpret_cast<Impl*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
        impl->entry(impl->argument);
        impl->done = true;
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
    getcontext(&impl->self);
    impl->self.uc_stack.ss_sp = impl->stack;
    impl->self.uc_stack.ss_size = pool.stackBytes();
    impl->self.uc_link = &impl->caller;
    auto bits = reinterpret_cast<std::uintptr_t>(impl);
    makecontext(&impl->self, reinterpret_cast<void (*)()>(&Impl::trampoline), 2,
                static_cast<unsigned>(bits >> 32), static_cast<unsigned>(bits & 0xffffffffu));
}

void Fiber::resume() {
    swapcontext(&m_impl->caller, &m_impl->self);
    if (m_impl->done) m_impl->release();
}

void Fiber::yield() { swapcontext(&m_impl->self, &m_impl->caller); }

bool Fiber::finished() const { return m_impl->done; }

void Fiber::reset() {
    m_impl->release();
    m_impl->done = false;
}

#endif

}  // namespace tilescope::cpu
