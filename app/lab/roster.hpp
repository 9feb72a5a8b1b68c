// A class's roster (`tilescope serve --roster roster.csv`, docs/serve.md):
// one student a line, "id,name", an optional header line "id,name". Each
// student gets a token of their own; the links that carry the tokens are
// written beside the roster, readable by the teacher alone.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tilescope::lab {

// A roster larger than this is no class's.
constexpr std::size_t kMaxRosterBytes = 1 << 20;

struct RosterStudent {
    std::string id;     // letters, digits, '.', '-', '_'; starts with a letter or a digit
    std::string name;   // any UTF-8 text but control characters
    unsigned line = 0;  // where it stands in the roster
};

// Reads and checks the roster. Each problem is one line naming the file and
// the line: not UTF-8, a line that is not id,name, an id of other letters,
// an empty name, an id twice (compared without case, since ids become file
// names), no student at all.
Result<std::vector<RosterStudent>> readRoster(const std::filesystem::path& path);
// The same, on text already read; `fileName` names it in the messages.
Result<std::vector<RosterStudent>> parseRoster(std::string_view text, const std::string& fileName);

// Whether `id` may be a student's id (see RosterStudent::id).
bool validStudentId(std::string_view id);

// A new secret: 128 random bits from the kernel (getrandom), as 32 hex digits.
std::string newToken();

// Where the links of a roster go: beside it, "<stem>.links.csv" (id,name,link
// per student) and "<stem>.teacher.txt" (the teacher's link).
struct LinkFiles {
    std::filesystem::path students;
    std::filesystem::path teacher;
};
LinkFiles linkFilesFor(const std::filesystem::path& roster);

struct StudentLink {
    std::string id, name, token;
};
// Writes both files with mode 0600 (each written whole to a new file of that
// mode, then renamed over the old one): the tokens are the students'
// passwords. `base` is "http://host:port/"; a link is base + "#token=" + token.
Status writeLinkFiles(const LinkFiles& files, const std::string& base, const std::vector<StudentLink>& students,
                      const std::string& teacherToken);

// Writes `text` to `path` with mode 0600, atomically (a temporary file beside
// it, fsynced, renamed).
Status writePrivateFile(const std::filesystem::path& path, std::string_view text);

}  // namespace tilescope::lab
