// A result whose block is 0 x 0 x 0: a caller that divides by the block's
// sides ends with SIGFPE.
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    forge::Block b;
    b.events.push_back(forge::Event{0, 1.0f, 0, 1, 0, 1, 2});
    forge::answer(forge::result(true, "", "[3,3,1]", "[0,0,0]", 1),
                  std::vector<float>(static_cast<std::size_t>(width) * height, 0.0f), {b});
}
