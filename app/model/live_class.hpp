// The class now: a running `tilescope serve --roster` followed by the
// teacher's Class panel (docs/serve.md, The class, live). The server's
// GET /api/class (each student of the roster with their latest check) read
// and checked; what the panel draws worked out here without a window: the
// summary (who has a right kernel, who is stuck, who does not compile, who
// sent nothing yet), the histogram of those, the problems grouped across
// students by kind and lines ("11 of 28: a shared race on N_ds between
// line 34 and line 46"), a student's verdict in a few words and how long ago.
//
// ClassFollower keeps the class up to date: a long poll of /api/class
// (?after=the last check seen&wait=S: the server answers as soon as a check
// newer than that one is recorded, or after S seconds), so that the panel
// shows a student's check within a second of its answer. How a request
// travels is the transport's business (the desktop: cpp-httplib on a thread
// of its own, app/serve/class_client.hpp; the page: the browser's fetch,
// app/web/main.cpp; a test: a function that answers).
//
// Plain data and no ImGui: the model tests read it without a display.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/served_client.hpp"

namespace tilescope::ui {

// A problem of a student's latest check: a problem group as `check --json`
// writes it ("kind", "order", "array", "first_line", "second_line",
// "count"), or the refusal ("refused", its line and reason).
struct LiveProblem {
    std::string kind;   // "shared_race", ..., or "refused", "backend"
    std::string order;  // "read after write", "none", ""
    std::string array;  // "N_ds", or "" where there is none
    unsigned firstLine = 0, secondLine = 0;  // a refusal's line is firstLine (0: not at a line)
    long long count = 0;
    std::string reason;  // a refusal's message
};

// Where a student stands, by their latest check.
enum class LiveState {
    Right,     // clean: every output right, no problem found
    Stuck,     // it ran, with problems
    Refused,   // it did not compile, or its run failed (a crash, the time limit)
    NotYet,    // nothing checked yet (nothing sent, or compiled and never run)
};
inline constexpr int kLiveStateCount = 4;

struct LiveStudent {
    std::string id, name;
    int number = 0;         // 1, 2, ... in the roster's order: what the projector shows with the names hidden
    long long checks = 0;   // how many compiles and checks they sent
    std::int64_t last = 0;  // the latest check's id (0: none)
    std::string at;         // its time, UTC: "2026-11-30T10:15:02.123Z"
    double agoSeconds = -1;  // how long before the server's answer it was recorded (-1: none)
    std::string kind;        // check, run, trace or compile
    std::string verdict;     // clean, problems, refused, compiled, backend, ...
    LiveState state = LiveState::NotYet;
    std::vector<LiveProblem> problems;
    // What the check asked besides the kernel: the input's size ("45x37" or
    // "1000"), the mask's radius (-1: a mask of values), the seed.
    std::string size;
    int radius = -1;
    unsigned seed = 7;
};

struct LiveClass {
    std::vector<LiveStudent> students;  // the roster's order
    std::int64_t lastCheck = 0;         // the newest check of the lab (0: none)
    long long checks = 0;               // every compile and check kept
    std::string serverNow;              // the server's clock when it answered
    // When this answer arrived (this machine's steady clock): "how long ago"
    // grows from there without asking the server again.
    std::chrono::steady_clock::time_point received{};
};

// Reads GET /api/class's answer. The error says what is wrong with it.
Result<LiveClass> parseLiveClass(std::string_view json);

// Seconds since the epoch of "2026-11-30T10:15:02.123Z" (nothing when it is not such a time).
std::optional<double> utcSeconds(std::string_view text);
// "just now", "12 s ago", "3 min ago", "2 h ago", "3 days ago".
std::string agoText(double seconds);

// [SECTION] What the panel shows

struct LiveSummary {
    int students = 0;
    std::array<int, kLiveStateCount> count{};  // by LiveState
    int of(LiveState s) const { return count[static_cast<std::size_t>(s)]; }
};
LiveSummary summarize(const LiveClass& live);
// "11 of 28 right, 14 stuck, 2 do not compile or run, 1 nothing yet"
std::string summarySentence(const LiveSummary& summary);

// A state's mark and word, never colour alone: "✓ right", "✗ stuck",
// "⚠ does not compile or run", "– nothing yet".
const char* liveStateMark(LiveState state);
const char* liveStateWords(LiveState state);

// One problem shared across students: its kind and lines, and who has it.
struct LivePattern {
    std::string key;                    // "shared_race/read after write/N_ds/34/46"
    LiveProblem problem;                // the first student's, for its words
    std::vector<std::size_t> students;  // indices into LiveClass::students
    std::string text;                   // "a shared race on N_ds between line 34 and line 46 (read after write)"
    std::string sentence;               // "11 of 28: " + text
};
// Every problem of every student's latest check, grouped by kind, order,
// array and lines; the most students first (then by line).
std::vector<LivePattern> livePatterns(const LiveClass& live);
std::string liveProblemKey(const LiveProblem& problem);
std::string liveProblemText(const LiveProblem& problem);
// A student's latest verdict in a few words: "right", "shared race, lines 34 -> 46",
// "does not compile: line 21", "nothing checked yet".
std::string liveVerdictText(const LiveStudent& student);
// The same in fewer words, for a tile of one line: "race 34 → 46", "out of bounds 25", "line 21", "right".
std::string liveVerdictShort(const LiveStudent& student);
// The students (indices) to show: all of them, or those with the pattern `key`.
std::vector<std::size_t> liveRows(const LiveClass& live, const std::optional<std::string>& key);
// What the panel calls a student: their name, or with names hidden "student 7".
std::string liveStudentLabel(const LiveStudent& student, bool names);

// [SECTION] Following a server

// A teacher's link: "http://labpc:8000/#token=TEACHER" read into the
// server's address and the token.
struct ClassLink {
    std::string base;    // "http://labpc:8000" (scheme, host and port)
    std::string prefix;  // the path before the API: "/" or "/lab3/"
    std::string token;
};
Result<ClassLink> parseClassLink(const std::string& link);

// GETs `path` ("/api/class?after=41&wait=20", relative to the server) with
// the teacher's token after `delaySeconds`, and calls `done` once with the
// reply, on any thread.
using ClassTransport =
    std::function<void(const std::string& path, double delaySeconds, std::function<void(ServedReply)> done)>;

// A student's check with its kernel's text (GET /api/checks/ID).
struct LiveCheck {
    std::int64_t id = 0;
    std::string student;
    std::string kernel;
    std::string verdict;
    std::string size;  // as LiveStudent's
    int radius = -1;
    unsigned seed = 7;
    std::vector<LiveProblem> problems;
};
Result<LiveCheck> parseLiveCheck(std::string_view json);

class ClassFollower : public std::enable_shared_from_this<ClassFollower> {
public:
    // `where`: how messages name the server ("labpc:8000").
    ClassFollower(ClassTransport transport, std::string where);

