// The sandbox around a kernel file (own/sandbox.hpp): the second wall.
// The translator refuses most hostile C++ before it can run, so these tests
// hand the worker shared objects built from raw C++ (tests/own/sandbox/,
// built by CMake, exposing the entry a translation exposes; no student's
// file can become one) and check, for each, that the caller survives, the
// error says what happened in words, no secret reaches any output or
// message, nothing is written outside the scratch folder and no process is
// left behind. The same cases run without the sandbox show that each one
// does reach out when nothing stops it: the checks can fail.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "own/own_kernel.hpp"
#include "own/sandbox.hpp"
#include "reference/reference.hpp"
#include "scratch_dir.hpp"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using own::SandboxMode;

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

#define REQUIRE_SANDBOX()                                                                   \
    do {                                                                                    \
        if (!own::sandboxStatus().available)                                                \
            GTEST_SKIP() << "the sandbox cannot run here: " << own::sandboxStatus().reason; \
    } while (0)

// The cases a system call ends (SIGSYS) need the worker's filter, which the
// AddressSanitizer build leaves out (LeakSanitizer's exit check needs clone
// and ptrace).
#define REQUIRE_FILTER()                                                                           \
    do {                                                                                           \
        REQUIRE_SANDBOX();                                                                         \
        if (sanitized())                                                                           \
            GTEST_SKIP() << "the AddressSanitizer build's worker runs without the seccomp filter"; \
    } while (0)

// The processes whose command line names `text` (the worker names its job's folder).
std::vector<std::string> processesNaming(const std::string& text) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (char& c : cmdline)
            if (c == '\0')
                c = ' ';
        if (cmdline.find(text) != std::string::npos)
            found.push_back(pid + ": " + cmdline);
    }
    return found;
}

struct Outcome {
    bool ok = false;
    std::string message;   // the error's
    std::string printout;  // what the kernel printed, as the caller shows it
    KernelPrintout raw;
    std::vector<std::string> leftBehind;   // processes still naming the kernel's folder
    std::vector<std::string> scratchLeft;  // what is left of the kernel's folder once it is gone
    RunResult result;
    std::string all() const { return message + "\n" + printout; }
};

// Runs case `name` (tests/own/sandbox/NAME.cpp) with `argument` spelled in its input.
Outcome runCase(const std::string& name, const std::string& argument = "", SandboxMode mode = SandboxMode::Required,
                own::SandboxLimits limits = {}, double timeLimit = 10.0) {
    Outcome o;
    std::string dir = (fs::temp_directory_path() / "tilescope-kernel-XXXXXX").string();
    if (!mkdtemp(dir.data())) {
        ADD_FAILURE() << "no scratch folder";
        return o;
    }
    {
        own::OwnKernel kernel;
        kernel.directory = dir;
        kernel.library = dir + "/kernel.so";
        fs::copy_file(std::string(TILESCOPE_SANDBOX_CASES) + "/" + name + ".so", kernel.library);
        kernel.translation.path = name + ".cu";
        kernel.translation.dims = 2;
        own::OwnEntryDescription d;
        d.name = name;
        d.path = name + ".cu";
        d.dims = 2;
        d.arrayNames = {"N", "M", "P", ""};
        kernel.entry.emplace(std::move(d));
        kernel.info = &kernel.entry->info();
        kernel.sandbox = mode;
        kernel.limits = limits;

        Image input = Image::planar(45, 37);
        for (std::size_t i = 0; i < argument.size(); ++i)
            input.data[i] = static_cast<float>(argument[i]);
        const Mask mask = Mask::square(3, std::vector<float>(9, 1.0f / 9));
        RunRequest req;
        req.input = &input;
        req.mask = &mask;
        req.backend = Backend::Cpu;
        req.timeLimitSeconds = timeLimit;
        req.printout = &o.raw;
        auto r = own::runOwnKernel(kernel, req);
        o.ok = static_cast<bool>(r);
        if (r)
            o.result = std::move(*r);
        else
            o.message = r.error().message;
        for (const std::string& line : o.raw.lines)
            o.printout += line + "\n";
        o.printout += o.raw.note;
        o.leftBehind = processesNaming(dir);
    }
    std::error_code ec;
    if (fs::exists(dir, ec))
        o.scratchLeft.push_back(dir);
    return o;
}

