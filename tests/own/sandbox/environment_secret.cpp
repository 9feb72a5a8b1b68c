// Looks for a secret in the environment: its own, its parent's, the first
// process's (the variable's name is the argument).
#include <unistd.h>

#include <cstdlib>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const char* value = std::getenv(argument(N, width * height).c_str());
    std::printf("getenv: %s\n", value ? value : "(none)");
    show("self", "/proc/self/environ");
    show("parent", "/proc/" + std::to_string(getppid()) + "/environ");
    show("first", "/proc/1/environ");
}
