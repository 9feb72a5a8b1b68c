// The types a kernel uses, in the two traced executions (instrumented CUDA and
// the CPU executor). A kernel is written once against the names `Global<T>`,
// `Restrict<T>`, `SharedArray<T>`, `SharedArray2D<T>`, `ConstantArray<T>` and
// `Accumulator`, and the vector accesses `load4`/`store4` with their `Float4`;
// in the plain CUDA build those names are raw pointers, arrays, float and
// float4 (see plain_language.cuh), here they are thin wrappers whose
// operator[] records every load and store with the source line that made it.
//
// How a load knows its line without changing how the kernel reads: operator[]
// takes an `Index`, whose converting constructor has a default argument
// `__builtin_LINE()`. When the kernel writes `N[row*width + col]`, the int
// converts to an Index at that very expression, so the default argument is
// evaluated on the kernel's own line.
//
// Every wrapper is parameterised by a Recorder, which the execution mode
// supplies (CpuRecorder, DeviceRecorder). A Recorder provides:
//   static void record(Op, std::uint8_t array, int index, float value, unsigned line);
//   static float add(float sum, float term);            // no fused multiply-add
//   static float* sharedMemory(int floats, unsigned line);
//   static void fault(std::uint8_t array, int index, int size, unsigned line,
//                     Subscript2D at = {});  // notes an access outside (`at`: of a 2D array, as written)
//   static float& scratch();                         // what an access outside its array points at
// An access outside its array is never made: fault() notes it, the access is
// recorded as Op::LoadOutside or Op::StoreOutside, a load gives 0 and a store
// goes nowhere, and the thread carries on (the problem detector names it).
// TS_FN (defined by the including mode) marks the functions for its compiler.
#pragma once

#include <cstddef>
#include <cstdint>

#include "trace/event.hpp"

namespace tilescope::traced {

// An index of any integer type is taken at its full value: `N[(1LL << 33) + i]`
// is an access far past N's end, never N[i]. (A floating-point index matches
// none of these, as CUDA has none.) Beyond 2^62 either way, every index is as
// far outside every array as any other; held within that, the arithmetic
// below (an array's base, load4's next elements) cannot overflow.
constexpr long long kFarIndex = 1LL << 62;
TS_FN constexpr long long farAtMost(long long v) { return v > kFarIndex ? kFarIndex : v < -kFarIndex ? -kFarIndex : v; }

struct Index {
    long long value;
    unsigned line;
    TS_FN Index(int v, unsigned l = __builtin_LINE()) : value(v), line(l) {}
    TS_FN Index(unsigned v, unsigned l = __builtin_LINE()) : value(v), line(l) {}
    TS_FN Index(long v, unsigned l = __builtin_LINE()) : value(farAtMost(v)), line(l) {}
    TS_FN Index(unsigned long v, unsigned l = __builtin_LINE())
        : value(v > static_cast<unsigned long>(kFarIndex) ? kFarIndex : static_cast<long long>(v)), line(l) {}
    TS_FN Index(long long v, unsigned l = __builtin_LINE()) : value(farAtMost(v)), line(l) {}
    TS_FN Index(unsigned long long v, unsigned l = __builtin_LINE())
        : value(v > static_cast<unsigned long long>(kFarIndex) ? kFarIndex : static_cast<long long>(v)), line(l) {}
};

// The index an event records of an access: an Event holds 32 bits, and the
// indices below -2^30 name a 2D array's subscripts (event.hpp's
// kSubscripted), so an index beyond [-2^30, 2^31 - 1] is recorded as the
// nearer end of that range. Both ends are outside every array (an array holds
// fewer than 2^31 - 1 elements), and the problem detector names the access as
// one outside its array, on its line.
constexpr long long kLowestRecordedIndex = kSubscripted + kSubscriptParts * kSubscriptSpan * kSubscriptSpan;
constexpr long long kHighestRecordedIndex = 2147483647;
TS_FN constexpr int recordedIndex(long long i) {
    return static_cast<int>(i < kLowestRecordedIndex    ? kLowestRecordedIndex
                            : i > kHighestRecordedIndex ? kHighestRecordedIndex
                                                        : i);
}
// A size or a subscript as the 32 bits of a fault's words hold it.
TS_FN constexpr int atMostInt(long long v) {
    return static_cast<int>(v < -kHighestRecordedIndex - 1 ? -kHighestRecordedIndex - 1
                            : v > kHighestRecordedIndex    ? kHighestRecordedIndex
                                                           : v);
}
// The flattened index of `a[row][col]` (cols columns) outside the array,
// for recordedIndex: each subscript held within 32 bits first, which leaves
// any subscript beyond them outside still, and the product within 64 bits.
TS_FN constexpr long long flatIndex(long long row, int cols, long long col) {
    return static_cast<long long>(atMostInt(row)) * cols + atMostInt(col);
}

// `Pvalue += F[j] * N[i]` records one multiply-add (2 FLOPs) on its line.
struct Addend {
    float value;
    unsigned line;
    TS_FN Addend(float v, unsigned l = __builtin_LINE()) : value(v), line(l) {}
};

template <class R>
class Accumulator {
public:
    TS_FN Accumulator(float v = 0.0f) : m_value(v) {}
    TS_FN Accumulator& operator+=(Addend term) {
        m_value = R::add(m_value, term.value);
        R::record(Op::MultiplyAdd, kArrayNone, -1, m_value, term.line);
        return *this;
    }
    TS_FN operator float() const { return m_value; }

private:
    float m_value;
};

// A read-only array in global memory (N, or a mask passed by pointer).
// Reading returns the value at once, so `cond ? 0 : N[i]` stays a float.
template <class R>
class InputArray {
public:
    const float* data = nullptr;
    int size = 0;
    std::uint8_t id = kArrayInput;