// What every case must show: the caller is here to check (it survived),
// an error in words, no process left, the scratch folder gone.
void expectContained(const Outcome& o, const std::string& words) {
    EXPECT_FALSE(o.ok);
    EXPECT_NE(o.message.find(words), std::string::npos) << o.message;
    EXPECT_EQ(o.message.find('\n'), std::string::npos) << o.message;
    EXPECT_TRUE(o.leftBehind.empty()) << o.leftBehind.front();
    EXPECT_TRUE(o.scratchLeft.empty());
}

// The teacher's secrets: a file in a scratch $HOME and a variable.
class Secrets : public ::testing::Test {
protected:
    void SetUp() override {
        secret = "tilescope-secret-" + std::to_string(getpid()) + "-x7Q";
        fs::create_directories(home / "home");
        std::ofstream(home / "home" / ".secret") << secret << "\n";
        setenv("TILESCOPE_TEST_SECRET", secret.c_str(), 1);
    }
    void TearDown() override { unsetenv("TILESCOPE_TEST_SECRET"); }
    std::string secretFile() const { return (home / "home" / ".secret").string(); }

    test::ScratchDir home{"tilescope-sandbox-home"};
    std::string secret;
};

// A listener on 127.0.0.1; accepted() says whether anyone connected.
struct Listener {
    int fd = -1;
    int port = 0;
    Listener() {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof a;
        if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && listen(fd, 8) == 0 &&
            getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size) == 0)
            port = ntohs(a.sin_port);
    }
    ~Listener() { close(fd); }
    bool accepted() const {
        const int c = accept(fd, nullptr, nullptr);
        if (c >= 0)
            close(c);
        return c >= 0;
    }
};

TEST(Sandbox, StatusSaysWhatItIsOrWhyNot) {
    const own::SandboxStatus& s = own::sandboxStatus();
    const std::string line = s.summary();
    EXPECT_EQ(line.rfind("sandbox: ", 0), 0u) << line;
    if (s.available) {
        EXPECT_NE(line.find("bubblewrap"), std::string::npos) << line;
        EXPECT_TRUE(*own::sandboxWanted(SandboxMode::Required));
        EXPECT_TRUE(own::sandboxNote(SandboxMode::Auto).empty());
    } else {
        EXPECT_NE(s.reason.find("bwrap"), std::string::npos) << s.reason;
        auto required = own::sandboxWanted(SandboxMode::Required);
        ASSERT_FALSE(required);
        EXPECT_NE(required.error().message.find(s.reason), std::string::npos);
        EXPECT_FALSE(*own::sandboxWanted(SandboxMode::Auto));
    }
    EXPECT_FALSE(*own::sandboxWanted(SandboxMode::Off));
}

// The same cases without the sandbox reach what they aim at: what the
// sandboxed runs below do not show is not for want of trying.
TEST_F(Secrets, WithoutTheSandboxTheCasesReachOut) {
    const Outcome home = runCase("read_home_secret", secretFile(), SandboxMode::Off);
    EXPECT_NE(home.printout.find(secret), std::string::npos) << home.printout;
    const Outcome env = runCase("environment_secret", "TILESCOPE_TEST_SECRET", SandboxMode::Off);
    EXPECT_NE(env.printout.find(secret), std::string::npos) << env.printout;
    const Outcome passwd = runCase("read_passwd", "", SandboxMode::Off);
    EXPECT_NE(passwd.printout.find("root:"), std::string::npos) << passwd.printout;
    const std::string name = "tilescope-escaped-off-" + std::to_string(getpid()) + ".txt";
    const Outcome write = runCase("write_outside", (this->home / name).string(), SandboxMode::Off);
    EXPECT_TRUE(fs::exists(this->home / name)) << write.printout;
    EXPECT_TRUE(fs::exists("/tmp/" + name)) << write.printout;
    fs::remove(this->home / name);
    fs::remove("/tmp/" + name);
    // Without the sandbox the kernel reads the secret through its link; the
    // caller still follows none of the job's links (where.txt is one).
    const Outcome link = runCase("symlink_out", secretFile(), SandboxMode::Off);
    EXPECT_NE(link.printout.find("link: read " + secret), std::string::npos) << link.printout;
    EXPECT_EQ(link.message.find(secret), std::string::npos) << link.message;
    EXPECT_NE(link.message.find("the kernel crashed, and its report of where is missing"), std::string::npos)
        << link.message;
    Listener listener;
    ASSERT_GT(listener.port, 0);
    const Outcome net = runCase("socket_connect", std::to_string(listener.port), SandboxMode::Off);
    EXPECT_NE(net.printout.find("connected"), std::string::npos) << net.printout;
    EXPECT_TRUE(listener.accepted());
}

