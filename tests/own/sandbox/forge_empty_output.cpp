// An empty kernel's answer: an empty output and an empty trace. Compared
// with the reference over the floats it has (none), it would be "right".
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    forge::answer(forge::result(true, "", "[3,3,1]", "[16,16,1]", 0), {}, {});
}
