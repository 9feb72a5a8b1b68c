#include "trace/trace_arrays.hpp"

#include <algorithm>

namespace tilescope {

namespace {

Image emptyLike(const Trace& trace, const ArrayInfo& a) {
    if (trace.dims() == 1)
        return Image::signal(std::vector<float>(static_cast<std::size_t>(std::max(a.width, 0)), 0.0f));
    return Image::planar(std::max(a.width, 0), std::max(a.height, 1), std::max(a.channels, 1));
}

// The element of `image` that array index `index` names, or -1 when it lies
// in the padding of a pitched row or outside the array.
long long cellOf(const ArrayInfo& a, const Image& image, int index) {
    if (index < 0 || index >= a.size)
        return -1;
    const ArrayInfo::Coords c = a.coords(index);
    if (c.x >= image.width || c.y >= image.height || c.channel >= image.channels)
        return -1;
    return (static_cast<long long>(c.y) * image.width + c.x) * image.channels + c.channel;
}

}  // namespace

std::size_t TracedArrays::inputCellsRead() const {
    return static_cast<std::size_t>(std::count(inputRead.begin(), inputRead.end(), 1));
}

std::size_t TracedArrays::outputCellsWritten() const {
    return static_cast<std::size_t>(std::count(outputWritten.begin(), outputWritten.end(), 1));
}

TracedArrays arraysOfTrace(const Trace& trace) {
    TracedArrays t;
    const ArrayInfo& n = trace.arrays[kArrayInput];
    const ArrayInfo& p = trace.arrays[kArrayOutput];
    const ArrayInfo& m = trace.arrays[kArrayMask];
    t.input = emptyLike(trace, n);
    t.output = emptyLike(trace, p);
    t.inputRead.assign(t.input.data.size(), 0);
    t.outputWritten.assign(t.output.data.size(), 0);

    // The mask as the book writes it: 2r+1 taps (1D) or (2r+1)^2 (2D), read
    // from F_c[15][15] or M[15] (pitch 15) or from F (pitch 2r+1).
    const int width = std::max(m.width, 0), height = trace.dims() == 1 ? 1 : std::max(m.height, 0);
    t.mask.width = width;
    t.mask.height = height;
    t.mask.values.assign(static_cast<std::size_t>(width) * height, 0.0f);
    std::vector<std::uint8_t> tapRead(t.mask.values.size(), 0);
    const int maskPitch = m.pitch > 0 ? m.pitch : width;

    for (const BlockEvents& block : trace.blocks)
        for (const Event& e : block.events) {
            if (e.op == Op::Load && e.array == kArrayInput) {
                if (const long long cell = cellOf(n, t.input, e.index); cell >= 0) {
                    t.input.data[static_cast<std::size_t>(cell)] = e.value;
                    t.inputRead[static_cast<std::size_t>(cell)] = 1;
                }
            } else if (e.op == Op::Store && e.array == kArrayOutput) {
                if (const long long cell = cellOf(p, t.output, e.index); cell >= 0) {
                    t.output.data[static_cast<std::size_t>(cell)] = e.value;
                    t.outputWritten[static_cast<std::size_t>(cell)] = 1;
                }
            } else if (e.op == Op::Load && e.array == kArrayMask && e.index >= 0 && maskPitch > 0) {
                const int row = e.index / maskPitch, col = e.index % maskPitch;
                if (row < height && col < width) {
                    const std::size_t tap = static_cast<std::size_t>(row) * width + col;
                    t.mask.values[tap] = e.value;
                    tapRead[tap] = 1;
                }
            }
        }
    t.maskComplete = !tapRead.empty() && std::all_of(tapRead.begin(), tapRead.end(), [](std::uint8_t r) { return r; });
    return t;
}

}  // namespace tilescope
