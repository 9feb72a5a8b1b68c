#include "model/class_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <system_error>

#include "base/read_file.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// What went wrong at a place in the file ("submissions[3].score"); thrown
// inside the reader, and turned into one message naming the file.
struct Bad {
    std::string message;
};

const char* typeName(const json& v) {
    switch (v.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "true or false";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "a list";
        case json::value_t::object:
            return "an object";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return "a number";
        default:
            return "something else";
    }
}

std::string place(const std::string& where, const char* key) {
    return where.empty() ? std::string(key) : where + "." + key;
}

const json& member(const json& object, const std::string& where, const char* key) {
    const auto it = object.find(key);
    if (it == object.end())
        throw Bad{
            (where.empty() ? std::string("the key \"") + key + "\" is missing" : where + " has no \"" + key + "\"")};
    return *it;
}

const json& typed(const json& v, const std::string& at, json::value_t type, const char* wanted) {
    const bool number = type == json::value_t::number_float;
    if (number ? !v.is_number() : v.type() != type)
        throw Bad{at + " is " + typeName(v) + ", not " + wanted};
    return v;
}

std::string getString(const json& o, const std::string& where, const char* key) {
    return typed(member(o, where, key), place(where, key), json::value_t::string, "a string").get<std::string>();
}
std::string optString(const json& o, const std::string& where, const char* key) {
    return o.contains(key) ? getString(o, where, key) : std::string();
}
double getNumber(const json& o, const std::string& where, const char* key) {
    const double v =
        typed(member(o, where, key), place(where, key), json::value_t::number_float, "a number").get<double>();
    if (!std::isfinite(v))
        throw Bad{place(where, key) + " is not a finite number"};
    return v;
}
long long getInteger(const json& o, const std::string& where, const char* key, long long low = 0) {
    const json& v = member(o, where, key);
    if (!v.is_number_integer())
        throw Bad{place(where, key) + " is " + (v.is_number() ? std::string("a fraction") : typeName(v)) +
                  ", not a whole number"};
    const long long n = v.get<long long>();
    if (n < low)
        throw Bad{place(where, key) + " is " + std::to_string(n) + ", less than " + std::to_string(low)};
    return n;
}
bool getBool(const json& o, const std::string& where, const char* key) {
    return typed(member(o, where, key), place(where, key), json::value_t::boolean, "true or false").get<bool>();
}
// The top level's place (no prefix), named: a reference the getters return
// is then never bound beside a temporary string.
const std::string kTop;

