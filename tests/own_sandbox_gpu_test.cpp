// The CUDA driver starts behind each wall a kernel file runs behind on a GPU
// (own/sandbox.hpp). A child gets the limits confineCommand gives the worker
// (rlimits; a user id of its own where this is root; Landlock's view of the
// GPU), starts the driver as the worker does (cuInit and a context), puts up
// the system-call filter as the worker does, then allocates, fills and
// copies back through libcuda itself. A wall the driver cannot live with is
// named here, where `tilescope check --backend cuda` could only say
// "cudaErrorOperatingSystem". Skipped where the machine has no driver or no
// device.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "own/sandbox.hpp"
#include "scratch_dir.hpp"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using own::SandboxWall;

// libcuda's stable C entry points, by name.
struct Driver {
    int (*init)(unsigned) = nullptr;
    int (*deviceGet)(int*, int) = nullptr;
    int (*ctxCreate)(void**, unsigned, int) = nullptr;
    int (*memAlloc)(std::uint64_t*, std::size_t) = nullptr;
    int (*memsetD32)(std::uint64_t, unsigned, std::size_t) = nullptr;
    int (*copyDtoH)(void*, std::uint64_t, std::size_t) = nullptr;
};

// The steps, each reported as step * 1000 + its CUresult.
enum Step { Init = 1, DeviceGet, CtxCreate, MemAlloc, Memset, Copy, WrongCopy, Filter };

int reportTo = -1;

// A call the filter forbids, reported as 8000 + its number.
void onForbiddenCall(int, siginfo_t* info, void*) {
    const int code = 8000 + info->si_syscall;
    (void)!write(reportTo, &code, sizeof code);
    _exit(0);
}

// In the child, behind its limits: the driver started, the filter put up,
// then memory used.
int useTheDriver(bool filter) {
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda)
        return 1;
    Driver d;
    d.init = reinterpret_cast<decltype(d.init)>(dlsym(cuda, "cuInit"));
    d.deviceGet = reinterpret_cast<decltype(d.deviceGet)>(dlsym(cuda, "cuDeviceGet"));
    d.ctxCreate = reinterpret_cast<decltype(d.ctxCreate)>(dlsym(cuda, "cuCtxCreate_v2"));
    d.memAlloc = reinterpret_cast<decltype(d.memAlloc)>(dlsym(cuda, "cuMemAlloc_v2"));
    d.memsetD32 = reinterpret_cast<decltype(d.memsetD32)>(dlsym(cuda, "cuMemsetD32_v2"));
    d.copyDtoH = reinterpret_cast<decltype(d.copyDtoH)>(dlsym(cuda, "cuMemcpyDtoH_v2"));
    if (!d.init || !d.deviceGet || !d.ctxCreate || !d.memAlloc || !d.memsetD32 || !d.copyDtoH)
        return 2;
    if (int rc = d.init(0))
        return Init * 1000 + rc;
    int device = 0;
    if (int rc = d.deviceGet(&device, 0))
        return DeviceGet * 1000 + rc;
    void* context = nullptr;
    if (int rc = d.ctxCreate(&context, 0, device))
        return CtxCreate * 1000 + rc;
    if (filter && !own::installWorkerFilter(true).empty())
        return Filter * 1000;
    std::uint64_t memory = 0;
    if (int rc = d.memAlloc(&memory, 4096))
        return MemAlloc * 1000 + rc;
    if (int rc = d.memsetD32(memory, 0x3f800000u, 1024))  // 1.0f
        return Memset * 1000 + rc;
    float back[1024] = {};
    if (int rc = d.copyDtoH(back, memory, sizeof back))
        return Copy * 1000 + rc;
    return back[1023] == 1.0f ? 0 : WrongCopy * 1000;
}

