// tilescope grade: the spec reader and its refusals, finding submissions and
// refusing bad ones, the report formats read back, and a small class graded
// through the real binary: a tiled kernel, a racy one whose output is right
// (proved here against the float64 reference) yet fails, an untiled one, one
// that crashes, one that spins forever, one that does not compile, and the
// refused files beside them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "exec/backend.hpp"
#include "grade/reports.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "own/own_kernel.hpp"
#include "own/sandbox.hpp"
#include "reference/reference.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tilescope;

namespace {

const fs::path kSource = TILESCOPE_SOURCE_DIR;
const fs::path kSpecs = kSource / "tests/grade/specs";

[[maybe_unused]] std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

[[maybe_unused]] void spit(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

struct Outcome {
    int code = -1;
    std::string out, err;
};

// fork + exec of the real binary, with extra environment variables.
[[maybe_unused]] Outcome runTilescope(const std::vector<std::string>& args, const fs::path& logs,
                                      const std::map<std::string, std::string>& env = {}) {
    const fs::path out = logs / "stdout.txt", err = logs / "stderr.txt";
    std::vector<std::string> copies = args;
    // grade requires the sandbox by default; where this machine has none (no
    // bubblewrap, as on the GPU machine), the classes are graded without it
    // and GradeSandbox says what required does.
    if (!copies.empty() && copies[0] == "grade" && !own::sandboxStatus().available &&
        std::find(copies.begin(), copies.end(), "--sandbox") == copies.end()) {
        copies.push_back("--sandbox");
        copies.push_back("auto");
    }
    std::string binary = TILESCOPE_BINARY;
    std::vector<char*> argv{binary.data()};
    for (std::string& a : copies)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t child = ::fork();
    if (child == 0) {
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0)
            ::_exit(125);
        for (const auto& [k, v] : env)
            ::setenv(k.c_str(), v.c_str(), 1);
        ::alarm(300);
        ::execv(argv[0], argv.data());
        ::_exit(126);
    }
    Outcome o;
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child)
        return o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
}

// RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes
// (doubled) and line breaks; records end in CRLF.
[[maybe_unused]] std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            row.push_back(field);
            field.clear();
            rows.push_back(row);
            row.clear();
            ++i;
        } else {
            field += c;
        }
    }
    EXPECT_TRUE(field.empty() && row.empty()) << "the last record has no CRLF";
    return rows;
}

// The XML is well nested, every tag closed, and its text holds no bare '<' or '&'.
[[maybe_unused]] void checkXmlStructure(const std::string& xml, int& suites, int& cases, int& failures) {
    std::vector<std::string> open;
    suites = cases = failures = 0;
    std::size_t at = xml.find("?>");
    ASSERT_NE(at, std::string::npos);
    at += 2;
    while ((at = xml.find('<', at)) != std::string::npos) {
        const std::size_t end = xml.find('>', at);
        ASSERT_NE(end, std::string::npos);
        std::string tag = xml.substr(at + 1, end - at - 1);
        ASSERT_EQ(tag.find('<'), std::string::npos) << tag;
        const bool closing = tag[0] == '/';
        const bool empty = tag.back() == '/';
        std::string name = tag.substr(closing ? 1 : 0);
        name = name.substr(0, name.find_first_of(" /"));
        if (closing) {
            ASSERT_FALSE(open.empty()) << name;
            ASSERT_EQ(open.back(), name);
            open.pop_back();
        } else {
            if (name == "testsuite")
                ++suites;
            if (name == "testcase")
                ++cases;
            if (name == "failure")
                ++failures;
            if (!empty)
                open.push_back(name);
        }
        // Between tags: only escaped text.
        const std::size_t next = xml.find('<', end);
        const std::string text = xml.substr(end + 1, next == std::string::npos ? std::string::npos : next - end - 1);
        for (std::size_t amp = text.find('&'); amp != std::string::npos; amp = text.find('&', amp + 1)) {
            const std::string rest = text.substr(amp, 6);
            EXPECT_TRUE(rest.rfind("&amp;", 0) == 0 || rest.rfind("&lt;", 0) == 0 || rest.rfind("&gt;", 0) == 0 ||
                        rest.rfind("&quot;", 0) == 0 || rest.rfind("&apos;", 0) == 0)
                << rest;
        }
        at = end + 1;
    }
    EXPECT_TRUE(open.empty());
}