const json& getArray(const json& o, const std::string& where, const char* key) {
    return typed(member(o, where, key), place(where, key), json::value_t::array, "a list");
}
const json& getObject(const json& o, const std::string& where, const char* key) {
    return typed(member(o, where, key), place(where, key), json::value_t::object, "an object");
}
void requireObject(const json& v, const std::string& at) {
    typed(v, at, json::value_t::object, "an object");
}
// [x, y]: two whole numbers.
std::array<int, 2> getPair(const json& o, const std::string& where, const char* key) {
    const json& v = getArray(o, where, key);
    const std::string at = place(where, key);
    if (v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
        throw Bad{at + " is not a pair of whole numbers [x, y]"};
    const long long x = v[0].get<long long>(), y = v[1].get<long long>();
    if (x < 0 || y < 0 || x > (1 << 30) || y > (1 << 30))
        throw Bad{at + " is [" + std::to_string(x) + ", " + std::to_string(y) + "], outside 0 to 2^30"};
    return {static_cast<int>(x), static_cast<int>(y)};
}
std::string indexed(const char* list, std::size_t i) {
    return std::string(list) + "[" + std::to_string(i) + "]";
}

// "45x37" -> 45, 37; "1000" -> 1000, 1.
void parseSize(ClassCase& c, const std::string& at) {
    const std::string& s = c.size;
    const auto x = s.find('x');
    auto number = [&](std::string_view text) {
        if (text.empty() || text.size() > 6 ||
            !std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            throw Bad{at + ".size '" + s + "' is not N or WxH"};
        const int n = std::stoi(std::string(text));
        if (n <= 0)
            throw Bad{at + ".size '" + s + "' is not N or WxH with positive numbers"};
        return n;
    };
    if (x == std::string::npos) {
        c.width = number(s);
        c.height = 1;
    } else {
        c.width = number(std::string_view(s).substr(0, x));
        c.height = number(std::string_view(s).substr(x + 1));
    }
}

void checkSchedule(const std::string& schedule, const std::string& at) {
    if (schedule != "in-order" && schedule != "reverse" && schedule != "random")
        throw Bad{at + ".schedule is \"" + schedule + "\", not in-order, reverse or random"};
}

// A path of class.json: absolute as written, or relative to its folder.
fs::path resolved(const fs::path& folder, const fs::path& path) {
    return path.is_absolute() ? path : (folder / path).lexically_normal();
}

ClassProblem readProblem(const json& p, const std::string& at) {
    requireObject(p, at);
    ClassProblem problem;
    problem.kind = getString(p, at, "kind");
    problem.order = optString(p, at, "order");
    problem.array =
        p.contains("array") && !p["array"].is_null() ? getString(p, at, "array") : std::string();  // null: none
    problem.firstLine = static_cast<unsigned>(std::min<long long>(getInteger(p, at, "first_line"), 1 << 30));
    problem.secondLine = static_cast<unsigned>(std::min<long long>(getInteger(p, at, "second_line"), 1 << 30));
    problem.count = p.contains("count") ? getInteger(p, at, "count") : 0;
    problem.block = p.contains("block") ? getPair(p, at, "block") : std::array<int, 2>{};
    problem.thread = p.contains("thread") ? getPair(p, at, "thread") : std::array<int, 2>{};
    problem.line =
        p.contains("line") ? static_cast<unsigned>(std::min<long long>(getInteger(p, at, "line"), 1 << 30)) : 0;
    problem.step = p.contains("step") ? getInteger(p, at, "step") : 0;
    problem.schedule = optString(p, at, "schedule");
    if (!problem.schedule.empty())
        checkSchedule(problem.schedule, at);
    problem.pattern = optString(p, at, "pattern");
    return problem;
}

SubmissionStatus readStatus(const json& s, const std::string& at) {
    const std::string status = getString(s, at, "status");
    if (status == "graded")
        return SubmissionStatus::Graded;
    if (status == "compile_error")
        return SubmissionStatus::CompileError;
    if (status == "refused")
        return SubmissionStatus::Refused;
    if (status == "failed")
        return SubmissionStatus::Failed;
    throw Bad{at + ".status is \"" + status + "\", not graded, compile_error, refused or failed"};
}

ClassResults readTop(const json& root, const fs::path& file) {
    if (!root.is_object())
        throw Bad{"it holds " + std::string(typeName(root)) + ", not the object of a class.json"};
    const json& format = member(root, kTop, "format");
    if (!format.is_string() || format.get<std::string>() != "tilescope-class")
        throw Bad{"its format is " + (format.is_string() ? "\"" + format.get<std::string>() + "\"" : typeName(format)) +
                  ", not \"tilescope-class\" (is it the class.json of `tilescope grade`?)"};
    const long long version = getInteger(root, kTop, "version");
    if (version != 1)
        throw Bad{"it is of version " + std::to_string(version) +
                  ", and this TileScope reads version 1 (a newer TileScope wrote it?)"};

    ClassResults r;
    r.file = file;
    r.folder = file.parent_path();
    if (r.folder.empty())
        r.folder = ".";
    const json& assignment = getObject(root, kTop, "assignment");
    r.assignment = getString(assignment, "assignment", "name");
    r.dims = static_cast<int>(getInteger(assignment, "assignment", "dims", 1));
    if (r.dims > 2)
        throw Bad{"assignment.dims is " + std::to_string(r.dims) + ", not 1 or 2"};
    r.gradedAt = optString(root, kTop, "graded_at");
    r.tilescopeVersion = optString(root, kTop, "tilescope");
    r.maxScore = getNumber(root, kTop, "max_score");

    const json& cases = getArray(root, kTop, "cases");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string at = indexed("cases", i);
        requireObject(cases[i], at);
        ClassCase c;
        c.name = getString(cases[i], at, "name");
        c.size = getString(cases[i], at, "size");
        parseSize(c, at);
        c.radius = static_cast<int>(std::min<long long>(getInteger(cases[i], at, "radius"), 1 << 20));
        c.points = getNumber(cases[i], at, "points");
        if (cases[i].contains("input"))
            c.input = resolved(r.folder, getString(cases[i], at, "input"));
        if (cases[i].contains("mask"))
            c.mask = resolved(r.folder, getString(cases[i], at, "mask"));
        if (cases[i].contains("seed"))
            c.seed = static_cast<unsigned>(std::min<long long>(getInteger(cases[i], at, "seed"), 0xffffffffLL));
        if (cases[i].contains("block"))
            c.block = static_cast<int>(std::min<long long>(getInteger(cases[i], at, "block"), 1024));
        r.cases.push_back(std::move(c));
    }

    const json& submissions = getArray(root, kTop, "submissions");
    for (std::size_t i = 0; i < submissions.size(); ++i) {
        const std::string at = indexed("submissions", i);
        const json& s = submissions[i];
        requireObject(s, at);
        ClassSubmission sub;
        sub.student = getString(s, at, "student");
        const fs::path path = getString(s, at, "file");
        sub.file = resolved(r.folder, path);
        sub.status = readStatus(s, at);
        sub.score = getNumber(s, at, "score");
        sub.maxScore = s.contains("max_score") ? getNumber(s, at, "max_score") : r.maxScore;
        sub.message = optString(s, at, "message");
        const json& subCases = getArray(s, at, "cases");
        for (std::size_t k = 0; k < subCases.size(); ++k) {
            const std::string cat = at + "." + indexed("cases", k);
            const json& c = subCases[k];
            requireObject(c, cat);
            ClassCaseResult cr;
            cr.name = getString(c, cat, "name");
            cr.passed = getBool(c, cat, "passed");
            cr.score = getNumber(c, cat, "score");
            cr.points = getNumber(c, cat, "points");
            cr.explanation = optString(c, cat, "explanation");
            if (c.contains("problems")) {
                const json& problems = getArray(c, cat, "problems");
                for (std::size_t p = 0; p < problems.size(); ++p)
                    cr.problems.push_back(readProblem(problems[p], cat + "." + indexed("problems", p)));
            }
            sub.cases.push_back(std::move(cr));
        }
        if (s.contains("first_problem") && !s["first_problem"].is_null()) {
            const std::string fat = at + ".first_problem";
            const json& f = getObject(s, at, "first_problem");
            FirstProblem fp;
            fp.caseIndex = static_cast<std::size_t>(getInteger(f, fat, "case"));
            if (fp.caseIndex >= r.cases.size())
                throw Bad{fat + ".case is " + std::to_string(fp.caseIndex) + ", and there are " +
                          std::to_string(r.cases.size()) + " cases"};
            fp.line = static_cast<unsigned>(std::min<long long>(getInteger(f, fat, "line"), 1 << 30));
            fp.block = getPair(f, fat, "block");
            fp.thread = getPair(f, fat, "thread");
            fp.step = getInteger(f, fat, "step");
            if (f.contains("schedule")) {
                fp.schedule = getString(f, fat, "schedule");
                checkSchedule(fp.schedule, fat);
            }
            sub.firstProblem = fp;
        }
        r.submissions.push_back(std::move(sub));
    }

    const json& patterns = getArray(root, kTop, "patterns");
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        const std::string at = indexed("patterns", i);
        const json& p = patterns[i];
        requireObject(p, at);
        ClassPattern pattern;
        pattern.key = getString(p, at, "key");
        pattern.kind = getString(p, at, "kind");
        pattern.text = getString(p, at, "text");
        const json& students = getArray(p, at, "students");
        for (std::size_t k = 0; k < students.size(); ++k)
            pattern.students.push_back(
                typed(students[k], at + "." + indexed("students", k), json::value_t::string, "a string")
                    .get<std::string>());
        r.patterns.push_back(std::move(pattern));
    }
    return r;
}

}  // namespace

