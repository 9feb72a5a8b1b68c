// Predict, then reveal: the answers to a lesson's questions, taken from the
// trace of the step's run (never from the lesson file), and the grading of
// what the student answered against them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model/lesson.hpp"
#include "trace/trace_index.hpp"

namespace tilescope::ui {

using Cell = std::array<int, 2>;

struct ExpectedAnswer {
    std::vector<double> numbers;  // one number, or an output array
    std::vector<Cell> cells;      // for questions answered by clicking cells (sorted, distinct)
    bool byCells = false;
    bool integral = true;  // counts are compared exactly; values to 1e-4 of their size
    // How the trace gives it: "12 x 12 = 144 threads of block (0,0) store an output".
    std::string how;
};

// The answer, from the trace: `block` is the step's selected block (the
// questions about one block or thread ask about it), `model` the whole
// traced launch. An error when the trace cannot answer (the thread never
// waits at a barrier; only one block was traced for a launch-wide count).
Result<ExpectedAnswer> answerFrom(const LessonQuestion& question, const TraceModel& model, const BlockReplay& block);

struct Grade {
    bool right = false;
    std::string summary;  // "right: 144" / "144 is the answer; you said 100"
    // Cell answers: clicked and right, clicked but not loaded, loaded but not clicked.
    std::vector<Cell> hit, wrong, missed;
};

// A typed answer: one number, or numbers separated by spaces or commas. An
// error when the text is not numbers (the student is asked again).
Result<std::vector<double>> parseNumbers(const std::string& text);
Grade gradeNumbers(const ExpectedAnswer& expected, const std::vector<double>& given);
Grade gradeCells(const ExpectedAnswer& expected, std::vector<Cell> clicked);

}  // namespace tilescope::ui
