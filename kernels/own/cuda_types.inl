// CUDA's fixed-width integers and its vector types with their make_
// functions, as a student's file sees them without an include: one
// definition for the parser (translate.cpp's prelude, where TS_CUDA_FN is
// __host__ __device__ inline) and the CPU executor (own_cpu_prelude.hpp,
// inline). NVRTC has the vector types built in and takes the integers alone
// (own_gpu.cpp defines TS_CUDA_VECTOR_TYPES_BUILT_IN).
//
// The vector types are aggregates with CUDA's sizes and alignments
// (vector_types.h): no operators, a member each of x, y, z and w. uint3 and
// dim3 are the preludes' own, for their conversions from the built-in
// variables; make_uint3 is here.
//
// (No include guard and no includes: this file is textually part of a prelude.)

typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;

#if !defined(TS_CUDA_VECTOR_TYPES_BUILT_IN)

// NAME1..NAME4 of element type T; A2 and A4: the alignments of NAME2 and
// NAME4 (NAME1 and NAME3 take T's own).
#define TS_VECTOR_FAMILY(T, NAME, A2, A4)                                                                     \
    struct NAME##1 {                                                                                          \
        T x;                                                                                                  \
    };                                                                                                        \
    struct alignas(A2) NAME##2 {                                                                              \
        T x, y;                                                                                               \
    };                                                                                                        \
    struct NAME##3 {                                                                                          \
        T x, y, z;                                                                                            \
    };                                                                                                        \
    struct alignas(A4) NAME##4 {                                                                              \
        T x, y, z, w;                                                                                         \
    };                                                                                                        \
    TS_CUDA_FN NAME##1 make_##NAME##1(T x) { return NAME##1{x}; }                                             \
    TS_CUDA_FN NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }                                     \
    TS_CUDA_FN NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }                             \
    TS_CUDA_FN NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }

TS_VECTOR_FAMILY(signed char, char, 2, 4)
TS_VECTOR_FAMILY(unsigned char, uchar, 2, 4)
TS_VECTOR_FAMILY(short, short, 4, 8)
TS_VECTOR_FAMILY(unsigned short, ushort, 4, 8)
TS_VECTOR_FAMILY(int, int, 8, 16)
TS_VECTOR_FAMILY(long, long, 16, 16)
TS_VECTOR_FAMILY(unsigned long, ulong, 16, 16)
TS_VECTOR_FAMILY(long long, longlong, 16, 16)
TS_VECTOR_FAMILY(unsigned long long, ulonglong, 16, 16)
TS_VECTOR_FAMILY(float, float, 8, 16)
TS_VECTOR_FAMILY(double, double, 16, 16)
#undef TS_VECTOR_FAMILY

// unsigned int's family but uint3, the preludes' own.
struct uint1 {
    unsigned int x;
};
struct alignas(8) uint2 {
    unsigned int x, y;
};
struct alignas(16) uint4 {
    unsigned int x, y, z, w;
};
TS_CUDA_FN uint1 make_uint1(unsigned int x) { return uint1{x}; }
TS_CUDA_FN uint2 make_uint2(unsigned int x, unsigned int y) { return uint2{x, y}; }
TS_CUDA_FN uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
TS_CUDA_FN uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) {
    return uint4{x, y, z, w};
}

#endif
