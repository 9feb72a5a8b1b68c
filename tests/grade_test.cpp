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
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "exec/backend.hpp"
#include "grade/reports.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "io/csv_field.hpp"
#include "io/mask_file.hpp"
#include "io/npy.hpp"
#include "model/class_results.hpp"
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

// A submission that is a link is refused before it is read: what it points
// at (here a secret outside the class's folder) never reaches the report.
TEST(GradeSubmissions, ALinkIsRefusedAndWhatItPointsAtIsNeverRead) {
    test::ScratchDir dir("grade_links");
    fs::create_directories(dir / "class");
    fs::create_directories(dir / "outside");
    spit(dir / "outside/secret.cu", "TOP-SECRET grader's solution\n");
    fs::create_symlink(dir / "outside/secret.cu", dir / "class/mallory.cu");
    fs::create_directories(dir / "class/trudy");
    fs::create_symlink(dir / "outside/secret.cu", dir / "class/trudy/kernel.cu");
    fs::create_directory_symlink(dir / "outside", dir / "class/eve");
    fs::copy(kSource / "tests/own/good/conv1d_basic_student.cu", dir / "class/bob.cu");

    auto found = grade::findSubmissions(dir / "class");
    ASSERT_TRUE(found) << found.error().message;
    std::map<std::string, grade::Submission> by;
    for (const auto& s : *found)
        by[s.student] = s;
    ASSERT_EQ(by.size(), 4u);
    EXPECT_TRUE(by["bob"].refused.empty()) << by["bob"].refused;
    for (const char* who : {"mallory", "trudy", "eve"}) {
        EXPECT_NE(by[who].refused.find("is a link"), std::string::npos) << who << ": " << by[who].refused;
        EXPECT_EQ(by[who].refused.find("TOP-SECRET"), std::string::npos) << who;
    }
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
    const auto rows = parseCsv(io::csvField(nasty) + "," + io::csvField("plain") + "\r\n");
    ASSERT_EQ(rows.size(), 1u);
    ASSERT_EQ(rows[0].size(), 2u);
    EXPECT_EQ(rows[0][0], nasty);
    EXPECT_EQ(rows[0][1], "plain");
    // A file name in Latin-1 is no UTF-8: written as U+FFFD, never an exception.
    const std::string text = grade::jsonText(grade::Json{{"student", "caf\xe9"}});
    EXPECT_NE(text.find("caf\xef\xbf\xbd"), std::string::npos) << text;
    EXPECT_EQ(json::parse(text)["student"], "caf\xef\xbf\xbd");
}

