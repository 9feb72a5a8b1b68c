#include "model/lesson_player.hpp"

#include <algorithm>
#include <utility>

namespace tilescope::ui {

void LessonPlayer::load(LessonLibrary library) {
    m_library = std::move(library);
}

bool LessonPlayer::open(const std::filesystem::path& file, std::string& problem) {
    LessonRead read = readLesson(file);
    if (!read.lesson) {
        problem = read.errors.empty() ? file.string() + ": cannot be read" : read.errors.front().message();
        if (read.errors.size() > 1)
            problem += " (and " + std::to_string(read.errors.size() - 1) + " more)";
        return false;
    }
    m_lesson = std::move(*read.lesson);
    m_step = 0;
    enterStep();
    return true;
}

void LessonPlayer::start(std::size_t lesson, int step) {
    if (lesson >= m_library.lessons.size())
        return;
    m_lesson = m_library.lessons[lesson];
    m_step = std::clamp(step, 0, stepCount() - 1);
    enterStep();
}

void LessonPlayer::stop() {
    m_lesson.reset();
    ++m_serial;
}

const LessonStep* LessonPlayer::step() const {
    if (!m_lesson || m_step < 0 || m_step >= stepCount())
        return nullptr;
    return &m_lesson->steps[static_cast<std::size_t>(m_step)];
}

bool LessonPlayer::next() {
    if (!m_lesson)
        return false;
    const LessonStep* s = step();
    if (s && s->question && !m_revealed) {
        m_revealPending = true;
        return true;
    }
    if (m_step + 1 >= stepCount())
        return false;
    ++m_step;
    enterStep();
    return true;
}

bool LessonPlayer::previous() {
    if (!m_lesson || m_step == 0)
        return false;
    --m_step;
    enterStep();
    return true;
}

void LessonPlayer::go(int step) {
    if (!m_lesson)
        return;
    m_step = std::clamp(step, 0, stepCount() - 1);
    enterStep();
}

void LessonPlayer::enterStep() {
    ++m_serial;
    clearAnswer();
    m_marks = LessonMarks{};
    if (const LessonStep* s = step()) {
        for (const LessonPoint& p : s->points) {
            std::vector<Cell>& marks = p.kind == PointKind::Cells ? m_marks.cells : m_marks.threads;
            marks.insert(marks.end(), p.at.begin(), p.at.end());
        }
        m_marks.pickingCells = s->question && s->question->answeredByCells();
    }
}

void LessonPlayer::clearAnswer() {
    m_typed.clear();
    m_typedProblem.clear();
    m_revealed = false;
    m_revealPending = false;
    m_expected.reset();
    m_grade.reset();
    m_answerProblem.clear();
    m_marks.picked.clear();
    m_marks.grade = nullptr;
    m_marks.expected = nullptr;
    if (const LessonStep* s = step())
        m_marks.pickingCells = s->question && s->question->answeredByCells();
}

void LessonPlayer::toggleCell(const Cell& c) {
    if (m_revealed)
        return;
    auto it = std::find(m_marks.picked.begin(), m_marks.picked.end(), c);
    if (it == m_marks.picked.end())
        m_marks.picked.push_back(c);
    else
        m_marks.picked.erase(it);
}

void LessonPlayer::resolve(const TraceModel* model, const BlockReplay* block) {
    if (!m_revealPending || m_revealed)
        return;
    const LessonStep* s = step();
    if (!s || !s->question) {
        m_revealPending = false;
        return;
    }
    if (!model || !block)
        return;  // the step's trace is not in yet
    m_revealPending = false;
    auto answer = answerFrom(*s->question, *model, *block);
    if (!answer) {
        m_answerProblem = answer.error().message;
        m_revealed = true;
        return;
    }
    m_expected = std::move(*answer);
    m_typedProblem.clear();
    if (m_expected->byCells) {
        if (!m_marks.picked.empty())
            m_grade = gradeCells(*m_expected, m_marks.picked);
    } else if (!m_typed.empty()) {
        auto numbers = parseNumbers(m_typed);
        if (numbers) {
            m_grade = gradeNumbers(*m_expected, *numbers);
        } else {
            m_typedProblem = numbers.error().message;
        }
    }
    m_revealed = true;
    m_marks.pickingCells = false;
    m_marks.grade = m_grade ? &*m_grade : nullptr;
    m_marks.expected = &*m_expected;
}

}  // namespace tilescope::ui