[[maybe_unused]] const json& student(const json& classJson, const std::string& name) {
    for (const json& s : classJson["submissions"])
        if (s["student"] == name)
            return s;
    static const json none;
    ADD_FAILURE() << "no student " << name;
    return none;
}

[[maybe_unused]] bool hasProblem(const json& c, const std::string& kind) {
    for (const json& p : c["problems"])
        if (p["kind"] == kind)
            return true;
    return false;
}

}  // namespace

// The same file builds two programs: grade_unit_test (the spec, the
// submissions, the formats: no kernel runs, label cpu, so the sanitizer build
// runs it too) and grade_test (the classes graded through the binary).
#ifndef TILESCOPE_GRADE_CLASSES

// [SECTION] The spec

TEST(GradeSpec, ReadsCasesMasksAndOverrides) {
    auto spec = grade::readSpec(kSpecs / "class2d.toml");
    ASSERT_TRUE(spec) << spec.error().message;
    EXPECT_EQ(spec->name, "exercise-10");
    EXPECT_EQ(spec->dims, 2);
    ASSERT_EQ(spec->cases.size(), 2u);
    EXPECT_EQ(spec->maxScore(), 3);
    const grade::Case& a = spec->cases[0];
    EXPECT_EQ(a.name, "45x37, radius 2");
    EXPECT_EQ(a.input.width, 45);
    EXPECT_EQ(a.input.height, 37);
    ASSERT_EQ(a.mask.width, 5);
    EXPECT_NEAR(a.mask.at(4, 4), 25.0 / 325.0, 1e-6);  // the file's last weight
    EXPECT_FALSE(spec->cases[0].require.maxTimeRatio);
    ASSERT_TRUE(spec->cases[1].require.maxTimeRatio);
    // A generated mask: asymmetric (no flip equals it), and the same on every read.
    const Mask& m = spec->cases[1].mask;
    ASSERT_EQ(m.width, 3);
    EXPECT_NE(m.at(0, 0), m.at(2, 0));
    EXPECT_NE(m.at(0, 0), m.at(0, 2));
    auto again = grade::readSpec(kSpecs / "class2d.toml");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->cases[1].mask.values, m.values);
    EXPECT_EQ(again->cases[1].input.data, spec->cases[1].input.data);

    auto oneD = grade::readSpec(kSpecs / "class1d.toml");
    ASSERT_TRUE(oneD) << oneD.error().message;
    EXPECT_TRUE(oneD->cases[0].require.tiled);
    EXPECT_FALSE(oneD->cases[1].require.tiled);  // the case's own key wins
    EXPECT_EQ(oneD->cases[1].name, "radius 0");
    EXPECT_EQ(oneD->timeLimitSeconds, 2.0);
}

