#include "serve/server.hpp"

#include <httplib.h>
#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "exec/backend.hpp"
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

int g_stopPipe[2] = {-1, -1};
void onSignal(int) {
    const char c = 's';
    [[maybe_unused]] ssize_t n = ::write(g_stopPipe[1], &c, 1);
}

}  // namespace

int runServer(const ServeOptions& o) {
    if (o.token.empty()) {
        std::fprintf(stderr, "tilescope: give the class's token: --token SECRET (or $TILESCOPE_SERVE_TOKEN)\n");
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

    JobQueue jobs(o.workers, o.queue);
    RateLimiter limiter(o.ratePerMinute / 60.0, o.burst);
    std::mutex logMutex;

    httplib::Server server;
    // Handlers wait for their jobs: enough threads for every job the queue
    // holds, the ones running, and the requests that need no job.
    const std::size_t threads = o.queue + static_cast<std::size_t>(o.workers) + 16;
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

    auto api = [&](Job job) {
        const bool trace = job == Job::Trace || job == Job::Run;
        return [&, job, trace](const httplib::Request& req, httplib::Response& res) {
            const auto start = std::chrono::steady_clock::now();
            auto finish = [&] {
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                res.set_header("Server-Timing", "job;dur=" + std::to_string(static_cast<long long>(ms + 0.5)));
            };
            const std::string auth = req.get_header_value("Authorization");
            const std::string bearer = "Bearer ";
            const bool hasBearer = auth.size() > bearer.size() && auth.compare(0, bearer.size(), bearer) == 0;
            if (!sameToken(hasBearer ? std::string_view(auth).substr(bearer.size()) : std::string_view(), o.token)) {
                send(res, errorAnswer(401, "unauthorized", "give the class's token: Authorization: Bearer TOKEN"));
                res.set_header("WWW-Authenticate", "Bearer");
                return finish();
            }
            double wait = 0.0;
            if (!limiter.take(clientOf(req), &wait)) {
                send(res, errorAnswer(429, "too_many_requests", "too many requests from this client; wait a moment"));
                res.set_header("Retry-After", std::to_string(static_cast<long long>(wait) + 1));
                return finish();
            }
            Answer error;
            auto request = parseApiRequest(req.body, o.job, error, job);
            if (!request) {
                send(res, error);
                return finish();
            }
            res.set_header("X-Tilescope-Kernel", textHash(request->kernel));
            auto task = std::make_shared<std::packaged_task<Answer()>>(
                [request = std::move(*request), settings = o.job, job] { return runJob(request, settings, job); });
            std::future<Answer> answer = task->get_future();
            if (!jobs.push([task] { (*task)(); })) {
                send(res, errorAnswer(503, "busy", "the server's queue is full; try again shortly"));
                // About the time the jobs ahead take, at a second or two each.
                res.set_header("Retry-After", std::to_string(2 + 2 * o.queue / static_cast<std::size_t>(o.workers)));
                return finish();
            }
            try {
                Answer a = answer.get();
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
        res.set_content(j.dump(2), "application/json");
        res.set_header("Cache-Control", "no-store");
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
    std::thread stopper([&server] {
        char c;
        while (::read(g_stopPipe[0], &c, 1) < 0 && errno == EINTR) {
        }
        server.stop();
    });

    std::string shown = o.host;
    if (o.host == "0.0.0.0" || o.host == "::") {
        char name[256] = {};
        shown = ::gethostname(name, sizeof name - 1) == 0 && name[0] ? name : "localhost";
    }
    std::printf("tilescope serve: listening on http://%s:%d/ (%s)\n", o.host.c_str(), port,
                gpu                      ? ("kernels on the CPU and on " + gpuName).c_str()
                : o.job.backend == "cpu" ? "kernels on the CPU"
                                         : ("kernels on the CPU: " + gpuReason).c_str());
    // The token in the link's fragment, which no browser sends to a server:
    // the page keeps it (docs/serve.md, The page).
    std::printf("tilescope serve: give the class http://%s:%d/#token=<the token> (docs/serve.md)\n", shown.c_str(),
                port);
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
