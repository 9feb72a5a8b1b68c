// Runs a shell through system(), which writes a file at the argument's path.
#include <cstdlib>

#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const std::string command = "echo escaped > '" + argument(N, width * height) + "'";
    const int status = std::system(command.c_str());
    std::printf("system: %d\n", status);
}
