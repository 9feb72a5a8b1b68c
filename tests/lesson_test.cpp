// Lessons: the file format and its errors (file, line, reason), the answers
// to every kind of question taken from real traces and held to the book's
// numbers and closed forms, the grading of right and wrong answers, and the
// shipped lessons drawn step by step by the real binary (normal and lecture
// mode at 1920 x 1080): no text clipped, every pointed-at cell and thread
// where the grid puts that cell, and each question revealed with its answer.
// The drawing tests skip without an X display.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "io/image_file.hpp"
#include "model/lesson.hpp"
#include "model/lesson_questions.hpp"
#include "test_support.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ui::Cell;
using ui::LessonQuestion;
using ui::QuestionKind;

// [SECTION] The format

const char* kGood = R"(lesson: A short lesson
about: two steps
  and a continued line

step: First
kernel: conv1d_basic
input: book-1-7
mask: book-1d
block: 4
select: 2
caption: The first caption,
  continued here.
point: cells 0-4
ask: output 2

step: Second
kernel: conv2d_tiled_in
input: photo
input-size: 16x16
mask: fig-7.4
block: 8
select: 3,3
caption: Two dimensions.
point: cells -2,-2--1,-1 5,5
point: threads 0,0 7,7
ask: cells-loaded 3,3
)";

TEST(LessonFormat, ReadsStepsThatInheritWhatTheyDoNotChange) {
    const ui::LessonRead read = ui::parseLesson(kGood, "good.lesson");
    ASSERT_TRUE(read.lesson) << read.errors.front().message();
    const ui::Lesson& l = *read.lesson;
    EXPECT_EQ(l.title, "A short lesson");
    EXPECT_EQ(l.about, "two steps and a continued line");
    ASSERT_EQ(l.steps.size(), 2u);
    EXPECT_EQ(l.steps[0].caption, "The first caption, continued here.");
    EXPECT_EQ(l.steps[0].setup.kernel, "conv1d_basic");
    EXPECT_EQ(l.steps[0].setup.block, 4);
    ASSERT_EQ(l.steps[0].points.size(), 1u);
    EXPECT_EQ(l.steps[0].points[0].at.size(), 5u);
    ASSERT_TRUE(l.steps[0].question);
    EXPECT_EQ(l.steps[0].question->kind, QuestionKind::OutputValue);
    EXPECT_EQ(l.steps[0].question->text, "What is the value of P[2]?");
    // The second step changes the kernel and keeps nothing it states anew.
    EXPECT_EQ(l.steps[1].setup.kernel, "conv2d_tiled_in");
    EXPECT_EQ(l.steps[1].setup.block, 8);
    ASSERT_EQ(l.steps[1].points.size(), 2u);
    EXPECT_EQ(l.steps[1].points[0].at.size(), 5u);  // a 2 x 2 rectangle and one cell
    EXPECT_EQ(l.steps[1].points[0].at[0], (Cell{-2, -2}));
    EXPECT_EQ(l.steps[1].points[1].kind, ui::PointKind::Threads);
    EXPECT_TRUE(l.steps[1].question->answeredByCells());
}

// One mistake in a copy of the good lesson: the first error's line and words.
void expectRefused(const std::string& from, const std::string& to, int line, const std::string& words) {
    std::string text = kGood;
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    const ui::LessonRead read = ui::parseLesson(text, "bad.lesson");
    ASSERT_FALSE(read.lesson) << "accepted: " << to;
    ASSERT_FALSE(read.errors.empty());
    EXPECT_EQ(read.errors.front().line, line) << read.errors.front().message();
    EXPECT_NE(read.errors.front().message().find(words), std::string::npos) << read.errors.front().message();
    EXPECT_EQ(read.errors.front().message().rfind("bad.lesson:" + std::to_string(line) + ": ", 0), 0u)
        << read.errors.front().message();
}

