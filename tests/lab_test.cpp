// The lab (app/lab/): the roster and its errors, the database against real
// SQLite files (migrations from version 1, each kind of bad database, the
// records read back after reopening), and `tilescope lab export` against
// `tilescope grade` on the same kernels: the same reports.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "lab/lab_db.hpp"
#include "lab/roster.hpp"
#include "scratch_dir.hpp"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using lab::CheckRecord;
using lab::LabDb;
using test::ScratchDir;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

// The message of a roster that must be refused.
std::string rosterError(const std::string& text) {
    auto r = lab::parseRoster(text, "roster.csv");
    EXPECT_FALSE(r) << "accepted: " << text;
    return r ? std::string() : r.error().message;
}

// Raw SQL on a file, as another program (or an older TileScope) would run it.
void rawSql(const fs::path& file, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

std::string rawValue(const fs::path& file, const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

std::vector<lab::RosterStudent> rosterOf(const std::string& text) {
    auto r = lab::parseRoster(text, "roster.csv");
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : std::vector<lab::RosterStudent>{};
}

CheckRecord recordOf(const std::string& student, const std::string& kernel, const std::string& verdict,
                     const std::string& problems = "[]") {
    CheckRecord r;
    r.student = student;
    r.kind = "check";
    r.kernel = kernel;
    r.request = R"({"size":"45x37","radius":2})";
    r.verdict = verdict;
    r.problems = problems;
    r.backend = "cpu";
    r.ms = 812.5;
    r.kernelMs = 3.25;
    return r;
}

// [SECTION] The roster

TEST(Roster, AHeaderAByteOrderMarkCrlfAndQuotedNamesAreRead) {
    const auto students =
        rosterOf("\xEF\xBB\xBFid,name\r\ns1,Ada Lovelace\r\n\r\ns2 , \"Ng, Zo\xC3\xAB\"\r\ns-3,\"Say \"\"Hi\"\"\"\r\n");
    ASSERT_EQ(students.size(), 3u);
    EXPECT_EQ(students[0].id, "s1");
    EXPECT_EQ(students[0].name, "Ada Lovelace");
    EXPECT_EQ(students[1].id, "s2");
    EXPECT_EQ(students[1].name, "Ng, Zo\xC3\xAB");
    EXPECT_EQ(students[1].line, 4u);
    EXPECT_EQ(students[2].name, "Say \"Hi\"");
}

TEST(Roster, WithoutAHeaderTheFirstLineIsAStudent) {
    const auto students = rosterOf("ada,Ada\nbob,Bob");
    ASSERT_EQ(students.size(), 2u);
    EXPECT_EQ(students[1].id, "bob");
}

TEST(Roster, ADuplicateIdIsOneLineNamingBothLinesWhateverItsCase) {
    EXPECT_EQ(rosterError("id,name\ns1,Ada\ns2,Bob\nS1,Carol\n"),
              "roster.csv:4: the id S1 is on line 2 too; each student once");
}

TEST(Roster, AnEmptyNameIsOneLine) {
    EXPECT_EQ(rosterError("s1,Ada\ns2,  \n"), "roster.csv:2: student s2 has an empty name");
    EXPECT_EQ(rosterError("s1,Ada\ns2,\"\"\n"), "roster.csv:2: student s2 has an empty name");
}

TEST(Roster, ABadEncodingIsOneLineWithItsLineAndByte) {
    // Latin-1's é, as a spreadsheet's plain "CSV" writes it.
    const std::string message = rosterError("s1,Ada\ns2,Zo\xEB Ng\n");
    EXPECT_NE(message.find("roster.csv:2: not UTF-8 (the byte 0xEB)"), std::string::npos) << message;
    EXPECT_NE(rosterError("s1,Ada\xC3\n").find("roster.csv:1: not UTF-8"), std::string::npos);
    EXPECT_NE(rosterError("s1,\xED\xA0\x80\n").find("not UTF-8"), std::string::npos);  // a surrogate
}

TEST(Roster, OtherBadLinesAreEachOneLine) {
    EXPECT_NE(rosterError("s1,Ng, Zoe\n").find("roster.csv:1: 3 fields; a line is id,name"), std::string::npos);
    EXPECT_NE(rosterError("s1\n").find("roster.csv:1: 1 field;"), std::string::npos);
    EXPECT_NE(rosterError("a b,Ada\n").find("the id 'a b' may hold only letters"), std::string::npos);
    EXPECT_NE(rosterError("../x,Ada\n").find("the id '../x'"), std::string::npos);
    EXPECT_NE(rosterError(",Ada\n").find("the id is empty"), std::string::npos);
    EXPECT_NE(rosterError("s1,\"Ada\n").find("a quote is not closed"), std::string::npos);
    EXPECT_EQ(rosterError("id,name\n\n"), "roster.csv: no students; write one a line: id,name");
}

TEST(Roster, LinkFilesAreWrittenBesideTheRosterForItsOwnerAlone) {
    ScratchDir dir("lab_test");
    const lab::LinkFiles files = lab::linkFilesFor(dir / "roster.csv");
    EXPECT_EQ(files.students, dir / "roster.links.csv");
    EXPECT_EQ(files.teacher, dir / "roster.teacher.txt");
    writeText(files.students, "old, readable by all\n");
    ::chmod(files.students.c_str(), 0644);
    ASSERT_TRUE(
        lab::writeLinkFiles(files, "http://labpc:8000/", {{"s1", "Ng, Zoe", "aaaa"}, {"s2", "Bo", "bbbb"}}, "tttt"));
    EXPECT_EQ(slurp(files.students),
              "id,name,link\ns1,\"Ng, Zoe\",http://labpc:8000/#token=aaaa\ns2,Bo,http://labpc:8000/#token=bbbb\n");
    EXPECT_NE(slurp(files.teacher).find("http://labpc:8000/#token=tttt\n"), std::string::npos);
    for (const fs::path& p : {files.students, files.teacher}) {
        struct stat st {};
        ASSERT_EQ(::stat(p.c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 0777, 0600u) << p;
    }
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"roster.links.csv", "roster.teacher.txt"}));
}

