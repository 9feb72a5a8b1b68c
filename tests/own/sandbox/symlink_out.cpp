// Makes its job's files links to a secret outside (the argument), for the
// caller to read back, reads the secret through a link of its own, and
// aborts: the caller then reads where.txt, the link, for where it was.
#include <unistd.h>

#include <cstdlib>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const std::string secret = argument(N, width * height);
    (void)!symlink(secret.c_str(), "link");
    show("link", "link");
    for (const char* name : {"where.txt", "result.json", "P.f32", "events.bin", "stdout.txt"}) {
        unlink(name);
        (void)!symlink(secret.c_str(), name);
    }
    std::fflush(stdout);
    std::abort();
}
