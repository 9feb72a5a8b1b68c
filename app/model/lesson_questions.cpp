#include "model/lesson_questions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace tilescope::ui {

namespace {

std::string blockName(const BlockReplay& block, int dims) {
    const Dim3 b = block.block();
    return dims == 2 ? "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + ")"
                     : "block " + std::to_string(b.x);
}

std::string threadName(const Cell& t, int dims) {
    return dims == 2 ? "thread (" + std::to_string(t[0]) + "," + std::to_string(t[1]) + ")"
                     : "thread " + std::to_string(t[0]);
}

std::optional<unsigned> threadAt(const BlockReplay& block, const Cell& at) {
    for (unsigned t = 0; t < block.threadCount(); ++t) {
        const Dim3 c = block.threadCoords(t);
        if (static_cast<int>(c.x) == at[0] && static_cast<int>(c.y) == at[1] && c.z == 0)
            return t;
    }
    return std::nullopt;
}

bool wholeLaunch(const TraceModel& model) {
    const LaunchPlan& p = model.trace().plan;
    return model.blockCount() == static_cast<std::size_t>(p.grid.x) * p.grid.y * std::max(p.grid.z, 1u);
}

std::string formatNumber(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) {
        char text[32];
        std::snprintf(text, sizeof text, "%.0f", v);
        return text;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

std::string numbersText(const std::vector<double>& v) {
    std::string s;
    for (double x : v)
        s += (s.empty() ? "" : " ") + formatNumber(x);
    return s;
}

}  // namespace

