// A student's kernel's catalogue entry (KernelId::Own) with the strings it
// points into. Its OwnKernel holds one in the caller, and the worker builds
// its own for the run; plans and traces of the kernel point at it, so two
// student kernels can exist at once and nothing is registered anywhere.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_info.hpp"

namespace tilescope::own {

struct OwnEntryDescription {
    std::string name;  // the __global__ function's name
    std::string path;  // the file, as the user named it
    std::string text;  // its exact bytes (the Source panel shows them)
    int dims = 2;
    Space maskSpace = Space::Global;
    bool usesShared = false;
    std::array<std::string, kArrayCount> arrayNames;
    std::vector<std::string> sharedParts;  // KernelInfo::sharedParts
};

class OwnEntry {
public:
    explicit OwnEntry(OwnEntryDescription description);
    // The entry points into this object's strings: it stays where it is.
    OwnEntry(const OwnEntry&) = delete;
    OwnEntry& operator=(const OwnEntry&) = delete;

    const KernelInfo& info() const { return m_info; }

private:
    OwnEntryDescription m_description;
    std::string m_sourceFile;  // "own:" and the path
    std::vector<std::string_view> m_sharedParts;
    KernelInfo m_info;
};

}  // namespace tilescope::own
