// The lab's record (docs/serve.md, The lab): an SQLite database (Debian's
// libsqlite3) holding the roster with each student's token, the teacher's
// token, and every compile and check the server answered: who, when, the
// kernel's text and SHA-256, the verdict, the problems with their lines, the
// backend and the time it took. WAL, synchronous=FULL: a check is on the
// disk before its answer leaves, so a server killed mid-lab loses nothing.
//
// The schema carries its version in PRAGMA user_version and is brought up to
// kSchemaVersion by the migrations in lab_db.cpp, in one transaction. A
// database that cannot be used is one line each: locked by another program,
// read-only, not a database (or damaged), or from a newer TileScope.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/sha256.hpp"
#include "core/result.hpp"
#include "lab/roster.hpp"

struct sqlite3;

namespace tilescope::lab {

// 1: students, checks (the kernel's text in each), lab settings.
// 2: kernels kept once per text (a student sends the same file again and
//    again), each check's request and the kernel's own time, students who
//    left the roster kept but no longer let in.
constexpr int kSchemaVersion = 2;

struct LabStudent {
    std::string id, name, token;
    bool active = true;  // on the roster the server was last started with
};

// One compile or check the server answered.
struct CheckRecord {
    std::int64_t id = 0;
    std::string student;     // the roster's id; empty for the class's token (a server without a roster)
    std::string at;          // when it was answered, UTC: "2026-11-30T10:15:02.123Z"
    std::string kind;        // compile, check, run or trace
    std::string kernelHash;  // SHA-256 of the text, 64 hex digits
    std::string kernel;      // the text (filled by check(id) and picked(); empty in lists)
    std::string request;     // JSON: what was asked besides the kernel (size, radius, backend, ...)
    std::string verdict;     // clean, problems, refused, compiled, backend, internal
    std::string problems;    // JSON array: each problem group with its kind and lines, or the refusal's line
    std::string backend;     // where it ran: "cpu", "cuda (NVIDIA H200)"; empty when nothing ran
    double ms = 0;           // from the request's arrival to its answer
    double kernelMs = -1;    // the kernel's own time; -1 when it did not run
};

// Which of a student's kernels `lab export` grades.
enum class Pick {
    Last,  // the last one they sent
    Best,  // the last of those whose check answered best: clean, then problems, then compiled, then the rest
};

class LabDb {
public:
    struct Options {
        int busyTimeoutMs = 5000;  // how long to wait for another writer before "locked"
        bool create = true;        // make the file when missing (else: "no such database")
    };
    // Opens (or makes) the database and brings its schema up to date.
    static Result<std::unique_ptr<LabDb>> open(const std::filesystem::path& path, const Options& options);
    static Result<std::unique_ptr<LabDb>> open(const std::filesystem::path& path) { return open(path, Options{}); }
    ~LabDb();
    LabDb(const LabDb&) = delete;
    LabDb& operator=(const LabDb&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    int schemaVersion();

    // The roster the server starts with: each student already known keeps
    // their token (a restart changes no link) and gets the roster's name; a
    // new one gets a new token; one no longer on it is kept, with their
    // checks, but let in no more. Returns the active students, in roster order.
    Result<std::vector<LabStudent>> syncRoster(const std::vector<RosterStudent>& roster);
    // The students let in, in the order they were added.
    Result<std::vector<LabStudent>> students();
    // Every student ever on the roster, active or not.
    Result<std::vector<LabStudent>> allStudents();
    // The teacher's token: `given` when not empty (kept from then on), else
    // the one kept, else a new one (kept).
    Result<std::string> teacherToken(const std::string& given);

    // Records a compile or check (its id and `at` are the database's); returns its id.
    Result<std::int64_t> record(const CheckRecord& check);
    // One record with its kernel's text; nothing when there is no such id.
    Result<std::optional<CheckRecord>> check(std::int64_t id);
    // The records of one student (empty `student`: everyone's), oldest first,
    // without the kernels' text; only those after `afterId`, at most `limit`.
    Result<std::vector<CheckRecord>> checks(const std::string& student, bool everyone, std::int64_t afterId = 0,
                                            std::size_t limit = 100000);
    // Each active student's kernel as `pick` chooses, with its text, in roster
    // order; students who sent none are left out.
    Result<std::vector<CheckRecord>> picked(Pick pick);

    // The class now (GET /api/class): each student who sent anything, with
    // how many compiles and checks they sent and their latest record that
    // says how the kernel does: the latest that is not a compile alone (a
    // compile that passed says less than the run that follows it), else the
    // latest. Without the kernels' text.
    struct StudentNow {
        std::int64_t checks = 0;
        CheckRecord last;
    };
    Result<std::vector<StudentNow>> classNow();
    // The newest record's id (0: none).
    Result<std::int64_t> lastCheckId();
    // Whether a kernel of this SHA-256 was ever sent (the teacher may run again what a student sent).
    Result<bool> hasKernel(const std::string& hash);

private:
    LabDb(std::filesystem::path path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}
    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
    // The server's handlers take turns (a record is a few milliseconds).
    std::mutex m_mutex;
};

// SHA-256 of `text`, as 64 hex digits (base/sha256.hpp).
using base::sha256Hex;

// "2026-11-30T10:15:02.123Z", now.
std::string utcNowMillis();

}  // namespace tilescope::lab
