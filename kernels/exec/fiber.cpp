// What every fiber implementation shares: the pool of stacks. The context
// switch itself, and with it Fiber, is in the one fiber_switch_*.cpp file that
// CMake compiles (fiber_switch.hpp lists them).
#include "exec/fiber.hpp"

#include <cstdlib>
#include <new>

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

}  // namespace tilescope::cpu
