// `tilescope lab export`: the lab kept by `tilescope serve --roster` graded
// as `tilescope grade` grades a class (docs/serve.md, The lab): each
// student's last kernel, or their best, against a spec, written as grade
// writes it (class.json, class.csv, junit.xml, each student's results.json).
// Exit codes: 0 the grading completed, 2 bad input (the spec, the database,
// the results folder), 3 the pipeline failed its self-check.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/grade_class.hpp"
#include "cli/options.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "io/whole_file.hpp"
#include "lab/open_store.hpp"

namespace tilescope::cli {

namespace {

namespace fs = std::filesystem;

struct ExportOptions {
    std::string db = "lab.sqlite";
    std::string spec;
    std::string out = "results";
    std::string pick = "last";
    int jobs = 0;
    std::string sandbox;
    double timeLimit = 0;
};

int runExport(const ExportOptions& o) {
    if (o.spec.empty())
        return fail(badInput("give the spec: --spec FILE.toml"));
    auto spec = grade::readSpec(o.spec);
    if (!spec)
        return fail(spec.error());
    lab::StoreOptions open;
    open.create = false;
    open.program = "tilescope lab export";
    auto db = lab::openLabStore(o.db, open);
    if (!db)
        return fail(db.error());
    // The database in messages: a PostgreSQL URL without its password.
    const std::string shown = (*db)->describe();
    auto roster = (*db)->students();
    if (!roster)
        return fail(roster.error());
    if (roster->empty())
        return fail(badInput(shown + ": holds no roster (tilescope serve --roster roster.csv --db " + shown + ")"));
    auto picked = (*db)->picked(o.pick == "best" ? lab::Pick::Best : lab::Pick::Last);
    if (!picked)
        return fail(picked.error());
    if (picked->empty())
        return fail(badInput(shown + ": no student has sent a kernel yet"));
    auto sandbox = gradingSandbox(o.sandbox, false);
    if (!sandbox)
        return fail(sandbox.error());
    const fs::path out = o.out;
    if (Status s = checkResultsFolder(out); !s)
        return fail(s.error());
    if (Status s = gradingSelfCheck(*spec, *sandbox, o.timeLimit); !s)
        return fail(s.error());

    // Each kernel as a file of the class's folder, named by the student's id
    // (ids are file names: lab/roster.hpp), so that grading, the reports and
    // the Class panel's click read it as they read a submission of `grade`.
    const fs::path folder = out / "submissions";
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        return fail(badInput(folder.string() + ": cannot make it: " + ec.message()));
    std::vector<grade::Submission> submissions;
    std::size_t sent = 0;
    for (const lab::LabStudent& student : *roster) {
        grade::Submission s;
        s.student = student.id;
        s.folder = grade::safeFolderName(student.id);
        const lab::CheckRecord* kernel = nullptr;
        for (const lab::CheckRecord& r : *picked)
            if (r.student == student.id)
                kernel = &r;
        if (!kernel) {
            s.source = folder / (student.id + ".cu");
            s.refused = "sent no kernel to the lab's server";
            submissions.push_back(std::move(s));
            continue;
        }
        s.file = folder / (student.id + ".cu");
        s.source = s.file;
        if (Status w = io::writeFileAtomic(s.file, kernel->kernel); !w)
            return fail(w.error());
        s.refused = grade::refuseFile(s.file);
        submissions.push_back(std::move(s));
        ++sent;
    }
    std::fprintf(stderr, "tilescope lab export: %s, %zu students (%zu sent a kernel), each one's %s kernel, into %s\n",
                 shown.c_str(), roster->size(), sent, o.pick.c_str(), folder.c_str());
    ClassGrading how;
    how.out = out;
    how.submissions = folder;
    how.jobs = o.jobs;
    how.sandbox = *sandbox;
    how.timeLimit = o.timeLimit;
    how.selfChecked = true;
    return gradeClass(*spec, submissions, how);
}

}  // namespace

Command addLabCommand(CLI::App& app) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* lab = app.add_subcommand("lab", "the lab kept by tilescope serve --roster (docs/serve.md, The lab)");
    lab->require_subcommand(1);
    CLI::App* c = lab->add_subcommand(
        "export",
        "grade each student's last (or best) kernel kept by the lab's server against a spec, and write "
        "what tilescope grade writes");
    c->add_option("--db", options->db, "the lab's database: an SQLite file, or postgresql://USER:PASSWORD@HOST/DB")
        ->capture_default_str();
    c->add_option("--spec", options->spec, "the grading spec (TOML; docs/grading.md)");
    c->add_option("--out,-o", options->out, "folder for the results")->capture_default_str();
    c->add_option("--pick", options->pick,
                  "which kernel of each student: last (the last sent) or best (the last of those whose check "
                  "answered best: clean, then problems)")
        ->check(CLI::IsMember({"last", "best"}))
        ->capture_default_str();
    c->add_option("-j,--jobs", options->jobs, "submissions graded at once (default: one per core)");
    c->add_option("--sandbox", options->sandbox,
                  "the sandbox around each kernel: required (the default), auto (where bubblewrap works) or off");
    c->add_option("--time-limit", options->timeLimit, "seconds a run may take (default: the spec's, else 10)");
    return Command{lab, [options] { return runExport(*options); }};
}

}  // namespace tilescope::cli
