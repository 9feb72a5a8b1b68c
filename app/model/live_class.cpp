#include "model/live_class.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>

#include "trace/problems.hpp"

namespace tilescope::ui {

namespace {

using Json = nlohmann::json;

std::string text(const Json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}
unsigned whole(const Json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number_unsigned() ? j[key].get<unsigned>() : 0u;
}

std::vector<LiveProblem> problemsOf(const Json& list) {
    std::vector<LiveProblem> out;
    if (!list.is_array())
        return out;
    for (const Json& p : list) {
        if (!p.is_object())
            continue;
        LiveProblem q;
        q.kind = text(p, "kind");
        q.order = text(p, "order");
        q.array = text(p, "array");
        q.firstLine = q.kind == "refused" || q.kind == "backend" ? whole(p, "line") : whole(p, "first_line");
        q.secondLine = whole(p, "second_line");
        if (p.contains("count") && p["count"].is_number_integer())
            q.count = p["count"].get<long long>();
        q.reason = text(p, "reason");
        out.push_back(std::move(q));
    }
    return out;
}

// What a check asked: its size, radius and seed (the request's JSON).
void requestOf(const Json& request, std::string& size, int& radius, unsigned& seed) {
    size = text(request, "size");
    if (request.is_object() && request.contains("radius") && request["radius"].is_number_integer())
        radius = request["radius"].get<int>();
    if (request.is_object() && request.contains("seed") && request["seed"].is_number_unsigned())
        seed = request["seed"].get<unsigned>();
}

LiveState stateOf(const std::string& verdict) {
    if (verdict == "clean")
        return LiveState::Right;
    if (verdict == "problems")
        return LiveState::Stuck;
    if (verdict == "refused")
        return LiveState::Refused;
    return LiveState::NotYet;  // compiled and not run yet, the backend unavailable, nothing
}

// "shared race", as `check` prints it, from the JSON's key.
std::string kindWords(const std::string& key) {
    for (int k = 0; k < kProblemKindCount; ++k)
        if (key == problemKindKey(static_cast<ProblemKind>(k)))
            return problemKindName(static_cast<ProblemKind>(k));
    std::string words = key;
    std::replace(words.begin(), words.end(), '_', ' ');
    return words;
}

std::string article(const std::string& noun) {
    return (!noun.empty() && std::string_view("aeiou").find(noun.front()) != std::string_view::npos ? "an " : "a ") +
           noun;
}

}  // namespace

Result<LiveClass> parseLiveClass(std::string_view body) {
    const Json j = Json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("students") || !j["students"].is_array())
        return badInput("the server's class is not what this TileScope reads (no \"students\" list)");
    LiveClass live;
    int number = 0;
    for (const Json& s : j["students"]) {
        LiveStudent student;
        student.number = ++number;
        student.id = text(s, "id");
        student.name = text(s, "name");
        if (student.id.empty())
            return badInput("the server's class has a student without an id (student " + std::to_string(number) + ")");
        if (s.contains("checks") && s["checks"].is_number_integer())
            student.checks = s["checks"].get<long long>();
        if (s.contains("last") && s["last"].is_object()) {
            const Json& last = s["last"];
            if (last.contains("id") && last["id"].is_number_integer())
                student.last = last["id"].get<std::int64_t>();
            student.at = text(last, "at");
            student.kind = text(last, "kind");
            student.verdict = text(last, "verdict");
            student.state = stateOf(student.verdict);
            student.problems = problemsOf(last.value("problems", Json()));
            requestOf(last.value("request", Json()), student.size, student.radius, student.seed);
        }
        live.students.push_back(std::move(student));
    }
    if (j.contains("last_check") && j["last_check"].is_number_integer())
        live.lastCheck = j["last_check"].get<std::int64_t>();
    if (j.contains("checks") && j["checks"].is_number_integer())
        live.checks = j["checks"].get<long long>();
    live.serverNow = text(j, "now");
    const std::optional<double> now = utcSeconds(live.serverNow);
    for (LiveStudent& s : live.students) {
        live.lastCheck = std::max(live.lastCheck, s.last);
        if (const std::optional<double> at = utcSeconds(s.at); at && now)
            s.agoSeconds = std::max(0.0, *now - *at);
    }
    live.received = std::chrono::steady_clock::now();
    return live;
}

Result<LiveCheck> parseLiveCheck(std::string_view body) {
    const Json j = Json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("kernel") || !j["kernel"].is_string() || !j.contains("id") ||
        !j["id"].is_number_integer())
        return badInput("the server's check is not what this TileScope reads (no \"kernel\" text)");
    LiveCheck c;
    c.id = j["id"].get<std::int64_t>();
    c.student = text(j, "student");
    c.kernel = j["kernel"].get<std::string>();
    c.verdict = text(j, "verdict");
    c.problems = problemsOf(j.value("problems", Json()));
    requestOf(j.value("request", Json()), c.size, c.radius, c.seed);
    return c;
}

