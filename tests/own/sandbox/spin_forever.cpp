// Spins without end.
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    volatile unsigned long n = 0;
    for (;;)
        n = n + 1;
}
