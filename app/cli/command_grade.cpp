// `tilescope grade`: grades a class's kernel files against a spec (app/grade/,
// docs/grading.md) and writes the results for Gradescope, CI and the Class
// panel. One line per student as graded, then a summary. Exit codes: 0 the
// grading completed (whatever the scores), 2 bad input (the spec, the
// submissions folder, the results folder), 3 the pipeline failed its
// self-check (request/self_check.hpp) and nothing was graded.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "cli/commands.hpp"
#include "cli/grade_class.hpp"
#include "cli/options.hpp"
#include "request/self_check.hpp"
#include "exec/backend.hpp"
#include "grade/grader.hpp"
#include "grade/reports.hpp"
#include "grade/spec.hpp"
#include "grade/submissions.hpp"
#include "io/whole_file.hpp"
#include "own/sandbox.hpp"

namespace tilescope::cli {

namespace {

namespace fs = std::filesystem;

struct GradeOptions {
    std::string spec;
    std::string submissions;
    std::string out = "results";
    int jobs = 0;  // 0: one per core
    bool gradescope = false;
    std::string prairielearn;   // PrairieLearn's results.json: grade one submission for it
    std::string submissionDir;  // --gradescope, --prairielearn: the one submission
    std::string results;        // --gradescope: results.json
    double timeLimit = 0;       // 0: the spec's
    std::string sandbox;        // required (auto with --gradescope), auto or off
};

std::string fromEnv(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

void printGraded(const grade::SubmissionResult& r) {
    std::printf("%-24s %3d/%-3d %s\n", r.submission.student.c_str(), r.score, r.maxScore, r.reason.c_str());
    std::fflush(stdout);
}

// One submission graded for a grading service, in the service's layout and
// format: Gradescope's (the spec beside run_autograder in source/, one
// student's files in submission/, results.json in results/) or
// PrairieLearn's external grader (the question's tests/ holds the spec, the
// student's files are in /grade/student, results.json in /grade/results).
int gradeOneSubmission(const GradeOptions& o) {
    const bool gradescope = o.gradescope;
    const std::string spec =
        !o.spec.empty()
            ? o.spec
            : fromEnv("TILESCOPE_GRADE_SPEC", gradescope ? "/autograder/source/spec.toml" : "/grade/tests/spec.toml");
    const fs::path submission = !o.submissionDir.empty() ? fs::path(o.submissionDir)
                                : gradescope
                                    ? fs::path(fromEnv("TILESCOPE_GRADESCOPE_SUBMISSION", "/autograder/submission"))
                                    : fs::path(fromEnv("TILESCOPE_PRAIRIELEARN_STUDENT", "/grade/student"));
    const fs::path results =
        !gradescope          ? fs::path(o.prairielearn)
        : !o.results.empty() ? fs::path(o.results)
                             : fs::path(fromEnv("TILESCOPE_GRADESCOPE_RESULTS", "/autograder/results/results.json"));
    auto parsed = grade::readSpec(spec);
    if (!parsed)
        return fail(parsed.error());
    std::error_code ec;
    if (!fs::is_directory(submission, ec))
        return fail(badInput(submission.string() + ": no such submission folder"));
    // Each submission has a container of its own on either service.
    auto sandbox = gradingSandbox(o.sandbox, true);
    if (!sandbox)
        return fail(sandbox.error());
    if (Status s = gradingSelfCheck(*parsed, *sandbox, o.timeLimit); !s)
        return fail(s.error());
    auto baselines = grade::measureBaselines(*parsed);
    if (!baselines)
        return fail(baselines.error());
    grade::GradeOptions options;
    options.timeLimitSeconds = o.timeLimit > 0 ? o.timeLimit : parsed->timeLimitSeconds;
    options.sandbox = *sandbox;
    const grade::Submission s = grade::singleSubmission(submission, "submission");
    const grade::SubmissionResult r = grade::gradeSubmission(*parsed, *baselines, s, options);
    printGraded(r);
    if (!results.parent_path().empty())
        fs::create_directories(results.parent_path(), ec);
    const grade::Json json = gradescope ? grade::gradescopeJson(r, *parsed) : grade::prairielearnJson(r, *parsed);
    if (Status w = io::writeFileAtomic(results, grade::jsonText(json)); !w)
        return fail(w.error());
    std::printf("wrote %s\n", results.string().c_str());
    return 0;
}

int runGrade(const GradeOptions& o) {
    if (o.gradescope && !o.prairielearn.empty())
        return fail(
            badInput("give one of --gradescope and --prairielearn: each grades one submission for its service"));
    if (o.gradescope || !o.prairielearn.empty())
        return gradeOneSubmission(o);
    if (o.spec.empty())
        return fail(badInput("give the spec: --spec FILE.toml"));
    auto spec = grade::readSpec(o.spec);
    if (!spec)
        return fail(spec.error());
    // The folder first (a mistyped path is the likelier mistake), then the
    // sandbox, before anything of a student's is read.
    auto submissions = grade::findSubmissions(o.submissions);
    if (!submissions)
        return fail(submissions.error());
    auto sandbox = gradingSandbox(o.sandbox, false);
    if (!sandbox)
        return fail(sandbox.error());
    ClassGrading how;
    how.out = o.out;
    how.submissions = o.submissions;
    how.jobs = o.jobs;
    how.sandbox = *sandbox;
    how.timeLimit = o.timeLimit;
    return gradeClass(*spec, *submissions, how);
}

}  // namespace

Result<own::SandboxMode> gradingSandbox(const std::string& text, bool gradescope) {
    // `required` unless asked otherwise (with --gradescope, `auto`: there the
    // container each submission gets is a wall of its own). Required where
    // none can be had is bad input, said before any grading: a class's code
    // would run with the teacher's rights.
    return classSandbox(text, gradescope ? "auto" : "required",
                        "grading runs each student's code on this machine, so it needs the sandbox (give "
                        "--sandbox off only where each submission has a container of its own)");
}

std::string sandboxName(own::SandboxMode mode) {
    const own::SandboxStatus& status = own::sandboxStatus();
    if (mode == own::SandboxMode::Off)
        return "none (--sandbox off)";
    return status.available ? status.mechanism : "none (" + status.reason + ")";
}

Status checkResultsFolder(const fs::path& out) {
    std::error_code ec;
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
        return badInput(out.string() + ": not a folder; --out takes the folder the results go to");
    return success();
}

Status gradingSelfCheck(const grade::Spec& spec, own::SandboxMode sandbox, double timeLimit) {
    request::SelfCheckOptions check;
    check.sandbox = sandbox;
    check.timeLimitSeconds = timeLimit > 0 ? timeLimit : spec.timeLimitSeconds;
    for (const grade::Case& c : spec.cases)
        check.cuda = check.cuda || (c.require.maxTimeRatio && gpuAvailable());
    std::string said;
    if (Status s = request::selfCheck(check, &said); !s)
        return Error{s.error().code, s.error().message + "; nothing was graded"};
    std::fprintf(stderr, "tilescope grade: %s\n", said.c_str());
    return success();
}

int gradeClass(const grade::Spec& spec, const std::vector<grade::Submission>& submissions, const ClassGrading& how) {
    if (Status s = checkResultsFolder(how.out); !s)
        return fail(s.error());
    const std::string out = how.out.string();
    if (!how.selfChecked)
        if (Status s = gradingSelfCheck(spec, how.sandbox, how.timeLimit); !s)
            return fail(s.error());
    auto baselines = grade::measureBaselines(spec);
    if (!baselines)
        return fail(baselines.error());
    // The results folder, made and tried before minutes of grading rather than after.
    std::error_code ec;
    fs::create_directories(how.out, ec);
    if (ec)
        return fail(badInput(out + ": cannot make the results folder: " + ec.message()));
    const fs::path probe = how.out / ".tilescope-grade-probe";
    if (Status w = io::writeFileAtomic(probe, std::string_view()); !w)
        return fail(badInput(out + ": cannot write the results there: " + w.error().message));
    fs::remove(probe, ec);
    grade::GradeOptions options;
    options.timeLimitSeconds = how.timeLimit > 0 ? how.timeLimit : spec.timeLimitSeconds;
    options.sandbox = how.sandbox;
    const int jobs = how.jobs > 0 ? how.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::fprintf(stderr, "tilescope grade: %s, %zu submissions, %zu cases, %d at a time; sandbox: %s\n",
                 spec.name.c_str(), submissions.size(), spec.cases.size(), jobs, sandboxName(how.sandbox).c_str());
    for (const grade::Case& c : spec.cases)
        if (c.require.maxTimeRatio && !gpuAvailable()) {
            std::fprintf(stderr,
                         "tilescope grade: max_time_ratio is not checked (no GPU on this machine): each "
                         "case says so\n");
            break;
        }
    grade::ClassRun run;
    run.spec = &spec;
    run.submissions = how.submissions;
    run.gradedAt = grade::utcNow();
    run.sandbox = sandboxName(how.sandbox);
    run.results = grade::gradeAll(spec, *baselines, submissions, jobs, options, printGraded);
    if (Status s = grade::writeReports(run, how.out); !s)
        return fail(s.error());
    int total = 0, full = 0, compileErrors = 0, refused = 0, failed = 0;
    for (const grade::SubmissionResult& r : run.results) {
        total += r.score;
        full += r.score == r.maxScore;
        compileErrors += r.status == "compile_error";
        refused += r.status == "refused";
        failed += r.status == "failed";
    }
    const std::size_t n = run.results.size();
    std::printf(
        "graded %zu submission%s of %s: %d with full marks, mean %.1f of %d; %d did not compile, %d refused, "
        "%d failed to run; results in %s\n",
        n, n == 1 ? "" : "s", spec.name.c_str(), full, n ? static_cast<double>(total) / static_cast<double>(n) : 0.0,
        spec.maxScore(), compileErrors, refused, failed, out.c_str());
    return 0;
}

Command addGradeCommand(CLI::App& app) {
    auto options = std::make_shared<GradeOptions>();
    CLI::App* c = app.add_subcommand(
        "grade",
        "grade a class's kernel files against a spec: each case run with every thread traced under three "
        "warp orders; results for Gradescope, CI (JUnit), a spreadsheet and the Class panel");
    c->add_option("--spec", options->spec, "the grading spec (TOML; docs/grading.md)");
    c->add_option("submissions", options->submissions, "folder: one .cu or one folder per student");
    c->add_option("--out,-o", options->out, "folder for the results")->capture_default_str();
    c->add_option("-j,--jobs", options->jobs, "submissions graded at once (default: one per core)");
    c->add_option("--sandbox", options->sandbox,
                  "the sandbox around each submission: required (the default; with --gradescope, auto), auto (where "
                  "bubblewrap works) or off (only where each submission has a container of its own)");
    c->add_option("--time-limit", options->timeLimit, "seconds a run may take (default: the spec's, else 10)");
    c->add_flag("--gradescope", options->gradescope,
                "inside Gradescope's container: grade /autograder/submission/, write "
                "/autograder/results/results.json");
    c->add_option("--prairielearn", options->prairielearn,
                  "inside PrairieLearn's external grader: grade one submission (/grade/student/, the spec "
                  "/grade/tests/spec.toml) and write PrairieLearn's results.json to this file");
    c->add_option("--submission-dir", options->submissionDir,
                  "with --gradescope or --prairielearn: the submission folder (or $TILESCOPE_GRADESCOPE_SUBMISSION, "
                  "$TILESCOPE_PRAIRIELEARN_STUDENT)");
    c->add_option("--results", options->results,
                  "with --gradescope: the results.json to write (or $TILESCOPE_GRADESCOPE_RESULTS)");
    return Command{c, [options] {
                       if (!options->gradescope && options->prairielearn.empty() && options->submissions.empty())
                           return fail(
                               badInput("give the folder of submissions: tilescope grade --spec FILE.toml "
                                        "SUBMISSIONS/ (or --gradescope, or --prairielearn FILE)"));
                       return runGrade(*options);
                   }};
}

}  // namespace tilescope::cli
