// The lab's record in PostgreSQL (libpq, Debian's libpq-dev): the database of
// a lab served by several servers behind one load balancer (docs/serve.md,
// Several servers). The interface and the records are lab_store.hpp's; the
// schema and its migrations lab_schema.hpp's.
//
// What several servers at once need, and how it is had:
// - One migration at a time: each server takes the lab's advisory lock
//   (pg_advisory_lock) to migrate and to bring in its roster; a second one
//   waits for it, saying so.
// - The same students everywhere: the roster's hash is kept in the lab
//   table; a server given another roster while other servers are connected
//   (pg_stat_activity, by application name) is refused, naming both.
// - Each record once: a record is one statement, idempotent by (student,
//   request key); a record whose answer was lost (a connection broken by a
//   restart) is sent again and found, never doubled.
// - The class read from any server: every query reads the database; each
//   record is announced (NOTIFY tilescope_checks) and each server's watcher
//   (LISTEN) wakes its teachers' long polls.
// - A restart of the database: a request waits for it (StoreOptions::
//   reconnectSeconds) and then fails with one line; the server answers 503.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>

#include "lab/lab_store.hpp"

struct pg_conn;

namespace tilescope::lab {

class PgLabStore final : public LabStore {
public:
    // Connects, waits for the lab's lock, and brings the schema up to date.
    static Result<std::unique_ptr<PgLabStore>> open(const std::string& url, const StoreOptions& options);
    ~PgLabStore() override;
    PgLabStore(const PgLabStore&) = delete;
    PgLabStore& operator=(const PgLabStore&) = delete;

    std::string describe() const override { return m_shown; }
    bool shared() const override { return true; }
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

    void watchOtherServers(std::function<void(std::int64_t)> recorded) override;

    // The URL as messages show it: without its password.
    static std::string shownUrl(const std::string& url);

    struct Failure;

private:
    PgLabStore(std::string url, std::string shown, StoreOptions options, pg_conn* connection)
        : m_url(std::move(url)), m_shown(std::move(shown)), m_options(std::move(options)), m_conn(connection) {}
    // Runs `op` on the connection, again after a reconnection while the
    // database is away (a restart), until StoreOptions::reconnectSeconds.
    template <class T, class Op>
    Result<T> run(Op&& op);
    // The lab's advisory lock, held for a migration, a roster or the
    // teacher's token: `body` runs holding it, and it is let go however
    // `body` ends. The caller holds m_mutex (or the connection is its own).
    template <class Body>
    auto holdingLabLock(pg_conn* c, Body&& body) -> decltype(body());
    Status lock(pg_conn* c);
    void unlock(pg_conn* c);
    // The open connection, for a step that cannot simply be asked again
    // (it holds the lab's lock): the caller holds m_mutex.
    Result<pg_conn*> liveConnection();
    // A transaction given up: rolled back, and `why` (after the URL) or `error` returned.
    Error rollBack(pg_conn* c, const std::string& why);
    Error rollBack(pg_conn* c, Error error);
    // The steps taken holding the lab's lock: the schema brought up to date
    // (`create`: in a new database), the roster brought in, the teacher's
    // token kept or made.
    Status migrate(pg_conn* c, bool create);
    Status bringInRoster(pg_conn* c, const std::vector<RosterStudent>& roster, const std::string& hash,
                         const std::string& from, const RosterOrigin& origin);
    Result<std::string> keepTeacherToken(pg_conn* c, const std::string& given);
    // How many other servers (by application name) are connected now.
    Result<std::int64_t> otherServers(pg_conn* c);

    std::string m_url;
    std::string m_shown;
    StoreOptions m_options;
    pg_conn* m_conn = nullptr;
    // One connection, taken in turn (a record is a millisecond or two).
    std::mutex m_mutex;
    std::thread m_watcher;
    std::atomic<bool> m_stop{false};
};

}  // namespace tilescope::lab
