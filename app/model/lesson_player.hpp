// Where a lesson stands: which lesson, which step, and the student's answer
// to the step's question (typed, or cells clicked on the grid), revealed or
// not. No drawing and no App here: the App applies a step's configuration
// when stepSerial() changes, the lesson panel draws the caption and the
// question, the grid and threads views draw marks().
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/lesson.hpp"
#include "model/lesson_questions.hpp"

namespace tilescope::ui {

// What the step-through views draw for the lesson.
struct LessonMarks {
    std::vector<Cell> cells;    // cells of N to point at
    std::vector<Cell> threads;  // threads (threadIdx) of the selected block to point at
    bool pickingCells = false;  // a click on the grid view toggles a cell of the answer
    std::vector<Cell> picked;   // the cells clicked so far
    const Grade* grade = nullptr;  // once revealed: right, wrong and missed cells
    const ExpectedAnswer* expected = nullptr;
};

class LessonPlayer {
public:
    // The lessons that ship (shippedLessons()), or those of a folder; those
    // with errors are listed in library().errors.
    void load(LessonLibrary library);
    // One lesson file given by the user: on top of the library while it plays.
    bool open(const std::filesystem::path& file, std::string& problem);
    const LessonLibrary& library() const { return m_library; }

    void start(std::size_t lesson, int step = 0);
    void stop();
    bool active() const { return m_lesson.has_value(); }
    const Lesson* lesson() const { return m_lesson ? &*m_lesson : nullptr; }
    int stepIndex() const { return m_step; }
    int stepCount() const { return m_lesson ? static_cast<int>(m_lesson->steps.size()) : 0; }
    const LessonStep* step() const;
    // Changes whenever another step (or lesson) is shown: the App applies its configuration.
    std::uint64_t stepSerial() const { return m_serial; }

    // A presenter's "next": on a question not yet revealed, reveals it first.
    // Returns whether anything changed.
    bool next();
    bool previous();
    void go(int step);

    // [SECTION] The question
    std::string& typed() { return m_typed; }
    const std::string& typedProblem() const { return m_typedProblem; }
    bool revealed() const { return m_revealed; }
    bool revealPending() const { return m_revealPending; }
    // Asks for the answer; it is taken from the trace by resolve() once the
    // step's trace is in.
    void requestReveal() { m_revealPending = true; }
    // Called each frame with the current trace of the step (null while none):
    // grades and reveals when a reveal was asked for.
    void resolve(const TraceModel* model, const BlockReplay* block);
    const std::optional<ExpectedAnswer>& expected() const { return m_expected; }
    const std::optional<Grade>& grade() const { return m_grade; }
    const std::string& answerProblem() const { return m_answerProblem; }
    void toggleCell(const Cell& c);
    void clearAnswer();

    // Null when no lesson plays.
    const LessonMarks* marks() const { return active() ? &m_marks : nullptr; }

private:
    void enterStep();

    LessonLibrary m_library;
    std::optional<Lesson> m_lesson;
    int m_step = 0;
    std::uint64_t m_serial = 0;
    std::string m_typed;
    std::string m_typedProblem;
    bool m_revealed = false;
    bool m_revealPending = false;
    std::optional<ExpectedAnswer> m_expected;
    std::optional<Grade> m_grade;
    std::string m_answerProblem;
    LessonMarks m_marks;
};

}  // namespace tilescope::ui
