// A fork bomb.
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    for (int i = 0; i < 100000; ++i)
        if (fork() == 0)
            pause();
}
