#include "io/mask_file.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "core/charconv.hpp"
#include "io/file_checks.hpp"
#include "io/npy.hpp"
#include "io/whole_file.hpp"

namespace tilescope::io {

namespace fs = std::filesystem;

namespace {

// A mask file is typed by hand or printed by a script: a few kilobytes.
constexpr std::size_t kMaxMaskFileBytes = std::size_t{64} << 20;
constexpr std::string_view kSpaces = " \t\r\v\f";

struct Line {
    std::size_t number;  // from 1, counting the ignored lines too, as an editor does
    std::string_view text;
};

// The lines that hold data: blank lines and '#' comment lines left out.
std::vector<Line> contentLines(std::string_view text) {
    std::vector<Line> lines;
    std::size_t start = 0;
    for (std::size_t number = 1;; ++number) {
        const std::size_t newline = text.find('\n', start);
        const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
        const std::string_view line = text.substr(start, end - start);
        const std::size_t first = line.find_first_not_of(kSpaces);
        if (first != std::string_view::npos && line[first] != '#') lines.push_back({number, line});
        if (newline == std::string_view::npos) return lines;
        start = newline + 1;
    }
}

std::string_view trim(std::string_view text) {
    const std::size_t first = text.find_first_not_of(kSpaces);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(kSpaces) - first + 1);
}

// Fields separated by commas (CSV, each trimmed, empty fields kept so that
// they are reported) or by runs of whitespace.
std::vector<std::string_view> splitFields(std::string_view line, bool commas) {
    std::vector<std::string_view> fields;
    if (commas) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            fields.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                     : comma - start)));
            if (comma == std::string_view::npos) return fields;
            start = comma + 1;
        }
    }
    std::size_t pos = line.find_first_not_of(kSpaces);
    while (pos != std::string_view::npos) {
        const std::size_t end = line.find_first_of(kSpaces, pos);
        fields.push_back(line.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        pos = line.find_first_not_of(kSpaces, end);
    }
    return fields;
}

Error lineError(const fs::path& path, const Line& line, const std::string& problem) {
    return fileError(path, "line " + std::to_string(line.number) + ": " + problem);
}

// from_chars (core/charconv.hpp) rather than strtod: no locale (a German locale would read "0,5"),
// and it reports exactly how much of the text it used.
Result<float> parseValue(const fs::path& path, const Line& line, std::string_view field) {
    if (field.empty()) return lineError(path, line, "has an empty field");
    std::string_view digits = field;
    if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
    double value = 0;
    std::size_t used = 0;
    const std::errc error = parseDouble(digits, value, used);
    if (used != digits.size() || (error != std::errc() && error != std::errc::result_out_of_range))
        return lineError(path, line, quoteUntrusted(field) + " is not a number");
    if (error == std::errc::result_out_of_range || (std::isfinite(value) && std::fabs(value) > FLT_MAX))
        return lineError(path, line, quoteUntrusted(field) + " is outside the float32 range");
    if (!std::isfinite(value)) return lineError(path, line, quoteUntrusted(field) + " is not a finite number");
    return static_cast<float>(value);
}

// A positive integer written in full, for the "rows cols" headers.
bool parseCount(std::string_view field, std::size_t& out) {
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), out);
    return error == std::errc() && end == field.data() + field.size() && !field.empty();
}

Result<Mask> makeMask(const fs::path& path, std::size_t width, std::size_t height, std::vector<float> values) {
    const std::size_t dims[] = {height, width};
    if (auto shapeOk = checkShape(path, dims); !shapeOk) return shapeOk.error();
    if (height == 1) return Mask::row(std::move(values));
    Mask mask;
    mask.width = static_cast<int>(width);
    mask.height = static_cast<int>(height);
    mask.values = std::move(values);
    return mask;
}

