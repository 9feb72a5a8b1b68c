// The Class panel, drawn by the real binary (tilescope screenshot --class):
// the score histogram, the patterns and the rows of the fixture class laid
// out without overlap or clipped text, their words held to the fixture read
// here on its own; a row opened (--class-open, as a click) lands on the
// student's file, its case and its first problem's step; and bad input
// answered with one message and exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "app_driver.hpp"
#include "io/mask_file.hpp"
#include "io/npy.hpp"

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kFixture = fs::path(TILESCOPE_SOURCE_DIR) / "tests/grade/fixtures/class.json";

json fixture() {
    std::ifstream in(kFixture);
    return json::parse(in);
}

bool inside(const ShotRect& inner, const ShotRect& outer) {
    return inner.x0 >= outer.x0 - 1 && inner.y0 >= outer.y0 - 1 && inner.x1 <= outer.x1 + 1 && inner.y1 <= outer.y1 + 1;
}
bool apart(const ShotRect& a, const ShotRect& b) {
    return a.x1 <= b.x0 + 1 || b.x1 <= a.x0 + 1 || a.y1 <= b.y0 + 1 || b.y1 <= a.y0 + 1;
}

class ClassPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* display = std::getenv("DISPLAY");
        if (!display || !*display)
            GTEST_SKIP() << "no X display: run under xvfb-run";
        m_app = std::make_unique<AppDriver>(::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    std::unique_ptr<AppDriver> m_app;
};

TEST_F(ClassPanelTest, HistogramPatternsAndRowsAreLaidOutAndSayWhatTheFileSays) {
    const json doc = fixture();
    const std::size_t total = doc["submissions"].size();
    std::map<int, int> scores;
    for (const json& s : doc["submissions"])
        ++scores[s["score"].get<int>()];
    // The most common pattern's sentence, as the panel must write it.
    const json* top = nullptr;
    for (const json& p : doc["patterns"])
        if (!top || p["students"].size() > (*top)["students"].size())
            top = &p;
    const std::string sentence = std::to_string((*top)["students"].size()) + " of " + std::to_string(total) +
                                 " submissions: " + (*top)["text"].get<std::string>();

    for (const bool lecture : {false, true})
        for (const char* size : {"1280x800", "1920x1080"}) {
            SCOPED_TRACE(std::string(lecture ? "lecture " : "everyday ") + size);
            const AppShot shot =
                m_app->screenshot("--backend cpu --panels class,result --size " + std::string(size) + " --class '" +
                                  kFixture.string() + "'" + (lecture ? " --lecture" : ""));
            ASSERT_EQ(shot.exitCode, 0) << shot.errors;
            const ShotRect window = shot.rect("class.window");
            const ShotRect histogram = shot.rect("class.histogram");
            const ShotRect patterns = shot.rect("class.patterns");
            const ShotRect rows = shot.rect("class.rows");
            for (const auto& [name, r] :
                 {std::pair{"histogram", histogram}, std::pair{"patterns", patterns}, std::pair{"rows", rows}}) {
                EXPECT_TRUE(inside(r, window)) << name;
                EXPECT_GT(r.height(), 40.0f) << name;
                EXPECT_GT(r.width(), 200.0f) << name;
            }
            EXPECT_TRUE(apart(histogram, patterns));
            EXPECT_TRUE(apart(histogram, rows));
            EXPECT_TRUE(apart(patterns, rows));
            // No text of the panel cut by an edge or laid out past it.
            for (const json& item : shot.layout["items"]) {
                if (item["name"] == "clipped") {
                    EXPECT_EQ(item["text"].get<std::string>().rfind("Class###class", 0), std::string::npos)
                        << item["text"];
                }
            }

            // One bar per score 0..max, each as tall as the count the file gives.
            const int max = doc["max_score"].get<int>();
            for (int v = 0; v <= max; ++v) {
                const std::string name = "class.bar." + std::to_string(v);
                ASSERT_TRUE(shot.has(name)) << name;
                EXPECT_EQ(shot.text(name), std::to_string(v) + ": " + std::to_string(scores[v]));
                const ShotRect bar = shot.rect(name);
                EXPECT_TRUE(inside(bar, histogram)) << name;
                if (scores[v] > 0 && scores[0] > 0) {  // heights in proportion to the counts
                    EXPECT_NEAR(bar.height() / shot.rect("class.bar.0").height(),
                                static_cast<float>(scores[v]) / static_cast<float>(scores[0]), 0.05f)
                        << name;
                }
            }
            // The patterns, most students first, each in its sentence; one row per submission.
            EXPECT_EQ(shot.text("class.pattern.0"), sentence);
            EXPECT_EQ(shot.count("class.pattern."), static_cast<int>(doc["patterns"].size()));
            EXPECT_EQ(shot.count("class.row."), static_cast<int>(total));
            // The rows that fit are inside the table, one under the other.
            const ShotRect first = shot.rect("class.row." + doc["submissions"][0]["student"].get<std::string>());
            const ShotRect second = shot.rect("class.row." + doc["submissions"][1]["student"].get<std::string>());
            EXPECT_TRUE(inside(first, rows));
            EXPECT_LE(first.y1, second.y0 + 1);
            EXPECT_EQ(shot.text("class.row." + doc["submissions"][1]["student"].get<std::string>()),
                      doc["submissions"][1]["score"].dump() + " / " + doc["submissions"][1]["max_score"].dump());
            // The marks are explained in the legend, in words with their shapes.
            int explained = 0;
            for (const json& item : shot.layout["items"])
                if (item["name"] == "legend.swatch") {
                    const std::string label = item["text"];
                    explained += label.rfind("\xE2\x9C\x93 pass", 0) == 0 || label.rfind("\xE2\x9C\x97 FAIL", 0) == 0;
                }
            EXPECT_EQ(explained, 2);
        }
}

