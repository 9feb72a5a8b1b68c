// The lab's record as `tilescope serve` and `tilescope lab export` see it
// (docs/serve.md, The lab): one interface, two databases.
//
//   LabDb       (lab_db.hpp)  an SQLite file: one server, the default.
//   PgLabStore  (lab_pg.hpp)  a PostgreSQL database: several servers behind
//                             one load balancer, writing at once, each
//                             reading the whole class.
//
// Both hold the same schema (students, checks, kernels, lab), brought up to
// kSchemaVersion by the migrations of lab_schema.hpp, one list of versions
// with each version's SQL in each database's dialect. openLabStore()
// (open_store.hpp) picks the database by what --db names. No HTTP, no UI:
// the server and the command line call this, and tests call it on databases
// of their own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/sha256.hpp"
#include "core/result.hpp"
#include "lab/roster.hpp"

namespace tilescope::lab {

// 1: students, checks (the kernel's text in each), lab settings.
// 2: kernels kept once per text (a student sends the same file again and
//    again), each check's request and the kernel's own time, students who
//    left the roster kept but no longer let in.
// 3: each check's request key (a client's retry of a request whose answer
//    was lost is recorded once) and the server that answered it.
constexpr int kSchemaVersion = 3;

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
    // The client's name for this request (its Idempotency-Key): a second
    // record of the same student and key is the first one again, not a new
    // one. Empty: none given.
    std::string requestKey;
    std::string server;  // which server answered: "host:port"; empty when not said
};

// Which of a student's kernels `lab export` grades.
enum class Pick {
    Last,  // the last one they sent
    Best,  // the last of those whose check answered best: clean, then problems, then compiled, then the rest
};

// Where the roster a server starts with comes from, to name it when two
// servers of one database are given different rosters.
struct RosterOrigin {
    std::string file;  // the roster's path, as given
    std::string host;  // the machine the server runs on
};

class LabStore {
public:
    virtual ~LabStore() = default;

    // The database in messages: the SQLite file's path, or the PostgreSQL
    // URL without its password.
    virtual std::string describe() const = 0;
    // Whether several servers may use it at once (then the class is read
    // from it, never from one server's memory).
    virtual bool shared() const = 0;
    virtual int schemaVersion() = 0;

    // The roster the server starts with: each student already known keeps
    // their token (a restart changes no link) and gets the roster's name; a
    // new one gets a new token; one no longer on it is kept, with their
    // checks, but let in no more. Returns the active students, in roster
    // order. A shared database refuses a roster other than the one the
    // servers already using it serve (each of a lab's servers must let in
    // the same students with the same tokens).
    virtual Result<std::vector<LabStudent>> syncRoster(const std::vector<RosterStudent>& roster,
                                                       const RosterOrigin& origin) = 0;
    Result<std::vector<LabStudent>> syncRoster(const std::vector<RosterStudent>& roster) {
        return syncRoster(roster, RosterOrigin{});
    }
    // The students let in, in the order they were added.
    virtual Result<std::vector<LabStudent>> students() = 0;
    // Every student ever on the roster, active or not.
    virtual Result<std::vector<LabStudent>> allStudents() = 0;
    // The teacher's token: `given` when not empty (kept from then on), else
    // the one kept, else a new one (kept).
    virtual Result<std::string> teacherToken(const std::string& given) = 0;

    // Records a compile or check (its id and `at` are the database's, unless
    // `at` is given); returns its id. A record whose student and request key
    // are already there is not recorded again: the first one's id is returned.
    virtual Result<std::int64_t> record(const CheckRecord& check) = 0;
    // One record with its kernel's text; nothing when there is no such id.
    virtual Result<std::optional<CheckRecord>> check(std::int64_t id) = 0;
    // The records of one student (`everyone`: everyone's), oldest first,
    // without the kernels' text; only those after `afterId`, at most `limit`.
    virtual Result<std::vector<CheckRecord>> checks(const std::string& student, bool everyone, std::int64_t afterId = 0,
                                                    std::size_t limit = 100000) = 0;
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
    virtual Result<std::vector<StudentNow>> classNow() = 0;
    // The newest record's id (0: none).
    virtual Result<std::int64_t> lastCheckId() = 0;
    // Whether a kernel of this SHA-256 was ever sent (the teacher may run again what a student sent).
    virtual Result<bool> hasKernel(const std::string& hash) = 0;

    // Calls `recorded` (on a thread of the store's) with the id of each
    // record another server makes, and with the newest id after the
    // database comes back from an outage, until the store is destroyed. A
    // database of one server has no others: nothing to watch.
    virtual void watchOtherServers(std::function<void(std::int64_t)> recorded) { (void)recorded; }
};

struct StoreOptions {
    bool create = true;        // an SQLite file: make it when missing (else "no such database");
                               // PostgreSQL: make the schema in an empty database
    int busyTimeoutMs = 5000;  // SQLite: how long to wait for another writer before "locked"
    // PostgreSQL: the program named to the database (pg_stat_activity's
    // application_name); servers find each other by it.
    std::string program = "tilescope";
    // PostgreSQL: how long a request waits for the database to come back
    // (a restart, a failover) before it fails.
    double reconnectSeconds = 15.0;
    // PostgreSQL: how long to wait for another server's migration or roster.
    double lockSeconds = 120.0;
    // Lines to show while opening (waiting for another server); may be empty.
    std::function<void(const std::string&)> note;
};


// SHA-256 of `text`, as 64 hex digits (base/sha256.hpp).
using base::sha256Hex;

// "2026-11-30T10:15:02.123Z", now.
std::string utcNowMillis();

// A roster's fingerprint: SHA-256 of its ids and names, one "id,name" a line.
std::string rosterHash(const std::vector<RosterStudent>& roster);

// How check records rank for Pick::Best.
int verdictRank(const std::string& verdict);

}  // namespace tilescope::lab
