// Writes a file outside its scratch folder (the argument), and one of the
// same name in /tmp.
#include "hostile.hpp"
TILESCOPE_HOSTILE_ENTRY {
    const std::string outside = argument(N, width * height);
    const std::string tmp = "/tmp/" + outside.substr(outside.rfind('/') + 1);
    for (const std::string& path : {outside, tmp}) {
        std::FILE* f = std::fopen(path.c_str(), "w");
        std::printf("%s: %s\n", path.c_str(), f ? "written" : "refused");
        if (f)
            std::fputs("escaped\n", f), std::fclose(f);
    }
}
