// The kernel language of the two traced executions: the names a kernel uses,
// bound to the recording wrappers of traced_types.hpp and the mode's
// Recorder. Included inside cuda_instrumented.cu's and cpu_kernels.cpp's
// namespaces after each defines `Recorder`; the plain CUDA build uses
// plain_language.cuh instead.
//
// (No include guard and no includes: this file is textually part of a mode.)

template <class T>
using Global = typename traced::GlobalOf<T, Recorder>::type;
template <class T>
using Restrict = traced::InputArray<Recorder>;
template <class T>
using ConstantArray = traced::ConstantArray<T, Recorder>;
template <class T>
using SharedArray = traced::SharedArray<Recorder, T>;
template <class T>
using SharedArray2D = traced::SharedArray2D<Recorder, T>;
template <class T>
using SharedArray3D = traced::SharedArray3D<Recorder, T>;
using Accumulator = traced::Accumulator<Recorder>;
using traced::Float4;  // load4 and store4 are found through their array argument
// copyAsync and copyAsync4 likewise; these two take no array.
using traced::commitCopies;
using traced::waitCopies;

// How launch_table.inl hands arrays to a kernel: wrapped with their ids and sizes.
inline Global<const float> globalIn(const float* p, int size, ArrayId id) {
    return {p, size, static_cast<std::uint8_t>(id)};
}
inline Global<float> globalOut(float* p, int size) { return {p, size, kArrayOutput}; }
// The input made writable, keeping its id, for a listing that stores into N
// (launch_table.inl says why the cast is safe).
inline Global<float> globalInOut(const float* p, int size, ArrayId id) {
    return {const_cast<float*>(p), size, static_cast<std::uint8_t>(id)};
}
inline Restrict<float> restrictIn(const float* p, int size) { return {p, size, kArrayMask}; }
