// A graded class, as `tilescope grade` writes it into results/class.json
// (docs/class-json.md is the contract) and the Class panel shows it: the
// file read and checked, with one message naming the file and what is wrong
// with it (not JSON, another format or version, a key missing or of the
// wrong type, a file too large), never a crash; the paths resolved against
// class.json's folder; and what the panel draws, worked out here without a
// window: the score histogram's bins, the patterns most students first with
// their sentence, the rows of one pattern, the summary counts.
//
// Plain data, no ImGui: the model tests read it without a display.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tilescope::ui {

// The largest class.json read: a class of a thousand students with every
// problem of every case is a few megabytes.
inline constexpr std::size_t kMaxClassJsonBytes = 64u << 20;

// One case of the assignment: the input size and the mask's radius it runs with.
struct ClassCase {
    std::string name;  // "45x37, radius 2"
    std::string size;  // "45x37" (2D) or "1000" (1D)
    int width = 0;     // from `size`
    int height = 1;
    int radius = 0;
    double points = 0;
    // The case's own input and mask as grade wrote them (cases/1-input.npy,
    // cases/1-mask.txt), resolved like `file`; empty where class.json names
    // none (then a row's click uses the built-in photo at the case's size).
    std::filesystem::path input, mask;
    unsigned seed = 0;  // the spec's: of the generated input and mask, and of the random warp order
    int block = 0;      // blockDim the case asks for (0: the kernel's own)
};

// One problem group of a case: its kind, the two lines, and where the first one is.
struct ClassProblem {
    std::string kind;   // "shared_race", ...
    std::string order;  // "read after write" (empty for kinds without one)
    std::string array;
    unsigned firstLine = 0, secondLine = 0;
    long long count = 0;
    std::array<int, 2> block{};
    std::array<int, 2> thread{};
    unsigned line = 0;  // the line of the access where its first problem happens (0: not located)
    long long step = 0;
    std::string schedule;  // the warp order that found it: in-order, reverse, random
    std::string pattern;   // the key of ClassResults::patterns it belongs to
};

struct ClassCaseResult {
    std::string name;
    bool passed = false;
    double score = 0, points = 0;
    std::string explanation;
    std::vector<ClassProblem> problems;
};

enum class SubmissionStatus { Graded, CompileError, Refused, Failed };
// "graded", "compile error", "refused", "failed"
const char* statusLabel(SubmissionStatus status);

// Where the step-through opens for a student: the case, and the first
// problem's place in it: the block, thread, line and replay step of the
// access where it happens (a race's later access in replay order, as check
// prints "lines 20 -> 31, steps 14 -> 22": line 31, step 22), under the warp
// order that found it.
struct FirstProblem {
    std::size_t caseIndex = 0;
    unsigned line = 0;
    std::array<int, 2> block{};
    std::array<int, 2> thread{};
    long long step = 0;
    std::string schedule = "in-order";  // in-order, reverse or random (the case's seed)
};

struct ClassSubmission {
    std::string student;
    std::filesystem::path file;  // resolved: absolute, or as given when class.json's folder is relative
    SubmissionStatus status = SubmissionStatus::Graded;
    double score = 0, maxScore = 0;
    std::string message;
    std::vector<ClassCaseResult> cases;
    std::optional<FirstProblem> firstProblem;  // absent for a clean submission
    // Whether one of its problems is of the pattern `key`.
    bool hasPattern(std::string_view key) const;
};

struct ClassPattern {
    std::string key;  // "shared_race/read after write/halo load/tile use/no barrier"
    std::string kind;
    std::string text;  // "shared race, read at the tile's use, written at the halo load, no barrier between them"
    std::vector<std::string> students;
};

struct ClassResults {
    std::filesystem::path file;    // the class.json read
    std::filesystem::path folder;  // the folder relative paths are resolved against
    std::string assignment;        // its name: "exercise-10"
    int dims = 2;
    std::string gradedAt;
    std::string tilescopeVersion;
    double maxScore = 0;
    std::vector<ClassCase> cases;
    std::vector<ClassSubmission> submissions;
    std::vector<ClassPattern> patterns;
};

// Reads class.json, or the class.json of a results folder. The error, one
// line, names the file: "results/class.json: submissions[3].score is a
// string, not a number".
Result<ClassResults> readClassResults(const std::filesystem::path& fileOrFolder);
// The same from text already read (`file` names it in messages and gives the folder).
Result<ClassResults> parseClassResults(std::string_view text, const std::filesystem::path& file);

// [SECTION] What the panel shows

struct ClassSummary {
    int submissions = 0;
    int graded = 0, compileErrors = 0, refused = 0, failed = 0;
    int clean = 0;                // every case passed
    double mean = 0, median = 0;  // of every submission's score (0 for one that did not run)
};
ClassSummary summarize(const ClassResults& results);

// One bar of the score histogram: the submissions whose score lies in [low, high)
// (the last bar includes max_score).
struct ScoreBin {
    double low = 0, high = 0;
    int count = 0;
    std::string label;  // "6" for a bin of one score, "4-5" for a range
};
// One bin per whole score from 0 to max_score when it is at most 20, else
// ten equal bins.
std::vector<ScoreBin> scoreHistogram(const ClassResults& results);

struct PatternRow {
    std::size_t pattern = 0;  // index into results.patterns
    int students = 0;
    std::string sentence;  // "31 of 120 submissions: shared race, ..."
};
// The patterns, most students first (then in the file's order).
std::vector<PatternRow> patternsByCount(const ClassResults& results);
// "31 of 120 submissions: <text>" ("1 of 120 submissions", "1 of 1 submission").
std::string patternSentence(int students, int submissions, const std::string& text);

// The submissions (indices) to list: all of them, or those with the pattern `key`.
std::vector<std::size_t> rowsWithPattern(const ClassResults& results, const std::optional<std::string>& key);

}  // namespace tilescope::ui

namespace tilescope::ui {

struct LiveClass;

// The Class panel's state, as plain data: the class open (null: none), the
// pattern the rows are filtered by, and what the last open or click said.
struct ClassView {
    std::shared_ptr<const ClassResults> results;
    std::optional<std::string> pattern;  // the chosen pattern's key (none: every submission)
    std::string problem;                 // why the last class.json could not be opened (shown in the panel)
    std::string note;                    // what a click on a row did: "alice's missing_syncthreads.cu, 45x37, radius 2"
    std::optional<std::size_t> opened;   // the submission opened last (its row stays marked)
    std::string pathField;               // File > Open class results...: the path typed
    bool focusPath = false;
    // The class now, followed from a running server (model/live_class.hpp;
    // the panel's live view, docs/serve.md): null until its first answer,
    // and then drawn instead of a graded class.
    std::shared_ptr<const LiveClass> live;
    bool liveWaiting = false;                // asked, and no answer yet (a screenshot waits for it)
    std::string liveWhere;                   // the server: "labpc:8000"
    std::string liveStatus;                  // what went wrong last ("": nothing)
    bool names = false;                      // the students' names shown (hidden by default: a projector)
    std::optional<std::string> livePattern;  // the chosen problem's key (none: every student)
    std::optional<std::string> liveOpened;   // the student whose kernel was opened last (their id)
};

}  // namespace tilescope::ui
