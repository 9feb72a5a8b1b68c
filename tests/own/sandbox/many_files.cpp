// Creates empty files in its folder until one cannot be created (at most
// 5,000), then says how many it made; and tries one in /tmp's parent, the
// machine's root.
#include <fcntl.h>
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    int made = 0;
    for (; made < 5000; ++made) {
        const int fd = open(("many-" + std::to_string(made)).c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            break;
        close(fd);
    }
    const std::string outside = argument(N, width * height);
    const int fd = open(outside.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0)
        close(fd);
    std::printf("made %d files; %s: %s\n", made, outside.c_str(), fd >= 0 ? "made" : "refused");
}