// .raw: "rows cols", then exactly rows * cols values in any line layout.
Result<Mask> parseRaw(const fs::path& path, const std::vector<Line>& lines) {
    const std::vector<std::string_view> header = splitFields(lines[0].text, false);
    std::size_t rows = 0, cols = 0;
    if (header.size() != 2 || !parseCount(header[0], rows) || !parseCount(header[1], cols))
        return lineError(path, lines[0], "expected the header 'rows cols'");
    const std::size_t dims[] = {rows, cols};
    if (auto shapeOk = checkShape(path, dims); !shapeOk) return shapeOk.error();
    const std::size_t expected = rows * cols;

    std::vector<float> values;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        for (std::string_view field : splitFields(lines[i].text, false)) {
            if (values.size() == expected)
                return lineError(path, lines[i], "holds more values than the header's " + std::to_string(rows) + " x " +
                                                     std::to_string(cols));
            auto value = parseValue(path, lines[i], field);
            if (!value) return value.error();
            values.push_back(*value);
        }
    }
    if (values.size() != expected)
        return fileError(path, "holds " + std::to_string(values.size()) + " values, its header " +
                                   std::to_string(rows) + " x " + std::to_string(cols) + " promises " +
                                   std::to_string(expected));
    return makeMask(path, cols, rows, std::move(values));
}

// CSV and whitespace text: one mask row per line.
Result<Mask> parseRows(const fs::path& path, const std::vector<Line>& lines, bool commas) {
    std::vector<std::vector<std::string_view>> rows;
    rows.reserve(lines.size());
    for (const Line& line : lines) rows.push_back(splitFields(line.text, commas));

    // A first CSV line of two integers is the optional "rows,cols" header
    // unless the whole file reads as a consistent two-column mask without it
    // and does not match it: then it is the mask's first row.
    std::size_t first = 0, headerRows = 0, headerCols = 0;
    if (commas && rows.size() > 1 && rows[0].size() == 2 && parseCount(rows[0][0], headerRows) &&
        parseCount(rows[0][1], headerCols)) {
        bool matches = headerRows == rows.size() - 1, twoColumns = true;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            matches = matches && rows[i].size() == headerCols;
            twoColumns = twoColumns && rows[i].size() == 2;
        }
        if (matches || !twoColumns) first = 1;
    }
    const std::string header = first ? "the header on line " + std::to_string(lines[0].number) + " says " : "";

    const std::size_t width = first ? headerCols : rows[0].size();
    std::vector<float> values;
    for (std::size_t i = first; i < rows.size(); ++i) {
        if (rows[i].size() != width)
            return lineError(path, lines[i],
                             "has " + std::to_string(rows[i].size()) + " values, " +
                                 (first ? header : "line " + std::to_string(lines[0].number) + " has ") +
                                 std::to_string(width) + " (every row needs the same count)");
        for (std::string_view field : rows[i]) {
            auto value = parseValue(path, lines[i], field);
            if (!value) return value.error();
            values.push_back(*value);
        }
    }
    if (first && rows.size() - 1 != headerRows)
        return fileError(path, "holds " + std::to_string(rows.size() - 1) + " rows, " + header +
                                   std::to_string(headerRows));
    return makeMask(path, width, rows.size() - first, std::move(values));
}

}  // namespace

Result<Mask> readMask(const fs::path& path) {
    try {
        const std::string ext = lowerExtension(path);
        if (ext == ".npy") return readNpyMask(path);

        auto file = readFileBytes(path, kMaxMaskFileBytes);
        if (!file) return file.error();
        const std::string_view text(reinterpret_cast<const char*>(file->data()), file->size());
        const std::vector<Line> lines = contentLines(text);
        if (lines.empty()) return fileError(path, "holds no mask values (the mask is empty)");
        if (ext == ".raw") return parseRaw(path, lines);
        return parseRows(path, lines, ext == ".csv");
    } catch (const std::exception& e) {
        return fileError(path, std::string("cannot be read (") + e.what() + ")");
    }
}

}  // namespace tilescope::io
