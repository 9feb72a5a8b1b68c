// Lessons: guided tours of the chapter, one text file per lesson under
// assets/lessons/ (the format is in docs/lessons.md). A lesson is a list of
// steps; each step sets what runs (kernel, input, mask, block), what is
// shown (panels, a panel filling the window, the selected output, the trace
// step), a caption, the cells or threads to point at, and optionally a
// question whose answer the app takes from the trace (lesson_questions.hpp),
// never from the file.
//
// A step starts from the step before it: it states only what changes. The
// caption, the pointers and the question belong to their step alone.
//
// Reading a lesson checks it whole, as far as it can be checked without
// running anything: every key, kernel, input, mask, block, panel, selection
// and pointed-at cell. A lesson with a mistake is refused with the file, the
// line and the reason; the app's lesson menu and `tilescope lesson --check`
// say the same words.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_state.hpp"

namespace tilescope::ui {

enum class QuestionKind {
    OutputsWritten,   // how many threads of the selected block write an output
    GlobalLoads,      // how many global loads the selected block makes
    CellsLoaded,      // click the cells of N thread (x, y) of the selected block loads
    FirstBarrier,     // at which step thread (x, y) first waits at a barrier
    OutputValue,      // the value of P at (x, y)
    OutputArray,      // every value of a 1D P, in order
    GhostCells,       // distinct ghost cells the launch touches
    Multiplies,       // multiply-adds of the whole launch
    Blocks,           // blocks in the grid
    ThreadsPerBlock,  // threads in a block
    SharedBytes,      // shared memory of the whole launch, in bytes
};

struct QuestionKindInfo {
    QuestionKind kind;
    std::string_view key;  // "outputs-written"
    bool takesCoords;      // "cells-loaded 3,3"
    std::string_view prompt;  // the default question; %s: the coordinates
};
std::span<const QuestionKindInfo> questionKinds();
const QuestionKindInfo& questionKindInfo(QuestionKind kind);

struct LessonQuestion {
    QuestionKind kind = QuestionKind::OutputsWritten;
    std::array<int, 2> at{0, 0};  // thread coordinates in the block, or an output's
    std::string text;             // what the student is asked
    int line = 0;
    bool answeredByCells() const { return kind == QuestionKind::CellsLoaded; }
};

enum class PointKind { Cells, Threads };

// Things to point at on screen: cells of N (the grid view; ghost cells
// included), threads of the selected block by their threadIdx (the threads view).
struct LessonPoint {
    PointKind kind = PointKind::Cells;
    std::vector<std::array<int, 2>> at;
};

struct LessonStep {
    int line = 0;  // the line of its `step:`
    std::string title;
    SetupState setup;
    PanelVisibility panels;
    std::string focus;                          // the panel that fills the window; empty: the usual layout
    std::optional<std::array<int, 2>> select;   // the selected output (and so the block and thread)
    long long at = 0;                           // the trace step to show; -1: the end of the block's trace
    std::string caption;
    std::vector<LessonPoint> points;
    std::optional<LessonQuestion> question;
};

struct Lesson {
    std::filesystem::path file;
    std::string title;
    std::string about;
    std::vector<LessonStep> steps;
};

struct LessonError {
    std::filesystem::path file;
    int line = 0;  // 0: the file as a whole
    std::string reason;
    // "assets/lessons/1d.lesson:14: unknown kernel 'conv1d_tiles' (...)"
    std::string message() const;
};

struct LessonRead {
    std::optional<Lesson> lesson;     // when the file has no error
    std::vector<LessonError> errors;  // every one found (the first few hundred)
};

LessonRead parseLesson(std::string_view text, const std::filesystem::path& file);
LessonRead readLesson(const std::filesystem::path& file);

// Every *.lesson file of a folder, in file-name order: the lessons that read
// cleanly, and the errors of the others (they are left out, the rest load).
struct LessonLibrary {
    std::vector<Lesson> lessons;
    std::vector<LessonError> errors;
    std::vector<std::filesystem::path> refused;  // files with errors
};
LessonLibrary loadLessons(const std::filesystem::path& folder);

// The lessons that ship (assets/lessons/*.lesson, embedded in the binary:
// model/assets.hpp), each Lesson::file named "lessons/NAME.lesson".
LessonLibrary shippedLessons();

}  // namespace tilescope::ui
