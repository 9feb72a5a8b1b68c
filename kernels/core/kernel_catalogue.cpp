#include "core/kernel_catalogue.hpp"

#include <cstddef>
#include <iterator>

#include "core/kernel_table.hpp"

namespace tilescope {

namespace {

constexpr bool inIdOrder() {
    for (std::size_t i = 0; i < std::size(kKernelTable); ++i)
        if (static_cast<std::size_t>(kKernelTable[i].id) != i) return false;
    return true;
}
static_assert(inIdOrder(), "kernelInfo() indexes kKernelTable by KernelId: keep the two in the same order");
static_assert(std::size(kKernelTable) == static_cast<std::size_t>(KernelId::Own),
              "every built-in kernel has its entry");

constexpr KernelInfo kNoOwnKernel{KernelId::Own, "own", 2, "your kernel", "a kernel read from a file", "own:",
                                  Space::Global, TileShape::None, false, false, {"N", "M", "P", "N_s"}};

}  // namespace

std::span<const KernelInfo> allKernels() { return kKernelTable; }

const KernelInfo* findKernel(std::string_view name) {
    for (const KernelInfo& k : kKernelTable)
        if (k.name == name) return &k;
    return nullptr;
}

const KernelInfo& kernelInfo(KernelId id) {
    if (id == KernelId::Own) return kNoOwnKernel;
    return kKernelTable[static_cast<int>(id)];
}

const KernelInfo& kernelOf(const LaunchPlan& plan) { return plan.entry ? *plan.entry : kernelInfo(plan.kernel); }

const KernelInfo& correctedKernel(const KernelInfo& kernel) {
    switch (kernel.id) {
    case KernelId::Conv1dBasicAsPrinted: return kernelInfo(KernelId::Conv1dBasic);
    case KernelId::Conv1dConstAsPrinted: return kernelInfo(KernelId::Conv1dConst);
    case KernelId::Conv1dTiledAsPrinted: return kernelInfo(KernelId::Conv1dTiled);
    case KernelId::Conv1dTiledCachedAsPrinted: return kernelInfo(KernelId::Conv1dTiledCached);
    case KernelId::Conv2dBasicAsPrinted: return kernelInfo(KernelId::Conv2dBasic);
    case KernelId::Conv2dConstAsPrinted: return kernelInfo(KernelId::Conv2dConst);
    case KernelId::Conv2dTiledCachedAsPrinted: return kernelInfo(KernelId::Conv2dTiledCached);
    case KernelId::Conv2dTiledPitchedAsPrinted: return kernelInfo(KernelId::Conv2dTiledPitched);
    case KernelId::Conv2dBasicSlidesAsPrinted: return kernelInfo(KernelId::Conv2dBasic);
    default: return kernel;
    }
}

}  // namespace tilescope
