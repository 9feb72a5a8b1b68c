#include "lab/lab_db.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "lab/lab_schema.hpp"

namespace tilescope::lab {

namespace fs = std::filesystem;

// [SECTION] The schema and its migrations
// [SECTION] Errors
// [SECTION] Statements
// [SECTION] Opening
// [SECTION] The roster and the tokens
// [SECTION] The records

namespace {

// [SECTION] The schema and its migrations: lab_schema.hpp

// [SECTION] Errors

// One line for what SQLite answered, in the teacher's words where the cause
// is one they can fix.
Error dbError(const fs::path& path, int rc, const std::string& detail) {
    const std::string name = path.string();
    switch (rc & 0xFF) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return badInput(name +
                            ": locked by another program (another tilescope serve, or an open sqlite3 shell, holds "
                            "it): close it, or give another --db");
        case SQLITE_READONLY:
            return badInput(name +
                            ": read-only (the file or its folder cannot be written by this user): the lab's "
                            "checks could not be kept; give a --db that can be written");
        case SQLITE_NOTADB:
        case SQLITE_CORRUPT:
            return badInput(name +
                            ": not a TileScope lab database (not SQLite, or damaged): give another --db (a "
                            "new file is made where none is)");
        case SQLITE_CANTOPEN: {
            // The file is there but its journal cannot be made beside it.
            std::error_code ec;
            if (fs::exists(path, ec))
                return dbError(path, SQLITE_READONLY, detail);
            return badInput(name + ": cannot make it (" + detail + "): is its folder there, and writable?");
        }
        case SQLITE_FULL:
            return badInput(name + ": the disk is full");
        default:
            return badInput(name + ": " + detail);
    }
}

// [SECTION] Statements

class Statement {
public:
    Statement(sqlite3* db, const char* sql) : m_db(db) { m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr); }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool prepared() const { return m_rc == SQLITE_OK; }
    int rc() const { return m_rc; }
    Statement& bind(int i, std::string_view text) {
        sqlite3_bind_text(m_stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    Statement& bind(int i, double v) {
        sqlite3_bind_double(m_stmt, i, v);
        return *this;
    }
    // SQLITE_ROW, SQLITE_DONE, or an error code.
    int step() {
        m_rc = sqlite3_step(m_stmt);
        return m_rc;
    }
    std::string text(int column) const {
        const unsigned char* t = sqlite3_column_text(m_stmt, column);
        return t ? std::string(reinterpret_cast<const char*>(t),
                               static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)))
                 : std::string();
    }
    std::int64_t integer(int column) const { return sqlite3_column_int64(m_stmt, column); }
    double real(int column) const { return sqlite3_column_double(m_stmt, column); }
    std::string message() const { return sqlite3_errmsg(m_db); }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

int execute(sqlite3* db, const char* sql, std::string* message = nullptr) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    if (message)
        *message = error ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    return rc;
}

const char* kCheckColumns =
    "c.id, c.student, c.at, c.kind, c.kernel_hash, c.request, c.verdict, c.problems, c.backend, c.ms, c.kernel_ms, "
    "c.request_key, c.server";

CheckRecord checkOf(const Statement& s) {
    CheckRecord r;
    r.id = s.integer(0);
    r.student = s.text(1);
    r.at = s.text(2);
    r.kind = s.text(3);
    r.kernelHash = s.text(4);
    r.request = s.text(5);
    r.verdict = s.text(6);
    r.problems = s.text(7);
    r.backend = s.text(8);
    r.ms = s.real(9);
    r.kernelMs = s.real(10);
    r.requestKey = s.text(11);
    r.server = s.text(12);
    return r;
}

}  // namespace

// [SECTION] Opening

