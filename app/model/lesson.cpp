#include "model/lesson.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>

#include "base/read_file.hpp"
#include "core/kernel_catalogue.hpp"
#include "model/assets.hpp"
#include "model/inputs.hpp"
#include "model/masks.hpp"
#include "model/setup_rules.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;

// [SECTION] Names

namespace {

constexpr QuestionKindInfo kQuestions[] = {
    {QuestionKind::OutputsWritten, "outputs-written", false, "How many threads of this block write an output?"},
    {QuestionKind::GlobalLoads, "global-loads", false, "How many loads from global memory does this block make?"},
    {QuestionKind::CellsLoaded, "cells-loaded", true, "Click the cells of N that thread %s loads from global memory."},
    {QuestionKind::FirstBarrier, "first-barrier", true,
     "At which step does thread %s first wait at a barrier (__syncthreads)?"},
    {QuestionKind::OutputValue, "output", true, "What is the value of P%s?"},
    {QuestionKind::OutputArray, "output-array", false, "What is the output array P? (values separated by spaces)"},
    {QuestionKind::GhostCells, "ghost-cells", false, "How many ghost cells does the whole launch touch?"},
    {QuestionKind::Multiplies, "multiplies", false, "How many multiplications does the whole launch perform?"},
    {QuestionKind::Blocks, "blocks", false, "How many blocks does the launch need?"},
    {QuestionKind::ThreadsPerBlock, "threads-per-block", false, "How many threads does each block have?"},
    {QuestionKind::SharedBytes, "shared-bytes", false,
     "How many bytes of shared memory does the whole launch use (all blocks together)?"},
};

std::string trim(std::string_view s) {
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return std::string(s.substr(a, b - a));
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::string word;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
            if (!word.empty())
                out.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        out.push_back(std::move(word));
    return out;
}

std::optional<long long> integer(std::string_view s) {
    long long v = 0;
    const char* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc{} || ptr != end)
        return std::nullopt;
    return v;
}

std::optional<float> number(const std::string& s) {
    try {
        std::size_t used = 0;
        const float v = std::stof(s, &used);
        if (used != s.size() || !std::isfinite(v))
            return std::nullopt;
        return v;
    } catch (...) {
        return std::nullopt;
    }
}

// "3" (1D: y = 0) or "3,4".
std::optional<std::array<int, 2>> coords(std::string_view s) {
    const std::size_t comma = s.find(',');
    if (comma == std::string_view::npos) {
        const auto x = integer(s);
        if (!x || std::abs(*x) > 1'000'000)
            return std::nullopt;
        return std::array<int, 2>{static_cast<int>(*x), 0};
    }
    const auto x = integer(s.substr(0, comma)), y = integer(s.substr(comma + 1));
    if (!x || !y || std::abs(*x) > 1'000'000 || std::abs(*y) > 1'000'000)
        return std::nullopt;
    return std::array<int, 2>{static_cast<int>(*x), static_cast<int>(*y)};
}

std::string coordsText(const std::array<int, 2>& c, int dims) {
    return dims == 2 ? "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")" : "(" + std::to_string(c[0]) + ")";
}

}  // namespace

std::span<const QuestionKindInfo> questionKinds() {
    return kQuestions;
}

const QuestionKindInfo& questionKindInfo(QuestionKind kind) {
    for (const QuestionKindInfo& q : kQuestions)
        if (q.kind == kind)
            return q;
    return kQuestions[0];
}

std::string LessonError::message() const {
    std::string where = file.string();
    if (line > 0)
        where += ":" + std::to_string(line);
    return where + ": " + reason;
}

// [SECTION] Reading

namespace {

class Parser {
public:
    Parser(const fs::path& file) : m_file(file) {
        // A lesson starts on the CPU with the panels a step-through needs.
        m_state.setup.backend = Backend::Cpu;
        m_state.panels = PanelVisibility::none();
        for (PanelId id : {PanelId::Grid, PanelId::Threads, PanelId::Shared, PanelId::Source})
            m_state.panels[id] = true;
    }