// A click on a pattern (--class-pattern does what the click does): the rows
// of the students the file names for it, and no other.
TEST_F(ClassPanelTest, ChoosingAPatternListsOnlyItsSubmissions) {
    const json doc = fixture();
    // The patterns, most students first (the file's order among equals), as the panel lists them.
    std::vector<const json*> order;
    for (const json& p : doc["patterns"])
        order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const json* a, const json* b) { return (*a)["students"].size() > (*b)["students"].size(); });
    for (const std::size_t k : {std::size_t{0}, order.size() - 1}) {
        SCOPED_TRACE("pattern " + std::to_string(k));
        const AppShot shot = m_app->screenshot("--backend cpu --panels class --size 1600x900 --class '" +
                                                   kFixture.string() + "' --class-pattern " + std::to_string(k),
                                               "pattern" + std::to_string(k));
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        const json& students = (*order[k])["students"];
        EXPECT_EQ(shot.count("class.row."), static_cast<int>(students.size()));
        for (const json& s : students)
            EXPECT_TRUE(shot.has("class.row." + s.get<std::string>())) << s;
        EXPECT_TRUE(shot.has("class.show-all"));
        EXPECT_EQ(shot.text("class.rows.heading"), std::to_string(students.size()) + " of " +
                                                       std::to_string(doc["submissions"].size()) +
                                                       " submissions have the chosen pattern");
    }
}

