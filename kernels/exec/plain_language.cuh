// The kernel language of the plain CUDA build: every name a kernel uses is
// the raw CUDA thing, so the kernels compile to exactly what the book's
// listings would (with their errata corrected). Compare traced_types.hpp,
// where the same names record what each thread does.
#pragma once

#define TS_KERNEL __global__

namespace tilescope::plain {

// Global<const float> N  is  const float* N;  Global<float> P  is  float* P.
template <class T>
using Global = T*;
// The book's `const float * __restrict__ M`: read-only and not aliased, so the
// compiler may load it through the read-only data cache.
template <class T>
using Restrict = const T* __restrict__;
// A constant-memory array declared as ConstantArray<float[15][15]> is float[15][15].
template <class T>
using ConstantArray = T;
using Accumulator = float;

// All shared arrays of a kernel live in the launch's dynamic shared memory,
// whose size the launcher computes from the tile size.
extern __shared__ float dynamicShared[];

template <class T>
class SharedArray {
public:
    __device__ explicit SharedArray(int) : m_data(dynamicShared) {}
    __device__ T& operator[](int i) const { return m_data[i]; }

private:
    T* m_data;
};

template <class T>
class SharedArray2D {
public:
    __device__ SharedArray2D(int, int cols) : m_data(dynamicShared), m_cols(cols) {}
    __device__ T* operator[](int row) const { return m_data + row * m_cols; }

private:
    T* m_data;
    int m_cols;
};

}  // namespace tilescope::plain
