#include "grade/submissions.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "io/whole_file.hpp"

namespace tilescope::grade {

namespace fs = std::filesystem;

namespace {

bool isKernelFile(const fs::directory_entry& e) {
    std::error_code ec;
    return e.path().extension() == ".cu" && !e.is_directory(ec);
}

bool hidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.empty() || name[0] == '.' || name == "__MACOSX";
}

// Whether the text defines a host launch( function: the word, then '(',
// outside a comment. Enough to choose among a student's files.
bool definesLaunch(const fs::path& file) {
    auto text = io::readFileText(file, kMaxSubmissionBytes);
    if (!text)
        return false;
    const std::string& s = *text;
    std::size_t at = 0;
    while ((at = s.find("launch", at)) != std::string::npos) {
        const bool wordStart = at == 0 || !(std::isalnum(static_cast<unsigned char>(s[at - 1])) || s[at - 1] == '_');
        std::size_t k = at + 6;
        while (k < s.size() && (s[k] == ' ' || s[k] == '\t'))
            ++k;
        const std::size_t lineStart = s.rfind('\n', at) == std::string::npos ? 0 : s.rfind('\n', at) + 1;
        const bool commented = s.substr(lineStart, at - lineStart).find("//") != std::string::npos;
        if (wordStart && k < s.size() && s[k] == '(' && !commented &&
            s.substr(lineStart, at - lineStart).find("void") != std::string::npos)
            return true;
        at += 6;
    }
    return false;
}

}  // namespace

std::string safeFolderName(const std::string& student) {
    std::string out;
    for (unsigned char c : student) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.';
        if (ok) {
            out += static_cast<char>(c);
        } else if (c < 0x80 || (c & 0xC0) == 0xC0) {
            // One '_' per character (a UTF-8 sequence's lead byte, or an ASCII one).
            out += '_';
        }
    }
    if (out.empty() || out == "." || out == "..")
        out = "_" + out;
    if (out[0] == '.')
        out[0] = '_';
    return out;
}

std::string refuseFile(const fs::path& file) {
    std::error_code ec;
    // A link is read where it points, outside the submission (a zip can
    // hold one to /etc/passwd, or to the grader's own files), and a
    // refusal's compiler message would quote what it read.
    if (fs::is_symlink(fs::symlink_status(file, ec)))
        return file.filename().string() + " is a link to another file: hand in the kernel file itself";
    const std::uintmax_t bytes = fs::file_size(file, ec);
    if (ec)
        return "cannot read " + file.filename().string() + ": " + ec.message();
    if (bytes > kMaxSubmissionBytes)
        return file.filename().string() + " is " + std::to_string(bytes / 1024) +
               " KiB; a kernel file may be at most 1 MiB";
    auto text = io::readFileText(file, kMaxSubmissionBytes);
    if (!text)
        return text.error().message;
    if (text->find_first_not_of(" \t\r\n\f\v") == std::string::npos)
        return file.filename().string() + " is empty: there is no kernel to grade";
    if (text->find('\0') != std::string::npos)
        return file.filename().string() + " is not a text file (it holds binary data): hand in the .cu source";
    return {};
}

Submission singleSubmission(const fs::path& folder, const std::string& student) {
    Submission s;
    s.student = student;
    s.folder = safeFolderName(student);
    s.source = folder;
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (hidden(it->path())) {
            if (it->is_directory(ec))
                it.disable_recursion_pending();
            continue;
        }
        if (isKernelFile(*it))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        s.refused = "no .cu file in " + folder.filename().string() + "/";
        return s;
    }
    if (files.size() == 1) {
        s.file = files.front();
    } else {
        std::vector<fs::path> withLaunch;
        for (const fs::path& f : files)
            if (definesLaunch(f))
                withLaunch.push_back(f);
        std::string names;
        for (const fs::path& f : (withLaunch.empty() ? files : withLaunch))
            names += (names.empty() ? "" : ", ") + fs::relative(f, folder, ec).string();
        if (withLaunch.size() != 1) {
            s.refused = std::to_string(files.size()) + " .cu files (" + names + ") and " +
                        (withLaunch.empty() ? "none" : std::to_string(withLaunch.size())) +
                        " defining launch(): hand in one kernel file, or one defining launch()";
            return s;
        }
        s.file = withLaunch.front();
    }
    s.refused = refuseFile(s.file);
    return s;
}

Result<std::vector<Submission>> findSubmissions(const fs::path& folder) {
    std::error_code ec;
    if (folder.empty())
        return badInput("give the folder of submissions (or --gradescope)");
    if (!fs::exists(folder, ec))
        return badInput(folder.string() + ": no such folder of submissions");
    if (!fs::is_directory(folder, ec))
        return badInput(folder.string() +
                        ": not a folder; give the folder that holds one .cu or one folder per "
                        "student");
    std::map<std::string, std::vector<fs::directory_entry>> byStudent;
    fs::directory_iterator it(folder, ec);
    if (ec)
        return badInput(folder.string() + ": cannot read the folder: " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            return badInput(folder.string() + ": cannot read the folder: " + ec.message());
        if (hidden(it->path()))
            continue;
        if (it->is_directory(ec))
            byStudent[it->path().filename().string()].push_back(*it);
        else if (isKernelFile(*it))
            byStudent[it->path().stem().string()].push_back(*it);
    }
    if (byStudent.empty())
        return badInput(folder.string() + ": no submissions in it (one .cu or one folder per student)");
    std::vector<Submission> out;
    std::set<std::string> folders;
    for (auto& [student, entries] : byStudent) {
        Submission s;
        if (entries.size() > 1) {
            s.student = student;
            s.folder = safeFolderName(student);
            s.source = entries.front().path();
            std::string names;
            for (const auto& e : entries)
                names +=
                    (names.empty() ? "" : " and ") + e.path().filename().string() + (e.is_directory(ec) ? "/" : "");
            s.refused = "two submissions for " + student + ": " + names + "; keep one";
        } else if (entries.front().is_symlink(ec) && entries.front().is_directory(ec)) {
            s.student = student;
            s.folder = safeFolderName(student);
            s.source = entries.front().path();
            s.refused = student + "/ is a link to another folder: hand in the folder itself";
        } else if (entries.front().is_directory(ec)) {
            s = singleSubmission(entries.front().path(), student);
        } else {
            s.student = student;
            s.folder = safeFolderName(student);
            s.source = s.file = entries.front().path();
            s.refused = refuseFile(s.file);
        }
        // Two names that become the same safe name: the second gets a number.
        std::string base = s.folder;
        for (int n = 2; !folders.insert(s.folder).second; ++n)
            s.folder = base + "-" + std::to_string(n);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace tilescope::grade
