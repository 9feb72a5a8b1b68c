// A student's kernel on the GPU, compiled at run time with NVRTC: no nvcc is
// needed where it runs. Two programs come from the one file:
//   device.cu  the kernels exactly as the student wrote them (plain CUDA),
//              with a __syncthreads() that can be left out line by line;
//   traced.cu  the same kernels in the kernel language (translate.hpp),
//              recording every thread's events with the device recorder of
//              the built-in kernels' instrumented build.
// The instrumented kernel runs first: it never touches memory outside an
// array, and when it finds such an access the plain kernel is not run (as
// for the book's listings as printed). The result is the plain kernel's
// output, the trace the instrumented kernel's, sorted into each thread's
// program order exactly as for the built-in kernels.
#include "own/worker_runtime.hpp"

#if TILESCOPE_HAVE_CUDA

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/read_file.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "core/barrier_drop.hpp"
#include "trace/fault.hpp"
#include "own/translate.hpp"
#include "trace/event.hpp"

namespace tilescope::own {

namespace {

// NVRTC opens its builtins library (libnvrtc-builtins.so.MAJOR.MINOR) by name
// when it first compiles, through the loader's search, which inside a sandbox
// may not reach the toolkit's folder. Loaded here from the folder libnvrtc
// itself was loaded from, it is found by that name already in the process.
void loadNvrtcBuiltins() {
    static const bool once = [] {
        int major = 0, minor = 0;
        if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
            return false;
        void* nvrtc = dlopen(("libnvrtc.so." + std::to_string(major)).c_str(), RTLD_NOW | RTLD_NOLOAD);
        link_map* map = nullptr;
        if (!nvrtc || dlinfo(nvrtc, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
            return false;
        const std::filesystem::path builtins =
            std::filesystem::path(map->l_name).parent_path() /
            ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
        return dlopen(builtins.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
    }();
    (void)once;
}

namespace fs = std::filesystem;

namespace device {
#include "exec/device_trace.hpp"
}  // namespace device

// What NVRTC needs of the C++ library for the kernel language's headers.
constexpr const char* kStdStub = R"(#pragma once
namespace std {
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long long int64_t; typedef unsigned long long uint64_t;
typedef unsigned long size_t;
}
)";

constexpr const char* kTracedPrelude = R"(#define TS_FN __device__ __forceinline__
#include "exec/traced_types.hpp"
namespace tilescope::instrumented {
#include "exec/device_trace.hpp"
#include "exec/device_recorder.cuh"
}
namespace tilescope::own_user {
using Recorder = ::tilescope::instrumented::DeviceRecorder;
#include "exec/traced_language.inl"
#include "own/own_language.inl"
TS_FN SharedArray<float> tsDynamicShared(int offset, unsigned line = __builtin_LINE()) {
    int count = ::tilescope::instrumented::g_trace.sharedFloats - offset;
    if (count < 0) count = 0;
    return SharedArray<float>(tsSharedAt(offset, count, 0, line), count);
}
}
#define __syncthreads() ::tilescope::instrumented::syncthreads(__LINE__)
namespace tilescope::own_user {
#define TS_CUDA_VECTOR_TYPES_BUILT_IN
#include "own/cuda_types.inl"
)";

constexpr const char* kPlainPrelude = R"(#define TS_CUDA_VECTOR_TYPES_BUILT_IN
#include "own/cuda_types.inl"
__constant__ unsigned tsDropBarrier[8];
__device__ __forceinline__ void tsBarrier(unsigned line) {
    if (!((tsDropBarrier[line / 32] >> (line % 32)) & 1u)) __syncthreads();
}
#define __syncthreads() tsBarrier(__LINE__)
)";

// The layout of Global<const float> / Global<float> (traced_types.hpp).
struct ArrayParam {
    const float* data;
    int size;
    std::uint8_t id;
};

std::string cuError(cudaError_t r) {
    return std::string(cudaGetErrorName(r)) + ": " + cudaGetErrorString(r);
}

struct CudaFailure {
    std::string message;
};

void check(cudaError_t r, const char* what) {
    if (r != cudaSuccess) throw CudaFailure{std::string(what) + ": " + cuError(r)};
}

// The kernel's printf output goes to the worker's stdout, a file the caller
// reads (printout.hpp): the device's buffer is written there at each
// cudaDeviceSynchronize. One run of the kernel is shown, the instrumented
// one (the CPU executor's trace is its twin); the runs after it (the plain
// kernel, a repeat with a larger event buffer, the timed repeats) print the
// same again, and are cut off the file: where stdout stands before such a
// run, then the file cut back to there after it. (Where stdout is no file,
// a terminal when the worker is run by hand, nothing is cut.)
off_t stdoutMark() {
    std::fflush(stdout);
    return lseek(STDOUT_FILENO, 0, SEEK_CUR);
}
void cutStdoutBackTo(off_t mark) {
    std::fflush(stdout);
    // fseeko moves the descriptor and what stdout's buffer knows of it alike.
    if (mark >= 0 && ftruncate(STDOUT_FILENO, mark) == 0) fseeko(stdout, mark, SEEK_SET);
}

// While the GPU runs the kernel, stdout is a file of the kernel's folder, so
// that the runs after the first can be cut off it (stdoutMark): the worker's
// own stdout is a pipe to the caller (own_kernel.cpp), which cannot be cut.
// What is kept goes on down the pipe when the runs end. Only the device's
// printf lands there (launch()'s own output is flushed before), at most the
// device's printf buffer a run.
class DevicePrintfFile {
public:
    explicit DevicePrintfFile(const fs::path& file) : m_file(file) {
        std::fflush(stdout);
        const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        m_saved = fd >= 0 ? dup(STDOUT_FILENO) : -1;
        if (m_saved >= 0 && dup2(fd, STDOUT_FILENO) < 0) {
            close(m_saved);
            m_saved = -1;
        }
        if (fd >= 0) close(fd);
    }
    DevicePrintfFile(const DevicePrintfFile&) = delete;
    DevicePrintfFile& operator=(const DevicePrintfFile&) = delete;
    ~DevicePrintfFile() {
        if (m_saved < 0) return;
        std::fflush(stdout);
        off_t left = lseek(STDOUT_FILENO, 0, SEEK_CUR);
        lseek(STDOUT_FILENO, 0, SEEK_SET);
        char buffer[1 << 16];
        while (left > 0) {
            const ssize_t n = read(STDOUT_FILENO, buffer, static_cast<std::size_t>(std::min<off_t>(left, sizeof buffer)));
            if (n <= 0) break;
            for (ssize_t at = 0; at < n;) {
                const ssize_t w = write(m_saved, buffer + at, static_cast<std::size_t>(n - at));
                if (w <= 0) break;
                at += w;
            }
            left -= n;
        }
        dup2(m_saved, STDOUT_FILENO);
        close(m_saved);
        std::error_code ignored;
        fs::remove(m_file, ignored);
    }

private:
    fs::path m_file;
    int m_saved = -1;
};

// A compiled program: its module and the lowered names of what it holds.
struct Program {
    cudaLibrary_t module = nullptr;
    std::map<std::string, std::string> lowered;  // name expression -> symbol
};

class GpuRuntime final : public WorkerRuntime {
public:
    GpuRuntime(const WorkerJob& job, const fs::path& folder, const fs::path& work, std::vector<float>& N,
               std::vector<float>& M, std::vector<float>& P, std::vector<HostConstant> constants, int device)
        : WorkerRuntime(job, N, M, P), m_folder(folder), m_work(work), m_constants(std::move(constants)),
          m_device(device) {}

    void launch(const KernelLaunch& l, const std::function<void()>&) override {
        if (m_launched)
            throw LaunchError{"launch() launches a second kernel: TileScope follows one launch", l.line};
        m_launched = true;
        m_kernel = l.kernel;
        m_plan.kernel = KernelId::Own;
        m_plan.entry = &m_entry.info();
        m_plan.grid = l.grid;
        m_plan.block = l.block;
        m_plan.sharedBytes = l.staticShared + l.dynamicShared;
        m_plan.radius = m_job.radius;
        m_plan.maskWidth = m_job.maskWidth;
        m_plan.width = m_job.width;
        m_plan.height = m_job.height;
        m_plan.pitch = m_job.width;
        if (l.block.count() > 1024 || l.block.count() == 0 || l.grid.count() == 0)
            throw LaunchError{"a block of " + std::to_string(l.block.count()) + " threads cannot be launched", l.line};
        if (m_plan.sharedBytes > 48 * 1024)
            throw LaunchError{std::to_string(m_plan.sharedBytes) + " bytes of shared memory a block; a block may have "
                                                                  "48 KB",
                              l.line};
        try {
            compile();
            m_output.assign(m_P.size(), 0.0f);
            std::fflush(stdout);  // what launch() printed so far, ahead of the device's printf
            const DevicePrintfFile capture(m_work / "device-printf.txt");
            if (m_job.benchRepeats > 0) {
                // Timing alone: the plain kernel, warmed up, then the median
                // (what the warm-up printed is shown, the repeats' is not).
                runPlain(l);
                const off_t printed = stdoutMark();
                std::vector<double> times;
                for (int i = 0; i < m_job.benchRepeats; ++i) {
                    runPlain(l);
                    times.push_back(m_millis);
                }
                cutStdoutBackTo(printed);
                std::sort(times.begin(), times.end());
                m_millis = times[times.size() / 2];
                return;
            }
            runInstrumented(l);
            if (m_faults.outside == 0) {
                const off_t printed = stdoutMark();
                runPlain(l);
                cutStdoutBackTo(printed);
            } else {
                m_plainSkipped = true;
            }
        } catch (const CudaFailure& f) {
            throw LaunchError{"on the GPU: " + f.message, l.line};
        }
    }

    bool launched() const override { return m_launched; }

    WorkerResult result() override {
        WorkerResult r;
        r.ok = true;
        r.kernel = m_kernel;
        r.grid = m_plan.grid;
        r.block = m_plan.block;
        r.sharedBytes = m_plan.sharedBytes;
        r.millis = m_millis;
        r.faults = m_faults;
        r.output = m_output;
        r.blocks = std::move(m_blocks);
        r.backend = "cuda";
        r.plainSkipped = m_plainSkipped;
        return r;
    }

private:
    // [SECTION] NVRTC.

    Program build(const std::string& name, const std::string& source, bool traced) {
        const fs::path includes = m_folder / "include";
        const fs::path stubs = m_work / "nvrtc-include";
        fs::create_directories(stubs);
        // The kernel's scratch folder, its own and made again for every compile: no fsync.
        base::AtomicWriteOptions scratch;
        scratch.sync = false;
        for (const char* name : {"cstdint", "cstddef"})
            if (const auto failure = base::writeFileAtomic(stubs / name, kStdStub, scratch))
                throw CudaFailure{failure->message()};
        loadNvrtcBuiltins();
        nvrtcProgram prog;
        if (nvrtcCreateProgram(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS)
            throw CudaFailure{"NVRTC could not take the program"};
        std::vector<std::string> names;
        const std::string space = traced ? "tilescope::own_user::" : "";
        names.push_back("&" + space + m_kernel);
        for (const HostConstant& c : m_constants) names.push_back("&" + space + c.name);
        if (traced) names.push_back("&tilescope::instrumented::g_trace");
        else names.push_back("&tsDropBarrier");
        for (const std::string& n : names) nvrtcAddNameExpression(prog, n.c_str());

        int major = 0, minor = 0;
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, m_device);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, m_device);
        const std::string arch = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
        const std::string inc1 = "--include-path=" + includes.string();
        const std::string inc2 = "--include-path=" + stubs.string();
        std::vector<const char*> options = {arch.c_str(), "-std=c++17", "-lineinfo", inc1.c_str(), inc2.c_str()};
        // The instrumented kernel rounds every operation as the CPU executor
        // does (no fused multiply-add), so that the two traces agree.
        if (traced) {
            options.push_back("--fmad=false");
            options.push_back("-default-device");  // the kernel language's helpers are device code here
        }
        const nvrtcResult compiled = nvrtcCompileProgram(prog, static_cast<int>(options.size()), options.data());
        std::size_t logSize = 0;
        nvrtcGetProgramLogSize(prog, &logSize);
        std::string log(logSize, '\0');
        if (logSize > 0) nvrtcGetProgramLog(prog, log.data());
        if (compiled != NVRTC_SUCCESS) {
            nvrtcDestroyProgram(&prog);
            throw CudaFailure{"NVRTC: " + inStudentsWords(firstError(log))};
        }
        Program p;
        for (const std::string& n : names) {
            const char* lowered = nullptr;
            if (nvrtcGetLoweredName(prog, n.c_str(), &lowered) == NVRTC_SUCCESS && lowered) p.lowered[n] = lowered;
        }
        std::size_t cubinSize = 0;
        nvrtcGetCUBINSize(prog, &cubinSize);
        std::vector<char> cubin(cubinSize);
        nvrtcGetCUBIN(prog, cubin.data());
        nvrtcDestroyProgram(&prog);
        check(cudaLibraryLoadData(&p.module, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
              "loading the compiled kernel");
        return p;
    }

    std::string firstError(const std::string& log) const {
        std::stringstream lines(log);
        std::string line;
        while (std::getline(lines, line))
            if (line.find("error") != std::string::npos) return line;
        return log.substr(0, log.find('\n'));
    }

    void compile() {
        if (m_compiled) return;
        const std::string plain = kPlainPrelude + base::readFileText(m_folder / "device.cu").valueOr("");
        const std::string traced = kTracedPrelude + base::readFileText(m_folder / "traced.cu").valueOr("") + "\n}\n";
        m_plainProgram = build("device.cu", plain, false);
        m_tracedProgram = build("traced.cu", traced, true);
        m_compiled = true;
    }

    cudaKernel_t function(const Program& p, bool traced) {
        const std::string key = "&" + std::string(traced ? "tilescope::own_user::" : "") + m_kernel;
        auto it = p.lowered.find(key);
        if (it == p.lowered.end()) throw CudaFailure{"the kernel " + m_kernel + " is not in the compiled program"};
        cudaKernel_t f;
        check(cudaLibraryGetKernel(&f, p.module, it->second.c_str()), "finding the kernel");
        return f;
    }

    void uploadSymbol(const Program& p, const std::string& key, const void* data, std::size_t bytes) {
        auto it = p.lowered.find(key);
        if (it == p.lowered.end()) return;
        void* at = nullptr;
        std::size_t size = 0;
        check(cudaLibraryGetGlobal(&at, &size, p.module, it->second.c_str()), "finding a __constant__ array");
        check(cudaMemcpy(at, data, std::min(size, bytes), cudaMemcpyHostToDevice), "copying into constant memory");
    }

    struct Buffer {
        void* ptr = nullptr;
        ~Buffer() {
            if (ptr) cudaFree(ptr);
        }
    };

    void allocate(Buffer& b, std::size_t bytes) { check(cudaMalloc(&b.ptr, std::max<std::size_t>(bytes, 4)), "cudaMalloc"); }
    void up(void* to, const void* from, std::size_t bytes) { check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), "cudaMemcpy"); }
    void down(void* to, const void* from, std::size_t bytes) { check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy"); }
    void zero(void* at, std::size_t bytes) { check(cudaMemset(at, 0, bytes), "cudaMemset"); }

    // The launch's arguments, marshalled: arrays as device pointers (plain)
    // or as Global<...> records (traced), numbers at their own size.
    struct Args {
        std::vector<std::array<unsigned char, 16>> storage;
        std::vector<void*> pointers;
    };
    Args marshal(const KernelLaunch& l, bool traced, void* N, void* M, void* P) {
        Args a;
        a.storage.resize(static_cast<std::size_t>(l.argCount));
        for (int i = 0; i < l.argCount; ++i) {
            const LaunchArg& arg = l.args[i];
            unsigned char* slot = a.storage[static_cast<std::size_t>(i)].data();
            if (arg.kind == LaunchArg::Array) {
                void* const p = arg.array == kArrayInput ? N : arg.array == kArrayMask ? M : P;
                const int size = static_cast<int>(arg.array == kArrayInput  ? m_N.size()
                                                  : arg.array == kArrayMask ? m_M.size()
                                                                            : m_P.size());
                if (traced) {
                    const ArrayParam param{static_cast<const float*>(p), size, arg.array};
                    std::memcpy(slot, &param, sizeof param);
                } else {
                    std::memcpy(slot, &p, sizeof p);
                }
            } else if (arg.kind == LaunchArg::Float) {
                if (arg.bytes == 8) std::memcpy(slot, &arg.real, 8);
                else {
                    const float f = static_cast<float>(arg.real);
                    std::memcpy(slot, &f, 4);
                }
            } else {
                std::memcpy(slot, &arg.integer, arg.bytes);  // little-endian: the low bytes
            }
            a.pointers.push_back(slot);
        }
        return a;
    }

    void uploadConstants(const Program& p, bool traced) {
        const std::string space = traced ? "tilescope::own_user::" : "";
        for (const HostConstant& c : m_constants) uploadSymbol(p, "&" + space + c.name, c.values, c.bytes);
    }

    void runPlain(const KernelLaunch& l) {
        Buffer N, M, P;
        allocate(N, m_N.size() * 4);
        allocate(M, m_M.size() * 4);
        allocate(P, m_P.size() * 4);
        up(N.ptr, m_N.data(), m_N.size() * 4);
        up(M.ptr, m_M.data(), m_M.size() * 4);
        zero(P.ptr, m_P.size() * 4);
        uploadConstants(m_plainProgram, false);
        BarrierDrop drop;
        drop.all = m_job.dropAll;
        drop.lines = m_job.dropLines;
        const std::array<std::uint32_t, 8> bits = drop.bits();
        uploadSymbol(m_plainProgram, "&tsDropBarrier", bits.data(), sizeof bits);
        Args args = marshal(l, false, N.ptr, M.ptr, P.ptr);
        cudaKernel_t f = function(m_plainProgram, false);
        cudaEvent_t start, stop;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        cudaEventRecord(start);
        check(cudaLaunchKernel(reinterpret_cast<const void*>(f), dim3(l.grid.x, l.grid.y, l.grid.z),
                               dim3(l.block.x, l.block.y, l.block.z), args.pointers.data(), l.dynamicShared, nullptr),
              "launching the kernel");
        cudaEventRecord(stop);
        check(cudaDeviceSynchronize(), "running the kernel");
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        m_millis = ms;
        down(m_output.data(), P.ptr, m_P.size() * 4);
    }

    void runInstrumented(const KernelLaunch& l) {
        const unsigned blocks = l.grid.count();
        const std::size_t threads = static_cast<std::size_t>(blocks) * l.block.count();
        std::vector<unsigned char> traced(blocks, m_job.trace && m_job.traceBlocks.empty() ? 1 : 0);
        for (const Dim3& b : m_job.traceBlocks) {
            const unsigned z = l.grid.z == 1 ? 0 : b.z;
            if (m_job.trace && b.x < l.grid.x && b.y < l.grid.y && z < l.grid.z)
                traced[b.x + l.grid.x * (b.y + l.grid.y * z)] = 1;
        }
        unsigned long long capacity = std::max<unsigned long long>(
            1, std::min<unsigned long long>(m_job.eventBudget, 1ULL << 22));
        std::vector<device::DeviceEvent> events;
        const off_t printed = stdoutMark();  // a second attempt prints what the first did
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (attempt > 0) cutStdoutBackTo(printed);
            Buffer N, M, P, ev, count, cursors, tracedBlocks, fault;
            allocate(N, m_N.size() * 4);
            allocate(M, m_M.size() * 4);
            allocate(P, m_P.size() * 4);
            allocate(ev, capacity * sizeof(device::DeviceEvent));
            allocate(count, 8);
            allocate(cursors, threads * sizeof(device::ThreadCursor));
            allocate(tracedBlocks, blocks);
            allocate(fault, sizeof(device::DeviceFault));
            up(N.ptr, m_N.data(), m_N.size() * 4);
            up(M.ptr, m_M.data(), m_M.size() * 4);
            up(tracedBlocks.ptr, traced.data(), blocks);
            zero(P.ptr, m_P.size() * 4);
            zero(count.ptr, 8);
            zero(cursors.ptr, threads * sizeof(device::ThreadCursor));
            zero(fault.ptr, sizeof(device::DeviceFault));
            uploadConstants(m_tracedProgram, true);
            device::DeviceTrace trace{};
            trace.events = static_cast<device::DeviceEvent*>(ev.ptr);
            trace.capacity = capacity;
            trace.count = static_cast<unsigned long long*>(count.ptr);
            trace.cursors = static_cast<device::ThreadCursor*>(cursors.ptr);
            trace.tracedBlocks = static_cast<const unsigned char*>(tracedBlocks.ptr);
            trace.fault = static_cast<device::DeviceFault*>(fault.ptr);
            trace.sharedFloats = static_cast<int>(m_plan.sharedBytes / sizeof(float));
            BarrierDrop drop;
            drop.all = m_job.dropAll;
            drop.lines = m_job.dropLines;
            const std::array<std::uint32_t, 8> bits = drop.bits();
            std::copy(bits.begin(), bits.end(), trace.dropBarrier);
            uploadSymbol(m_tracedProgram, "&tilescope::instrumented::g_trace", &trace, sizeof trace);
            Args args = marshal(l, true, N.ptr, M.ptr, P.ptr);
            cudaKernel_t f = function(m_tracedProgram, true);
            // Every shared array of the traced kernel lives in dynamic shared memory.
            check(cudaLaunchKernel(reinterpret_cast<const void*>(f), dim3(l.grid.x, l.grid.y, l.grid.z),
                                   dim3(l.block.x, l.block.y, l.block.z), args.pointers.data(), m_plan.sharedBytes,
                                   nullptr),
                  "launching the instrumented kernel");
            check(cudaDeviceSynchronize(), "running the instrumented kernel");
            device::DeviceFault hostFault{};
            down(&hostFault, fault.ptr, sizeof hostFault);
            m_faults = LaunchFaults{};
            if (hostFault.set) {
                const Dim3 block{hostFault.block % l.grid.x, (hostFault.block / l.grid.x) % l.grid.y, 1};
                m_faults.outside = hostFault.count;
                m_faults.firstOutside =
                    describeOutOfBounds(m_plan, block, hostFault.thread, static_cast<std::uint8_t>(hostFault.array),
                                        hostFault.index, hostFault.size, hostFault.line, hostFault.at);
            }
            unsigned long long wanted = 0;
            down(&wanted, count.ptr, 8);
            if (wanted > m_job.eventBudget) throw LaunchError{traceBudgetMessage(m_job.eventBudget), 0};
            if (wanted > capacity) {
                capacity = wanted;
                continue;
            }
            events.resize(wanted);
            down(events.data(), ev.ptr, wanted * sizeof(device::DeviceEvent));
            down(m_output.data(), P.ptr, m_P.size() * 4);
            break;
        }
        std::sort(events.begin(), events.end(), [](const device::DeviceEvent& x, const device::DeviceEvent& y) {
            if (x.block != y.block) return x.block < y.block;
            if (x.event.thread != y.event.thread) return x.event.thread < y.event.thread;
            return x.seq < y.seq;
        });
        if (!m_job.trace) return;
        const Dim3 g = l.grid;
        std::vector<int> slot(blocks, -1);
        for (unsigned b = 0; b < blocks; ++b) {
            if (!traced[b]) continue;
            slot[b] = static_cast<int>(m_blocks.size());
            m_blocks.push_back(BlockEvents{Dim3{b % g.x, (b / g.x) % g.y, b / (g.x * g.y)}, {}});
        }
        for (const device::DeviceEvent& e : events)
            if (e.block < blocks && slot[e.block] >= 0) m_blocks[static_cast<std::size_t>(slot[e.block])].events.push_back(e.event);
    }

