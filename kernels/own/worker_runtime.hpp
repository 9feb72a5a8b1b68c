// The runtimes the worker gives a student's launch(): the CPU executor
// (worker_main.cpp) or the GPU through NVRTC (own_gpu.cpp).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "own/own_entry.hpp"
#include "own/own_runtime.hpp"
#include "own/worker_protocol.hpp"

namespace tilescope::own {

// What both runtimes share: launch()'s three arrays, found by their
// pointers, and the mask copied into a __constant__ array of the shared
// object (the GPU runtime uploads it from there at each launch). The
// kernel's catalogue entry, which the launch's plan points at, is built from
// the job (the executor names the kernel's arrays from it).
class WorkerRuntime : public Runtime {
public:
    WorkerRuntime(const WorkerJob& job, std::vector<float>& N, std::vector<float>& M, std::vector<float>& P);
    ArraySlot find(const void* pointer) override;
    void copyToSymbol(const char* name, void* symbol, std::size_t capacity, const void* source, std::size_t bytes,
                      std::size_t offset, unsigned line) override;
    virtual bool launched() const = 0;
    virtual WorkerResult result() = 0;

protected:
    const WorkerJob& m_job;
    OwnEntry m_entry;
    std::vector<float>& m_N;
    std::vector<float>& m_M;
    std::vector<float>& m_P;
};

// A __constant__ array of the compiled file, as the shared object exports it.
struct HostConstant {
    std::string name;
    const void* values = nullptr;
    std::size_t bytes = 0;
};

// The GPU runtime: the file's kernels compiled with NVRTC (device.cu as
// written, traced.cu in the kernel language with the device recorder), run
// plain and instrumented. An error when there is no GPU or no CUDA in this
// build.
// `folder` is the compiled kernel's (read), `work` the job's (written).
Result<std::unique_ptr<WorkerRuntime>> makeGpuRuntime(const WorkerJob& job, const std::filesystem::path& folder,
                                                      const std::filesystem::path& work, std::vector<float>& N, std::vector<float>& M,
                                                      std::vector<float>& P, std::vector<HostConstant> constants);

}  // namespace tilescope::own