TEST(LessonFormat, RefusesMistakesWithTheLineAndTheReason) {
    expectRefused("kernel: conv1d_basic", "kernel: conv1d_basics", 6, "unknown kernel 'conv1d_basics'");
    expectRefused("select: 2\n", "select: 7\n", 10, "outside the output array (7 elements)");
    expectRefused("point: cells 0-4", "point: cells 0-9", 13, "outside the array");
    expectRefused("point: threads 0,0 7,7", "point: threads 0,0 8,7", 25, "outside the block");
    expectRefused("block: 4\n", "block: 4\nthis line has no colon\n", 10, "expected `key: value`");
    expectRefused("ask: output 2", "ask: outputs 2", 14, "unknown question 'outputs'");
    expectRefused("ask: cells-loaded 3,3", "ask: cells-loaded 9,3", 26, "outside the block");
    expectRefused("mask: fig-7.4", "mask: book-1d", 20, "has no 2D form");
    expectRefused("input-size: 16x16", "input: book-1-7", 19, "1D arrays");
    expectRefused("caption: Two dimensions.", "caption: Two dimensions.\nfocus: charts-and-graphs", 24,
                  "focus: unknown panel");
}

TEST(LessonFormat, RefusesATileThatCannotWork) {
    // conv2d_tiled_in needs a block wider than the filter: the set-up's own words.
    std::string text = kGood;
    text.replace(text.find("block: 8"), 8, "block: 4");
    const ui::LessonRead read = ui::parseLesson(text, "tile.lesson");
    ASSERT_FALSE(read.lesson);
    EXPECT_NE(read.errors.front().reason.find("cannot run"), std::string::npos) << read.errors.front().message();
}

TEST(LessonFormat, ALessonWithAnErrorLeavesTheOthersLoaded) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-lessons-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "a-good.lesson") << kGood;
    std::string bad = kGood;
    bad.replace(bad.find("conv1d_basic"), 12, "no_such_kernel");
    std::ofstream(dir / "b-bad.lesson") << bad;
    std::ofstream(dir / "c-binary.lesson") << std::string("lesson: x\0\x01", 11);
    const ui::LessonLibrary library = ui::loadLessons(dir);
    ASSERT_EQ(library.lessons.size(), 1u);
    EXPECT_EQ(library.lessons[0].file.filename(), "a-good.lesson");
    EXPECT_EQ(library.refused.size(), 2u);
    ASSERT_GE(library.errors.size(), 2u);
    EXPECT_EQ(library.errors[0].file.filename(), "b-bad.lesson");
    EXPECT_EQ(library.errors[0].line, 6);
    fs::remove_all(dir);
}

TEST(LessonFormat, TheShippedLessonsReadCleanly) {
    const ui::LessonLibrary library = ui::loadLessons(fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "lessons");
    for (const ui::LessonError& e : library.errors)
        ADD_FAILURE() << e.message();
    ASSERT_EQ(library.lessons.size(), 2u);
    for (const ui::Lesson& l : library.lessons) {
        EXPECT_GE(l.steps.size(), 15u) << l.file;
        EXPECT_LE(l.steps.size(), 25u) << l.file;
        std::set<QuestionKind> kinds;
        for (const ui::LessonStep& s : l.steps)
            if (s.question)
                kinds.insert(s.question->kind);
        EXPECT_GE(kinds.size(), 5u) << l.file << ": few kinds of question";
    }
}

// The lessons that ship come from the binary, the same as the files of
// assets/lessons, each named by its file.
TEST(LessonFormat, TheShippedLessonsAreBuiltIn) {
    const ui::LessonLibrary files = ui::loadLessons(fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "lessons");
    const ui::LessonLibrary shipped = ui::shippedLessons();
    EXPECT_TRUE(shipped.errors.empty());
    ASSERT_EQ(shipped.lessons.size(), files.lessons.size());
    for (std::size_t i = 0; i < shipped.lessons.size(); ++i) {
        const ui::Lesson& a = shipped.lessons[i];
        const ui::Lesson& b = files.lessons[i];
        EXPECT_EQ(a.file, fs::path("lessons") / b.file.filename());
        EXPECT_EQ(a.title, b.title);
        EXPECT_EQ(a.about, b.about);
        ASSERT_EQ(a.steps.size(), b.steps.size()) << a.file;
        for (std::size_t k = 0; k < a.steps.size(); ++k)
            EXPECT_EQ(a.steps[k].title, b.steps[k].title) << a.file << " step " << k + 1;
    }
}

// [SECTION] Answers from the trace

struct Traced {
    std::unique_ptr<TraceModel> model;
    const BlockReplay* block = nullptr;
};