    TS_FN float operator[](Index i) const {
        if (i.value < 0 || i.value >= size) {
            R::fault(id, recordedIndex(i.value), size, i.line);
            R::record(Op::LoadOutside, id, recordedIndex(i.value), 0.0f, i.line);
            return 0.0f;
        }
        float v = data[i.value];
        R::record(Op::Load, id, static_cast<int>(i.value), v, i.line);
        return v;
    }
};

// The number types of C++, for the operators below (no <type_traits>: NVRTC
// compiles this file too). `Arithmetic<T>::value` is true for them alone.
template <class T>
struct Arithmetic {
    static constexpr bool value = false;
};
#define TS_ARITHMETIC(T)                    \
    template <>                             \
    struct Arithmetic<T> {                  \
        static constexpr bool value = true; \
    };
TS_ARITHMETIC(bool)
TS_ARITHMETIC(char)
TS_ARITHMETIC(signed char)
TS_ARITHMETIC(unsigned char)
TS_ARITHMETIC(short)
TS_ARITHMETIC(unsigned short)
TS_ARITHMETIC(int)
TS_ARITHMETIC(unsigned)
TS_ARITHMETIC(long)
TS_ARITHMETIC(unsigned long)
TS_ARITHMETIC(long long)
TS_ARITHMETIC(unsigned long long)
TS_ARITHMETIC(float)
TS_ARITHMETIC(double)
#undef TS_ARITHMETIC
template <bool B>
struct EnableIf {};
template <>
struct EnableIf<true> {
    using type = int;
};
// `template <class T, IfNumber<T> = 0>`: the overload exists for numbers only.
template <class T>
using IfNumber = typename EnableIf<Arithmetic<T>::value>::type;

// A reference to one element of a writable array: the load happens when it is
// read, the store when it is assigned.
//
// It behaves as the `float&` it stands for under C++'s rules: every operator
// with a number computes in the type C++ gives `float op T` (`s[t] + 0.1` is
// a double, `s[t] * 2` a float), compound assignments compute in that type and
// round to float once, as `x = x op v` does. What a type cannot do, the
// translation of a student's file does (translate.cpp): an element read as a
// value there is written `static_cast<float>(s[t])`, so the conditional
// operator, `auto` and overloaded functions see a float.
template <class R>
class ElementRef {
public:
    float* element;
    int index;
    unsigned line;
    std::uint8_t id;
    bool outside = false;  // outside its array: neither read nor written