    LessonRead run(std::string_view text) {
        std::vector<std::pair<int, std::string>> lines;  // logical lines: continuation lines joined
        int number = 0;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            std::string raw(text.substr(start, end - start));
            start = end + 1;
            ++number;
            if (!raw.empty() && raw.back() == '\r')
                raw.pop_back();
            const std::string t = trim(raw);
            if (t.empty() || t[0] == '#')
                continue;
            const bool continuation = std::isspace(static_cast<unsigned char>(raw[0]));
            if (continuation && !lines.empty() && m_joinable) {
                lines.back().second += " " + t;
                continue;
            }
            if (continuation) {
                error(number, "an indented line continues a caption, an about or a question line; this one follows "
                              "none");
                continue;
            }
            const std::size_t colon = t.find(':');
            const std::string key = colon == std::string::npos ? "" : trim(std::string_view(t).substr(0, colon));
            m_joinable = key == "caption" || key == "about" || key == "question" || key == "lesson";
            lines.emplace_back(number, t);
        }
        for (const auto& [line, content] : lines)
            take(line, content);
        finishStep();
        if (m_lesson.title.empty() && m_errors.empty())
            error(0, "the file has no `lesson:` line (the lesson's title)");
        if (m_lesson.steps.empty() && m_errors.empty())
            error(0, "the lesson has no steps (each begins with a `step:` line)");
        LessonRead read;
        read.errors = std::move(m_errors);
        if (read.errors.empty()) {
            m_lesson.file = m_file;
            read.lesson = std::move(m_lesson);
        }
        return read;
    }

private:
    void error(int line, std::string reason) {
        if (m_errors.size() < 200)
            m_errors.push_back({m_file, line, std::move(reason)});
    }

    void take(int line, const std::string& content) {
        const std::size_t colon = content.find(':');
        if (colon == std::string::npos || colon == 0) {
            error(line, "expected `key: value`, found \"" + content + "\"");
            return;
        }
        const std::string key = trim(std::string_view(content).substr(0, colon));
        const std::string value = trim(std::string_view(content).substr(colon + 1));
        if (key == "lesson") {
            if (m_inStep || !m_lesson.title.empty())
                error(line, "`lesson:` (the title) comes once, before the first step");
            else if (value.empty())
                error(line, "`lesson:` needs the lesson's title");
            m_lesson.title = value;
            return;
        }
        if (key == "about") {
            if (m_inStep)
                error(line, "`about:` describes the lesson: put it before the first step");
            m_lesson.about = value;
            return;
        }
        if (key == "step") {
            finishStep();
            m_inStep = true;
            m_step = LessonStep{};
            m_step.line = line;
            m_step.title = value;
            m_state.line = line;
            if (value.empty())
                error(line, "`step:` needs the step's title");
            return;
        }
        if (!m_inStep) {
            error(line, "`" + key + ":` belongs to a step: begin one with `step: TITLE`");
            return;
        }
        stepKey(line, key, value);
    }

