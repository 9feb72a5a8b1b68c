#include "grade/reports.hpp"

#include <algorithm>
#include <ctime>
#include <map>

#include "io/csv_field.hpp"
#include "io/npy.hpp"
#include "io/whole_file.hpp"

namespace tilescope::grade {

namespace fs = std::filesystem;

namespace {

// class.json's paths: relative to its folder where the file lies under the
// results folder's parent (the tree a teacher moves or publishes together:
// course/results/class.json and course/submissions/alice.cu), else absolute.
std::string pathFrom(const fs::path& file, const fs::path& outFolder) {
    if (file.empty())
        return "";
    std::error_code ec;
    const fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
    const fs::path out = fs::weakly_canonical(fs::absolute(outFolder, ec), ec);
    const fs::path top = out.parent_path();
    auto [a, b] = std::mismatch(top.begin(), top.end(), abs.begin(), abs.end());
    if (a == top.end() && top != top.root_path())
        return abs.lexically_relative(out).generic_string();
    return abs.generic_string();
}

// A mask as a text file of rows (io::readMask's plain format): every weight
// with the digits that give back the same float.
std::string maskText(const Case& c, std::size_t index) {
    std::string s = "# case " + std::to_string(index + 1) + " (" + c.name + "): " + c.maskText + "\n";
    char v[32];
    for (int y = 0; y < c.mask.height; ++y) {
        for (int x = 0; x < c.mask.width; ++x) {
            std::snprintf(v, sizeof v, "%.9g", static_cast<double>(c.mask.at(x, y)));
            s += (x ? " " : "") + std::string(v);
        }
        s += "\n";
    }
    return s;
}

// check's options for the warp order a problem was found under.
std::string scheduleArgs(const std::string& schedule, unsigned seed) {
    if (schedule == "reverse")
        return " --schedule reverse";
    if (schedule == "random")
        return " --schedule random --seed " + std::to_string(seed);
    return "";
}

Json problemJson(const CaseProblem& p) {
    Json j{{"kind", p.kind},
           {"order", p.order},
           {"array", p.array.empty() ? Json(nullptr) : Json(p.array)},
           {"first_line", p.firstLine},
           {"second_line", p.secondLine},
           {"count", p.count}};
    if (p.located) {
        j["block"] = {p.block[0], p.block[1]};
        j["thread"] = {p.thread[0], p.thread[1]};
        j["line"] = p.line;
        j["step"] = p.step;
        j["schedule"] = p.schedule;
    }
    j["pattern"] = p.pattern;
    return j;
}

}  // namespace

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char s[32];
    std::strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return s;
}

std::string jsonText(const Json& j) {
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                if (c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
                    break;
                out += ch;
        }
    }
    return out;
}

std::string caseInputFile(std::size_t index) {
    return "cases/" + std::to_string(index + 1) + "-input.npy";
}
std::string caseMaskFile(std::size_t index) {
    return "cases/" + std::to_string(index + 1) + "-mask.txt";
}

// The command that runs case `index` of the spec again, as the student has
// their file: on the case's own files (cases/ of the results folder), or,
// without them, on an input of the case's size and a mask of its radius.
static std::string reproduceCommand(const Spec& spec, const SubmissionResult& r, std::size_t index, bool withFiles) {
    const Case& c = spec.cases[index];
    std::string file =
        r.submission.file.empty() ? r.submission.source.filename().string() : r.submission.file.filename().string();
    if (file.empty() || file.find_first_of(" '\"$`\\") != std::string::npos)
        file = "yours.cu";
    std::string s = "tilescope check --kernel-file " + file;
    if (withFiles)
        s += " --input " + caseInputFile(index) + " --mask " + caseMaskFile(index);
    else
        s += " --size " + c.size + " --radius " + std::to_string(c.radius);
    if (c.block > 0)
        s += " --block " + std::to_string(c.block);
    // The warp order of the problem the explanation names first.
    if (index < r.cases.size() && r.cases[index].first)
        s += scheduleArgs(r.cases[index].first->schedule, spec.seed);
    return s;
}

// A case's explanation as a student reads it on a grading service. A failed
// case ends with the command that runs it again at home, on the case's own
// input and mask (the same for every student: cases/ of the results folder,
// which the teacher can publish), and, without them, on an input of its size
// and a mask of its radius: other values, but a race or an access outside
// the array at the same block, thread and step (a kernel's control flow does
// not depend on the values it convolves).
static std::string caseOutput(const SubmissionResult& r, const Spec& spec, std::size_t i) {
    const CaseResult& c = r.cases[i];
    std::string output = c.explanation;
    if (!c.passed && (r.status == "graded" || r.status == "failed") && i < spec.cases.size()) {
        if (!output.empty() && output.back() != '\n')
            output += "\n";
        output +=
            "Run this case yourself, on its input and mask (cases/ of the class's results, which your "
            "teacher can publish):\n  " +
            reproduceCommand(spec, r, i, true) +
            "\nor, without them, on an input of the same size and a mask of the same radius:\n  " +
            reproduceCommand(spec, r, i, false);
    }
    return output;
}