Traced trace(const std::string& kernel, const Image& input, const Mask& mask, int block, Dim3 selected = {0, 0, 0}) {
    RunRequest r = requestFor(kernel, input, mask, block, Backend::Cpu, true);
    auto result = runKernel(r);
    EXPECT_TRUE(result.ok()) << (result ? "" : result.error().message);
    Traced t;
    if (!result || !result->trace)
        return t;
    t.model = std::make_unique<TraceModel>(std::move(*result->trace));
    const auto b = t.model->findBlock(selected);
    EXPECT_TRUE(b.has_value());
    if (b)
        t.block = &t.model->block(*b);
    return t;
}

double answer(const Traced& t, QuestionKind kind, Cell at = {0, 0}) {
    LessonQuestion q;
    q.kind = kind;
    q.at = at;
    auto a = ui::answerFrom(q, *t.model, *t.block);
    EXPECT_TRUE(a.ok()) << (a ? "" : a.error().message);
    if (!a || a->numbers.empty())
        return -1.0;
    // Every kind, graded: the trace's own number is right, one more is wrong.
    EXPECT_TRUE(ui::gradeNumbers(*a, {a->numbers[0]}).right);
    const ui::Grade wrong = ui::gradeNumbers(*a, {a->numbers[0] + 1.0});
    EXPECT_FALSE(wrong.right);
    EXPECT_NE(wrong.summary.find("Not quite"), std::string::npos) << wrong.summary;
    return a->numbers[0];
}

const Image kBookN = Image::signal({1, 2, 3, 4, 5, 6, 7});
const Mask kBookM = Mask::row({3, 4, 5, 4, 3});

TEST(LessonAnswers, OutputValuesAreTheBooksWorkedNumbers) {
    const Traced t = trace("conv1d_basic", kBookN, kBookM, 4);
    EXPECT_EQ(answer(t, QuestionKind::OutputValue, {2, 0}), 57.0);  // Figure 7.3
    EXPECT_EQ(answer(t, QuestionKind::OutputValue, {1, 0}), 38.0);  // Figure 7.4
    EXPECT_EQ(answer(t, QuestionKind::OutputValue, {0, 0}), 22.0);  // exercise 1: 5 + 8 + 9
}

TEST(LessonAnswers, TheOutputArrayOfExercise2) {
    const Image n = Image::signal({4, 1, 3, 2, 3});
    const Mask m = Mask::row({2, 1, 4});
    const Traced t = trace("conv1d_basic", n, m, 4);
    LessonQuestion q;
    q.kind = QuestionKind::OutputArray;
    auto a = ui::answerFrom(q, *t.model, *t.block);
    ASSERT_TRUE(a.ok());
    // By hand: P[i] = N[i-1] * 2 + N[i] * 1 + N[i+1] * 4, ghosts 0.
    EXPECT_EQ(a->numbers, (std::vector<double>{8, 21, 13, 20, 7}));
    EXPECT_TRUE(ui::gradeNumbers(*a, {8, 21, 13, 20, 7}).right);
    EXPECT_FALSE(ui::gradeNumbers(*a, {8, 21, 13, 20}).right);
    EXPECT_FALSE(ui::gradeNumbers(*a, {8, 21, 13, 20, 8}).right);
}

TEST(LessonAnswers, Exercise4GhostCellsAndMultiplications) {
    // n = 7, m = 5: m - 1 ghost cells; n * m taps, of which 2 + 1 + 1 + 2 fall on ghosts.
    const Traced basic = trace("conv1d_basic", kBookN, kBookM, 4);
    EXPECT_EQ(answer(basic, QuestionKind::GhostCells), 4.0);
    EXPECT_EQ(answer(basic, QuestionKind::Multiplies), 7.0 * 5 - 6);
    const Traced tiled = trace("conv1d_tiled", kBookN, kBookM, 4);
    EXPECT_EQ(answer(tiled, QuestionKind::Multiplies), 7.0 * 5);  // ghosts multiplied as stored zeros
}

