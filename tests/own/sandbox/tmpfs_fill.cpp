// Writes files of 16 MB into /tmp until a write fails, then says how much
// it wrote and removes them.
#include <unistd.h>

#include <cstring>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    static char block[1 << 20];
    std::memset(block, 7, sizeof block);
    unsigned long long written = 0;
    int files = 0;
    bool full = false;
    const std::string prefix = "/tmp/tilescope-tmpfs-fill-" + std::to_string(getpid()) + "-";
    while (!full && files < 4096) {
        std::FILE* f = std::fopen((prefix + std::to_string(files)).c_str(), "wb");
        if (!f)
            break;
        ++files;
        for (int i = 0; i < 16 && !full; ++i) {
            if (std::fwrite(block, 1, sizeof block, f) != sizeof block || std::fflush(f) != 0)
                full = true;
            else
                written += sizeof block;
        }
        if (std::fclose(f) != 0)
            full = true;
    }
    for (int i = 0; i < files; ++i)
        std::remove((prefix + std::to_string(i)).c_str());
    std::printf("tmp: wrote %llu bytes in %d files\n", written, files);
}
