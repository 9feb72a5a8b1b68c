// Kills its parent, then every process it may.
#include <signal.h>
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    kill(getppid(), SIGKILL);
    kill(-1, SIGKILL);
    std::printf("still here\n");
}