TEST(LessonAnswers, Exercise5GhostCellsAndMultiplicationsOfASquare) {
    const int n = 8, r = 2, m = 2 * r + 1;
    const Image in = randomImage(n, n, 1, 3);
    const Mask mask = randomMask(m, true, 4);
    const Traced basic = trace("conv2d_basic", in, mask, 8);
    EXPECT_EQ(answer(basic, QuestionKind::GhostCells), double((n + m - 1) * (n + m - 1) - n * n));
    // Taps inside the image: per axis, sum over outputs of the in-range taps.
    long long inAxis = 0;
    for (int i = 0; i < n; ++i)
        for (int k = -r; k <= r; ++k)
            inAxis += (i + k >= 0 && i + k < n) ? 1 : 0;
    EXPECT_EQ(answer(basic, QuestionKind::Multiplies), double(inAxis * inAxis));
    const Traced tiled = trace("conv2d_tiled_in", in, mask, 8);
    EXPECT_EQ(answer(tiled, QuestionKind::Multiplies), double(n * n * m * m));
}

TEST(LessonAnswers, Exercise7BlocksThreadsAndSharedMemory) {
    const int n = 64, t = 16, m = 5;
    const Image in = randomSignal(n, 5);
    const Mask mask = randomMask(m, false, 6);
    const Traced tiled = trace("conv1d_tiled", in, mask, t);
    EXPECT_EQ(answer(tiled, QuestionKind::Blocks), double(n / t));
    EXPECT_EQ(answer(tiled, QuestionKind::ThreadsPerBlock), double(t));
    EXPECT_EQ(answer(tiled, QuestionKind::SharedBytes), double(n / t * (t + m - 1) * 4));
    const Traced cached = trace("conv1d_tiled_cached", in, mask, t);
    EXPECT_EQ(answer(cached, QuestionKind::SharedBytes), double(n / t * t * 4));
}

TEST(LessonAnswers, ThreadsThatWriteAndLoadsOfATiledBlock) {
    // conv2d_tiled_in, 8 x 8 blocks, radius 2: the inner (8 - 2r)^2 threads compute;
    // each of the 64 threads loads its one cell of the input tile.
    const Image in = randomImage(32, 32, 1, 7);
    const Mask mask = randomMask(5, true, 8);
    const Traced t = trace("conv2d_tiled_in", in, mask, 8, {1, 1, 0});
    EXPECT_EQ(answer(t, QuestionKind::OutputsWritten), 16.0);
    EXPECT_EQ(answer(t, QuestionKind::GlobalLoads), 64.0);
    LessonQuestion q;
    q.kind = QuestionKind::OutputsWritten;
    auto a = ui::answerFrom(q, *t.model, *t.block);
    EXPECT_TRUE(ui::gradeNumbers(*a, {16}).right);
    EXPECT_FALSE(ui::gradeNumbers(*a, {64}).right);
    // The basic kernel's block (0,0) of the book's 1D example: N and M, once per tap inside the array.
    const Traced basic = trace("conv1d_basic", kBookN, kBookM, 4);
    EXPECT_EQ(answer(basic, QuestionKind::GlobalLoads), 2.0 * (3 + 4 + 5 + 5));
}

TEST(LessonAnswers, CellsLoadedAreTheThreadsPatch) {
    const Image in = randomImage(16, 16, 1, 9);
    const Mask mask = randomMask(5, true, 10);
    const Traced t = trace("conv2d_basic", in, mask, 8);
    LessonQuestion q;
    q.kind = QuestionKind::CellsLoaded;
    q.at = {3, 3};
    auto a = ui::answerFrom(q, *t.model, *t.block);
    ASSERT_TRUE(a.ok());
    std::vector<Cell> patch;
    for (int x = 1; x <= 5; ++x)
        for (int y = 1; y <= 5; ++y)
            patch.push_back({x, y});
    EXPECT_EQ(a->cells, patch);
    const ui::Grade right = ui::gradeCells(*a, patch);
    EXPECT_TRUE(right.right);
    EXPECT_EQ(right.hit.size(), 25u);
    std::vector<Cell> some(patch.begin(), patch.begin() + 10);
    some.push_back({0, 0});
    const ui::Grade wrong = ui::gradeCells(*a, some);
    EXPECT_FALSE(wrong.right);
    EXPECT_EQ(wrong.hit.size(), 10u);
    EXPECT_EQ(wrong.wrong, (std::vector<Cell>{{0, 0}}));
    EXPECT_EQ(wrong.missed.size(), 15u);
    // In the tiled kernel, the same thread loads one cell: its own.
    const Traced tiled = trace("conv2d_tiled_in", in, mask, 8);
    auto one = ui::answerFrom(q, *tiled.model, *tiled.block);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->cells, (std::vector<Cell>{{1, 1}}));  // the tile starts r cells before the block's outputs
}

