// `tilescope serve`: the web build and the API (app/serve/api.hpp) over
// HTTP, for a class (docs/serve.md). Every request carries all it needs (no
// sessions), so several servers can stand behind one load balancer. With a
// roster, each request's token says which student (or the teacher) sent it,
// and every compile and check is kept in the lab's database (app/lab/).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "serve/api.hpp"

namespace tilescope::serve {

struct ServeOptions {
    std::string host = "0.0.0.0";
    int port = 8000;  // 0: any free port (the one taken is printed)
    std::string token;
    int workers = 2;                // jobs run at once
    std::size_t queue = 64;         // jobs waiting at most; past it, 503 with Retry-After
    double ratePerMinute = 30.0;    // a client's requests to the API, on average
    double burst = 10.0;            // ... and at once
    bool behindProxy = false;       // the client is X-Forwarded-For's first address, not the socket's
    std::string webDir;             // the web build; empty: the installed one, if any
    double ioTimeoutSeconds = 5.0;  // reading a request, writing an answer
    std::string sandbox = "required";  // required, auto or off (own/sandbox.hpp)
    // The lab (docs/serve.md, The lab): a roster gives each student a token of
    // their own and the teacher one; every compile and check is kept in the
    // database. Without a roster, `token` is the class's one token.
    std::string roster;  // roster.csv: one student a line, id,name
    // The lab's database: an SQLite file, or a postgresql:// URL shared by
    // several servers; empty: lab.sqlite in the working folder when there is a roster.
    std::string db;
    // Compiled kernels kept between checks (own/compile_cache.hpp): this
    // folder; empty: tilescope-kernels beside the database, else in the
    // working folder; "off": none.
    std::string compileCache;
    int compileCacheMb = 512;
    JobSettings job;
};

// Binds, prints the URL and serves until SIGINT or SIGTERM; returns the exit code.
int runServer(const ServeOptions& options);

}  // namespace tilescope::serve