    void stepKey(int line, const std::string& key, const std::string& value) {
        SetupState& s = m_state.setup;
        if (key == "kernel") {
            const KernelInfo* k = findKernel(value);
            if (!k || isOwnKernel(value)) {
                std::string known;
                for (const KernelInfo& info : allKernels())
                    if (!info.asPrinted)
                        known += (known.empty() ? "" : ", ") + std::string(info.name);
                error(line, "unknown kernel '" + value + "' (the kernels: " + known + ")");
                return;
            }
            s.kernel = value;
            m_state.kernelLine = line;
        } else if (key == "input") {
            const InputSourceInfo* in = findInputSource(value);
            if (!in || in->id == InputSource::File) {
                std::string known;
                for (const InputSourceInfo& i : inputSources())
                    if (i.id != InputSource::File)
                        known += (known.empty() ? "" : ", ") + std::string(i.key);
                error(line, "unknown input '" + value + "' (the built-in inputs: " + known + ")");
                return;
            }
            s.input.source = in->id;
            m_state.inputLine = line;
        } else if (key == "input-size") {
            const std::size_t x = value.find('x');
            if (x == std::string::npos) {
                const auto n = integer(value);
                if (!n || *n < 1 || *n > kMaxInputLength) {
                    error(line, "input-size: expected N (1D, 1 to " + std::to_string(kMaxInputLength) +
                                    ") or WxH (2D), found '" + value + "'");
                    return;
                }
                s.input.length = static_cast<int>(*n);
            } else {
                const auto w = integer(std::string_view(value).substr(0, x)),
                           h = integer(std::string_view(value).substr(x + 1));
                if (!w || !h || *w < 1 || *h < 1 || *w > kMaxInputEdge || *h > kMaxInputEdge) {
                    error(line, "input-size: expected WxH with sides 1 to " + std::to_string(kMaxInputEdge) +
                                    ", found '" + value + "'");
                    return;
                }
                s.input.width = static_cast<int>(*w);
                s.input.height = static_cast<int>(*h);
            }
            m_state.inputLine = line;
        } else if (key == "mask") {
            const MaskPresetInfo* p = findMaskPreset(value);
            if (!p || p->id == MaskPreset::Custom) {
                std::string known;
                for (const MaskPresetInfo& m : maskPresets())
                    if (m.id != MaskPreset::Custom)
                        known += (known.empty() ? "" : ", ") + std::string(m.key);
                error(line, "unknown mask '" + value + "' (the presets: " + known + "; or `weights:` for your own)");
                return;
            }
            s.preset = p->id;
            s.customValues.clear();
            m_state.maskLine = line;
        } else if (key == "radius") {
            const auto r = integer(value);
            if (!r || *r < 0 || *r > 32) {
                error(line, "radius: expected 0 to 32, found '" + value + "'");
                return;
            }
            s.radius = static_cast<int>(*r);
            m_state.maskLine = line;
        } else if (key == "weights") {
            std::vector<float> values;
            for (const std::string& w : words(value)) {
                const auto v = number(w);
                if (!v) {
                    error(line, "weights: '" + w + "' is not a number");
                    return;
                }
                values.push_back(*v);
            }
            // 2r+1 values (1D) or (2r+1)^2 (2D): the radius follows from the count.
            const int n = static_cast<int>(values.size());
            const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
            int width = n;
            if (side * side == n && n > 1 && m_state.dims() == 2)
                width = side;
            if (width % 2 == 0 || n == 0) {
                error(line, "weights: " + std::to_string(n) +
                                " values make no mask of odd width (1D: 2r+1 values; 2D: (2r+1) x (2r+1))");
                return;
            }
            s.preset = MaskPreset::Custom;
            s.radius = (width - 1) / 2;
            s.customValues = std::move(values);
            m_state.maskLine = line;
        } else if (key == "block") {
            const auto b = integer(value);
            if (!b || *b < 1 || *b > 1024) {
                error(line, "block: expected the block edge, 1 to 1024, found '" + value + "'");
                return;
            }
            s.block = static_cast<int>(*b);
            m_state.blockLine = line;
        } else if (key == "select") {
            const auto c = coords(value);
            if (!c) {
                error(line, "select: expected the output element X (1D) or X,Y, found '" + value + "'");
                return;
            }
            m_state.select = c;
            m_state.selectLine = line;
        } else if (key == "at") {
            if (value == "end") {
                m_state.at = -1;
            } else {
                const auto a = integer(value);
                if (!a || *a < 0) {
                    error(line, "at: expected the trace step (0 or more) or `end`, found '" + value + "'");
                    return;
                }
                m_state.at = *a;
            }
        } else if (key == "panels") {
            PanelVisibility panels = PanelVisibility::none();
            for (std::string name : words(value)) {
                if (!name.empty() && name.back() == ',')
                    name.pop_back();
                std::size_t start = 0;
                while (start <= name.size()) {
                    const std::size_t end = std::min(name.find(',', start), name.size());
                    const std::string one = name.substr(start, end - start);
                    start = end + 1;
                    if (one.empty())
                        continue;
                    if (bool* flag = panels.find(one))
                        *flag = true;
                    else
                        error(line, "unknown panel '" + one + "' (the panels: " + panelNameList() + ")");
                }
            }
            m_state.panels = panels;
        } else if (key == "focus") {
            const PanelInfo* panel = findPanel(value);
            if (value == "none" || value.empty()) {
                m_state.focus.clear();
            } else if (!panel || !canFocus(*panel)) {
                error(line, "focus: unknown panel '" + value + "' (the panels: " + focusPanelNameList() + "; or none)");
                return;
            } else {
                m_state.focus = value;
                m_state.focusLine = line;
            }
        } else if (key == "caption") {
            if (!m_step.caption.empty())
                error(line, "a step has one caption (continue it on indented lines)");
            m_step.caption = value;
        } else if (key == "point") {
            pointKey(line, value);
        } else if (key == "ask") {
            askKey(line, value);
        } else if (key == "question") {
            m_questionText = value;
            m_questionTextLine = line;
        } else {
            error(line, "unknown key '" + key +
                            "' (a step knows: kernel, input, input-size, mask, radius, weights, block, select, at, "
                            "panels, focus, caption, point, ask, question)");
        }
    }

