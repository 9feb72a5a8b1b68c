#include "serve/server.hpp"

#include <httplib.h>
#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "request/self_check.hpp"
#include "exec/backend.hpp"
#include "lab/open_store.hpp"
#include "lab/roster.hpp"
#include "own/compile_cache.hpp"
#include "serve/limits.hpp"

#ifndef TILESCOPE_VERSION_STRING
#define TILESCOPE_VERSION_STRING "unknown"
#endif

namespace tilescope::serve {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The jobs: a bounded queue served by a fixed number of threads, each job
// compiling and running one kernel file (in its own worker process).
class JobQueue {
public:
    JobQueue(int workers, std::size_t capacity) : m_capacity(capacity) {
        for (int i = 0; i < workers; ++i)
            m_threads.emplace_back([this] { serve(); });
    }
    ~JobQueue() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (std::thread& t : m_threads)
            t.join();
    }
    // False when the queue is full.
    bool push(std::function<void()> job) {
        {
            std::lock_guard lock(m_mutex);
            if (m_jobs.size() >= m_capacity)
                return false;
            m_jobs.push_back(std::move(job));
        }
        m_wake.notify_one();
        return true;
    }
    std::size_t waiting() {
        std::lock_guard lock(m_mutex);
        return m_jobs.size();
    }
    std::size_t running() {
        std::lock_guard lock(m_mutex);
        return m_running;
    }

private:
    void serve() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
                if (m_jobs.empty())
                    return;
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
                ++m_running;
            }
            job();
            std::lock_guard lock(m_mutex);
            --m_running;
        }
    }
    std::size_t m_capacity;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    std::size_t m_running = 0;
    bool m_stop = false;
    std::vector<std::thread> m_threads;
};

// gzip of `bytes` (a trace compresses to about a third).
std::string gzip(const std::string& bytes) {
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    std::string out(deflateBound(&z, bytes.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return rc == Z_STREAM_END ? out : std::string();
}

std::string nowText() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

// The web build: --web, else the installed one beside the program.
fs::path findWeb(const std::string& given) {
    std::error_code ec;
    if (!given.empty())
        return fs::canonical(given, ec);
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    for (const fs::path& p : {exe.parent_path().parent_path() / "share" / "tilescope" / "web",
                              exe.parent_path().parent_path() / "build-web" / "web"})
        if (fs::is_regular_file(p / "index.html", ec))
            return fs::canonical(p, ec);
    return {};
}

const char* kNoWebPage = R"(<!doctype html>
<html><head><meta charset="utf-8"><title>TileScope server</title></head>
<body><h1>TileScope server</h1>
<p>This server answers the API (<code>/api/check</code>, <code>/api/trace</code>, <code>/api/run</code>,
<code>/api/compile</code>, <code>/api/health</code>;
docs/serve.md) but holds no web build to serve.</p>
<p>Build it (docs/web.md: <code>emcmake cmake -S . -B build-web &amp;&amp; cmake --build build-web</code>) and start
the server with <code>tilescope serve --web build-web/web ...</code>.</p></body></html>
)";

// Who sent a request, by its token: the class (the one token of a server
// without a roster), a student of the roster, or the teacher.
enum class Role { Class, Student, Teacher };
struct Identity {
    Role role = Role::Class;
    std::string student;  // the roster's id, for a student
};

// A record of the lab as the API answers it: its problems and request as
// JSON again, the kernel's text when asked.
Json recordJson(const lab::CheckRecord& r, bool withKernel) {
    auto parsed = [](const std::string& text) {
        Json j = Json::parse(text, nullptr, false);
        return j.is_discarded() ? Json(text) : j;
    };
    Json j{{"id", r.id},
           {"student", r.student.empty() ? Json(nullptr) : Json(r.student)},
           {"at", r.at},
           {"kind", r.kind},
           {"kernel_hash", r.kernelHash},
           {"verdict", r.verdict},
           {"problems", parsed(r.problems)},
           {"request", parsed(r.request)},
           {"backend", r.backend.empty() ? Json(nullptr) : Json(r.backend)},
           {"ms", r.ms},
           {"kernel_ms", r.kernelMs < 0 ? Json(nullptr) : Json(r.kernelMs)}};
    if (withKernel)
        j["kernel"] = r.kernel;
    return j;
}

// The lab's newest check, for the teacher's Class panel waiting on it (GET
// /api/class?after=ID&wait=S: a long poll, docs/serve.md): each record wakes
// the requests that wait; a server that stops wakes them all. Each waiting
// request holds one of the server's threads, so a few wait at most; past
// them, a request is answered at once (and its follower asks again a second
// later, as a poll would).
class LabChanges {
public:
    static constexpr int kMaxWaiting = 8;
    static constexpr double kMaxWaitSeconds = 25.0;

    void recorded(std::int64_t id) {
        {
            std::lock_guard lock(m_mutex);
            m_last = std::max(m_last, id);
        }
        m_wake.notify_all();
    }
    void stop() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
    }
    // Until a check newer than `after` is recorded, the server stops, or `seconds` pass.
    void wait(std::int64_t after, double seconds) {
        std::unique_lock lock(m_mutex);
        if (m_waiting >= kMaxWaiting || m_stop)
            return;
        ++m_waiting;
        m_wake.wait_for(lock, std::chrono::duration<double>(std::min(seconds, kMaxWaitSeconds)),
                        [&] { return m_stop || m_last > after; });
        --m_waiting;
    }
    void seen(std::int64_t id) { recorded(id); }

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::int64_t m_last = 0;
    int m_waiting = 0;
    bool m_stop = false;
};

