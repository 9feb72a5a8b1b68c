// A result whose block is 4294967295 on each side: its thread count wraps
// to 4294967295 in 32 bits and to 0 with one more, and a replay sized by it
// writes past its vectors.
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    forge::Block b;
    b.events.push_back(forge::Event{0, 1.0f, 65535, 1, 0, 1, 2});
    forge::answer(forge::result(true, "", "[1,1,1]", "[4294967295,4294967295,4294967295]", 1),
                  std::vector<float>(static_cast<std::size_t>(width) * height, 0.0f), {b});
}