    TS_FN operator float() const { return load(); }
    TS_FN float load() const {
        if (outside) {
            R::record(Op::LoadOutside, id, index, 0.0f, line);
            return 0.0f;
        }
        float v = *element;
        R::record(Op::Load, id, index, v, line);
        return v;
    }
    TS_FN ElementRef& operator=(float v) {
        if (outside) {
            R::record(Op::StoreOutside, id, index, v, line);
            return *this;
        }
        *element = v;
        R::record(Op::Store, id, index, v, line);
        return *this;
    }
    TS_FN ElementRef& operator=(const ElementRef& other) { return *this = other.load(); }
    // `dst[i] += v`, a sum kept in memory (a listing as printed): once the
    // right-hand side is evaluated, the element is loaded and the sum stored,
    // both on the line of dst[i]. A float (or an Accumulator) is added through
    // the Recorder, unfused, like Accumulator's sums; another number in the
    // type C++ gives `float + T` (`+= 0.1` in double), rounded to float once.
    // The other compound assignments likewise: a load, then a store.
    TS_FN ElementRef& operator+=(float v) { return *this = R::add(load(), v); }
    TS_FN ElementRef& operator-=(float v) { return *this = load() - v; }
    TS_FN ElementRef& operator*=(float v) { return *this = load() * v; }
    TS_FN ElementRef& operator/=(float v) { return *this = load() / v; }
    template <class T, IfNumber<T> = 0>
    TS_FN ElementRef& operator+=(T v) { return *this = static_cast<float>(load() + v); }
    template <class T, IfNumber<T> = 0>
    TS_FN ElementRef& operator-=(T v) { return *this = static_cast<float>(load() - v); }
    template <class T, IfNumber<T> = 0>
    TS_FN ElementRef& operator*=(T v) { return *this = static_cast<float>(load() * v); }
    template <class T, IfNumber<T> = 0>
    TS_FN ElementRef& operator/=(T v) { return *this = static_cast<float>(load() / v); }
    TS_FN ElementRef& operator+=(const ElementRef& v) { return *this += v.load(); }
    TS_FN ElementRef& operator-=(const ElementRef& v) { return *this -= v.load(); }
    TS_FN ElementRef& operator*=(const ElementRef& v) { return *this *= v.load(); }
    TS_FN ElementRef& operator/=(const ElementRef& v) { return *this /= v.load(); }
    // ++ and --: a load, then a store of the value one up or down.
    TS_FN ElementRef& operator++() { return *this = load() + 1.0f; }
    TS_FN ElementRef& operator--() { return *this = load() - 1.0f; }
    TS_FN float operator++(int) {
        const float v = load();
        *this = v + 1.0f;
        return v;
    }
    TS_FN float operator--(int) {
        const float v = load();
        *this = v - 1.0f;
        return v;
    }
    TS_FN float operator-() const { return -load(); }
    TS_FN float operator+() const { return load(); }

    // Arithmetic reads the element inside the operator, after the other operand
    // has been evaluated, so the order of recorded loads is the same under every
    // compiler (C++ leaves the order of operand evaluation unspecified).
#define TS_ELEMENT_OPERATOR(op)                                                          \
    template <class T, IfNumber<T> = 0>                                                 \
    TS_FN friend auto operator op(T a, const ElementRef& b) { return a op b.load(); }   \
    template <class T, IfNumber<T> = 0>                                                 \
    TS_FN friend auto operator op(const ElementRef& a, T b) { return a.load() op b; }   \
    TS_FN friend float operator op(float a, const ElementRef& b) { return a op b.load(); } \
    TS_FN friend float operator op(const ElementRef& a, float b) { return a.load() op b; } \
    TS_FN friend float operator op(const ElementRef& a, const ElementRef& b) {          \
        float x = a.load();                                                             \
        return x op b.load();                                                           \
    }
    TS_ELEMENT_OPERATOR(+)
    TS_ELEMENT_OPERATOR(-)
    TS_ELEMENT_OPERATOR(*)
    TS_ELEMENT_OPERATOR(/)
#undef TS_ELEMENT_OPERATOR
};

// An element of an integer array in shared memory (`__shared__ int
// flags[N]`): a load gives the integer, a store converts to it as C++ does
// (`flags[t] = 2.7f` stores 2). The trace records its value as a float
// (exact below 2^24). The translation of a student's file reads every such
// element as `static_cast<int>(flags[t])`, so only assignments reach here.
template <class E, class R>
class IntElementRef {
public:
    E* element;
    int index;
    unsigned line;
    std::uint8_t id;
    bool outside = false;

