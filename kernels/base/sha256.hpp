// SHA-256 (FIPS 180-4) of bytes in memory, as 64 lowercase hex digits: the
// name of a kernel's text in the lab's record (app/lab), and the key of a
// compiled kernel in the compile cache (own/compile_cache.hpp), where two
// texts must never share a name.
#pragma once

#include <string>
#include <string_view>

namespace tilescope::base {

std::string sha256Hex(std::string_view bytes);

}  // namespace tilescope::base
