// Writes one file in its scratch folder until the disk is full.
#include <cstring>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    std::FILE* f = std::fopen("fill.bin", "wb");
    if (!f)
        return;
    static char block[1 << 20];
    std::memset(block, 7, sizeof block);
    unsigned long long written = 0;
    while (std::fwrite(block, 1, sizeof block, f) == sizeof block)
        written += sizeof block;
    std::fclose(f);
    std::printf("wrote %llu bytes\n", written);
}