Result<std::unique_ptr<LabDb>> LabDb::open(const fs::path& path, const Options& options) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return badInput(path.string() + ": is a folder; --db takes the database's file (lab.sqlite)");
    if (!options.create && !fs::exists(path, ec))
        return badInput(path.string() + ": no such database (tilescope serve --roster ... --db FILE makes one)");
    if (options.create && !fs::exists(path, ec)) {
        // Made for its owner alone: it holds every student's token and work
        // (SQLite gives its -wal and -shm files the same mode).
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            return dbError(path, SQLITE_CANTOPEN, std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
    }
    sqlite3* raw = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | (options.create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
    int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    std::unique_ptr<LabDb> db(new LabDb(path, raw));
    if (rc != SQLITE_OK)
        return dbError(path, rc, raw ? sqlite3_errmsg(raw) : "out of memory");
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, options.busyTimeoutMs);
    // SQLite opens a file it may not write read-only, without a word.
    if (sqlite3_db_readonly(raw, "main") == 1)
        return dbError(path, SQLITE_READONLY, "");

    // Is it a database at all, and of which version? (The first read finds
    // a file that is not one; a lock held by another program shows here too.)
    int version = 0;
    {
        Statement s(raw, "PRAGMA user_version");
        if (!s.prepared())
            return dbError(path, s.rc(), s.message());
        if (s.step() != SQLITE_ROW)
            return dbError(path, s.rc(), s.message());
        version = static_cast<int>(s.integer(0));
    }
    if (version > kSchemaVersion)
        return badInput(path.string() + ": made by a newer TileScope (its schema is version " +
                        std::to_string(version) + ", this one knows up to " + std::to_string(kSchemaVersion) +
                        "): use that TileScope, or give another --db");

    std::string message;
    // WAL: readers (the teacher's view, an export) never wait for the writer.
    {
        Statement s(raw, "PRAGMA journal_mode=WAL");
        if (!s.prepared())
            return dbError(path, s.rc(), s.message());
        if (s.step() != SQLITE_ROW)
            return dbError(path, s.rc(), s.message());
        if (s.text(0) != "wal")
            return badInput(path.string() + ": SQLite would not keep it in WAL mode (journal mode " + s.text(0) +
                            "); is it on a network file system? give a --db on a local disk");
    }
    // Each commit on the disk before the answer leaves.
    if (rc = execute(raw, "PRAGMA synchronous=FULL", &message); rc != SQLITE_OK)
        return dbError(path, rc, message);

    // The write lock for the migration, and the proof that no other program
    // holds the database exclusively.
    if (rc = execute(raw, "BEGIN IMMEDIATE", &message); rc != SQLITE_OK)
        return dbError(path, rc, message);
    auto rollback = [&](int code, const std::string& why) {
        execute(raw, "ROLLBACK");
        return dbError(path, code, why);
    };
    {
        Statement s(raw, "PRAGMA user_version");
        if (s.step() != SQLITE_ROW)
            return rollback(s.rc(), s.message());
        version = static_cast<int>(s.integer(0));
    }
    if (version > kSchemaVersion) {
        execute(raw, "ROLLBACK");
        return badInput(path.string() + ": made by a newer TileScope (its schema is version " +
                        std::to_string(version) + ", this one knows up to " + std::to_string(kSchemaVersion) +
                        "): use that TileScope, or give another --db");
    }
    if (version == 0) {
        // A new file, or someone else's database: a lab's is never left at 0.
        Statement s(raw, "SELECT count(*) FROM sqlite_master");
        if (s.step() != SQLITE_ROW)
            return rollback(s.rc(), s.message());
        if (s.integer(0) > 0) {
            execute(raw, "ROLLBACK");
            return badInput(path.string() +
                            ": an SQLite database of another program (tables, and no TileScope schema version): "
                            "give another --db");
        }
    }
    for (int v = version; v < kSchemaVersion; ++v) {
        if (rc = execute(raw, kMigrations[static_cast<std::size_t>(v)].sqlite, &message); rc != SQLITE_OK)
            return rollback(rc, "migrating its schema from version " + std::to_string(v) + ": " + message);
        const std::string set = "PRAGMA user_version=" + std::to_string(v + 1);
        if (rc = execute(raw, set.c_str(), &message); rc != SQLITE_OK)
            return rollback(rc, message);
    }
    if (rc = execute(raw, "COMMIT", &message); rc != SQLITE_OK)
        return rollback(rc, message);
    return db;
}

LabDb::~LabDb() {
    if (m_db)
        sqlite3_close_v2(m_db);
}

int LabDb::schemaVersion() {
    std::lock_guard lock(m_mutex);
    Statement s(m_db, "PRAGMA user_version");
    return s.step() == SQLITE_ROW ? static_cast<int>(s.integer(0)) : -1;
}

// [SECTION] The roster and the tokens

