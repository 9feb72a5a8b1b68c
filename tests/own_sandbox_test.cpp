// The sandbox around a kernel file (own/sandbox.hpp): the second wall.
// The translator refuses most hostile C++ before it can run, so these tests
// hand the worker shared objects built from raw C++ (tests/own/sandbox/,
// built by CMake, exposing the entry a translation exposes; no student's
// file can become one) and check, for each, that the caller survives, the
// error says what happened in words, no secret reaches any output or
// message, nothing is written outside the scratch folder and no process is
// left behind. Each runs behind every wall this machine has: bubblewrap
// (--sandbox required), and Landlock with seccomp where bubblewrap is made
// absent (--sandbox auto). The same cases run without the sandbox show that
// each one does reach out when nothing stops it: the checks can fail.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
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
using own::SandboxWall;

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

// Each wall this machine has, in turn: bubblewrap as it is (Required), and
// Landlock and seccomp with bubblewrap made absent (Auto, as on a machine
// whose containers cannot make namespaces). A wall the machine lacks is
// skipped, saying why.
class Walls : public Secrets, public ::testing::WithParamInterface<SandboxWall> {
protected:
    void SetUp() override {
        Secrets::SetUp();
        if (const char* bwrap = std::getenv("TILESCOPE_BWRAP"))
            m_bwrap = bwrap;
        if (GetParam() == SandboxWall::Landlock)
            setenv("TILESCOPE_BWRAP", (home / "no-bwrap-here").c_str(), 1);
        own::probeSandboxAgain();
        if (own::sandboxStatus().wall != GetParam())
            GTEST_SKIP() << "no " << own::sandboxWallName(GetParam())
                         << " wall here: " << own::sandboxStatus().summary();
        if (GetParam() == SandboxWall::Landlock && !own::sandboxStatus().available)
            GTEST_SKIP() << "Landlock without seccomp: " << own::sandboxStatus().summary();
    }
    void TearDown() override {
        if (m_bwrap)
            setenv("TILESCOPE_BWRAP", m_bwrap->c_str(), 1);
        else
            unsetenv("TILESCOPE_BWRAP");
        own::probeSandboxAgain();
        Secrets::TearDown();
    }
    // The mode that gets this wall: Required takes bubblewrap; Auto, where
    // bubblewrap is absent, the strongest left.
    SandboxMode mode() const { return GetParam() == SandboxWall::Bubblewrap ? SandboxMode::Required : SandboxMode::Auto; }
    bool bubblewrap() const { return GetParam() == SandboxWall::Bubblewrap; }

private:
    std::optional<std::string> m_bwrap;
};

std::string wallName(const ::testing::TestParamInfo<SandboxWall>& info) {
    return info.param == SandboxWall::Bubblewrap ? "Bubblewrap" : "LandlockWithoutBubblewrap";
}

#define REQUIRE_WALL_FILTER()                                                                      \
    do {                                                                                           \
        if (sanitized())                                                                           \
            GTEST_SKIP() << "the AddressSanitizer build's worker runs without the seccomp filter"; \
    } while (0)

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
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    switch (s.wall) {
        case SandboxWall::Bubblewrap:
            EXPECT_NE(line.find("bubblewrap"), std::string::npos) << line;
            EXPECT_TRUE(s.available);
            EXPECT_TRUE(own::sandboxNote(SandboxMode::Auto).empty());
            break;
        case SandboxWall::Landlock:
            EXPECT_NE(line.find("Landlock (ABI "), std::string::npos) << line;
            EXPECT_NE(line.find(s.reason), std::string::npos) << line;
            EXPECT_NE(own::sandboxNote(SandboxMode::Auto).find("without bubblewrap's namespaces"), std::string::npos);
            break;
        case SandboxWall::Seccomp:
        case SandboxWall::Rlimits:
            EXPECT_FALSE(s.available);
            EXPECT_NE(line.find(s.reason), std::string::npos) << line;
            EXPECT_NE(line.find(s.landlockReason), std::string::npos) << line;
            break;
    }
    auto required = own::sandboxWall(SandboxMode::Required);
    EXPECT_EQ(static_cast<bool>(required), s.available);
    if (required) {
        EXPECT_EQ(*required, s.wall);
    }
    EXPECT_EQ(*own::sandboxWall(SandboxMode::Auto), s.wall);
    EXPECT_EQ(*own::sandboxWall(SandboxMode::Off), SandboxWall::Rlimits);
    EXPECT_FALSE(*own::sandboxWanted(SandboxMode::Off));
    EXPECT_TRUE(own::sandboxNote(SandboxMode::Off).empty());
}