const char* statusLabel(SubmissionStatus status) {
    switch (status) {
        case SubmissionStatus::Graded:
            return "graded";
        case SubmissionStatus::CompileError:
            return "compile error";
        case SubmissionStatus::Refused:
            return "refused";
        case SubmissionStatus::Failed:
            return "failed";
    }
    return "";
}

bool ClassSubmission::hasPattern(std::string_view key) const {
    for (const ClassCaseResult& c : cases)
        for (const ClassProblem& p : c.problems)
            if (p.pattern == key)
                return true;
    return false;
}

Result<ClassResults> parseClassResults(std::string_view text, const fs::path& file) {
    const std::string name = file.string();
    json root = json::parse(text, nullptr, false);
    if (root.is_discarded())
        return badInput(name + ": not JSON (a class.json is the JSON `tilescope grade` writes)");
    try {
        return readTop(root, file);
    } catch (const Bad& bad) {
        return badInput(name + ": " + bad.message);
    } catch (const json::exception& e) {
        return badInput(name + ": " + e.what());
    }
}

Result<ClassResults> readClassResults(const fs::path& fileOrFolder) {
    std::error_code error;
    fs::path file = fileOrFolder;
    if (fs::is_directory(fileOrFolder, error)) {
        file = fileOrFolder / "class.json";
        if (!fs::exists(file, error))
            return badInput(fileOrFolder.string() +
                            ": no class.json in this folder (`tilescope grade --out FOLDER` writes one)");
    }
    auto text = base::readFileText(file, kMaxClassJsonBytes);
    if (!text)
        return badInput(text.error().message());
    return parseClassResults(*text, file);
}

