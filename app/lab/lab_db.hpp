// The lab's record in SQLite (docs/serve.md, The lab; the interface is
// lab_store.hpp): an SQLite database (Debian's libsqlite3) holding the
// roster with each student's token, the teacher's token, and every compile
// and check the server answered: who, when, the kernel's text and SHA-256,
// the verdict, the problems with their lines, the backend and the time it
// took. WAL, synchronous=FULL: a check is on the
// disk before its answer leaves, so a server killed mid-lab loses nothing.
//
// The schema carries its version in PRAGMA user_version and is brought up to
// kSchemaVersion by the migrations of lab_schema.hpp, in one transaction. A
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

#include "core/result.hpp"
#include "lab/lab_store.hpp"

struct sqlite3;

namespace tilescope::lab {

class LabDb final : public LabStore {
public:
    struct Options {
        int busyTimeoutMs = 5000;  // how long to wait for another writer before "locked"
        bool create = true;        // make the file when missing (else: "no such database")
    };
    // Opens (or makes) the database and brings its schema up to date.
    static Result<std::unique_ptr<LabDb>> open(const std::filesystem::path& path, const Options& options);
    static Result<std::unique_ptr<LabDb>> open(const std::filesystem::path& path) { return open(path, Options{}); }
    ~LabDb() override;
    LabDb(const LabDb&) = delete;
    LabDb& operator=(const LabDb&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::string describe() const override { return m_path.string(); }
    bool shared() const override { return false; }
    int schemaVersion() override;

    using LabStore::syncRoster;
    Result<std::vector<LabStudent>> syncRoster(const std::vector<RosterStudent>& roster,
                                               const RosterOrigin& origin) override;
    Result<std::vector<LabStudent>> students() override;
    Result<std::vector<LabStudent>> allStudents() override;
    Result<std::string> teacherToken(const std::string& given) override;

    Result<std::int64_t> record(const CheckRecord& check) override;
    Result<std::optional<CheckRecord>> check(std::int64_t id) override;
    Result<std::vector<CheckRecord>> checks(const std::string& student, bool everyone, std::int64_t afterId = 0,
                                            std::size_t limit = 100000) override;
    Result<std::vector<StudentNow>> classNow() override;
    Result<std::int64_t> lastCheckId() override;
    Result<bool> hasKernel(const std::string& hash) override;

private:
    LabDb(std::filesystem::path path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}
    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
    // The server's handlers take turns (a record is a few milliseconds).
    std::mutex m_mutex;
};

}  // namespace tilescope::lab
