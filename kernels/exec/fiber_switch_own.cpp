// Our own switch (TILESCOPE_FIBERS=own, the default on x86-64 and
// AArch64 Linux): the part both architectures share. The switch itself is in
// fiber_switch_own_x86_64.cpp or fiber_switch_own_aarch64.cpp, whichever
// CMake compiles beside this file.
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
// which calls entry(argument). Both functions are written in each
// architecture's assembly, from its calling convention (its file says which
// registers that saves).
//
// Each switch saves and restores the floating-point control state, as a
// function that changed it would have to: a kernel that set its own rounding
// mode keeps it in its fiber without changing the worker's or another
// fiber's.
//
// Exceptions never cross from one stack to another. The fiber's first frame,
// tilescope_fiber_start, tells unwinders (through its call frame information)
// that there is no frame above it, and its return address is null, so a
// backtrace ends there; Impl::main, the only function it calls, is noexcept,
// so an exception that leaves the entry function ends the program
// (std::terminate), as it would at the top of a thread. The executor's entry
// catches the faults a kernel throws inside the fiber (cpu_executor.cpp).
//
// The switch is invisible to AddressSanitizer, which is why ASan builds use
// ucontext (fiber_switch_ucontext.cpp).
#include <cstdint>

#include "exec/fiber.hpp"
#include "exec/fiber_switch.hpp"

#if TILESCOPE_FIBER_ASAN
#error "ASan does not see our own fiber switch: configure with -DTILESCOPE_SANITIZE=ON or -DTILESCOPE_FIBERS=ucontext"
#endif

namespace tilescope::cpu {

const char* fiberImplementation() {
    return "own";
}

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
    impl->sp = ownInitialFrame(top, &Impl::main, impl);
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

}  // namespace tilescope::cpu