TEST(GradeSpec, BadSpecsNameTheirLine) {
    const std::vector<std::pair<std::string, std::string>> bad{
        {"bad_syntax.toml:6: ", "Error while parsing string"},  // the unterminated string
        {"bad_unknown_key.toml:8: ", "unknown key 'pionts'"},
        {"bad_wrong_type.toml:7: ", "'radius' must be a whole number"},
        {"bad_size_dims.toml:10: ", "does not fit dims = 1"},
        {"bad_radius.toml:7: ", "radius 9 cannot run"},
        {"bad_mask_missing.toml:8: ", "masks/no_such_mask.txt"},
        {"bad_mask_shape.toml:8: ", "radius 1 in 2D needs 3x3"},
        {"bad_no_case.toml:1: ", "no [[case]]"},
        {"bad_dims.toml:3: ", "'dims' must be 1 or 2"},
    };
    for (const auto& [where, what] : bad) {
        const std::string file = where.substr(0, where.find(':'));
        auto spec = grade::readSpec(kSpecs / file);
        ASSERT_FALSE(spec) << file;
        const std::string& m = spec.error().message;
        EXPECT_EQ(spec.error().code, ExitCode::BadInput);
        EXPECT_NE(m.find(where), std::string::npos) << m;
        EXPECT_NE(m.find(what), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

// [SECTION] Submissions

TEST(GradeSubmissions, FindsFilesAndFoldersAndRefusesBadOnes) {
    test::ScratchDir dir("grade_submissions");
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "bob.cu");
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "Zoë Ng.cu");
    fs::create_directories(dir / "carol");
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "carol/kernel.cu");
    spit(dir / "carol/README.md", "notes");
    spit(dir / "empty.cu", "  \n\n");
    spit(dir / "binary.cu", std::string("\x7f"
                                        "ELF\0\0\0",
                                        7));
    spit(dir / "huge.cu", std::string((1 << 20) + 1, 'x'));
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "alice.cu");
    fs::create_directories(dir / "alice");
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "alice/conv.cu");
    fs::create_directories(dir / "nobody");
    spit(dir / "notes.txt", "not a kernel file");

    auto found = grade::findSubmissions(dir.path());
    ASSERT_TRUE(found) << found.error().message;
    std::map<std::string, grade::Submission> by;
    for (const auto& s : *found)
        by[s.student] = s;
    EXPECT_EQ(by.size(), 8u);  // notes.txt is no submission
    EXPECT_TRUE(by["bob"].refused.empty());
    EXPECT_TRUE(by["Zoë Ng"].refused.empty());
    EXPECT_EQ(by["Zoë Ng"].folder, "Zo__Ng");
    EXPECT_EQ(by["carol"].file.filename(), "kernel.cu");
    EXPECT_NE(by["empty"].refused.find("is empty"), std::string::npos) << by["empty"].refused;
    EXPECT_NE(by["binary"].refused.find("binary"), std::string::npos) << by["binary"].refused;
    EXPECT_NE(by["huge"].refused.find("at most 1 MiB"), std::string::npos) << by["huge"].refused;
    EXPECT_NE(by["alice"].refused.find("alice.cu and alice/"), std::string::npos) << by["alice"].refused;
    EXPECT_NE(by["nobody"].refused.find("no .cu file"), std::string::npos) << by["nobody"].refused;

    EXPECT_FALSE(grade::findSubmissions(dir / "missing"));
    fs::create_directories(dir / "none");
    auto none = grade::findSubmissions(dir / "none");
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no submissions"), std::string::npos);
}

TEST(GradeSubmissions, SafeFolderNames) {
    EXPECT_EQ(grade::safeFolderName("alice"), "alice");
    EXPECT_EQ(grade::safeFolderName("Zoë Ng"), "Zo__Ng");
    EXPECT_EQ(grade::safeFolderName(".."), "_..");
    EXPECT_EQ(grade::safeFolderName("a/b"), "a_b");
    EXPECT_EQ(grade::safeFolderName("李"), "_");
}

// [SECTION] Report formats