int g_stopPipe[2] = {-1, -1};
void onSignal(int) {
    const char c = 's';
    [[maybe_unused]] ssize_t n = ::write(g_stopPipe[1], &c, 1);
}

}  // namespace

int runServer(const ServeOptions& o) {
    const bool labAsked = !o.roster.empty() || !o.db.empty();
    if (o.token.empty() && !labAsked) {
        std::fprintf(stderr,
                     "tilescope: give the class's token: --token SECRET (or $TILESCOPE_SERVE_TOKEN), or a roster: "
                     "--roster roster.csv\n");
        return 2;
    }
    if (o.workers < 1 || o.workers > 64) {
        std::fprintf(stderr, "tilescope: --workers %d: give 1 to 64\n", o.workers);
        return 2;
    }
    if (o.queue < 1) {
        std::fprintf(stderr, "tilescope: --queue must be at least 1\n");
        return 2;
    }
    if (o.job.backend == "cuda") {
        std::string reason;
        if (!gpuAvailable(&reason)) {
            std::fprintf(stderr, "tilescope: --backend cuda: %s\n", reason.c_str());
            return 3;
        }
    }
    const fs::path web = findWeb(o.webDir);
    if (!o.webDir.empty() && (web.empty() || !fs::is_directory(web))) {
        std::fprintf(stderr, "tilescope: --web %s: no such folder\n", o.webDir.c_str());
        return 2;
    }
    std::string gpuName, gpuReason;
    const bool gpu = o.job.backend != "cpu" && gpuAvailable(&gpuReason, &gpuName);

    // The lab: the roster read and checked, the database opened (or made)
    // and brought up to date, each student's token kept or made.
    std::unique_ptr<lab::LabStore> labDb;
    std::vector<std::pair<std::string, Identity>> tokens;  // token -> who
    std::vector<lab::LabStudent> students;
    std::string teacherToken;
    fs::path linksBeside;
    if (labAsked) {
        std::vector<lab::RosterStudent> roster;
        if (!o.roster.empty()) {
            auto read = lab::readRoster(o.roster);
            if (!read) {
                std::fprintf(stderr, "tilescope: %s\n", read.error().message.c_str());
                return 2;
            }
            roster = std::move(*read);
        }
        const std::string dbName = o.db.empty() ? std::string("lab.sqlite") : o.db;
        lab::StoreOptions storeOptions;
        // The name the servers of one PostgreSQL database know each other by.
        storeOptions.program = "tilescope serve";
        storeOptions.note = [](const std::string& line) {
            std::fprintf(stderr, "tilescope serve: %s\n", line.c_str());
        };
        auto opened = lab::openLabStore(dbName, storeOptions);
        if (!opened) {
            std::fprintf(stderr, "tilescope: %s\n", opened.error().message.c_str());
            return 2;
        }
        labDb = std::move(*opened);
        lab::RosterOrigin origin;
        {
            std::error_code ec;
            char host[256] = {};
            origin.host = ::gethostname(host, sizeof host - 1) == 0 ? host : "";
            origin.file = o.roster.empty() ? o.roster : fs::absolute(o.roster, ec).string();
        }
        auto known = o.roster.empty() ? labDb->students() : labDb->syncRoster(roster, origin);
        if (!known) {
            std::fprintf(stderr, "tilescope: %s\n", known.error().message.c_str());
            return 2;
        }
        students = std::move(*known);
        if (!students.empty()) {
            auto teacher = labDb->teacherToken(o.token);
            if (!teacher) {
                std::fprintf(stderr, "tilescope: %s\n", teacher.error().message.c_str());
                return 2;
            }
            teacherToken = *teacher;
            tokens.emplace_back(teacherToken, Identity{Role::Teacher, {}});
            for (const lab::LabStudent& student : students)
                tokens.emplace_back(student.token, Identity{Role::Student, student.id});
            // Without a roster the links go beside the SQLite file, or into
            // the working folder (lab.links.csv) for a database elsewhere.
            linksBeside = !o.roster.empty() ? fs::path(o.roster) : labDb->shared() ? fs::path("lab") : fs::path(dbName);
        } else if (o.token.empty()) {
            std::fprintf(stderr,
                         "tilescope: %s holds no roster: give one (--roster roster.csv) or the class's token "
                         "(--token SECRET)\n",
                         labDb->describe().c_str());
            return 2;
        }
    }
    const bool rosterMode = !students.empty();
    if (!rosterMode)
        tokens.emplace_back(o.token, Identity{Role::Class, {}});

    // The pipeline itself, before any student's kernel: a right kernel file
    // through the same sandbox and backends as theirs.
    {
        request::SelfCheckOptions check;
        check.sandbox = o.job.sandbox;
        check.cuda = gpu;
        check.timeLimitSeconds = o.job.timeLimitSeconds;
        check.compileLimitSeconds = o.job.compileLimitSeconds;
        std::string said;
        if (Status s = request::selfCheck(check, &said); !s) {
            std::fprintf(stderr, "tilescope: %s; nothing is served (docs/serve.md)\n", s.error().message.c_str());
            return 3;
        }
        std::fprintf(stderr, "tilescope serve: %s\n", said.c_str());
    }

    // Compiled kernels kept in the server's folder: a student's repeated
    // check, /api/compile then /api/run, skip the compiler.
    JobSettings settings = o.job;
    if (o.compileCache != "off") {
        const fs::path folder = !o.compileCache.empty() ? fs::path(o.compileCache)
                                : labDb && !labDb->shared()
                                    ? fs::path(o.db.empty() ? "lab.sqlite" : o.db).parent_path() / "tilescope-kernels"
                                    : fs::path("tilescope-kernels");
        auto cache = std::make_shared<const own::CompileCache>(
            folder, static_cast<std::uintmax_t>(std::max(1, o.compileCacheMb)) << 20);
        if (cache->usable())
            settings.compileCache = cache;
        else
            std::fprintf(stderr,
                         "tilescope serve: %s: cannot keep compiled kernels there (a folder this user alone may "
                         "write); every check compiles\n",
                         folder.c_str());
    }

    JobQueue jobs(o.workers, o.queue);
    RateLimiter limiter(o.ratePerMinute / 60.0, o.burst);
    std::mutex logMutex;
    // Shared with the store's watcher of the other servers' records, which
    // may outlive this function's other locals by a moment.
    auto changesKept = std::make_shared<LabChanges>();
    LabChanges& changes = *changesKept;
    if (labDb) {
        if (auto last = labDb->lastCheckId())
            changes.seen(*last);
        // Several servers on one database: a record made by another wakes
        // this server's teachers too.
        labDb->watchOtherServers([changesKept](std::int64_t id) { changesKept->recorded(id); });
    }

    httplib::Server server;
    // Handlers wait for their jobs: enough threads for every job the queue
    // holds, the ones running, the requests that need no job, and the
    // teacher's views waiting for the class to change (LabChanges).
    const std::size_t threads =
        o.queue + static_cast<std::size_t>(o.workers) + 16 + static_cast<std::size_t>(LabChanges::kMaxWaiting);
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    const auto io = std::chrono::duration<double>(o.ioTimeoutSeconds);
    server.set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(io));
    server.set_write_timeout(std::chrono::duration_cast<std::chrono::microseconds>(io));
    server.set_keep_alive_timeout(static_cast<time_t>(std::max(1.0, o.ioTimeoutSeconds)));
    // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a
    // second server started on the same port by mistake would silently take
    // half of the requests.
    //
    // The socket it is called with is the listening one (the last one, where
    // a name resolves to several addresses and the first ones fail to bind):
    // kept to widen its queue below.
    socket_t listening = INVALID_SOCKET;
    server.set_socket_options([&listening](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        listening = sock;
    });
    // A kernel of 64 KB escaped into JSON, and a mask: past this the body is not read (413).
    server.set_payload_max_length(kMaxBodyBytes);

    auto clientOf = [&o](const httplib::Request& req) {
        if (o.behindProxy && req.has_header("X-Forwarded-For")) {
            std::string first = req.get_header_value("X-Forwarded-For");
            first = first.substr(0, first.find(','));
            first.erase(0, first.find_first_not_of(' '));
            first.erase(first.find_last_not_of(' ') + 1);
            if (!first.empty())
                return first;
        }
        return req.remote_addr;
    };
    auto send = [](httplib::Response& res, const Answer& a) {
        res.status = a.status;
        res.set_content(a.body, a.contentType.c_str());
        res.set_header("X-Tilescope-Verdict", a.verdict);
    };

    server.set_logger([&](const httplib::Request& req, const httplib::Response& res) {
        std::string kernel = res.get_header_value("X-Tilescope-Kernel");
        std::string verdict = res.get_header_value("X-Tilescope-Verdict");
        std::string timing = res.get_header_value("Server-Timing");  // "job;dur=812"
        const std::string ms = timing.empty() ? "-" : timing.substr(timing.find('=') + 1);
        std::lock_guard lock(logMutex);
        std::printf("%s %s %s %s %s %s %d %s ms\n", nowText().c_str(), clientOf(req).c_str(), req.method.c_str(),
                    req.path.c_str(), kernel.empty() ? "-" : kernel.substr(0, 12).c_str(),
                    verdict.empty() ? "-" : verdict.c_str(), res.status, ms.c_str());
        std::fflush(stdout);
    });

    // The token of the Authorization header, held against every token the
    // server knows (each compared in constant time, all of them every time).
    auto identify = [&](const httplib::Request& req) -> std::optional<Identity> {
        const std::string auth = req.get_header_value("Authorization");
        const std::string bearer = "Bearer ";
        const bool hasBearer = auth.size() > bearer.size() && auth.compare(0, bearer.size(), bearer) == 0;
        const std::string_view given = hasBearer ? std::string_view(auth).substr(bearer.size()) : std::string_view();
        std::optional<Identity> found;
        for (const auto& [token, who] : tokens)
            if (sameToken(given, token) && !found)
                found = who;
        return found;
    };
    auto unauthorized = [&](httplib::Response& res) {
        send(res, errorAnswer(401, "unauthorized",
                              rosterMode ? "give your own link's token: Authorization: Bearer TOKEN"
                                         : "give the class's token: Authorization: Bearer TOKEN"));
        res.set_header("WWW-Authenticate", "Bearer");
    };
    // The rate limit counts the student (a lab behind one address is many
    // students), or the address where the class shares one token.
    auto admitted = [&](const Identity& who, const httplib::Request& req, httplib::Response& res) {
        const std::string key = who.role == Role::Student   ? "student " + who.student
                                : who.role == Role::Teacher ? std::string("teacher")
                                                            : clientOf(req);
        double wait = 0.0;
        if (limiter.take(key, &wait))
            return true;
        send(res, errorAnswer(429, "too_many_requests",
                              who.role == Role::Class ? "too many requests from this client; wait a moment"
                                                      : "too many requests from this link; wait a moment"));
        res.set_header("Retry-After", std::to_string(static_cast<long long>(wait) + 1));
        return false;
    };
    auto sendJson = [](httplib::Response& res, int status, const Json& j) {
        res.status = status;
        res.set_content(j.dump(2, ' ', false, Json::error_handler_t::replace), "application/json");
        res.set_header("Cache-Control", "no-store");
    };
    // The lab's reads: who may read what is decided here.
    auto labReader = [&](const httplib::Request& req, httplib::Response& res) -> std::optional<Identity> {
        const std::optional<Identity> who = identify(req);
        if (!who) {
            unauthorized(res);
            return std::nullopt;
        }
        if (who->role == Role::Class || !labDb) {
            send(res, errorAnswer(403, "forbidden",
                                  "this server has no roster: checks are not kept per student (tilescope serve "
                                  "--roster roster.csv)"));
            return std::nullopt;
        }
        if (who->role == Role::Student && !admitted(*who, req, res))
            return std::nullopt;
        return who;
    };

    // The lab's database did not answer (PostgreSQL restarting, SQLite
    // locked past its wait): nothing was kept, and the client is told when
    // to ask again.
    auto unavailable = [&](httplib::Response& res, const std::string& why) {
        std::fprintf(stderr, "tilescope serve: %s\n", why.c_str());
        send(res, errorAnswer(503, "unavailable",
                              "the lab's database is not answering; nothing was kept: send it again shortly"));
        res.set_header("Retry-After", "3");
    };
    // "host:port", kept in each record: which server of a group answered.
    std::string serverName;

    auto api = [&](Job job) {
        const bool trace = job == Job::Trace || job == Job::Run;
        return [&, job, trace](const httplib::Request& req, httplib::Response& res) {
            const auto start = std::chrono::steady_clock::now();
            auto finish = [&] {
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                res.set_header("Server-Timing", "job;dur=" + std::to_string(static_cast<long long>(ms + 0.5)));
            };
            const std::optional<Identity> who = identify(req);
            if (!who) {
                unauthorized(res);
                return finish();
            }
            // The teacher's link sends no kernel of its own; it may run again
            // a kernel a student sent (the Class panel's click opens it),
            // and that run is not kept as anyone's check.
            bool review = false;
            if (who->role == Role::Teacher) {
                Answer ignored;
                auto asked = parseApiRequest(req.body, o.job, ignored, job);
                auto known = asked && labDb ? labDb->hasKernel(lab::sha256Hex(asked->kernel)) : Result<bool>(false);
                if (!known) {
                    unavailable(res, known.error().message);
                    return finish();
                }
                if (!*known) {
                    send(res, errorAnswer(403, "forbidden",
                                          "this is the teacher's link: kernels are checked from a student's link "
                                          "(the teacher's reads the class: GET /api/class, and runs again the "
                                          "kernels students sent)"));
                    return finish();
                }
                review = true;
            }
            if (!admitted(*who, req, res))
                return finish();
            Answer error;
            auto request = parseApiRequest(req.body, o.job, error, job);
            if (!request) {
                send(res, error);
                return finish();
            }
            res.set_header("X-Tilescope-Kernel", textHash(request->kernel));
            // The client's name for this request: sent again after an answer
            // that was lost (a server stopped, a proxy's error), it is
            // recorded once (docs/serve.md, Several servers).
            const std::string requestKey = req.get_header_value("Idempotency-Key");
            if (requestKey.size() > 128 ||
                requestKey.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") !=
                    std::string::npos) {
                send(res, errorAnswer(400, "bad_request", "Idempotency-Key: at most 128 letters, digits and . _ : -"));
                return finish();
            }
            const bool keep = labDb && !review;
            const std::string asked = keep ? requestJson(*request, job) : std::string();
            const std::string kernelText = keep ? request->kernel : std::string();
            auto task = std::make_shared<std::packaged_task<Answer()>>(
                [request = std::move(*request), settings, job] { return runJob(request, settings, job); });
            std::future<Answer> answer = task->get_future();
            if (!jobs.push([task] { (*task)(); })) {
                send(res, errorAnswer(503, "busy", "the server's queue is full; try again shortly"));
                // About the time the jobs ahead take, at a second or two each.
                res.set_header("Retry-After", std::to_string(2 + 2 * o.queue / static_cast<std::size_t>(o.workers)));
                return finish();
            }
            try {
                Answer a = answer.get();
                if (keep) {
                    // Kept before the answer leaves: a server stopped now has it.
                    lab::CheckRecord r;
                    r.student = who->student;
                    r.kind = job == Job::Check   ? "check"
                             : job == Job::Trace ? "trace"
                             : job == Job::Run   ? "run"
                                                 : "compile";
                    r.kernel = kernelText;
                    r.request = asked;
                    r.verdict = a.verdict;
                    r.problems = a.problems;
                    r.backend = a.backend;
                    r.kernelMs = a.kernelMs;
                    r.requestKey = requestKey;
                    r.server = serverName;
                    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                    auto id = labDb->record(r);
                    if (!id) {
                        // Only a kept check is answered: the client sends it again.
                        unavailable(res, "this check is not kept: " + id.error().message);
                        return finish();
                    }
                    res.set_header("X-Tilescope-Check", std::to_string(*id));
                    changes.recorded(*id);
                }
                if (trace && a.contentType == "application/octet-stream") {
                    res.set_header("X-Tilescope-Events", std::to_string(a.events));
                    if (req.get_header_value("Accept-Encoding").find("gzip") != std::string::npos) {
                        if (std::string packed = gzip(a.body); !packed.empty()) {
                            a.body = std::move(packed);
                            res.set_header("Content-Encoding", "gzip");
                        }
                    }
                }
                send(res, a);
            } catch (const std::exception& e) {
                send(res, errorAnswer(500, "internal", e.what()));
            }
            finish();
        };
    };
    server.Post("/api/check", api(Job::Check));
    server.Post("/api/trace", api(Job::Trace));
    server.Post("/api/run", api(Job::Run));
    server.Post("/api/compile", api(Job::Compile));
    server.Get("/api/health", [&](const httplib::Request&, httplib::Response& res) {
        Json j{{"status", "ok"},
               {"version", TILESCOPE_VERSION_STRING},
               {"backend", o.job.backend},
               {"gpu", gpu ? Json(gpuName) : Json(nullptr)},
               {"queue", jobs.waiting()},
               {"running", jobs.running()},
               {"workers", o.workers},
               {"queue_capacity", o.queue},
               {"max_kernel_bytes", kMaxKernelBytes},
               {"event_budget", o.job.eventBudget},
               {"time_limit_s", o.job.timeLimitSeconds}};
        if (settings.compileCache)
            j["compile_cache"] = Json{{"folder", settings.compileCache->folder().string()},
                                      {"hits", settings.compileCache->hits()},
                                      {"misses", settings.compileCache->misses()}};
        res.set_content(j.dump(2), "application/json");
        res.set_header("Cache-Control", "no-store");
    });
    // A student's own checks (the teacher's: everyone's, or ?student=ID's),
    // oldest first; ?after=ID for those since.
    server.Get("/api/checks", [&](const httplib::Request& req, httplib::Response& res) {
        const std::optional<Identity> who = labReader(req, res);
        if (!who)
            return;
        std::string student = who->student;
        const bool teacher = who->role == Role::Teacher;
        if (teacher && req.has_param("student"))
            student = req.get_param_value("student");
        std::int64_t after = 0;
        if (req.has_param("after"))
            after = std::strtoll(req.get_param_value("after").c_str(), nullptr, 10);
        auto list = labDb->checks(student, teacher && !req.has_param("student"), after);
        if (!list)
            return unavailable(res, list.error().message);
        Json checks = Json::array();
        for (const lab::CheckRecord& r : *list)
            checks.push_back(recordJson(r, false));
        sendJson(res, 200,
                 Json{{"student", teacher && !req.has_param("student") ? Json(nullptr) : Json(student)},
                      {"checks", std::move(checks)}});
    });
    // One check with its kernel's text: a student's own only.
    server.Get(R"(/api/checks/(\d{1,18}))", [&](const httplib::Request& req, httplib::Response& res) {
        const std::optional<Identity> who = labReader(req, res);
        if (!who)
            return;
        const std::int64_t id = std::strtoll(req.matches[1].str().c_str(), nullptr, 10);
        auto found = labDb->check(id);
        if (!found)
            return unavailable(res, found.error().message);
        if (!*found)
            return send(res, errorAnswer(404, "not_found", "no check " + std::to_string(id)));
        if (who->role == Role::Student && (*found)->student != who->student)
            return send(res, errorAnswer(403, "forbidden",
                                         "check " + std::to_string(id) +
                                             " is another student's: a student's link reads that student's own "
                                             "checks"));
        sendJson(res, 200, recordJson(**found, true));
    });
    // The class now, for the teacher: each student's latest check. With
    // ?after=ID&wait=S, a long poll: the answer waits (at most S seconds)
    // until a check newer than ID is recorded; the teacher's Class panel
    // asks again with the newest it was given (docs/serve.md).
    server.Get("/api/class", [&](const httplib::Request& req, httplib::Response& res) {
        // A student's link is told so before it counts against their rate
        // limit (the page asks once, to know whether it is the teacher's).
        if (const std::optional<Identity> asker = identify(req); asker && asker->role == Role::Student && labDb)
            return send(res, errorAnswer(403, "forbidden",
                                         "this is a student's link: the class is read with the teacher's link"));
        const std::optional<Identity> who = labReader(req, res);
        if (!who)
            return;
        if (who->role != Role::Teacher)
            return send(res, errorAnswer(403, "forbidden",
                                         "this is a student's link: the class is read with the teacher's link"));
        if (req.has_param("after") && req.has_param("wait")) {
            const std::int64_t after = std::strtoll(req.get_param_value("after").c_str(), nullptr, 10);
            const double wait = std::strtod(req.get_param_value("wait").c_str(), nullptr);
            if (wait > 0)
                changes.wait(after, wait);
        }
        auto now = labDb->classNow();
        if (!now)
            return unavailable(res, now.error().message);
        // The roster as the database holds it: the same for every server of
        // a group (a server with another roster is refused at its start).
        auto roster = labDb->students();
        if (!roster)
            return unavailable(res, roster.error().message);
        std::map<std::string, const lab::LabStore::StudentNow*> latest;  // student -> count, latest
        std::int64_t total = 0, newest = 0;
        for (const lab::LabStore::StudentNow& n : *now) {
            latest[n.last.student] = &n;
            total += n.checks;
        }
        if (auto last = labDb->lastCheckId())
            newest = *last;
        Json rows = Json::array();
        for (const lab::LabStudent& student : *roster) {
            Json row{{"id", student.id}, {"name", student.name}, {"checks", 0}, {"last", nullptr}};
            if (auto it = latest.find(student.id); it != latest.end()) {
                row["checks"] = it->second->checks;
                row["last"] = recordJson(it->second->last, false);
            }
            rows.push_back(std::move(row));
        }
        sendJson(res, 200,
                 Json{{"students", std::move(rows)},
                      {"checks", total},
                      {"last_check", newest},
                      {"now", lab::utcNowMillis()}});
    });
    server.Get(R"(/.*)", [&](const httplib::Request& req, httplib::Response& res) {
        if (web.empty()) {
            if (req.path == "/" || req.path == "/index.html") {
                res.set_content(kNoWebPage, "text/html; charset=utf-8");
            } else {
                res.status = 404;
                res.set_content("not found\n", "text/plain");
            }
            return;
        }
        fs::path file;
        switch (resolveStaticPath(web, req.path, file)) {
            case StaticVerdict::Forbidden:
                res.status = 403;
                res.set_content("forbidden\n", "text/plain");
                return;
            case StaticVerdict::NotFound:
                res.status = 404;
                res.set_content("not found\n", "text/plain");
                return;
            case StaticVerdict::Found:
                break;
        }
        std::ifstream in(file, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        if (!in) {
            res.status = 404;
            res.set_content("not found\n", "text/plain");
            return;
        }
        res.set_content(bytes.str(), contentType(file));
    });
    // What httplib answers itself (a body too large, a request it cannot
    // read) gets a line of JSON too.
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty())
            return;
        const char* word = res.status == 413 ? "too_large" : res.status == 404 ? "not_found" : "bad_request";
        const char* text = res.status == 413   ? "the request is larger than this server takes (a kernel file: 64 KB)"
                           : res.status == 404 ? "no such page"
                                               : "the server cannot read this request";
        res.set_content(Json{{"status", word}, {"error", text}}.dump(2), "application/json");
    });

    // Where the links are. The token travels in the link's fragment, which no
    // browser sends to a server: the page keeps it (docs/serve.md, The page).
    // A roster's links go to files only the teacher can read, never to a
    // terminal the class may see.
    auto announce = [&](const std::string& host, int port) {
        const std::string base = "http://" + host + ":" + std::to_string(port) + "/";
        if (!rosterMode) {
            std::printf("tilescope serve: give the class %s#token=<the token> (docs/serve.md)\n", base.c_str());
        } else {
            std::vector<lab::StudentLink> links;
            for (const lab::LabStudent& student : students)
                links.push_back({student.id, student.name, student.token});
            const lab::LinkFiles files = lab::linkFilesFor(linksBeside);
            if (Status w = lab::writeLinkFiles(files, base, links, teacherToken); !w) {
                // Nothing has been served: the students could not be given their links.
                std::fprintf(stderr, "tilescope: %s\n", w.error().message.c_str());
                std::fflush(stdout);
                std::_Exit(2);
            }
            std::error_code ec;
            std::printf(
                "tilescope serve: %zu students' links in %s, the teacher's in %s (readable by you alone; "
                "docs/serve.md)\n",
                students.size(), fs::absolute(files.students, ec).c_str(), fs::absolute(files.teacher, ec).c_str());
        }
        std::error_code ec;
        if (labDb)
            std::printf("tilescope serve: every compile and check is kept in %s\n",
                        labDb->shared() ? labDb->describe().c_str() : fs::absolute(labDb->describe(), ec).c_str());
    };

    int port = o.port;
    if (port == 0) {
        port = server.bind_to_any_port(o.host);
        if (port <= 0) {
            std::fprintf(stderr, "tilescope: cannot listen on %s\n", o.host.c_str());
            return 2;
        }
    } else if (!server.bind_to_port(o.host, port)) {
        std::fprintf(stderr, "tilescope: cannot listen on %s:%d (in use, or a port below 1024)\n", o.host.c_str(),
                     port);
        return 2;
    }

    // Debian's cpp-httplib is built with a queue of 5 connections waiting to
    // be accepted. A lab pressing "check" together overflows it, and the
    // connections past it are delayed or reset (a student sees "connection
    // reset", seen with 36 checks sent at once). listen() again on the bound
    // socket widens the queue to the system's limit (Linux and the BSDs take
    // a second listen() as a change of the backlog).
    if (listening != INVALID_SOCKET && ::listen(listening, SOMAXCONN) != 0)
        std::fprintf(stderr, "tilescope serve: the queue of waiting connections stays at 5 (%s)\n",
                     std::strerror(errno));

    if (::pipe(g_stopPipe) != 0)
        return 4;
    struct sigaction stop {};
    stop.sa_handler = onSignal;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGINT, &stop, nullptr);
    sigaction(SIGTERM, &stop, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    std::thread stopper([&server, &changes] {
        char c;
        while (::read(g_stopPipe[0], &c, 1) < 0 && errno == EINTR) {
        }
        changes.stop();  // the teacher's views waiting for a check are answered now
        server.stop();
    });

    std::string shown = o.host;
    if (o.host == "0.0.0.0" || o.host == "::") {
        char name[256] = {};
        shown = ::gethostname(name, sizeof name - 1) == 0 && name[0] ? name : "localhost";
    }
    serverName = shown + ":" + std::to_string(port);
    std::printf("tilescope serve: listening on http://%s:%d/ (%s)\n", o.host.c_str(), port,
                gpu                      ? ("kernels on the CPU and on " + gpuName).c_str()
                : o.job.backend == "cpu" ? "kernels on the CPU"
                                         : ("kernels on the CPU: " + gpuReason).c_str());
    announce(shown, port);
    if (web.empty())
        std::printf("tilescope serve: no web build found (--web build-web/web); / says how to build it\n");
    else
        std::printf("tilescope serve: the page from %s\n", web.c_str());
    std::fflush(stdout);

    const bool ok = server.listen_after_bind();
    onSignal(0);  // the stopper thread ends whichever way the server did
    stopper.join();
    ::close(g_stopPipe[0]);
    ::close(g_stopPipe[1]);
    return ok ? 0 : 4;
}

}  // namespace tilescope::serve
