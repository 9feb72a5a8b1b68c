// Reads /etc/passwd: the machine's accounts.
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    show("passwd", "/etc/passwd");
    show("shadow", "/etc/shadow");
}