TEST(LessonAnswers, FirstBarrierFromTheThreadsOwnEvents) {
    // Independently of the replay's thread states: a thread's phase-0 events
    // come one per step, and the step after its last one finds it at the
    // barrier: waiting when another thread has more to do, passing it when
    // none has (the barrier step follows the longest thread's last event).
    const Traced t = trace("conv1d_tiled", kBookN, kBookM, 4);
    const std::vector<Event>& events = t.model->trace().blocks[0].events;
    std::vector<int> before(4, 0);
    std::vector<bool> reached(4, false);
    for (const Event& e : events) {
        if (e.op == Op::Barrier)
            reached[e.thread] = true;
        else if (!reached[e.thread])
            ++before[e.thread];
    }
    ASSERT_NE(*std::min_element(before.begin(), before.end()), *std::max_element(before.begin(), before.end()))
        << "the threads should not all do the same number of loads before the barrier";
    for (int thread = 0; thread < 4; ++thread)
        EXPECT_EQ(answer(t, QuestionKind::FirstBarrier, {thread, 0}), before[thread] + 1.0) << "thread " << thread;
    // A kernel without a barrier: the trace says so, never a made-up step.
    const Traced basic = trace("conv1d_basic", kBookN, kBookM, 4);
    LessonQuestion q;
    q.kind = QuestionKind::FirstBarrier;
    auto none = ui::answerFrom(q, *basic.model, *basic.block);
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("never waits"), std::string::npos);
}

TEST(LessonAnswers, TypedAnswersAreNumbersOrAreAskedAgain) {
    EXPECT_EQ(*ui::parseNumbers("8, 21 13;20 7"), (std::vector<double>{8, 21, 13, 20, 7}));
    EXPECT_FALSE(ui::parseNumbers("twelve").ok());
    EXPECT_FALSE(ui::parseNumbers("  ").ok());
    ui::ExpectedAnswer value;
    value.numbers = {57.25};
    value.integral = false;
    EXPECT_TRUE(ui::gradeNumbers(value, {57.25}).right);
    EXPECT_FALSE(ui::gradeNumbers(value, {57}).right);
}

// [SECTION] The lessons drawn

bool haveDisplay() {
    const char* d = std::getenv("DISPLAY");
    return d && *d;
}