    fs::path m_folder;  // the compiled kernel's: read only (the sandbox shows it so)
    fs::path m_work;    // the job's own: what NVRTC's stand-in headers and the device's printf are written into
    std::vector<HostConstant> m_constants;
    int m_device;
    bool m_compiled = false;
    Program m_plainProgram, m_tracedProgram;
    bool m_launched = false;
    bool m_plainSkipped = false;
    std::string m_kernel;
    LaunchPlan m_plan;
    LaunchFaults m_faults;
    double m_millis = 0.0;
    std::vector<float> m_output;
    TracedBlocks m_blocks;
};

}  // namespace

Result<std::unique_ptr<WorkerRuntime>> makeGpuRuntime(const WorkerJob& job, const fs::path& folder,
                                                      const fs::path& work, std::vector<float>& N, std::vector<float>& M,
                                                      std::vector<float>& P, std::vector<HostConstant> constants) {
    int count = 0;
    if (cudaError_t r = cudaGetDeviceCount(&count); r != cudaSuccess || count == 0)
        return Error{ExitCode::BackendUnavailable, r != cudaSuccess ? cuError(r) : "no CUDA device"};
    if (cudaError_t r = cudaSetDevice(0); r != cudaSuccess) return Error{ExitCode::BackendUnavailable, cuError(r)};
    return std::unique_ptr<WorkerRuntime>(std::make_unique<GpuRuntime>(job, folder, work, N, M, P, std::move(constants), 0));
}

}  // namespace tilescope::own

#else

namespace tilescope::own {

Result<std::unique_ptr<WorkerRuntime>> makeGpuRuntime(const WorkerJob&, const std::filesystem::path&,
                                                      const std::filesystem::path&, std::vector<float>&, std::vector<float>&, std::vector<float>&,
                                                      std::vector<HostConstant>) {
    return Error{ExitCode::BackendUnavailable, "this build of TileScope has no CUDA: a kernel file runs on the CPU"};
}

}  // namespace tilescope::own

#endif