TEST(GradeReports, EscapesXmlAndQuotesCsv) {
    EXPECT_EQ(grade::xmlEscape("a<b & \"c\" 'd'>\x01"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
    const std::string nasty = "x, \"y\"\r\nz";
    const auto rows = parseCsv(grade::csvField(nasty) + "," + grade::csvField("plain") + "\r\n");
    ASSERT_EQ(rows.size(), 1u);
    ASSERT_EQ(rows[0].size(), 2u);
    EXPECT_EQ(rows[0][0], nasty);
    EXPECT_EQ(rows[0][1], "plain");
    // A file name in Latin-1 is no UTF-8: written as U+FFFD, never an exception.
    const std::string text = grade::jsonText(grade::Json{{"student", "caf\xe9"}});
    EXPECT_NE(text.find("caf\xef\xbf\xbd"), std::string::npos) << text;
    EXPECT_EQ(json::parse(text)["student"], "caf\xef\xbf\xbd");
}

#else

// [SECTION] A class graded through the binary

// The class is graded once (it takes seconds: each kernel file compiled, one
// spinning to its time limit); the checks below read what it wrote.
struct GradeClass {
    static void gradeIt() {
        s_dir = new test::ScratchDir("grade_class");
        const fs::path cls = s_dir->path() / "class";
        fs::copy(kSource / "tests/grade/class1d", cls, fs::copy_options::recursive);
        spit(cls / "empty.cu", "");
        spit(cls / "binary.cu", std::string("\x7f"
                                            "ELF\0\x01\x02",
                                            7));
        spit(cls / "huge.cu", std::string((1 << 20) + 10, '/'));
        fs::copy(kSource / "tests/own/good/conv1d_tiled_student.cu", cls / "alice.cu");
        fs::create_directories(cls / "alice");
        fs::copy(kSource / "tests/own/good/conv1d_tiled_student.cu", cls / "alice/conv.cu");
        // An earlier run's files: nothing of them may be lost.
        fs::create_directories(s_dir->path() / "results");
        spit(s_dir->path() / "results/notes.txt", "kept");
        s_run = runTilescope({"grade", "--spec", (kSpecs / "class1d.toml").string(), "--out",
                              (s_dir->path() / "results").string(), "-j", "2", cls.string()},
                             s_dir->path());
    }
    static void cleanUp() {
        delete s_dir;
        s_dir = nullptr;
    }
    static json classJson() { return json::parse(slurp(s_dir->path() / "results/class.json")); }
    static test::ScratchDir* s_dir;
    static Outcome s_run;
};
test::ScratchDir* GradeClass::s_dir = nullptr;
Outcome GradeClass::s_run;
using G = GradeClass;

static void completesWithExitZeroAndOneLinePerStudent() {
    ASSERT_EQ(G::s_run.code, 0) << G::s_run.err << G::s_run.out;
    EXPECT_EQ(slurp(G::s_dir->path() / "results/notes.txt"), "kept");
    // 12 students, one line each, then the summary.
    EXPECT_EQ(std::count(G::s_run.out.begin(), G::s_run.out.end(), '\n'), 13) << G::s_run.out;
    EXPECT_NE(G::s_run.out.find("graded 12 submissions of tiled-1d"), std::string::npos) << G::s_run.out;
    EXPECT_NE(G::s_run.out.find("Zoë Ng"), std::string::npos);
}

static void scoresEachKernelForWhatItDoes() {
    ASSERT_EQ(G::s_run.code, 0) << G::s_run.err;
    const json j = G::classJson();
    EXPECT_EQ(j["format"], "tilescope-class");
    EXPECT_EQ(j["version"], 1);
    EXPECT_EQ(j["max_score"], 3);
    EXPECT_EQ(j["submissions"].size(), 12u);

    const json& good = student(j, "tiled_right");
    EXPECT_EQ(good["status"], "graded");
    EXPECT_EQ(good["score"], 3);
    EXPECT_FALSE(good.contains("first_problem"));
    // Both numbers, worked out by hand: 200 outputs of radius 2 in tiles of
    // 64: 200 + 6 + 6 halo loads of N (1.06 per output); the basic kernel's
    // taps inside the array, 1000 - 6 (4.97 per output).
    const std::string why = good["cases"][0]["explanation"];
    EXPECT_NE(why.find("1.06 loads of N"), std::string::npos) << why;
    EXPECT_NE(why.find("4.97"), std::string::npos) << why;

    EXPECT_EQ(student(j, "Zoë Ng")["score"], 3);
    EXPECT_EQ(student(j, "dora")["score"], 3);
    EXPECT_EQ(fs::path(student(j, "dora")["file"].get<std::string>()).filename(), "main.cu");

    const json& racy = student(j, "racy_but_right");
    EXPECT_EQ(racy["score"], 1);  // the radius-0 case has no halo, so no race
    const json& raced = racy["cases"][0];
    EXPECT_FALSE(raced["passed"]);
    EXPECT_TRUE(hasProblem(raced, "shared_race"));
    EXPECT_FALSE(hasProblem(raced, "wrong_result"));
    EXPECT_NE(raced["explanation"].get<std::string>().find("Your output is right on this run, but"), std::string::npos);
    ASSERT_TRUE(racy.contains("first_problem"));
    EXPECT_EQ(racy["first_problem"]["line"], 26);  // N_ds[k] = ..., every thread of the block
    bool halo = false;
    for (const json& p : raced["problems"])
        if (p["kind"] == "shared_race") {
            EXPECT_EQ(p["first_line"], 26);
            EXPECT_EQ(p["pattern"], "shared_race/write after write/halo load/halo load/no barrier");
            halo = true;
        }
    EXPECT_TRUE(halo);

    const json& basic = student(j, "untiled");
    EXPECT_EQ(basic["score"], 1);
    EXPECT_TRUE(hasProblem(basic["cases"][0], "not_tiled"));
    EXPECT_TRUE(basic["cases"][1]["passed"]);

    const json& crash = student(j, "crashes");
    EXPECT_EQ(crash["status"], "graded");
    EXPECT_EQ(crash["score"], 2);  // radius 0 divides by zero
    EXPECT_TRUE(hasProblem(crash["cases"][1], "crashed"));
    EXPECT_NE(crash["cases"][1]["explanation"].get<std::string>().find("division by zero"), std::string::npos);

    const json& spin = student(j, "spins");
    EXPECT_EQ(spin["status"], "failed");
    EXPECT_EQ(spin["score"], 0);
    for (const json& c : spin["cases"]) {
        EXPECT_TRUE(hasProblem(c, "time_limit"));
        EXPECT_NE(c["explanation"].get<std::string>().find("time limit"), std::string::npos);
    }

    const json& broken = student(j, "compile_error");
    EXPECT_EQ(broken["status"], "compile_error");
    EXPECT_EQ(broken["score"], 0);
    EXPECT_NE(broken["message"].get<std::string>().find("compile_error.cu:21:52: error: expected ';'"),
              std::string::npos)
        << broken["message"];

    EXPECT_EQ(student(j, "empty")["status"], "refused");
    EXPECT_EQ(student(j, "binary")["status"], "refused");
    EXPECT_EQ(student(j, "huge")["status"], "refused");
    const json& alice = student(j, "alice");
    EXPECT_EQ(alice["status"], "refused");
    EXPECT_NE(alice["message"].get<std::string>().find("alice.cu and alice/"), std::string::npos);

    // Patterns: each with its students.
    bool found = false;
    for (const json& p : j["patterns"])
        if (p["key"] == "shared_race/write after write/halo load/halo load/no barrier") {
            found = true;
            EXPECT_EQ(p["students"], json::array({"racy_but_right"}));
            EXPECT_FALSE(p["text"].get<std::string>().empty());
        }
    EXPECT_TRUE(found);
}

// The racy kernel's output, checked here against the float64 reference under
// each order of the warps: it is right, and yet its case failed above.
TEST(GradeRacyKernel, OutputMatchesTheReferenceUnderEveryWarpOrder) {
    auto spec = grade::readSpec(kSpecs / "class1d.toml");
    ASSERT_TRUE(spec);
    auto kernel = own::compileKernelFile((kSource / "tests/grade/class1d/racy_but_right.cu").string());
    ASSERT_TRUE(kernel) << kernel.error().message;
    const grade::Case& c = spec->cases[0];
    const std::vector<double> want = reference::convolve(c.input, c.mask);
    for (Schedule s : {Schedule::InOrder, Schedule::Reverse, Schedule::Random}) {
        RunRequest r;
        r.kernel = std::string((*kernel)->info->name);
        r.own = *kernel;
        r.input = &c.input;
        r.mask = &c.mask;
        r.backend = Backend::Cpu;
        r.check = true;
        r.schedule = s;
        auto result = runKernel(r);
        ASSERT_TRUE(result) << result.error().message;
        EXPECT_LE(reference::maxAbsDifference(result->output.data, want), reference::float32Tolerance(c.input, c.mask));
        EXPECT_GT(result->problems->count(ProblemKind::SharedRace), 0u);
    }
}

static void reportsParseBackAndAgree() {
    ASSERT_EQ(G::s_run.code, 0) << G::s_run.err;
    const json j = G::classJson();
    const fs::path results = G::s_dir->path() / "results";

    // Gradescope's results.json per student, in a safe folder.
    for (const json& s : j["submissions"]) {
        const std::string name = s["student"];
        const fs::path file = results / grade::safeFolderName(name) / "results.json";
        ASSERT_TRUE(fs::exists(file)) << file;
        const json g = json::parse(slurp(file));
        EXPECT_EQ(g["score"], s["score"]) << name;
        ASSERT_EQ(g["tests"].size(), 2u);
        int sum = 0;
        for (const json& t : g["tests"]) {
            EXPECT_TRUE(t.contains("name") && t.contains("max_score") && t.contains("output"));
            EXPECT_EQ(t["visibility"], "visible");
            sum += t["score"].get<int>();
        }
        EXPECT_EQ(sum, g["score"].get<int>()) << name;
        EXPECT_TRUE(g["output"].is_string());
    }
    EXPECT_TRUE(fs::exists(results / "Zo__Ng/results.json"));

    // class.csv: a header, one row per student, the scores of class.json.
    const auto rows = parseCsv(slurp(results / "class.csv"));
    ASSERT_EQ(rows.size(), 13u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"student", "200, radius 2", "radius 0", "score", "max_score", "status",
                                                 "message"}));
    for (std::size_t i = 1; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), 7u);
        const json& s = student(j, rows[i][0]);
        EXPECT_EQ(rows[i][1], std::to_string(s["cases"][0]["score"].get<int>()));
        EXPECT_EQ(rows[i][3], std::to_string(s["score"].get<int>()));
        EXPECT_EQ(rows[i][5], s["status"]);
    }

    // junit.xml: one suite per student, one case per spec case, a failure per failed case.
    const std::string xml = slurp(results / "junit.xml");
    int suites = 0, cases = 0, failures = 0, failed = 0;
    checkXmlStructure(xml, suites, cases, failures);
    for (const json& s : j["submissions"])
        for (const json& c : s["cases"])
            failed += !c["passed"].get<bool>();
    EXPECT_EQ(suites, 12);
    EXPECT_EQ(cases, 24);
    EXPECT_EQ(failures, failed);
    EXPECT_NE(xml.find("name=\"Zoë Ng\""), std::string::npos);
}

