// The unit of a trace: one thing one CUDA thread did.
//
// An event is 16 bytes and holds no pointers or strings: the launch it belongs
// to (kernel, arrays, geometry) is stored once in the Trace, the block it
// belongs to is given by the block's range in the event list, and its place in
// the thread's program order is its position among that thread's events. This
// header is shared by host and device code (the instrumented CUDA build writes
// the same fields from the GPU).
#pragma once

#include <cstdint>

#include "core/array_id.hpp"
#include "core/op.hpp"
#include "core/space.hpp"

namespace tilescope {

// Functions the traced arrays call on the GPU too (nvcc and NVRTC define __CUDACC__).
#if defined(__CUDACC__)
#define TS_EVENT_FN __host__ __device__
#else
#define TS_EVENT_FN
#endif

// An access through a two-dimensional array, `S[row][col]`, as written: its
// two subscripts, and the array's rows and columns (rows 0: an access of a
// one-dimensional array). In shared memory, which the trace keeps as one
// array (kArrayShared) however many a kernel declares, `part` says which of
// them: its place among them by offset (0 where there is one; the index of
// its SharedPart in the Trace); -1 elsewhere.
struct Subscript2D {
    std::int32_t row = 0, col = 0;
    std::int32_t rows = 0, cols = 0;
    std::int32_t part = -1;
};

// An access outside a two-dimensional array (a shared `N_s[ty][tx]`, a
// constant `F_c[i][j]`) is recorded with its two subscripts as written, not
// with the flattened index, which may well land inside the array (`S[1][4]`
// of a 4 x 4 array flattens to 8, which is S[2][0]), and with the array it
// went through (the part above, 0 where there is only one): its index is
// kSubscripted + (part * kSubscriptSpan + row + kSubscriptBias) * kSubscriptSpan + (col + kSubscriptBias),
// between -2^31 and -2^30, where no access outside a one-dimensional array
// goes. Subscripts outside [-kSubscriptBias, kSubscriptBias), or a part
// past kSubscriptParts, keep the flattened index (and are named by it).
constexpr std::int32_t kSubscripted = -2147483647 - 1;
constexpr std::int32_t kSubscriptBias = 1 << 12;
constexpr std::int32_t kSubscriptSpan = 2 * kSubscriptBias;
constexpr std::int32_t kSubscriptParts = 16;  // kSubscriptParts * kSubscriptSpan^2 == 2^30
TS_EVENT_FN constexpr bool subscriptsFit(int row, int col, int part = 0) {
    return row >= -kSubscriptBias && row < kSubscriptBias && col >= -kSubscriptBias && col < kSubscriptBias &&
           part >= 0 && part < kSubscriptParts;
}
TS_EVENT_FN constexpr std::int32_t subscriptIndex(int row, int col, int part = 0) {
    return kSubscripted + ((part * kSubscriptSpan) + row + kSubscriptBias) * kSubscriptSpan + (col + kSubscriptBias);
}
inline bool isSubscriptIndex(std::int32_t index) {
    return index < kSubscripted + kSubscriptParts * kSubscriptSpan * kSubscriptSpan;
}
inline int subscriptRow(std::int32_t index) {
    return (index - kSubscripted) / kSubscriptSpan % kSubscriptSpan - kSubscriptBias;
}
inline int subscriptCol(std::int32_t index) { return (index - kSubscripted) % kSubscriptSpan - kSubscriptBias; }
inline int subscriptPart(std::int32_t index) { return (index - kSubscripted) / (kSubscriptSpan * kSubscriptSpan); }

struct Event {
    std::int32_t index;   // element index in its array (linear, pitch included); -1 when none
    float value;          // the value loaded or stored; the running sum after a multiply-add
    std::uint16_t thread; // linear thread index within the block: x + y*blockDim.x
    std::uint16_t line;   // the kernel source line that did it
    std::uint16_t phase;  // number of barriers this thread had passed before the event
    Op op;
    std::uint8_t array;   // an ArrayId
};
static_assert(sizeof(Event) == 16, "events are meant to stay compact");

inline bool operator==(const Event& a, const Event& b) {
    // Values compare bit for bit through float equality; NaN never appears in a
    // trace of a correct kernel on validated input.
    return a.index == b.index && a.value == b.value && a.thread == b.thread && a.line == b.line &&
           a.phase == b.phase && a.op == b.op && a.array == b.array;
}

}  // namespace tilescope