// A machine with neither bubblewrap nor Landlock: Required refuses, naming
// both reasons; Auto falls back to the filter and rlimits, and says so.
TEST(Sandbox, WithNeitherWallRequiredRefusesAndAutoSaysWhatIsLeft) {
    test::ScratchDir dir("tilescope-sandbox-neither");
    const char* before = std::getenv("TILESCOPE_BWRAP");
    const std::optional<std::string> bwrap = before ? std::optional<std::string>(before) : std::nullopt;
    setenv("TILESCOPE_BWRAP", (dir / "no-bwrap-here").c_str(), 1);
    setenv("TILESCOPE_LANDLOCK", "off", 1);
    own::probeSandboxAgain();
    const own::SandboxStatus s = own::sandboxStatus();
    auto required = own::sandboxWall(SandboxMode::Required);
    auto automatic = own::sandboxWall(SandboxMode::Auto);
    const std::string note = own::sandboxNote(SandboxMode::Auto);
    if (bwrap)
        setenv("TILESCOPE_BWRAP", bwrap->c_str(), 1);
    else
        unsetenv("TILESCOPE_BWRAP");
    unsetenv("TILESCOPE_LANDLOCK");
    own::probeSandboxAgain();
    ASSERT_FALSE(required);
    EXPECT_EQ(required.error().message,
              "the sandbox is required but cannot be had: " + (dir / "no-bwrap-here").string() +
                  " cannot be run: No such file or directory; Landlock is turned off ($TILESCOPE_LANDLOCK=off)");
    ASSERT_TRUE(automatic);
    EXPECT_EQ(*automatic, s.seccomp ? SandboxWall::Seccomp : SandboxWall::Rlimits);
    if (s.seccomp) {
        EXPECT_EQ(note.rfind("note: kernel files run behind seccomp and rlimits alone, their files unconfined (", 0), 0u)
            << note;
    }
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
    // A constructor runs at dlopen, before launch(): it connects and starts a shell.
    Listener early;
    ASSERT_GT(early.port, 0);
    const Outcome constructor =
        runCase("constructor_escape", std::to_string(early.port) + " " + (this->home / "constructor.txt").string(),
                SandboxMode::Off);
    EXPECT_NE(constructor.printout.find("launch() ran"), std::string::npos) << constructor.printout;
    EXPECT_TRUE(early.accepted());
    EXPECT_TRUE(fs::exists(this->home / "constructor.txt"));
    const Outcome shell = runCase("run_system", (this->home / "system.txt").string(), SandboxMode::Off);
    EXPECT_NE(shell.printout.find("system: 0"), std::string::npos) << shell.printout;
    EXPECT_TRUE(fs::exists(this->home / "system.txt"));
    const Outcome files = runCase("many_files", (this->home / "made.txt").string(), SandboxMode::Off, {}, 60.0);
    EXPECT_NE(files.printout.find("made 5000 files; " + (this->home / "made.txt").string() + ": made"),
              std::string::npos)
        << files.printout;
    EXPECT_TRUE(files.scratchLeft.empty());
}

TEST_P(Walls, TheMachinesFilesAreNotThere) {
    const Outcome o = runCase("read_passwd", "", mode());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("passwd: cannot open /etc/passwd"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find("root:"), std::string::npos) << o.all();
}