int runBinary(const std::string& arguments, std::string* errors = nullptr) {
    const fs::path err = fs::temp_directory_path() / ("tilescope-lesson-err-" + std::to_string(::getpid()));
    const std::string command = std::string("'") + TILESCOPE_BINARY + "' " + arguments + " > /dev/null 2> '" +
                                err.string() + "'";
    const int status = std::system(command.c_str());
    if (errors) {
        std::ifstream in(err);
        std::stringstream s;
        s << in.rdbuf();
        *errors = s.str();
    }
    fs::remove(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Item {
    std::string name, text;
    float x0, y0, x1, y1;
};

std::vector<Item> items(const json& layout) {
    std::vector<Item> out;
    for (const json& i : layout["items"]) {
        const auto& r = i["rect"];
        out.push_back({i["name"], i["text"], r[0], r[1], r[2], r[3]});
    }
    return out;
}

const Item* find(const std::vector<Item>& all, const std::string& name) {
    for (const Item& i : all)
        if (i.name == name)
            return &i;
    return nullptr;
}

// Every step of both lessons, in both modes: no clipped text; the marks where the grid puts their cells.
void checkRenderedLesson(const std::string& lesson, bool lecture) {
    const fs::path dir = fs::temp_directory_path() /
                         ("tilescope-render-" + lesson + (lecture ? "-lecture-" : "-") + std::to_string(::getpid()));
    fs::remove_all(dir);
    std::string errors;
    ASSERT_EQ(runBinary("lesson " + lesson + " --render '" + dir.string() + "' --size 1920x1080" +
                            (lecture ? " --lecture" : ""),
                        &errors),
              0)
        << errors;
    const ui::LessonRead read =
        ui::readLesson(fs::path(TILESCOPE_SOURCE_DIR) / "assets" / "lessons" / (lesson + ".lesson"));
    ASSERT_TRUE(read.lesson);
    int pictures = 0;
    for (std::size_t s = 0; s < read.lesson->steps.size(); ++s) {
        const ui::LessonStep& step = read.lesson->steps[s];
        char stem[32];
        std::snprintf(stem, sizeof stem, "step-%02zu", s + 1);
        std::vector<std::string> shots{stem};
        if (step.question)
            shots.push_back(std::string(stem) + "-revealed");
        for (const std::string& shot : shots) {
            SCOPED_TRACE(lesson + " " + shot + (lecture ? " (lecture)" : ""));
            std::ifstream in(dir / (shot + ".json"));
            ASSERT_TRUE(in) << "no picture of " << shot;
            const json layout = json::parse(in);
            auto png = io::readImageFile(dir / (shot + ".png"));
            ASSERT_TRUE(png.ok());
            ++pictures;
            const std::vector<Item> all = items(layout);
            for (const Item& i : all)
                if (i.name == "clipped")
                    ADD_FAILURE() << "clipped text in " << i.text << " at (" << i.x0 << ", " << i.y0 << ")";
            const Item* glyphs = find(all, "glyphs");
            ASSERT_TRUE(glyphs);
            EXPECT_GT(std::stoi(glyphs->text), 200);
            const Item* caption = find(all, "lesson.caption");
            ASSERT_TRUE(caption) << "no caption drawn";
            const Item* title = find(all, "lesson.title");
            ASSERT_TRUE(title);
            EXPECT_EQ(title->text, step.title);
            // The pointed-at cells: at the grid's place for each cell, bracketed in the pointer's colour.
            const Item* cell0 = find(all, "grid.cell0");
            int k = 0;
            for (const ui::LessonPoint& p : step.points) {
                if (p.kind != ui::PointKind::Cells)
                    continue;
                for (const Cell& c : p.at) {
                    const Item* mark = find(all, "grid.point." + std::to_string(k++));
                    ASSERT_TRUE(mark && cell0) << "cell " << c[0] << "," << c[1] << " not marked";
                    const float w = cell0->x1 - cell0->x0, h = cell0->y1 - cell0->y0;
                    const int y = read.lesson->steps[s].setup.kernel.rfind("conv1d", 0) == 0 ? 0 : c[1];
                    EXPECT_NEAR(mark->x0, cell0->x0 + w * static_cast<float>(c[0]), 1.5f);
                    EXPECT_NEAR(mark->y0, cell0->y0 + h * static_cast<float>(y), 1.5f);
                    EXPECT_EQ(mark->text, std::to_string(c[0]) + "," + std::to_string(c[1]));
                    // On screen: inside the grid's view, which frames what the step points at.
                    const Item* view = find(all, "grid.view");
                    ASSERT_TRUE(view);
                    EXPECT_TRUE(mark->x0 >= view->x0 - 1 && mark->y0 >= view->y0 - 1 && mark->x1 <= view->x1 + 1 &&
                                mark->y1 <= view->y1 + 1)
                        << "cell " << c[0] << "," << c[1] << " is pointed at outside the view";
                    // The bracket at the cell's top-left corner: the pointer's colour (black in lecture
                    // mode, white otherwise) beside its casing (the other one), both in the corner's quarter.
                    if (w >= 12.0f) {
                        const float ink = lecture ? 0.0f : 1.0f;
                        bool sawInk = false, sawCasing = false;
                        for (int y = static_cast<int>(mark->y0); y < static_cast<int>(mark->y0 + h * 0.25f); ++y)
                            for (int x = static_cast<int>(mark->x0); x < static_cast<int>(mark->x0 + w * 0.25f); ++x) {
                                if (x < 0 || y < 0 || x >= png->width || y >= png->height)
                                    continue;
                                const float r = png->at(x, y, 0), g = png->at(x, y, 1), b = png->at(x, y, 2);
                                const bool grey = std::abs(r - g) < 0.05f && std::abs(g - b) < 0.05f;
                                sawInk |= grey && std::abs(r - ink) < 0.05f;
                                sawCasing |= grey && std::abs(r - (1.0f - ink)) < 0.05f;
                            }
                        EXPECT_TRUE(sawInk && sawCasing) << "no bracket at cell " << c[0] << "," << c[1];
                    }
                }
            }
            if (shot.find("revealed") != std::string::npos) {
                EXPECT_TRUE(find(all, "lesson.how")) << "the revealed answer does not say where it comes from";
                EXPECT_FALSE(find(all, "lesson.answer-problem")) << "the trace could not answer";
            } else if (step.question) {
                const Item* question = find(all, "lesson.question");
                ASSERT_TRUE(question);
                EXPECT_EQ(question->text, step.question->text);
            }
        }
    }
    EXPECT_GE(pictures, 15);
    fs::remove_all(dir);
}

TEST(LessonDrawn, OneDimensionalLessonNormal) {
    if (!haveDisplay())
        GTEST_SKIP() << "no X display";
    checkRenderedLesson("1d-convolution", false);
}
TEST(LessonDrawn, OneDimensionalLessonLecture) {
    if (!haveDisplay())
        GTEST_SKIP() << "no X display";
    checkRenderedLesson("1d-convolution", true);
}
TEST(LessonDrawn, TwoDimensionalLessonNormal) {
    if (!haveDisplay())
        GTEST_SKIP() << "no X display";
    checkRenderedLesson("2d-convolution", false);
}
TEST(LessonDrawn, TwoDimensionalLessonLecture) {
    if (!haveDisplay())
        GTEST_SKIP() << "no X display";
    checkRenderedLesson("2d-convolution", true);
}

// A right and a wrong answer, typed and clicked, graded on screen.
std::string gradeShown(const std::string& arguments) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-grade-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string errors;
    const int code = runBinary("screenshot --backend cpu --size 1920x1080 --out '" + (dir / "g.png").string() +
                                   "' --layout '" + (dir / "g.json").string() + "' " + arguments,
                               &errors);
    EXPECT_EQ(code, 0) << errors;
    std::ifstream in(dir / "g.json");
    if (!in)
        return "no picture";
    const std::vector<Item> all = items(json::parse(in));
    fs::remove_all(dir);
    const Item* grade = find(all, "lesson.grade");
    std::string shown = grade ? grade->text : "no grade";
    for (const Item& i : all)
        if (i.name.rfind("grid.missed.", 0) == 0)
            shown += " missed";
    return shown;
}

TEST(LessonDrawn, AnswersAreGradedOnScreen) {
    if (!haveDisplay())
        GTEST_SKIP() << "no X display";
    // Step 2 asks for P[2] of Figure 7.3; step 6 for the cells thread 2 loads (N[0..4]).
    EXPECT_EQ(gradeShown("--lesson 1d-convolution --lesson-step 2 --answer 57 --reveal"), "right");
    EXPECT_EQ(gradeShown("--lesson 1d-convolution --lesson-step 2 --answer 56 --reveal"), "wrong");
    EXPECT_EQ(gradeShown("--lesson 1d-convolution --lesson-step 6 --answer '0,0 1,0 2,0 3,0 4,0' --reveal"), "right");
    const std::string partly = gradeShown("--lesson 1d-convolution --lesson-step 6 --answer '0,0 1,0' --reveal");
    EXPECT_EQ(partly.rfind("wrong", 0), 0u) << partly;
    EXPECT_NE(partly.find("missed"), std::string::npos) << partly;
}

TEST(LessonCommand, CheckNamesTheFileTheLineAndTheReason) {
    const fs::path bad = fs::temp_directory_path() / ("tilescope-bad-" + std::to_string(::getpid()) + ".lesson");
    std::string text = kGood;
    text.replace(text.find("select: 3,3"), 11, "select: 30,3");
    std::ofstream(bad) << text;
    std::string errors;
    EXPECT_EQ(runBinary("lesson --check '" + bad.string() + "'", &errors), 2);
    EXPECT_NE(errors.find(bad.string() + ":22: select: (30,3) is outside the output array (16 x 16)"),
              std::string::npos)
        << errors;
    fs::remove(bad);
    EXPECT_EQ(runBinary("lesson --check '" + (fs::path(TILESCOPE_SOURCE_DIR) / "assets/lessons/1d-convolution.lesson").string() +
                        "'"),
              0);
    EXPECT_EQ(runBinary("lesson --check /no/such.lesson", &errors), 2);
    EXPECT_NE(errors.find("/no/such.lesson: does not exist"), std::string::npos) << errors;
}

}  // namespace
}  // namespace tilescope::test