std::optional<double> utcSeconds(std::string_view t) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    double second = 0;
    const std::string s(t);
    if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%lfZ", &year, &month, &day, &hour, &minute, &second) != 6)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = 0;
    const std::time_t whole = timegm(&tm);
    if (whole == static_cast<std::time_t>(-1))
        return std::nullopt;
    return static_cast<double>(whole) + second;
}

std::string agoText(double seconds) {
    if (seconds < 0)
        return "";
    if (seconds < 5)
        return "just now";
    if (seconds < 60)
        return std::to_string(static_cast<int>(seconds)) + " s ago";
    if (seconds < 3600)
        return std::to_string(static_cast<int>(seconds / 60)) + " min ago";
    if (seconds < 2 * 86400)
        return std::to_string(static_cast<int>(seconds / 3600)) + " h ago";
    return std::to_string(static_cast<int>(seconds / 86400)) + " days ago";
}

// [SECTION] What the panel shows

LiveSummary summarize(const LiveClass& live) {
    LiveSummary s;
    s.students = static_cast<int>(live.students.size());
    for (const LiveStudent& student : live.students)
        ++s.count[static_cast<std::size_t>(student.state)];
    return s;
}

std::string summarySentence(const LiveSummary& s) {
    return std::to_string(s.of(LiveState::Right)) + " of " + std::to_string(s.students) + " right, " +
           std::to_string(s.of(LiveState::Stuck)) + " stuck, " + std::to_string(s.of(LiveState::Refused)) +
           (s.of(LiveState::Refused) == 1 ? " does" : " do") + " not compile or run, " +
           std::to_string(s.of(LiveState::NotYet)) + " nothing yet";
}

const char* liveStateMark(LiveState state) {
    switch (state) {
        case LiveState::Right:
            return "\xE2\x9C\x93";  // ✓
        case LiveState::Stuck:
            return "\xE2\x9C\x97";  // ✗
        case LiveState::Refused:
            return "\xE2\x9A\xA0";  // ⚠
        case LiveState::NotYet:
            break;
    }
    return "\xE2\x80\x93";  // –
}

const char* liveStateWords(LiveState state) {
    switch (state) {
        case LiveState::Right:
            return "right";
        case LiveState::Stuck:
            return "stuck";
        case LiveState::Refused:
            return "does not compile or run";
        case LiveState::NotYet:
            break;
    }
    return "nothing yet";
}

std::string liveProblemKey(const LiveProblem& p) {
    return p.kind + "/" + p.order + "/" + p.array + "/" + std::to_string(p.firstLine) + "/" +
           std::to_string(p.secondLine);
}

std::string liveProblemText(const LiveProblem& p) {
    if (p.kind == "refused")
        return p.firstLine > 0 ? "does not compile or run, at line " + std::to_string(p.firstLine)
                               : "does not compile or run (not at a line: " +
                                     (p.reason.size() > 60 ? p.reason.substr(0, 57) + "..." : p.reason) + ")";
    if (p.kind == "backend")
        return "the backend asked for is unavailable";
    std::string words = article(kindWords(p.kind));
    if (!p.array.empty())
        words += " on " + p.array;
    if (p.secondLine > 0 && p.secondLine != p.firstLine)
        words += " between line " + std::to_string(p.firstLine) + " and line " + std::to_string(p.secondLine);
    else if (p.firstLine > 0)
        words += " at line " + std::to_string(p.firstLine);
    if (!p.order.empty() && p.order != "none")
        words += " (" + p.order + ")";
    return words;
}

std::vector<LivePattern> livePatterns(const LiveClass& live) {
    std::vector<LivePattern> patterns;
    std::map<std::string, std::size_t> byKey;
    for (std::size_t i = 0; i < live.students.size(); ++i) {
        const LiveStudent& s = live.students[i];
        if (s.state != LiveState::Stuck && s.state != LiveState::Refused)
            continue;
        for (const LiveProblem& p : s.problems) {
            const std::string key = liveProblemKey(p);
            auto [it, added] = byKey.emplace(key, patterns.size());
            if (added)
                patterns.push_back(LivePattern{key, p, {}, liveProblemText(p), {}});
            std::vector<std::size_t>& who = patterns[it->second].students;
            if (who.empty() || who.back() != i)
                who.push_back(i);
        }
    }
    std::stable_sort(patterns.begin(), patterns.end(), [](const LivePattern& a, const LivePattern& b) {
        if (a.students.size() != b.students.size())
            return a.students.size() > b.students.size();
        return std::pair(a.problem.firstLine, a.problem.secondLine) < std::pair(b.problem.firstLine, b.problem.secondLine);
    });
    for (LivePattern& p : patterns)
        p.sentence = std::to_string(p.students.size()) + " of " + std::to_string(live.students.size()) + ": " + p.text;
    return patterns;
}