// The submission's one-line summary: its score and why, or why it was not run.
static std::string summaryText(const SubmissionResult& r) {
    return r.status == "graded"
               ? "Score " + std::to_string(r.score) + " of " + std::to_string(r.maxScore) + ": " + r.reason
               : r.message;
}

Json gradescopeJson(const SubmissionResult& r, const Spec& spec) {
    Json tests = Json::array();
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        const CaseResult& c = r.cases[i];
        tests.push_back({{"name", c.name},
                         {"score", c.score},
                         {"max_score", c.points},
                         {"status", c.passed ? "passed" : "failed"},
                         {"output", caseOutput(r, spec, i)},
                         {"visibility", "visible"}});
    }
    return Json{{"score", r.score},
                {"output", summaryText(r)},
                {"execution_time", static_cast<int>(r.seconds + 0.5)},
                {"visibility", "visible"},
                {"stdout_visibility", "hidden"},
                {"tests", std::move(tests)}};
}

Json prairielearnJson(const SubmissionResult& r, const Spec& spec) {
    // A file that was refused or does not compile is, in PrairieLearn's
    // terms, input that cannot be graded: the student keeps the attempt and
    // reads why in format_errors. A kernel that compiled but crashed on
    // every case was graded, and scores 0.
    const bool gradable = r.status == "graded" || r.status == "failed";
    Json tests = Json::array();
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        const CaseResult& c = r.cases[i];
        const std::string first = c.explanation.substr(0, c.explanation.find('\n'));
        std::string description;
        if (i < spec.cases.size()) {
            const Case& k = spec.cases[i];
            description = "input " + k.size + ", mask of radius " + std::to_string(k.radius) +
                          (k.maskFile.empty() ? " (generated)" : " (" + k.maskFile + ")");
        }
        tests.push_back({{"name", c.name},
                         {"description", description},
                         {"points", c.score},
                         {"max_points", c.points},
                         {"message", c.passed ? "passed" : first},
                         {"output", caseOutput(r, spec, i)}});
    }
    const double score = r.maxScore > 0 ? static_cast<double>(r.score) / static_cast<double>(r.maxScore) : 0.0;
    Json j{{"gradable", gradable}, {"score", gradable ? score : 0.0}, {"message", summaryText(r)}};
    if (!gradable)
        j["format_errors"] = Json::array({r.message});
    j["tests"] = std::move(tests);
    return j;
}

std::string junitXml(const ClassRun& run) {
    const Spec& spec = *run.spec;
    int tests = 0, failures = 0;
    for (const SubmissionResult& r : run.results)
        for (const CaseResult& c : r.cases) {
            ++tests;
            failures += !c.passed;
        }
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"" + xmlEscape(spec.name) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\">\n";
    for (const SubmissionResult& r : run.results) {
        int f = 0;
        for (const CaseResult& c : r.cases)
            f += !c.passed;
        char time[32];
        std::snprintf(time, sizeof time, "%.3f", r.seconds);
        x += "  <testsuite name=\"" + xmlEscape(r.submission.student) + "\" tests=\"" + std::to_string(r.cases.size()) +
             "\" failures=\"" + std::to_string(f) + "\" errors=\"0\" time=\"" + time + "\">\n";
        x += "    <properties>\n";
        x += "      <property name=\"score\" value=\"" + std::to_string(r.score) + "\"/>\n";
        x += "      <property name=\"max_score\" value=\"" + std::to_string(r.maxScore) + "\"/>\n";
        x += "      <property name=\"status\" value=\"" + xmlEscape(r.status) + "\"/>\n";
        x += "    </properties>\n";
        for (const CaseResult& c : r.cases) {
            x += "    <testcase classname=\"" + xmlEscape(spec.name + "." + r.submission.student) + "\" name=\"" +
                 xmlEscape(c.name) + "\"";
            if (c.passed) {
                x += "/>\n";
                continue;
            }
            const std::string first = c.explanation.substr(0, c.explanation.find('\n'));
            x += ">\n      <failure message=\"" + xmlEscape(first) + "\" type=\"" +
                 xmlEscape(r.status == "graded" ? "failed" : r.status) + "\">" + xmlEscape(c.explanation) +
                 "</failure>\n    </testcase>\n";
        }
        x += "  </testsuite>\n";
    }
    x += "</testsuites>\n";
    return x;
}

std::string classCsv(const ClassRun& run) {
    const Spec& spec = *run.spec;
    std::string s = "student";
    for (const Case& c : spec.cases)
        s += "," + io::csvField(c.name);
    s += ",score,max_score,status,message\r\n";
    for (const SubmissionResult& r : run.results) {
        s += io::csvField(r.submission.student);
        for (const CaseResult& c : r.cases)
            s += "," + std::to_string(c.score);
        s += "," + std::to_string(r.score) + "," + std::to_string(r.maxScore) + "," + io::csvField(r.status) + "," +
             io::csvField(r.status == "graded" ? r.reason : r.message) + "\r\n";
    }
    return s;
}

