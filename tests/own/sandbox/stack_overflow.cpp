// Recurses until the stack is gone.
#include "hostile.hpp"
static int deeper(int n) {
    volatile char frame[4096];
    frame[0] = static_cast<char>(n);
    return deeper(n + 1) + frame[0];
}
TILESCOPE_HOSTILE_ENTRY {
    P[0] = static_cast<float>(deeper(0));
}