    TS_FN operator E() const { return load(); }
    TS_FN E load() const {
        if (outside) {
            R::record(Op::LoadOutside, id, index, 0.0f, line);
            return E(0);
        }
        const E v = *element;
        R::record(Op::Load, id, index, static_cast<float>(v), line);
        return v;
    }
    template <class T, IfNumber<T> = 0>
    TS_FN IntElementRef& operator=(T value) {
        const E v = static_cast<E>(value);
        if (outside) {
            R::record(Op::StoreOutside, id, index, static_cast<float>(v), line);
            return *this;
        }
        *element = v;
        R::record(Op::Store, id, index, static_cast<float>(v), line);
        return *this;
    }
    TS_FN IntElementRef& operator=(const IntElementRef& other) { return *this = other.load(); }
#define TS_INT_COMPOUND(op)                                              \
    template <class T, IfNumber<T> = 0>                                  \
    TS_FN IntElementRef& operator op##=(T v) { return *this = load() op v; }
    TS_INT_COMPOUND(+)
    TS_INT_COMPOUND(-)
    TS_INT_COMPOUND(*)
    TS_INT_COMPOUND(/)
    TS_INT_COMPOUND(%)
    TS_INT_COMPOUND(&)
    TS_INT_COMPOUND(|)
    TS_INT_COMPOUND(^)
    TS_INT_COMPOUND(<<)
    TS_INT_COMPOUND(>>)
#undef TS_INT_COMPOUND
    TS_FN IntElementRef& operator++() { return *this = load() + 1; }
    TS_FN IntElementRef& operator--() { return *this = load() - 1; }
    TS_FN E operator++(int) {
        const E v = load();
        *this = v + 1;
        return v;
    }
    TS_FN E operator--(int) {
        const E v = load();
        *this = v - 1;
        return v;
    }
};

// The reference to an element of a shared array of E: ElementRef for float,
// IntElementRef for int and unsigned.
template <class E, class R>
struct ElementOf {
    using type = IntElementRef<E, R>;
    TS_FN static type at(E* element, int index, unsigned line, std::uint8_t id) { return type{element, index, line, id}; }
    TS_FN static type outside(int index, unsigned line, std::uint8_t id) { return type{nullptr, index, line, id, true}; }
};
template <class R>
struct ElementOf<float, R> {
    using type = ElementRef<R>;
    TS_FN static type at(float* element, int index, unsigned line, std::uint8_t id) {
        return type{element, index, line, id};
    }
    TS_FN static type outside(int index, unsigned line, std::uint8_t id) {
        return type{&R::scratch(), index, line, id, true};
    }
};

// A writable array in global memory (P).
template <class R>
class OutputArray {
public:
    float* data = nullptr;
    int size = 0;
    std::uint8_t id = kArrayOutput;