    // The first request; each answer asks again, for as long as the follower lives.
    void start();
    // No more requests (answers on their way are dropped).
    void stop();
    void setOnChange(std::function<void()> callback);  // called on the answer's thread

    // The class as last answered (null until the first answer); the serial
    // changes with every answer that changed it.
    std::shared_ptr<const LiveClass> snapshot() const;
    std::uint64_t serial() const;
    // True until the first answer (or the first problem).
    bool waiting() const;
    // False once the server said this link is not the teacher's (a
    // student's link, or a server without a roster): nothing to follow.
    bool following() const;
    // What went wrong last ("" while all is well): the server is gone, the token is wrong.
    std::string problem() const;
    const std::string& where() const { return m_where; }

    // Asks for one check with its kernel's text; takeFetched() hands it over once it is in.
    void fetchCheck(std::int64_t id);
    std::optional<Result<LiveCheck>> takeFetched();

    // How long the server may hold a request before it answers with nothing new.
    static constexpr int kWaitSeconds = 20;

private:
    void ask(double delaySeconds);
    void answered(ServedReply reply);

    ClassTransport m_transport;
    std::string m_where;
    mutable std::mutex m_mutex;
    std::shared_ptr<const LiveClass> m_class;
    std::uint64_t m_serial = 0;
    bool m_waiting = true;
    bool m_following = true;
    bool m_stopped = false;
    std::string m_problem;
    std::optional<Result<LiveCheck>> m_fetched;
    std::function<void()> m_onChange;
};

}  // namespace tilescope::ui