std::string said(int code) {
    if (code == 0)
        return "started";
    if (code == 1)
        return "libcuda.so.1 cannot be loaded";
    if (code == 2)
        return "libcuda lacks an entry";
    if (code < 0)
        return "the child ended without a word";
    if (code == WrongCopy * 1000)
        return "the copy back is wrong";
    if (code == Filter * 1000)
        return "the filter cannot be installed";
    if (code >= 8000 && code < 9000)
        return "the filter ended it at " + own::systemCallName(code - 8000);
    if (code >= 9000)
        return "the wall could not be applied: " + std::string(std::strerror(code - 9000));
    static const char* steps[] = {"", "cuInit", "cuDeviceGet", "cuCtxCreate", "cuMemAlloc", "cuMemsetD32",
                                  "cuMemcpyDtoH"};
    return std::string(steps[code / 1000]) + " failed with CUresult " + std::to_string(code % 1000);
}

// The driver used in a child behind `wall`, as confineCommand confines the
// worker, with `view` (the scratch folder writable, the GPU's devices).
int useBehind(SandboxWall wall, const own::SandboxView& view) {
    auto confined = own::confineCommand(wall, {"/bin/true"}, view, own::SandboxLimits{},
                                        /*addressSpace=*/false, /*ownUser=*/true);
    if (!confined)
        return 9000 + EINVAL;
    int fds[2];
    if (pipe(fds) != 0)
        return 9000 + errno;
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        reportTo = fds[1];
        struct sigaction forbidden {};
        forbidden.sa_sigaction = onForbiddenCall;
        forbidden.sa_flags = SA_SIGINFO;
        sigaction(SIGSYS, &forbidden, nullptr);
        int code = own::applyChildLimits(confined->limits);
        code = code != 0 ? 9000 + code : useTheDriver(wall != SandboxWall::Rlimits && own::sandboxStatus().seccomp);
        (void)!write(fds[1], &code, sizeof code);
        _exit(0);
    }
    close(fds[1]);
    int code = -1;
    if (read(fds[0], &code, sizeof code) != static_cast<ssize_t>(sizeof code))
        code = -1;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return code;
}

class GpuWalls : public ::testing::Test {
protected:
    void SetUp() override {
        const int bare = useBehind(SandboxWall::Rlimits, view());
        if (bare == 1 || bare == 2 || (bare > 1000 && bare < 4000))
            GTEST_SKIP() << "the CUDA driver does not start here: " << said(bare);
        EXPECT_EQ(bare, 0) << "with rlimits alone: " << said(bare);
    }
    own::SandboxView view() const {
        own::SandboxView v;
        v.writable = m_scratch.path().string();
        v.gpu = true;
        return v;
    }

    // Fails with what the driver said, and, behind Landlock, which other
    // folder would have let it start.
    void expectStarts(SandboxWall wall) {
        const int code = useBehind(wall, view());
        if (code == 0)
            return;
        std::string needs;
        if (wall == SandboxWall::Landlock)
            for (const char* top : {"/etc", "/run", "/var", "/dev", "/tmp", "/proc", "/sys", "/"}) {
                own::SandboxView wider = view();
                wider.readOnly.push_back(top);
                if (fs::exists(top) && useBehind(wall, wider) == 0)
                    needs += std::string(" ") + top + " (read)";
                wider = view();
                wider.writable = top;
                if (fs::exists(top) && useBehind(wall, wider) == 0)
                    needs += std::string(" ") + top + " (written)";
            }
        ADD_FAILURE() << own::sandboxWallName(wall) << ": " << said(code)
                      << (needs.empty() ? "" : "; it starts with one of these added:" + needs);
    }

private:
    test::ScratchDir m_scratch{"gpu-walls"};
};

TEST_F(GpuWalls, TheDriverWorksBehindTheSystemCallFilterAndItsOwnUserId) {
    if (!own::sandboxStatus().seccomp)
        GTEST_SKIP() << "built without libseccomp";
    expectStarts(SandboxWall::Seccomp);
}

TEST_F(GpuWalls, TheDriverWorksBehindLandlock) {
    if (own::sandboxStatus().landlockAbi == 0)
        GTEST_SKIP() << own::sandboxStatus().landlockReason;
    expectStarts(SandboxWall::Landlock);
}

}  // namespace
}  // namespace tilescope
