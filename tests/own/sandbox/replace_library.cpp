// Overwrites its own shared object (in the kernel's scratch folder, above
// its job's), which the caller runs again and reads with addr2line.
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    std::FILE* f = std::fopen("../kernel.so", "r+b");
    std::printf("library: %s\n", f ? "writable" : "read-only");
    if (f)
        std::fclose(f);
}
