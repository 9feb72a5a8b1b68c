// The reader of class.json (model/class_results.hpp), as the Class panel
// uses it: the fixture of tests/grade/fixtures read in full, its paths
// resolved to the kernel files they name, and what the panel shows (the
// summary, the histogram, the patterns, the rows of a pattern) held to the
// same file read here with nlohmann::json on its own; then each kind of bad
// file, answered with one message naming the file and what is wrong.
#include "model/class_results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "scratch_dir.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ui::ClassResults;

const fs::path kFixture = fs::path(TILESCOPE_SOURCE_DIR) / "tests/grade/fixtures/class.json";

json fixtureJson() {
    std::ifstream in(kFixture);
    return json::parse(in);
}

std::string fixtureText() {
    std::ifstream in(kFixture);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

TEST(ClassResults, ReadsTheFixtureWithItsPathsResolved) {
    const json doc = fixtureJson();
    auto read = ui::readClassResults(kFixture);
    ASSERT_TRUE(read) << read.error().message;
    const ClassResults& r = *read;
    EXPECT_EQ(r.assignment, doc["assignment"]["name"].get<std::string>());
    EXPECT_EQ(r.maxScore, doc["max_score"].get<double>());
    ASSERT_EQ(r.cases.size(), doc["cases"].size());
    EXPECT_EQ(r.cases[0].width, 45);
    EXPECT_EQ(r.cases[0].height, 37);
    EXPECT_EQ(r.cases[1].radius, doc["cases"][1]["radius"].get<int>());
    ASSERT_EQ(r.submissions.size(), doc["submissions"].size());
    for (std::size_t i = 0; i < r.submissions.size(); ++i) {
        const ui::ClassSubmission& s = r.submissions[i];
        const json& d = doc["submissions"][i];
        EXPECT_EQ(s.student, d["student"].get<std::string>());
        // Resolved against class.json's folder: the kernel file is there.
        EXPECT_TRUE(fs::is_regular_file(s.file)) << s.file;
        EXPECT_TRUE(fs::equivalent(s.file, kFixture.parent_path() / d["file"].get<std::string>()));
        EXPECT_EQ(s.score, d["score"].get<double>());
        EXPECT_EQ(s.firstProblem.has_value(), d.contains("first_problem"));
        if (s.firstProblem) {
            EXPECT_EQ(s.firstProblem->step, d["first_problem"]["step"].get<long long>());
            EXPECT_EQ(s.firstProblem->thread[0], d["first_problem"]["thread"][0].get<int>());
            EXPECT_EQ(s.firstProblem->line, d["first_problem"]["line"].get<unsigned>());
        }
    }
    // A folder holding class.json reads the same.
    auto folder = ui::readClassResults(kFixture.parent_path());
    ASSERT_TRUE(folder) << folder.error().message;
    EXPECT_EQ(folder->submissions.size(), r.submissions.size());
}

TEST(ClassResults, SummaryAndHistogramCountTheSubmissions) {
    const json doc = fixtureJson();
    auto read = ui::readClassResults(kFixture);
    ASSERT_TRUE(read);
    std::map<std::string, int> statuses;
    std::vector<double> scores;
    for (const json& s : doc["submissions"]) {
        ++statuses[s["status"].get<std::string>()];
        scores.push_back(s["score"].get<double>());
    }
    const ui::ClassSummary sum = ui::summarize(*read);
    EXPECT_EQ(sum.submissions, static_cast<int>(scores.size()));
    EXPECT_EQ(sum.graded, statuses["graded"]);
    EXPECT_EQ(sum.compileErrors, statuses["compile_error"]);
    EXPECT_EQ(sum.refused, statuses["refused"]);
    EXPECT_EQ(sum.failed, statuses["failed"]);
    EXPECT_GT(sum.compileErrors + sum.refused + sum.failed, 0);  // the fixture has each kind
    double total = 0;
    for (double v : scores)
        total += v;
    EXPECT_DOUBLE_EQ(sum.mean, total / static_cast<double>(scores.size()));
    std::sort(scores.begin(), scores.end());
    const std::size_t n = scores.size();
    EXPECT_DOUBLE_EQ(sum.median, n % 2 ? scores[n / 2] : (scores[n / 2 - 1] + scores[n / 2]) / 2);

    // One bar per whole score 0..8, each counting the scores equal to it.
    const auto bins = ui::scoreHistogram(*read);
    ASSERT_EQ(bins.size(), static_cast<std::size_t>(doc["max_score"].get<int>() + 1));
    int counted = 0;
    for (const ui::ScoreBin& b : bins) {
        EXPECT_EQ(b.count, static_cast<int>(std::count(scores.begin(), scores.end(), b.low))) << b.label;
        counted += b.count;
    }
    EXPECT_EQ(counted, static_cast<int>(n));

    // A score out of 100: ten bars of 10, the top one holding 100 itself.
    ClassResults wide = *read;
    wide.maxScore = 100;
    for (std::size_t i = 0; i < wide.submissions.size(); ++i)
        wide.submissions[i].score = std::min(100.0, 10.0 * static_cast<double>(i));  // 0, 10, ..., 100, 100
    const auto tenths = ui::scoreHistogram(wide);
    ASSERT_EQ(tenths.size(), 10u);
    for (std::size_t k = 0; k + 1 < tenths.size(); ++k)
        EXPECT_EQ(tenths[k].count, 1) << tenths[k].label;
    EXPECT_EQ(tenths.back().count, static_cast<int>(wide.submissions.size()) - 9);  // 90, then every 100
    EXPECT_EQ(tenths.back().label, "90-100");
}

TEST(ClassResults, PatternsMostStudentsFirstAndTheirRows) {
    const json doc = fixtureJson();
    auto read = ui::readClassResults(kFixture);
    ASSERT_TRUE(read);
    const auto rows = ui::patternsByCount(*read);
    ASSERT_EQ(rows.size(), doc["patterns"].size());
    for (std::size_t i = 1; i < rows.size(); ++i)
        EXPECT_GE(rows[i - 1].students, rows[i].students);
    const std::size_t total = doc["submissions"].size();
    const ui::PatternRow& top = rows.front();
    const json& topJson = doc["patterns"][top.pattern];
    EXPECT_EQ(top.sentence, std::to_string(topJson["students"].size()) + " of " + std::to_string(total) +
                                " submissions: " + topJson["text"].get<std::string>());
    EXPECT_EQ(ui::patternSentence(31, 120,
                                  "shared race, read at the tile's use, written at the halo load, no "
                                  "barrier between them"),
              "31 of 120 submissions: shared race, read at the tile's use, written at the halo load, no barrier "
              "between them");
    EXPECT_EQ(ui::patternSentence(1, 1, "x"), "1 of 1 submission: x");

    // The rows of each pattern: the students it names, in the file's order.
    for (const json& p : doc["patterns"]) {
        std::set<std::string> named;
        for (const json& s : p["students"])
            named.insert(s.get<std::string>());
        const auto shown = ui::rowsWithPattern(*read, p["key"].get<std::string>());
        std::set<std::string> got;
        for (std::size_t i : shown)
            got.insert(read->submissions[i].student);
        EXPECT_EQ(got, named) << p["key"];
        EXPECT_TRUE(std::is_sorted(shown.begin(), shown.end()));
    }
    EXPECT_EQ(ui::rowsWithPattern(*read, std::nullopt).size(), total);
    EXPECT_TRUE(ui::rowsWithPattern(*read, std::string("no such pattern")).empty());
}

// Each bad file: one message that names the file and what is wrong.
struct BadCase {
    const char* name;
    std::string text;
    const char* says;
};

TEST(ClassResults, BadFilesAreNamedWithWhatIsWrong) {
    ScratchDir dir("class_results_test");
    json good = fixtureJson();
    auto with = [&](auto change) {
        json doc = good;
        change(doc);
        return doc.dump();
    };
    const std::vector<BadCase> cases = {
        {"not_json", "{\"format\": \"tilescope-class\", ", "not JSON"},
        {"empty", "", "not JSON"},
        {"a_list", "[1, 2]", "not the object of a class.json"},
        {"format", with([](json& d) { d["format"] = "tilescope-results"; }), "not \"tilescope-class\""},
        {"version", with([](json& d) { d["version"] = 2; }), "version 2"},
        {"missing_submissions", with([](json& d) { d.erase("submissions"); }), "\"submissions\" is missing"},
        {"missing_student", with([](json& d) { d["submissions"][3].erase("student"); }),
         "submissions[3] has no \"student\""},
        {"score_string", with([](json& d) { d["submissions"][1]["score"] = "six"; }),
         "submissions[1].score is a string, not a number"},
        {"status", with([](json& d) { d["submissions"][0]["status"] = "passed"; }), "submissions[0].status"},
        {"passed_number", with([](json& d) { d["submissions"][0]["cases"][1]["passed"] = 1; }),
         "submissions[0].cases[1].passed is a number, not true or false"},
        {"size", with([](json& d) { d["cases"][0]["size"] = "45 by 37"; }), "cases[0].size '45 by 37'"},
        {"first_problem_case", with([](json& d) { d["submissions"][0]["first_problem"]["case"] = 7; }),
         "submissions[0].first_problem.case is 7"},
        {"thread_pair", with([](json& d) { d["submissions"][0]["first_problem"]["thread"] = json::array({1}); }),
         "submissions[0].first_problem.thread is not a pair"},
        {"students", with([](json& d) { d["patterns"][0]["students"] = "alice"; }),
         "patterns[0].students is a string, not a list"},
    };
    for (const BadCase& c : cases) {
        const fs::path file = dir.path() / (std::string(c.name) + ".json");
        write(file, c.text);
        auto read = ui::readClassResults(file);
        ASSERT_FALSE(read) << c.name;
        const std::string& message = read.error().message;
        EXPECT_EQ(read.error().code, ExitCode::BadInput);
        EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << c.name << ": " << message;
        EXPECT_NE(message.find(c.says), std::string::npos) << c.name << ": " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }

    // Too large: refused before it is read (a sparse file: no time spent writing it).
    const fs::path large = dir.path() / "large.json";
    write(large, "{}");
    fs::resize_file(large, ui::kMaxClassJsonBytes + 1);
    auto tooLarge = ui::readClassResults(large);
    ASSERT_FALSE(tooLarge);
    EXPECT_NE(tooLarge.error().message.find(large.string()), std::string::npos) << tooLarge.error().message;
    EXPECT_NE(tooLarge.error().message.find("large"), std::string::npos) << tooLarge.error().message;

    // Missing, and a folder without class.json.
    auto missing = ui::readClassResults(dir.path() / "nothing.json");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nothing.json"), std::string::npos);
    const fs::path emptyFolder = dir.path() / "results";
    fs::create_directories(emptyFolder);
    auto noClass = ui::readClassResults(emptyFolder);
    ASSERT_FALSE(noClass);
    EXPECT_NE(noClass.error().message.find("no class.json"), std::string::npos) << noClass.error().message;
}

TEST(ClassResults, EveryTruncationIsAnErrorNotACrash) {
    const std::string text = fixtureText();
    int errors = 0;
    for (std::size_t n = 0; n + 2 < text.size(); n += 41) {
        auto read = ui::parseClassResults(std::string_view(text).substr(0, n), "cut.json");
        EXPECT_FALSE(read) << n;
        errors += read ? 0 : 1;
    }
    EXPECT_GT(errors, 100);
}

}  // namespace
}  // namespace tilescope::test