Result<std::vector<LabStudent>> LabDb::syncRoster(const std::vector<RosterStudent>& roster, const RosterOrigin&) {
    {
        std::lock_guard lock(m_mutex);
        std::string message;
        if (int rc = execute(m_db, "BEGIN IMMEDIATE", &message); rc != SQLITE_OK)
            return dbError(m_path, rc, message);
        auto fail = [&](int rc, const std::string& why) {
            execute(m_db, "ROLLBACK");
            return dbError(m_path, rc, why);
        };
        if (int rc = execute(m_db, "UPDATE students SET active = 0", &message); rc != SQLITE_OK)
            return fail(rc, message);
        std::int64_t order = 0;
        {
            Statement s(m_db, "SELECT coalesce(max(added), 0) FROM students");
            if (s.step() != SQLITE_ROW)
                return fail(s.rc(), s.message());
            order = s.integer(0);
        }
        for (const RosterStudent& r : roster) {
            // An id known already (in any case of its letters) keeps its token.
            Statement find(m_db, "SELECT id FROM students WHERE lower(id) = lower(?1)");
            find.bind(1, r.id);
            const int found = find.step();
            if (found == SQLITE_ROW) {
                Statement update(m_db, "UPDATE students SET name = ?2, active = 1, added = ?3 WHERE id = ?1");
                update.bind(1, find.text(0)).bind(2, r.name).bind(3, ++order);
                if (update.step() != SQLITE_DONE)
                    return fail(update.rc(), update.message());
            } else if (found == SQLITE_DONE) {
                Statement insert(m_db,
                                 "INSERT INTO students (id, name, token, active, added) VALUES (?1, ?2, ?3, 1, ?4)");
                insert.bind(1, r.id).bind(2, r.name).bind(3, newToken()).bind(4, ++order);
                if (insert.step() != SQLITE_DONE)
                    return fail(insert.rc(), insert.message());
            } else {
                return fail(find.rc(), find.message());
            }
        }
        if (int rc = execute(m_db, "COMMIT", &message); rc != SQLITE_OK)
            return fail(rc, message);
    }
    return students();
}

namespace {

Result<std::vector<LabStudent>> studentsOf(sqlite3* db, std::mutex& mutex, const fs::path& path, const char* sql) {
    std::lock_guard lock(mutex);
    Statement s(db, sql);
    std::vector<LabStudent> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(LabStudent{s.text(0), s.text(1), s.text(2), s.integer(3) != 0});
    if (rc != SQLITE_DONE)
        return dbError(path, rc, s.message());
    return out;
}

}  // namespace

Result<std::vector<LabStudent>> LabDb::students() {
    return studentsOf(m_db, m_mutex, m_path,
                      "SELECT id, name, token, active FROM students WHERE active = 1 ORDER BY added");
}

Result<std::vector<LabStudent>> LabDb::allStudents() {
    return studentsOf(m_db, m_mutex, m_path, "SELECT id, name, token, active FROM students ORDER BY added");
}