std::string liveVerdictText(const LiveStudent& s) {
    switch (s.state) {
        case LiveState::Right:
            return "right";
        case LiveState::NotYet:
            return s.verdict == "compiled" ? "compiled, not run yet" : "nothing checked yet";
        case LiveState::Refused:
            if (!s.problems.empty() && s.problems.front().firstLine > 0)
                return "does not compile or run: line " + std::to_string(s.problems.front().firstLine);
            return "does not compile or run";
        case LiveState::Stuck:
            break;
    }
    if (s.problems.empty())
        return "problems";
    const LiveProblem& p = s.problems.front();
    std::string words = kindWords(p.kind);
    if (p.secondLine > 0 && p.secondLine != p.firstLine)
        words += ", lines " + std::to_string(p.firstLine) + " \xE2\x86\x92 " + std::to_string(p.secondLine);
    else if (p.firstLine > 0)
        words += ", line " + std::to_string(p.firstLine);
    if (s.problems.size() > 1)
        words += " (+" + std::to_string(s.problems.size() - 1) + ")";
    return words;
}

std::string liveVerdictShort(const LiveStudent& s) {
    if (s.state == LiveState::Right)
        return "right";
    if (s.state == LiveState::NotYet)
        return s.verdict == "compiled" ? "compiled" : "nothing yet";
    if (s.problems.empty())
        return s.state == LiveState::Refused ? "no compile" : "problems";
    const LiveProblem& p = s.problems.front();
    if (s.state == LiveState::Refused)
        return p.firstLine > 0 ? "line " + std::to_string(p.firstLine) : "no compile";
    std::string words = p.kind == "shared_race" || p.kind == "global_race" ? "race"
                        : p.kind == "wrong_result"                          ? "wrong"
                        : p.kind == "barrier_mismatch"                      ? "barrier"
                                                                            : kindWords(p.kind);
    if (p.firstLine > 0)
        words += " " + std::to_string(p.firstLine);
    if (p.secondLine > 0 && p.secondLine != p.firstLine)
        words += " \xE2\x86\x92 " + std::to_string(p.secondLine);
    return words;
}

std::vector<std::size_t> liveRows(const LiveClass& live, const std::optional<std::string>& key) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < live.students.size(); ++i) {
        const LiveStudent& s = live.students[i];
        if (key && (s.state != LiveState::Stuck && s.state != LiveState::Refused))
            continue;
        if (key && std::none_of(s.problems.begin(), s.problems.end(),
                                [&](const LiveProblem& p) { return liveProblemKey(p) == *key; }))
            continue;
        rows.push_back(i);
    }
    return rows;
}

std::string liveStudentLabel(const LiveStudent& s, bool names) {
    if (names)
        return s.name.empty() ? s.id : s.name;
    return "student " + std::to_string(s.number);
}

// [SECTION] Following a server

Result<ClassLink> parseClassLink(const std::string& link) {
    const std::size_t hash = link.find('#');
    const std::string address = link.substr(0, hash);
    const std::string fragment = hash == std::string::npos ? std::string() : link.substr(hash + 1);
    ClassLink out;
    // The token: the fragment's token=... (the teacher's link, roster.teacher.txt).
    for (std::size_t from = 0; from < fragment.size();) {
        const std::size_t amp = std::min(fragment.find('&', from), fragment.size());
        const std::string_view part = std::string_view(fragment).substr(from, amp - from);
        if (part.rfind("token=", 0) == 0)
            out.token = std::string(part.substr(6));
        from = amp + 1;
    }
    const std::size_t scheme = address.find("://");
    if (scheme == std::string::npos || (address.compare(0, scheme, "http") != 0 && address.compare(0, scheme, "https") != 0))
        return badInput("--class-server '" + address +
                        "': give the teacher's link, http://HOST:PORT/#token=... (roster.teacher.txt beside the roster)");
    const std::size_t path = address.find('/', scheme + 3);
    out.base = address.substr(0, path);
    out.prefix = path == std::string::npos ? "/" : address.substr(path);
    out.prefix = out.prefix.substr(0, out.prefix.find('?'));
    if (out.prefix.empty() || out.prefix.back() != '/')
        out.prefix += '/';
    if (out.base.size() <= scheme + 3)
        return badInput("--class-server '" + address + "': no host in it (http://HOST:PORT/#token=...)");
    if (out.token.empty())
        return badInput("--class-server '" + address +
                        "': the link has no token: give the teacher's whole link, ending in #token=... "
                        "(roster.teacher.txt)");
    return out;
}