    TS_FN ElementRef<R> operator[](Index i) const {
        if (i.value < 0 || i.value >= size) {
            R::fault(id, recordedIndex(i.value), size, i.line);
            return ElementRef<R>{&R::scratch(), recordedIndex(i.value), i.line, id, true};
        }
        return ElementRef<R>{data + i.value, static_cast<int>(i.value), i.line, id};
    }
};

template <class T, class R>
struct GlobalOf;
template <class R>
struct GlobalOf<const float, R> {
    using type = InputArray<R>;
};
template <class R>
struct GlobalOf<float, R> {
    using type = OutputArray<R>;
};

// The block's array in shared memory. The book declares it with a size known
// at compile time (`__shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1]`);
// here the size follows the launch, so it lives in the launch's dynamic shared
// memory and this object only gives it the same [] syntax.
//
// A kernel with several shared arrays (a student's own, kernels/own/) places
// each at its own offset in the block's shared memory: a SharedSlice. The
// trace then names an element by its offset in the whole of shared memory,
// so that two arrays never share an index.
struct SharedSlice {
    float* data;
    int base;      // elements before this array in the block's shared memory
    int part = 0;  // its place among the kernel's __shared__ arrays, by offset (Subscript2D::part)
};

// E: the element type, float (the book's) or, in a student's file, int or
// unsigned (4 bytes each: one slot of the block's shared memory).
template <class R, class E = float>
class SharedArray {
public:
    using Element = typename ElementOf<E, R>::type;
    TS_FN explicit SharedArray(Index count)
        : m_size(atMostInt(count.value)),
          m_data(reinterpret_cast<E*>(R::sharedMemory(atMostInt(count.value), count.line))) {}
    TS_FN SharedArray(SharedSlice slice, int count)
        : m_size(count), m_base(slice.base), m_part(slice.part), m_data(reinterpret_cast<E*>(slice.data)) {}
    // Outside, the fault names the array's own index and size (and which
    // array it is, its part); the event keeps the index in the block's
    // shared memory, as every event of it.
    TS_FN Element operator[](Index i) const {
        if (i.value < 0 || i.value >= m_size) {
            R::fault(kArrayShared, recordedIndex(i.value), m_size, i.line, Subscript2D{0, 0, 0, 0, m_part});
            return ElementOf<E, R>::outside(recordedIndex(m_base + i.value), i.line, kArrayShared);
        }
        return ElementOf<E, R>::at(m_data + i.value, m_base + static_cast<int>(i.value), i.line, kArrayShared);
    }

private:
    int m_size;
    int m_base = 0;
    int m_part = 0;
    E* m_data;
};

template <class R, class E = float>
class SharedArray2D {
public:
    class Row {
    public:
        TS_FN Row(const SharedArray2D* a, long long row, unsigned line) : m_array(a), m_row(row), m_line(line) {}
        // The line of `N_s[ty][tx]` is the one recorded by its first [].
        // Outside the array, the access is noted and recorded with its two
        // subscripts as written (event.hpp's subscriptIndex): its flattened
        // index may well lie inside. Both subscripts are taken at their full
        // value, as Index says.
        TS_FN typename ElementOf<E, R>::type operator[](Index column) const {
            const SharedArray2D& a = *m_array;
            const long long col = column.value;
            if (m_row < 0 || m_row >= a.m_rows || col < 0 || col >= a.m_cols) {
                const int row32 = atMostInt(m_row), col32 = atMostInt(col);
                const int index = recordedIndex(a.m_base + flatIndex(m_row, a.m_cols, col));
                R::fault(kArrayShared, index, a.m_base + a.m_rows * a.m_cols, m_line,
                         Subscript2D{row32, col32, a.m_rows, a.m_cols, a.m_part});
                const int written =
                    subscriptsFit(row32, col32, a.m_part) ? subscriptIndex(row32, col32, a.m_part) : index;
                return ElementOf<E, R>::outside(written, m_line, kArrayShared);
            }
            const int index = a.m_base + static_cast<int>(m_row) * a.m_cols + static_cast<int>(col);
            return ElementOf<E, R>::at(a.m_data + (index - a.m_base), index, m_line, kArrayShared);
        }

    private:
        const SharedArray2D* m_array;
        long long m_row;
        unsigned m_line;
    };

