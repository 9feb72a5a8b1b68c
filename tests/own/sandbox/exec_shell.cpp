// Runs a shell that writes a file at the argument's path.
#include <unistd.h>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const std::string command = "echo escaped > '" + argument(N, width * height) + "'";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    std::printf("exec refused\n");
}
