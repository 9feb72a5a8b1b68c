#include "trace/fault.hpp"

#include "core/kernel_catalogue.hpp"

namespace tilescope {

namespace {
std::string coords(Dim3 d, bool twoD) {
    std::string s = "(" + std::to_string(d.x);
    if (twoD) s += "," + std::to_string(d.y);
    return s + ")";
}
}  // namespace

std::string describeThread(const LaunchPlan& plan, Dim3 block, unsigned thread) {
    const bool twoD = kernelOf(plan).dims == 2;
    // A side of 0 (a block no launch makes) divides as 1: words, never a fault.
    const unsigned x = plan.block.x > 0 ? plan.block.x : 1, y = plan.block.y > 0 ? plan.block.y : 1;
    Dim3 t{thread % x, (thread / x) % y, 1};
    return "thread " + coords(t, twoD) + " of block " + coords(block, twoD);
}

std::string subscriptedName(const std::string& name, const Subscript2D& at) {
    return name + "[" + std::to_string(at.row) + "][" + std::to_string(at.col) + "]";
}

std::string subscriptPastItsExtent(const Subscript2D& at) {
    auto past = [](int i, int n, const char* what) {
        return std::to_string(i) + " of " + std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    const bool row = at.rows > 0 && (at.row < 0 || at.row >= at.rows);
    const bool col = at.cols > 0 && (at.col < 0 || at.col >= at.cols);
    if (row && col) return "row " + past(at.row, at.rows, "row") + ", column " + past(at.col, at.cols, "column");
    if (row) return "row " + past(at.row, at.rows, "row");
    if (col) return "column " + past(at.col, at.cols, "column");
    return "a subscript past its extent";
}

std::string describeOutOfBounds(const LaunchPlan& plan, Dim3 block, unsigned thread, std::uint8_t array, int index,
                                int size, unsigned line, const Subscript2D& at) {
    const KernelInfo& k = kernelOf(plan);
    std::string name = array < kArrayCount ? std::string(k.arrayNames[array]) : "an array";
    // One of several arrays in shared memory: by its own name.
    if (array == kArrayShared && at.part >= 0 && static_cast<std::size_t>(at.part) < k.sharedParts.size())
        name = std::string(k.sharedParts[static_cast<std::size_t>(at.part)]);
    const std::string where = describeThread(plan, block, thread) + ", line " + std::to_string(line) + ": ";
    if (at.rows > 0) return where + subscriptedName(name, at) + ": " + subscriptPastItsExtent(at);
    return where + name + "[" + std::to_string(index) + "] is outside the array (" + std::to_string(size) +
           " elements)";
}

std::string traceBudgetMessage(std::size_t budget) {
    return "the trace would exceed its budget of " + std::to_string(budget) +
           " events; trace fewer blocks (--trace-blocks) or a smaller input";
}

}  // namespace tilescope

namespace tilescope {

std::string LaunchFaults::summary() const {
    std::string s;
    if (outside > 0)
        s += std::to_string(outside) + (outside == 1 ? " access" : " accesses") +
             " outside an array, not made (" + (outside == 1 ? "" : "first: ") + firstOutside + ")";
    if (barrierMismatches > 0) {
        if (!s.empty()) s += "; ";
        s += std::to_string(barrierMismatches) + (barrierMismatches == 1 ? " block" : " blocks") +
             " whose threads did not all reach the same __syncthreads() (" +
             (barrierMismatches == 1 ? "" : "first: ") + firstBarrier + ")";
    }
    return s;
}

}  // namespace tilescope
