#include "model/code_rows.hpp"

#include <algorithm>

namespace tilescope::ui {

namespace {

bool blank(char c) {
    return c == ' ' || c == '\t';
}
// A letter, a digit, '_' or a byte of a UTF-8 sequence: part of a word.
bool wordChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '_';
}
bool digit(char c) {
    return c >= '0' && c <= '9';
}

// The operators of two characters (longer ones are made of these pairs),
// and the comment marks.
bool operatorPair(char a, char b) {
    static constexpr std::string_view kPairs[] = {
        "->", "::", "<<", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
        "^=", "<=", ">=", "==", "!=", "&&", "||", "//", "/*", "*/", "##", ".*"};
    for (std::string_view p : kPairs)
        if (p[0] == a && p[1] == b)
            return true;
    return false;
}

enum class Inside { Code, Literal, Comment };

// What position `at` lies in: a string or character literal (after its
// opening quote, up to and with its closing one), a // comment (after its
// two slashes), or code.
Inside insideWhat(std::string_view line, std::size_t at) {
    char open = 0;
    for (std::size_t i = 0; i < at && i < line.size(); ++i) {
        const char c = line[i];
        if (open) {
            if (c == '\\')
                ++i;
            else if (c == open)
                open = 0;
            continue;
        }
        if (c == '/' && i + 1 < line.size() && line[i + 1] == '/')
            return i + 2 <= at ? Inside::Comment : Inside::Code;
        if (c == '"' || c == '\'')
            open = c;
    }
    return open ? Inside::Literal : Inside::Code;
}

}  // namespace

bool cutsToken(std::string_view line, std::size_t at) {
    if (at == 0 || at >= line.size())
        return false;
    const char a = line[at - 1], b = line[at];
    if (wordChar(a) && wordChar(b))
        return true;  // an identifier, a number, a keyword
    // threadIdx.x, 7.12, 0.5f: a dot between two words.
    if (a == '.' && wordChar(b) && at >= 2 && wordChar(line[at - 2]))
        return true;
    if (b == '.' && wordChar(a) && at + 1 < line.size() && wordChar(line[at + 1]))
        return true;
    // 1e-5: the sign of an exponent.
    if ((a == 'e' || a == 'E') && (b == '+' || b == '-') && at >= 2 && digit(line[at - 2]))
        return true;
    if ((a == '+' || a == '-') && digit(b) && at >= 2 && (line[at - 2] == 'e' || line[at - 2] == 'E') && at >= 3 &&
        digit(line[at - 3]))
        return true;
    if (operatorPair(a, b))
        return true;
    // A comment's words break as code does (its quotes open no literal).
    return insideWhat(line, at) == Inside::Literal;
}

std::vector<std::size_t> codeRowStarts(std::string_view line, float width,
                                       const std::function<float(std::string_view)>& measure, float hang) {
    std::vector<std::size_t> starts{0};
    const std::size_t n = line.size();
    // Widths from the start of the line: the font has no kerning, so a
    // piece's width is the difference of two (measured a character, or a
    // UTF-8 sequence, at a time).
    std::vector<float> x(n + 1, 0.0f);
    for (std::size_t i = 0; i < n;) {
        std::size_t end = i + 1;
        while (end < n && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80)
            ++end;
        const float w = measure(line.substr(i, end - i));
        for (std::size_t k = i + 1; k <= end; ++k)
            x[k] = x[i] + (k == end ? w : 0.0f);
        i = end;
    }
    // The width of [s, e) without its trailing blanks.
    auto rowWidth = [&](std::size_t s, std::size_t e) {
        while (e > s && blank(line[e - 1]))
            --e;
        return x[e] - x[s];
    };
    auto punct = [](char c) { return c == '.' || c == ',' || c == ';' || c == '!' || c == '?' || c == '"'; };
    std::size_t s = 0;
    // The width a row has: all of it for the first, less the hang for the others.
    auto room = [&] { return starts.size() == 1 ? width : width - hang; };
    while (rowWidth(s, n) > room()) {
        // Where the row may end: after blanks, or after a punctuation mark
        // followed by a word (where the UI's own wrapping would end it),
        // when neither cuts a token; the last one that fits.
        std::size_t best = 0, anyBoundary = 0, firstBoundary = 0;
        for (std::size_t p = s + 1; p < n; ++p) {
            if (blank(line[p]) || cutsToken(line, p))
                continue;
            const bool afterBlank = blank(line[p - 1]);
            // The first row's indentation is not a row of its own.
            if (afterBlank && rowWidth(s, p) == 0.0f)
                continue;
            if (!firstBoundary)
                firstBoundary = p;
            const bool fits = rowWidth(s, p) <= room();
            if (!fits)
                break;
            anyBoundary = p;
            if (afterBlank || (punct(line[p - 1]) && !punct(line[p]) && !digit(line[p])))
                best = p;
        }
        // Else between any two tokens; else a token wider than the row stays whole.
        const std::size_t next = best ? best : anyBoundary ? anyBoundary : firstBoundary;
        if (!next)
            break;
        starts.push_back(next);
        s = next;
    }
    return starts;
}

}  // namespace tilescope::ui
