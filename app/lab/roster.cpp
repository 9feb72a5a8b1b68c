#include "lab/roster.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "io/csv_field.hpp"
#include "io/whole_file.hpp"

namespace tilescope::lab {

namespace fs = std::filesystem;

namespace {

// The length of the UTF-8 sequence that starts at text[i], or 0 when it is
// not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF).
std::size_t utf8Length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) >= 0xA0) || (c == 0xF0 && byte(i + 1) < 0x90) ||
        (c == 0xF4 && byte(i + 1) >= 0x90))
        return 0;
    return n;
}

std::string trimmed(std::string_view s) {
    const std::size_t begin = s.find_first_not_of(" \t");
    if (begin == std::string_view::npos)
        return {};
    const std::size_t end = s.find_last_not_of(" \t");
    return std::string(s.substr(begin, end - begin + 1));
}

std::string lowered(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// One line's fields, RFC 4180's way: a field in double quotes may hold
// commas, and "" stands for a quote. False when a quote is left open or
// text follows a closing quote.
bool splitFields(std::string_view line, std::vector<std::string>& fields) {
    fields.clear();
    std::size_t i = 0;
    for (;;) {
        std::string field;
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i < line.size() && line[i] == '"') {
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                return false;
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i < line.size() && line[i] != ',')
                return false;
            fields.push_back(field);
        } else {
            const std::size_t comma = line.find(',', i);
            fields.push_back(
                trimmed(line.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i)));
            i = comma == std::string_view::npos ? line.size() : comma;
        }
        if (i >= line.size())
            return true;
        ++i;  // the comma
    }
}

}  // namespace

bool validStudentId(std::string_view id) {
    if (id.empty() || id.size() > 64)
        return false;
    for (std::size_t i = 0; i < id.size(); ++i) {
        const char c = id[i];
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '-' && c != '_')))
            return false;
    }
    return true;
}

Result<std::vector<RosterStudent>> parseRoster(std::string_view text, const std::string& fileName) {
    // The encoding first, for the whole file: a roster saved as Latin-1 by a
    // spreadsheet would otherwise give names that are not what was typed.
    unsigned line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8Length(text, i);
        if (n == 0) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[i]));
            return badInput(fileName + ":" + std::to_string(line) + ": not UTF-8 (the byte " + byte +
                            "): save the roster as UTF-8 (a spreadsheet's \"CSV UTF-8\")");
        }
        line += text[i] == '\n';
        i += n;
    }
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);  // the byte order mark spreadsheets write

    std::vector<RosterStudent> students;
    std::map<std::string, unsigned> seen;  // lower-cased id -> its line
    std::vector<std::string> fields;
    line = 0;
    bool first = true;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view raw = text.substr(start, end - start);
        start = end + 1;
        ++line;
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        if (trimmed(raw).empty())
            continue;
        const std::string where = fileName + ":" + std::to_string(line) + ": ";
        for (char c : raw)
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
                return badInput(where + "a control character in the line; a line is id,name");
        if (!splitFields(raw, fields))
            return badInput(where +
                            "a quote is not closed, or text follows it; a line is id,name (quote a name "
                            "holding a comma: s123,\"Ng, Zoe\")");
        const bool header = first && fields.size() == 2 && lowered(fields[0]) == "id" && lowered(fields[1]) == "name";
        first = false;
        if (header)
            continue;
        if (fields.size() != 2)
            return badInput(where + std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") +
                            "; a line is id,name (quote a name holding a comma: s123,\"Ng, Zoe\")");
        RosterStudent s{fields[0], fields[1], line};
        if (s.id.empty())
            return badInput(where + "the id is empty; a line is id,name");
        if (!validStudentId(s.id))
            return badInput(where + "the id '" + s.id +
                            "' may hold only letters, digits, '.', '-' and '_' (starting with a letter or a digit, at "
                            "most 64): it names the student's files");
        if (s.name.empty())
            return badInput(where + "student " + s.id + " has an empty name");
        if (s.name.size() > 200)
            return badInput(where + "the name of student " + s.id + " is over 200 bytes");
        auto [at, fresh] = seen.try_emplace(lowered(s.id), line);
        if (!fresh)
            return badInput(where + "the id " + s.id + " is on line " + std::to_string(at->second) +
                            " too; each student once");
        students.push_back(std::move(s));
    }
    if (students.empty())
        return badInput(fileName + ": no students; write one a line: id,name");
    return students;
}

Result<std::vector<RosterStudent>> readRoster(const fs::path& path) {
    auto text = io::readFileText(path, kMaxRosterBytes);
    if (!text)
        return text.error();
    return parseRoster(*text, path.string());
}

std::string newToken() {
    unsigned char bytes[16];
    std::size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            std::abort();  // no randomness to be had: no secret can be made
        got += static_cast<std::size_t>(n);
    }
    static const char digits[] = "0123456789abcdef";
    std::string token;
    for (unsigned char b : bytes) {
        token += digits[b >> 4];
        token += digits[b & 15];
    }
    return token;
}

LinkFiles linkFilesFor(const fs::path& roster) {
    const fs::path folder = roster.parent_path();
    const std::string stem = roster.stem().string();
    return LinkFiles{folder / (stem + ".links.csv"), folder / (stem + ".teacher.txt")};
}

Status writePrivateFile(const fs::path& path, std::string_view text) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return badInput(path.string() + ": is a folder");
    std::string temp = ((path.parent_path().empty() ? fs::path(".") : path.parent_path()) /
                        ("." + path.filename().string() + ".XXXXXX"))
                           .string();
    const int fd = ::mkstemp(temp.data());  // made with mode 0600
    if (fd < 0)
        return badInput(path.string() + ": cannot write beside it: " + std::strerror(errno));
    bool ok = ::fchmod(fd, 0600) == 0;
    for (std::size_t done = 0; ok && done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        if (ok)
            done += static_cast<std::size_t>(n);
    }
    ok = ok && ::fsync(fd) == 0;
    const int savedErrno = errno;
    ::close(fd);
    if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(ok ? errno : savedErrno);
        ::unlink(temp.c_str());
        return badInput(path.string() + ": cannot write it: " + why);
    }
    return success();
}

Status writeLinkFiles(const LinkFiles& files, const std::string& base, const std::vector<StudentLink>& students,
                      const std::string& teacherToken) {
    std::string csv = "id,name,link\n";
    for (const StudentLink& s : students)
        csv += io::csvField(s.id) + "," + io::csvField(s.name) + "," + base + "#token=" + s.token + "\n";
    if (Status w = writePrivateFile(files.students, csv); !w)
        return w;
    const std::string teacher = "The teacher's link (it reads every student's checks: keep it to yourself):\n" + base +
                                "#token=" + teacherToken + "\n";
    return writePrivateFile(files.teacher, teacher);
}

}  // namespace tilescope::lab