    void pointKey(int line, const std::string& value) {
        const std::vector<std::string> w = words(value);
        if (w.empty()) {
            error(line, "point: expected `cells ...` or `threads ...`");
            return;
        }
        LessonPoint point;
        if (w[0] == "cells")
            point.kind = PointKind::Cells;
        else if (w[0] == "threads")
            point.kind = PointKind::Threads;
        else {
            error(line, "point: expected `cells` or `threads` first, found '" + w[0] + "'");
            return;
        }
        for (std::size_t i = 1; i < w.size(); ++i) {
            // A range: A-B (1D) or X0,Y0-X1,Y1 (a rectangle, corners included).
            std::size_t dash = std::string::npos;
            for (std::size_t k = 1; k < w[i].size() && dash == std::string::npos; ++k)
                if (w[i][k] == '-' && std::isdigit(static_cast<unsigned char>(w[i][k - 1])))
                    dash = k;
            if (dash != std::string::npos) {
                const auto a = coords(std::string_view(w[i]).substr(0, dash));
                const auto b = coords(std::string_view(w[i]).substr(dash + 1));
                if (!a || !b || (*b)[0] < (*a)[0] || (*b)[1] < (*a)[1] ||
                    static_cast<long long>((*b)[0] - (*a)[0] + 1) * ((*b)[1] - (*a)[1] + 1) > 65536) {
                    error(line, "point: '" + w[i] + "' is not a range A-B or X0,Y0-X1,Y1 (low corner first)");
                    return;
                }
                for (int y = (*a)[1]; y <= (*b)[1]; ++y)
                    for (int x = (*a)[0]; x <= (*b)[0]; ++x)
                        point.at.push_back({x, y});
                continue;
            }
            const auto c = coords(w[i]);
            if (!c) {
                error(line, "point: '" + w[i] + "' is not X (1D), X,Y, or a range");
                return;
            }
            point.at.push_back(*c);
        }
        if (point.at.empty()) {
            error(line, "point: name at least one " + w[0].substr(0, w[0].size() - 1));
            return;
        }
        m_step.points.push_back(std::move(point));
        m_pointLines.push_back(line);
    }

    void askKey(int line, const std::string& value) {
        if (m_step.question) {
            error(line, "a step asks one question");
            return;
        }
        const std::vector<std::string> w = words(value);
        const QuestionKindInfo* info = nullptr;
        for (const QuestionKindInfo& q : kQuestions)
            if (!w.empty() && q.key == w[0])
                info = &q;
        if (!info) {
            std::string known;
            for (const QuestionKindInfo& q : kQuestions)
                known += (known.empty() ? "" : ", ") + std::string(q.key);
            error(line, "ask: unknown question '" + (w.empty() ? std::string() : w[0]) + "' (the questions: " + known +
                            ")");
            return;
        }
        LessonQuestion q;
        q.kind = info->kind;
        q.line = line;
        if (info->takesCoords) {
            const auto c = w.size() == 2 ? coords(w[1]) : std::nullopt;
            if (!c) {
                error(line, "ask: " + std::string(info->key) + " needs the coordinates: X (1D) or X,Y");
                return;
            }
            q.at = *c;
        } else if (w.size() != 1) {
            error(line, "ask: " + std::string(info->key) + " takes nothing after it");
            return;
        }
        m_step.question = q;
    }