Json classJson(const ClassRun& run, const fs::path& outFolder) {
    const Spec& spec = *run.spec;
    Json cases = Json::array();
    for (const Case& c : spec.cases) {
        Json require{{"no_races", c.require.noRaces},
                     {"no_out_of_bounds", c.require.noOutOfBounds},
                     {"no_uninitialised_reads", c.require.noUninitialisedReads},
                     {"tiled", c.require.tiled}};
        if (c.require.maxTimeRatio)
            require["max_time_ratio"] = *c.require.maxTimeRatio;
        const std::size_t i = cases.size();
        cases.push_back({{"name", c.name},
                         {"size", c.size},
                         {"radius", c.radius},
                         {"points", c.points},
                         {"input", caseInputFile(i)},
                         {"mask", caseMaskFile(i)},
                         {"mask_source", c.maskFile.empty() ? Json("generated") : Json(c.maskFile)},
                         {"seed", spec.seed},
                         {"block", c.block},
                         {"require", require}});
    }
    // Patterns: each once, with its students, most students first.
    std::map<std::string, std::pair<std::string, std::vector<std::string>>> patterns;
    Json submissions = Json::array();
    for (const SubmissionResult& r : run.results) {
        Json caseList = Json::array();
        for (const CaseResult& c : r.cases) {
            Json problems = Json::array();
            for (const CaseProblem& p : c.problems) {
                problems.push_back(problemJson(p));
                auto& [kind, students] = patterns[p.pattern];
                kind = p.kind;
                if (std::find(students.begin(), students.end(), r.submission.student) == students.end())
                    students.push_back(r.submission.student);
            }
            caseList.push_back({{"name", c.name},
                                {"passed", c.passed},
                                {"score", c.score},
                                {"points", c.points},
                                {"explanation", c.explanation},
                                {"problems", std::move(problems)}});
        }
        Json s{{"student", r.submission.student},
               {"file", pathFrom(r.submission.file.empty() ? r.submission.source : r.submission.file, outFolder)},
               {"status", r.status},
               {"score", r.score},
               {"max_score", r.maxScore},
               {"message", r.message},
               {"cases", std::move(caseList)}};
        if (r.firstProblem) {
            const auto& f = *r.firstProblem;
            s["first_problem"] = {{"case", f.caseIndex},
                                  {"line", f.line},
                                  {"block", {f.block[0], f.block[1]}},
                                  {"thread", {f.thread[0], f.thread[1]}},
                                  {"step", f.step},
                                  {"schedule", f.schedule}};
        }
        submissions.push_back(std::move(s));
    }
    std::vector<std::pair<std::string, std::pair<std::string, std::vector<std::string>>>> sorted(patterns.begin(),
                                                                                                 patterns.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.second.size() > b.second.second.size(); });
    Json patternList = Json::array();
    for (const auto& [key, value] : sorted)
        patternList.push_back(
            {{"key", key}, {"kind", value.first}, {"text", patternText(key)}, {"students", value.second}});
    return Json{{"format", "tilescope-class"},
                {"version", 1},
                {"assignment", {{"name", spec.name}, {"dims", spec.dims}, {"spec", pathFrom(spec.path, outFolder)}}},
                {"graded_at", run.gradedAt},
                {"tilescope", TILESCOPE_VERSION_STRING},
                {"sandbox", run.sandbox},
                {"max_score", spec.maxScore()},
                {"cases", std::move(cases)},
                {"submissions", std::move(submissions)},
                {"patterns", std::move(patternList)}};
}

Status writeReports(const ClassRun& run, const fs::path& outFolder) {
    std::error_code ec;
    fs::create_directories(outFolder, ec);
    if (ec)
        return badInput(outFolder.string() + ": cannot make the results folder: " + ec.message());
    // Each case's input and mask, as check's --input and --mask read them.
    const Spec& spec = *run.spec;
    fs::create_directories(outFolder / "cases", ec);
    if (ec)
        return badInput((outFolder / "cases").string() + ": cannot make the folder: " + ec.message());
    for (std::size_t i = 0; i < spec.cases.size(); ++i) {
        if (Status s = io::writeNpy(outFolder / caseInputFile(i), spec.cases[i].input); !s)
            return s;
        if (Status s = io::writeFileAtomic(outFolder / caseMaskFile(i), maskText(spec.cases[i], i)); !s)
            return s;
    }
    for (const SubmissionResult& r : run.results) {
        const fs::path folder = outFolder / r.submission.folder;
        fs::create_directories(folder, ec);
        if (ec)
            return badInput(folder.string() + ": cannot make the folder: " + ec.message());
        if (Status s = io::writeFileAtomic(folder / "results.json", jsonText(gradescopeJson(r, spec))); !s)
            return s;
    }
    if (Status s = io::writeFileAtomic(outFolder / "junit.xml", junitXml(run)); !s)
        return s;
    if (Status s = io::writeFileAtomic(outFolder / "class.csv", classCsv(run)); !s)
        return s;
    return io::writeFileAtomic(outFolder / "class.json", jsonText(classJson(run, outFolder)));
}

}  // namespace tilescope::grade