// Every kind of submission grade writes (graded with a located problem, a
// problem of no place, a compile error, a refusal, a failed run), written by
// writeReports and read back by the Class panel's reader: it takes every key
// and kind grade writes, and each case's files hold the spec's input and mask.
TEST(GradeReports, TheClassPanelReadsWhatGradeWrites) {
    test::ScratchDir dir("grade_reports_read");
    fs::create_directories(dir / "course/submissions");
    spit(dir / "course/submissions/alice.cu", "// alice\n");
    spit(dir / "course/submissions/bob.cu", "// bob\n");
    const auto spec = grade::readSpec(kSpecs / "class2d.toml");
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    grade::ClassRun run;
    run.spec = &*spec;
    run.submissions = dir / "course/submissions";
    run.gradedAt = "2026-11-26T23:00:00Z";
    auto submission = [&](const std::string& name, const std::string& status) {
        grade::SubmissionResult r;
        r.submission.student = name;
        r.submission.folder = name;
        r.submission.file = dir / ("course/submissions/" + name + ".cu");
        r.submission.source = r.submission.file;
        r.status = status;
        r.maxScore = spec->maxScore();
        for (const grade::Case& c : spec->cases) {
            grade::CaseResult cr;
            cr.name = c.name;
            cr.points = c.points;
            cr.explanation = "what went wrong";
            r.cases.push_back(cr);
        }
        return r;
    };
    grade::SubmissionResult alice = submission("alice", "graded");
    grade::CaseProblem race;
    race.kind = "shared_race";
    race.order = "read after write";
    race.array = "N_ds";
    race.firstLine = 32;
    race.secondLine = 46;
    race.count = 12;
    race.block = {1, 0};
    race.thread = {3, 2};
    race.line = 46;
    race.step = 57;
    race.schedule = "reverse";
    race.located = true;
    race.pattern = "shared_race/read after write/tile load/tile use/no barrier";
    grade::CaseProblem untiled;
    untiled.kind = "not_tiled";
    untiled.order = "none";
    untiled.pattern = "not_tiled";
    alice.cases[0].problems = {race, untiled};
    alice.cases[0].first = grade::CaseResult::Place{46, {1, 0}, {3, 2}, 57, "reverse"};
    alice.firstProblem = grade::SubmissionResult::First{0, 46, {1, 0}, {3, 2}, 57, "reverse"};
    grade::SubmissionResult bob = submission("bob", "compile_error");
    bob.message = "bob.cu:3:1: error: expected ';'";
    grade::SubmissionResult carol = submission("carol", "refused");
    carol.submission.file.clear();
    carol.submission.source = dir / "course/submissions/carol.cu";
    grade::SubmissionResult dave = submission("dave", "failed");
    grade::CaseProblem crash;
    crash.kind = "crashed";
    crash.order = "none";
    crash.firstLine = 12;
    crash.pattern = "crashed";
    dave.cases[1].problems = {crash};
    run.results = {alice, bob, carol, dave};
    const fs::path results = dir / "course/results";
    ASSERT_TRUE(grade::writeReports(run, results).ok());

    const auto read = ui::readClassResults(results / "class.json");
    ASSERT_TRUE(read.ok()) << read.error().message;
    ASSERT_EQ(read->submissions.size(), 4u);
    const ui::ClassSubmission& a = read->submissions[0];
    EXPECT_TRUE(fs::equivalent(a.file, dir / "course/submissions/alice.cu"));
    ASSERT_TRUE(a.firstProblem);
    EXPECT_EQ(a.firstProblem->line, 46u);
    EXPECT_EQ(a.firstProblem->step, 57);
    EXPECT_EQ(a.firstProblem->schedule, "reverse");
    EXPECT_EQ(a.firstProblem->block, (std::array<int, 2>{1, 0}));
    EXPECT_EQ(a.firstProblem->thread, (std::array<int, 2>{3, 2}));
    ASSERT_EQ(a.cases[0].problems.size(), 2u);
    EXPECT_EQ(a.cases[0].problems[0].line, 46u);
    EXPECT_EQ(a.cases[0].problems[0].schedule, "reverse");
    EXPECT_EQ(read->submissions[1].status, ui::SubmissionStatus::CompileError);
    EXPECT_EQ(read->submissions[2].status, ui::SubmissionStatus::Refused);
    EXPECT_EQ(read->submissions[3].status, ui::SubmissionStatus::Failed);
    EXPECT_FALSE(read->submissions[3].firstProblem);

    // Paths: under the results' parent, relative; elsewhere (the spec), absolute.
    const json j = json::parse(slurp(results / "class.json"));
    EXPECT_EQ(j["submissions"][0]["file"], "../submissions/alice.cu");
    EXPECT_EQ(j["assignment"]["spec"], fs::weakly_canonical(kSpecs / "class2d.toml").generic_string());
    // The cases' files: the spec's input and mask, bit for bit.
    ASSERT_EQ(read->cases.size(), spec->cases.size());
    for (std::size_t i = 0; i < spec->cases.size(); ++i) {
        const auto input = io::readNpy(read->cases[i].input);
        ASSERT_TRUE(input.ok()) << input.error().message;
        EXPECT_EQ(input->width, spec->cases[i].input.width);
        EXPECT_EQ(input->height, spec->cases[i].input.height);
        EXPECT_TRUE(input->data == spec->cases[i].input.data);
        const auto mask = io::readMask(read->cases[i].mask);
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        EXPECT_TRUE(mask->values == spec->cases[i].mask.values);
        EXPECT_EQ(mask->width, spec->cases[i].mask.width);
        EXPECT_EQ(read->cases[i].seed, spec->seed);
    }
    // Gradescope's output: each failed case ends with the command that runs it again.
    const json g = json::parse(slurp(results / "alice/results.json"));
    const std::string out = g["tests"][0]["output"];
    EXPECT_NE(out.find("tilescope check --kernel-file alice.cu --input cases/1-input.npy --mask cases/1-mask.txt "
                       "--schedule reverse\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("tilescope check --kernel-file alice.cu --size 45x37 --radius 2 --schedule reverse"),
              std::string::npos)
        << out;
    const json gb = json::parse(slurp(results / "bob/results.json"));
    EXPECT_EQ(gb["tests"][0]["output"].get<std::string>().find("tilescope check"), std::string::npos);

    // The hand-written fixture of the panel's tests (tests/grade/fixtures/class.json)
    // holds what grade writes: every key grade writes in every object of a
    // kind is in each of the fixture's objects of that kind, and each key the
    // fixture has, grade writes too, with a value of the same kind.
    {
        SCOPED_TRACE("the fixture's keys and kinds");
        std::map<std::string, std::map<std::string, std::set<std::string>>> written;  // place -> key -> kinds
        std::map<std::string, std::map<std::string, int>> always;                     // place -> key -> objects with it
        std::map<std::string, int> objects;
        auto kindOf = [](const json& v) -> std::string {
            if (v.is_number())
                return "number";
            return v.type_name();
        };
        std::function<void(const json&, const std::string&)> walk = [&](const json& v, const std::string& at) {
            if (v.is_array()) {
                for (const json& e : v)
                    walk(e, at + "[]");
            } else if (v.is_object()) {
                ++objects[at];
                for (const auto& [k, e] : v.items()) {
                    written[at][k].insert(kindOf(e));
                    ++always[at][k];
                    walk(e, at + "." + k);
                }
            }
        };
        walk(j, "");
        const fs::path fixtureFile = kSource / "tests/grade/fixtures/class.json";
        const json fixture = json::parse(slurp(fixtureFile));
        std::function<void(const json&, const std::string&)> check = [&](const json& v, const std::string& at) {
            if (v.is_array()) {
                for (const json& e : v)
                    check(e, at + "[]");
            } else if (v.is_object()) {
                for (const auto& [k, n] : always[at]) {
                    if (n == objects[at]) {
                        EXPECT_TRUE(v.contains(k)) << "the fixture's " << at << " lacks \"" << k << "\"";
                    }
                }
                for (const auto& [k, e] : v.items()) {
                    if (!written.count(at))
                        continue;  // a kind of object the unit class above does not hold
                    ASSERT_TRUE(written[at].count(k))
                        << "the fixture's " << at << " has \"" << k << "\", which grade does not write";
                    EXPECT_TRUE(written[at][k].count(kindOf(e)))
                        << at << "." << k << " is " << kindOf(e) << " in the fixture";
                    check(e, at + "." + k);
                }
            }
        };
        check(fixture, "");
        const auto readFixture = ui::readClassResults(fixtureFile);
        ASSERT_TRUE(readFixture.ok()) << readFixture.error().message;
        for (const ui::ClassCase& c : readFixture->cases) {
            EXPECT_TRUE(fs::is_regular_file(c.input)) << c.input;
            EXPECT_TRUE(fs::is_regular_file(c.mask)) << c.mask;
        }
    }
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
        EXPECT_EQ(rows[i][5], s["status"].get<std::string>());
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

// Each case's input and mask in the results' cases/, named by class.json's
// case, are the spec's own (read here from the spec, bit for bit), and the
// Class panel's reader takes the class.json grade wrote, its first problems
// and case files as grade wrote them.
static void caseFilesAreTheSpecsAndTheReaderTakesThem(const fs::path& results, const fs::path& specFile) {
    const auto spec = grade::readSpec(specFile);
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    const json j = json::parse(slurp(results / "class.json"));
    ASSERT_EQ(j["cases"].size(), spec->cases.size());
    for (std::size_t i = 0; i < spec->cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const grade::Case& c = spec->cases[i];
        const json& k = j["cases"][i];
        EXPECT_EQ(k["seed"], spec->seed);
        EXPECT_EQ(k["mask_source"], c.maskFile.empty() ? "generated" : c.maskFile);
        const auto input = io::readNpy(results / k["input"].get<std::string>());
        ASSERT_TRUE(input.ok()) << input.error().message;
        EXPECT_EQ(input->width, c.input.width);
        EXPECT_EQ(input->height, c.input.height);
        EXPECT_EQ(input->rank, spec->dims);
        EXPECT_TRUE(input->data == c.input.data);  // every float, exactly
        const auto mask = io::readMask(results / k["mask"].get<std::string>());
        ASSERT_TRUE(mask.ok()) << mask.error().message;
        EXPECT_EQ(mask->width, c.mask.width);
        EXPECT_EQ(mask->height, c.mask.height);
        EXPECT_TRUE(mask->values == c.mask.values);
    }
    // The spec lies outside the results' parent: absolute.
    EXPECT_TRUE(fs::path(j["assignment"]["spec"].get<std::string>()).is_absolute()) << j["assignment"]["spec"];

    const auto read = ui::readClassResults(results);
    ASSERT_TRUE(read.ok()) << read.error().message;
    ASSERT_EQ(read->submissions.size(), j["submissions"].size());
    for (std::size_t i = 0; i < read->cases.size(); ++i) {
        EXPECT_TRUE(fs::equivalent(read->cases[i].input, results / j["cases"][i]["input"].get<std::string>()));
        EXPECT_TRUE(fs::equivalent(read->cases[i].mask, results / j["cases"][i]["mask"].get<std::string>()));
        EXPECT_EQ(read->cases[i].seed, spec->seed);
    }
    int located = 0;
    for (std::size_t i = 0; i < read->submissions.size(); ++i) {
        const json& s = j["submissions"][i];
        const ui::ClassSubmission& m = read->submissions[i];
        SCOPED_TRACE(m.student);
        EXPECT_EQ(m.student, s["student"].get<std::string>());
        EXPECT_TRUE(fs::exists(m.file)) << m.file;
        ASSERT_EQ(m.firstProblem.has_value(), s.contains("first_problem"));
        if (!m.firstProblem)
            continue;
        ++located;
        const json& f = s["first_problem"];
        EXPECT_EQ(m.firstProblem->caseIndex, f["case"].get<std::size_t>());
        EXPECT_EQ(m.firstProblem->line, f["line"].get<unsigned>());
        EXPECT_EQ(m.firstProblem->block[0], f["block"][0].get<int>());
        EXPECT_EQ(m.firstProblem->thread[0], f["thread"][0].get<int>());
        EXPECT_EQ(m.firstProblem->thread[1], f["thread"][1].get<int>());
        EXPECT_EQ(m.firstProblem->step, f["step"].get<long long>());
        EXPECT_EQ(m.firstProblem->schedule, f["schedule"].get<std::string>());
        // It is one of its case's problems, placed at the same access.
        bool among = false;
        for (const json& p : s["cases"][f["case"].get<std::size_t>()]["problems"])
            among = among || (p.contains("step") && p["step"] == f["step"] && p["line"] == f["line"] &&
                              p["thread"] == f["thread"] && p["block"] == f["block"]);
        EXPECT_TRUE(among);
    }
    EXPECT_GT(located, 0);
}

// The command a student's results.json ends with, run as the student would
// (their file, the published cases/): `tilescope check` finds the first
// problem at the line and step class.json gives it.
static void theExplanationsCommandReproducesTheFirstProblem(const fs::path& results, const std::string& folder,
                                                            const fs::path& kernelFile, const fs::path& logs) {
    const json j = json::parse(slurp(results / "class.json"));
    const json* sub = nullptr;
    for (const json& s : j["submissions"])
        if (fs::path(s["file"].get<std::string>()).filename() == kernelFile.filename())
            sub = &s;
    ASSERT_NE(sub, nullptr);
    ASSERT_TRUE(sub->contains("first_problem"));
    const json& f = (*sub)["first_problem"];
    const json g = json::parse(slurp(results / folder / "results.json"));
    const std::string out = g["tests"][f["case"].get<std::size_t>()]["output"];
    const std::string lead = "  tilescope check --kernel-file " + kernelFile.filename().string() + " --input ";
    const std::size_t at = out.find(lead);
    ASSERT_NE(at, std::string::npos) << out;
    std::string command = out.substr(at + 2, out.find('\n', at) - at - 2);
    EXPECT_NE(out.find("--size " + j["cases"][f["case"].get<std::size_t>()]["size"].get<std::string>()),
              std::string::npos)
        << out;
    // Split on spaces (the file names hold none), the files as the student has them.
    std::vector<std::string> args;
    for (std::size_t b = 0; b < command.size();) {
        std::size_t e = command.find(' ', b);
        if (e == std::string::npos)
            e = command.size();
        std::string word = command.substr(b, e - b);
        if (word.rfind("cases/", 0) == 0)
            word = (results / word).string();
        else if (word == kernelFile.filename().string())
            word = kernelFile.string();
        args.push_back(word);
        b = e + 1;
    }
    ASSERT_GE(args.size(), 7u);
    EXPECT_EQ(args[0], "tilescope");
    EXPECT_EQ(args[1], "check");
    args.erase(args.begin());
    const Outcome o = runTilescope(args, logs);
    EXPECT_NE(o.code, 2) << o.err;
    // "..., lines 20 -> 31, steps 14 -> 22" (a race: the later access) or
    // "..., line 31, step 22" (one access).
    const std::string line = std::to_string(f["line"].get<unsigned>()),
                      step = std::to_string(f["step"].get<long long>());
    const bool race = o.out.find("-> " + line + ", steps ") != std::string::npos &&
                      o.out.find(" -> " + step + "\n") != std::string::npos;
    const bool one = o.out.find("line " + line + ", step " + step) != std::string::npos;
    EXPECT_TRUE(race || one) << command << "\n" << o.out;
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
        SCOPED_TRACE("case files and the Class panel's reader");
        caseFilesAreTheSpecsAndTheReaderTakesThem(G::s_dir->path() / "results", kSpecs / "class1d.toml");
        // The class lies beside the results: relative, without climbing further out.
        const json j = G::classJson();
        const std::string file = student(j, "racy_but_right")["file"];
        EXPECT_EQ(file, "../class/racy_but_right.cu");
    }
    {
        SCOPED_TRACE("the explanation's command");
        theExplanationsCommandReproducesTheFirstProblem(G::s_dir->path() / "results", "racy_but_right",
                                                        G::s_dir->path() / "class/racy_but_right.cu", G::s_dir->path());
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
    // A case that failed already is not timed, with a GPU or without: its time cannot change its grade.
    const std::string racyTimed = racy["cases"][1]["explanation"];
    EXPECT_NE(racyTimed.find("max_time_ratio 3: not timed (the case failed already)"), std::string::npos) << racyTimed;
    EXPECT_EQ(racyTimed.find("on the GPU"), std::string::npos) << racyTimed;
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
    // The first problem is the race's later access, the read at line 46.
    ASSERT_TRUE(racy.contains("first_problem"));
    EXPECT_EQ(racy["first_problem"]["line"], 46);
    // The submissions lie outside the results' parent: absolute paths, never "../../".
    EXPECT_TRUE(fs::path(racy["file"].get<std::string>()).is_absolute()) << racy["file"];
    caseFilesAreTheSpecsAndTheReaderTakesThem(dir / "results", kSpecs / "class2d.toml");
    theExplanationsCommandReproducesTheFirstProblem(dir / "results", "no_barrier",
                                                    kSource / "tests/grade/class2d/no_barrier.cu", dir.path());
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
// anything (bwrap named as a program that does not exist and Landlock
// turned off, on any machine);
// where one can, class.json names it.
TEST(GradeSandbox, RequiredWhereNoneCanBeHadRefusesBeforeGrading) {
    test::ScratchDir dir("grade_sandbox");
    const fs::path results = dir.path() / "results";
    const Outcome o = runTilescope({"grade", "--spec", (kSpecs / "class1d.toml").string(), "--out", results.string(),
                                    "--sandbox", "required", (kSource / "tests/grade/class1d").string()},
                                   dir.path(),
                                   {{"TILESCOPE_BWRAP", (dir.path() / "no-bwrap-here").string()},
                                    {"TILESCOPE_LANDLOCK", "off"}});
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