TEST_F(Secrets, TheMachinesFilesAreNotThere) {
    REQUIRE_SANDBOX();
    const Outcome o = runCase("read_passwd");
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("passwd: cannot open /etc/passwd"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find("root:"), std::string::npos) << o.all();
}

TEST_F(Secrets, TheTeachersHomeIsNotThere) {
    REQUIRE_SANDBOX();
    const Outcome o = runCase("read_home_secret", secretFile());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("home: cannot open"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
}

TEST_F(Secrets, NothingIsWrittenOutsideTheScratchFolder) {
    REQUIRE_SANDBOX();
    const std::string name = "tilescope-escaped-" + std::to_string(getpid()) + ".txt";
    const fs::path outside = home / name;
    const Outcome o = runCase("write_outside", outside.string());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_FALSE(fs::exists(outside));
    EXPECT_NE(o.printout.find(outside.string() + ": refused"), std::string::npos) << o.printout;
    // /tmp is the sandbox's own: written there, gone with it.
    EXPECT_NE(o.printout.find("/tmp/" + name + ": written"), std::string::npos) << o.printout;
    EXPECT_FALSE(fs::exists("/tmp/" + name));
    const std::vector<std::string> names = home.names();
    EXPECT_EQ(names, std::vector<std::string>{"home"});
}

TEST_F(Secrets, TheEnvironmentHoldsNoSecret) {
    REQUIRE_SANDBOX();
    const Outcome o = runCase("environment_secret", "TILESCOPE_TEST_SECRET");
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("getenv: (none)"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
}

TEST_F(Secrets, LinksOutOfTheScratchFolderLeadNowhere) {
    REQUIRE_SANDBOX();
    const Outcome o = runCase("symlink_out", secretFile());
    // The job's files are links now: the caller follows none of them.
    expectContained(o, "the kernel crashed, and its report of where is missing or was tampered with");
    EXPECT_NE(o.printout.find("link: cannot open link"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
    EXPECT_TRUE(fs::exists(secretFile()));
}

TEST(Sandbox, NoNetwork) {
    REQUIRE_FILTER();
    Listener listener;
    ASSERT_GT(listener.port, 0);
    const Outcome o = runCase("socket_connect", std::to_string(listener.port));
    expectContained(o, "the sandbox stopped the kernel: it called socket()");
    EXPECT_FALSE(listener.accepted());
}

TEST(Sandbox, NoNewProcess) {
    REQUIRE_FILTER();
    expectContained(runCase("fork_loop"), "the sandbox stopped the kernel: it called clone()");
}

TEST(Sandbox, NoOtherProgram) {
    REQUIRE_FILTER();
    test::ScratchDir dir("tilescope-sandbox-exec");
    const Outcome o = runCase("exec_shell", (dir / "ran.txt").string());
    expectContained(o, "the sandbox stopped the kernel: it called execve()");
    EXPECT_FALSE(fs::exists(dir / "ran.txt"));
}

TEST(Sandbox, NoSignalToAnotherProcess) {
    REQUIRE_FILTER();
    const Outcome o = runCase("kill_parent");
    expectContained(o, "the sandbox stopped the kernel: it called kill()");
    EXPECT_EQ(o.printout.find("still here"), std::string::npos);
}

TEST(Sandbox, ThreadsAreBoundedByTheAddressSpace) {
    REQUIRE_SANDBOX();
    if (sanitized())
        GTEST_SKIP() << "ASan's worker has no address-space limit";
    own::SandboxLimits limits;
    limits.addressSpaceBytes = 1ull << 30;
    const Outcome o = runCase("many_threads", "", SandboxMode::Required, limits);
    expectContained(o, "launch() returned without launching a kernel");
    const std::size_t at = o.printout.find("started ");
    ASSERT_NE(at, std::string::npos) << o.printout;
    const int started = std::atoi(o.printout.c_str() + at + 8);
    EXPECT_GT(started, 0);
    EXPECT_LT(started, 1000);  // 8 MB of stack each
}

TEST(Sandbox, MemoryWithoutEnd) {
    REQUIRE_SANDBOX();
    if (sanitized())
        GTEST_SKIP() << "ASan's worker has no address-space limit";
    own::SandboxLimits limits;
    limits.addressSpaceBytes = 512ull << 20;
    expectContained(runCase("allocate_forever", "", SandboxMode::Required, limits),
                    "launch() ran out of memory (it may take 512 MB)");
}

TEST(Sandbox, OutputWithoutEnd) {
    REQUIRE_SANDBOX();
    own::SandboxLimits limits;
    limits.outputBytes = 64 * 1024;
    const Outcome o = runCase("print_forever", "", SandboxMode::Required, limits);
    expectContained(o, "the kernel printed more than 4194304 bytes and was ended (output cut at 65536 bytes)");
    EXPECT_NE(o.raw.note.find("output cut at 65536 bytes"), std::string::npos) << o.raw.note;
    EXPECT_GT(o.raw.bytes, 4194304u);
    EXPECT_TRUE(o.raw.uncounted);
}

TEST(Sandbox, CpuTimeWithoutEnd) {
    REQUIRE_SANDBOX();
    own::SandboxLimits limits;
    limits.cpuSeconds = 1;
    expectContained(runCase("spin_forever", "", SandboxMode::Required, limits, 20.0),
                    "the kernel used up its 1 s of CPU time (the sandbox's limit)");
}

TEST(Sandbox, TheTimeLimitStillStopsIt) {
    REQUIRE_SANDBOX();
    // The stop reaches the worker through its pipe (no signal of the caller's reaches the PID namespace).
    const Outcome o = runCase("spin_forever", "", SandboxMode::Required, {}, 1.0);
    expectContained(o, "stopped after 1 s, the time limit");
    EXPECT_NE(o.message.find("in launch(), before or after the kernel"), std::string::npos) << o.message;
}

TEST(Sandbox, AFullDiskIsOneFilesLimit) {
    REQUIRE_SANDBOX();
    own::SandboxLimits limits;
    limits.fileSizeBytes = 8ull << 20;
    expectContained(runCase("fill_disk", "", SandboxMode::Required, limits),
                    "the kernel wrote a file larger than 8 MB (the sandbox's limit)");
}

TEST(Sandbox, CrashesAreNamed) {
    REQUIRE_SANDBOX();
    expectContained(runCase("segfault"), "the kernel crashed with a segmentation fault (SIGSEGV)");
    expectContained(runCase("abort_now"), "the kernel crashed with an abort (SIGABRT)");
    expectContained(runCase("stack_overflow"), "the kernel crashed with a segmentation fault (SIGSEGV)");
}

TEST(Sandbox, ItsOwnSharedObjectIsReadOnly) {
    REQUIRE_SANDBOX();
    const Outcome o = runCase("replace_library");
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("library: read-only"), std::string::npos) << o.printout;
}

// [SECTION] The translation and the compiler.

const std::string kGood = std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/good/conv2d_tiled_student.cu";

TEST_F(Secrets, TheTranslatorRunsInTheSandbox) {
    REQUIRE_SANDBOX();
    std::ifstream in(kGood);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    test::ScratchDir here("tilescope-sandbox-translate-here"), there("tilescope-sandbox-translate-there");
    // In this process the teacher's file is there to be read; in the sandbox it is not.
    ASSERT_EQ(access(secretFile().c_str(), R_OK), 0);
    own::CompileOptions options;
    own::TranslatorView view;
    auto sandboxed = own::translateInSandbox(kGood, text, there.path().string(), options, nullptr, secretFile(), &view);
    ASSERT_TRUE(sandboxed) << sandboxed.error().message;
    EXPECT_FALSE(view.probeVisible);
    EXPECT_NE(view.pid, getpid());
    EXPECT_LT(view.pid, 10) << "a PID namespace of its own";
    // The same translation as in this process.
    auto local = own::translate(kGood, text, here.path().string());
    ASSERT_TRUE(local);
    EXPECT_EQ(sandboxed->cpuSource, local->cpuSource);
    EXPECT_EQ(sandboxed->deviceSource, local->deviceSource);
    EXPECT_EQ(sandboxed->barrierLines, local->barrierLines);
    ASSERT_EQ(sandboxed->kernels.size(), local->kernels.size());
    EXPECT_EQ(sandboxed->kernels[0].name, local->kernels[0].name);
    EXPECT_EQ(sandboxed->kernels[0].arrayOf, local->kernels[0].arrayOf);
}

// Every hostile kernel file of tests/own/broken/ is refused in the sandbox
// as in the process, naming the student's file and nothing of the machine's.
TEST_F(Secrets, HostileFilesShowNothingButTheStudentsFile) {
    REQUIRE_SANDBOX();
    int seen = 0;
    for (const auto& entry : fs::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/broken")) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("hostile_", 0) != 0)
            continue;
        ++seen;
        own::CompileOptions options;
        options.sandbox = SandboxMode::Required;
        own::Diagnostic diagnostic;
        auto k = own::compileKernelFile(entry.path().string(), options, &diagnostic);
        ASSERT_FALSE(k) << name;
        const std::string& m = k.error().message;
        EXPECT_EQ(m.rfind(entry.path().string() + ":", 0), 0u) << m;
        EXPECT_EQ(m.find("root:"), std::string::npos) << m;
        EXPECT_EQ(m.find(secret), std::string::npos) << m;
        EXPECT_EQ(diagnostic.path, entry.path().string());
    }
    EXPECT_GE(seen, 10);
}

// A correct kernel file compiles, runs and checks in the sandbox, against
// the float64 reference.
TEST(Sandbox, ACorrectKernelRunsInIt) {
    REQUIRE_SANDBOX();
    own::CompileOptions options;
    options.sandbox = SandboxMode::Required;
    auto k = own::compileKernelFile(kGood, options);
    ASSERT_TRUE(k) << k.error().message;
    EXPECT_TRUE((*k)->sandboxed);
    Image input = Image::planar(45, 37);
    for (std::size_t i = 0; i < input.data.size(); ++i)
        input.data[i] = static_cast<float>((i * 7919) % 101) / 100;
    const Mask mask = Mask::square(5, std::vector<float>(25, 1.0f / 25));
    RunRequest req;
    req.input = &input;
    req.mask = &mask;
    req.backend = Backend::Cpu;
    req.check = true;
    auto r = own::runOwnKernel(**k, req);
    ASSERT_TRUE(r) << r.error().message;
    const std::vector<double> want = reference::convolve(input, mask);
    ASSERT_EQ(r->output.data.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(r->output.data[i], want[i], 1e-5) << i;
    ASSERT_TRUE(r->problems);
    EXPECT_TRUE(r->problems->clean());
}

// What the sandbox costs, a compile and a run of the correct kernel on a
// 45x37 image, each mode in turn (docs/own-kernel.md quotes it). Not a
// check: run by hand with --gtest_also_run_disabled_tests.
TEST(Sandbox, DISABLED_Cost) {
    REQUIRE_SANDBOX();
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    Image input = Image::planar(45, 37);
    const Mask mask = Mask::square(5, std::vector<float>(25, 1.0f / 25));
    for (const SandboxMode mode : {SandboxMode::Off, SandboxMode::Required, SandboxMode::Off, SandboxMode::Required}) {
        own::CompileOptions options;
        options.sandbox = mode;
        std::vector<double> translate, compile, run, check;
        std::shared_ptr<const own::OwnKernel> kernel;
        for (int i = 0; i < 7; ++i) {
            auto k = own::compileKernelFile(kGood, options);
            ASSERT_TRUE(k) << k.error().message;
            translate.push_back((*k)->translateMs);
            compile.push_back((*k)->compileMs);
            kernel = *k;
        }
        for (bool checked : {false, true})
            for (int i = 0; i < 15; ++i) {
                RunRequest req;
                req.input = &input;
                req.mask = &mask;
                req.backend = Backend::Cpu;
                req.check = checked;
                const auto start = std::chrono::steady_clock::now();
                auto r = own::runOwnKernel(*kernel, req);
                ASSERT_TRUE(r) << r.error().message;
                (checked ? check : run)
                    .push_back(
                        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            }
        std::printf("%-8s translate %6.1f ms  compile %6.1f ms  run %6.1f ms  run traced+checked %6.1f ms\n",
                    own::sandboxModeName(mode), median(translate), median(compile), median(run), median(check));
    }
}

}  // namespace
}  // namespace tilescope
