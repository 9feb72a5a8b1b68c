#include "lab/lab_pg.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "lab/lab_schema.hpp"

namespace tilescope::lab {

// [SECTION] Connecting, and what a failure to connect says
// [SECTION] Queries
// [SECTION] Opening: the lock, the version, the migrations
// [SECTION] The roster and the tokens
// [SECTION] The records
// [SECTION] Watching the other servers' records

namespace {

using Clock = std::chrono::steady_clock;

// The lab's advisory lock: "tilescop" in ASCII (advisory locks are per
// database, so two labs on one PostgreSQL never share it).
constexpr long long kLabLock = 0x74696c6573636f70LL;
// The channel each record is announced on.
constexpr const char* kChannel = "tilescope_checks";

// [SECTION] Connecting, and what a failure to connect says

std::string oneLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\t' || c == '\r')
            c = ' ';
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    std::string out;
    for (char c : text)
        if (!(c == ' ' && !out.empty() && out.back() == ' '))
            out += c;
    return out;
}

// libpq's words for why a connection failed, without its preamble
// ("connection to server at "127.0.0.1", port 5432 failed: ").
std::string connectionDetail(const std::string& libpq) {
    std::string detail = oneLine(libpq);
    if (const std::size_t at = detail.find(" failed: "); at != std::string::npos)
        detail = detail.substr(at + 9);
    if (detail.rfind("FATAL: ", 0) == 0)
        detail = detail.substr(7);
    return detail;
}

// The parsed options of a connection URL, by keyword (the set ones only).
std::map<std::string, std::string> urlOptions(const std::string& url, std::string* error) {
    std::map<std::string, std::string> out;
    char* message = nullptr;
    PQconninfoOption* options = PQconninfoParse(url.c_str(), &message);
    if (!options) {
        if (error)
            *error = message ? oneLine(message) : "out of memory";
        PQfreemem(message);
        return out;
    }
    for (PQconninfoOption* o = options; o->keyword; ++o)
        if (o->val && *o->val)
            out[o->keyword] = o->val;
    PQconninfoFree(options);
    return out;
}

Error connectError(const std::string& shown, const std::map<std::string, std::string>& options,
                   const std::string& libpq) {
    const std::string detail = connectionDetail(libpq);
    const auto has = [&](const char* words) { return detail.find(words) != std::string::npos; };
    const std::string user = options.count("user") ? options.at("user") : "";
    if (has("password authentication failed"))
        return badInput(shown + ": wrong password for user \"" + user +
                        "\" (the database refused it): give the right one in the URL "
                        "(postgresql://USER:PASSWORD@HOST/DB) or in ~/.pgpass");
    if (has("no password supplied"))
        return badInput(shown +
                        ": the database asks for a password and none was given: put it in the URL "
                        "(postgresql://USER:PASSWORD@HOST/DB) or in ~/.pgpass");
    if (has("does not exist") && has("database"))
        return badInput(shown + ": " + detail + " on that server: make it (createdb), or name another");
    if (has("Connection refused") || has("timeout expired") || has("could not translate host name") ||
        has("No route to host") || has("Network is unreachable") || has("No such file or directory"))
        return badInput(shown + ": cannot reach the database (" + detail.substr(0, detail.find(" Is the server")) +
                        "): is PostgreSQL running there, and listening on that address and port?");
    return badInput(shown + ": cannot connect: " + detail);
}

// A new connection, or nothing with libpq's message. `program` is the
// application name the other servers see; the URL may set a
// connect_timeout, else 5 s.
PGconn* connectTo(const std::string& url, const std::string& program, std::string& error) {
    const char* keys[] = {"connect_timeout", "dbname", "application_name", nullptr};
    const char* values[] = {"5", url.c_str(), program.c_str(), nullptr};
    PGconn* c = PQconnectdbParams(keys, values, 1);
    if (!c) {
        error = "out of memory";
        return nullptr;
    }
    if (PQstatus(c) != CONNECTION_OK) {
        error = PQerrorMessage(c);
        PQfinish(c);
        return nullptr;
    }
    // A record's text is UTF-8 (the kernels, the names): said once, whatever the server's default.
    PQsetClientEncoding(c, "UTF8");
    // The server's notices (a table that already exists, ...) are not ours to print.
    PQsetNoticeProcessor(
        c, [](void*, const char*) {}, nullptr);
    return c;
}

// [SECTION] Queries

struct ResultDeleter {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Rows = std::unique_ptr<PGresult, ResultDeleter>;

// A parameter: text, or NULL.
using Param = std::optional<std::string>;

std::string number(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

}  // namespace

// Why a query failed, and whether it is worth asking again once connected
// (the connection broke, the database is shutting down or starting).
struct PgLabStore::Failure {
    std::string message;
    bool again = false;
};

namespace {

Rows query(PGconn* c, const char* sql, const std::vector<Param>& params, PgLabStore::Failure& f) {
    std::vector<const char*> values;
    for (const Param& p : params)
        values.push_back(p ? p->c_str() : nullptr);
    Rows rows(params.empty()
                  ? PQexec(c, sql)
                  : PQexecParams(c, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = rows ? PQresultStatus(rows.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        return rows;
    const char* state = rows ? PQresultErrorField(rows.get(), PG_DIAG_SQLSTATE) : nullptr;
    const std::string code = state ? state : "";
    f.message = oneLine(rows ? PQresultErrorMessage(rows.get()) : PQerrorMessage(c));
    if (f.message.empty())
        f.message = oneLine(PQerrorMessage(c));
    if (f.message.rfind("ERROR: ", 0) == 0)
        f.message = f.message.substr(7);
    // 08: the connection; 57P01-03: shut down, crashed, starting; 40001 and
    // 40P01: a serialization failure or a deadlock, which ask for a retry.
    f.again = PQstatus(c) != CONNECTION_OK || code.rfind("08", 0) == 0 || code == "57P01" || code == "57P02" ||
              code == "57P03" || code == "40001" || code == "40P01";
    return nullptr;
}

std::string text(const Rows& r, int row, int column) {
    return PQgetisnull(r.get(), row, column) ? std::string()
                                             : std::string(PQgetvalue(r.get(), row, column),
                                                           static_cast<std::size_t>(PQgetlength(r.get(), row, column)));
}
std::int64_t integer(const Rows& r, int row, int column) {
    return std::strtoll(PQgetvalue(r.get(), row, column), nullptr, 10);
}
double real(const Rows& r, int row, int column) {
    return std::strtod(PQgetvalue(r.get(), row, column), nullptr);
}

const char* kCheckColumns =
    "c.id, c.student, c.at, c.kind, c.kernel_hash, c.request, c.verdict, c.problems, c.backend, c.ms, c.kernel_ms, "
    "c.request_key, c.server";

CheckRecord checkOf(const Rows& r, int row) {
    CheckRecord c;
    c.id = integer(r, row, 0);
    c.student = text(r, row, 1);
    c.at = text(r, row, 2);
    c.kind = text(r, row, 3);
    c.kernelHash = text(r, row, 4);
    c.request = text(r, row, 5);
    c.verdict = text(r, row, 6);
    c.problems = text(r, row, 7);
    c.backend = text(r, row, 8);
    c.ms = real(r, row, 9);
    c.kernelMs = real(r, row, 10);
    c.requestKey = text(r, row, 11);
    c.server = text(r, row, 12);
    return c;
}

std::vector<LabStudent> studentsOf(const Rows& r) {
    std::vector<LabStudent> out;
    for (int i = 0; i < PQntuples(r.get()); ++i)
        out.push_back(LabStudent{text(r, i, 0), text(r, i, 1), text(r, i, 2), integer(r, i, 3) != 0});
    return out;
}

// Statements of a transaction: false (with `f` filled) at the first that fails.
bool execute(PGconn* c, const char* sql, PgLabStore::Failure& f) {
    return query(c, sql, {}, f) != nullptr;
}

std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", s);
    return buffer;
}

}  // namespace

std::string PgLabStore::shownUrl(const std::string& url) {
    std::string error;
    const auto o = urlOptions(url, &error);
    if (!error.empty())
        return url.substr(0, url.find("://") + 3) + "...";
    const auto get = [&](const char* key) { return o.count(key) ? o.at(key) : std::string(); };
    std::string shown = "postgresql://";
    if (!get("user").empty())
        shown += get("user") + "@";
    shown += get("host").empty() ? (get("hostaddr").empty() ? std::string("localhost") : get("hostaddr")) : get("host");
    if (!get("port").empty())
        shown += ":" + get("port");
    shown += "/" + get("dbname");
    return shown;
}

template <class T, class Op>
Result<T> PgLabStore::run(Op&& op) {
    // The wait counts from the request's arrival, the turn for the
    // connection included: during an outage the requests that queue behind
    // one another each wait at most this long.
    const auto deadline = Clock::now() + std::chrono::duration<double>(m_options.reconnectSeconds);
    std::lock_guard lock(m_mutex);
    std::string why;
    for (;;) {
        if (!m_conn || PQstatus(m_conn) != CONNECTION_OK) {
            if (m_conn) {
                PQfinish(m_conn);
                m_conn = nullptr;
            }
            std::string error;
            m_conn = connectTo(m_url, m_options.program, error);
            if (!m_conn)
                why = connectionDetail(error);
        }
        if (m_conn) {
            Failure f;
            std::optional<T> value = op(m_conn, f);
            if (value)
                return std::move(*value);
            if (PQtransactionStatus(m_conn) == PQTRANS_INERROR || PQtransactionStatus(m_conn) == PQTRANS_INTRANS) {
                Failure ignored;
                execute(m_conn, "ROLLBACK", ignored);
            }
            if (!f.again)
                return badInput(m_shown + ": " + f.message);
            why = f.message;
        }
        if (Clock::now() >= deadline)
            return badInput(m_shown + ": the database did not answer for " + seconds(m_options.reconnectSeconds) +
                            " s (" + why + ")");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

// [SECTION] Opening: the lock, the version, the migrations

Status PgLabStore::lock(PGconn* c) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(m_options.lockSeconds);
    const std::vector<Param> key{std::to_string(kLabLock)};
    bool told = false;
    for (;;) {
        Failure f;
        Rows got = query(c, "SELECT pg_try_advisory_lock($1::bigint)", key, f);
        if (!got)
            return badInput(m_shown + ": " + f.message);
        if (text(got, 0, 0) == "t")
            return success();
        // Who holds it, to say so.
        std::string holder = "another program";
        Rows who = query(c,
                         "SELECT a.application_name, coalesce(host(a.client_addr), 'local'), a.pid "
                         "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                         "WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
                         "(SELECT oid FROM pg_database WHERE datname = current_database()) AND a.pid <> "
                         "pg_backend_pid() LIMIT 1",
                         {}, f);
        if (who && PQntuples(who.get()) > 0)
            holder = "\"" + text(who, 0, 0) + "\" from " + text(who, 0, 1) + " (its pid " + text(who, 0, 2) + ")";
        if (!told && m_options.note) {
            m_options.note(m_shown + ": waiting for " + holder +
                           ", which holds the lab's lock (a migration, or a roster being brought in)");
            told = true;
        }
        if (Clock::now() >= deadline)
            return badInput(m_shown + ": " + holder + " has held the lab's lock for " + seconds(m_options.lockSeconds) +
                            " s (a migration or a roster that does not finish): stop it, or try again");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

void PgLabStore::unlock(PGconn* c) {
    Failure f;
    query(c, "SELECT pg_advisory_unlock($1::bigint)", {std::to_string(kLabLock)}, f);
}

template <class Body>
auto PgLabStore::holdingLabLock(PGconn* c, Body&& body) -> decltype(body()) {
    if (Status s = lock(c); !s)
        return s.error();
    struct Unlock {
        PgLabStore* store;
        PGconn* c;
        ~Unlock() { store->unlock(c); }
    } unlock{this, c};
    return body();
}

Result<PGconn*> PgLabStore::liveConnection() {
    if (!m_conn || PQstatus(m_conn) != CONNECTION_OK)
        return badInput(m_shown + ": the connection to the database was lost");
    return m_conn;
}

Error PgLabStore::rollBack(PGconn* c, Error error) {
    Failure ignored;
    execute(c, "ROLLBACK", ignored);
    return error;
}

Error PgLabStore::rollBack(PGconn* c, const std::string& why) {
    return rollBack(c, badInput(m_shown + ": " + why));
}

Result<std::int64_t> PgLabStore::otherServers(PGconn* c) {
    Failure f;
    Rows r = query(c,
                   "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = "
                   "$1 AND pid <> pg_backend_pid()",
                   {m_options.program}, f);
    if (!r)
        return badInput(m_shown + ": " + f.message);
    return integer(r, 0, 0);
}

Result<std::unique_ptr<PgLabStore>> PgLabStore::open(const std::string& url, const StoreOptions& options) {
    std::string parseError;
    const auto parsed = urlOptions(url, &parseError);
    const std::string shown = shownUrl(url);
    if (!parseError.empty())
        return badInput("--db " + shown + ": not a PostgreSQL URL (" + parseError +
                        "): postgresql://USER:PASSWORD@HOST:PORT/DATABASE");
    std::string error;
    PGconn* c = connectTo(url, options.program, error);
    if (!c)
        return connectError(shown, parsed, error);
    std::unique_ptr<PgLabStore> store(new PgLabStore(url, shown, options, c));

    // One server at a time migrates; the others wait here, then find it done.
    if (Status s = store->holdingLabLock(c, [&] { return store->migrate(c, options.create); }); !s)
        return s.error();
    return store;
}

Status PgLabStore::migrate(PGconn* c, bool create) {
    Failure f;
    auto fail = [&](const std::string& why) { return rollBack(c, why); };
    if (!execute(c, "BEGIN", f))
        return fail(f.message);
    int version = 0;
    Rows known = query(c, "SELECT to_regclass('tilescope_schema') IS NOT NULL", {}, f);
    if (!known)
        return fail(f.message);
    if (text(known, 0, 0) == "t") {
        Rows v = query(c, "SELECT version FROM tilescope_schema", {}, f);
        if (!v)
            return fail(f.message);
        version = PQntuples(v.get()) > 0 ? static_cast<int>(integer(v, 0, 0)) : 0;
    } else {
        // A new database, or someone else's: a lab's always has its version.
        Rows tables = query(c, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()", {}, f);
        if (!tables)
            return fail(f.message);
        if (integer(tables, 0, 0) > 0)
            return fail(
                "a PostgreSQL database of another program (tables, and no TileScope schema version): give "
                "another database (createdb)");
        if (!create)
            return fail("holds no TileScope lab (tilescope serve --roster roster.csv --db URL makes one)");
    }
    if (version > kSchemaVersion)
        return fail("made by a newer TileScope (its schema is version " + std::to_string(version) +
                    ", this one knows up to " + std::to_string(kSchemaVersion) +
                    "): use that TileScope, or give another --db");
    // Each version in the one transaction: all of them or none.
    for (int v = version; v < kSchemaVersion; ++v) {
        if (!execute(c, kMigrations[static_cast<std::size_t>(v)].postgresql, f))
            return fail("migrating its schema from version " + std::to_string(v) + ": " + f.message);
        if (!query(c, "UPDATE tilescope_schema SET version = $1::integer", {std::to_string(v + 1)}, f))
            return fail(f.message);
    }
    if (!execute(c, "COMMIT", f))
        return fail(f.message);
    return success();
}

PgLabStore::~PgLabStore() {
    m_stop = true;
    if (m_watcher.joinable())
        m_watcher.join();
    if (m_conn)
        PQfinish(m_conn);
}

int PgLabStore::schemaVersion() {
    auto v = run<int>([](PGconn* c, Failure& f) -> std::optional<int> {
        Rows r = query(c, "SELECT version FROM tilescope_schema", {}, f);
        if (!r)
            return std::nullopt;
        return static_cast<int>(integer(r, 0, 0));
    });
    return v ? *v : -1;
}

// [SECTION] The roster and the tokens

Result<std::vector<LabStudent>> PgLabStore::syncRoster(const std::vector<RosterStudent>& roster,
                                                       const RosterOrigin& origin) {
    const std::string hash = rosterHash(roster);
    const std::string from = (origin.host.empty() ? std::string() : origin.host + ":") + origin.file;
    {
        std::lock_guard guard(m_mutex);
        auto c = liveConnection();
        if (!c)
            return c.error();
        if (Status s = holdingLabLock(*c, [&] { return bringInRoster(*c, roster, hash, from, origin); }); !s)
            return s.error();
    }
    return students();
}

Status PgLabStore::bringInRoster(PGconn* c, const std::vector<RosterStudent>& roster, const std::string& hash,
                                 const std::string& from, const RosterOrigin& origin) {
    Failure f;
    auto fail = [&](const std::string& why) { return rollBack(c, why); };
    if (!execute(c, "BEGIN", f))
        return fail(f.message);
    // The roster the servers already running were given.
    Rows kept =
        query(c, "SELECT key, value FROM lab WHERE key IN ('roster_hash', 'roster_from', 'roster_students')", {}, f);
    if (!kept)
        return fail(f.message);
    std::map<std::string, std::string> was;
    for (int i = 0; i < PQntuples(kept.get()); ++i)
        was[text(kept, i, 0)] = text(kept, i, 1);
    if (!was["roster_hash"].empty() && was["roster_hash"] != hash) {
        auto others = otherServers(c);
        if (!others)
            return rollBack(c, others.error());
        if (*others > 0)
            return rollBack(
                c, badInput(origin.file + " (" + std::to_string(roster.size()) + " students, sha256 " +
                            hash.substr(0, 12) + ") is not the roster the other servers of " + m_shown +
                            " serve: " + was["roster_from"] + " (" + was["roster_students"] + " students, sha256 " +
                            was["roster_hash"].substr(0, 12) + "; " + std::to_string(*others) +
                            (*others == 1 ? " server" : " servers") +
                            " connected): give every server the same roster, or stop them all to change it"));
    }
    if (!execute(c, "UPDATE students SET active = 0", f))
        return fail(f.message);
    Rows most = query(c, "SELECT coalesce(max(added), 0) FROM students", {}, f);
    if (!most)
        return fail(f.message);
    std::int64_t order = integer(most, 0, 0);
    for (const RosterStudent& r : roster) {
        // An id known already (in any case of its letters) keeps its token.
        Rows found = query(c, "SELECT id FROM students WHERE lower(id) = lower($1)", {r.id}, f);
        if (!found)
            return fail(f.message);
        const bool known = PQntuples(found.get()) > 0;
        const std::vector<Param> params = known ? std::vector<Param>{text(found, 0, 0), r.name, std::to_string(++order)}
                                                : std::vector<Param>{r.id, r.name, std::to_string(++order), newToken()};
        if (!query(c,
                   known ? "UPDATE students SET name = $2, active = 1, added = $3::bigint WHERE id = $1"
                         : "INSERT INTO students (id, name, added, token, active) VALUES ($1, $2, $3::bigint, $4, 1)",
                   params, f))
            return fail(f.message);
    }
    for (const auto& [key, value] : std::map<std::string, std::string>{
             {"roster_hash", hash}, {"roster_from", from}, {"roster_students", std::to_string(roster.size())}})
        if (!query(c,
                   "INSERT INTO lab (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = "
                   "excluded.value",
                   {key, value}, f))
            return fail(f.message);
    if (!execute(c, "COMMIT", f))
        return fail(f.message);
    return success();
}

Result<std::vector<LabStudent>> PgLabStore::students() {
    return run<std::vector<LabStudent>>([](PGconn* c, Failure& f) -> std::optional<std::vector<LabStudent>> {
        Rows r = query(c, "SELECT id, name, token, active FROM students WHERE active = 1 ORDER BY added", {}, f);
        if (!r)
            return std::nullopt;
        return studentsOf(r);
    });
}

Result<std::vector<LabStudent>> PgLabStore::allStudents() {
    return run<std::vector<LabStudent>>([](PGconn* c, Failure& f) -> std::optional<std::vector<LabStudent>> {
        Rows r = query(c, "SELECT id, name, token, active FROM students ORDER BY added", {}, f);
        if (!r)
            return std::nullopt;
        return studentsOf(r);
    });
}

Result<std::string> PgLabStore::teacherToken(const std::string& given) {
    std::lock_guard guard(m_mutex);
    auto c = liveConnection();
    if (!c)
        return c.error();
    return holdingLabLock(*c, [&] { return keepTeacherToken(*c, given); });
}

Result<std::string> PgLabStore::keepTeacherToken(PGconn* c, const std::string& given) {
    Failure f;
    Rows kept = query(c, "SELECT value FROM lab WHERE key = 'teacher_token'", {}, f);
    if (!kept)
        return badInput(m_shown + ": " + f.message);
    const std::string was = PQntuples(kept.get()) > 0 ? text(kept, 0, 0) : std::string();
    if (given.empty() && !was.empty())
        return was;
    if (!given.empty() && !was.empty() && given != was) {
        // The servers running hold the kept one: the teacher's link would
        // work on some servers and not on others.
        auto others = otherServers(c);
        if (!others)
            return others.error();
        if (*others > 0)
            return badInput("--token is not the teacher's token the other servers of " + m_shown + " hold (" +
                            std::to_string(*others) +
                            " connected): give every server the same --token, or none (the one kept is used)");
    }
    const std::string token = given.empty() ? newToken() : given;
    if (!query(c,
               "INSERT INTO lab (key, value) VALUES ('teacher_token', $1) ON CONFLICT (key) DO UPDATE SET value = "
               "excluded.value",
               {token}, f))
        return badInput(m_shown + ": " + f.message);
    return token;
}

// [SECTION] The records

Result<std::int64_t> PgLabStore::record(const CheckRecord& r) {
    const std::string hash = r.kernelHash.empty() ? sha256Hex(r.kernel) : r.kernelHash;
    // A record without the client's key gets one of its own, so that this
    // store's own retry (after a connection broken between the commit and
    // its answer) finds it rather than adding it again.
    const std::string key = r.requestKey.empty() ? "server-" + newToken() : r.requestKey;
    const std::vector<Param> params{r.student,
                                    r.at.empty() ? utcNowMillis() : r.at,
                                    r.kind,
                                    hash,
                                    r.request.empty() ? std::string("{}") : r.request,
                                    r.verdict,
                                    r.problems.empty() ? std::string("[]") : r.problems,
                                    r.backend,
                                    number(r.ms),
                                    number(r.kernelMs),
                                    key,
                                    r.server,
                                    r.kernel};
    return run<std::int64_t>([&](PGconn* c, Failure& f) -> std::optional<std::int64_t> {
        // One statement, so one transaction: the kernel's text, the record,
        // and its announcement to the other servers (sent at the commit).
        Rows made =
            query(c,
                  "WITH k AS (INSERT INTO kernels (hash, text) VALUES ($4, $13) ON CONFLICT (hash) DO NOTHING), "
                  "c AS (INSERT INTO checks (student, at, kind, kernel_hash, request, verdict, problems, "
                  "backend, ms, kernel_ms, request_key, server) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
                  "$9::double precision, $10::double precision, $11, $12) "
                  "ON CONFLICT (student, request_key) DO NOTHING RETURNING id) "
                  "SELECT id, pg_notify('tilescope_checks', id::text) FROM c",
                  params, f);
        if (!made)
            return std::nullopt;
        if (PQntuples(made.get()) > 0)
            return integer(made, 0, 0);
        // Recorded already: this is a request sent again.
        Rows first = query(c, "SELECT id FROM checks WHERE student = $1 AND request_key = $2", {r.student, key}, f);
        if (!first)
            return std::nullopt;
        if (PQntuples(first.get()) == 0) {
            f.message = "a record of request key " + key + " conflicted and then could not be found";
            return std::nullopt;
        }
        return integer(first, 0, 0);
    });
}

Result<std::optional<CheckRecord>> PgLabStore::check(std::int64_t id) {
    const std::string sql = std::string("SELECT ") + kCheckColumns +
                            ", k.text FROM checks c JOIN kernels k ON k.hash = c.kernel_hash WHERE c.id = $1::bigint";
    return run<std::optional<CheckRecord>>([&](PGconn* c, Failure& f) -> std::optional<std::optional<CheckRecord>> {
        Rows r = query(c, sql.c_str(), {std::to_string(id)}, f);
        if (!r)
            return std::nullopt;
        if (PQntuples(r.get()) == 0)
            return std::optional<CheckRecord>();
        CheckRecord record = checkOf(r, 0);
        record.kernel = text(r, 0, 13);
        return std::optional<CheckRecord>(std::move(record));
    });
}

Result<std::vector<CheckRecord>> PgLabStore::checks(const std::string& student, bool everyone, std::int64_t afterId,
                                                    std::size_t limit) {
    const std::string sql = std::string("SELECT ") + kCheckColumns + " FROM checks c WHERE c.id > $1::bigint" +
                            (everyone ? "" : " AND c.student = $3") + " ORDER BY c.id LIMIT $2::bigint";
    std::vector<Param> params{std::to_string(afterId), std::to_string(limit)};
    if (!everyone)
        params.push_back(student);
    return run<std::vector<CheckRecord>>([&](PGconn* c, Failure& f) -> std::optional<std::vector<CheckRecord>> {
        Rows r = query(c, sql.c_str(), params, f);
        if (!r)
            return std::nullopt;
        std::vector<CheckRecord> out;
        for (int i = 0; i < PQntuples(r.get()); ++i)
            out.push_back(checkOf(r, i));
        return out;
    });
}

Result<std::vector<LabStore::StudentNow>> PgLabStore::classNow() {
    const std::string sql = std::string("SELECT ") + kCheckColumns +
                            ", n.sent FROM checks c JOIN (SELECT student, count(*) AS sent, "
                            "coalesce(max(CASE WHEN kind <> 'compile' THEN id END), max(id)) AS latest "
                            "FROM checks WHERE student <> '' GROUP BY student) n ON c.id = n.latest ORDER BY c.student";
    return run<std::vector<StudentNow>>([&](PGconn* c, Failure& f) -> std::optional<std::vector<StudentNow>> {
        Rows r = query(c, sql.c_str(), {}, f);
        if (!r)
            return std::nullopt;
        std::vector<StudentNow> out;
        for (int i = 0; i < PQntuples(r.get()); ++i) {
            StudentNow now;
            now.last = checkOf(r, i);
            now.checks = integer(r, i, 13);
            out.push_back(std::move(now));
        }
        return out;
    });
}

Result<std::int64_t> PgLabStore::lastCheckId() {
    return run<std::int64_t>([](PGconn* c, Failure& f) -> std::optional<std::int64_t> {
        Rows r = query(c, "SELECT coalesce(max(id), 0) FROM checks", {}, f);
        if (!r)
            return std::nullopt;
        return integer(r, 0, 0);
    });
}

Result<bool> PgLabStore::hasKernel(const std::string& hash) {
    return run<bool>([&](PGconn* c, Failure& f) -> std::optional<bool> {
        Rows r = query(c, "SELECT 1 FROM kernels WHERE hash = $1", {hash}, f);
        if (!r)
            return std::nullopt;
        return PQntuples(r.get()) > 0;
    });
}

// [SECTION] Watching the other servers' records

void PgLabStore::watchOtherServers(std::function<void(std::int64_t)> recorded) {
    if (m_watcher.joinable() || !recorded)
        return;
    m_watcher = std::thread([this, recorded = std::move(recorded)] {
        PGconn* c = nullptr;
        while (!m_stop) {
            if (!c) {
                // Its own connection, named apart from the servers' (it is
                // not one more server when they are counted).
                std::string error;
                c = connectTo(m_url, m_options.program + " (watching)", error);
                Failure f;
                const std::string listen = std::string("LISTEN ") + kChannel;
                Rows newest;
                if (c && query(c, listen.c_str(), {}, f))
                    newest = query(c, "SELECT coalesce(max(id), 0) FROM checks", {}, f);
                if (!newest) {
                    if (c)
                        PQfinish(c);
                    c = nullptr;
                    for (int i = 0; i < 5 && !m_stop; ++i)
                        std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    continue;
                }
                // What was recorded while this watcher was away.
                recorded(integer(newest, 0, 0));
            }
            pollfd p{PQsocket(c), POLLIN, 0};
            ::poll(&p, 1, 250);
            if (!PQconsumeInput(c)) {
                PQfinish(c);
                c = nullptr;
                continue;
            }
            while (PGnotify* n = PQnotifies(c)) {
                recorded(std::strtoll(n->extra, nullptr, 10));
                PQfreemem(n);
            }
        }
        if (c)
            PQfinish(c);
    });
}

}  // namespace tilescope::lab