Result<ExpectedAnswer> answerFrom(const LessonQuestion& q, const TraceModel& model, const BlockReplay& block) {
    const Trace& trace = model.trace();
    const int dims = trace.dims();
    const LaunchPlan& plan = trace.plan;
    ExpectedAnswer a;
    auto launchWide = [&]() -> std::optional<Error> {
        if (!wholeLaunch(model))
            return Error{ExitCode::BadInput, "this question counts the whole launch, and only " +
                                                 std::to_string(model.blockCount()) +
                                                 " block(s) were traced: use a smaller input"};
        return std::nullopt;
    };
    switch (q.kind) {
        case QuestionKind::OutputsWritten: {
            unsigned writers = 0;
            for (unsigned t = 0; t < block.threadCount(); ++t)
                writers += block.thread(t).output >= 0 ? 1 : 0;
            a.numbers = {static_cast<double>(writers)};
            a.how = std::to_string(writers) + " of the " + std::to_string(block.threadCount()) + " threads of " +
                    blockName(block, dims) + " store an element of P; the other " +
                    std::to_string(block.threadCount() - writers) + " load their tile cell and are switched off";
            if (writers == block.threadCount())
                a.how = "all " + std::to_string(writers) + " threads of " + blockName(block, dims) +
                        " store an element of P: none is switched off";
            return a;
        }
        case QuestionKind::GlobalLoads: {
            const Counters& c = block.counters();
            a.numbers = {static_cast<double>(c.globalLoads)};
            a.how = blockName(block, dims) + " makes " + std::to_string(c.globalLoads) + " global loads: " +
                    std::to_string(c.inputLoads) + " of N";
            if (c.globalLoads > c.inputLoads)
                a.how += " and " + std::to_string(c.globalLoads - c.inputLoads) + " of the mask";
            if (c.constantLoads > 0)
                a.how += " (the mask's " + std::to_string(c.constantLoads) + " reads come from constant memory)";
            return a;
        }
        case QuestionKind::CellsLoaded: {
            const auto t = threadAt(block, q.at);
            if (!t)
                return Error{ExitCode::BadInput, threadName(q.at, dims) + " is not in " + blockName(block, dims)};
            std::set<Cell> cells;
            std::size_t loads = 0;
            for (const ArrayInfo::Coords& c : block.cellsLoadedBy(*t, block.size())) {
                cells.insert({c.x, c.y});
                ++loads;
            }
            a.byCells = true;
            a.cells.assign(cells.begin(), cells.end());
            a.numbers = {static_cast<double>(a.cells.size())};
            a.how = threadName(q.at, dims) + " of " + blockName(block, dims) + " loads " +
                    std::to_string(a.cells.size()) + " cell" + (a.cells.size() == 1 ? "" : "s") +
                    " of N from global memory";
            if (loads != a.cells.size())
                a.how += " (" + std::to_string(loads) + " loads)";
            if (a.cells.empty())
                a.how += ": it loads nothing from global memory";
            return a;
        }
        case QuestionKind::FirstBarrier: {
            const auto t = threadAt(block, q.at);
            if (!t)
                return Error{ExitCode::BadInput, threadName(q.at, dims) + " is not in " + blockName(block, dims)};
            for (std::uint32_t s = 0; s < block.stepCount(); ++s) {
                const ThreadState state = block.threadState(*t, block.step(s).end);
                if (state == ThreadState::WaitingAtBarrier || state == ThreadState::AtBarrier) {
                    a.numbers = {static_cast<double>(s + 1)};
                    a.how = "after step " + std::to_string(s + 1) + " of " + blockName(block, dims) + ", " +
                            threadName(q.at, dims) +
                            (state == ThreadState::AtBarrier ? " passes its first barrier"
                                                             : " has done its part of phase 0 and waits at the "
                                                               "barrier for the others");
                    return a;
                }
            }
            return Error{ExitCode::BadInput, threadName(q.at, dims) + " never waits at a barrier: " + trace.kernel +
                                                 " has no __syncthreads()"};
        }
        case QuestionKind::OutputValue: {
            for (std::size_t b = 0; b < model.blockCount(); ++b) {
                const BlockReplay& r = model.block(b);
                if (const auto v = r.outputAt(q.at[0], q.at[1], 0, r.size())) {
                    a.numbers = {static_cast<double>(*v)};
                    a.integral = false;
                    a.how = (dims == 2 ? "P[" + std::to_string(q.at[1]) + "][" + std::to_string(q.at[0]) + "]"
                                       : "P[" + std::to_string(q.at[0]) + "]") +
                            " = " + formatNumber(*v) + ", as " + blockName(r, dims) + " stored it";
                    return a;
                }
            }
            return Error{ExitCode::BadInput, "no traced block stores that element of P"};
        }
        case QuestionKind::OutputArray: {
            if (auto e = launchWide())
                return *e;
            const ArrayInfo& p = trace.arrays[kArrayOutput];
            std::vector<std::optional<float>> values(static_cast<std::size_t>(p.width));
            for (std::size_t b = 0; b < model.blockCount(); ++b) {
                const BlockReplay& r = model.block(b);
                for (int x = 0; x < p.width; ++x)
                    if (!values[static_cast<std::size_t>(x)])
                        values[static_cast<std::size_t>(x)] = r.outputAt(x, 0, 0, r.size());
            }
            for (const auto& v : values) {
                if (!v)
                    return Error{ExitCode::BadInput, "the launch leaves an element of P unwritten"};
                a.numbers.push_back(*v);
            }
            a.integral = false;
            a.how = "P = " + numbersText(a.numbers) + ", as the blocks stored it";
            return a;
        }
        case QuestionKind::GhostCells: {
            if (auto e = launchWide())
                return *e;
            const std::size_t n = model.ghostCellCount();
            a.numbers = {static_cast<double>(n)};
            a.how = "the launch's threads touch " + std::to_string(n) +
                    " distinct cells outside the array (taps that fall there, or zeros stored for them)";
            return a;
        }
        case QuestionKind::Multiplies: {
            if (auto e = launchWide())
                return *e;
            const Counters& c = model.counts().totals;
            const std::uint64_t macs = c.flops / 2;
            a.numbers = {static_cast<double>(macs)};
            a.how = trace.kernel + " performs " + std::to_string(macs) + " multiply-adds over the launch";
            if (c.ghostRefs > 0)
            {
                // Every computing thread multiplied every tap: the ghost taps were multiplications by 0.
                const std::uint64_t taps = dims == 2 ? static_cast<std::uint64_t>(plan.maskWidth) * plan.maskWidth
                                                     : static_cast<std::uint64_t>(plan.maskWidth);
                a.how += std::string("; its ") + std::to_string(c.ghostRefs) + " taps on ghost cells " +
                         (macs == c.threadsComputing * taps * std::max(plan.channels, 1) ? "are multiplications by a stored 0"
                                                                                       : "are skipped");
            }
            return a;
        }
        case QuestionKind::Blocks: {
            const std::uint64_t n = static_cast<std::uint64_t>(plan.grid.x) * plan.grid.y * std::max(plan.grid.z, 1u);
            a.numbers = {static_cast<double>(n)};
            a.how = "the launch's grid is " + std::to_string(plan.grid.x) +
                    (dims == 2 ? " x " + std::to_string(plan.grid.y) : "") + " = " + std::to_string(n) + " block" +
                    (n == 1 ? "" : "s");
            return a;
        }
        case QuestionKind::ThreadsPerBlock: {
            const std::uint64_t n = static_cast<std::uint64_t>(plan.block.x) * plan.block.y * std::max(plan.block.z, 1u);
            a.numbers = {static_cast<double>(n)};
            a.how = "each block is " + std::to_string(plan.block.x) +
                    (dims == 2 ? " x " + std::to_string(plan.block.y) : "") + " = " + std::to_string(n) + " threads";
            return a;
        }
        case QuestionKind::SharedBytes: {
            const std::uint64_t blocks =
                static_cast<std::uint64_t>(plan.grid.x) * plan.grid.y * std::max(plan.grid.z, 1u);
            const std::uint64_t n = blocks * plan.sharedBytes;
            a.numbers = {static_cast<double>(n)};
            a.how = std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") + " x " +
                    std::to_string(plan.sharedBytes) + " bytes of shared memory (" +
                    std::to_string(plan.sharedBytes / sizeof(float)) + " floats) each = " + std::to_string(n) + " bytes";
            return a;
        }
    }
    return Error{ExitCode::BadInput, "unknown question"};
}