// A click on a row (--class-open does what the click does): the student's
// file in the editor, the set-up on the case of the first problem, and the
// step-through at that problem's block, thread and step.
TEST_F(ClassPanelTest, OpeningARowLandsOnTheStudentsFirstProblem) {
    const json doc = fixture();
    int opened = 0;
    for (const json& s : doc["submissions"]) {
        if (!s.contains("first_problem") || opened >= 2)
            continue;
        ++opened;
        const std::string student = s["student"].get<std::string>();
        SCOPED_TRACE(student);
        const json& at = s["first_problem"];
        const json& kase = doc["cases"][at["case"].get<std::size_t>()];
        const AppShot shot = m_app->screenshot(
            "--backend cpu --size 1920x1080 --class '" + kFixture.string() + "' --class-open " + student, student);
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        const fs::path file = kFixture.parent_path() / s["file"].get<std::string>();
        ASSERT_TRUE(shot.has("editor.file"));
        EXPECT_TRUE(fs::equivalent(shot.text("editor.file"), file)) << shot.text("editor.file");
        // The trace's step: "S N ..." (the step, then how many).
        const std::string step = shot.text("trace.step");
        EXPECT_EQ(step.substr(0, step.find(' ')), at["step"].dump()) << step;
        // The problem selected is the one at that block, thread and line.
        const std::string selected = shot.text("problems.selected");
        const std::string thread = "thread (" + at["thread"][0].dump() + "," + at["thread"][1].dump() + ") of block (" +
                                   at["block"][0].dump() + "," + at["block"][1].dump() + ")";
        EXPECT_NE(selected.find(thread), std::string::npos) << selected;
        EXPECT_NE(selected.find("line " + at["line"].dump()), std::string::npos) << selected;
        // Set up for the case: its size and radius named where the click's note says so.
        const std::string note = shot.text("class.note");
        EXPECT_NE(note.find(kase["name"].get<std::string>()), std::string::npos) << note;
        // The input drawn in the Result panel has the case's shape (45x37: wider than tall).
        const ShotRect input = shot.rect("result.input");
        const std::string size = kase["size"].get<std::string>();
        const float w = std::stof(size.substr(0, size.find('x'))), h = std::stof(size.substr(size.find('x') + 1));
        EXPECT_NEAR(input.width() / input.height(), w / h, 0.03f) << size;
    }
    EXPECT_EQ(opened, 2);
}

// The two halves together: `tilescope grade` run on a class, and the class.json
// it wrote opened in the panel. Each row with a first problem, opened, runs
// that case on exactly its input and mask (the files grade wrote, read back
// here: the same size and every value) under the warp order that found it,
// and stands at grade's first problem: its block, thread, line and step.
std::uint64_t fnv1a(const std::vector<float>& values) {
    std::uint64_t hash = 1469598103934665603ull;
    for (float v : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        for (int b = 0; b < 4; ++b) {
            hash ^= (bits >> (8 * b)) & 0xffu;
            hash *= 1099511628211ull;
        }
    }
    return hash;
}

