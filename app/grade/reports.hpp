// What grading writes: Gradescope's results.json per student (or
// PrairieLearn's, for one submission), junit.xml for CI, class.csv for a
// spreadsheet and class.json for the Class panel (docs/class-json.md). Each
// file is written to a temporary name and renamed, so a failure leaves the
// files of an earlier run as they were.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "grade/grader.hpp"
#include "grade/spec.hpp"

namespace tilescope::grade {

using Json = nlohmann::ordered_json;

struct ClassRun {
    const Spec* spec = nullptr;
    std::filesystem::path submissions;      // the folder graded
    std::vector<SubmissionResult> results;  // sorted by student
    std::string gradedAt;                   // "2026-11-26T23:00:00Z"
    std::string sandbox = "none";
};

// Gradescope's results.json for one submission: each failed case's output
// ends with the `tilescope check` command that runs it again.
Json gradescopeJson(const SubmissionResult& result, const Spec& spec);
// PrairieLearn's external grader results.json for one submission: gradable,
// score (0 to 1), message, and tests with points and max_points. A refused
// or non-compiling file is not gradable (format_errors says why), as
// PrairieLearn asks for input that cannot be graded.
Json prairielearnJson(const SubmissionResult& result, const Spec& spec);

// Where writeReports puts case `index` (from 0), relative to the results
// folder: "cases/1-input.npy" (io::writeNpy) and "cases/1-mask.txt" (rows of
// weights, io::readMask's text format).
std::string caseInputFile(std::size_t index);
std::string caseMaskFile(std::size_t index);
std::string junitXml(const ClassRun& run);
std::string classCsv(const ClassRun& run);
Json classJson(const ClassRun& run, const std::filesystem::path& outFolder);

// Writes each case's input and mask into cases/, results/<student>/results.json
// for each, then junit.xml, class.csv and class.json into `outFolder` (made
// if missing).
Status writeReports(const ClassRun& run, const std::filesystem::path& outFolder);

// The JSON text of `j`, two-space indented, ending in a newline. A byte that
// is not UTF-8 (a file name, a compiler's quote of a Latin-1 comment) becomes
// U+FFFD rather than stopping the write.
std::string jsonText(const Json& j);

// Text as XML character data or an attribute value: & < > " ' escaped, and
// characters XML 1.0 cannot hold (controls other than tab and newlines) left out.
std::string xmlEscape(const std::string& text);

// "2026-11-26T23:00:00Z", now.
std::string utcNow();

}  // namespace tilescope::grade