TEST_P(Walls, TheTeachersHomeIsNotThere) {
    const Outcome o = runCase("read_home_secret", secretFile(), mode());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("home: cannot open"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
}

TEST_P(Walls, NothingIsWrittenOutsideTheScratchFolder) {
    const std::string name = "tilescope-escaped-" + std::to_string(getpid()) + ".txt";
    const fs::path outside = home / name;
    const Outcome o = runCase("write_outside", outside.string(), mode());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_FALSE(fs::exists(outside));
    EXPECT_NE(o.printout.find(outside.string() + ": refused"), std::string::npos) << o.printout;
    // Bubblewrap's /tmp is its own: written there, gone with it. Landlock's
    // is the machine's, which it may not write.
    EXPECT_NE(o.printout.find("/tmp/" + name + (bubblewrap() ? ": written" : ": refused")), std::string::npos)
        << o.printout;
    EXPECT_FALSE(fs::exists("/tmp/" + name));
    const std::vector<std::string> names = home.names();
    EXPECT_EQ(names, std::vector<std::string>{"home"});
}

TEST_P(Walls, TheEnvironmentHoldsNoSecret) {
    const Outcome o = runCase("environment_secret", "TILESCOPE_TEST_SECRET", mode());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("getenv: (none)"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
}

TEST_P(Walls, LinksOutOfTheScratchFolderLeadNowhere) {
    const Outcome o = runCase("symlink_out", secretFile(), mode());
    // The job's files are links now: the caller follows none of them.
    expectContained(o, "the kernel crashed, and its report of where is missing or was tampered with");
    EXPECT_NE(o.printout.find("link: cannot open link"), std::string::npos) << o.printout;
    EXPECT_EQ(o.all().find(secret), std::string::npos) << o.all();
    EXPECT_TRUE(fs::exists(secretFile()));
}

TEST_P(Walls, NoNetwork) {
    REQUIRE_WALL_FILTER();
    Listener listener;
    ASSERT_GT(listener.port, 0);
    const Outcome o = runCase("socket_connect", std::to_string(listener.port), mode());
    expectContained(o, "the sandbox stopped the kernel: it called socket()");
    EXPECT_FALSE(listener.accepted());
}

TEST_P(Walls, NoNewProcess) {
    REQUIRE_WALL_FILTER();
    expectContained(runCase("fork_loop", "", mode()),
                    "the sandbox stopped the kernel: it tried to start a program or process (it called clone())");
}

TEST_P(Walls, NoOtherProgram) {
    REQUIRE_WALL_FILTER();
    test::ScratchDir dir("tilescope-sandbox-exec");
    const Outcome o = runCase("exec_shell", (dir / "ran.txt").string(), mode());
    expectContained(o, "the sandbox stopped the kernel: it tried to start a program or process (it called execve())");
    EXPECT_FALSE(fs::exists(dir / "ran.txt"));
}

// system() blocks every signal around the clone that starts its shell: the
// worker is ended before it can say which call, and the caller says what it was.
TEST_P(Walls, NoProgramThroughSystem) {
    REQUIRE_WALL_FILTER();
    const Outcome o = runCase("run_system", (home / "system.txt").string(), mode());
    expectContained(o, "the sandbox stopped the kernel: it tried to start a program or process");
    EXPECT_EQ(o.message.find("a system call"), std::string::npos) << o.message;
    EXPECT_FALSE(fs::exists(home / "system.txt"));
}

// The filter is there before the kernel's shared object is loaded: its
// constructor, which runs at dlopen, is stopped at its first socket().
TEST_P(Walls, AConstructorRunsBehindTheFilter) {
    REQUIRE_WALL_FILTER();
    Listener listener;
    ASSERT_GT(listener.port, 0);
    const Outcome o =
        runCase("constructor_escape", std::to_string(listener.port) + " " + (home / "constructor.txt").string(), mode());
    expectContained(o, "the sandbox stopped the kernel: it called socket()");
    EXPECT_NE(o.message.find("while its shared object was being loaded (in a constructor)"), std::string::npos)
        << o.message;
    EXPECT_FALSE(listener.accepted());
    EXPECT_FALSE(fs::exists(home / "constructor.txt"));
    EXPECT_EQ(o.printout.find("launch() ran"), std::string::npos) << o.printout;
}

TEST_P(Walls, NoSignalToAnotherProcess) {
    REQUIRE_WALL_FILTER();
    const Outcome o = runCase("kill_parent", "", mode());
    expectContained(o, "the sandbox stopped the kernel: it called kill()");
    EXPECT_EQ(o.printout.find("still here"), std::string::npos);
}

TEST_P(Walls, ThreadsAreBoundedByTheAddressSpace) {
    if (sanitized())
        GTEST_SKIP() << "ASan's worker has no address-space limit";
    own::SandboxLimits limits;
    limits.addressSpaceBytes = 1ull << 30;
    const Outcome o = runCase("many_threads", "", mode(), limits);
    expectContained(o, "launch() returned without launching a kernel");
    const std::size_t at = o.printout.find("started ");
    ASSERT_NE(at, std::string::npos) << o.printout;
    const int started = std::atoi(o.printout.c_str() + at + 8);
    EXPECT_GT(started, 0);
    EXPECT_LT(started, 1000);  // 8 MB of stack each
}

// Threads of 16 KB of stack, which the address space does not bound: where
// the caller is root, the worker's user id of its own makes RLIMIT_NPROC hold.
TEST_P(Walls, AThreadSwarmIsBoundedByTheProcessLimit) {
    if (!own::sandboxStatus().ownUser)
        GTEST_SKIP() << "not root: the worker keeps the caller's user id, whose process count holds the caller's "
                        "own programs too";
    own::SandboxLimits limits;
    limits.processes = 64;
    const Outcome o = runCase("thread_swarm", "", mode(), limits);
    expectContained(o, "launch() returned without launching a kernel");
    const std::size_t at = o.printout.find("started ");
    ASSERT_NE(at, std::string::npos) << o.printout;
    const int started = std::atoi(o.printout.c_str() + at + 8);
    std::printf("thread_swarm behind %s: started %d threads (RLIMIT_NPROC %u)\n", own::sandboxWallName(GetParam()),
                started, limits.processes);
    // Bounded: fewer than the limit. (A worker whose filter or limits leave a
    // tiny-stack thread no room at all starts none, which holds as well.)
    EXPECT_LT(started, 64);
}

TEST_P(Walls, MemoryWithoutEnd) {
    if (sanitized())
        GTEST_SKIP() << "ASan's worker has no address-space limit";
    own::SandboxLimits limits;
    limits.addressSpaceBytes = 512ull << 20;
    expectContained(runCase("allocate_forever", "", mode(), limits), "launch() ran out of memory (it may take 512 MB)");
}

TEST_P(Walls, OutputWithoutEnd) {
    own::SandboxLimits limits;
    limits.outputBytes = 64 * 1024;
    const Outcome o = runCase("print_forever", "", mode(), limits);
    expectContained(o, "the kernel printed more than 4194304 bytes and was ended (output cut at 65536 bytes)");
    EXPECT_NE(o.raw.note.find("output cut at 65536 bytes"), std::string::npos) << o.raw.note;
    EXPECT_GT(o.raw.bytes, 4194304u);
    EXPECT_TRUE(o.raw.uncounted);
}

TEST_P(Walls, CpuTimeWithoutEnd) {
    own::SandboxLimits limits;
    limits.cpuSeconds = 1;
    expectContained(runCase("spin_forever", "", mode(), limits, 20.0),
                    "the kernel used up its 1 s of CPU time (the sandbox's limit)");
}

TEST_P(Walls, TheTimeLimitStillStopsIt) {
    // The stop reaches the worker through its pipe (no signal of the caller's reaches the PID namespace).
    const Outcome o = runCase("spin_forever", "", mode(), {}, 1.0);
    expectContained(o, "stopped after 1 s, the time limit");
    EXPECT_NE(o.message.find("in launch(), before or after the kernel"), std::string::npos) << o.message;
}

TEST_P(Walls, AFullDiskIsOneFilesLimit) {
    own::SandboxLimits limits;
    limits.fileSizeBytes = 8ull << 20;
    expectContained(runCase("fill_disk", "", mode(), limits),
                    "the kernel wrote a file larger than 8 MB (the sandbox's limit)");
}

// /tmp: bubblewrap's is a tmpfs of SandboxLimits::tmpBytes (in memory, so
// bounded far below one file's limit); Landlock's is the machine's, closed.
TEST_P(Walls, TmpIsBounded) {
    own::SandboxLimits limits;
    limits.tmpBytes = 32ull << 20;
    const Outcome o = runCase("tmpfs_fill", "", mode(), limits);
    expectContained(o, "launch() returned without launching a kernel");
    const std::size_t at = o.printout.find("tmp: wrote ");
    ASSERT_NE(at, std::string::npos) << o.printout;
    const unsigned long long wrote = std::strtoull(o.printout.c_str() + at + 11, nullptr, 10);
    std::printf("tmpfs_fill behind %s: wrote %llu bytes into /tmp (tmpfs of %llu)\n",
                own::sandboxWallName(GetParam()), wrote, static_cast<unsigned long long>(limits.tmpBytes));
    if (bubblewrap()) {
        EXPECT_GT(wrote, 0u);
        EXPECT_LE(wrote, limits.tmpBytes);
    } else {
        EXPECT_EQ(wrote, 0u);
        EXPECT_NE(o.printout.find("in 0 files"), std::string::npos) << o.printout;
    }
}

// Files without end in its job's folder, none outside it; all gone with the scratch folder.
TEST_P(Walls, ManyFilesStayInTheJobsFolder) {
    const Outcome o = runCase("many_files", (home / "made.txt").string(), mode(), {}, 60.0);
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find((home / "made.txt").string() + ": refused"), std::string::npos) << o.printout;
    EXPECT_FALSE(fs::exists(home / "made.txt"));
    const std::size_t at = o.printout.find("made ");
    ASSERT_NE(at, std::string::npos) << o.printout;
    std::printf("many_files behind %s: made %d files in its job's folder\n", own::sandboxWallName(GetParam()),
                std::atoi(o.printout.c_str() + at + 5));
}

TEST_P(Walls, CrashesAreNamed) {
    expectContained(runCase("segfault", "", mode()), "the kernel crashed with a segmentation fault (SIGSEGV)");
    expectContained(runCase("abort_now", "", mode()), "the kernel crashed with an abort (SIGABRT)");
    expectContained(runCase("stack_overflow", "", mode()), "the kernel crashed with a segmentation fault (SIGSEGV)");
}

TEST_P(Walls, ItsOwnSharedObjectIsReadOnly) {
    const Outcome o = runCase("replace_library", "", mode());
    expectContained(o, "launch() returned without launching a kernel");
    EXPECT_NE(o.printout.find("library: read-only"), std::string::npos) << o.printout;
}

// [SECTION] The translation and the compiler.

const std::string kGood = std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/good/conv2d_tiled_student.cu";

TEST_P(Walls, TheTranslatorRunsInTheSandbox) {
    std::ifstream in(kGood);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    test::ScratchDir here("tilescope-sandbox-translate-here"), there("tilescope-sandbox-translate-there");
    // In this process the teacher's file is there to be read; in bubblewrap
    // it is not. (Landlock hides a file's contents, not its name.)
    ASSERT_EQ(access(secretFile().c_str(), R_OK), 0);
    own::CompileOptions options;
    own::TranslatorView view;
    auto sandboxed = own::translateInSandbox(kGood, text, there.path().string(), options, nullptr, secretFile(), &view);
    ASSERT_TRUE(sandboxed) << sandboxed.error().message;
    EXPECT_NE(view.pid, getpid());
    if (bubblewrap()) {
        EXPECT_FALSE(view.probeVisible);
        EXPECT_LT(view.pid, 10) << "a PID namespace of its own";
    }
    // The same translation as in this process.
    auto local = own::translate(kGood, text, here.path().string());
    ASSERT_TRUE(local);
    EXPECT_EQ(sandboxed->cpuSource, local->cpuSource);
    EXPECT_EQ(sandboxed->deviceSource, local->deviceSource);
    EXPECT_EQ(sandboxed->barrierLines, local->barrierLines);
    ASSERT_EQ(sandboxed->kernels.size(), local->kernels.size());
    EXPECT_EQ(sandboxed->kernels[0].name, local->kernels[0].name);
    EXPECT_EQ(sandboxed->kernels[0].arrayOf, local->kernels[0].arrayOf);
    EXPECT_EQ(local->launched, local->kernels[0].name);  // the file's one kernel
    EXPECT_EQ(sandboxed->launched, local->launched);
}

// Every hostile kernel file of tests/own/broken/ is refused in the sandbox
// as in the process, naming the student's file and nothing of the machine's.
TEST_P(Walls, HostileFilesShowNothingButTheStudentsFile) {
    int seen = 0;
    for (const auto& entry : fs::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + "/tests/own/broken")) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("hostile_", 0) != 0)
            continue;
        ++seen;
        own::CompileOptions options;
        options.sandbox = mode();
        own::Diagnostic diagnostic;
        auto k = own::compileKernelFile(entry.path().string(), options, &diagnostic);
        if (k)
            continue;  // translated and compiled: its run is what must be contained (Own.Broken tests it)
        const std::string& m = k.error().message;
        EXPECT_EQ(m.rfind(entry.path().string() + ":", 0), 0u) << m;
        EXPECT_EQ(m.find("root:"), std::string::npos) << m;
        EXPECT_EQ(m.find(secret), std::string::npos) << m;
        EXPECT_EQ(diagnostic.path, entry.path().string());
    }
    EXPECT_GE(seen, 10);
}

// A correct kernel file compiles, runs and checks in the sandbox, against
// the float64 reference: the filter lets the worker load it (dlopen after
// the filter) and the executor run.
TEST_P(Walls, ACorrectKernelRunsInIt) {
    own::CompileOptions options;
    options.sandbox = mode();
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

INSTANTIATE_TEST_SUITE_P(Sandbox, Walls, ::testing::Values(SandboxWall::Bubblewrap, SandboxWall::Landlock), wallName);

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
