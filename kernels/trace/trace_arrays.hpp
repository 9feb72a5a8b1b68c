// What a trace tells of the arrays of its launch: every load event carries
// the value it read and every store the value it wrote, so the input cells,
// the mask taps and the outputs the traced threads touched can be read back
// from the events alone. A trace recorded on one machine (a GPU's) is then
// enough to step through on another: the app's step-through views draw N, P
// and the mask from here when they show a trace file.
#pragma once

#include <cstdint>
#include <vector>

#include "core/image.hpp"
#include "trace/trace.hpp"

namespace tilescope {

struct TracedArrays {
    // N as the kernel saw it: one plane for a single-channel kernel (the
    // trace of a multi-channel input holds channel 0), interleaved channels
    // for the pitched kernel. Cells no traced thread read hold 0.
    Image input;
    std::vector<std::uint8_t> inputRead;  // 1 where a traced load gave the cell's value
    // P: what the traced threads stored; 0 elsewhere.
    Image output;
    std::vector<std::uint8_t> outputWritten;
    // The mask taps the traced threads read (a whole trace reads every tap);
    // taps never read hold 0.
    Mask mask;
    bool maskComplete = false;

    std::size_t inputCellsRead() const;
    std::size_t outputCellsWritten() const;
};

TracedArrays arraysOfTrace(const Trace& trace);

}  // namespace tilescope
