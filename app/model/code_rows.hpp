// A line of code broken into rows that fit a width, the way the Source panel
// shows long lines: at blanks when it can, else between two tokens, never
// inside one (an identifier, a number such as 0.5f, a member access such as
// threadIdx.x, an operator such as -> or <<, a string literal; in a
// comment, the same words and numbers). A single token wider than a row
// stays whole on its row (it runs past the edge). No ImGui here: the width
// of a piece of text is the caller's (the Source panel measures with its
// font).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace tilescope::ui {

// Whether a row that ends before `at` (and a row that starts there) cuts a
// token of `line` in two. 0 and line.size() cut nothing.
bool cutsToken(std::string_view line, std::size_t at);

// Where each row of `line` starts (the first at 0): the rows, each up to the
// next start (blanks at the end of a row belong to it), measure at most
// `width` without their trailing blanks, unless one token alone is wider.
// `measure` gives the width of a piece of text. Rows after the first start
// `hang` further in (a hanging indent), so they have that much less width.
std::vector<std::size_t> codeRowStarts(std::string_view line, float width,
                                       const std::function<float(std::string_view)>& measure, float hang = 0.0f);

}  // namespace tilescope::ui