ClassFollower::ClassFollower(ClassTransport transport, std::string where)
    : m_transport(std::move(transport)), m_where(std::move(where)) {}

void ClassFollower::start() { ask(0.0); }

void ClassFollower::stop() {
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_onChange = nullptr;
}

void ClassFollower::setOnChange(std::function<void()> callback) {
    std::lock_guard lock(m_mutex);
    m_onChange = std::move(callback);
}

std::shared_ptr<const LiveClass> ClassFollower::snapshot() const {
    std::lock_guard lock(m_mutex);
    return m_class;
}
std::uint64_t ClassFollower::serial() const {
    std::lock_guard lock(m_mutex);
    return m_serial;
}
bool ClassFollower::waiting() const {
    std::lock_guard lock(m_mutex);
    return m_waiting;
}
bool ClassFollower::following() const {
    std::lock_guard lock(m_mutex);
    return m_following;
}
std::string ClassFollower::problem() const {
    std::lock_guard lock(m_mutex);
    return m_problem;
}

void ClassFollower::ask(double delaySeconds) {
    std::int64_t after = 0;
    bool first = false;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        after = m_class ? m_class->lastCheck : 0;
        first = !m_class;
    }
    // The first answer at once; then each waits for a check newer than the last one seen.
    const std::string path = first ? std::string("/api/class")
                                   : "/api/class?after=" + std::to_string(after) + "&wait=" + std::to_string(kWaitSeconds);
    std::weak_ptr<ClassFollower> self = weak_from_this();
    m_transport(path, delaySeconds, [self](ServedReply reply) {
        if (auto follower = self.lock())
            follower->answered(std::move(reply));
    });
}

void ClassFollower::answered(ServedReply reply) {
    std::function<void()> onChange;
    double again = 0.0;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        m_waiting = false;
        const std::string said = [&] {
            const Json j = Json::parse(reply.body, nullptr, false);
            return j.is_object() && j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>()
                                                                                 : std::string();
        }();
        if (reply.status == 200) {
            auto live = parseLiveClass(reply.body);
            if (!live) {
                m_problem = m_where + ": " + live.error().message;
                again = 10.0;
            } else {
                const bool changed = !m_class || live->lastCheck != m_class->lastCheck ||
                                     live->students.size() != m_class->students.size();
                m_problem.clear();
                // Nothing new (the server waited its time, or would not wait): a second before asking again.
                again = changed ? 0.0 : 1.0;
                m_class = std::make_shared<const LiveClass>(std::move(*live));
            }
        } else if (reply.status == 403) {
            // A student's link, or a server without a roster: no class to follow.
            m_following = false;
            m_problem = m_where + ": " + (said.empty() ? "this link may not read the class" : said);
        } else if (reply.status == 401) {
            m_following = false;
            m_problem = m_where + " refused the token: give the teacher's link (roster.teacher.txt)";
        } else {
            m_problem = reply.status == 0 ? m_where + " does not answer: is tilescope serve running? (trying again)"
                                          : m_where + " answered " + std::to_string(reply.status) +
                                                (said.empty() ? "" : ": " + said) + " (trying again)";
            again = 2.0;
        }
        ++m_serial;  // the class, its times or the status line changed
        onChange = m_onChange;
        if (!m_following)
            again = -1.0;
    }
    if (onChange)
        onChange();
    if (again >= 0.0)
        ask(again);
}

void ClassFollower::fetchCheck(std::int64_t id) {
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        m_fetched.reset();
    }
    std::weak_ptr<ClassFollower> self = weak_from_this();
    const std::string where = m_where;
    m_transport("/api/checks/" + std::to_string(id), 0.0, [self, where, id](ServedReply reply) {
        auto follower = self.lock();
        if (!follower)
            return;
        Result<LiveCheck> check = badInput("");
        if (reply.status == 200) {
            check = parseLiveCheck(reply.body);
        } else {
            const Json j = Json::parse(reply.body, nullptr, false);
            const std::string said = j.is_object() && j.contains("error") && j["error"].is_string()
                                         ? ": " + j["error"].get<std::string>()
                                         : std::string();
            check = badInput(reply.status == 0 ? where + " does not answer (check " + std::to_string(id) + ")"
                                               : where + " answered " + std::to_string(reply.status) + said);
        }
        std::function<void()> onChange;
        {
            std::lock_guard lock(follower->m_mutex);
            follower->m_fetched = std::move(check);
            onChange = follower->m_onChange;
        }
        if (onChange)
            onChange();
    });
}

std::optional<Result<LiveCheck>> ClassFollower::takeFetched() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_fetched, std::nullopt);
}

}  // namespace tilescope::ui
