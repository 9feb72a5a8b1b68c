// Grading a submission: compiled once, then each case of the spec run with
// every thread traced under three orders of the warps (in order, reversed,
// random), the problem detector's findings held against the case's
// requirements, and the explanation written in the student's words.
// docs/grading.md says how a case is judged.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "own/sandbox.hpp"

namespace tilescope::grade {

// One problem group of a case (class.json's `problems`): the kind, the order,
// the array and the two lines, with the block, thread and step of its first
// problem and the pattern that groups it across students.
struct CaseProblem {
    std::string kind;   // "shared_race", ..., or "not_tiled", "crashed", "time_limit", "run_error"
    std::string order;  // "read after write", ... or "none"
    std::string array;  // "N_ds", or "" where there is none
    unsigned firstLine = 0, secondLine = 0;
    std::uint64_t count = 0;
    std::array<unsigned, 2> block{}, thread{};
    // Where its first problem happens (ProblemReport::at(): the later access
    // of a race in replay order, the one access of an out-of-bounds or
    // uninitialised read, the thread that misses the barrier): its block,
    // thread, line and replay step, under the warp order that found it.
    unsigned line = 0;
    std::uint32_t step = 0;
    std::string schedule = "in-order";  // in-order, reverse, random (the spec's seed), as check's --schedule
    bool located = false;               // block, thread, line and step are known
    std::string pattern;                // "shared_race/write after write/halo load/halo load/no barrier"
};

struct CaseResult {
    std::string name;
    int points = 0;
    int score = 0;
    bool passed = false;
    std::string explanation;  // one or more lines, in the student's words
    std::vector<CaseProblem> problems;
    bool outputRight = false;    // under every warp order that ran
    bool raced = false;          // a race or a barrier mismatch was found
    double loadsPerOutput = -1;  // loads of N from global memory per output written (-1: not measured)
    double basicLoadsPerOutput = -1;
    std::string timeRatio;  // "not checked (...)" when the spec asks for max_time_ratio
    // Where the problem the explanation names first happens (its access
    // ProblemReport::at(), under the warp order that found it): the
    // step-through's starting point. Empty when no problem of the trace failed it.
    struct Place {
        unsigned line = 0;
        std::array<unsigned, 2> block{}, thread{};
        std::uint32_t step = 0;
        std::string schedule = "in-order";
    };
    std::optional<Place> first;
};

struct SubmissionResult {
    Submission submission;
    std::string status = "graded";  // graded, compile_error, refused, failed
    int score = 0;
    int maxScore = 0;
    std::string message;  // the compiler's line, or why the file was refused
    std::vector<CaseResult> cases;
    double seconds = 0;
    // The step-through's starting point: the first problem of the first failing case.
    struct First {
        int caseIndex = 0;
        unsigned line = 0;
        std::array<unsigned, 2> block{}, thread{};
        std::uint32_t step = 0;
        std::string schedule = "in-order";
    };
    std::optional<First> firstProblem;
    // A short reason for the summary line: "passed", "3 of 4 cases: ..."
    std::string reason;
};

// The book's basic kernel at each case's size and radius: its loads of N per
// output, the bar a tiled kernel must pass. A case the basic kernel cannot
// run is an error naming the spec's line.
struct Baseline {
    double loadsPerOutput = 0;
};
Result<std::vector<Baseline>> measureBaselines(const Spec& spec);

struct GradeOptions {
    // The sandbox each submission's translation, compile and runs go in
    // (kernels/own/sandbox.hpp): required unless the command line says otherwise.
    own::SandboxMode sandbox = own::SandboxMode::Required;
    double timeLimitSeconds = 10.0;
    const std::atomic<bool>* cancel = nullptr;
};

SubmissionResult gradeSubmission(const Spec& spec, const std::vector<Baseline>& baselines, const Submission& submission,
                                 const GradeOptions& options);

// Grades every submission, `jobs` at a time (each on a thread of its own; the
// kernels run in worker processes), calling `onGraded` as each is done (from
// the grading threads, one call at a time). The results come back sorted by
// student.
std::vector<SubmissionResult> gradeAll(const Spec& spec, const std::vector<Baseline>& baselines,
                                       const std::vector<Submission>& submissions, int jobs,
                                       const GradeOptions& options,
                                       const std::function<void(const SubmissionResult&)>& onGraded = {});

// The pattern's sentence, for the Class panel: "shared race, written at the
// halo load, written at the halo load, no barrier between them".
std::string patternText(const std::string& key);

}  // namespace tilescope::grade