void opensWhatGradeWrote(AppDriver& app, const std::string& name, int* opened) {
    const fs::path source = fs::path(TILESCOPE_SOURCE_DIR) / "tests/grade";
    const fs::path results = app.dir() / (name + "-results");
    // The class's kernels that run to the end (the one that spins to its
    // time limit would only make the test slower).
    const fs::path submissions = app.dir() / name;
    fs::create_directories(submissions);
    for (const auto& e : fs::directory_iterator(source / name))
        if (e.is_regular_file() && e.path().filename() != "spins.cu")
            fs::copy_file(e.path(), submissions / e.path().filename());
    std::string out, errors;
    ASSERT_EQ(app.run("grade --spec '" + (source / "specs" / (name + ".toml")).string() + "' --out '" +
                          results.string() + "' -j 2 '" + submissions.string() + "'",
                      &out, &errors),
              0)
        << errors << out;
    std::ifstream in(results / "class.json");
    const json doc = json::parse(in);
    for (const json& s : doc["submissions"]) {
        if (!s.contains("first_problem"))
            continue;
        const std::string student = s["student"].get<std::string>();
        if (student.find(' ') != std::string::npos)
            continue;
        SCOPED_TRACE(name + ": " + student);
        ++*opened;
        const json& at = s["first_problem"];
        const json& kase = doc["cases"][at["case"].get<std::size_t>()];
        const AppShot shot = app.screenshot(
            "--backend cpu --size 1920x1080 --class '" + results.string() + "' --class-open " + student, student);
        ASSERT_EQ(shot.exitCode, 0) << shot.errors;
        // The step-through at grade's step, on the problem at its block, thread and line.
        const std::string step = shot.text("trace.step");
        EXPECT_EQ(step.substr(0, step.find(' ')), at["step"].dump()) << step;
        const bool twoD = doc["assignment"]["dims"] == 2;
        auto coords = [&](const json& p) { return "(" + p[0].dump() + (twoD ? "," + p[1].dump() : "") + ")"; };
        const std::string selected = shot.text("problems.selected");
        EXPECT_NE(selected.find("block " + coords(at["block"])), std::string::npos) << selected;
        EXPECT_NE(selected.find("thread " + coords(at["thread"])), std::string::npos) << selected;
        EXPECT_NE(selected.find("line " + at["line"].dump() + ", step " + at["step"].dump()), std::string::npos)
            << selected;
        // The run's input and mask: the case's files, value for value, and its warp order.
        const auto input = io::readNpy(results / kase["input"].get<std::string>());
        ASSERT_TRUE(input.ok()) << input.error().message;
        const auto mask = io::readMask(results / kase["mask"].get<std::string>());
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        char hash[24];
        std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(input->data)));
        std::string expected = "input " + std::to_string(input->width) + "x" + std::to_string(input->height) +
                               " fnv1a " + hash + "; mask " + std::to_string(mask->width) + "x" +
                               std::to_string(mask->height);
        char v[32];
        for (float w : mask->values) {
            std::snprintf(v, sizeof v, " %.9g", static_cast<double>(w));
            expected += v;
        }
        expected += "; warps " + at["schedule"].get<std::string>();
        const std::string data = shot.text("result.data");
        EXPECT_EQ(data.substr(0, expected.size()), expected);
        EXPECT_NE(shot.text("class.note").find(kase["name"].get<std::string>() + " (its input and mask)"),
                  std::string::npos)
            << shot.text("class.note");
    }
}

TEST_F(ClassPanelTest, OpeningARowOfWhatGradeWroteRunsItsCaseAtItsFirstProblem) {
    int opened = 0;
    {
        SCOPED_TRACE("class2d");
        opensWhatGradeWrote(*m_app, "class2d", &opened);
    }
    {
        SCOPED_TRACE("class1d");
        opensWhatGradeWrote(*m_app, "class1d", &opened);
    }
    EXPECT_GE(opened, 2);
}

TEST_F(ClassPanelTest, BadClassFilesAreOneMessageAndExitTwo) {
    const fs::path broken = m_app->dir() / "class.json";
    {
        std::ofstream out(broken);
        out << R"({"format": "tilescope-class", "version": 1, "assignment": {"name": "x", "dims": 2},)"
            << R"( "max_score": 8, "cases": [], "submissions": [{"student": 3}], "patterns": []})";
    }
    const fs::path missing = m_app->dir() / "nothing" / "class.json";
    struct Case {
        std::string arguments;
        std::string says;
    };
    for (const Case& c : {
             Case{"--class '" + missing.string() + "' --frames 1", missing.string()},
             Case{"--class '" + broken.string() + "' --frames 1",
                  broken.string() + ": submissions[0].student is a number, not a string"},
             Case{"screenshot --out x.png --class '" + broken.string() + "'", "submissions[0].student"},
             Case{"screenshot --out x.png --class-open alice", "--class-open"},
             Case{"screenshot --out x.png --class-pattern 0", "--class-pattern"},
         }) {
        std::string errors;
        EXPECT_EQ(m_app->run(c.arguments, nullptr, &errors), 2) << c.arguments;
        EXPECT_NE(errors.find(c.says), std::string::npos) << errors;
        EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;
    }
}

}  // namespace
}  // namespace tilescope::test
