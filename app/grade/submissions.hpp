// Finding the submissions in a folder: one .cu per student (the student is the
// file's stem) or one folder per student (the folder's name; its one .cu, or
// the one that defines launch()).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tilescope::grade {

// Files larger than this are refused: no kernel file of a course is.
constexpr std::uintmax_t kMaxSubmissionBytes = 1 << 20;

struct Submission {
    std::string student;           // as the file or folder is named (spaces and any letters kept)
    std::string folder;            // a safe name for results/<folder>/: ASCII letters, digits, '-', '_', '.'
    std::filesystem::path file;    // the kernel file; empty when refused before one was found
    std::filesystem::path source;  // what the student handed in: the file or the folder
    std::string refused;           // why the submission cannot be graded (empty: it can)
};

// The submissions of a class, sorted by student. A missing, unreadable or
// empty folder is an Error (the whole run stops); a bad submission is one
// with `refused` set (it scores 0, the others are graded).
Result<std::vector<Submission>> findSubmissions(const std::filesystem::path& folder);

// One student's submission in a folder of its own (Gradescope's
// /autograder/submission/): its .cu, or the one defining launch().
Submission singleSubmission(const std::filesystem::path& folder, const std::string& student);

// Checks a kernel file before it is compiled: empty, binary, too large.
// Returns the reason, or an empty string when it may be compiled.
std::string refuseFile(const std::filesystem::path& file);

// A name safe as a folder name on every system: letters other than ASCII,
// spaces and punctuation become '_'; never empty, never "." or "..".
std::string safeFolderName(const std::string& student);

}  // namespace tilescope::grade
