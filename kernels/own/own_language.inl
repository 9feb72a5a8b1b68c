// What the translation of a student's file (translate.cpp) calls, beside the
// kernel language, in both traced executions: the CPU executor's prelude
// (own_cpu_prelude.hpp) and the instrumented GPU program (own_gpu.cpp)
// include it inside namespace tilescope::own_user, after `Recorder`.
//
// (No include guard and no includes: this file is textually part of a prelude.)

// Where a kernel's __shared__ array starts in the block's shared memory, and
// which of the kernel's __shared__ arrays it is (its part: its place among
// them by offset).
TS_FN traced::SharedSlice tsSharedAt(int offset, int count, int part, unsigned line = __builtin_LINE()) {
    return traced::SharedSlice{Recorder::sharedMemory(offset + count, line) + offset, offset, part};
}

// `sum += x` on a local float: one multiply-add, recorded on the line of the
// `+=`. A float term is added unfused, as the GPU's instrumented build adds
// it; any other number as C++ adds it to a float (`sum += 0.1` in double,
// rounded to float once).
TS_FN float& tsAddTo(float& sum, float term, unsigned line) {
    sum = Recorder::add(sum, term);
    Recorder::record(Op::MultiplyAdd, kArrayNone, -1, sum, line);
    return sum;
}
// `fmaf(a, b, c)` (or `__fmaf_rn`) in a kernel: one multiply-add, fused as
// CUDA's (rounded once), recorded on its line with its result.
TS_FN float tsFmaf(float a, float b, float c, unsigned line) {
    const float result = ::fmaf(a, b, c);
    Recorder::record(Op::MultiplyAdd, kArrayNone, -1, result, line);
    return result;
}
template <class T, traced::IfNumber<T> = 0>
TS_FN float& tsAddTo(float& sum, T term, unsigned line) {
    sum = static_cast<float>(sum + term);
    Recorder::record(Op::MultiplyAdd, kArrayNone, -1, sum, line);
    return sum;
}
