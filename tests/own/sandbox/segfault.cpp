// Writes through a null pointer.
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    volatile int* p = nullptr;
    *p = 1;
}
