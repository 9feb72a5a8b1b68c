// `tilescope serve`: the web build and the API that checks and traces a
// student's kernel file, for a class behind one link (docs/serve.md).
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "own/sandbox.hpp"
#ifdef TILESCOPE_HAVE_SERVE
#include "serve/server.hpp"
#endif

namespace tilescope::cli {

#ifndef TILESCOPE_HAVE_SERVE
// A build without cpp-httplib: the command is there, and says what it needs.
Command addServeCommand(CLI::App& app) {
    CLI::App* c = app.add_subcommand("serve", "serve the web page and an API for students' kernel files "
                                              "(this build has no HTTP server: install libcpp-httplib-dev)");
    c->allow_extras();
    return Command{c, [] {
                       return fail(Error{ExitCode::BackendUnavailable,
                                         "serve: this build has no HTTP server; install Debian's libcpp-httplib-dev "
                                         "and build again"});
                   }};
}
#else
Command addServeCommand(CLI::App& app) {
    auto o = std::make_shared<serve::ServeOptions>();
    CLI::App* c = app.add_subcommand(
        "serve", "serve the web page and an API that checks and traces students' kernel files (docs/serve.md)");
    c->add_option("--port", o->port, "the port; 0: any free one (printed)")->capture_default_str();
    c->add_option("--host", o->host, "the address to listen on (127.0.0.1: this machine only)")->capture_default_str();
    c->add_option("--token", o->token,
                  "the class's secret, asked of every API request (default: $TILESCOPE_SERVE_TOKEN); with --roster, "
                  "the teacher's");
    c->add_option("--roster", o->roster,
                  "the class's roster (CSV, one student a line: id,name): a link per student and one for the "
                  "teacher, written beside it (docs/serve.md, The lab)");
    c->add_option("--db", o->db,
                  "the lab's database, where every compile and check is kept: an SQLite file, or "
                  "postgresql://USER:PASSWORD@HOST/DB for several servers (default with --roster: "
                  "lab.sqlite in the working folder)");
    c->add_option("--compile-cache", o->compileCache,
                  "a folder for compiled kernels, kept between checks (default: tilescope-kernels beside the "
                  "database, else in the working folder; off: none)");
    c->add_option("--compile-cache-mb", o->compileCacheMb, "the compiled kernels' megabytes at most")
        ->check(CLI::Range(1, 1 << 20))
        ->capture_default_str();
    c->add_option("--workers", o->workers, "kernel files compiled and run at once")->capture_default_str();
    c->add_option("--queue", o->queue, "jobs waiting at most (past it: 503 with Retry-After)")->capture_default_str();
    c->add_option("--backend", o->job.backend, "where kernels run: auto, cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    c->add_option("--web", o->webDir, "the web build's folder (build-web/web); default: the installed one");
    c->add_option("--time-limit", o->job.timeLimitSeconds, "seconds a kernel may run")->capture_default_str();
    c->add_option("--event-budget", o->job.eventBudget, "events a request may record (larger: 413)")
        ->capture_default_str();
    c->add_option("--rate", o->ratePerMinute, "API requests a client may send a minute, on average (past it: 429)")
        ->capture_default_str();
    c->add_option("--burst", o->burst, "API requests a client may send at once")->capture_default_str();
    c->add_flag("--behind-proxy", o->behindProxy,
                "a proxy forwards the requests: the client is the first address of X-Forwarded-For");
    c->add_option("--sandbox", o->sandbox,
                  "the sandbox around each job: required (the default), auto (where bubblewrap works) or off")
        ->check(CLI::IsMember({"required", "auto", "off"}))
        ->capture_default_str();
    c->add_option("--io-timeout", o->ioTimeoutSeconds, "seconds to read a request or write an answer")
        ->capture_default_str();
    return Command{c, [o] {
                       if (o->token.empty())
                           if (const char* t = std::getenv("TILESCOPE_SERVE_TOKEN"))
                               o->token = t;
                       // Students' code on this machine: the sandbox, or a
                       // refusal before the server listens.
                       auto sandbox = classSandbox(o->sandbox, "required",
                                                   "the server runs students' code on this machine, so it needs "
                                                   "the sandbox (--sandbox auto runs without it where it cannot "
                                                   "be had)");
                       if (!sandbox)
                           return fail(sandbox.error());
                       o->job.sandbox = *sandbox;
                       if (const std::string note = own::sandboxNote(o->job.sandbox); !note.empty())
                           std::fprintf(stderr, "tilescope serve: %s\n", note.c_str());
                       return serve::runServer(*o);
                   }};
}

#endif  // TILESCOPE_HAVE_SERVE

}  // namespace tilescope::cli