    // The step is complete: its configuration is checked, as the app will run it.
    void finishStep() {
        if (!m_inStep)
            return;
        m_inStep = false;
        m_step.setup = m_state.setup;
        m_step.panels = m_state.panels;
        m_step.focus = m_state.focus;
        m_step.select = m_state.select;
        m_step.at = m_state.at;
        if (m_step.question) {
            m_step.question->text = m_questionText;
            if (m_step.question->text.empty()) {
                std::string prompt(questionKindInfo(m_step.question->kind).prompt);
                const std::size_t s = prompt.find("%s");
                if (s != std::string::npos)
                    prompt.replace(s, 2,
                                   m_step.question->kind == QuestionKind::OutputValue
                                       ? (m_state.dims() == 2 ? "[" + std::to_string(m_step.question->at[1]) + "][" +
                                                                    std::to_string(m_step.question->at[0]) + "]"
                                                              : "[" + std::to_string(m_step.question->at[0]) + "]")
                                       : m_state.dims() == 2 ? coordsText(m_step.question->at, 2)
                                                              : std::to_string(m_step.question->at[0]));
                m_step.question->text = prompt;
            }
        } else if (!m_questionText.empty()) {
            error(m_questionTextLine, "`question:` words a question: the step needs an `ask:` line too");
        }
        m_questionText.clear();
        if (m_step.caption.empty())
            error(m_step.line, "the step has no caption");
        check();
        if (!m_step.focus.empty()) {
            // The focused panel is shown, whatever the panels line says.
            if (bool* flag = m_step.panels.find(m_step.focus))
                *flag = true;
        }
        m_lesson.steps.push_back(std::move(m_step));
        m_step = LessonStep{};
        m_pointLines.clear();
    }

    void check() {
        const SetupState& s = m_step.setup;
        const KernelInfo* kernel = findKernel(s.kernel);
        if (!kernel)
            return;  // reported where it was named
        const int dims = kernel->dims;
        const int at = m_state.kernelLine ? m_state.kernelLine : m_step.line;
        const InputSourceInfo& input = inputSourceInfo(s.input.source);
        if (input.fixedArray && dims == 2) {
            error(std::max(at, m_state.inputLine),
                  "the input '" + std::string(input.key) + "' is one of the book's 1D arrays; " + std::string(s.kernel) +
                      " is a 2D kernel");
            return;
        }
        const MaskPresetInfo& mask = maskPresetInfo(s.preset);
        if ((dims == 1 && !mask.oneD) || (dims == 2 && !mask.twoD)) {
            error(std::max(at, m_state.maskLine), "the mask '" + std::string(mask.key) + "' has no " +
                                                      std::to_string(dims) + "D form (kernel " + s.kernel + ")");
            return;
        }
        if (s.preset == MaskPreset::Custom) {
            const std::size_t width = static_cast<std::size_t>(2 * s.radius + 1);
            if (s.customValues.size() != (dims == 2 ? width * width : width)) {
                error(std::max(at, m_state.maskLine), "the weights make a " + std::to_string(s.customValues.size()) +
                                                          "-value mask, which is no " + std::to_string(dims) +
                                                          "D mask of radius " + std::to_string(s.radius));
                return;
            }
        }
        const std::optional<InputShape> shape = predictedShape(s.input, dims);
        GpuStatus noGpu;
        noGpu.reason = "a lesson runs on the CPU unless the app's user chooses the GPU";
        const SetupCheck c = checkSetup(s, shape, noGpu, nullptr);  // a lesson runs the catalogue's kernels only
        if (!c.runnable()) {
            error(std::max({at, m_state.blockLine, m_state.maskLine, m_state.inputLine}),
                  "this step's set-up cannot run: " + c.firstProblem());
            return;
        }
        if (!shape || !c.plan)
            return;
        const int w = shape->width, h = dims == 2 ? shape->height : 1;
        const int r = c.plan->radius, ry = dims == 2 ? r : 0;
        const std::string size = dims == 2 ? std::to_string(w) + " x " + std::to_string(h)
                                           : std::to_string(w) + " elements";
        if (m_step.select) {
            const auto& sel = *m_step.select;
            if (sel[0] < 0 || sel[0] >= w || sel[1] < 0 || sel[1] >= h)
                error(m_state.selectLine ? m_state.selectLine : m_step.line,
                      "select: " + coordsText(sel, dims) + " is outside the output array (" + size + ")");
        }
        const Dim3 block = c.plan->block;
        for (std::size_t i = 0; i < m_step.points.size(); ++i) {
            const LessonPoint& p = m_step.points[i];
            const int line = m_pointLines[i];
            for (const auto& a : p.at) {
                if (p.kind == PointKind::Cells &&
                    (a[0] < -r || a[0] >= w + r || a[1] < -ry || a[1] >= h + ry)) {
                    error(line, "point: the cell " + coordsText(a, dims) + " is outside the array (" + size +
                                    ") and its ghost cells (" + std::to_string(r) + " deep)");
                    break;
                }
                if (p.kind == PointKind::Threads &&
                    (a[0] < 0 || a[0] >= static_cast<int>(block.x) || a[1] < 0 ||
                     a[1] >= static_cast<int>(std::max(block.y, 1u)))) {
                    error(line, "point: the thread " + coordsText(a, dims) + " is outside the block (" +
                                    std::to_string(block.x) + (dims == 2 ? " x " + std::to_string(block.y) : "") +
                                    " threads)");
                    break;
                }
            }
        }
        if (m_step.question) {
            const LessonQuestion& q = *m_step.question;
            const auto& a = q.at;
            if ((q.kind == QuestionKind::CellsLoaded || q.kind == QuestionKind::FirstBarrier) &&
                (a[0] < 0 || a[0] >= static_cast<int>(block.x) || a[1] < 0 ||
                 a[1] >= static_cast<int>(std::max(block.y, 1u))))
                error(q.line, "ask: the thread " + coordsText(a, dims) + " is outside the block");
            if (q.kind == QuestionKind::OutputValue && (a[0] < 0 || a[0] >= w || a[1] < 0 || a[1] >= h))
                error(q.line, "ask: the output " + coordsText(a, dims) + " is outside the output array (" + size + ")");
            if (q.kind == QuestionKind::OutputArray && (dims != 1 || w > 64))
                error(q.line, "ask: output-array is for a 1D output of 64 elements or fewer");
        }
    }

