// Aborts.
#include <cstdlib>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    std::abort();
}
