// Boost.Context's fibers (TILESCOPE_FIBERS=boost, where its compiled library
// is installed), switched by that library's assembly (fcontext). It takes a
// fiber's stack from an allocator, here one that draws on the executor's pool.
//
// Boost.Context can announce its switches to AddressSanitizer too
// (BOOST_USE_ASAN), but only in its ucontext implementation
// (boost/context/fiber_ucontext.hpp); Debian's libboost_context is built with
// fcontext, whose assembly switches ASan never sees. So a sanitized build
// uses our ucontext fibers (fiber_switch_ucontext.cpp).
#include <boost/context/fiber.hpp>
#include <memory>

#include "exec/fiber.hpp"
#include "exec/fiber_switch.hpp"

#if TILESCOPE_FIBER_ASAN
#error "ASan does not see Boost.Context's switch: configure with -DTILESCOPE_SANITIZE=ON or -DTILESCOPE_FIBERS=ucontext"
#endif

namespace tilescope::cpu {

const char* fiberImplementation() {
    return "boost";
}

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

}  // namespace tilescope::cpu
