// Saving and loading traces: JSON for small traces (readable, for scripts and
// teachers), a compact binary form for large ones (about 6 bytes an event
// instead of 16), and the checks a trace read from a file must pass before
// the model uses it. Both formats are lossless: reading gives back the very
// events that were written.
//
// JSON format (version 2; version 1 is read too, trace_io.cpp says how):
//   {"format": "tilescope-trace", "version": 2,
//    "kernel": "conv2d_tiled_in", "backend": "cpu",
//    "what_if": false, "what_if_reason": "",
//    "plan": {"grid": [gx, gy, gz], "block_dim": [bx, by, bz], "shared_bytes": n, "radius": r,
//             "mask_width": w, "in_tile": n, "out_tile": n, "width": w, "height": h,
//             "channels": c, "pitch": p},
//    "arrays": [{"id": 0, "name": "N", "space": "global", "width": w, "height": h,
//                "channels": c, "pitch": p, "size": n}, ... one per array id 0..3],
//    "hardware": [{"block": [x, y, z], "sm": n, "start_ns": t, "end_ns": t, "warp_ids": [..]}, ...]
//                (instrumented GPU runs: Trace::hardware; empty for the CPU executor; optional on reading),
//    "event_fields": ["thread", "seq", "phase", "op", "array", "index", "value", "line"],
//    "blocks": [{"block": [x, y, z], "events": [[thread, seq, phase, op, array, index, value, line], ...]}]}
//   op is "load", "store", "multiply_add" or "barrier"; array is the array id
//   (0 N, 1 mask, 2 P, 3 shared) or null; seq is the event's position in its
//   thread's program order; value is a number (the shortest decimal that reads
//   back as the same float) or "nan", "inf", "-inf". Events of a block are
//   grouped by ascending thread, each thread's in program order.
//
// Binary format (version 2), all integers little-endian:
//   bytes 0-7   magic "TSTRACE" followed by a 0 byte
//   bytes 8-11  u32 version (2)
//   bytes 12-15 u32 H, the length of the header
//   H bytes     the header: the JSON above without "event_fields", and with
//               "blocks": [{"block": [x, y, z], "events": n}, ...]
//   then, for each block of the header, in order:
//     T varints: the number of events of each thread 0 .. T-1 (T = threads per block)
//     the events of thread 0, then thread 1, ..., each as:
//       tag    1 byte: bits 0-1 op (0 load, 1 store, 2 multiply-add, 3 barrier)
//                      bits 2-3 array id (loads and stores; multiply-adds and barriers have none)
//                      bit 4    a line follows (else: the line of the thread's previous event)
//                      bit 5    the value is +0.0 and is left out
//                      bit 6    a phase follows (else: the number of barriers the thread passed)
//                      bit 7    raw: the 16 bytes of the Event follow, nothing else
//                               (index i32, value f32, thread u16, line u16, phase u16, op u8, array u8)
//       index  loads and stores: zigzag varint of (index - the previous index of
//              the same array in this thread, starting from 0)
//       line   varint, when bit 4 is set
//       phase  varint, when bit 6 is set
//       value  4 bytes (IEEE 754 float), unless bit 5 is set or the event is a barrier
//   Varints are LEB128: 7 bits a byte, low bits first, high bit set on all but the last byte.
//   Zigzag maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "trace/trace.hpp"

namespace tilescope {

enum class TraceFormat { Auto, Json, Binary };

// Traces up to this many events are written as JSON when the format is Auto
// and the file name does not say.
constexpr std::size_t kJsonEventLimit = 100'000;

// Auto: ".json" -> Json, ".tstrace" -> Binary, otherwise by size.
TraceFormat chooseFormat(const std::string& path, std::size_t events, TraceFormat requested);
const char* formatName(TraceFormat format);  // "json", "binary", "auto"
// An array's space as the trace files and the reports write it: "global", "shared", "constant", "register".
const char* spaceName(Space space);

// Reading needs the kernel's catalogue entry: a kernel of the catalogue is
// found by its name; a student's own kernel file (`tilescope serve`'s
// traces, a trace of --kernel-file) is no kernel of the catalogue, and the
// caller gives its entry (own::OwnKernel::info, the file compiled).
std::string traceToJson(const Trace& trace);
Result<Trace> traceFromJson(std::string_view text, const KernelInfo* entry = nullptr);

std::string encodeBinary(const Trace& trace);
Result<Trace> decodeBinary(std::string_view bytes, const KernelInfo* entry = nullptr);

// Writes in the chosen format; returns that format's name on success.
Result<std::string> writeTrace(const Trace& trace, const std::string& path, TraceFormat format);
// Reads either format (told apart by the magic bytes) and validates it.
Result<Trace> readTrace(const std::string& path);

// The invariants the model relies on: a known kernel, blocks inside the grid
// in ascending linear order, events grouped by ascending thread, valid ops and
// arrays, indices inside their arrays, phases that never go backwards.
Status validateTrace(const Trace& trace);

}  // namespace tilescope