Result<std::vector<double>> parseNumbers(const std::string& text) {
    std::vector<double> out;
    std::string word;
    auto flush = [&]() -> bool {
        if (word.empty())
            return true;
        try {
            std::size_t used = 0;
            const double v = std::stod(word, &used);
            if (used != word.size() || !std::isfinite(v))
                return false;
            out.push_back(v);
        } catch (...) {
            return false;
        }
        word.clear();
        return true;
    };
    for (char c : text) {
        if (c == ' ' || c == ',' || c == '\t' || c == ';' || c == '{' || c == '}' || c == '[' || c == ']') {
            if (!flush())
                return Error{ExitCode::BadInput, "'" + word + "' is not a number"};
        } else {
            word += c;
        }
    }
    if (!flush())
        return Error{ExitCode::BadInput, "'" + word + "' is not a number"};
    if (out.empty())
        return Error{ExitCode::BadInput, "type a number first"};
    return out;
}

Grade gradeNumbers(const ExpectedAnswer& expected, const std::vector<double>& given) {
    Grade g;
    const auto& want = expected.numbers;
    g.right = given.size() == want.size();
    for (std::size_t i = 0; g.right && i < want.size(); ++i) {
        const double tolerance = expected.integral ? 1e-9 : 1e-4 * std::max(1.0, std::abs(want[i]));
        g.right = std::abs(given[i] - want[i]) <= tolerance;
    }
    if (g.right)
        g.summary = "Right: " + numbersText(want) + ".";
    else if (want.size() > 1 && given.size() != want.size())
        g.summary = "Not quite: the answer has " + std::to_string(want.size()) + " values, " + numbersText(want) +
                    "; you gave " + std::to_string(given.size()) + ".";
    else
        g.summary = "Not quite: the answer is " + numbersText(want) + "; you said " + numbersText(given) + ".";
    return g;
}

Grade gradeCells(const ExpectedAnswer& expected, std::vector<Cell> clicked) {
    Grade g;
    std::sort(clicked.begin(), clicked.end());
    clicked.erase(std::unique(clicked.begin(), clicked.end()), clicked.end());
    std::set_intersection(clicked.begin(), clicked.end(), expected.cells.begin(), expected.cells.end(),
                          std::back_inserter(g.hit));
    std::set_difference(clicked.begin(), clicked.end(), expected.cells.begin(), expected.cells.end(),
                        std::back_inserter(g.wrong));
    std::set_difference(expected.cells.begin(), expected.cells.end(), clicked.begin(), clicked.end(),
                        std::back_inserter(g.missed));
    g.right = g.wrong.empty() && g.missed.empty();
    if (g.right)
        g.summary = "Right: all " + std::to_string(g.hit.size()) + " cells.";
    else
        g.summary = std::to_string(g.hit.size()) + " of " + std::to_string(expected.cells.size()) + " right, " +
                    std::to_string(g.wrong.size()) + " clicked but not loaded, " + std::to_string(g.missed.size()) +
                    " missed.";
    return g;
}

}  // namespace tilescope::ui