// A spec that cannot be read: exit 2, its line, and the results of the run before untouched.
static void badSpecTouchesNothing() {
    ASSERT_EQ(G::s_run.code, 0) << G::s_run.err;
    const fs::path results = G::s_dir->path() / "results";
    const std::string before = slurp(results / "class.json");
    const Outcome o = runTilescope({"grade", "--spec", (kSpecs / "bad_radius.toml").string(), "--out", results.string(),
                                    (G::s_dir->path() / "class").string()},
                                   G::s_dir->path());
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.out, "");
    EXPECT_NE(o.err.find("bad_radius.toml:7: radius 9 cannot run"), std::string::npos) << o.err;
    EXPECT_EQ(slurp(results / "class.json"), before);
    const Outcome none = runTilescope({"grade", "--spec", (kSpecs / "class1d.toml").string(), "--out", results.string(),
                                       (G::s_dir->path() / "no_such_folder").string()},
                                      G::s_dir->path());
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("no such folder of submissions"), std::string::npos) << none.err;
    EXPECT_EQ(slurp(results / "class.json"), before);
}

TEST(GradeClass, GradesEachKernelAndWritesEveryReport) {
    GradeClass::gradeIt();
    {
        SCOPED_TRACE("stdout and exit code");
        completesWithExitZeroAndOneLinePerStudent();
    }
    {
        SCOPED_TRACE("scores and explanations");
        scoresEachKernelForWhatItDoes();
    }
    {
        SCOPED_TRACE("reports");
        reportsParseBackAndAgree();
    }
    {
        SCOPED_TRACE("a bad spec after it");
        badSpecTouchesNothing();
    }
    GradeClass::cleanUp();
}

