// Reads a file in the teacher's home (its path is the argument).
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    show("home", argument(N, width * height));
}
