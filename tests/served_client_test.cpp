// The page's client of `tilescope serve` (app/model/served_client.hpp) and
// the run it receives (kernels/own/served_run.hpp), against the server's own
// API in this process: the transport hands each body to serve::parseApiRequest
// and serve::runJob, as the HTTP server does. The oracle is the same kernel
// file compiled and run here (own::compileKernelFile, runKernel), and the
// double-precision reference.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "api/runner.hpp"
#include "model/runner.hpp"
#include "model/served_client.hpp"
#include "own/own_kernel.hpp"
#include "own/served_run.hpp"
#include "reference/reference.hpp"
#include "serve/api.hpp"

namespace {

using namespace tilescope;
using ui::ServedClient;
using ui::ServedReply;

const std::string kOwn = std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/";
const std::string kGood = kOwn + "good/conv2d_tiled_student.cu";
const std::string kBroken = kOwn + "broken/syntax_missing_semicolon.cu";
const std::string kRacy = kOwn + "broken/missing_syncthreads.cu";

std::string readText(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    EXPECT_NE(f, nullptr) << path;
    std::string out;
    char buffer[4096];
    for (std::size_t n; f && (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
        out.append(buffer, n);
    if (f)
        std::fclose(f);
    return out;
}

serve::JobSettings settings() {
    serve::JobSettings s;
    s.backend = "cpu";
    s.sandbox = own::SandboxMode::Auto;  // where bubblewrap runs; the sandbox has tests of its own
    return s;
}

serve::Job jobOf(const std::string& path) {
    return path == "/api/run" ? serve::Job::Run : path == "/api/compile" ? serve::Job::Compile : serve::Job::Check;
}

// The server's answer, at once.
ui::ServedTransport inProcess() {
    return [](const std::string& path, const std::string& body, std::function<void(ServedReply)> done) {
        serve::Answer error;
        auto request = serve::parseApiRequest(body, settings(), error, jobOf(path));
        const serve::Answer a = request ? serve::runJob(*request, settings(), jobOf(path)) : error;
        done(ServedReply{a.status, a.body});
    };
}

// An image of 45 x 37 with values that no two neighbours share, and an
// asymmetric 5 x 5 mask: a kernel that swaps its indices gets them wrong.
Image input() {
    Image image = Image::planar(45, 37);
    for (std::size_t i = 0; i < image.data.size(); ++i)
        image.data[i] = static_cast<float>((i * 7919u) % 101u) / 17.0f;
    return image;
}
Mask mask() {
    Mask m;
    m.width = m.height = 5;
    for (int i = 0; i < 25; ++i)
        m.values.push_back(static_cast<float>(i + 1) / 325.0f);
    return m;
}

std::shared_ptr<const own::OwnKernel> compiled(ServedClient& client, const std::string& path,
                                               const std::string& name = "kernel.cu") {
    auto ticket = client.compile(name, readText(path));
    EXPECT_TRUE(ticket->done.load());
    EXPECT_FALSE(ticket->error) << ticket->error->message;
    return ticket->kernel;
}

RunRequest checkedRun(const std::shared_ptr<const own::OwnKernel>& kernel, const Image& image, const Mask& m) {
    RunRequest r;
    r.kernel = std::string(kernel->info->name);
    r.own = kernel;
    r.input = &image;
    r.mask = &m;
    r.backend = Backend::Cpu;
    r.trace = true;
    r.check = true;
    return r;
}

TEST(ServedClient, ARunThereIsTheRunHereBitForBitWithTheSameTraceAndVerdict) {
    auto client = std::make_shared<ServedClient>(inProcess());
    auto served = compiled(*client, kGood);
    ASSERT_TRUE(served);
    EXPECT_EQ(served->info->dims, 2);
    EXPECT_EQ(served->info->name, "conv2d_tiled");
    EXPECT_TRUE(served->info->usesShared);
    EXPECT_EQ(served->info->maskSpace, Space::Constant);
    EXPECT_EQ(served->translation.barrierLines, std::vector<unsigned>{40});

    const Image image = input();
    const Mask m = mask();
    const RunRequest request = checkedRun(served, image, m);
    ASSERT_TRUE(client->ready(*served, request));
    auto there = runKernel(request);
    ASSERT_TRUE(there.ok()) << there.error().message;

    auto local = own::compileKernelFile(kGood);
    ASSERT_TRUE(local.ok()) << local.error().message;
    RunRequest same = request;
    same.own = *local;
    auto here = runKernel(same);
    ASSERT_TRUE(here.ok()) << here.error().message;

    ASSERT_EQ(there->output.data.size(), here->output.data.size());
    EXPECT_EQ(std::memcmp(there->output.data.data(), here->output.data.data(), here->output.data.size() * 4), 0);
    const std::vector<double> want = reference::convolve(image, m);
    EXPECT_LE(reference::maxAbsDifference(there->output.data, want), reference::float32Tolerance(image, m));
    ASSERT_TRUE(there->trace && here->trace);
    EXPECT_EQ(there->trace->plan.grid.x, here->trace->plan.grid.x);
    EXPECT_EQ(there->trace->plan.block.x, 16u);
    ASSERT_EQ(there->trace->blocks.size(), here->trace->blocks.size());
    for (std::size_t b = 0; b < here->trace->blocks.size(); ++b) {
        const auto& x = there->trace->blocks[b].events;
        const auto& y = here->trace->blocks[b].events;
        ASSERT_EQ(x.size(), y.size()) << "block " << b;
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(Event)), 0) << "block " << b;
    }
    ASSERT_TRUE(there->problems && here->problems);
    EXPECT_TRUE(there->problems->clean());
    EXPECT_EQ(there->problems->summary(), here->problems->summary());
}

TEST(ServedClient, ARefusalNamesTheLineInTheStudentsOwnFile) {
    auto client = std::make_shared<ServedClient>(inProcess());
    const std::string path = "/persist/kernels/syntax_missing_semicolon.cu";
    auto ticket = client->compile(path, readText(kBroken));
    ASSERT_TRUE(ticket->done.load());
    ASSERT_TRUE(ticket->error);
    EXPECT_FALSE(ticket->kernel);
    EXPECT_EQ(ticket->line, 21u);
    EXPECT_EQ(ticket->column, 52u);
    EXPECT_EQ(ticket->error->message.rfind(path + ":21:52: error: expected ';'", 0), 0u) << ticket->error->message;
    EXPECT_EQ(ticket->diagnostic.rfind("error: expected ';'", 0), 0u) << ticket->diagnostic;
    EXPECT_EQ(ticket->error->message.find("kernel.cu"), std::string::npos);
}

TEST(ServedClient, TheRaceOfAKernelWithoutItsBarrierIsFoundInTheServedTrace) {
    auto client = std::make_shared<ServedClient>(inProcess());
    auto served = compiled(*client, kRacy);
    ASSERT_TRUE(served);
    const Image image = input();
    const Mask m = mask();
    const RunRequest request = checkedRun(served, image, m);
    ASSERT_TRUE(client->ready(*served, request));
    auto run = runKernel(request);
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_TRUE(run->problems);
    EXPECT_FALSE(run->problems->clean());
    EXPECT_NE(run->problems->summary().find("race"), std::string::npos) << run->problems->summary();
}

TEST(ServedClient, AWrongTokenAndAServerThatIsGoneAreSaidInWords) {
    for (int status : {401, 0}) {
        auto client = std::make_shared<ServedClient>(
            [status](const std::string&, const std::string&, std::function<void(ServedReply)> done) {
                done(ServedReply{status, status ? R"({"status": "unauthorized", "error": "give the token"})" : ""});
            },
            "labpc:8000");
        auto ticket = client->compile("k.cu", "__global__ void k() {}");
        ASSERT_TRUE(ticket->done.load());
        ASSERT_TRUE(ticket->error);
        EXPECT_NE(ticket->error->message.find(status ? "token" : "did not answer"), std::string::npos)
            << ticket->error->message;
        EXPECT_NE(ticket->error->message.find("labpc:8000"), std::string::npos) << ticket->error->message;
    }
}

// The app's Runner, with threads: a job waits for the server's answer (its
// progress says so), and is run when the answer comes, then published.
TEST(ServedClient, TheRunnerWaitsForAnAnswerThatComesLater) {
    std::mutex mutex;
    std::vector<std::function<void()>> later;
    auto client = std::make_shared<ServedClient>(
        [&](const std::string& path, const std::string& body, std::function<void(ServedReply)> done) {
            if (path == "/api/compile")
                return inProcess()(path, body, std::move(done));
            std::lock_guard lock(mutex);
            later.push_back([path, body, done] { inProcess()(path, body, done); });
        });
    auto served = compiled(*client, kGood);
    ASSERT_TRUE(served);
    ui::Runner runner;
    client->setOnAnswer([&] { runner.answerArrived(); });
    ui::RunJob job;
    job.kernel = std::string(served->info->name);
    job.own = served;
    job.mask = mask();
    job.backend = Backend::Cpu;
    job.trace = job.check = true;
    const std::uint64_t id = runner.submit(job);

    auto waitFor = [](auto predicate) {
        for (int i = 0; i < 600 && !predicate(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return predicate();
    };
    ASSERT_TRUE(waitFor([&] {
        std::lock_guard lock(mutex);
        return !later.empty();
    }));
    const ui::RunProgress waiting = runner.progress();
    EXPECT_TRUE(waiting.busy);
    EXPECT_STREQ(waiting.stage, "on the server");
    EXPECT_EQ(runner.latest(), nullptr);  // nothing published while it waits
    std::function<void()> answer;
    {
        std::lock_guard lock(mutex);
        answer = later.front();
    }
    std::thread server(answer);
    server.join();
    ASSERT_TRUE(waitFor([&] { return runner.latest() != nullptr; }));
    const auto outcome = runner.latest();
    EXPECT_EQ(outcome->id, id);
    ASSERT_TRUE(outcome->result) << (outcome->runError ? outcome->runError->message : "");
    EXPECT_EQ(outcome->wrongCount, 0u);
    ASSERT_TRUE(outcome->problems);
    EXPECT_TRUE(outcome->problems->clean());
    EXPECT_EQ(client->requestsSent(), 2u);  // the compile and one run
}

TEST(ServedRun, ATruncatedOrAlteredRunIsRefusedWithAReason) {
    auto client = std::make_shared<ServedClient>(inProcess());
    auto served = compiled(*client, kGood);
    ASSERT_TRUE(served);
    const Image image = input();
    const Mask m = mask();
    serve::Answer error;
    const RunRequest request = checkedRun(served, image, m);
    auto parsed = serve::parseApiRequest(ServedClient::runBody(*served, request), settings(), error, serve::Job::Run);
    ASSERT_TRUE(parsed) << error.body;
    const serve::Answer a = serve::runJob(*parsed, settings(), serve::Job::Run);
    ASSERT_EQ(a.status, 200);
    auto whole = own::decodeServedRun(a.body, served->info);
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    EXPECT_EQ(whole->status, "clean");
    EXPECT_EQ(whole->result.output.width, 45);
    EXPECT_EQ(whole->result.output.height, 37);
    for (std::size_t cut : {std::size_t{3}, std::size_t{20}, a.body.size() / 2, a.body.size() - 1}) {
        auto broken = own::decodeServedRun(std::string_view(a.body).substr(0, cut), served->info);
        EXPECT_FALSE(broken.ok()) << "cut at " << cut;
    }
    std::string longer = a.body + "xxxx";
    EXPECT_FALSE(own::decodeServedRun(longer, served->info).ok());
}

}  // namespace