// Exercise 10 in 2D: the roles of the lines of a race read off the trace.
TEST(GradeClass2D, PatternsAndTimeRatioNotChecked) {
    test::ScratchDir dir("grade_class2d");
    const Outcome o = runTilescope({"grade", "--spec", (kSpecs / "class2d.toml").string(), "--out",
                                    (dir / "results").string(), (kSource / "tests/grade/class2d").string()},
                                   dir.path());
    ASSERT_EQ(o.code, 0) << o.err << o.out;
    const bool gpu = gpuAvailable();
    if (!gpu) {
        EXPECT_NE(o.err.find("max_time_ratio is not checked"), std::string::npos) << o.err;
    }
    const json j = json::parse(slurp(dir / "results/class.json"));
    EXPECT_EQ(student(j, "tiled")["score"], 3);
    const json& basic = student(j, "basic");
    EXPECT_EQ(basic["score"], 0);
    EXPECT_TRUE(hasProblem(basic["cases"][0], "not_tiled"));
    // The GPU's timing of the tiled kernel against the book's, or, without a GPU, said not to be checked.
    const std::string timed = student(j, "tiled")["cases"][1]["explanation"];
    if (gpu) {
        EXPECT_NE(timed.find("fast enough: on the GPU"), std::string::npos) << timed;
    } else {
        EXPECT_NE(timed.find("max_time_ratio 3: not checked (no GPU on this machine)"), std::string::npos) << timed;
    }
    const json& racy = student(j, "no_barrier");
    EXPECT_EQ(racy["score"], 0);
    // Written by the tile's load (line 32 stores N's cell, line 34 a ghost
    // cell's 0), read by the computation (line 46). Block (0,0)'s threads
    // store its input tile: the interior cells from N (a tile load), the
    // cells of the two rows and columns outside the image as 0 (halo).
    std::map<int, std::string> patterns;
    for (const json& p : racy["cases"][0]["problems"])
        if (p["kind"] == "shared_race" && p["order"] == "read after write") {
            EXPECT_EQ(p["second_line"], 46);
            patterns[p["first_line"].get<int>()] = p["pattern"];
        }
    EXPECT_EQ(patterns[32], "shared_race/read after write/tile load/tile use/no barrier");
    EXPECT_EQ(patterns[34], "shared_race/read after write/halo load/tile use/no barrier");
    bool race = !patterns.empty();
    EXPECT_TRUE(race);
}