TEST(Roster, TokensAreLongRandomAndDifferent) {
    const std::string a = lab::newToken(), b = lab::newToken();
    EXPECT_EQ(a.size(), 32u);
    EXPECT_NE(a, b);
    EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

// [SECTION] The database

TEST(LabDb, Sha256IsTheStandardOne) {
    EXPECT_EQ(lab::sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(lab::sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(lab::sha256Hex(std::string(1000, 'a')),
              "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(LabDb, ANewFileIsMadeAtTheCurrentSchemaInWalModeWithFullSync) {
    ScratchDir dir("lab_test");
    auto db = LabDb::open(dir / "lab.sqlite");
    ASSERT_TRUE(db) << db.error().message;
    EXPECT_EQ((*db)->schemaVersion(), lab::kSchemaVersion);
    db->reset();
    EXPECT_EQ(rawValue(dir / "lab.sqlite", "PRAGMA user_version"), std::to_string(lab::kSchemaVersion));
    EXPECT_EQ(rawValue(dir / "lab.sqlite", "PRAGMA journal_mode"), "wal");
    // Its owner's alone: it holds every student's token.
    struct stat st {};
    ASSERT_EQ(::stat((dir / "lab.sqlite").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(LabDb, RecordsAreReadBackAfterTheFileIsClosedAndOpenedAgain) {
    ScratchDir dir("lab_test");
    const fs::path file = dir / "lab.sqlite";
    std::int64_t first = 0, second = 0;
    {
        auto db = LabDb::open(file);
        ASSERT_TRUE(db) << db.error().message;
        ASSERT_TRUE((*db)->syncRoster(rosterOf("ada,Ada\nbob,Bob\n")));
        auto a = (*db)->record(
            recordOf("ada", "kernel one", "problems", R"([{"kind":"shared_race","first_line":34,"second_line":46}])"));
        auto b = (*db)->record(recordOf("bob", "kernel two", "clean"));
        ASSERT_TRUE(a && b);
        first = *a;
        second = *b;
        EXPECT_LT(first, second);
    }
    auto db = LabDb::open(file);
    ASSERT_TRUE(db) << db.error().message;
    auto got = (*db)->check(first);
    ASSERT_TRUE(got && *got);
    const CheckRecord& r = **got;
    EXPECT_EQ(r.student, "ada");
    EXPECT_EQ(r.kind, "check");
    EXPECT_EQ(r.kernel, "kernel one");
    EXPECT_EQ(r.kernelHash, lab::sha256Hex("kernel one"));
    EXPECT_EQ(r.verdict, "problems");
    EXPECT_EQ(r.problems, R"([{"kind":"shared_race","first_line":34,"second_line":46}])");
    EXPECT_EQ(r.request, R"({"size":"45x37","radius":2})");
    EXPECT_EQ(r.backend, "cpu");
    EXPECT_DOUBLE_EQ(r.ms, 812.5);
    EXPECT_DOUBLE_EQ(r.kernelMs, 3.25);
    EXPECT_TRUE(std::regex_match(r.at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"))) << r.at;
    auto mine = (*db)->checks("bob", false);
    ASSERT_TRUE(mine);
    ASSERT_EQ(mine->size(), 1u);
    EXPECT_EQ((*mine)[0].id, second);
    EXPECT_TRUE((*mine)[0].kernel.empty());  // lists hold no text
    auto all = (*db)->checks({}, true);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->size(), 2u);
    auto after = (*db)->checks({}, true, first);
    ASSERT_TRUE(after);
    ASSERT_EQ(after->size(), 1u);
    EXPECT_EQ((*after)[0].id, second);
    auto none = (*db)->check(second + 100);
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none);
}

TEST(LabDb, TheSameTextIsKeptOnce) {
    ScratchDir dir("lab_test");
    auto db = LabDb::open(dir / "lab.sqlite");
    ASSERT_TRUE(db);
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE((*db)->record(recordOf("", "the same kernel", "clean")));
    db->reset();
    EXPECT_EQ(rawValue(dir / "lab.sqlite", "SELECT count(*) FROM kernels"), "1");
    EXPECT_EQ(rawValue(dir / "lab.sqlite", "SELECT count(*) FROM checks"), "3");
}

TEST(LabDb, ARequestSentAgainWithItsKeyIsRecordedOnceAndOtherStudentsKeysAreTheirOwn) {
    ScratchDir dir("lab_test");
    auto db = LabDb::open(dir / "lab.sqlite");
    ASSERT_TRUE(db);
    CheckRecord first = recordOf("ada", "ada's kernel", "clean");
    first.requestKey = "try-1";
    first.server = "labpc1:8000";
    auto id = (*db)->record(first);
    ASSERT_TRUE(id) << id.error().message;
    // The answer was lost; the client sends it again, to another server.
    CheckRecord again = first;
    again.server = "labpc2:8000";
    auto repeated = (*db)->record(again);
    ASSERT_TRUE(repeated) << repeated.error().message;
    EXPECT_EQ(*repeated, *id);
    // The same key from another student, and records without a key, are new.
    CheckRecord bob = recordOf("bob", "bob's kernel", "problems");
    bob.requestKey = "try-1";
    auto bobs = (*db)->record(bob);
    ASSERT_TRUE(bobs);
    EXPECT_NE(*bobs, *id);
    ASSERT_TRUE((*db)->record(recordOf("ada", "ada's kernel", "clean")));
    ASSERT_TRUE((*db)->record(recordOf("ada", "ada's kernel", "clean")));
    auto kept = (*db)->checks("", true);
    ASSERT_TRUE(kept);
    ASSERT_EQ(kept->size(), 4u);
    EXPECT_EQ((*kept)[0].requestKey, "try-1");
    EXPECT_EQ((*kept)[0].server, "labpc1:8000");  // the first one's, not the repeat's
    EXPECT_EQ((*kept)[2].requestKey, "");
}

TEST(LabDb, ARestartKeepsEveryTokenAndARosterChangeAddsAndRetires) {
    ScratchDir dir("lab_test");
    const fs::path file = dir / "lab.sqlite";
    std::map<std::string, std::string> tokens;
    std::string teacher;
    {
        auto db = LabDb::open(file);
        ASSERT_TRUE(db);
        auto students = (*db)->syncRoster(rosterOf("ada,Ada\nbob,Bob\n"));
        ASSERT_TRUE(students);
        ASSERT_EQ(students->size(), 2u);
        for (const auto& s : *students)
            tokens[s.id] = s.token;
        EXPECT_NE(tokens["ada"], tokens["bob"]);
        auto t = (*db)->teacherToken("");
        ASSERT_TRUE(t);
        teacher = *t;
    }
    auto db = LabDb::open(file);
    ASSERT_TRUE(db);
    auto t = (*db)->teacherToken("");
    ASSERT_TRUE(t);
    EXPECT_EQ(*t, teacher);
    // Bob leaves, Carol joins, Ada's name is corrected.
    auto students = (*db)->syncRoster(rosterOf("carol,Carol\nada,Ada King\n"));
    ASSERT_TRUE(students);
    ASSERT_EQ(students->size(), 2u);
    EXPECT_EQ((*students)[0].id, "carol");
    EXPECT_EQ((*students)[1].id, "ada");
    EXPECT_EQ((*students)[1].name, "Ada King");
    EXPECT_EQ((*students)[1].token, tokens["ada"]);
    EXPECT_NE((*students)[0].token, tokens["bob"]);
    auto all = (*db)->allStudents();
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 3u);
    for (const auto& s : *all)
        EXPECT_EQ(s.active, s.id != "bob") << s.id;
    auto given = (*db)->teacherToken("chosen-by-the-teacher");
    ASSERT_TRUE(given);
    EXPECT_EQ(*given, "chosen-by-the-teacher");
}

TEST(LabDb, LastAndBestPickEachStudentsKernel) {
    ScratchDir dir("lab_test");
    auto db = LabDb::open(dir / "lab.sqlite");
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->syncRoster(rosterOf("ada,Ada\nbob,Bob\ncarol,Carol\n")));
    ASSERT_TRUE((*db)->record(recordOf("ada", "ada 1", "problems")));
    ASSERT_TRUE((*db)->record(recordOf("ada", "ada 2", "clean")));
    ASSERT_TRUE((*db)->record(recordOf("ada", "ada 3", "refused")));
    ASSERT_TRUE((*db)->record(recordOf("bob", "bob 1", "clean")));
    ASSERT_TRUE((*db)->record(recordOf("bob", "bob 2", "clean")));
    auto last = (*db)->picked(lab::Pick::Last);
    ASSERT_TRUE(last);
    ASSERT_EQ(last->size(), 2u);  // carol sent nothing
    EXPECT_EQ((*last)[0].kernel, "ada 3");
    EXPECT_EQ((*last)[1].kernel, "bob 2");
    auto best = (*db)->picked(lab::Pick::Best);
    ASSERT_TRUE(best);
    ASSERT_EQ(best->size(), 2u);
    EXPECT_EQ((*best)[0].kernel, "ada 2");
    EXPECT_EQ((*best)[1].kernel, "bob 2");  // the last of the best
}

// The schema of version 1, as the first TileScope with a lab wrote it.
const char* kVersion1 = R"sql(
CREATE TABLE students (id TEXT PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL UNIQUE);
CREATE TABLE checks (id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL, at TEXT NOT NULL,
    kind TEXT NOT NULL, kernel_hash TEXT NOT NULL, kernel TEXT NOT NULL, verdict TEXT NOT NULL,
    problems TEXT NOT NULL, backend TEXT NOT NULL, ms REAL NOT NULL);
CREATE TABLE lab (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA user_version = 1;
)sql";

TEST(LabDb, AVersion1FileIsMigratedWithEveryRecordAndToken) {
    ScratchDir dir("lab_test");
    const fs::path file = dir / "lab.sqlite";
    const std::string text = "__global__ void k() {}\n";
    const std::string hash = lab::sha256Hex(text);
    rawSql(file, std::string(kVersion1) +
                     "INSERT INTO students VALUES ('ada', 'Ada', 'ada-token'), ('bob', 'Bob', 'bob-token');"
                     "INSERT INTO lab VALUES ('teacher_token', 'teacher-token');"
                     "INSERT INTO checks (student, at, kind, kernel_hash, kernel, verdict, problems, backend, ms) "
                     "VALUES ('ada', '2026-11-30T10:00:00.000Z', 'check', '" +
                     hash + "', '" + text +
                     "', 'clean', '[]', 'cpu', 700),"
                     "('ada', '2026-11-30T10:01:00.000Z', 'run', '" +
                     hash + "', '" + text + "', 'clean', '[]', 'cpu', 650);");
    auto db = LabDb::open(file);
    ASSERT_TRUE(db) << db.error().message;
    EXPECT_EQ((*db)->schemaVersion(), lab::kSchemaVersion);
    auto students = (*db)->students();
    ASSERT_TRUE(students);
    ASSERT_EQ(students->size(), 2u);
    EXPECT_EQ((*students)[0].token, "ada-token");
    EXPECT_EQ((*students)[1].token, "bob-token");
    EXPECT_TRUE((*students)[1].active);
    auto teacher = (*db)->teacherToken("");
    ASSERT_TRUE(teacher);
    EXPECT_EQ(*teacher, "teacher-token");
    auto checks = (*db)->checks("ada", false);
    ASSERT_TRUE(checks);
    ASSERT_EQ(checks->size(), 2u);
    EXPECT_EQ((*checks)[1].kind, "run");
    EXPECT_EQ((*checks)[1].request, "{}");
    EXPECT_DOUBLE_EQ((*checks)[1].kernelMs, -1);
    auto full = (*db)->check((*checks)[0].id);
    ASSERT_TRUE(full && *full);
    EXPECT_EQ((**full).kernel, text);
    // New records go in beside the old ones.
    ASSERT_TRUE((*db)->record(recordOf("bob", "bob's", "clean")));
    db->reset();
    EXPECT_EQ(rawValue(file, "SELECT count(*) FROM kernels"), "2");
    // And a file made from nothing gets the same schema as one migrated.
    auto fresh = LabDb::open(dir / "fresh.sqlite");
    ASSERT_TRUE(fresh);
    fresh->reset();
    const std::string columns = "SELECT group_concat(name, ',') FROM pragma_table_info('checks')";
    EXPECT_EQ(rawValue(file, columns), rawValue(dir / "fresh.sqlite", columns));
    const std::string tables = "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master ORDER BY name)";
    EXPECT_EQ(rawValue(file, tables), rawValue(dir / "fresh.sqlite", tables));
}

// [SECTION] Bad databases: one line each

std::string openError(const fs::path& file, int busyTimeoutMs = 5000) {
    LabDb::Options options;
    options.busyTimeoutMs = busyTimeoutMs;
    auto db = LabDb::open(file, options);
    EXPECT_FALSE(db) << file << " opened";
    return db ? std::string() : db.error().message;
}

TEST(LabDbRefuses, AFileThatIsNoDatabase) {
    ScratchDir dir("lab_test");
    writeText(dir / "notes.sqlite", "These are my notes, not a database.\n" + std::string(5000, 'x'));
    EXPECT_EQ(openError(dir / "notes.sqlite"),
              (dir / "notes.sqlite").string() +
                  ": not a TileScope lab database (not SQLite, or damaged): give another --db (a new file is made "
                  "where none is)");
    // The text is left as it was.
    EXPECT_EQ(slurp(dir / "notes.sqlite").substr(0, 10), "These are ");
}

TEST(LabDbRefuses, ADatabaseOfAnotherProgram) {
    ScratchDir dir("lab_test");
    rawSql(dir / "other.sqlite", "CREATE TABLE invoices (id INTEGER);");
    EXPECT_NE(openError(dir / "other.sqlite").find("an SQLite database of another program"), std::string::npos);
}

TEST(LabDbRefuses, ADatabaseOfANewerSchema) {
    ScratchDir dir("lab_test");
    ASSERT_TRUE(LabDb::open(dir / "lab.sqlite"));
    rawSql(dir / "lab.sqlite", "PRAGMA user_version = " + std::to_string(lab::kSchemaVersion + 7) + ";");
    EXPECT_EQ(openError(dir / "lab.sqlite"),
              (dir / "lab.sqlite").string() + ": made by a newer TileScope (its schema is version " +
                  std::to_string(lab::kSchemaVersion + 7) + ", this one knows up to " +
                  std::to_string(lab::kSchemaVersion) + "): use that TileScope, or give another --db");
}

TEST(LabDbRefuses, ADatabaseAnotherProgramHoldsLocked) {
    ScratchDir dir("lab_test");
    const fs::path file = dir / "lab.sqlite";
    ASSERT_TRUE(LabDb::open(file));
    // Another process holds it: a child that takes the exclusive lock and waits.
    int ready[2], release[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(release), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        sqlite3* db = nullptr;
        char c = 'x';
        if (sqlite3_open(file.c_str(), &db) != SQLITE_OK ||
            sqlite3_exec(db, "BEGIN EXCLUSIVE; INSERT INTO lab VALUES ('held', 'yes');", nullptr, nullptr, nullptr) !=
                SQLITE_OK)
            c = 'n';
        [[maybe_unused]] ssize_t w = ::write(ready[1], &c, 1);
        [[maybe_unused]] ssize_t r = ::read(release[0], &c, 1);
        ::_exit(0);
    }
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ASSERT_EQ(c, 'x');
    const auto started = std::chrono::steady_clock::now();
    const std::string message = openError(file, 300);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    [[maybe_unused]] ssize_t w = ::write(release[1], "g", 1);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_EQ(message, file.string() +
                           ": locked by another program (another tilescope serve, or an open sqlite3 shell, holds "
                           "it): close it, or give another --db");
    EXPECT_GE(waited, 0.25);  // it waited its busy timeout first
    // Once let go, it opens.
    EXPECT_TRUE(LabDb::open(file));
}

TEST(LabDbRefuses, ADatabaseThatCannotBeWritten) {
    ScratchDir dir("lab_test");
    const fs::path file = dir / "lab.sqlite";
    ASSERT_TRUE(LabDb::open(file));
    ::chmod(file.c_str(), 0444);
    ::chmod(dir.path().c_str(), 0555);
    std::string message;
    if (::geteuid() != 0) {
        message = openError(file);
    } else {
        // Root writes whatever the mode says: try as nobody, in a child.
        int pipe[2];
        ASSERT_EQ(::pipe(pipe), 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(pipe[0]);
            std::string said = "setuid failed";
            if (::setgid(65534) == 0 && ::setuid(65534) == 0) {
                auto db = LabDb::open(file);
                said = db ? "opened" : db.error().message;
            }
            [[maybe_unused]] ssize_t w = ::write(pipe[1], said.data(), said.size());
            ::_exit(0);
        }
        ::close(pipe[1]);
        char buffer[1024];
        ssize_t n;
        while ((n = ::read(pipe[0], buffer, sizeof buffer)) > 0)
            message.append(buffer, static_cast<std::size_t>(n));
        ::close(pipe[0]);
        ::waitpid(child, nullptr, 0);
    }
    ::chmod(dir.path().c_str(), 0755);
    ::chmod(file.c_str(), 0644);
    EXPECT_EQ(message, file.string() +
                           ": read-only (the file or its folder cannot be written by this user): the lab's checks "
                           "could not be kept; give a --db that can be written");
}

TEST(LabDbRefuses, AFolderAndAMissingFileWhereOneMustExist) {
    ScratchDir dir("lab_test");
    EXPECT_NE(openError(dir.path()).find(": is a folder; --db takes the database's file"), std::string::npos);
    LabDb::Options options;
    options.create = false;
    auto db = LabDb::open(dir / "missing.sqlite", options);
    ASSERT_FALSE(db);
    EXPECT_NE(db.error().message.find("missing.sqlite: no such database"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "missing.sqlite"));
}

// [SECTION] lab export is grade

struct Outcome {
    int code = -1;
    std::string out, err;
};

Outcome runTilescope(const std::vector<std::string>& args, const fs::path& logs) {
    const fs::path out = logs / "stdout.txt", err = logs / "stderr.txt";
    std::string command = std::string("'") + TILESCOPE_BINARY + "'";
    for (const std::string& a : args)
        command += " '" + a + "'";
    command += " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
}

// What differs between two gradings of the same kernels by design: when they
// ran, how long they took, and where their files lie.
nlohmann::json comparable(nlohmann::json j) {
    j.erase("graded_at");
    for (auto& s : j["submissions"])
        s.erase("file");
    return j;
}

std::string withoutTimes(const std::string& text) {
    return std::regex_replace(text, std::regex(R"((time|execution_time)(="|": )[0-9.e+-]+"?)"), "$1");
}

TEST(LabExport, WritesWhatGradeWritesForTheSameKernels) {
    ScratchDir dir("lab_test");
    const fs::path source = TILESCOPE_SOURCE_DIR;
    const fs::path classDir = source / "tests" / "grade" / "class2d";
    const fs::path spec = source / "tests" / "grade" / "specs" / "class2d.toml";
    // Grade's class: three students, one file each.
    fs::create_directories(dir / "class");
    for (const char* name : {"basic", "no_barrier", "tiled"})
        fs::copy_file(classDir / (std::string(name) + ".cu"), dir / "class" / (std::string(name) + ".cu"));
    // The lab's: the same three, each with an earlier kernel that is not their last.
    const fs::path file = dir / "lab.sqlite";
    {
        auto db = LabDb::open(file);
        ASSERT_TRUE(db) << db.error().message;
        ASSERT_TRUE((*db)->syncRoster(rosterOf("id,name\ntiled,T\nno_barrier,N\nbasic,B\n")));
        for (const char* name : {"tiled", "no_barrier", "basic"}) {
            ASSERT_TRUE((*db)->record(recordOf(name, "// an early draft\n", "refused")));
            ASSERT_TRUE((*db)->record(recordOf(name, slurp(classDir / (std::string(name) + ".cu")), "clean")));
        }
    }
    fs::create_directories(dir / "logs");
    const Outcome graded = runTilescope({"grade", "--spec", spec.string(), (dir / "class").string(), "--out",
                                         (dir / "graded").string(), "-j", "2", "--sandbox", "auto"},
                                        dir / "logs");
    ASSERT_EQ(graded.code, 0) << graded.err;
    const Outcome exported =
        runTilescope({"lab", "export", "--db", file.string(), "--spec", spec.string(), "--out",
                      (dir / "exported").string(), "--pick", "last", "-j", "2", "--sandbox", "auto"},
                     dir / "logs");
    ASSERT_EQ(exported.code, 0) << exported.err;
    EXPECT_NE(exported.err.find("self-check: a right kernel file translated, compiled and ran clean"),
              std::string::npos)
        << exported.err;
    // The same line a student (in the order graded, two at a time), the same
    // summary (but for the folder).
    auto lines = [](const std::string& out) {
        std::vector<std::string> list;
        std::istringstream in(out.substr(0, out.find("results in")));
        for (std::string line; std::getline(in, line);)
            list.push_back(line);
        std::sort(list.begin(), list.end());
        return list;
    };
    EXPECT_EQ(lines(exported.out), lines(graded.out));
    EXPECT_EQ(slurp(dir / "exported" / "class.csv"), slurp(dir / "graded" / "class.csv"));
    EXPECT_EQ(withoutTimes(slurp(dir / "exported" / "junit.xml")), withoutTimes(slurp(dir / "graded" / "junit.xml")));
    const auto a = nlohmann::json::parse(slurp(dir / "exported" / "class.json"));
    const auto b = nlohmann::json::parse(slurp(dir / "graded" / "class.json"));
    EXPECT_EQ(comparable(a), comparable(b));
    EXPECT_EQ(a["submissions"][0]["file"], "submissions/basic.cu");
    for (const char* name : {"basic", "no_barrier", "tiled"}) {
        EXPECT_EQ(withoutTimes(slurp(dir / "exported" / name / "results.json")),
                  withoutTimes(slurp(dir / "graded" / name / "results.json")))
            << name;
        EXPECT_EQ(slurp(dir / "exported" / "submissions" / (std::string(name) + ".cu")),
                  slurp(classDir / (std::string(name) + ".cu")));
    }
    EXPECT_EQ(slurp(dir / "exported" / "cases" / "1-mask.txt"), slurp(dir / "graded" / "cases" / "1-mask.txt"));
}

TEST(LabExport, BadInputIsOneLineAndWritesNothing) {
    ScratchDir dir("lab_test");
    const fs::path spec = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "grade" / "specs" / "class2d.toml";
    fs::create_directories(dir / "logs");
    auto run = [&](const std::string& db) {
        return runTilescope({"lab", "export", "--db", db, "--spec", spec.string(), "--out", (dir / "out").string(),
                             "--sandbox", "auto"},
                            dir / "logs");
    };
    Outcome o = run((dir / "missing.sqlite").string());
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.err, "tilescope: " + (dir / "missing.sqlite").string() +
                         ": no such database (tilescope serve --roster ... --db FILE makes one)\n");
    writeText(dir / "junk.sqlite", std::string(4096, 'j'));
    o = run((dir / "junk.sqlite").string());
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("not a TileScope lab database"), std::string::npos) << o.err;
    {
        auto db = LabDb::open(dir / "empty.sqlite");
        ASSERT_TRUE(db);
        ASSERT_TRUE((*db)->syncRoster(rosterOf("ada,Ada\n")));
    }
    o = run((dir / "empty.sqlite").string());
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("no student has sent a kernel yet"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace tilescope
