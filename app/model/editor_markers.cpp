#include "model/editor_markers.hpp"

#include <algorithm>
#include <cctype>

namespace tilescope::ui {

namespace {

bool inGroup(const ProblemReport& p, const ProblemGroup& g) {
    return p.kind == g.kind && p.order == g.order && p.array == g.array && p.part == g.part &&
           (p.first.valid() ? p.first.line : 0u) == g.firstLine &&
           (p.second.valid() ? p.second.line : 0u) == g.secondLine;
}

std::string times(std::uint64_t n) {
    return n == 1 ? "once" : std::to_string(n) + " times";
}

}  // namespace

std::string problemGroupText(const ProblemGroup& g, const Trace& trace, std::string_view arrow) {
    std::string text = problemKindName(g.kind);
    if (g.order != HazardOrder::None)
        text += std::string(" (") + hazardOrderName(g.order) + ")";
    if (g.array < kArrayCount)
        text += " on " + groupArrayName(trace, g);
    if (g.secondLine > 0 && g.secondLine != g.firstLine)
        text += ", lines " + std::to_string(g.firstLine) + " " + std::string(arrow) + " " +
                std::to_string(g.secondLine);
    else if (g.firstLine > 0)
        text += ", line " + std::to_string(g.firstLine);
    return text + ": " + times(g.count);
}

std::vector<EditorMarker> problemMarkers(const ProblemSet& set, const Trace& trace, std::string_view text) {
    std::vector<EditorMarker> markers;
    for (const ProblemGroup& g : set.groups) {
        if (g.kind == ProblemKind::WrongResult || (g.firstLine == 0 && g.secondLine == 0))
            continue;
        EditorMarker m;
        m.kind = EditorMarker::Kind::Problem;
        m.problemKind = g.kind;
        m.text = problemGroupText(g, trace);
        const auto item = std::find_if(set.items.begin(), set.items.end(),
                                       [&](const ProblemReport& p) { return inGroup(p, g); });
        if (item != set.items.end())
            m.problem = static_cast<std::size_t>(item - set.items.begin());
        const std::string array =
            g.array < kArrayCount ? groupArrayName(trace, g) : std::string();
        for (unsigned line : {g.firstLine, g.secondLine}) {
            if (line == 0 || (line == g.secondLine && g.secondLine == g.firstLine))
                continue;
            m.line = line;
            m.otherLine = line == g.firstLine ? g.secondLine : g.firstLine;
            if (m.otherLine == line)
                m.otherLine = 0;
            m.column = text.empty() ? 0 : columnOf(text, line, array);
            markers.push_back(m);
        }
    }
    return markers;
}

unsigned columnOf(std::string_view text, unsigned line, std::string_view word) {
    std::size_t start = 0;
    for (unsigned n = 1; n < line; ++n) {
        start = text.find('\n', start);
        if (start == std::string_view::npos)
            return 1;
        ++start;
    }
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
        end = text.size();
    const std::string_view body = text.substr(start, end - start);
    if (!word.empty())
        // As a whole word: N in "N_s[ty] = N[i]" is the second.
        for (std::size_t at = body.find(word); at != std::string_view::npos; at = body.find(word, at + 1)) {
            auto wordChar = [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); };
            const bool before = at > 0 && wordChar(body[at - 1]);
            const bool after = at + word.size() < body.size() && wordChar(body[at + word.size()]);
            if (!before && !after)
                return static_cast<unsigned>(at) + 1;
        }
    const std::size_t first = body.find_first_not_of(" \t");
    return first == std::string_view::npos ? 1 : static_cast<unsigned>(first) + 1;
}

}  // namespace tilescope::ui
