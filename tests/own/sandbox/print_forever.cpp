// Prints without end.
#include <cstring>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    static char line[1 << 16];
    std::memset(line, 'x', sizeof line - 1);
    line[sizeof line - 2] = '\n';
    for (;;)
        std::fwrite(line, 1, sizeof line - 1, stdout);
}