    TS_FN SharedArray2D(Index rows, int cols)
        : m_rows(atMostInt(rows.value)), m_cols(cols),
          m_data(reinterpret_cast<E*>(R::sharedMemory(m_rows * cols, rows.line))) {}
    TS_FN SharedArray2D(SharedSlice slice, int rows, int cols)
        : m_rows(rows), m_cols(cols), m_base(slice.base), m_part(slice.part),
          m_data(reinterpret_cast<E*>(slice.data)) {}
    TS_FN Row operator[](Index row) const { return Row(this, row.value, row.line); }

private:
    int m_rows;
    int m_cols;
    int m_base = 0;
    int m_part = 0;
    E* m_data;
};

// A three-dimensional array in shared memory (`__shared__ float
// s[C][T][T]`, a tile per channel): planes of rows, each plane a
// SharedArray2D's rows and columns, one after another in the block's shared
// memory. An access outside it is noted with its flattened index (which may
// lie inside another plane: the fault says it is outside all the same).
template <class R, class E = float>
class SharedArray3D {
public:
    class Row {
    public:
        TS_FN Row(const SharedArray3D* a, long long plane, long long row, unsigned line)
            : m_array(a), m_plane(plane), m_row(row), m_line(line) {}
        TS_FN typename ElementOf<E, R>::type operator[](Index column) const {
            const SharedArray3D& a = *m_array;
            const long long col = column.value;
            // Each subscript held within 32 bits first: the flattened index cannot overflow.
            const long long flat =
                (static_cast<long long>(atMostInt(m_plane)) * a.m_rows + atMostInt(m_row)) * a.m_cols + atMostInt(col);
            if (m_plane < 0 || m_plane >= a.m_planes || m_row < 0 || m_row >= a.m_rows || col < 0 ||
                col >= a.m_cols) {
                const int index = recordedIndex(a.m_base + flat);
                R::fault(kArrayShared, recordedIndex(flat), a.m_planes * a.m_rows * a.m_cols, m_line,
                         Subscript2D{0, 0, 0, 0, a.m_part});
                return ElementOf<E, R>::outside(index, m_line, kArrayShared);
            }
            const int index = a.m_base + static_cast<int>(flat);
            return ElementOf<E, R>::at(a.m_data + (index - a.m_base), index, m_line, kArrayShared);
        }

    private:
        const SharedArray3D* m_array;
        long long m_plane;
        long long m_row;
        unsigned m_line;
    };
    class Plane {
    public:
        TS_FN Plane(const SharedArray3D* a, long long plane, unsigned line) : m_array(a), m_plane(plane), m_line(line) {}
        // The line of `s[c][ty][tx]` is the one recorded by its first [].
        TS_FN Row operator[](Index row) const { return Row(m_array, m_plane, row.value, m_line); }

    private:
        const SharedArray3D* m_array;
        long long m_plane;
        unsigned m_line;
    };