Result<std::string> LabDb::teacherToken(const std::string& given) {
    std::lock_guard lock(m_mutex);
    if (given.empty()) {
        Statement s(m_db, "SELECT value FROM lab WHERE key = 'teacher_token'");
        const int rc = s.step();
        if (rc == SQLITE_ROW)
            return s.text(0);
        if (rc != SQLITE_DONE)
            return dbError(m_path, rc, s.message());
    }
    const std::string token = given.empty() ? newToken() : given;
    Statement s(m_db,
                "INSERT INTO lab (key, value) VALUES ('teacher_token', ?1) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    s.bind(1, token);
    if (s.step() != SQLITE_DONE)
        return dbError(m_path, s.rc(), s.message());
    return token;
}

// [SECTION] The records

Result<std::int64_t> LabDb::record(const CheckRecord& c) {
    std::lock_guard lock(m_mutex);
    std::string message;
    if (int rc = execute(m_db, "BEGIN IMMEDIATE", &message); rc != SQLITE_OK)
        return dbError(m_path, rc, message);
    auto fail = [&](int rc, const std::string& why) {
        execute(m_db, "ROLLBACK");
        return dbError(m_path, rc, why);
    };
    const std::string hash = c.kernelHash.empty() ? sha256Hex(c.kernel) : c.kernelHash;
    {
        Statement s(m_db, "INSERT OR IGNORE INTO kernels (hash, text) VALUES (?1, ?2)");
        s.bind(1, hash).bind(2, c.kernel);
        if (s.step() != SQLITE_DONE)
            return fail(s.rc(), s.message());
    }
    // A key already recorded for this student: the record made then (its
    // answer was lost on the way, and the client asked again).
    Statement s(m_db,
                "INSERT INTO checks (student, at, kind, kernel_hash, request, verdict, problems, backend, ms, "
                "kernel_ms, request_key, server) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) "
                "ON CONFLICT (student, request_key) DO NOTHING");
    s.bind(1, c.student)
        .bind(2, c.at.empty() ? utcNowMillis() : c.at)
        .bind(3, c.kind)
        .bind(4, hash)
        .bind(5, c.request.empty() ? std::string("{}") : c.request)
        .bind(6, c.verdict)
        .bind(7, c.problems.empty() ? std::string("[]") : c.problems)
        .bind(8, c.backend)
        .bind(9, c.ms)
        .bind(10, c.kernelMs)
        .bind(12, c.server);
    if (!c.requestKey.empty())
        s.bind(11, c.requestKey);  // unbound: NULL, which never collides
    if (s.step() != SQLITE_DONE)
        return fail(s.rc(), s.message());
    std::int64_t id = sqlite3_last_insert_rowid(m_db);
    if (sqlite3_changes(m_db) == 0) {
        Statement first(m_db, "SELECT id FROM checks WHERE student = ?1 AND request_key = ?2");
        first.bind(1, c.student).bind(2, c.requestKey);
        if (first.step() != SQLITE_ROW)
            return fail(first.rc(), first.message());
        id = first.integer(0);
    }
    if (int rc = execute(m_db, "COMMIT", &message); rc != SQLITE_OK)
        return fail(rc, message);
    return id;
}

Result<std::optional<CheckRecord>> LabDb::check(std::int64_t id) {
    std::lock_guard lock(m_mutex);
    const std::string sql = std::string("SELECT ") + kCheckColumns +
                            ", k.text FROM checks c JOIN kernels k ON k.hash = c.kernel_hash WHERE c.id = ?1";
    Statement s(m_db, sql.c_str());
    s.bind(1, id);
    const int rc = s.step();
    if (rc == SQLITE_DONE)
        return std::optional<CheckRecord>();
    if (rc != SQLITE_ROW)
        return dbError(m_path, rc, s.message());
    CheckRecord r = checkOf(s);
    r.kernel = s.text(13);
    return std::optional<CheckRecord>(std::move(r));
}

Result<std::vector<CheckRecord>> LabDb::checks(const std::string& student, bool everyone, std::int64_t afterId,
                                               std::size_t limit) {
    std::lock_guard lock(m_mutex);
    const std::string sql = std::string("SELECT ") + kCheckColumns + " FROM checks c WHERE c.id > ?1" +
                            (everyone ? "" : " AND c.student = ?2") + " ORDER BY c.id LIMIT ?3";
    Statement s(m_db, sql.c_str());
    s.bind(1, afterId);
    if (!everyone)
        s.bind(2, student);
    s.bind(3, static_cast<std::int64_t>(limit));
    std::vector<CheckRecord> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(checkOf(s));
    if (rc != SQLITE_DONE)
        return dbError(m_path, rc, s.message());
    return out;
}

Result<std::vector<LabDb::StudentNow>> LabDb::classNow() {
    std::lock_guard lock(m_mutex);
    const std::string sql =
        std::string("SELECT ") + kCheckColumns +
        ", n.sent FROM checks c JOIN (SELECT student, count(*) AS sent, "
        "coalesce(max(CASE WHEN kind != 'compile' THEN id END), max(id)) AS latest "
        "FROM checks WHERE student != '' GROUP BY student) n ON c.id = n.latest ORDER BY c.student";
    Statement s(m_db, sql.c_str());
    std::vector<StudentNow> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        StudentNow now;
        now.last = checkOf(s);
        now.checks = s.integer(13);
        out.push_back(std::move(now));
    }
    if (rc != SQLITE_DONE)
        return dbError(m_path, rc, s.message());
    return out;
}

Result<std::int64_t> LabDb::lastCheckId() {
    std::lock_guard lock(m_mutex);
    Statement s(m_db, "SELECT coalesce(max(id), 0) FROM checks");
    const int rc = s.step();
    if (rc != SQLITE_ROW)
        return dbError(m_path, rc, s.message());
    return s.integer(0);
}

Result<bool> LabDb::hasKernel(const std::string& hash) {
    std::lock_guard lock(m_mutex);
    Statement s(m_db, "SELECT 1 FROM kernels WHERE hash = ?1");
    s.bind(1, hash);
    const int rc = s.step();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dbError(m_path, rc, s.message());
    return rc == SQLITE_ROW;
}

}  // namespace tilescope::lab
