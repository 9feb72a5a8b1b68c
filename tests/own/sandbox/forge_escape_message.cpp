// A 20 MB message full of terminal escapes (a title change, a screen
// clear, a bell), to reach the teacher's terminal raw.
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    std::string message;
    const std::string escapes = "\\u001b]0;owned\\u0007\\u001b[2J\\u001b[H\\r\\u009b31m";
    while (message.size() < 20u << 20) message += escapes;
    forge::answer(forge::result(false, message, "[1,1,1]", "[1,1,1]", 0), {}, {});
}
