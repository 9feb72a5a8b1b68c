// A run of a student's kernel on a `tilescope serve` (its /api/run), as the
// page receives it: everything RunResult holds but the problems, which the
// page finds in the trace itself, with the same detector, against its own
// double-precision reference.
//
// Format (version 1), integers little-endian:
//   bytes 0-7   magic "TSRUN" followed by three 0 bytes
//   bytes 8-11  u32 version (1)
//   bytes 12-15 u32 J, the length of the JSON that follows
//   J bytes     {"status": "clean" | "problems", "backend": "cpu" | "cuda",
//                "backend_reason": "...", "gpu_failure": "", "kernel_ms": t,
//                "plain_skipped": "", "printout": ["...", ...],
//                "faults": {"outside": n, "first_outside": "...",
//                           "barrier_mismatches": n, "first_barrier": "..."},
//                "output": {"width": w, "height": h, "channels": c, "rank": r}}
//   8 bytes     u64 T, the length of the trace
//   T bytes     the trace, in the binary format of trace/trace_io.hpp
//   then        the output: w * h * c float32 values, as Image holds them
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_info.hpp"
#include "core/result.hpp"
#include "exec/run_request.hpp"

namespace tilescope::own {

struct ServedRun {
    std::string status;  // "clean" or "problems", as the server's detector found
    RunResult result;    // without problems
    std::vector<std::string> printout;
};

// The run must hold a trace (the server's runs are checked, so traced).
std::string encodeServedRun(const RunResult& result, const std::string& status,
                            const std::vector<std::string>& printout);
// `entry` is the kernel's (the page's OwnKernel::info, from its compile):
// the trace and the plan point at it.
Result<ServedRun> decodeServedRun(std::string_view bytes, const KernelInfo* entry);

}  // namespace tilescope::own