    TS_FN SharedArray3D(SharedSlice slice, int planes, int rows, int cols)
        : m_planes(planes), m_rows(rows), m_cols(cols), m_base(slice.base), m_part(slice.part),
          m_data(reinterpret_cast<E*>(slice.data)) {}
    TS_FN Plane operator[](Index plane) const { return Plane(this, plane.value, plane.line); }

private:
    int m_planes;
    int m_rows;
    int m_cols;
    int m_base = 0;
    int m_part = 0;
    E* m_data;
};

// The mask in constant memory. `ConstantArray<float[15][15]> F_c` holds the
// same bytes as `float F_c[15][15]`, so the host uploads it the same way.
template <class T, class R>
struct ConstantArray;

template <std::size_t W, class R>
struct ConstantArray<float[W], R> {
    float values[W];
    TS_FN float operator[](Index i) const {
        if (i.value < 0 || i.value >= static_cast<int>(W)) {
            R::fault(kArrayMask, recordedIndex(i.value), static_cast<int>(W), i.line);
            R::record(Op::LoadOutside, kArrayMask, recordedIndex(i.value), 0.0f, i.line);
            return 0.0f;
        }
        float v = values[i.value];
        R::record(Op::Load, kArrayMask, static_cast<int>(i.value), v, i.line);
        return v;
    }
};

template <std::size_t H, std::size_t W, class R>
struct ConstantArray<float[H][W], R> {
    float values[H][W];
    struct Row {
        const ConstantArray* array;
        long long row;
        unsigned line;
        // Outside, recorded with its subscripts as written, as SharedArray2D's.
        TS_FN float operator[](Index column) const {
            const long long col = column.value;
            if (row < 0 || row >= static_cast<int>(H) || col < 0 || col >= static_cast<int>(W)) {
                const int row32 = atMostInt(row), col32 = atMostInt(col);
                const int index = recordedIndex(flatIndex(row, static_cast<int>(W), col));
                R::fault(kArrayMask, index, static_cast<int>(H * W), line,
                         Subscript2D{row32, col32, static_cast<int>(H), static_cast<int>(W)});
                R::record(Op::LoadOutside, kArrayMask,
                          subscriptsFit(row32, col32) ? subscriptIndex(row32, col32) : index, 0.0f, line);
                return 0.0f;
            }
            float v = array->values[row][col];
            R::record(Op::Load, kArrayMask, static_cast<int>(row) * static_cast<int>(W) + static_cast<int>(col), v,
                      line);
            return v;
        }
    };
    TS_FN Row operator[](Index row) const { return Row{this, row.value, row.line}; }
};

// Four neighbouring elements in one access: `Float4 v = load4(N, i)` and
// `store4(P, i, v)` are single 16-byte instructions in the plain build
// (plain_language.cuh); here they are four loads or stores of elements i to
// i+3, recorded in that order on the line of the call, each checked against
// the array's bounds like any other access.
struct Float4 {
    float x, y, z, w;
};

// The four loads of a load4, from either array (a shared element is read as it converts to float).
template <class Array>
TS_FN Float4 loadFour(const Array& a, Index i) {
    Float4 v;
    v.x = a[Index(i.value, i.line)];
    v.y = a[Index(i.value + 1, i.line)];
    v.z = a[Index(i.value + 2, i.line)];
    v.w = a[Index(i.value + 3, i.line)];
    return v;
}

template <class R>
TS_FN Float4 load4(const InputArray<R>& a, Index i) {
    return loadFour(a, i);
}

template <class R>
TS_FN void store4(const OutputArray<R>& a, Index i, Float4 v) {
    a[Index(i.value, i.line)] = v.x;
    a[Index(i.value + 1, i.line)] = v.y;
    a[Index(i.value + 2, i.line)] = v.z;
    a[Index(i.value + 3, i.line)] = v.w;
}


template <class R>
TS_FN Float4 load4(const SharedArray<R>& a, Index i) {
    return loadFour(a, i);
}

// The asynchronous copies of the plain build (cp.async, plain_language.cuh)
// made at once: loads of N, then stores into the shared array, all on the
// line of the call (a trace pairs the k-th store with the k-th load before
// it, as it pairs `N_s[i] = N[j]`: classify.hpp's storeSource), and stores
// of 0 for an element outside the image, which the copy never reads.
// copyAsync4's four loads, then four stores, are one 16-byte access each to
// the memory model, as load4's are. What cp.async adds, the copy arriving
// later, has no counterpart here; the __syncthreads() after waitCopies()
// orders the copies before the reads of other threads, as it does in the
// plain build, and a dropped barrier shows as a race.
template <class R>
TS_FN void copyAsync(const SharedArray<R>& dst, Index s, const InputArray<R>& src, Index i, bool inside) {
    dst[Index(s.value, s.line)] = inside ? src[Index(i.value, s.line)] : 0.0f;
}
template <class R>
TS_FN void copyAsync4(const SharedArray<R>& dst, Index s, const InputArray<R>& src, Index i, bool inside) {
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (inside)
        for (int k = 0; k < 4; k++) v[k] = src[Index(i.value + k, s.line)];
    for (int k = 0; k < 4; k++) dst[Index(s.value + k, s.line)] = v[k];
}
TS_FN void commitCopies() {}
template <int n>
TS_FN void waitCopies() {}

}  // namespace tilescope::traced

// `TS_UNROLL for (...)` asks the plain build to unroll the loop completely
// (plain_language.cuh). Here the loop stays a loop: every iteration records
// events, and unrolled, that recording code would grow with every iteration
// (nvcc would unroll short constant loops on its own, hence the explicit 1).
#ifndef TS_UNROLL
#if defined(__CUDACC__)
#define TS_UNROLL _Pragma("unroll 1")
#else
#define TS_UNROLL
#endif
#endif
// `TS_KEEP_LOOP for (...)` keeps a loop a loop in the plain build too; here,
// where every loop stays one, it means the same as TS_UNROLL.
#ifndef TS_KEEP_LOOP
#define TS_KEEP_LOOP TS_UNROLL
#endif
// And so does `TS_UNROLL_BY(n)`, a partial unrolling in the plain build.
#ifndef TS_UNROLL_BY
#define TS_UNROLL_BY(n) TS_UNROLL
#endif
// A register limit is a matter of the plain build only.
#ifndef TS_MAX_REGISTERS
#define TS_MAX_REGISTERS(n)
#endif
