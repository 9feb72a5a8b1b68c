// A short failure whose message is made of terminal escapes and a second
// line: shown, but as printable text on one line.
#include "forge_files.hpp"

TILESCOPE_HOSTILE_ENTRY {
    forge::answer(forge::result(false, "\\u001b]0;owned\\u0007\\u001b[2Jsee\\nhere\\u009b31m\\u202eok", "[1,1,1]",
                                "[1,1,1]", 0),
                  {}, {});
}
