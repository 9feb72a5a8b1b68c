// Grading a class, as `tilescope grade` does it, for every command that
// grades one: `grade` on a folder of submissions, and `lab export` on each
// student's kernel kept by the lab's server (docs/grading.md). One grader,
// one set of reports.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "own/sandbox.hpp"

namespace tilescope::cli {

struct ClassGrading {
    std::filesystem::path out = "results";  // the results folder
    std::filesystem::path submissions;      // the folder graded, as class.json names it
    int jobs = 0;                           // submissions at once; 0: one per core
    own::SandboxMode sandbox = own::SandboxMode::Required;
    double timeLimit = 0;      // seconds a run may take; 0: the spec's
    bool selfChecked = false;  // the caller ran the self-check already
};

// The sandbox of a class's grading: --sandbox's text, else `required` (with
// Gradescope, `auto`), refused where required and none can be had.
Result<own::SandboxMode> gradingSandbox(const std::string& text, bool gradescope);

// What class.json and the summary say of the sandbox the class ran in.
std::string sandboxName(own::SandboxMode mode);

// --out: a folder, or nothing yet (it is made); anything else is bad input.
Status checkResultsFolder(const std::filesystem::path& out);

// The self-check (request/self_check.hpp) in the sandbox grading uses, with the
// GPU where a case of the spec times the kernel there; says what it did on
// stderr.
Status gradingSelfCheck(const grade::Spec& spec, own::SandboxMode sandbox, double timeLimit);

// Grades `submissions` against `spec` and writes grade's reports into
// `how.out`: each student's line on stdout as graded, then the summary.
// Returns the exit code (0: grading completed, whatever the scores).
int gradeClass(const grade::Spec& spec, const std::vector<grade::Submission>& submissions, const ClassGrading& how);

}  // namespace tilescope::cli