    struct State {
        SetupState setup;
        PanelVisibility panels;
        std::string focus;
        std::optional<std::array<int, 2>> select;
        long long at = 0;
        int line = 0, kernelLine = 0, inputLine = 0, maskLine = 0, blockLine = 0, selectLine = 0, focusLine = 0;
        int dims() const {
            const KernelInfo* k = findKernel(setup.kernel);
            return k ? k->dims : 2;
        }
    };

    fs::path m_file;
    Lesson m_lesson;
    std::vector<LessonError> m_errors;
    State m_state;
    LessonStep m_step;
    bool m_inStep = false;
    bool m_joinable = false;
    std::string m_questionText;
    int m_questionTextLine = 0;
    std::vector<int> m_pointLines;
};

}  // namespace

LessonRead parseLesson(std::string_view text, const fs::path& file) {
    return Parser(file).run(text);
}

LessonRead readLesson(const fs::path& file) {
    auto text = base::readFileText(file, 4 * 1024 * 1024);
    if (!text) {
        LessonRead read;
        switch (text.error().kind) {
            case base::FileError::Kind::Missing:
                read.errors.push_back({file, 0, "does not exist"});
                break;
            case base::FileError::Kind::IsDirectory:
                read.errors.push_back({file, 0, "is a folder, not a lesson file"});
                break;
            case base::FileError::Kind::TooLarge:
                read.errors.push_back({file, 0, "is over 4 MB: not a lesson file"});
                break;
            default:
                read.errors.push_back({file, 0, "cannot be read"});
        }
        return read;
    }
    const std::string& content = *text;
    if (content.find('\0') != std::string::npos) {
        LessonRead read;
        read.errors.push_back({file, 0, "is a binary file, not a lesson file"});
        return read;
    }
    return parseLesson(content, file);
}

namespace {

void addToLibrary(LessonLibrary& library, LessonRead read, const fs::path& file) {
    if (read.lesson) {
        library.lessons.push_back(std::move(*read.lesson));
    } else {
        library.refused.push_back(file);
        for (LessonError& e : read.errors)
            library.errors.push_back(std::move(e));
    }
}

}  // namespace

LessonLibrary loadLessons(const fs::path& folder) {
    LessonLibrary library;
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".lesson")
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files)
        addToLibrary(library, readLesson(f), f);
    return library;
}

LessonLibrary shippedLessons() {
    LessonLibrary library;
    for (const EmbeddedSource& file : embeddedAssets("lessons", ".lesson"))
        addToLibrary(library, parseLesson(file.text, fs::path(file.path)), fs::path(file.path));
    return library;
}

}  // namespace tilescope::ui