// [SECTION] What the panel shows

ClassSummary summarize(const ClassResults& results) {
    ClassSummary s;
    std::vector<double> scores;
    for (const ClassSubmission& sub : results.submissions) {
        ++s.submissions;
        switch (sub.status) {
            case SubmissionStatus::Graded:
                ++s.graded;
                break;
            case SubmissionStatus::CompileError:
                ++s.compileErrors;
                break;
            case SubmissionStatus::Refused:
                ++s.refused;
                break;
            case SubmissionStatus::Failed:
                ++s.failed;
                break;
        }
        const bool clean = sub.status == SubmissionStatus::Graded &&
                           std::all_of(sub.cases.begin(), sub.cases.end(), [](const auto& c) { return c.passed; });
        s.clean += clean ? 1 : 0;
        scores.push_back(sub.score);
    }
    if (!scores.empty()) {
        s.mean = std::accumulate(scores.begin(), scores.end(), 0.0) / static_cast<double>(scores.size());
        std::sort(scores.begin(), scores.end());
        const std::size_t n = scores.size();
        s.median = n % 2 ? scores[n / 2] : (scores[n / 2 - 1] + scores[n / 2]) / 2.0;
    }
    return s;
}

namespace {
std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}
}  // namespace

std::vector<ScoreBin> scoreHistogram(const ClassResults& results) {
    double max = results.maxScore;
    for (const ClassSubmission& sub : results.submissions)
        max = std::max(max, sub.score);
    std::vector<ScoreBin> bins;
    const bool whole = max <= 20 && max == std::floor(max);
    if (whole) {
        for (int v = 0; v <= static_cast<int>(max); ++v)
            bins.push_back({static_cast<double>(v), v + 1.0, 0, std::to_string(v)});
    } else {
        const double width = max > 0 ? max / 10.0 : 1.0;
        for (int i = 0; i < 10; ++i)
            bins.push_back({i * width, (i + 1) * width, 0, number(i * width) + "-" + number((i + 1) * width)});
    }
    for (const ClassSubmission& sub : results.submissions) {
        const double v = std::max(sub.score, 0.0);
        std::size_t i = 0;
        while (i + 1 < bins.size() && v >= bins[i].high)
            ++i;
        ++bins[i].count;
    }
    return bins;
}

std::string patternSentence(int students, int submissions, const std::string& text) {
    return std::to_string(students) + " of " + std::to_string(submissions) +
           (submissions == 1 ? " submission: " : " submissions: ") + text;
}

std::vector<PatternRow> patternsByCount(const ClassResults& results) {
    std::vector<PatternRow> rows;
    const int total = static_cast<int>(results.submissions.size());
    for (std::size_t i = 0; i < results.patterns.size(); ++i) {
        const ClassPattern& p = results.patterns[i];
        // A student named twice counts once.
        std::vector<std::string> students = p.students;
        std::sort(students.begin(), students.end());
        students.erase(std::unique(students.begin(), students.end()), students.end());
        const int n = static_cast<int>(students.size());
        rows.push_back({i, n, patternSentence(n, total, p.text)});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const PatternRow& a, const PatternRow& b) { return a.students > b.students; });
    return rows;
}

std::vector<std::size_t> rowsWithPattern(const ClassResults& results, const std::optional<std::string>& key) {
    std::vector<std::size_t> rows;
    const ClassPattern* pattern = nullptr;
    if (key)
        for (const ClassPattern& p : results.patterns)
            if (p.key == *key)
                pattern = &p;
    for (std::size_t i = 0; i < results.submissions.size(); ++i) {
        const ClassSubmission& sub = results.submissions[i];
        bool shown = !key;
        if (key) {
            shown = sub.hasPattern(*key);
            if (pattern && !shown)
                shown = std::find(pattern->students.begin(), pattern->students.end(), sub.student) !=
                        pattern->students.end();
        }
        if (shown)
            rows.push_back(i);
    }
    return rows;
}

}  // namespace tilescope::ui