// Gradescope's layout in a scratch root: source/, submission/, results/.
TEST(GradeGradescope, WritesResultsJson) {
    test::ScratchDir root("grade_gradescope");
    fs::create_directories(root / "autograder/source");
    fs::create_directories(root / "autograder/submission");
    fs::create_directories(root / "autograder/results");
    fs::copy(kSpecs / "class1d.toml", root / "autograder/source/spec.toml");
    fs::copy(kSource / "tests/grade/class1d/racy_but_right.cu", root / "autograder/submission/conv.cu");
    const Outcome o =
        runTilescope({"grade", "--gradescope"}, root.path(),
                     {{"TILESCOPE_GRADE_SPEC", (root / "autograder/source/spec.toml").string()},
                      {"TILESCOPE_GRADESCOPE_SUBMISSION", (root / "autograder/submission").string()},
                      {"TILESCOPE_GRADESCOPE_RESULTS", (root / "autograder/results/results.json").string()}});
    ASSERT_EQ(o.code, 0) << o.err << o.out;
    const json g = json::parse(slurp(root / "autograder/results/results.json"));
    EXPECT_EQ(g["score"], 1);
    ASSERT_EQ(g["tests"].size(), 2u);
    EXPECT_EQ(g["tests"][0]["score"], 0);
    EXPECT_EQ(g["tests"][0]["max_score"], 2);
    EXPECT_NE(g["tests"][0]["output"].get<std::string>().find("shared race"), std::string::npos);
    EXPECT_EQ(g["tests"][1]["score"], 1);
}

// Where no sandbox can be had, grade refuses before it grades or writes
// anything (bwrap named as a program that does not exist, on any machine);
// where one can, class.json names it.
TEST(GradeSandbox, RequiredWhereNoneCanBeHadRefusesBeforeGrading) {
    test::ScratchDir dir("grade_sandbox");
    const fs::path results = dir.path() / "results";
    const Outcome o = runTilescope({"grade", "--spec", (kSpecs / "class1d.toml").string(), "--out", results.string(),
                                    "--sandbox", "required", (kSource / "tests/grade/class1d").string()},
                                   dir.path(), {{"TILESCOPE_BWRAP", (dir.path() / "no-bwrap-here").string()}});
    EXPECT_NE(o.code, 0);
    EXPECT_EQ(o.out, "");
    EXPECT_NE(o.err.find("--sandbox off only where each submission has a container of its own"), std::string::npos)
        << o.err;
    EXPECT_FALSE(fs::exists(results));
}

TEST(GradeSandbox, ClassJsonNamesTheSandboxTheClassRanIn) {
    GradeClass::gradeIt();
    ASSERT_EQ(G::s_run.code, 0) << G::s_run.err;
    const std::string sandbox = G::classJson()["sandbox"].get<std::string>();
    if (own::sandboxStatus().available)
        EXPECT_EQ(sandbox, own::sandboxStatus().mechanism);
    else
        EXPECT_EQ(sandbox.rfind("none (", 0), 0u) << sandbox;
}

#endif  // TILESCOPE_GRADE_CLASSES
