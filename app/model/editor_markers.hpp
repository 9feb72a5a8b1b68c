// The marks the Editor panel puts at lines of the student's file, as plain
// data: a compile error or a refusal, a run that failed at a line, each
// problem the check found (a race at both of its lines, an access out of
// bounds, a read of memory nobody wrote, a barrier not reached by every
// thread), and a barrier dropped in the Source panel. Each says in words what
// hovering it shows; a problem's mark knows the problem a click selects.
// `tilescope check --watch` prints the same problems at the same places.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/problems.hpp"
#include "trace/trace.hpp"

namespace tilescope::ui {

struct EditorMarker {
    enum class Kind { CompileError, RunError, Problem, DroppedBarrier };
    Kind kind = Kind::Problem;
    unsigned line = 0;    // from 1
    unsigned column = 0;  // from 1 (0: the line as a whole)
    std::string text;     // what hovering it says
    // A problem's: the one a click selects (an index into ProblemSet::items),
    // and its other line (a race's: 0 for one-line problems).
    std::optional<std::size_t> problem;
    unsigned otherLine = 0;
    ProblemKind problemKind = ProblemKind::SharedRace;
};

// One mark per line of each group of problems (ProblemSet::groups: each kind
// between the same two lines, once): a race is marked at both of its lines,
// each mark naming the two as "lines 12 → 18", as the Problems panel names
// them. Wrong outputs are at no line, and get none. With the file's `text`,
// each mark's column is the array's name on its line, as a compiler points.
std::vector<EditorMarker> problemMarkers(const ProblemSet& set, const Trace& trace, std::string_view text = {});

// "shared race (read after write) on N_s, lines 12 → 18: 240 times"
std::string problemGroupText(const ProblemGroup& group, const Trace& trace, std::string_view arrow = "\xE2\x86\x92");

// The column (from 1) of `word` on line `line` (from 1) of `text`, as a
// compiler would point at it; the line's first character that is not blank
// when the word is not on it (and 1 for a line that is not there).
unsigned columnOf(std::string_view text, unsigned line, std::string_view word);

}  // namespace tilescope::ui
