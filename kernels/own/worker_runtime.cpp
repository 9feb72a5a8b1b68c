#include "own/worker_runtime.hpp"

#include <cstring>

#include "trace/event.hpp"

namespace tilescope::own {

namespace {

OwnEntryDescription describe(const WorkerJob& job) {
    OwnEntryDescription d;
    d.name = job.kernel;
    d.path = job.path;
    d.dims = job.dims;
    d.arrayNames = job.arrayNames;
    d.sharedParts = job.sharedParts;
    d.maskSpace = job.constantMask ? Space::Constant : Space::Global;
    return d;
}

}  // namespace

WorkerRuntime::WorkerRuntime(const WorkerJob& job, std::vector<float>& N, std::vector<float>& M,
                             std::vector<float>& P)
    : m_job(job), m_entry(describe(job)), m_N(N), m_M(M), m_P(P) {}

ArraySlot WorkerRuntime::find(const void* p) {
    if (p == m_N.data()) return ArraySlot{kArrayInput, m_N.data(), static_cast<int>(m_N.size())};
    if (p == m_M.data()) return ArraySlot{kArrayMask, m_M.data(), static_cast<int>(m_M.size())};
    if (p == m_P.data()) return ArraySlot{kArrayOutput, m_P.data(), static_cast<int>(m_P.size())};
    return ArraySlot{};
}

void WorkerRuntime::copyToSymbol(const char*, void* symbol, std::size_t capacity, const void* source,
                             std::size_t bytes, std::size_t offset, unsigned line) {
    const ArraySlot from = find(source);
    const std::string constant = m_job.arrayNames[kArrayMask];
    if (from.id == 0xff)
        throw LaunchError{"cudaMemcpyToSymbol copies from a pointer that is none of N, M and P (pass M as "
                          "launch() received it)", line};
    const std::size_t available = static_cast<std::size_t>(from.size) * sizeof(float);
    if (bytes > available)
        throw LaunchError{"cudaMemcpyToSymbol copies " + std::to_string(bytes) + " bytes from an array of " +
                              std::to_string(available) + " bytes (the mask is " + std::to_string(m_job.maskWidth) +
                              (m_job.dims == 2 ? " x " + std::to_string(m_job.maskWidth) : "") +
                              " floats: copy (2*r+1)" + (m_job.dims == 2 ? "*(2*r+1)" : "") +
                              "*sizeof(float) bytes)",
                          line};
    if (offset + bytes > capacity)
        throw LaunchError{"cudaMemcpyToSymbol copies " + std::to_string(bytes) + " bytes into " + constant +
                              ", which holds " + std::to_string(capacity) + " bytes" +
                              (offset ? " past the offset " + std::to_string(offset) : "") +
                              ": size it for the largest mask (15" + (m_job.dims == 2 ? " x 15" : "") + ")",
                          line};
    std::memcpy(static_cast<char*>(symbol) + offset, from.data, bytes);
}

}  // namespace tilescope::own
