// The catalogue of chapter-7 kernels: names, book figures, what each one
// teaches, and the names its arrays have in its source. The command line,
// the app and the tests find kernels here, once, and pass the entry on.
#pragma once

#include <span>
#include <string_view>

#include "core/kernel_info.hpp"
#include "core/launch_plan.hpp"

namespace tilescope {

// Every built-in kernel: the corrected ones first, then the listings as
// printed (KernelInfo::asPrinted). Whatever compares kernels with the
// reference skips the listings as printed. A student's kernel is never
// listed: its entry is its OwnKernel's (own/own_kernel.hpp), named by its
// file (--kernel-file).
std::span<const KernelInfo> allKernels();
const KernelInfo* findKernel(std::string_view name);
// A built-in kernel's entry (KernelId::Own: a placeholder that describes no
// kernel; a student's entry is its OwnKernel's).
const KernelInfo& kernelInfo(KernelId id);
// The entry of the kernel a plan launches: the one planLaunch was given (a
// plan made by hand names a built-in kernel by its id).
const KernelInfo& kernelOf(const LaunchPlan& plan);
// The corrected kernel of a listing as printed (conv1d_basic for
// conv1d_basic_as_printed); a corrected kernel is its own. A listing as
// printed is planned as its corrected kernel is.
const KernelInfo& correctedKernel(const KernelInfo& kernel);

}  // namespace tilescope
