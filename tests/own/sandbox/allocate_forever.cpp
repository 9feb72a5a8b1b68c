// Takes memory without end, touching every page.
#include <cstring>
#include <vector>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    std::vector<char*> kept;
    for (;;) {
        char* block = new char[64 << 20];
        std::memset(block, 1, 64 << 20);
        kept.push_back(block);
    }
}
