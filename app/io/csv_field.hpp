// One field of a CSV file (RFC 4180), for every table the program writes: the
// grade reports, the lab's roster of links.
#pragma once

#include <string>

namespace tilescope::io {

// `text` as one CSV field: left as it is unless it holds a comma, a quote or a
// line break, and then quoted, with each quote doubled.
std::string csvField(const std::string& text);

}  // namespace tilescope::io
