// Emscripten's fibers (the browser build, TILESCOPE_FIBERS=emscripten, which
// CMake takes for every build with Emscripten).
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
#include <emscripten/fiber.h>

#include <cstddef>
#include <memory>

#include "exec/fiber.hpp"
#include "exec/fiber_switch.hpp"

namespace tilescope::cpu {

const char* fiberImplementation() {
    return "emscripten";
}

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

}  // namespace tilescope::cpu
