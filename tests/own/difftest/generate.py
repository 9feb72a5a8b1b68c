#!/usr/bin/env python3
"""Random CUDA kernel files inside the subset TileScope runs (docs/own-kernel.md),
for differential testing: each file is a kernel plus its launch(), race-free,
deterministic and free of undefined behaviour, so that every correct execution
gives the same bits (run.py compares them).

    generate.py --seed 7 --count 20 --out DIR [--barriers | --no-barriers]
                [--dims 1|2] [--exclude TAG,...] [--list-tags]

What keeps a kernel well defined:
- integers: every int expression carries its range; an operation whose result
  could overflow an int is not generated, division and % are by a value >= 1,
  shifts by constants (<< on unsigned only); unsigned wraps, as defined;
- floats: no float is converted to an integer without a NaN-safe clamp
  ((int)fminf(fmaxf(x, -1000.0f), 1000.0f), or a test of fabsf(x) < 1000.0f);
  sqrt takes fabs first; divisors are non-zero constants, fabs(x) + c or
  integers >= 1; magnitudes are estimated so that values rarely overflow (an
  overflow is still IEEE and the same everywhere), and the last store of each
  output clamps it to [-1e30, 1e30] (tilescope run writes no infinity or NaN;
  a finite value in range keeps its bits); no expf, logf, powf, sinf, cosf
  (not correctly rounded: the GPU's and the C library's may differ);
- fmin/fmax/min/max of floats always have a non-zero constant operand, so no
  +0/-0 tie is decided differently by the GPU's min instruction and glibc;
- only the single-precision functions and intrinsics CUDA gives as correctly
  rounded (fmaf, __fmaf_rn, rintf, fmodf, copysignf, __fadd_rn, ...); logbf and
  ilogbf of a value kept finite and >= 1, lrintf and the like of a clamped
  value, signbit never of a NaN (a NaN's sign differs between CPU and GPU);
- fixed-width integers: a conversion to int16_t only of a value in its range
  (to an unsigned type it is modular, as defined); int64_t expressions keep
  their exact ranges inside the type (uint64_t may wrap); a function template is
  called at one type, each argument cast to exactly it; __launch_bounds__ is at
  least the block's threads;
- arrays: every index is in range by construction (the thread's own output,
  a guarded neighbour, a clamped or modulo index, a loop over the mask);
- race freedom: a thread writes only its own outputs P[o] and its own shared
  slots. Without barriers it reads only shared slots it wrote itself before
  (first written unconditionally at the top of the kernel). With barriers
  (--barriers) the kernel is a sequence of phases at its top level, where
  every thread takes part: a write phase (own slots only), __syncthreads(), a
  read phase (any slot, no shared writes), __syncthreads(), ... ; a barrier is
  never inside a condition or a loop whose trip count differs between threads.

Each file starts with `// difftest: dims=.. width=.. height=.. radius=.. barriers=..
seed=..` (what run.py needs to run it) and `// difftest-tags: ...` (the
construct classes it holds; --exclude leaves out every construct whose tag
starts with one of the given prefixes; --list-tags lists them). The default
includes every class, those TileScope gets wrong today (broken.txt) too.
The same seed gives the same file (random.Random seeded with a string);
a failing kernel is saved as a file anyway, header and all, and run.py
--files runs it again anywhere.

Standard library only.
"""

import argparse
import os
import random
import re
import sys

INT_MIN, INT_MAX, UMAX = -2 ** 31, 2 ** 31 - 1, 2 ** 32 - 1
SOFT_MAG = 1e6          # float values are steered to stay below this
MAX_BLOCK = 1024

# Construct classes a kernel may hold (the difftest-tags line), with what they are.
TAGS = {
    "ternary-elem-int": "c ? 0 : s[t], c ? 1 : P[i]: an element of a writable array against an int",
    "ternary-elem": "an element of a writable array as an operand of ?: (any other operand)",
    "ternary-double": "?: whose operands mix float and double (c ? N[i] : 0.5)",
    "elem-arith": "arithmetic on an element of a writable array (s[t] * 2, P[i] - x, s[a] + s[b], s[t] + 0.1)",
    "elem-elem": "both operands elements of writable arrays (s[a] + s[b])",
    "elem-double": "an element of a writable array with a double operand (s[t] + 0.1)",
    "local+=elem": "sum += s[i] / sum += P[i]: a bare element on the right of += on a float local",
    "local+=double": "sum += <double>: compound assignment of a float local with a double right side",
    "local-op=": "-=, *=, /= on float locals",
    "elem-op=": "compound assignment on P[i] or a shared element (+= -= *= /=)",
    "elem-op=double": "compound assignment on an element with a double right side",
    "int-op=": "compound assignment and ++/-- on int locals",
    "abs-float": "abs() of a float or double",
    "math-overload": "floor/ceil/sqrt/fabs/trunc/round/fmin/fmax of a float (CUDA's float overloads)",
    "math-f": "fabsf, floorf, ceilf, sqrtf, truncf, roundf, fminf, fmaxf",
    "minmax-float": "min/max of floats or doubles",
    "minmax-int": "min/max of ints and unsigneds",
    "auto-elem": "auto v = s[j] (or P[i], or N[i] of a writable N): a copy in CUDA",
    "constref-elem": "const float& c = s[j]: a reference in CUDA, later writes show through it",
    "ref-elem": "float& e = s[t] (or P[i]): writes through e",
    "double-local": "double locals and double arithmetic",
    "unsigned": "unsigned locals, literals and mixed int/unsigned arithmetic",
    "bitwise": "& | ^ >> << on integers",
    "cast": "C-style and functional casts between number types",
    "float-to-int": "a float converted to an int through a clamp",
    "helper": "__device__ helper functions with number parameters",
    "macro-expr": "function-like and object-like macros in expressions",
    "macro-stmt": "a macro that expands to a statement (ACC(sum, x))",
    "macro-size": "macros as array sizes and loop bounds",
    "loop-const": "loops with constant bounds",
    "loop-var": "loops with bounds known only at run time",
    "while": "while loops",
    "break-continue": "break and continue",
    "early-return": "if (i >= width) return;",
    "grid-stride": "a grid-stride loop over the outputs",
    "shared1d": "__shared__ float s[A]",
    "shared2d": "__shared__ float s[A][B]",
    "shared-dyn": "extern __shared__ float s[] sized by the launch",
    "constant1d": "__constant__ float Mc[A] filled by cudaMemcpyToSymbol",
    "constant2d": "__constant__ float Mc[A][B] filled by cudaMemcpyToSymbol",
    "mask-pointer": "the mask read through a const float* parameter",
    "writable-N": "the input as a non-const float* parameter (launch passes a cast of N)",
    "restrict": "const float* __restrict__ parameters",
    "param-extra": "float, unsigned, bool and int kernel parameters besides r, width, height",
    "global-const": "const int / constexpr globals",
    "scoped-global": "::Mc, ::K: a global named with ::",
    "launch-dim3": "k<<<grid, block>>> with dim3 variables",
    "launch-int": "k<<<blocks, threads>>> with int variables",
    "launch-literal": "k<<<(width + 127) / 128, 128>>>: expressions of literals in <<< >>>",
    "launch-macro": "bare macros in <<< >>> (k<<<GRID, BLOCK>>>, k<<<g, BS>>>)",
    "launch-dim3-temp": "k<<<dim3(...), dim3(...), 0>>>",
    "launch-vs-spacing": "k << <g, b >> > (...), as Visual Studio formats it",
    "launch-bytes": "a third value in <<< >>> (dynamic shared bytes, or 0) and a fourth (stream 0)",
    "launch-ceil": "dim3 grid(ceil(width / (float)BS))",
    "dim3-assign": "dim3 b; b = dim3(16, 16);",
    "prototype": "a kernel prototype before its definition",
    "prototype-late": "the kernel defined after launch(), declared by a prototype before it",
    "extern-c": "extern \"C\" __global__",
    "second-kernel": "a second __global__ kernel that is not launched",
    "memcpy-kind": "cudaMemcpyToSymbol with an offset and a copy kind",
    "launch-checks": "cudaDeviceSynchronize() / cudaGetLastError() after the launch",
    "launch-names": "launch()'s parameters named other than N, M, P",
    "conv": "a convolution loop over the mask",
    "barrier": "__syncthreads() between phases",
    "barrier-loop": "__syncthreads() inside a loop of constant trip count",
    "barrier-macro": "__syncthreads() through a macro",
    "macro-elem": "an element named through a macro (#define SH0(i) s0[(i)], #define OUT(i) P[(i)])",
    "spacing": "elements spelled with spaces (s [i], P[ o ])",
    "elem-incdec": "++ and -- on P[o] or a shared element",
    "float-incdec": "++ and -- on a float local",
    "chain-assign": "x = s[lt] = e",
    "ternary-lvalue": "(c ? s[a] : P[o]) = e",
    "assign-value": "the value of an assignment: float y = (s[lt] += e)",
    "multi-decl": "several declarators: float a = s[lt], b = e",
    "multi-decl-ref": "const float& c1 = s[a], &c2 = s[b]",
    "ref-elem-brace": "float& e{s[t]}",
    "assign-value-auto": "auto y = (P[o] *= e): auto of an assignment's value",
    "macro-ternary-elem": "c ? s[t] : 0 (an element against a number) in a macro's argument",
    "macro-arg-elem": "an element passed through a macro that gives it back: ID(s[lt])",
    "macro-nested-elem": "an element named by a macro, passed through another: ID(SH0(lt))",
    "param-write": "a float or double kernel parameter assigned",
    "double-param": "a double kernel parameter",
    "elem-cond": "an element as a condition (if (s[t]), !P[o])",
    "unary-plus": "+s[t]",
    "multiline": "a statement over two lines",
    "scoped-call": "::floor(x), ::abs(x), ::min(a, b), ::helper(x): a call named with ::",
    "const-param": "const int parameters of the kernel",
    "launch-arg-convert": "a launch argument of another type than its parameter (2.9f to an int, 3 to a bool)",
    "pragma-unroll": "#pragma unroll before a loop",
    "constexpr-local": "constexpr locals",
    "local-array": "a local float array: float a[3] = {...}",
    "do-while": "do { } while loops",
    "switch": "switch statements",
    "shared-late": "a __shared__ array declared after other statements",
    "shared-order": "float __shared__ s[A]: the attribute after the type",
    "shared-multi-decl": "__shared__ float a[A], b[B]: two arrays in one declaration",
    "memcpy-offset": "cudaMemcpyToSymbol with a non-zero offset: the mask further into the constant array",
    "extern-c-block": "extern \"C\" { ... } around the kernel",
    "helper-default": "a __device__ helper with a default argument, called without it",
    "helper-late": "__device__ helpers declared ahead of the kernel and defined after it",
    "host-helper": "a host function of the file (divUp) called by launch()",
    "launch-in-if": "the launch inside an if in launch()",
    "preproc-cond": "#ifndef BS / #define BS 64 / #endif",
    "size-const-global": "a shared array sized by a const int global",
    "shared-dyn-alias": "two extern __shared__ arrays (the same memory, as in CUDA)",
    "param-order": "the kernel's array parameters in another order (P first)",
    "launch-spacing": "k <<<g, b>>>, k<<< g, b >>>, arguments over two lines",
    "comments": "comments at the ends of lines and inside statements",
    "unicode": "a comment with non-ASCII characters",
    "tabs": "indentation with tabs",
    "crlf": "CRLF line ends",
    "name-reuse": "a name that is a shared array in the kernel and a float elsewhere (a helper's parameter, "
                  "another kernel's local)",
    "fixed-int": "int32_t, uint32_t, int16_t, uint8_t locals and casts (<stdint.h>, <cstdint> or <cuda.h> included)",
    "fixed-int64": "int64_t / uint64_t locals and arithmetic, every range inside the type",
    "vector-type": "int2, int3, float2, float4, uint3, dim3 locals made with make_int2(...) etc.; .x .y .z .w",
    "vector-param": "a vector type (float2, int3, float4, dim3) passed by value to a __device__ helper",
    "dim3-copy": "dim3 t = threadIdx; dim3 b = blockDim; uint3 i = blockIdx; then t.x",
    "fmaf": "fmaf(a, b, c) and __fmaf_rn(a, b, c), in expressions and as a sum's update",
    "math-exact": "the other correctly rounded single-precision functions: rintf, nearbyintf, fmodf, remainderf, "
                  "copysignf, fdimf, ldexpf, scalbnf, logbf, ilogbf, nextafterf, lrintf, lroundf, isnan, signbit, ...",
    "intrinsic-rn": "__fadd_rn, __fsub_rn, __fmul_rn, __fdiv_rn, __frcp_rn, __fsqrt_rn",
    "intrinsic-rn-scoped": "::__fadd_rn(a, b): a correctly rounded intrinsic named with ::",
    "shared3d": "__shared__ float s[C][T][T]: a three-dimensional shared array",
    "shared3d-unit": "__shared__ float s[C][1][T]: a three-dimensional shared array whose middle extent is 1",
    "shared-int": "__shared__ int / unsigned arrays (flags, counts), own slots written, read as integers",
    "launch-bounds": "__global__ void __launch_bounds__(256) k(...) and __launch_bounds__(256, 2)",
    "template-kernel": "a kernel template (template <typename T>, template <int BDIM>) instantiated at its launch "
                       "(k<float><<<...>>>)",
    "template-helper": "a __device__ function template called with deduced arguments (twice_t(x))",
    "template-prototype": "a __device__ function template declared ahead, called, and defined after the kernel",
    "template-unused": "a __device__ function template declared ahead and never called (defined after, or not)",
}

# Vector types a local may have: (type, maker, member type, members).
VECTOR_TYPES = {
    "int2": ("make_int2", "int", "xy"),
    "int3": ("make_int3", "int", "xyz"),
    "uint3": ("make_uint3", "unsigned", "xyz"),
    "float2": ("make_float2", "float", "xy"),
    "float4": ("make_float4", "float", "xyzw"),
    "dim3": (None, "unsigned", "xyz"),
}
INT64_MIN, INT64_MAX, U64MAX = -2 ** 63, 2 ** 63 - 1, 2 ** 64 - 1


def is_int(t):
    return t in ("bool", "int", "unsigned")


def is_float(t):
    return t in ("float", "double")


def arith_type(a, b):
    if "double" in (a, b):
        return "double"
    if "float" in (a, b):
        return "float"
    if "unsigned" in (a, b):
        return "unsigned"
    return "int"


def as_unsigned(lo, hi):
    """The range of an int value converted to unsigned."""
    if lo >= 0:
        return lo, hi
    if hi < 0:
        return lo + 2 ** 32, hi + 2 ** 32
    return 0, UMAX


def as_int(lo, hi):
    """The range of an unsigned value converted to int (modular, as gcc and nvcc do)."""
    if hi <= INT_MAX:
        return lo, hi
    if lo > INT_MAX:
        return lo - 2 ** 32, hi - 2 ** 32
    return INT_MIN, INT_MAX


def div_mod_range(op, alo, ahi, blo, bhi):
    """The range of a / b or a % b (C's truncating division) for b in [blo, bhi], blo >= 1."""
    if op == "/":
        if alo >= 0:
            return alo // bhi, ahi // blo
        return min(alo, 0), max(ahi, 0)
    m = bhi - 1
    if alo >= 0:
        return 0, min(ahi, m)
    return -min(m, -alo), min(m, max(ahi, 0))


class X:
    """An expression: its text (fully parenthesised where it matters), its C
    type, the range of its value (integers: exact bounds; floats: an estimate
    of the magnitude), the construct tags it holds, and whether it is a bare
    element of a writable array (an lvalue; TileScope makes it an ElementRef)."""

    __slots__ = ("text", "ty", "lo", "hi", "mag", "tags", "elem", "absmin")

    def __init__(self, text, ty, lo=0, hi=0, mag=None, tags=(), elem=False, absmin=0.0):
        self.text = text
        self.ty = ty
        self.lo = lo
        self.hi = hi
        if mag is None:
            mag = float(max(abs(lo), abs(hi))) if is_int(ty) else 1.0
        self.mag = mag
        self.tags = set(tags)
        self.elem = elem
        self.absmin = absmin  # a lower bound of |value| (divisors)

    def rng_in(self, t):
        """The range of this integer converted to type t."""
        if t == "unsigned":
            return as_unsigned(self.lo, self.hi) if self.ty != "unsigned" else (self.lo, self.hi)
        if t == "int" and self.ty == "unsigned":
            return as_int(self.lo, self.hi)
        return self.lo, self.hi


def lit(v, ty):
    if ty == "int":
        return X(str(v) if v >= 0 else "(%d)" % v, "int", v, v)
    if ty == "unsigned":
        return X("%du" % v, "unsigned", v, v, tags={"unsigned"})
    raise ValueError(ty)


FLOAT_LITERALS = ["0.5f", "1.3f", "2.0f", "0.25f", "1.5f", "3.0f", "0.1f", "1e-3f", "0.75f", "1.0f", "0.0f",
                  "0.3f", "2.5f", "1.7f", "0.9f"]
DOUBLE_LITERALS = ["0.1", "2.5", "1.0", "0.3", "1e-2", "0.75", "3.0", "0.5", "1.25", "0.7"]


def literal_value(text):
    return float(text.rstrip("fu"))


class Var:
    """A local, parameter or alias the kernel can name."""

    def __init__(self, name, ty, lo=0, hi=0, mag=1.0, kind="fixed", place=None, tags=()):
        self.name = name
        self.ty = ty
        self.lo, self.hi = lo, hi
        self.mag = mag
        # fixed: never written after its declaration; counter: int with a budget;
        # float: a writable float/double local; cref: const float& to a place;
        # alias: float& to a place; loop: a loop variable
        self.kind = kind
        self.place = place
        self.tags = set(tags)
        self.drift = 0  # counters: the most the updates so far can move it

    def expr(self):
        if self.kind in ("alias", "cref"):
            return X(self.name, "float", mag=self.place.mag, tags=self.tags)
        if is_int(self.ty):
            return X(self.name, self.ty, self.lo, self.hi, tags=self.tags)
        return X(self.name, self.ty, mag=self.mag, tags=self.tags)


class Member:
    """One member of a vector local: its type, its range (integers) or magnitude (floats)."""

    def __init__(self, ty, lo=0, hi=0, mag=1.0):
        self.ty = ty
        self.lo, self.hi = lo, hi
        self.mag = mag


class SharedInts:
    """A __shared__ int or unsigned array: own slots written, every value within [lo - budget, hi + budget]."""

    def __init__(self, name, ty, dims, own, neighbours, decl):
        self.name = name
        self.ty = ty
        self.dims = dims
        self.own = own
        self.neighbours = neighbours
        self.decl = decl
        self.lo, self.hi = (-1000, 1000) if ty == "int" else (0, 1000)
        self.budget = 1000
        self.drift = 0

    def ref(self, index):
        if self.dims == 1:
            return "%s[%s]" % (self.name, index)
        return "%s[%s][%s]" % (self.name, index[0], index[1])


class Place:
    """Something writable that is an array element: P[o], or a shared array's own slot."""

    def __init__(self, kind, text, array=None, index=None):
        self.kind = kind  # "P" or "S"
        self.text = text  # one spelling; Generator.place_text gives others
        self.array = array
        self.index = index
        self.mag = 1.0


class SharedArray:
    def __init__(self, name, dims, rows, cols, decl, own, neighbours, dynamic=False):
        self.name = name
        self.dims = dims          # 1 or 2
        self.rows, self.cols = rows, cols
        self.decl = decl
        self.own = own            # index texts (1D: "i", 2D: ("a", "b")) of this thread's slots
        self.neighbours = neighbours  # index texts of slots another thread owns
        self.dynamic = dynamic
        self.mag = 2.0
        self.macro = None  # a function-like macro that names an element: #define SH0(i) s0[(i)]
        self.alias = None  # another extern __shared__ name of the same memory

    def ref(self, index):
        if self.dims == 1:
            return "%s[%s]" % (self.name, index)
        return self.name + "".join("[%s]" % i for i in index)


class Ctx:
    """Where a statement or expression is being generated."""

    def __init__(self, **kw):
        self.depth = 0
        self.mult = 1               # how many times this code can run per thread (a bound)
        self.shared_write = True    # own slots may be written
        self.shared_neighbours = False  # other threads' slots may be read
        self.guard = None           # the output index variable name when inside the output guard
        self.p_written = False      # P[o] has been written (may be read)
        self.in_loop = False
        self.loop_kind = None       # "for" or "while" of the innermost loop
        self.helper = False         # inside a __device__ helper: no arrays
        self.allow_return = False
        self.__dict__.update(kw)

    def child(self, **kw):
        c = Ctx()
        c.__dict__.update(self.__dict__)
        c.__dict__.update(kw)
        return c


class Kernel:
    """What generate() returns."""

    def __init__(self):
        self.text = ""
        self.dims = 1
        self.width = 1
        self.height = 1
        self.radius = 1
        self.barriers = False
        self.seed = ""
        self.tags = set()
        self.name = ""


class Generator:
    def __init__(self, seed, barriers=None, dims=None, exclude=()):
        self.seed = str(seed)
        self.rng = random.Random("difftest:" + self.seed)
        self.want_barriers = barriers
        self.want_dims = dims
        self.exclude = tuple(e for e in exclude if e)
        self.tags = set()
        self.counter = 0
        self.scopes = [[]]
        self.helpers = []
        self.shared = []
        self.mask_reads = []
        self.float_params = []
        self.builtin_ints = []
        self.int_macros = []
        self.float_macros = []
        self.macros_used = set()
        self.dyn_floats = 0
        self.launch_macros = ()
        self.size_global_for = None
        self.size_global_used = False
        self.local_arrays = []
        self.macro_lines = []
        self.lt_forms = []
        self.p_texts = []
        self.p_place = None
        self.row_col = None
        self.shared_ints = []       # __shared__ int / unsigned arrays, once their own slots are written
        self.vec_helpers = []       # __device__ helpers taking a vector type
        self.tmpl_helpers = []      # __device__ function templates
        self.tkernel = None         # the kernel's template parameters: [("typename", "T", "float"), ...]
        self.ttype = None           # the type T stands for, where the kernel is a template <typename T>
        self.bdim = None            # the value of BDIM, where the kernel is a template <int BDIM>
        self.targs = ""             # its template arguments at the launch: "<float>"

    # [SECTION] small helpers

    def allowed(self, tag):
        return not any(tag.startswith(e) for e in self.exclude)

    def use(self, *tags):
        for t in tags:
            self.tags.add(t)

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, items):
        return self.rng.choice(items)

    def weighted(self, options):
        """options: list of (weight, value); entries with weight 0 are skipped."""
        options = [(w, v) for w, v in options if w > 0]
        total = sum(w for w, _ in options)
        x = self.rng.random() * total
        for w, v in options:
            x -= w
            if x < 0:
                return v
        return options[-1][1]

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    # [SECTION] scopes

    def push(self):
        self.scopes.append([])

    def pop(self):
        self.scopes.pop()

    def declare(self, var):
        self.scopes[-1].append(var)
        return var

    def visible(self):
        out = []
        for frame in self.scopes:
            out.extend(frame)
        return out

    # [SECTION] integer expressions

    def ibin(self, op, a, b):
        """a op b for integral a and b, or None when it could overflow an int or divide by zero."""
        if a is None or b is None:
            return None
        if op in ("<<", ">>"):
            t = "unsigned" if a.ty == "unsigned" else "int"
            c = b.lo
            if b.lo != b.hi or not (0 <= c <= 31):
                return None
            lo, hi = a.rng_in(t)
            if op == ">>":
                rlo, rhi = lo >> c, hi >> c
            else:
                if t != "unsigned":
                    return None
                rlo, rhi = lo << c, hi << c
                if rhi > UMAX:
                    rlo, rhi = 0, UMAX
            self.use("bitwise")
            return X("(%s %s %s)" % (a.text, op, b.text), t, rlo, rhi, tags=a.tags | b.tags | {"bitwise"})
        t = arith_type(a.ty, b.ty)
        alo, ahi = a.rng_in(t)
        blo, bhi = b.rng_in(t)
        if op == "+":
            lo, hi = alo + blo, ahi + bhi
        elif op == "-":
            lo, hi = alo - bhi, ahi - blo
        elif op == "*":
            p = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
            lo, hi = min(p), max(p)
        elif op == "/":
            if blo < 1:
                return None
            if alo >= 0:
                lo, hi = alo // bhi, ahi // blo
            else:
                lo, hi = min(alo, 0), max(ahi, 0)
        elif op == "%":
            if blo < 1:
                return None
            m = bhi - 1
            if alo >= 0:
                lo, hi = 0, min(ahi, m)
            else:
                lo, hi = -min(m, -alo), min(m, max(ahi, 0))
        elif op in ("&", "|", "^"):
            if alo >= 0 and blo >= 0:
                n = max(ahi, bhi).bit_length()
                lo, hi = 0, (min(ahi, bhi) if op == "&" else 2 ** n - 1)
            else:
                n = max(abs(alo), abs(ahi), abs(blo), abs(bhi)).bit_length()
                lo, hi = -2 ** n, 2 ** n - 1
        elif op in ("<", "<=", ">", ">=", "==", "!="):
            return X("(%s %s %s)" % (a.text, op, b.text), "bool", 0, 1, tags=a.tags | b.tags)
        elif op in ("&&", "||"):
            return X("(%s %s %s)" % (a.text, op, b.text), "bool", 0, 1, tags=a.tags | b.tags)
        else:
            raise ValueError(op)
        if t == "int":
            if lo < INT_MIN or hi > INT_MAX:
                return None
        else:
            if lo < 0 or hi > UMAX:
                lo, hi = 0, UMAX
        tags = a.tags | b.tags
        if op in ("&", "|", "^"):
            tags.add("bitwise")
            self.use("bitwise")
        if "unsigned" in (a.ty, b.ty):
            tags.add("unsigned")
        return X("(%s %s %s)" % (a.text, op, b.text), t, lo, hi, tags=tags)

    def int_leaf(self, ctx):
        opts = []
        opts.append((3, lambda: lit(self.rng.randint(0, 9), "int")))
        opts.append((1, lambda: lit(self.rng.randint(-4, -1), "int")))
        if self.allowed("unsigned"):
            opts.append((1, lambda: lit(self.rng.randint(1, 6), "unsigned")))
        ints = [v for v in self.visible() if is_int(v.ty) and v.kind not in ("alias", "cref")]
        if ints:
            opts.append((8, lambda: self.pick(ints).expr()))
        if not ctx.helper:
            opts.append((3, lambda: self.pick(self.builtin_ints)()))
        if self.int_macros:
            opts.append((1, lambda: self.pick(self.int_macros)))
        vec_ints = self.vec_members_of(True)
        if vec_ints:
            opts.append((3, lambda: self.vec_member(*self.pick(vec_ints))))
        if self.shared_ints and not ctx.helper:
            opts.append((2, lambda: self.read_shared_int(ctx)))
        return self.weighted(opts)()

    def read_shared_int(self, ctx):
        arr = self.pick(self.shared_ints)
        if ctx.shared_neighbours and arr.neighbours and self.chance(0.6):
            idx = self.pick(arr.neighbours)
        else:
            idx = self.pick(arr.own)
        lo = arr.lo - arr.budget if arr.ty == "int" else 0
        tags = {"shared-int"} | ({"unsigned"} if arr.ty == "unsigned" else set())
        return X(arr.ref(idx), arr.ty, lo, arr.hi + arr.budget, tags=tags)

    def gen_int(self, ctx, depth=2, lo=INT_MIN, hi=INT_MAX):
        """An integral expression whose value lies in [lo, hi] (as an int)."""
        for _ in range(12):
            e = self._gen_int(ctx, depth)
            if e is None:
                continue
            elo, ehi = e.rng_in("int") if e.ty != "bool" else (0, 1)
            if lo <= elo and ehi <= hi:
                return e
        return lit(max(lo, min(hi, 1)), "int")

    def _gen_int(self, ctx, depth):
        if depth <= 0 or self.chance(0.3):
            return self.int_leaf(ctx)
        kind = self.weighted([
            (6, "arith"), (2, "divmod"), (1 if self.allowed("bitwise") else 0, "bit"),
            (1 if self.allowed("minmax-int") else 0, "minmax"), (1, "abs"), (1, "ternary"),
            (1 if self.allowed("cast") else 0, "cast"), (1 if self.allowed("float-to-int") else 0, "fromfloat"),
            (1 if self.helpers_int(ctx) else 0, "helper"),
            (1 if (self.allowed("macro-expr") and not ctx.helper) else 0, "macro"),
            (1, "neg"),
            (0.5 if self.allowed("fixed-int") else 0, "fixed-cast"),
            (0.4 if self.allowed("fixed-int64") else 0, "i64"),
            (1 if (self.vec_helpers and not ctx.helper) else 0, "vhelper"),
            (1 if (self.tmpl_helpers and not ctx.helper) else 0, "thelper"),
        ])
        if kind == "fixed-cast":
            return self.fixed_cast(ctx, depth - 1)
        if kind == "i64":
            return self.i64_to_int(ctx, depth - 1)
        if kind == "vhelper":
            return self.call_vec_helper(ctx, True)
        if kind == "thelper":
            return self.call_template_helper(ctx, True, depth - 1)
        if kind == "arith":
            op = self.pick(["+", "-", "*", "+", "-"])
            return self.ibin(op, self._gen_int(ctx, depth - 1), self._gen_int(ctx, depth - 1))
        if kind == "divmod":
            op = self.pick(["/", "%"])
            return self.ibin(op, self._gen_int(ctx, depth - 1), self.int_divisor(ctx, depth - 1))
        if kind == "bit":
            op = self.pick(["&", "|", "^", ">>", "<<"])
            a = self._gen_int(ctx, depth - 1)
            if a is None:
                return None
            if op in (">>", "<<"):
                if op == "<<" and a.ty != "unsigned":
                    a = X("((unsigned)%s)" % a.text, "unsigned", *as_unsigned(*a.rng_in("int")), tags=a.tags | {"cast"})
                c = self.rng.randint(0, 6)
                return self.ibin(op, a, lit(c, "int"))
            return self.ibin(op, a, self._gen_int(ctx, depth - 1))
        if kind == "minmax":
            a, b = self._gen_int(ctx, depth - 1), self._gen_int(ctx, depth - 1)
            if a is None or b is None:
                return None
            a, b = self.intify(a), self.intify(b)
            t = arith_type(a.ty, b.ty)
            alo, ahi = a.rng_in(t)
            blo, bhi = b.rng_in(t)
            f = self.pick(["min", "max"])
            lo, hi = (min(alo, blo), min(ahi, bhi)) if f == "min" else (max(alo, blo), max(ahi, bhi))
            return self.scope_call(X("%s(%s, %s)" % (f, a.text, b.text), t, lo, hi,
                                 tags=a.tags | b.tags | {"minmax-int"}))
        if kind == "abs":
            a = self._gen_int(ctx, depth - 1)
            if a is None:
                return None
            a = self.intify(a, force_int=True)
            lo, hi = a.lo, a.hi
            if lo == INT_MIN:
                return None
            rlo = 0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
            return self.scope_call(X("abs(%s)" % a.text, "int", rlo, max(abs(lo), abs(hi)), tags=a.tags))
        if kind == "ternary":
            c = self.gen_cond(ctx, depth - 1)
            a, b = self._gen_int(ctx, depth - 1), self._gen_int(ctx, depth - 1)
            if a is None or b is None:
                return None
            t = arith_type(a.ty, b.ty)
            alo, ahi = a.rng_in(t)
            blo, bhi = b.rng_in(t)
            return X("(%s ? %s : %s)" % (c.text, a.text, b.text), t, min(alo, blo), max(ahi, bhi),
                     tags=a.tags | b.tags | c.tags)
        if kind == "cast":
            a = self._gen_int(ctx, depth - 1)
            if a is None:
                return None
            if a.ty == "unsigned" or self.chance(0.3):
                lo, hi = a.rng_in("int")
                form = self.pick(["(int)(%s)", "int(%s)", "static_cast<int>(%s)"])
                return X(form % a.text, "int", lo, hi, tags=a.tags | {"cast"})
            lo, hi = a.rng_in("unsigned")
            return X("(unsigned)(%s)" % a.text, "unsigned", lo, hi, tags=a.tags | {"cast", "unsigned"})
        if kind == "fromfloat":
            return self.float_to_int(ctx, depth - 1)
        if kind == "helper":
            return self.call_helper(ctx, self.helpers_int(ctx), depth - 1)
        if kind == "macro":
            return self.int_macro_call(ctx, depth - 1)
        if kind == "neg":
            a = self._gen_int(ctx, depth - 1)
            if a is None or a.ty != "int" or a.lo == INT_MIN:
                return None
            return X("(-%s)" % a.text, "int", -a.hi, -a.lo, tags=a.tags)
        return None

    def intify(self, a, force_int=False):
        """bool -> int (min, max and abs take no bool); with force_int also unsigned -> int."""
        if a.ty == "bool" or (force_int and a.ty == "unsigned"):
            lo, hi = a.rng_in("int") if a.ty == "unsigned" else (0, 1)
            return X("(int)%s" % (a.text if a.text.startswith("(") else "(%s)" % a.text), "int", lo, hi,
                     tags=a.tags | {"cast"})
        return a

    def int_divisor(self, ctx, depth):
        """An integer >= 1."""
        kind = self.weighted([(4, "lit"), (2, "max"), (1, "plus")])
        if kind == "lit":
            if self.allowed("unsigned") and self.chance(0.2):
                return lit(self.rng.randint(1, 9), "unsigned")
            return lit(self.rng.randint(1, 9), "int")
        e = self._gen_int(ctx, depth)
        if e is None:
            return lit(3, "int")
        if kind == "max" and self.allowed("minmax-int"):
            e = self.intify(e)
            t = arith_type(e.ty, "int")
            lo, hi = e.rng_in(t)
            if t == "unsigned":
                return X("max(1u, %s)" % e.text, "unsigned", max(1, lo), max(1, hi), tags=e.tags | {"minmax-int"})
            return X("max(1, %s)" % e.text, "int", max(1, lo), max(1, hi), tags=e.tags | {"minmax-int"})
        # (|e| % 7 + 1)
        e = self.intify(e, force_int=True)
        if e.lo == INT_MIN:
            return lit(2, "int")
        return X("(abs(%s) %% 7 + 1)" % e.text, "int", 1, 7, tags=e.tags)

    def float_to_int(self, ctx, depth):
        f = self._gen_float(ctx, depth)
        if f is None:
            return None
        f = self.floatify(f)
        self.use("float-to-int")
        if f.ty == "double":
            form = self.pick(["(int)fmin(fmax(%s, -1000.0), 1000.0)", "(fabs(%s) < 1000.0 ? (int)(%s) : 0)"])
        else:
            form = self.pick(["(int)fminf(fmaxf(%s, -1000.0f), 1000.0f)", "(fabsf(%s) < 1000.0f ? (int)(%s) : 0)",
                              "(unsigned)fminf(fabsf(%s), 1000.0f)"])
        if form.startswith("(unsigned)"):
            return X(form % f.text, "unsigned", 0, 1000, tags=f.tags | {"float-to-int", "unsigned"})
        return X(form.replace("%s", f.text), "int", -1000, 1000, tags=f.tags | {"float-to-int"})

    def gen_cond(self, ctx, depth=1):
        kind = self.weighted([(4, "icmp"), (3, "fcmp"), (1, "logic"), (1, "not"), (1, "int"),
                              (1 if self.allowed("elem-cond") else 0, "elem"),
                              (1 if self.allowed("math-exact") else 0, "classify")])
        if depth <= 0:
            kind = self.pick(["icmp", "fcmp"])
        if kind == "classify":
            return self.classify_cond(ctx)
        if kind == "elem":
            e = self.element_read(ctx)
            if e is not None:
                self.use("elem-cond")
                form = self.pick(["%s", "(!%s)", "(%s && %s)", "(%s != 0.0f)"])
                if form == "(%s && %s)":
                    other = self.gen_cond(ctx, 0)
                    return X(form % (e.text, other.text), "bool", 0, 1, tags=e.tags | other.tags | {"elem-cond"})
                return X(form % e.text, "bool", 0, 1, tags=e.tags | {"elem-cond"})
            kind = "icmp"
        if kind == "icmp":
            a = self.gen_int(ctx, max(depth, 1))
            b = self.gen_int(ctx, 0)
            return self.ibin(self.pick(["<", "<=", ">", ">=", "==", "!="]), a, b)
        if kind == "fcmp":
            a = self.gen_float(ctx, max(depth, 1))
            b = self.float_leaf(ctx)
            op = self.pick(["<", "<=", ">", ">=", "!="])
            return X("(%s %s %s)" % (a.text, op, b.text), "bool", 0, 1, tags=a.tags | b.tags)
        if kind == "logic":
            a, b = self.gen_cond(ctx, depth - 1), self.gen_cond(ctx, depth - 1)
            return self.ibin(self.pick(["&&", "||"]), a, b)
        if kind == "not":
            a = self.gen_cond(ctx, depth - 1)
            return X("(!%s)" % a.text, "bool", 0, 1, tags=a.tags)
        a = self.gen_int(ctx, 1)
        return a

    # [SECTION] floating expressions

    def floatify(self, e):
        """A float-typed version of e for a function that takes exactly float or double."""
        if is_float(e.ty):
            return e
        self.use("cast")
        return X("(float)%s" % (e.text if e.text.startswith("(") else "(%s)" % e.text), "float", mag=e.mag,
                 tags=e.tags | {"cast"})

    def float_literal(self, double=None):
        if double is None:
            double = self.allowed("double-local") and self.chance(0.25)
        if double:
            t = self.pick(DOUBLE_LITERALS)
            v = literal_value(t)
            return X(t, "double", mag=abs(v), tags={"double-local"}, absmin=abs(v))
        t = self.pick(FLOAT_LITERALS)
        v = literal_value(t)
        return X(t, "float", mag=abs(v), absmin=abs(v))

    def nonzero_literal(self, ty):
        if ty == "double":
            t = self.pick([d for d in DOUBLE_LITERALS if literal_value(d) != 0])
        else:
            t = self.pick([f for f in FLOAT_LITERALS if literal_value(f) != 0])
        v = literal_value(t)
        return X(t if self.chance(0.8) else "(-%s)" % t, ty, mag=abs(v), absmin=abs(v))

    def float_leaf(self, ctx):
        opts = [(3, lambda: self.float_literal())]
        floats = [v for v in self.visible() if is_float(v.ty) or v.kind in ("alias", "cref")]
        if floats:
            opts.append((7, lambda: self.pick(floats).expr()))
        opts.append((1, lambda: self.int_leaf(ctx)))
        arrays = [a for a in self.local_arrays if any(v.name == a[0] for v in self.visible())]
        if arrays:
            opts.append((2, lambda: self.read_local_array(ctx, self.pick(arrays))))
        if not ctx.helper:
            opts.append((5, lambda: self.read_input(ctx)))
            if self.mask_reads:
                opts.append((2, lambda: self.read_mask(ctx)))
            if ctx.guard and ctx.p_written:
                opts.append((3, lambda: self.read_p(ctx)))
            if self.shared:
                opts.append((4, lambda: self.read_shared(ctx)))
            if self.float_params:
                opts.append((1, lambda: self.pick(self.float_params).expr()))
        if self.float_macros and not ctx.helper:
            opts.append((1, lambda: self.pick(self.float_macros)))
        vec_floats = self.vec_members_of(False)
        if vec_floats:
            opts.append((3, lambda: self.vec_member(*self.pick(vec_floats))))
        return self.weighted(opts)()

    def gen_float(self, ctx, depth=2):
        for _ in range(8):
            e = self._gen_float(ctx, depth)
            if e is not None and e.mag <= SOFT_MAG:
                return e
        return self.float_literal()

    def _gen_float(self, ctx, depth):
        if depth <= 0 or self.chance(0.25):
            return self.float_leaf(ctx)
        kind = self.weighted([
            (8, "arith"), (2, "div"), (1, "neg"), (3, "ternary"), (1 if self.allowed("cast") else 0, "cast"),
            (4, "math"), (1 if self.helpers_float(ctx) else 0, "helper"),
            (1 if (self.allowed("macro-expr") and not ctx.helper) else 0, "macro"), (1, "int"),
            (0.7 if self.allowed("fmaf") else 0, "fma"), (0.7 if self.allowed("intrinsic-rn") else 0, "rn"),
            (1 if (self.vec_helpers and not ctx.helper) else 0, "vhelper"),
            (1 if (self.tmpl_helpers and not ctx.helper) else 0, "thelper"),
            (0.3 if self.allowed("fixed-int64") else 0, "i64"),
        ])
        if kind == "fma":
            return self.fma_call(ctx, depth - 1)
        if kind == "rn":
            return self.rn_call(ctx, depth - 1)
        if kind == "vhelper":
            return self.call_vec_helper(ctx, False)
        if kind == "thelper":
            return self.call_template_helper(ctx, False, depth - 1)
        if kind == "i64":
            return self.i64_to_float(ctx, depth - 1)
        if kind == "arith":
            a, b = self._gen_float(ctx, depth - 1), self._gen_float(ctx, depth - 1)
            if a is None or b is None:
                return None
            return self.fbin(self.pick(["+", "-", "*", "+", "*"]), a, b)
        if kind == "div":
            a = self._gen_float(ctx, depth - 1)
            d = self.float_divisor(ctx, depth - 1)
            if a is None or d is None:
                return None
            return self.fbin("/", a, d)
        if kind == "neg":
            a = self._gen_float(ctx, depth - 1)
            if a is None:
                return None
            if is_int(a.ty):
                if a.ty != "int" or a.lo == INT_MIN:
                    return None
                return X("(-%s)" % a.text, "int", -a.hi, -a.lo, tags=a.tags)
            tags = set(a.tags)
            if a.elem:
                self.use("elem-arith")
                tags.add("elem-arith")
            sign = "-"
            if self.allowed("unary-plus") and self.chance(0.2):
                self.use("unary-plus")
                sign = "+"
            return X("(%s%s)" % (sign, a.text), a.ty, mag=a.mag, tags=tags)
        if kind == "ternary":
            return self.ternary(ctx, depth - 1)
        if kind == "cast":
            a = self._gen_float(ctx, depth - 1)
            if a is None:
                return None
            t = "double" if (self.allowed("double-local") and self.chance(0.3)) else "float"
            form = self.pick(["(%s)%s", "%s(%s)", "static_cast<%s>(%s)"])
            tt = t
            if self.ttype == t and not ctx.helper and self.chance(0.5):
                tt = "T"  # the kernel template's type parameter
            if form == "(%s)%s":
                text = "(%s)%s" % (tt, a.text if a.text.startswith("(") else "(%s)" % a.text)
            else:
                text = form % (tt, a.text)
            tags = a.tags | {"cast"} | ({"double-local"} if t == "double" else set())
            return X(text, t, mag=a.mag, tags=tags)
        if kind == "math":
            return self.math_call(ctx, depth - 1)
        if kind == "helper":
            return self.call_helper(ctx, self.helpers_float(ctx), depth - 1)
        if kind == "macro":
            return self.float_macro_call(ctx, depth - 1)
        return self._gen_int(ctx, depth - 1)

    def fbin(self, op, a, b):
        if a is None or b is None:
            return None
        t = arith_type(a.ty, b.ty)
        if is_int(t):
            return self.ibin(op, a, b)
        if op == "+" or op == "-":
            mag = a.mag + b.mag
        elif op == "*":
            mag = a.mag * b.mag
        else:
            absmin = b.absmin if is_float(b.ty) else max(b.lo, 0)
            mag = a.mag / max(absmin, 1e-30)
        tags = a.tags | b.tags
        if a.elem or b.elem:
            tags.add("elem-arith")
            self.use("elem-arith")
            if a.elem and b.elem:
                tags.add("elem-elem")
                self.use("elem-elem")
            other = b if a.elem else a
            if other.ty == "double":
                tags.add("elem-double")
                self.use("elem-double")
        if t == "double":
            tags.add("double-local")
        return X("(%s %s %s)" % (a.text, op, b.text), t, mag=mag, tags=tags)

    def float_divisor(self, ctx, depth):
        kind = self.weighted([(4, "lit"), (2, "fabs"), (1, "int"), (1, "fmax")])
        if kind == "lit":
            d = self.nonzero_literal("double" if (self.allowed("double-local") and self.chance(0.2)) else "float")
            if d.absmin < 0.25:
                return X("2.0f", "float", mag=2.0, absmin=2.0)
            return d
        if kind == "int":
            return self.int_divisor(ctx, depth)
        a = self.gen_float(ctx, depth)
        a = self.floatify(a)
        if kind == "fmax" and self.allowed("math-f"):
            if a.ty == "double":
                return X("fmax(fabs(%s), 0.5)" % a.text, "double", mag=max(a.mag, 0.5), tags=a.tags, absmin=0.5)
            return X("fmaxf(fabsf(%s), 0.5f)" % a.text, "float", mag=max(a.mag, 0.5), tags=a.tags | {"math-f"},
                     absmin=0.5)
        if a.ty == "double":
            return X("(fabs(%s) + 1.0)" % a.text, "double", mag=a.mag + 1, tags=a.tags, absmin=1.0)
        return X("(fabsf(%s) + 1.0f)" % a.text, "float", mag=a.mag + 1, tags=a.tags | {"math-f"}, absmin=1.0)

    def ternary(self, ctx, depth):
        c = self.gen_cond(ctx, max(depth - 1, 0))
        shapes = [(3, "ff")]
        if self.allowed("ternary-elem"):
            shapes.append((2, "elem-lit"))
        shapes.append((1, "lit-f"))
        shape = self.weighted(shapes)
        if shape == "elem-lit":
            e = self.element_read(ctx)
            if e is None:
                shape = "ff"
            else:
                other = self.weighted([(2, lambda: lit(self.rng.randint(0, 2), "int")),
                                       (2, lambda: self.float_literal()), (1, lambda: self.float_leaf(ctx))])()
                a, b = (e, other) if self.chance(0.5) else (other, e)
        if shape == "ff":
            a, b = self._gen_float(ctx, depth), self._gen_float(ctx, depth)
        elif shape == "lit-f":
            a = self.weighted([(1, lambda: lit(self.rng.randint(0, 3), "int")), (2, lambda: self.float_literal())])()
            b = self._gen_float(ctx, depth)
            if self.chance(0.5):
                a, b = b, a
        if a is None or b is None:
            return None
        t = arith_type(a.ty, b.ty)
        tags = a.tags | b.tags | c.tags
        if a.elem or b.elem:
            tags.add("ternary-elem")
            self.use("ternary-elem")
            other = b if a.elem else a
            if is_int(other.ty):
                tags.add("ternary-elem-int")
                self.use("ternary-elem-int")
        if {a.ty, b.ty} == {"float", "double"}:
            tags.add("ternary-double")
            self.use("ternary-double")
        if is_int(t):
            alo, ahi = a.rng_in(t)
            blo, bhi = b.rng_in(t)
            return X("(%s ? %s : %s)" % (c.text, a.text, b.text), t, min(alo, blo), max(ahi, bhi), tags=tags)
        # Both elements of writable arrays: the result is an lvalue in C++ too.
        both = a.elem and b.elem
        return X("(%s ? %s : %s)" % (c.text, a.text, b.text), t, mag=max(a.mag, b.mag), tags=tags, elem=both)

    def scope_call(self, e):
        """Now and then a call written with ::, as in ::floor(x) or ::min(a, b) (CUDA's global overloads)."""
        if e is None or not self.allowed("scoped-call") or not self.chance(0.08):
            return e
        if not re.match(r"[A-Za-z_]\w*\(", e.text):
            return e
        self.use("scoped-call")
        return X("::" + e.text, e.ty, e.lo, e.hi, mag=e.mag, tags=e.tags | {"scoped-call"}, elem=e.elem,
                 absmin=e.absmin)

    def math_call(self, ctx, depth):
        return self.scope_call(self._math_call(ctx, depth))

    def _math_call(self, ctx, depth):
        kinds = []
        if self.allowed("math-f"):
            kinds += [(3, "f1"), (2, "fminmax"), (1, "sqrtf")]
        if self.allowed("math-overload"):
            kinds += [(3, "o1"), (1, "fminmax-o"), (1, "sqrt-o")]
        if self.allowed("abs-float"):
            kinds += [(2, "abs")]
        if self.allowed("minmax-float"):
            kinds += [(2, "minmax")]
        if self.allowed("math-exact"):
            kinds += [(3, "exact")]
        if not kinds:
            return self._gen_float(ctx, depth)
        kind = self.weighted(kinds)
        a = self._gen_float(ctx, depth)
        if a is None:
            return None
        if kind == "exact":
            return self.exact_call(a)
        if kind == "f1":
            f = self.pick(["fabsf", "floorf", "ceilf", "truncf", "roundf"])
            self.use("math-f")
            return X("%s(%s)" % (f, a.text), "float", mag=a.mag + 1, tags=a.tags | {"math-f"})
        if kind == "sqrtf":
            self.use("math-f")
            return X("sqrtf(fabsf(%s))" % a.text, "float", mag=max(a.mag, 1.0) ** 0.5 + 1,
                     tags=a.tags | {"math-f"})
        if kind == "fminmax":
            self.use("math-f")
            f = self.pick(["fminf", "fmaxf"])
            k = self.nonzero_literal("float")
            args = (a.text, k.text) if self.chance(0.5) else (k.text, a.text)
            return X("%s(%s, %s)" % ((f,) + args), "float", mag=max(a.mag, k.mag), tags=a.tags | {"math-f"})
        # The overloaded names take exactly float or double.
        if not is_float(a.ty):
            a = self.floatify(a) if self.chance(0.7) else X("(double)(%s)" % a.text, "double", mag=a.mag,
                                                            tags=a.tags | {"cast", "double-local"})
        tags = set(a.tags)
        if a.ty == "float":
            tags.add("math-overload")
        if kind == "o1":
            f = self.pick(["fabs", "floor", "ceil", "trunc", "round"])
            if a.ty == "float":
                self.use("math-overload")
            return X("%s(%s)" % (f, a.text), a.ty, mag=a.mag + 1, tags=tags)
        if kind == "sqrt-o":
            if a.ty == "float":
                self.use("math-overload")
            return X("sqrt(fabs(%s))" % a.text, a.ty, mag=max(a.mag, 1.0) ** 0.5 + 1, tags=tags)
        if kind == "fminmax-o":
            if a.ty == "float":
                self.use("math-overload")
            f = self.pick(["fmin", "fmax"])
            k = self.nonzero_literal(a.ty)
            args = (a.text, k.text) if self.chance(0.5) else (k.text, a.text)
            return X("%s(%s, %s)" % ((f,) + args), a.ty, mag=max(a.mag, k.mag), tags=tags)
        if kind == "abs":
            self.use("abs-float")
            return X("abs(%s)" % a.text, a.ty, mag=a.mag, tags=tags | {"abs-float"})
        # min / max of floats: (float, float), (double, double), (float, double), (double, float)
        self.use("minmax-float")
        f = self.pick(["min", "max"])
        k = self.nonzero_literal(self.pick(["float", "double"]) if self.allowed("double-local") else "float")
        t = arith_type(a.ty, k.ty)
        args = (a.text, k.text) if self.chance(0.5) else (k.text, a.text)
        return X("%s(%s, %s)" % ((f,) + args), t, mag=max(a.mag, k.mag), tags=tags | {"minmax-float"})

    # [SECTION] fixed-width integers, int64_t / uint64_t, vector types, intrinsics

    def fixed_cast(self, ctx, depth):
        """A cast to a fixed-width integer type: (uint8_t)(e) (modular, as every unsigned conversion),
        (int16_t)(e) of an e in range (a signed conversion out of range is the implementation's), ..."""
        a = self._gen_int(ctx, depth)
        if a is None:
            return None
        kinds = ["uint8_t", "int16_t", "int32_t", "uint16_t"] + (["uint32_t"] if self.allowed("unsigned") else [])
        kind = self.pick(kinds)
        form = self.pick(["(%s)(%s)", "static_cast<%s>(%s)", "%s(%s)"])
        text = form % (kind, a.text)
        tags = a.tags | {"fixed-int", "cast"}
        lo, hi = (a.lo, a.hi) if a.ty == "unsigned" else a.rng_in("int")
        if kind in ("uint8_t", "uint16_t"):
            m = 255 if kind == "uint8_t" else 65535
            if not (0 <= lo and hi <= m):
                lo, hi = 0, m
            self.use("fixed-int")
            return X(text, "int", lo, hi, tags=tags)  # promoted to int wherever it is used
        if kind == "int16_t":
            lo, hi = a.rng_in("int")
            if lo < -32768 or hi > 32767:
                return None
            self.use("fixed-int")
            return X(text, "int", lo, hi, tags=tags)
        self.use("fixed-int")
        if kind == "int32_t":
            lo, hi = a.rng_in("int")
            return X(text, "int", lo, hi, tags=tags)
        lo, hi = a.rng_in("unsigned")
        self.use("unsigned")
        return X(text, "unsigned", lo, hi, tags=tags | {"unsigned"})

    def fixed_int_decl(self, ctx, out, indent, name):
        kinds = ["int32_t", "int16_t", "uint8_t"] + (["uint32_t"] if self.allowed("unsigned") else [])
        kind = self.pick(kinds)
        if kind == "int32_t":
            e = self.gen_int(ctx, 2, -100000, 100000)
            lo, hi = e.rng_in("int")
            ty = "int"
        elif kind == "int16_t":
            e = self.gen_int(ctx, 2, -32768, 32767)
            lo, hi = e.rng_in("int")
            ty = "int"
        elif kind == "uint8_t":
            e = self.gen_int(ctx, 2)  # any value: converted modulo 256
            lo, hi = (e.lo, e.hi) if e.ty == "unsigned" else e.rng_in("int")
            if not (0 <= lo and hi <= 255):
                lo, hi = 0, 255
            ty = "int"
        else:
            e = self.gen_int(ctx, 2)
            lo, hi = e.rng_in("unsigned")
            ty = "unsigned"
            self.use("unsigned")
        self.use("fixed-int")
        const = "const " if self.chance(0.15) else ""
        self.line(out, indent, "%s%s %s = %s;" % (const, kind, name, e.text))
        self.declare(Var(name, ty, lo, hi, tags={"fixed-int"}))  # its C++ type may be narrower than int
        return True

    # int64_t and uint64_t: expressions of their own, exact ranges, never overflowing int64_t
    # (uint64_t wraps, as defined); an int comes out of them by % or when the range fits.

    @staticmethod
    def c64(t):
        return "int64_t" if t == "int64" else "uint64_t"

    def to64(self, e, t):
        """The range of e (an integer of any width) converted to t, or None when the conversion is the
        implementation's (a uint64_t above INT64_MAX to int64_t)."""
        if e.ty in ("int64", "uint64"):
            lo, hi = e.lo, e.hi
        elif e.ty == "unsigned":
            lo, hi = e.lo, e.hi
        else:
            lo, hi = e.rng_in("int") if e.ty != "bool" else (0, 1)
        if t == "int64":
            if hi > INT64_MAX:
                return None
            return lo, hi
        if lo >= 0:
            return lo, hi
        if hi < 0:
            return lo + 2 ** 64, hi + 2 ** 64
        return 0, U64MAX

    def i64_leaf(self, ctx, t):
        vs = [v for v in self.visible() if v.ty == t]
        kind = self.weighted([(3 if vs else 0, "var"), (3, "cast"), (1, "lit")])
        if kind == "var":
            v = self.pick(vs)
            return X(v.name, t, v.lo, v.hi, mag=1.0, tags={"fixed-int64"})
        if kind == "lit":
            v = self.pick([1000003, 65537, 4294967296, 1 << 40, 123456789012, 3])
            return X("(%s)%d" % (self.c64(t), v), t, v, v, mag=1.0, tags={"fixed-int64", "cast"})
        e = self._gen_int(ctx, 1)
        if e is None:
            return None
        r = self.to64(e, t)
        if r is None:
            return None
        text = e.text if e.text.startswith("(") else "(%s)" % e.text
        return X("(%s)%s" % (self.c64(t), text), t, r[0], r[1], mag=1.0, tags=e.tags | {"fixed-int64", "cast"})

    def gen_i64(self, ctx, depth, t=None):
        if t is None:
            t = "uint64" if (self.allowed("unsigned") and self.chance(0.3)) else "int64"
        for _ in range(8):
            e = self._gen_i64(ctx, depth, t)
            if e is not None:
                self.use("fixed-int64")
                return e
        self.use("fixed-int64")
        return X("(%s)7" % self.c64(t), t, 7, 7, mag=1.0, tags={"fixed-int64", "cast"})

    def _gen_i64(self, ctx, depth, t):
        if depth <= 0 or self.chance(0.3):
            return self.i64_leaf(ctx, t)
        op = self.pick(["+", "-", "*", "*", "/", "%", ">>"] + (["<<"] if t == "uint64" else []))
        a = self._gen_i64(ctx, depth - 1, t)
        if a is None:
            return None
        if op in ("<<", ">>"):
            c = self.rng.randint(1, 40)
            lo, hi = (a.lo >> c, a.hi >> c) if op == ">>" else (a.lo << c, a.hi << c)
            if hi > U64MAX:
                lo, hi = 0, U64MAX
            return X("(%s %s %d)" % (a.text, op, c), t, lo, hi, mag=1.0, tags=a.tags)
        if op in ("/", "%"):
            d = self.rng.randint(1, 100000)
            blo = bhi = d
            btext = str(d) if self.chance(0.5) else "(%s)%d" % (self.c64(t), d)
            btags = set()
        else:
            b = self._gen_i64(ctx, depth - 1, t) if self.chance(0.5) else self._gen_int(ctx, depth - 1)
            if b is None:
                return None
            r = self.to64(b, t)
            if r is None:
                return None
            blo, bhi = r
            btext, btags = b.text, b.tags
        alo, ahi = a.lo, a.hi
        if op == "+":
            lo, hi = alo + blo, ahi + bhi
        elif op == "-":
            lo, hi = alo - bhi, ahi - blo
        elif op == "*":
            p = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
            lo, hi = min(p), max(p)
        else:
            lo, hi = div_mod_range(op, alo, ahi, blo, bhi)
        if t == "int64":
            if lo < INT64_MIN or hi > INT64_MAX:
                return None
        elif lo < 0 or hi > U64MAX:
            lo, hi = 0, U64MAX
        return X("(%s %s %s)" % (a.text, op, btext), t, lo, hi, mag=1.0, tags=a.tags | btags)

    def i64_to_int(self, ctx, depth):
        e = self.gen_i64(ctx, depth)
        tags = e.tags | {"fixed-int64", "cast"}
        if INT_MIN <= e.lo and e.hi <= INT_MAX and self.chance(0.5):
            return X("(int)%s" % (e.text if e.text.startswith("(") else "(%s)" % e.text), "int", e.lo, e.hi, tags=tags)
        k = self.pick([7, 1000, 997, 65536, 100003])
        lo, hi = div_mod_range("%", e.lo, e.hi, k, k)
        if self.chance(0.3):
            return X("(%s > %d)" % (e.text, self.rng.randint(-1000, 1000000)), "bool", 0, 1, tags=tags)
        return X("(int)(%s %% %d)" % (e.text, k), "int", lo, hi, tags=tags)

    def i64_to_float(self, ctx, depth):
        e = self.gen_i64(ctx, depth)
        tags = e.tags | {"fixed-int64", "cast"}
        big = max(abs(e.lo), abs(e.hi))
        kind = self.pick(["float", "mod", "double"])
        if kind == "float" and big <= SOFT_MAG:
            return X("(float)%s" % (e.text if e.text.startswith("(") else "(%s)" % e.text), "float", mag=float(big),
                     tags=tags)
        if kind == "double":
            return X("((double)%s * 1e-12)" % (e.text if e.text.startswith("(") else "(%s)" % e.text), "double",
                     mag=big * 1e-12 + 1e-12, tags=tags | {"double-local"})
        return X("(float)(%s %% 100003)" % e.text, "float", mag=100003.0, tags=tags)

    def int64_decl(self, ctx, out, indent, name):
        e = self.gen_i64(ctx, 2)
        const = "const " if self.chance(0.15) else ""
        self.line(out, indent, "%s%s %s = %s;" % (const, self.c64(e.ty), name, e.text))
        self.declare(Var(name, e.ty, e.lo, e.hi, kind="fixed", tags={"fixed-int64"}))
        return True

    # Vector types: locals made with make_int2(...) and friends, their members read and written.

    def vec_member(self, v, m):
        mem = v.members[m]
        if is_int(mem.ty):
            return X("%s.%s" % (v.name, m), mem.ty, mem.lo, mem.hi, tags=set(v.tags))
        return X("%s.%s" % (v.name, m), mem.ty, mag=mem.mag, tags=set(v.tags))

    def vec_members_of(self, want_int):
        return [(v, m) for v in self.visible() if v.kind == "vec" for m, mem in v.members.items()
                if is_int(mem.ty) == want_int]

    def vec_args(self, ctx, vt):
        """The arguments of vt's maker (or of dim3(...)): (texts, members)."""
        _, mty, mems = VECTOR_TYPES[vt]
        texts, members = [], {}
        for m in mems:
            if mty == "int":
                e = self.gen_int(ctx, 1, -100000, 100000)
                members[m] = Member("int", -100000, 100000)
            elif mty == "unsigned":
                e = self.gen_int(ctx, 1, 0, 100000)
                members[m] = Member("unsigned", 0, 100000)
            else:
                e = self.gen_float(ctx, 1)
                members[m] = Member("float", mag=e.mag)
            texts.append(e.text)
        return texts, members

    def vec_temp(self, ctx, vt):
        """A temporary of type vt: make_float2(a, b), dim3(a, b): (text, members)."""
        texts, members = self.vec_args(ctx, vt)
        if vt == "dim3":
            n = self.rng.randint(1, 3)
            for m in "xyz"[n:]:
                members[m] = Member("unsigned", 1, 1)
            return "dim3(%s)" % ", ".join(texts[:n]), members
        return "%s(%s)" % (VECTOR_TYPES[vt][0], ", ".join(texts)), members

    def vec_decl(self, ctx, out, indent, name):
        types = ["int2", "int3", "float2", "float4"] + (["uint3", "dim3"] if self.allowed("unsigned") else [])
        same = [v for v in self.visible() if v.kind == "vec" and v.ty in types]
        self.use("vector-type")
        if same and self.chance(0.2):
            # A copy of another vector local.
            src = self.pick(same)
            self.line(out, indent, "%s %s = %s;" % (src.ty, name, src.name))
            v = self.declare(Var(name, src.ty, kind="vec", tags={"vector-type"}))
            v.members = {m: Member(mem.ty, mem.lo, mem.hi, mem.mag) for m, mem in src.members.items()}
            v.writable = True
            return True
        vt = self.pick(types)
        text, members = self.vec_temp(ctx, vt)
        if vt == "dim3":
            args = text[len("dim3("):-1]
            form = self.pick(["dim3 %s(%s);", "dim3 %s = dim3(%s);"])
            self.line(out, indent, form % (name, args))
            # Members written later keep within [0, 100000]; those left out are 1.
            members = {m: Member("unsigned", 0, 100000) for m in "xyz"}
        else:
            self.line(out, indent, "%s %s = %s;" % (vt, name, text))
        v = self.declare(Var(name, vt, kind="vec", tags={"vector-type"}))
        v.members = members
        v.writable = True
        return True

    def dim3_copy_decl(self, ctx, out, indent, name):
        """dim3 t = threadIdx; dim3 b = blockDim; uint3 i = blockIdx; (read-only copies)."""
        if not self.builtin_ints or ctx.helper:
            return False
        bx, by, gx, gy = self.bx, self.by, self.gx, self.gy
        ranges = {"threadIdx": [(0, bx - 1), (0, by - 1), (0, 0)], "blockDim": [(bx, bx), (by, by), (1, 1)],
                  "blockIdx": [(0, gx - 1), (0, gy - 1), (0, 0)], "gridDim": [(gx, gx), (gy, gy), (1, 1)]}
        src = self.pick(["threadIdx", "threadIdx", "blockDim", "blockIdx", "gridDim"])
        ty = self.pick(["dim3", "dim3", "const dim3"] + (["uint3"] if src in ("threadIdx", "blockIdx") else []))
        form = self.pick(["%s %s = %s;", "%s %s = %s;", "%s %s(%s);"])
        self.line(out, indent, form % (ty, name, src))
        self.use("dim3-copy", "unsigned")
        v = self.declare(Var(name, ty.replace("const ", ""), kind="vec", tags={"dim3-copy", "unsigned"}))
        v.members = {m: Member("unsigned", lo, hi) for m, (lo, hi) in zip("xyz", ranges[src])}
        v.writable = False
        return True

    def vec_assign_stmt(self, ctx, out, indent):
        choices = [(v, m) for v in self.visible() if v.kind == "vec" and v.writable for m in v.members]
        if not choices:
            return False
        v, m = self.pick(choices)
        mem = v.members[m]
        if is_int(mem.ty):
            e = self.gen_int(ctx, 2, mem.lo, mem.hi)
            self.line(out, indent, "%s.%s = %s;" % (v.name, m, e.text))
            return True
        op = self.pick(["=", "+=", "="])
        r = self.gen_float(ctx, 2)
        self.steer(mem, op, r, ctx)
        self.line(out, indent, "%s.%s %s %s;" % (v.name, m, op, r.text))
        return True

    # __device__ helpers taking a vector type by value: fixed forms, their results computed here.

    def make_vec_helpers(self):
        out = []
        if not (self.allowed("vector-param") and self.allowed("vector-type")) or not self.chance(0.25):
            return out
        forms = ["float2", "int3", "float4", "int2"] + (["dim3"] if self.allowed("unsigned") else [])
        for hi, vt in enumerate(self.rng.sample(forms, self.rng.randint(1, 2))):
            name = self.pick(["vsum", "vdot", "combine", "reduce"]) + "_v%d" % hi
            const = self.pick(["", "", "const "])
            if vt == "float2":
                text = "__device__ float %s(%sfloat2 v)\n{\n    return v.x * 0.5f + v.y;\n}" % (name, const)
                h = {"ret": "float", "calc": lambda mm, ex: (0, 0, 0.5 * mm["x"].mag + mm["y"].mag)}
            elif vt == "float4":
                text = ("__device__ float %s(%sfloat4 v, float s)\n{\n    return v.x * s + v.y - v.z * 0.25f + v.w;\n}"
                        % (name, const))
                h = {"ret": "float", "extra": True,
                     "calc": lambda mm, ex: (0, 0, mm["x"].mag * ex.mag + mm["y"].mag + mm["z"].mag + mm["w"].mag)}
            elif vt == "int3":
                text = "__device__ int %s(%sint3 v)\n{\n    return v.x - v.y + v.z;\n}" % (name, const)
                h = {"ret": "int", "calc": lambda mm, ex: (mm["x"].lo - mm["y"].hi + mm["z"].lo,
                                                          mm["x"].hi - mm["y"].lo + mm["z"].hi, 0)}
            elif vt == "int2":
                text = "__device__ int %s(%sint2 v)\n{\n    return v.x > v.y ? v.x : v.y;\n}" % (name, const)
                h = {"ret": "int", "calc": lambda mm, ex: (max(mm["x"].lo, mm["y"].lo), max(mm["x"].hi, mm["y"].hi), 0)}
            else:
                text = "__device__ unsigned %s(%sdim3 d)\n{\n    return d.x + 2u * d.y + d.z;\n}" % (name, const)
                h = {"ret": "unsigned", "calc": lambda mm, ex: (mm["x"].lo + 2 * mm["y"].lo + mm["z"].lo,
                                                               mm["x"].hi + 2 * mm["y"].hi + mm["z"].hi, 0)}
            h.update(name=name, vt=vt)
            self.vec_helpers.append(h)
            self.use("vector-param", "vector-type")
            out.append(text)
        return out

    def vec_arg(self, ctx, vt):
        """An argument of type vt: a local of it, a temporary, or (dim3) threadIdx, blockDim, ...: (text, members)."""
        locals_ = [v for v in self.visible() if v.kind == "vec" and (v.ty == vt or (vt == "dim3" and v.ty == "uint3"))]
        if locals_ and self.chance(0.5):
            v = self.pick(locals_)
            return v.name, v.members
        if vt == "dim3" and self.builtin_ints and self.chance(0.5):
            bx, by, gx, gy = self.bx, self.by, self.gx, self.gy
            src = self.pick(["threadIdx", "blockDim", "blockIdx", "gridDim"])
            r = {"threadIdx": [(0, bx - 1), (0, by - 1), (0, 0)], "blockDim": [(bx, bx), (by, by), (1, 1)],
                 "blockIdx": [(0, gx - 1), (0, gy - 1), (0, 0)], "gridDim": [(gx, gx), (gy, gy), (1, 1)]}[src]
            return src, {m: Member("unsigned", lo, hi) for m, (lo, hi) in zip("xyz", r)}
        return self.vec_temp(ctx, vt)

    def call_vec_helper(self, ctx, want_int):
        hs = [h for h in self.vec_helpers if is_int(h["ret"]) == want_int]
        if not hs or ctx.helper:
            return None
        h = self.pick(hs)
        text, members = self.vec_arg(ctx, h["vt"])
        extra = None
        args = [text]
        if h.get("extra"):
            extra = self.gen_float(ctx, 1)
            args.append(extra.text)
        lo, hi, mag = h["calc"](members, extra)
        tags = {"vector-param", "vector-type"} | (extra.tags if extra else set())
        if h["ret"] == "float":
            return X("%s(%s)" % (h["name"], ", ".join(args)), "float", mag=mag, tags=tags)
        return X("%s(%s)" % (h["name"], ", ".join(args)), h["ret"], lo, hi, tags=tags)

    # __device__ function templates, each called at one type (TileScope writes out one instance).

    TEMPLATE_FORMS = {
        "twice": ("{T} {name}({T} x)", "return x + x;", 1),
        "sq": ("{T} {name}({T} x)", "return x * x;", 1),
        "pick": ("{T} {name}(bool c, {T} a, {T} b)", "return c ? a : b;", 2),
        "sum3": ("{T} {name}({T} a, {T} b, {T} c)", "return a + b + c;", 3),
    }

    def make_template_helpers(self):
        if not self.allowed("template-helper") or not self.chance(0.2):
            return
        for i in range(self.rng.randint(1, 2)):
            form = self.pick(sorted(self.TEMPLATE_FORMS))
            ty = self.pick(["float", "float", "int"] + (["double"] if self.allowed("double-local") else []))
            name = "%s_t%d" % (form, i)
            proto = self.allowed("template-prototype") and self.chance(0.3)
            self.tmpl_helpers.append({"name": name, "form": form, "ty": ty, "proto": proto,
                                      "kw": self.pick(["typename", "typename", "class"]),
                                      "qual": self.pick(["__device__", "__device__", "__device__ inline",
                                                         "__device__ __forceinline__"])})
            self.use("template-helper")
            if proto:
                self.use("template-prototype")
        if self.allowed("template-unused") and self.chance(0.15):
            # Declared ahead and never called: defined after the kernel, or never.
            self.tmpl_helpers.append({"name": "unused_t", "form": "twice", "ty": None, "proto": True, "unused": True,
                                      "defined": self.chance(0.5), "kw": "typename", "qual": "__device__"})
            self.use("template-unused")

    def template_texts(self, h):
        """(the prototype or None, the definition or None)."""
        sig, body, _ = self.TEMPLATE_FORMS[h["form"]]
        head = "template <%s T>\n%s %s" % (h["kw"], h["qual"], sig.format(T="T", name=h["name"]))
        definition = head + "\n{\n    " + body + "\n}"
        if h.get("unused"):
            return head + ";", definition if h["defined"] else None
        if h["proto"]:
            return head + ";", definition
        return None, definition

    def as_type(self, e, ty):
        """e converted to exactly ty (a deduced template argument must be of it). An integer holding a
        fixed-width one may be of a type narrower than int (uint16_t(x), an int16_t local): cast too."""
        if e.ty == ty and not (is_int(ty) and "fixed-int" in e.tags):
            return e
        text = "(%s)%s" % (ty, e.text if e.text.startswith("(") else "(%s)" % e.text)
        if is_int(ty):
            lo, hi = e.rng_in("int") if e.ty != "bool" else (0, 1)
            return X(text, ty, lo, hi, tags=e.tags | {"cast"})
        return X(text, ty, mag=e.mag, tags=e.tags | {"cast"})

    def call_template_helper(self, ctx, want_int, depth):
        hs = [h for h in self.tmpl_helpers if not h.get("unused") and is_int(h["ty"]) == want_int]
        if not hs or ctx.helper:
            return None
        h = self.pick(hs)
        ty, form = h["ty"], h["form"]
        n = self.TEMPLATE_FORMS[form][2]
        bound = 10000 if form == "sq" else 100000
        args = []
        for _ in range(n):
            e = self.gen_int(ctx, depth, -bound, bound) if ty == "int" else self.gen_float(ctx, depth)
            args.append(self.as_type(e, ty))
        tags = {"template-helper"} | ({"template-prototype"} if h["proto"] else set())
        for a in args:
            tags |= a.tags
        texts = [a.text for a in args]
        if form == "pick":
            c = self.gen_cond(ctx, 0)
            texts = [c.text] + texts
            tags |= c.tags
        text = "%s(%s)" % (h["name"], ", ".join(texts))
        if ty == "int":
            lo0, hi0 = args[0].lo, args[0].hi
            if form == "twice":
                lo, hi = 2 * lo0, 2 * hi0
            elif form == "sq":
                m = max(abs(lo0), abs(hi0))
                lo, hi = (0 if lo0 <= 0 <= hi0 else min(lo0 * lo0, hi0 * hi0)), m * m
            elif form == "pick":
                lo, hi = min(a.lo for a in args), max(a.hi for a in args)
            else:
                lo, hi = sum(a.lo for a in args), sum(a.hi for a in args)
            return X(text, "int", lo, hi, tags=tags)
        m0 = args[0].mag
        mag = {"twice": 2 * m0, "sq": m0 * m0, "pick": max(a.mag for a in args),
               "sum3": sum(a.mag for a in args)}[form]
        return X(text, ty, mag=mag, tags=tags)

    def use_template_helpers(self, ctx, body, ind):
        """Every template helper not called yet is called here, so that each is instantiated once."""
        text = "\n".join(body)
        for h in self.tmpl_helpers:
            if h.get("unused") or re.search(r"\b%s\(" % h["name"], text):
                continue
            saved, self.tmpl_helpers = self.tmpl_helpers, [h]
            e = self.call_template_helper(ctx, is_int(h["ty"]), 1)
            self.tmpl_helpers = saved
            p = self.place_text(self.p_place)
            self.line(body, ind, "%s = %s + %s * 0.125f;" % (p, p, e.text))
            self.p_place.mag += e.mag * 0.125 if not is_int(e.ty) else max(abs(e.lo), abs(e.hi)) * 0.125

    # Correctly rounded functions and intrinsics.

    def fma_call(self, ctx, depth):
        a, b, c = self._gen_float(ctx, depth), self._gen_float(ctx, depth), self._gen_float(ctx, depth)
        if a is None or b is None or c is None:
            return None
        f = self.pick(["fmaf", "fmaf", "__fmaf_rn"])
        self.use("fmaf")
        tags = a.tags | b.tags | c.tags | {"fmaf"}
        if f == "__fmaf_rn" and self.allowed("intrinsic-rn-scoped") and self.allowed("scoped-call") and self.chance(0.1):
            self.use("intrinsic-rn-scoped", "scoped-call")
            f = "::" + f
            tags |= {"intrinsic-rn-scoped", "scoped-call"}
        return X("%s(%s, %s, %s)" % (f, a.text, b.text, c.text), "float", mag=a.mag * b.mag + c.mag, tags=tags)

    def rn_call(self, ctx, depth):
        f = self.pick(["__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__fadd_rn", "__fmul_rn", "__frcp_rn",
                       "__fsqrt_rn"])
        a = self._gen_float(ctx, depth)
        if a is None:
            return None
        if f == "__frcp_rn":
            d = self.float_divisor(ctx, depth)
            e = X("__frcp_rn(%s)" % d.text, "float", mag=1.0 / max(d.absmin if is_float(d.ty) else max(d.lo, 1), 0.25),
                  tags=d.tags | {"intrinsic-rn"})
        elif f == "__fsqrt_rn":
            e = X("__fsqrt_rn(fabsf(%s))" % a.text, "float", mag=max(a.mag, 1.0) ** 0.5 + 1,
                  tags=a.tags | {"intrinsic-rn"})
        else:
            b = self.float_divisor(ctx, depth) if f == "__fdiv_rn" else self._gen_float(ctx, depth)
            if b is None:
                return None
            if f == "__fdiv_rn":
                mag = a.mag / max(b.absmin if is_float(b.ty) else max(b.lo, 1), 1e-30)
            elif f == "__fmul_rn":
                mag = a.mag * b.mag
            else:
                mag = a.mag + b.mag
            e = X("%s(%s, %s)" % (f, a.text, b.text), "float", mag=mag, tags=a.tags | b.tags | {"intrinsic-rn"})
        self.use("intrinsic-rn")
        if self.allowed("intrinsic-rn-scoped") and self.allowed("scoped-call") and self.chance(0.1):
            self.use("intrinsic-rn-scoped", "scoped-call")
            e.text = "::" + e.text
            e.tags |= {"intrinsic-rn-scoped", "scoped-call"}
        return e

    def exact_call(self, a):
        """One of CUDA's correctly rounded single-precision functions of a (0 ulp in CUDA's tables)."""
        f = self.pick(["rintf", "nearbyintf", "fmodf", "remainderf", "copysignf", "fdimf", "ldexpf", "scalbnf",
                       "logbf", "ilogbf", "nextafterf", "lrintf", "lroundf", "llrintf", "llroundf", "truncf",
                       "fabsf", "ceilf"])
        tags = a.tags | {"math-exact"}
        self.use("math-exact")
        if f in ("rintf", "nearbyintf", "truncf", "fabsf", "ceilf"):
            return X("%s(%s)" % (f, a.text), "float", mag=a.mag + 1, tags=tags)
        if f in ("fmodf", "remainderf"):
            k = self.nonzero_literal("float")
            return X("%s(%s, %s)" % (f, a.text, k.text), "float", mag=min(a.mag, k.mag), tags=tags)
        if f == "copysignf":
            k = self.pick(["1.0f", "-0.0f", "0.0f", "-2.5f"])
            return X("copysignf(%s, %s)" % (a.text, k), "float", mag=a.mag, tags=tags)
        if f == "fdimf":
            k = self.float_literal(double=False)
            args = (a.text, k.text) if self.chance(0.5) else (k.text, a.text)
            return X("fdimf(%s, %s)" % args, "float", mag=a.mag + k.mag, tags=tags)
        if f in ("ldexpf", "scalbnf"):
            n = self.rng.randint(-6, 6)
            return X("%s(%s, %d)" % (f, a.text, n), "float", mag=a.mag * 2.0 ** max(n, 0), tags=tags)
        if f == "nextafterf":
            k = self.pick(["0.0f", "1.0f", "-1.0f", "1e30f"])
            return X("nextafterf(%s, %s)" % (a.text, k), "float", mag=a.mag + 1e-30, tags=tags)
        # Of a value kept finite and >= 1 (logb(0), ilogb of an infinity or a NaN are edge cases).
        safe = "(fminf(fabsf(%s), 1e30f) + 1.0f)" % a.text
        if f == "logbf":
            return X("logbf(%s)" % safe, "float", mag=100.0, tags=tags)
        if f == "ilogbf":
            return X("ilogbf(%s)" % safe, "int", 0, 100, tags=tags)
        # To an integer: clamped first (NaN-safe: fmaxf(NaN, c) is c).
        return X("(int)%s(fminf(fmaxf(%s, -1000.0f), 1000.0f))" % (f, a.text), "int", -1000, 1000,
                 tags=tags | {"cast"})

    def classify_cond(self, ctx):
        a = self.floatify(self.gen_float(ctx, 1))
        f = self.pick(["isnan", "isinf", "isfinite", "signbit"])
        self.use("math-exact")
        form = self.pick(["%s(%s)", "!%s(%s)"])
        arg = a.text
        if f == "signbit":  # a NaN's sign is not the same everywhere: fmin(NaN, c) is c
            arg = "fminf(%s, 1e30f)" % arg if a.ty == "float" else "fmin(%s, 1e30)" % arg
        return X(form % (f, arg), "bool", 0, 1, tags=a.tags | {"math-exact"})

    # [SECTION] array reads

    def read_input(self, ctx):
        """An element of N, by an index that is in range."""
        n = self.nname
        size = self.size_text
        kinds = [(2, "guarded"), (1, "clamp"), (1, "mod")]
        if ctx.guard:
            kinds.append((4, "own"))
        kind = self.weighted(kinds)
        elem = self.writable_n
        tags = {"writable-N"} if elem else set()
        if kind == "own":
            return X("%s[%s]" % (n, ctx.guard), "float", mag=2.0, elem=elem, tags=tags)
        if kind == "guarded":
            if self.dims == 2 and self.row_col is not None and self.chance(0.6):
                row, col = self.row_col
                di, dj = self.rng.randint(-2, 2), self.rng.randint(-2, 2)
                r_, c_ = self.offset(row, di), self.offset(col, dj)
                cond = "(%s >= 0 && %s < %s && %s >= 0 && %s < %s)" % (r_, r_, self.hname, c_, c_, self.wname)
                idx = "(%s) * %s + %s" % (r_, self.wname, c_)
            else:
                base = self.own_linear()
                k = self.offset(base, self.rng.randint(-3, 3))
                cond = "(%s >= 0 && %s < %s)" % (k, k, size)
                idx = k
            zero = self.pick(["0.0f", "0", "0.5", "1.0f", "0.0f"])
            other = X(zero, "int" if zero == "0" else ("double" if zero == "0.5" else "float"), 0, 0,
                      mag=1.0)
            t = arith_type("float", other.ty)
            tags = set(tags)
            if elem:
                tags.add("ternary-elem")
                if other.ty == "int":
                    tags.add("ternary-elem-int")
                    if not self.allowed("ternary-elem-int"):
                        return X("%s[%s]" % (n, "min(max(%s, 0), %s - 1)" % (idx, size)), "float", mag=2.0, elem=elem,
                                 tags=tags | {"minmax-int"})
                    self.use("ternary-elem-int")
            if other.ty == "double":
                tags.add("ternary-double")
                self.use("ternary-double")
            if self.chance(0.5):
                text = "(%s ? %s[%s] : %s)" % (cond, n, idx, zero)
            else:
                text = "(!%s ? %s : %s[%s])" % (cond, zero, n, idx)
            return X(text, t, mag=2.0, tags=tags)
        if kind == "clamp":
            k = self.offset(self.own_linear(), self.rng.randint(-3, 3))
            self.use("minmax-int")
            return X("%s[min(max(%s, 0), %s - 1)]" % (n, k, size), "float", mag=2.0, elem=elem,
                     tags=tags | {"minmax-int"})
        e = self.gen_int(ctx, 1, -100000, 100000)
        self.use("cast", "unsigned")
        return X("%s[(unsigned)(%s) %% (unsigned)(%s)]" % (n, e.text, size), "float", mag=2.0, elem=elem,
                 tags=tags | e.tags | {"cast", "unsigned"})

    def read_local_array(self, ctx, array):
        name, n, mag = array
        if self.chance(0.5):
            return X("%s[%d]" % (name, self.rng.randint(0, n - 1)), "float", mag=mag, tags={"local-array"})
        e = self.gen_int(ctx, 1, 0, 100000)
        return X("%s[(%s) %% %d]" % (name, e.text, n), "float", mag=mag, tags={"local-array"} | e.tags)

    def offset(self, base, d):
        if d == 0:
            return base
        return "(%s %s %d)" % (base, "+" if d > 0 else "-", abs(d))

    def own_linear(self):
        """A linear index near the thread's own output (valid name at top level)."""
        return self.gid_name

    def read_mask(self, ctx):
        return self.pick(self.mask_reads)(ctx)

    def mask_index(self, ctx):
        """An int index in [0, mask count)."""
        e = self.gen_int(ctx, 1, 0, 100000)
        return "(%s) %% %s" % (e.text, self.mask_count_text)

    def read_p(self, ctx):
        place = self.p_place
        return X(self.place_text(place), "float", mag=place.mag, elem=True)

    def place_text(self, place):
        """A spelling of an element this thread owns: P[o] (or P[gid], P[row * width + col], OUT(o)),
        s[lt] (or s[tx], s [lt], SH0(lt), ...)."""
        text = self.pick(self.p_texts)() if place.kind == "P" else self.sref(place.array, place.index)
        if self.allowed("macro-arg-elem") and self.chance(0.05):
            # The element passed through a macro that gives it back: ID(s[lt]) is s[lt], an lvalue.
            nested = text.startswith(("SH", "OUT("))  # already named by a macro: ID(SH0(lt))
            if not nested or self.allowed("macro-nested-elem"):
                self.use("macro-arg-elem")
                if nested:
                    self.use("macro-nested-elem")
                self.macros_used.add("ID")
                text = "ID(%s)" % text
        return text

    def sref(self, arr, idx):
        """s[idx] in one of its spellings: plain, spaced, the thread index spelled another way, a macro."""
        def variant(i):
            if "lt" in i and self.lt_forms and self.chance(0.3):
                i = i.replace("lt", self.pick(self.lt_forms), 1)
            return i
        if arr.dims == 1:
            i = variant(idx)
            if arr.alias and self.chance(0.4):
                return "%s[%s]" % (arr.alias, i)
            if arr.macro and self.chance(0.2):
                self.use("macro-elem")
                return "%s(%s)" % (arr.macro, i)
            if self.allowed("spacing") and self.chance(0.15):
                self.use("spacing")
                return self.pick(["%s [%s]", "%s[ %s ]", "%s [ %s ]"]) % (arr.name, i)
            return "%s[%s]" % (arr.name, i)
        if arr.dims == 3:
            ix = [variant(i) for i in idx]
            if arr.macro and self.chance(0.2):
                self.use("macro-elem")
                return "%s(%s)" % (arr.macro, ", ".join(ix))
            if self.allowed("spacing") and self.chance(0.15):
                self.use("spacing")
                return self.pick(["%s [%s][%s][%s]", "%s[%s] [%s] [%s]", "%s[ %s ][ %s ][ %s ]"]) % tuple(
                    [arr.name] + ix)
            return "%s[%s][%s][%s]" % tuple([arr.name] + ix)
        a, b = variant(idx[0]), variant(idx[1])
        if arr.macro and self.chance(0.2):
            self.use("macro-elem")
            return "%s(%s, %s)" % (arr.macro, a, b)
        if self.allowed("spacing") and self.chance(0.15):
            self.use("spacing")
            return self.pick(["%s [%s][%s]", "%s[%s] [%s]", "%s[ %s ][ %s ]"]) % (arr.name, a, b)
        return "%s[%s][%s]" % (arr.name, a, b)
    def own_slot(self, arr):
        return self.pick(arr.own)

    def read_shared(self, ctx):
        arr = self.pick(self.shared)
        if ctx.shared_neighbours and arr.neighbours and self.chance(0.6):
            idx = self.pick(arr.neighbours)
        else:
            idx = self.own_slot(arr)
        tags = {2: {"shared2d"}, 3: {"shared3d"}}.get(arr.dims, set())
        return X(self.sref(arr, idx), "float", mag=arr.mag, elem=True, tags=tags)

    def element_read(self, ctx):
        """A bare element of a writable array (an ElementRef in TileScope), or None."""
        opts = []
        if self.shared:
            opts.append(lambda: self.read_shared(ctx))
        if ctx.guard and ctx.p_written:
            opts.append(lambda: self.read_p(ctx))
        if self.writable_n and ctx.guard:
            opts.append(lambda: X("%s[%s]" % (self.nname, ctx.guard), "float", mag=2.0, elem=True,
                                  tags={"writable-N"}))
        if not opts or ctx.helper:
            return None
        return self.pick(opts)()

    # [SECTION] helpers and macros

    def helpers_float(self, ctx):
        return [h for h in self.helpers if is_float(h["ret"])]

    def helpers_int(self, ctx):
        return [h for h in self.helpers if is_int(h["ret"])]

    def call_helper(self, ctx, helpers, depth):
        if not helpers:
            return None
        h = self.pick(helpers)
        args = []
        tags = {"helper"}
        for (pname, pty, plo, phi) in h["params"]:
            if pty == "int":
                a = self.gen_int(ctx, depth, plo, phi)
            elif pty == "unsigned":
                a = self.gen_int(ctx, depth, 0, 1000)
            elif pty == "bool":
                a = self.gen_cond(ctx, 0)
            else:
                a = self.gen_float(ctx, depth)
            tags |= a.tags
            args.append(a.text)
        if h.get("default") and self.chance(0.5):
            args = args[:-1]
        text = "%s(%s)" % (h["name"], ", ".join(args))
        if is_int(h["ret"]):
            return self.scope_call(X(text, h["ret"], h["lo"], h["hi"], tags=tags))
        return self.scope_call(X(text, h["ret"], mag=h["mag"], tags=tags))

    def float_macro_call(self, ctx, depth):
        return self._macro_call(self.fmacros, self._gen_float, ctx, depth)

    def int_macro_call(self, ctx, depth):
        return self._macro_call(self.imacros, self._gen_int, ctx, depth)

    def _macro_call(self, macros, gen, ctx, depth):
        m = self.pick(macros)
        args = [gen(ctx, depth) for _ in range(m["arity"])]
        if any(a is None for a in args):
            return None
        e = m["expand"](self, args)
        if e is None:
            return None
        e.text = "%s(%s)" % (m["name"], ", ".join(a.text for a in args))
        e.tags |= {"macro-expr"}
        self.use("macro-expr")
        if any("ternary-elem" in a.tags for a in args):
            if not self.allowed("macro-ternary-elem"):
                return None
            self.use("macro-ternary-elem")
            e.tags.add("macro-ternary-elem")
        self.macros_used.add(m["name"])
        return e

    # [SECTION] statements

    def line(self, out, indent, text):
        if len(text) > 100 and self.allowed("multiline") and self.chance(0.3):
            # A long statement over two lines, broken at a space between tokens.
            self.use("multiline")
            spaces = [i for i, c in enumerate(text) if c == " " and 40 < i < len(text) - 10]
            if spaces:
                at = self.pick(spaces)
                out.append("    " * indent + text[:at])
                out.append("    " * (indent + 2) + text[at + 1:])
                return
        out.append("    " * indent + text)

    def writable_places(self, ctx):
        """(weight, kind, place-or-var) of what a statement may assign."""
        opts = []
        for v in self.visible():
            if v.kind == "float":
                opts.append((4, "local", v))
            if v.kind == "param" and self.allowed("param-write"):
                opts.append((1, "local", v))
            if v.kind == "alias" and (v.place.kind == "P" or ctx.shared_write):
                opts.append((2, "alias", v))
        if ctx.guard and ctx.p_written:
            opts.append((3, "P", self.p_place))
        if ctx.shared_write and self.shared:
            for arr in self.shared:
                opts.append((2, "S", arr))
        return opts

    def rhs(self, ctx, depth=2):
        return self.gen_float(ctx, depth)

    def target_of(self, ctx, kind, target):
        """(text, the holder of its magnitude, is an element, a Place or None)."""
        if kind == "S":
            place = Place("S", None, target, self.own_slot(target))
            return self.place_text(place), target, True, place
        if kind == "P":
            return self.place_text(target), target, True, target
        if kind == "alias":
            self.use("ref-elem")
            holder = target.place if target.place.kind == "P" else target.place.array
            return target.name, holder, False, None
        if target.kind == "param":
            self.use("param-write")
        return target.name, target, False, None

    def compound_rhs(self, ctx, op, elem, kind):
        """The right side of `x op= r`, or None when the construct is excluded."""
        if op == "/=":
            r = self.float_divisor(ctx, 1)
        elif op == "*=":
            r = self.gen_float(ctx, 1)
            if r.mag > 1.5:
                r = self.weighted([(1, lambda: self.nonzero_literal("float")),
                                   (1, lambda: X("fminf(fabsf(%s), 1.0f)" % self.floatify(r).text, "float", mag=1.0,
                                                 tags=r.tags | {"math-f"}))])()
        else:
            r = self.rhs(ctx)
        if op != "=" and r.ty == "double":
            if elem or kind == "alias":
                if not self.allowed("elem-op=double"):
                    return None
                self.use("elem-op=double")
            elif op == "+=":
                if not self.allowed("local+=double"):
                    return None
                self.use("local+=double")
        if op == "+=" and kind == "local" and r.elem:
            if not self.allowed("local+=elem"):
                return None
            self.use("local+=elem")
        if op != "=" and elem:
            self.use("elem-op=")
        if op in ("-=", "*=", "/=") and not elem:
            self.use("local-op=")
        return r

    def steer(self, holder, op, r, ctx):
        """Magnitudes (soft: an overflow is still the same everywhere)."""
        if op == "=":
            holder.mag = max(holder.mag, r.mag)
        elif op in ("+=", "-="):
            holder.mag = holder.mag + ctx.mult * r.mag
        elif op == "*=":
            holder.mag = holder.mag * (max(r.mag, 1.0) ** min(ctx.mult, 50))
        elif op in ("++", "--"):
            holder.mag = holder.mag + ctx.mult
        if holder.mag > SOFT_MAG and op != "=":
            holder.mag = SOFT_MAG

    def pick_op(self, elem):
        ops = [(4, "="), (4, "+=")]
        if elem:
            if self.allowed("elem-op="):
                ops += [(2, "-="), (2, "*="), (1, "/=")]
            else:
                ops = [(4, "=")]
        elif self.allowed("local-op="):
            ops += [(2, "-="), (2, "*="), (1, "/=")]
        return self.weighted(ops)

    def assign_stmt(self, ctx, out, indent):
        opts = self.writable_places(ctx)
        if not opts:
            return False
        kind, target = self.weighted([(w, (k, t)) for w, k, t in opts])
        text, holder, elem, place = self.target_of(ctx, kind, target)
        # ++ and -- on a float local or an element.
        if self.chance(0.08):
            tag = "elem-incdec" if elem else "float-incdec"
            if not self.allowed(tag):
                return False
            self.use(tag)
            self.steer(holder, "++", None, ctx)
            op = self.pick(["++", "--"])
            self.line(out, indent, ("%s%s;" if self.chance(0.5) else "%s%s;") % ((text, op) if self.chance(0.5) else (op, text)))
            return True
        op = self.pick_op(elem)
        r = self.compound_rhs(ctx, op, elem, kind)
        if r is None:
            return False
        self.steer(holder, op, r, ctx)
        if self.allowed("macro-stmt") and op == "+=" and self.chance(0.1):
            if "ternary-elem" in r.tags:
                if not self.allowed("macro-ternary-elem"):
                    return False
                self.use("macro-ternary-elem")
            self.use("macro-stmt")
            self.macros_used.add("ACC")
            self.line(out, indent, "ACC(%s, %s);" % (text, r.text))
            return True
        # Chained: a second place assigned the same value (x = s[lt] = e).
        if op == "=" and self.allowed("chain-assign") and self.chance(0.1):
            k2, t2 = self.weighted([(w, (k, t)) for w, k, t in opts])
            text2, holder2, _, _ = self.target_of(ctx, k2, t2)
            if text2 != text:
                self.use("chain-assign")
                self.steer(holder2, "=", r, ctx)
                self.line(out, indent, "%s = %s = %s;" % (text, text2, r.text))
                return True
        self.line(out, indent, "%s %s %s;" % (text, op, r.text))
        return True

    def ternary_lvalue_stmt(self, ctx, out, indent):
        """(c ? s[a] : P[o]) = e: both operands elements this thread owns."""
        if not self.allowed("ternary-lvalue"):
            return False
        places = []
        if ctx.shared_write:
            for arr in self.shared:
                for idx in arr.own:
                    places.append(Place("S", None, arr, idx))
        if ctx.guard and ctx.p_written:
            places.append(self.p_place)
        if len(places) < 2:
            return False
        a, b = self.rng.sample(places, 2)
        c = self.gen_cond(ctx, 1)
        op = self.pick(["=", "=", "+="])
        r = self.compound_rhs(ctx, op, True, "S")
        if r is None:
            return False
        for pl in (a, b):
            self.steer(pl.array if pl.kind == "S" else pl, op, r, ctx)
        self.use("ternary-lvalue")
        self.line(out, indent, "(%s ? %s : %s) %s %s;" % (c.text, self.place_text(a), self.place_text(b), op, r.text))
        return True

    def decl_stmt(self, ctx, out, indent):
        kinds = [(5, "float"), (4, "int"), (1 if self.allowed("unsigned") else 0, "unsigned"),
                 (1 if self.allowed("double-local") else 0, "double"), (1, "bool"), (1, "counter")]
        own_elem = bool(self.shared) or (ctx.guard and ctx.p_written)
        if own_elem:
            if self.allowed("auto-elem"):
                kinds.append((2, "auto-elem"))
            if self.allowed("constref-elem"):
                kinds.append((2, "cref"))
            if self.allowed("ref-elem"):
                kinds.append((1, "ref"))
            if self.allowed("assign-value"):
                kinds.append((1, "assign-value"))
            if self.allowed("multi-decl"):
                kinds.append((1, "multi"))
        kinds.append((1, "auto"))
        if self.allowed("fixed-int"):
            kinds.append((1, "fixed-int"))
        if self.allowed("fixed-int64"):
            kinds.append((1, "int64"))
        if self.allowed("vector-type"):
            kinds.append((1, "vec"))
        if self.allowed("dim3-copy") and self.builtin_ints and not ctx.helper:
            kinds.append((1, "dim3-copy"))
        if self.allowed("constexpr-local"):
            kinds.append((1, "constexpr"))
        if self.allowed("local-array"):
            kinds.append((1, "local-array"))
        kind = self.weighted(kinds)
        name = self.fresh(self.pick(["v", "t", "a", "w", "acc", "x", "q"]))
        if kind == "fixed-int":
            return self.fixed_int_decl(ctx, out, indent, name)
        if kind == "int64":
            return self.int64_decl(ctx, out, indent, name)
        if kind == "vec":
            return self.vec_decl(ctx, out, indent, name)
        if kind == "dim3-copy":
            return self.dim3_copy_decl(ctx, out, indent, name)
        if kind == "constexpr":
            self.use("constexpr-local")
            if self.chance(0.5):
                v = self.rng.randint(-3, 9)
                self.line(out, indent, "constexpr int %s = %d;" % (name, v))
                self.declare(Var(name, "int", v, v))
            else:
                e = self.float_literal()
                self.line(out, indent, "constexpr %s %s = %s;" % (e.ty, name, e.text))
                self.declare(Var(name, e.ty, mag=e.mag, kind="fixed"))
            return True
        if kind == "local-array":
            self.use("local-array")
            n = self.rng.randint(2, 4)
            values = [self.gen_float(ctx, 1) for _ in range(n)]
            # A braced list may not narrow: each value a float.
            self.line(out, indent, "float %s[%d] = {%s};" % (name, n, ", ".join(
                v.text if v.ty == "float" else "(float)(%s)" % v.text for v in values)))
            self.local_arrays.append((name, n, max(v.mag for v in values)))
            self.scopes[-1].append(Var(name, "array", kind="array"))
            return True
        if kind in ("float", "double"):
            e = self.gen_float(ctx, 2)
            ty = kind
            if kind == "double":
                self.use("double-local")
            const = self.chance(0.15)
            tt = "T" if (self.ttype == ty and not ctx.helper and self.chance(0.5)) else ty
            self.line(out, indent, "%s%s %s = %s;" % ("const " if const else "", tt, name, e.text))
            self.declare(Var(name, ty, mag=e.mag, kind="fixed" if const else "float"))
            return True
        if kind in ("int", "unsigned", "bool"):
            if kind == "bool":
                e = self.gen_cond(ctx, 1)
                self.line(out, indent, "bool %s = %s;" % (name, e.text))
                self.declare(Var(name, "bool", 0, 1))
                return True
            e = self.gen_int(ctx, 2, -100000, 100000) if kind == "int" else self.gen_int(ctx, 2)
            if kind == "unsigned":
                self.use("unsigned")
                lo, hi = e.rng_in("unsigned")
            else:
                lo, hi = e.rng_in("int")
            self.line(out, indent, "%s %s = %s;" % (kind, name, e.text))
            self.declare(Var(name, kind, lo, hi))
            return True
        if kind == "counter":
            start = self.rng.randint(-3, 5)
            self.line(out, indent, "int %s = %d;" % (name, start))
            v = self.declare(Var(name, "int", -5000, 5000, kind="counter"))
            v.drift = abs(start)
            return True
        if kind == "auto":
            # A float expression may be an integer (a bool parameter, an int):
            # auto then deduces that type, and the copy is an integer local.
            e = self.gen_float(ctx, 2) if self.chance(0.7) else self.gen_int(ctx, 1, -100000, 100000)
            if e.elem or e.ty == "bool":  # (-- on a bool is not C++)
                return False
            self.line(out, indent, "auto %s = %s;" % (name, e.text))
            if is_int(e.ty):
                lo, hi = e.rng_in(e.ty)
                self.declare(Var(name, e.ty, lo, hi, tags=e.tags & {"fixed-int"}))
            else:
                self.declare(Var(name, e.ty, mag=e.mag, kind="float"))
            return True
        # Copies of, references to, and assignments into an element this thread owns.
        choices = []
        if self.shared:
            choices.append("S")
        if ctx.guard and ctx.p_written:
            choices.append("P")
        where = self.pick(choices)
        if where == "S":
            arr = self.pick(self.shared)
            place = Place("S", None, arr, self.own_slot(arr))
            holder = arr
        else:
            place = self.p_place
            holder = place
        text = self.place_text(place)
        if kind == "auto-elem":
            self.use("auto-elem")
            form = self.pick(["auto %s = %s;", "auto %s = %s;", "const auto %s = %s;", "auto %s(%s);",
                              "float %s = %s;"])
            self.line(out, indent, form % (name, text))
            self.declare(Var(name, "float", mag=holder.mag, kind="fixed" if form.startswith("const") else "float",
                             tags={"auto-elem"}))
            self.plant_write(ctx, out, indent, place)
            return True
        if kind == "cref":
            self.use("constref-elem")
            form = self.pick(["const float& %s = %s;", "const float &%s = %s;", "float const& %s = %s;",
                              "const auto& %s = %s;", "const float& %s(%s);"])
            self.line(out, indent, form % (name, text))
            self.declare(Var(name, "float", kind="cref", place=place, tags={"constref-elem"}))
            self.plant_write(ctx, out, indent, place)
            return True
        if kind == "assign-value":
            # The value of an assignment: float y = (s[lt] += e); auto y = (P[o] = e);
            if where == "S" and not ctx.shared_write:
                return False
            op = self.pick_op(True)
            r = self.compound_rhs(ctx, op, True, "S")
            if r is None:
                return False
            self.steer(holder, op, r, ctx)
            decl = self.pick(["float", "auto", "double"])
            if decl == "auto":
                if not self.allowed("assign-value-auto"):
                    return False
                self.use("assign-value-auto")
            self.use("assign-value")
            self.line(out, indent, "%s %s = (%s %s %s);" % (decl, name, text, op, r.text))
            self.declare(Var(name, "double" if decl == "double" else "float", mag=holder.mag, kind="float"))
            self.plant_write(ctx, out, indent, place)
            return True
        if kind == "multi":
            # Several declarators in one declaration.
            self.use("multi-decl")
            other = self.fresh("v")
            e = self.gen_float(ctx, 1)
            if self.allowed("multi-decl-ref") and self.chance(0.3):
                self.use("multi-decl-ref", "constref-elem")
                arr2 = self.pick(self.shared) if self.shared else None
                if arr2 is None:
                    return False
                p2 = Place("S", None, arr2, self.own_slot(arr2))
                self.line(out, indent, "const float& %s = %s, &%s = %s;" % (name, text, other, self.place_text(p2)))
                self.declare(Var(name, "float", kind="cref", place=place, tags={"constref-elem"}))
                self.declare(Var(other, "float", kind="cref", place=p2, tags={"constref-elem"}))
                return True
            self.line(out, indent, "float %s = %s, %s = %s;" % (name, text, other, e.text))
            self.declare(Var(name, "float", mag=holder.mag, kind="float"))
            self.declare(Var(other, "float", mag=e.mag, kind="float"))
            return True
        if where == "S" and not ctx.shared_write:
            return False
        self.use("ref-elem")
        form = self.pick(["float& %s = %s;", "float &%s = %s;", "auto& %s = %s;", "float& %s(%s);",
                          "float& %s{%s};"])
        if form.endswith("{%s};"):
            if not self.allowed("ref-elem-brace"):
                form = "float& %s = %s;"
            else:
                self.use("ref-elem-brace")
        self.line(out, indent, form % (name, text))
        self.declare(Var(name, "float", kind="alias", place=place, tags={"ref-elem"}))
        return True

    def plant_write(self, ctx, out, indent, place):
        """Often, a write to the element just copied or referenced, so that a copy and a reference differ."""
        if not self.chance(0.6):
            return
        if place.kind == "S" and not ctx.shared_write:
            return
        e = self.gen_float(ctx, 1)
        holder = place.array if place.kind == "S" else place
        holder.mag = max(holder.mag, e.mag)
        self.line(out, indent, "%s = %s;" % (self.place_text(place), e.text))

    def shared_int_stmt(self, ctx, out, indent):
        """A write of this thread's own slot of a __shared__ int / unsigned array."""
        if not self.shared_ints or not ctx.shared_write or ctx.helper:
            return False
        arr = self.pick(self.shared_ints)
        ref = arr.ref(self.pick(arr.own))
        kind = self.pick(["=", "=", "++", "+="] + (["--"] if arr.ty == "int" else []))
        if kind == "=":
            e = self.gen_int(ctx, 2, arr.lo, arr.hi)
            self.line(out, indent, "%s = %s;" % (ref, e.text))
        else:
            step = 1 if kind in ("++", "--") else self.rng.randint(1, 5)
            if arr.drift + ctx.mult * step > arr.budget:
                return False
            arr.drift += ctx.mult * step
            if kind == "+=":
                self.line(out, indent, "%s += %d;" % (ref, step))
            else:
                self.line(out, indent, ("%s%s;" % (ref, kind)) if self.chance(0.5) else ("%s%s;" % (kind, ref)))
        self.use("shared-int")
        return True

    def counter_stmt(self, ctx, out, indent):
        counters = [v for v in self.visible() if v.kind == "counter"]
        if not counters or not self.allowed("int-op="):
            return False
        v = self.pick(counters)
        kind = self.pick(["++", "--", "+=", "-=", "/=", "%=", "pre++", "pre--"])
        if kind in ("++", "--", "pre++", "pre--"):
            step = 1
        elif kind in ("+=", "-="):
            e = self.gen_int(ctx, 1, -20, 20)
            step = max(abs(e.lo), abs(e.hi))
        else:
            step = 0
        if v.drift + ctx.mult * step > 5000:
            return False
        v.drift += ctx.mult * step
        self.use("int-op=")
        if kind in ("++", "--"):
            self.line(out, indent, "%s%s;" % (v.name, kind))
        elif kind in ("pre++", "pre--"):
            self.line(out, indent, "%s%s;" % (kind[3:], v.name))
        elif kind in ("+=", "-="):
            self.line(out, indent, "%s %s %s;" % (v.name, kind, e.text))
        else:
            self.line(out, indent, "%s %s %d;" % (v.name, kind, self.rng.randint(1, 7)))
        return True

    def if_stmt(self, ctx, out, indent):
        if ctx.depth >= 3:
            return False
        c = self.gen_cond(ctx, 1)
        self.line(out, indent, "if (%s) {" % c.text)
        self.block(ctx.child(depth=ctx.depth + 1), out, indent + 1, self.rng.randint(1, 3))
        if self.chance(0.4):
            self.line(out, indent, "} else {")
            self.block(ctx.child(depth=ctx.depth + 1), out, indent + 1, self.rng.randint(1, 2))
        self.line(out, indent, "}")
        return True

    def loop_bound(self, ctx):
        """(text, trip count bound, var range hi) of a loop bound; constant or known only at run time."""
        kinds = []
        if self.allowed("loop-const"):
            kinds.append((3, "const"))
        if self.allowed("loop-var"):
            kinds.append((3, "var"))
        if not kinds:
            return None
        kind = self.weighted(kinds)
        if kind == "const":
            self.use("loop-const")
            n = self.rng.randint(1, 5)
            if self.allowed("macro-size") and self.chance(0.3):
                self.use("macro-size")
                self.macros_used.add("ITERS")
                return ("ITERS", self.iters, self.iters)
            return (str(n), n, n)
        self.use("loop-var")
        opts = [("%s" % self.mwname, self.mask_width, self.mask_width),
                ("%s + 1" % self.rname, self.radius + 1, self.radius + 1)]
        e = self.gen_int(ctx, 1, -10, 6)
        text = e.text if e.text.startswith("(") else "(%s)" % e.text
        if e.ty == "unsigned":  # j < u would compare as unsigned: (unsigned)-2 is 4294967294
            text = "(int)%s" % text
        hi = max(e.rng_in("int")[1], 0)
        opts.append((text, hi, hi))
        return self.pick(opts)

    def for_stmt(self, ctx, out, indent):
        if ctx.depth >= 3 or ctx.mult > 200:
            return False
        b = self.loop_bound(ctx)
        if b is None:
            return False
        text, trips, _ = b
        trips = max(trips, 0)
        j = self.fresh(self.pick(["j", "k", "m", "it"]))
        form = self.pick(["for (int %s = 0; %s < %s; %s++) {", "for (int %s = 0; %s < %s; ++%s) {",
                          "for (int %s = 0; %s <= %s - 1; %s += 1) {"])
        if self.allowed("pragma-unroll") and self.chance(0.1):
            self.use("pragma-unroll")
            self.line(out, indent, self.pick(["#pragma unroll", "#pragma unroll 2", "#pragma unroll 1"]))
        self.line(out, indent, form % (j, j, text, j))
        self.push()
        self.declare(Var(j, "int", 0, max(trips - 1, 0), kind="loop"))
        inner = ctx.child(depth=ctx.depth + 1, mult=ctx.mult * max(trips, 1), in_loop=True, loop_kind="for")
        if self.allowed("break-continue") and self.chance(0.15):
            self.use("break-continue")
            c = self.gen_cond(inner, 0)
            self.line(out, indent + 1, "if (%s) %s;" % (c.text, self.pick(["continue", "break"])))
        self.block(inner, out, indent + 1, self.rng.randint(1, 3))
        self.pop()
        self.line(out, indent, "}")
        return True

    def do_while_stmt(self, ctx, out, indent):
        if ctx.depth >= 3 or ctx.mult > 200 or not self.allowed("do-while"):
            return False
        n = self.rng.randint(1, 3)
        w = self.fresh("w")
        self.use("do-while")
        self.line(out, indent, "int %s = 0;" % w)
        self.line(out, indent, "do {")
        self.push()
        self.declare(Var(w, "int", 0, n, kind="loop"))
        inner = ctx.child(depth=ctx.depth + 1, mult=ctx.mult * n, in_loop=True, loop_kind="while")
        self.block(inner, out, indent + 1, self.rng.randint(1, 2))
        self.line(out, indent + 1, "%s++;" % w)
        self.pop()
        self.line(out, indent, "} while (%s < %d);" % (w, n))
        return True

    def switch_stmt(self, ctx, out, indent):
        if ctx.depth >= 3 or not self.allowed("switch"):
            return False
        self.use("switch")
        n = self.rng.randint(2, 3)
        e = self.gen_int(ctx, 1, 0, 100000)
        self.line(out, indent, "switch ((%s) %% %d) {" % (e.text, n))
        for c in range(n):
            last = c == n - 1 and self.chance(0.5)
            self.line(out, indent, "default: {" if last else "case %d: {" % c)
            self.block(ctx.child(depth=ctx.depth + 1), out, indent + 1, self.rng.randint(1, 2))
            self.line(out, indent, "}" if (last or self.chance(0.2)) else "} break;")
        self.line(out, indent, "}")
        return True

    def while_stmt(self, ctx, out, indent):
        if ctx.depth >= 3 or ctx.mult > 200 or not self.allowed("while"):
            return False
        n = self.rng.randint(1, 4)
        w = self.fresh("w")
        self.use("while")
        self.line(out, indent, "int %s = 0;" % w)
        self.line(out, indent, "while (%s < %d) {" % (w, n))
        self.push()
        self.declare(Var(w, "int", 0, n, kind="loop"))
        inner = ctx.child(depth=ctx.depth + 1, mult=ctx.mult * n, in_loop=True, loop_kind="while")
        self.block(inner, out, indent + 1, self.rng.randint(1, 2))
        if self.allowed("break-continue") and self.chance(0.15):
            self.use("break-continue")
            c = self.gen_cond(inner, 0)
            self.line(out, indent + 1, "if (%s) break;" % c.text)
        self.line(out, indent + 1, "%s++;" % w)
        self.pop()
        self.line(out, indent, "}")
        return True

    def conv_stmt(self, ctx, out, indent):
        """The chapter's loop: a sum over the mask of mask times input, ghost cells skipped."""
        if not ctx.guard or ctx.depth >= 2 or not self.mask_reads or not self.allowed("conv"):
            return False
        if self.dims == 2 and self.row_col is None:
            return False
        self.use("conv")
        acc = self.fresh("sum")
        self.line(out, indent, "float %s = %s;" % (acc, self.pick(["0.0f", "0", "0.0f", "0.5f"])))
        j = self.fresh("j")
        mw = self.mwname
        r = self.rname
        if self.dims == 1:
            base = ctx.guard
            self.line(out, indent, "for (int %s = 0; %s < %s; %s++) {" % (j, j, mw, j))
            k = self.fresh("k")
            self.line(out, indent + 1, "int %s = %s - %s + %s;" % (k, base, r, j))
            mask = self.mask_at(j)
            guard = "%s >= 0 && %s < %s" % (k, k, self.wname)
            self.line(out, indent + 1, "if (%s) {" % guard)
            self.line(out, indent + 2, self.acc_line(acc, mask, "%s[%s]" % (self.nname, k)))
            self.line(out, indent + 1, "}")
            self.line(out, indent, "}")
        else:
            row, col = self.row_col
            i = self.fresh("i")
            self.line(out, indent, "for (int %s = 0; %s < %s; %s++) {" % (i, i, mw, i))
            self.line(out, indent + 1, "for (int %s = 0; %s < %s; %s++) {" % (j, j, mw, j))
            ir, ic = self.fresh("inRow"), self.fresh("inCol")
            self.line(out, indent + 2, "int %s = %s - %s + %s;" % (ir, row, r, i))
            self.line(out, indent + 2, "int %s = %s - %s + %s;" % (ic, col, r, j))
            mask = self.mask_at("%s * %s + %s" % (i, mw, j))
            self.line(out, indent + 2, "if (%s >= 0 && %s < %s && %s >= 0 && %s < %s) {"
                      % (ir, ir, self.hname, ic, ic, self.wname))
            self.line(out, indent + 3, self.acc_line(acc, mask, "%s[%s * %s + %s]" % (self.nname, ir, self.wname, ic)))
            self.line(out, indent + 2, "}")
            self.line(out, indent + 1, "}")
            self.line(out, indent, "}")
        self.declare(Var(acc, "float", mag=2.0 * self.mask_count, kind="float"))
        return True

    def acc_line(self, acc, mask, inp):
        if self.allowed("fmaf") and self.chance(0.15):
            self.use("fmaf")
            f = self.pick(["fmaf", "__fmaf_rn"])
            args = (mask, inp) if self.chance(0.5) else (inp, mask)
            return "%s = %s(%s, %s, %s);" % (acc, f, args[0], args[1], acc)
        if self.allowed("macro-stmt") and self.chance(0.1):
            self.use("macro-stmt")
            self.macros_used.add("ACC")
            return "ACC(%s, %s * %s);" % (acc, mask, inp)
        if self.chance(0.2):
            return "%s = %s + %s * %s;" % (acc, acc, inp, mask)
        return "%s += %s * %s;" % (acc, mask, inp)

    def mask_at(self, k):
        """The mask element number k (0 <= k < mask count) from whichever holds the mask."""
        return self.pick(self.mask_at_forms)(k)

    def block(self, ctx, out, indent, count):
        self.push()
        for _ in range(count):
            self.statement(ctx, out, indent)
        self.pop()

    def statement(self, ctx, out, indent):
        for _ in range(6):
            kind = self.weighted([
                (5, "assign"), (4, "decl"), (2, "counter"), (2 if ctx.depth < 3 else 0, "if"),
                (2 if ctx.depth < 3 else 0, "for"), (1 if ctx.depth < 3 else 0, "while"),
                (2 if ctx.guard and ctx.depth < 2 else 0, "conv"), (1, "ternary-lvalue"),
                (1 if ctx.depth < 3 else 0, "do-while"), (1 if ctx.depth < 3 else 0, "switch"),
                (1 if self.shared_ints and ctx.shared_write else 0, "shared-int"),
                (1 if any(v.kind == "vec" and v.writable for v in self.visible()) else 0, "vec-assign"),
            ])
            done = {"assign": self.assign_stmt, "decl": self.decl_stmt, "counter": self.counter_stmt,
                    "if": self.if_stmt, "for": self.for_stmt, "while": self.while_stmt,
                    "conv": self.conv_stmt, "ternary-lvalue": self.ternary_lvalue_stmt,
                    "do-while": self.do_while_stmt, "switch": self.switch_stmt,
                    "shared-int": self.shared_int_stmt, "vec-assign": self.vec_assign_stmt}[kind](ctx, out, indent)
            if done:
                return
        self.decl_stmt(ctx, out, indent)

    # [SECTION] the file

    def plan(self):
        rng = self.rng
        self.barriers = self.want_barriers if self.want_barriers is not None else self.chance(0.4)
        self.dims = self.want_dims or self.pick([1, 2])
        self.radius = self.weighted([(1, 0), (4, 1), (3, 2), (2, 3), (1, 5)])
        self.mask_width = 2 * self.radius + 1
        self.mask_count = self.mask_width if self.dims == 1 else self.mask_width ** 2
        if self.dims == 1:
            self.width = self.weighted([(1, rng.randint(1, 40)), (3, rng.randint(41, 700))])
            self.height = 1
            self.bx = self.pick([32, 64, 96, 128, 256])
            self.by = 1
        else:
            self.width = self.weighted([(1, rng.randint(1, 8)), (4, rng.randint(9, 48))])
            self.height = self.weighted([(1, rng.randint(1, 8)), (4, rng.randint(9, 40))])
            self.bx = self.pick([4, 8, 16, 32])
            self.by = self.pick([2, 4, 8, 16])
        self.nthreads = self.bx * self.by
        self.grid_stride = self.allowed("grid-stride") and self.chance(0.15)
        if self.grid_stride:
            self.gx = self.rng.randint(1, 3)
            self.gy = 1
        else:
            self.gx = (self.width + self.bx - 1) // self.bx
            self.gy = (self.height + self.by - 1) // self.by if self.dims == 2 else 1
        self.iters = self.rng.randint(1, 4)

    def generate(self):
        self.plan()
        rng = self.rng
        if self.barriers:
            self.use("barrier")

        # Names.
        self.kname = self.pick(["conv", "stencil", "kernel1", "my_kernel", "convolution", "blur", "k", "apply"])
        if self.dims == 2 and self.chance(0.5):
            self.kname += "2d"
        self.nname = self.pick(["N", "in", "input", "src", "N"])
        self.pname = self.pick(["P", "out", "output", "dst", "P"])
        self.mname_param = self.pick(["M", "mask", "F", "M"])
        self.wname = self.pick(["width", "width", "w", "n"] if self.dims == 1 else ["width", "width", "W", "cols"])
        self.hname = self.pick(["height", "height", "H", "rows"])
        self.rname = self.pick(["r", "r", "radius", "R"])
        self.mwname = "maskWidth"
        self.writable_n = self.allowed("writable-N") and self.chance(0.12)
        if self.writable_n:
            self.use("writable-N")

        # Where the mask lives: __constant__ (1D or 2D array), and/or a pointer parameter.
        self.const_mask = self.chance(0.65)
        self.const2d = self.const_mask and self.allowed("constant2d") and self.chance(0.35)
        if self.const_mask and not self.const2d and not self.allowed("constant1d"):
            self.const_mask = False
        self.mask_ptr = (not self.const_mask) or self.chance(0.25)
        if not self.allowed("mask-pointer"):
            self.mask_ptr = False
        self.cname = self.pick(["Mc", "F_c", "mask_c", "M_c"])
        self.maxw = 15
        if self.dims == 1:
            self.const_size_text = self.pick(["MAX_MASK", "MAX_MASK", "16", "32"])
        else:
            self.const_size_text = self.pick(["MAX_MASK * MAX_MASK", "256", "128"])
        self.scoped = self.allowed("scoped-global") and self.chance(0.15)
        cref = ("::" + self.cname) if self.scoped else self.cname
        if self.scoped and self.const_mask:
            self.use("scoped-global")

        self.mask_at_forms = []
        # The mask copied a few floats into the constant array (cudaMemcpyToSymbol's offset), now and then.
        self.const_off = 0
        if self.const_mask and self.allowed("memcpy-offset") and self.chance(0.1):
            self.use("memcpy-offset")
            self.const_off = self.rng.randint(1, 4)
        off = self.const_off

        def shifted(k):
            return k if off == 0 else "(%s) + %d" % (k, off)
        if self.const_mask and not self.const2d:
            self.use("constant1d")
            self.mask_at_forms.append(lambda k: "%s[%s]" % (cref, shifted(k)))
        if self.const2d:
            self.use("constant2d")
            self.mask_at_forms.append(lambda k: "%s[(%s) / %d][(%s) %% %d]" % (cref, shifted(k), 15, shifted(k), 15))
            self.mask_at_forms.append(lambda k: "%s[0][%s]" % (cref, shifted(k)) if self.mask_count + off <= 15 else
                                      "%s[(%s) / 15][(%s) %% 15]" % (cref, shifted(k), shifted(k)))
        if self.mask_ptr:
            self.use("mask-pointer")
            self.mask_at_forms.append(lambda k: "%s[%s]" % (self.mname_param, k))
        self.mask_count_text = self.mwname if self.dims == 1 else "(%s * %s)" % (self.mwname, self.mwname)
        self.mask_reads = [lambda ctx: X(self.mask_at(self.mask_index(ctx)), "float", mag=1.0)]

        # Global constants and macros.
        self.globals_text = []
        self.int_macros = []
        self.float_macros = []
        self.builtin_ints = []
        g_k = None
        if self.allowed("global-const") and self.chance(0.4):
            self.use("global-const")
            g_k = self.pick(["K_OFF", "kStep", "SHIFT"])
            v = self.rng.randint(1, 5)
            self.globals_text.append("%s int %s = %d;" % (self.pick(["const", "constexpr"]), g_k, v))
            ref = ("::" + g_k) if (self.allowed("scoped-global") and self.chance(0.3)) else g_k
            if ref.startswith("::"):
                self.use("scoped-global")
            self.int_macros.append(X(ref, "int", v, v, tags={"global-const"} | ({"scoped-global"} if ref.startswith("::") else set())))
        if self.allowed("macro-expr"):
            self.int_macros.append(X("OFFS", "int", 3, 3, tags={"macro-expr"}))
            self.float_macros.append(X("SCALE", "float", mag=0.5, tags={"macro-expr"}))
            if self.allowed("double-local"):
                self.float_macros.append(X("BIAS", "double", mag=1.0 / 3.0, tags={"macro-expr", "double-local"}))
        self.fmacros = [
            {"name": "SQ", "arity": 1, "expand": lambda g, a: g.fbin("*", a[0], a[0])},
            {"name": "HALF", "arity": 1,
             "expand": lambda g, a: g.fbin("*", a[0], X("0.5f", "float", mag=0.5, absmin=0.5))},
            {"name": "MIX", "arity": 2,
             "expand": lambda g, a: g.fbin("+", g.fbin("*", a[0], X("0.75f", "float", mag=0.75)),
                                           g.fbin("*", a[1], X("0.25f", "float", mag=0.25)))},
        ]
        self.imacros = [
            {"name": "IMOD", "arity": 1, "expand": lambda g, a: g.ibin("%", a[0], lit(5, "int"))},
            {"name": "TWICE", "arity": 1, "expand": lambda g, a: g.ibin("*", a[0], lit(2, "int"))},
        ]

        # Helpers first: the kernel calls them.
        # The kernel as a template: template <typename T> (T a float or a double), template <int BDIM>
        # (the block's width), or both; instantiated at its launch (k<float><<<...>>>).
        if self.allowed("template-kernel") and self.chance(0.12):
            self.use("template-kernel")
            kind = self.weighted([(3, "T"), (2, "BDIM"), (1, "both")])
            tparams = []
            if kind in ("BDIM", "both"):
                self.bdim = self.bx
                tparams.append(("int", "BDIM", str(self.bx)))
                self.int_macros.append(X("BDIM", "int", self.bx, self.bx, tags={"template-kernel"}))
            if kind in ("T", "both"):
                self.ttype = self.pick(["float", "float", "double"] if self.allowed("double-local") else ["float"])
                tparams.append((self.pick(["typename", "class"]), "T", self.ttype))
            if len(tparams) == 2 and self.chance(0.5):
                tparams.reverse()
            self.tkernel = tparams

        self.helper_texts = self.make_helpers()
        self.helper_texts += self.make_vec_helpers()
        self.make_template_helpers()
        self.scopes = [[]]

        # Parameters of the kernel.
        params = []   # (declaration text, launch argument text)
        ncv = self.weighted([(5, "const float* "), (1, "const float *"), (1, "float const* "),
                             (1 if self.allowed("restrict") else 0, "const float* __restrict__ ")])
        if self.writable_n:
            params.append(("float* %s" % self.nname, self.pick(["(float*)N", "const_cast<float*>(N)"])))
        else:
            if "__restrict__" in ncv:
                self.use("restrict")
            params.append((ncv + self.nname, "N"))
        if self.mask_ptr:
            params.append(("const float* %s" % self.mname_param, "M"))
        if self.allowed("restrict") and self.chance(0.1):
            self.use("restrict")
            params.append(("float* __restrict__ %s" % self.pname, "P"))
        else:
            params.append(("float* %s" % self.pname, "P"))

        def int_param(name):
            if self.allowed("const-param") and self.chance(0.1):
                self.use("const-param")
                return "const int %s" % name
            return "int %s" % name
        scalars = [(int_param(self.rname), "r"), (int_param(self.wname), "width")]
        if self.dims == 2:
            scalars.append((int_param(self.hname), "height"))
        pass_mw = self.chance(0.4)
        if pass_mw:
            scalars.append((int_param(self.mwname), "maskWidth"))
        self.float_params = []
        extras = []
        if self.allowed("param-extra"):
            for _ in range(self.rng.randint(0, 2)):
                kind = self.pick(["float", "unsigned", "bool", "int"] +
                                 (["double"] if self.allowed("double-param") else []))
                name = self.fresh("p")
                self.use("param-extra")
                if kind in ("float", "double"):
                    t = self.pick(FLOAT_LITERALS + ["0.1", "2"])
                    v = literal_value(t) if t != "2" else 2.0
                    scalars.append(("%s %s" % (kind, name), t))
                    if kind == "double":
                        self.use("double-param")
                    var = Var(name, kind, mag=abs(v) + 0.0, kind="param")
                    self.float_params.append(var)
                    extras.append(var)
                elif kind == "unsigned":
                    v = self.rng.randint(0, 9)
                    arg = "%du" % v
                    if self.allowed("launch-arg-convert") and self.chance(0.3):
                        self.use("launch-arg-convert")
                        arg = self.pick(["%d", "%d.75f", "%d.5"]) % v
                    scalars.append(("unsigned %s" % name, arg))
                    extras.append(Var(name, "unsigned", v, v, tags={"unsigned"}))
                    self.use("unsigned")
                elif kind == "bool":
                    v = self.chance(0.5)
                    arg = "true" if v else "false"
                    if self.allowed("launch-arg-convert") and self.chance(0.3):
                        self.use("launch-arg-convert")
                        arg = self.pick(["3", "0.5f", "width"]) if v else "0"
                    scalars.append(("bool %s" % name, arg))
                    extras.append(Var(name, "bool", int(v), int(v)))
                else:
                    v = self.rng.randint(-3, 9)
                    arg = str(v)
                    if self.allowed("launch-arg-convert") and self.chance(0.3) and v >= 0:
                        self.use("launch-arg-convert")
                        arg = self.pick(["%du", "%d.9f", "%d.25", "(r + %d - r)"]) % v
                    scalars.append(("int %s" % name, arg))
                    extras.append(Var(name, "int", v, v))
        if self.chance(0.2):
            rng.shuffle(scalars)
        if self.allowed("param-order") and self.chance(0.1):
            self.use("param-order")
            rng.shuffle(params)
        if self.ttype == "float" and self.chance(0.6):
            # The arrays' element type named by the template's parameter: const T* N, T* P.
            params = [(p.replace("float", "T", 1), a) for p, a in params]
        params += scalars

        # The kernel's body.
        body = []
        ind = 1
        self.push()
        for v in extras:
            self.declare(v)
        self.declare(Var(self.rname, "int", self.radius, self.radius))
        self.declare(Var(self.wname, "int", self.width, self.width))
        if self.dims == 2:
            self.declare(Var(self.hname, "int", self.height, self.height))
        bx, by, nt = self.bx, self.by, self.nthreads
        gx, gy = self.gx, self.gy
        self.builtin_ints = [
            lambda: X("threadIdx.x", "unsigned", 0, bx - 1, tags={"unsigned"}),
            lambda: X("blockIdx.x", "unsigned", 0, gx - 1, tags={"unsigned"}),
            lambda: X("blockDim.x", "unsigned", bx, bx, tags={"unsigned"}),
            lambda: X("gridDim.x", "unsigned", gx, gx, tags={"unsigned"}),
        ]
        self.builtin_ints += [
            lambda: X("threadIdx.z", "unsigned", 0, 0, tags={"unsigned"}),
            lambda: X("blockDim.z", "unsigned", 1, 1, tags={"unsigned"}),
            lambda: X("gridDim.y", "unsigned", gy, gy, tags={"unsigned"}),
        ]
        if self.dims == 2:
            self.builtin_ints += [
                lambda: X("threadIdx.y", "unsigned", 0, by - 1, tags={"unsigned"}),
                lambda: X("blockIdx.y", "unsigned", 0, gy - 1, tags={"unsigned"}),
                lambda: X("blockDim.y", "unsigned", by, by, tags={"unsigned"}),
            ]
        if not self.allowed("unsigned"):
            self.builtin_ints = []

        # Block-shape macros.
        bsx = self.pick(["BLOCK_X", "TILE_W", "BX"]) if self.dims == 2 else self.pick(["BLOCK_SIZE", "BS", "TPB"])
        bsy = self.pick(["BLOCK_Y", "TILE_H", "BY"])
        self.bsx = bsx

        if not pass_mw:
            self.line(body, ind, "int %s = 2 * %s + 1;" % (self.mwname, self.rname))
        self.declare(Var(self.mwname, "int", self.mask_width, self.mask_width))
        # The thread's indices.
        tx_form = self.pick(["threadIdx.x", "(int)threadIdx.x"])
        self.line(body, ind, "int tx = %s;" % tx_form)
        self.declare(Var("tx", "int", 0, bx - 1))
        if self.dims == 1:
            gform = self.pick(["blockIdx.x * blockDim.x + threadIdx.x", "blockIdx.x * %s + tx" % bsx,
                               "tx + blockDim.x * blockIdx.x"])
            self.line(body, ind, "int gid = %s;" % gform)
            self.declare(Var("gid", "int", 0, gx * bx - 1))
            self.line(body, ind, "int lt = tx;")
            self.declare(Var("lt", "int", 0, nt - 1))
            self.lt_forms = ["tx", "threadIdx.x", "(int)threadIdx.x"]
            self.gid_name = "gid"
            self.size_text = self.wname
        else:
            self.line(body, ind, "int ty = threadIdx.y;")
            self.declare(Var("ty", "int", 0, by - 1))
            cform = self.pick(["blockIdx.x * blockDim.x + threadIdx.x", "blockIdx.x * %s + tx" % bsx])
            rform = self.pick(["blockIdx.y * blockDim.y + threadIdx.y", "blockIdx.y * %s + ty" % bsy])
            self.line(body, ind, "int col = %s;" % cform)
            self.line(body, ind, "int row = %s;" % rform)
            self.declare(Var("col", "int", 0, gx * bx - 1))
            self.declare(Var("row", "int", 0, gy * by - 1))
            self.line(body, ind, "int lt = %s;" % self.pick(["ty * %s + tx" % bsx, "ty * blockDim.x + tx"]))
            self.declare(Var("lt", "int", 0, nt - 1))
            self.lt_forms = ["(ty * %s + tx)" % bsx, "(threadIdx.y * blockDim.x + threadIdx.x)"]
            self.line(body, ind, "int gid = row * %s + col;" % self.wname)
            self.declare(Var("gid", "int", 0, (gy * by - 1) * self.width + gx * bx - 1))
            self.gid_name = "gid"
            self.row_col = ("row", "col")
            self.size_text = "(%s * %s)" % (self.wname, self.hname)

        # Shared arrays and their first, unconditional writes.
        self.size_global_for = bsx if self.dims == 1 else "%s * %s" % (bsx, bsy)
        shared_decls = []
        n_shared = self.weighted([(2, 0), (4, 1), (2, 2)]) if not self.barriers else self.weighted([(3, 1), (1, 2)])
        dyn_used = False
        for si in range(n_shared):
            kinds = []
            if self.allowed("shared1d"):
                kinds.append((4, "1d"))
            if self.allowed("shared2d"):
                kinds.append((2, "2d"))
            if self.allowed("shared-dyn") and not dyn_used:
                kinds.append((1, "dyn"))
            if self.allowed("shared3d"):
                kinds.append((1, "3d"))
            if not kinds:
                break
            kind = self.weighted(kinds)
            name = self.pick(["s", "tile", "N_ds", "buf", "sm"]) + str(si)
            if kind == "3d":
                # A plane per channel: [C][T][T] in 2D, [C][R][threads] in 1D; a thread owns its slot of
                # each plane.
                self.use("shared3d")
                planes = self.pick([2, 3])
                if self.dims == 2:
                    rows, cols = by + self.pick([0, 0, 1]), bx + self.pick([0, 0, 2])
                    own = [(str(c), "ty", "tx") for c in range(planes)]
                    nb = [(str(self.rng.randint(0, planes - 1)), "(ty + %d) %% %d" % (self.rng.randint(1, max(by - 1, 1)), by),
                           "(tx + %d) %% %d" % (self.rng.randint(0, max(bx - 1, 0)), bx)),
                          (str(self.rng.randint(0, planes - 1)), "%d - 1 - ty" % by, "tx"),
                          (str(self.rng.randint(0, planes - 1)), "ty", "%d - 1 - tx" % bx)]
                    sizes = (str(planes), self.size_expr(rows, by, bsy), self.size_expr(cols, bx, bsx))
                else:
                    rows = self.pick([1, 2])
                    cols = nt + self.pick([0, 0, 1])
                    own = [(str(c), str(c % rows), "lt") for c in range(planes)]
                    nb = []
                    for c in range(planes):
                        nb.append((str(c), str(c % rows), "(lt + %d) %% %d" % (self.rng.randint(1, max(nt - 1, 1)), nt)))
                        nb.append((str(c), str(c % rows), "%d - 1 - lt" % nt))
                    sizes = (str(planes), str(rows), self.size_expr(cols, nt, bsx))
                    if rows == 1:
                        if not self.allowed("shared3d-unit"):
                            rows = 2
                            own = [(str(c), str(c % rows), "lt") for c in range(planes)]
                            nb = [(c, str(int(c) % rows), i) for c, _, i in nb]
                            sizes = (str(planes), str(rows), sizes[2])
                        else:
                            self.use("shared3d-unit")
                decl = "__shared__ float %s[%s][%s][%s];" % ((name,) + sizes)
                arr = SharedArray(name, 3, rows, cols, decl, own, nb)
            elif kind == "1d":
                self.use("shared1d")
                copies = self.pick([1, 1, 2])
                size = nt * copies + self.pick([0, 0, 3])
                size_text = self.size_expr(size, nt, bsx if self.dims == 1 else "%s * %s" % (bsx, bsy))
                decl = "__shared__ float %s[%s];" % (name, size_text)
                own = ["lt"] + ["lt + %d" % (nt * c) for c in range(1, copies)]
                nb = ["(lt + %d) %% %d" % (self.rng.randint(1, max(nt - 1, 1)), nt), "%d - 1 - lt" % nt,
                      "(lt + 1) %% %d" % nt]
                if copies > 1:
                    nb.append("(lt + %d) %% %d + %d" % (self.rng.randint(0, nt - 1), nt, nt))
                arr = SharedArray(name, 1, 1, size, decl, own, nb)
            elif kind == "dyn":
                self.use("shared-dyn")
                dyn_used = True
                decl = "extern __shared__ float %s[];" % name
                own = ["lt"]
                nb = ["(lt + %d) %% %d" % (self.rng.randint(1, max(nt - 1, 1)), nt), "%d - 1 - lt" % nt]
                arr = SharedArray(name, 1, 1, nt, decl, own, nb, dynamic=True)
                self.dyn_floats = nt + self.pick([0, 5])
                if self.allowed("shared-dyn-alias") and self.chance(0.2):
                    # Every extern __shared__ array starts at the same place: a second name for the first.
                    self.use("shared-dyn-alias")
                    arr.alias = name + "b"
                    arr.decl = decl + "\n    extern __shared__ float %s[];" % arr.alias
                    decl = arr.decl
            else:
                self.use("shared2d")
                if self.dims == 2:
                    if self.chance(0.7):
                        rows, cols = by + self.pick([0, 0, 1]), bx + self.pick([0, 0, 2])
                        own = [("ty", "tx")]
                        nb = [("(ty + %d) %% %d" % (self.rng.randint(1, max(by - 1, 1)), by),
                               "(tx + %d) %% %d" % (self.rng.randint(0, max(bx - 1, 0)), bx)),
                              ("%d - 1 - ty" % by, "tx"), ("ty", "%d - 1 - tx" % bx)]
                        rt, ct = self.size_expr(rows, by, bsy), self.size_expr(cols, bx, bsx)
                    else:
                        rows, cols = bx, by
                        own = [("tx", "ty")]
                        nb = [("(tx + 1) %% %d" % bx, "ty"), ("tx", "%d - 1 - ty" % by)]
                        rt, ct = str(rows), str(cols)
                else:
                    rows = self.pick([1, 2, 3])
                    cols = nt + self.pick([0, 0, 1])
                    own = [(str(k), "lt") for k in range(rows)]
                    nb = [(str(self.rng.randint(0, rows - 1)), "(lt + %d) %% %d" % (self.rng.randint(1, max(nt - 1, 1)), nt)),
                          (str(self.rng.randint(0, rows - 1)), "%d - 1 - lt" % nt)]
                    rt, ct = str(rows), self.size_expr(cols, nt, bsx)
                decl = "__shared__ float %s[%s][%s];" % (name, rt, ct)
                arr = SharedArray(name, 2, rows, cols, decl, own, nb)
            if self.allowed("macro-elem") and self.chance(0.25):
                arr.macro = "SH%d" % si
                if arr.dims == 1:
                    self.macro_lines.append("#define %s(i) %s[(i)]" % (arr.macro, name))
                elif arr.dims == 2:
                    self.macro_lines.append("#define %s(i, j) %s[(i)][(j)]" % (arr.macro, name))
                else:
                    self.macro_lines.append("#define %s(i, j, k) %s[(i)][(j)][(k)]" % (arr.macro, name))
            self.shared.append(arr)
            shared_decls.append(decl)
        # __shared__ int / unsigned arrays: flags and counts, a slot per thread.
        int_arrays = []
        if self.allowed("shared-int") and self.chance(0.3 if self.barriers else 0.2):
            for si in range(self.pick([1, 1, 2])):
                ty = self.pick(["int", "unsigned"] if self.allowed("unsigned") else ["int"])
                name = self.pick(["flags", "cnt", "mark", "hits"]) + str(si)
                if self.dims == 2 and self.chance(0.5):
                    decl = "__shared__ %s %s[%s][%s];" % (ty, name, self.size_expr(by, by, bsy),
                                                          self.size_expr(bx, bx, bsx))
                    nb = [("(ty + %d) %% %d" % (self.rng.randint(1, max(by - 1, 1)), by), "tx"),
                          ("ty", "%d - 1 - tx" % bx)]
                    arr = SharedInts(name, ty, 2, [("ty", "tx")], nb, decl)
                else:
                    size = self.size_expr(nt, nt, bsx if self.dims == 1 else "%s * %s" % (bsx, bsy))
                    decl = "__shared__ %s %s[%s];" % (ty, name, size)
                    nb = ["(lt + %d) %% %d" % (self.rng.randint(1, max(nt - 1, 1)), nt), "%d - 1 - lt" % nt]
                    arr = SharedInts(name, ty, 1, ["lt"], nb, decl)
                self.use("shared-int")
                if ty == "unsigned":
                    self.use("unsigned")
                int_arrays.append(arr)
                shared_decls.append(decl)

        self.kernel_body = body
        # The declarations: at the top (most), or after the index computations; the attribute
        # before or after the type; now and then two static arrays in one declaration.
        late = self.allowed("shared-late") and self.chance(0.2)
        if late:
            self.use("shared-late")
        texts = []
        for d in shared_decls:
            if d.startswith("__shared__ float") and self.allowed("shared-order") and self.chance(0.1):
                self.use("shared-order")
                d = "float __shared__" + d[len("__shared__ float"):]
            texts.append(d)
        static = [t for t in texts if t.startswith("__shared__ float")]
        if len(static) >= 2 and self.allowed("shared-multi-decl") and self.chance(0.3):
            self.use("shared-multi-decl")
            merged = static[0].rstrip(";") + ", " + static[1][len("__shared__ float "):]
            texts = [merged] + [t for t in texts if t not in static[:2]]
        if late:
            body.extend("    " + t for t in texts)
        else:
            for t in reversed(texts):
                body.insert(0, "    " + t)

        top = Ctx(depth=0, mult=1, shared_write=True, shared_neighbours=False)
        # Every own slot written once, unconditionally, before anything reads shared memory.
        saved = self.shared
        self.shared = []
        for arr in saved:
            for idx in arr.own:
                e = self.init_value(top)
                arr.mag = max(arr.mag, e.mag)
                self.line(body, ind, "%s = %s;" % (self.sref(arr, idx), e.text))
        self.shared = saved
        for arr in int_arrays:
            for idx in arr.own:
                e = self.gen_int(top, 2, arr.lo, arr.hi)
                self.line(body, ind, "%s = %s;" % (arr.ref(idx), e.text))
        self.shared_ints = int_arrays

        if self.barriers:
            self.barrier_phases(top, body, ind)
        else:
            top_free = top.child(shared_write=True, shared_neighbours=False)
            for _ in range(self.rng.randint(0, 2)):
                self.statement(top_free, body, ind)

        final = top.child(shared_write=not self.barriers, shared_neighbours=self.barriers)
        self.output_part(final, body, ind)
        self.pop()

        return self.assemble(params, body, bsx, bsy)

    def size_expr(self, size, base, name):
        """How an array size is written: a literal, a macro, or an expression of a macro."""
        if self.bdim is not None and name == self.bsx and base == self.bdim and self.chance(0.5):
            name = "BDIM"  # the kernel template's parameter, the block's width
            if size == base:
                return name
            if size % base == 0:
                return "%d * %s" % (size // base, name)
            if size > base:
                return "%s + %d" % (name, size - base)
            return str(size)
        if name is None or not self.allowed("macro-size") or self.chance(0.3):
            return str(size)
        if name == self.size_global_for and self.allowed("size-const-global") and self.chance(0.3):
            # The size as a const global (const int kThreads = ...;), which docs/own-kernel.md allows.
            self.use("size-const-global")
            self.size_global_used = True
            name = "kThreads"
        else:
            self.use("macro-size")
        if size == base:
            return name
        if size % base == 0:
            return "%d * %s" % (size // base, name)
        if size > base:
            return "%s + %d" % (name, size - base)
        return str(size)

    def init_value(self, ctx):
        """A value for a shared slot's first write: from the input, guarded."""
        ctx = ctx.child()
        return self.gen_float(ctx, 1)

    def barrier_phases(self, top, body, ind):
        sync = "__syncthreads();"
        if self.allowed("barrier-macro") and self.chance(0.15):
            self.use("barrier-macro")
            self.macros_used.add("SYNC")
            sync = "SYNC();"
        self.line(body, ind, sync)
        read = top.child(shared_write=False, shared_neighbours=True)
        write = top.child(shared_write=True, shared_neighbours=False)
        for _ in range(self.rng.randint(1, 3)):
            self.statement(read, body, ind)
        # Locals read after the barriers must be declared here, at the top level, so
        # the phases below go on with what is visible.
        if self.allowed("barrier-loop") and self.chance(0.4):
            self.use("barrier-loop")
            n = self.rng.randint(1, 3)
            it = self.fresh("it")
            if self.allowed("macro-size") and self.chance(0.4):
                self.use("macro-size")
                self.macros_used.add("ITERS")
                bound = "ITERS"
                n = self.iters
            else:
                bound = str(n)
            self.line(body, ind, sync)  # the reads above are done before the loop's first writes
            self.line(body, ind, "for (int %s = 0; %s < %s; %s++) {" % (it, it, bound, it))
            self.push()
            self.declare(Var(it, "int", 0, n - 1, kind="loop"))
            w = write.child(mult=n, depth=1, in_loop=True, loop_kind="for")
            r = read.child(mult=n, depth=1, in_loop=True, loop_kind="for")
            self.write_phase(w, body, ind + 1)
            self.line(body, ind + 1, sync)
            for _ in range(self.rng.randint(1, 2)):
                self.statement(r, body, ind + 1)
            self.line(body, ind + 1, sync)
            self.pop()
            self.line(body, ind, "}")
        if self.chance(0.5):
            self.line(body, ind, sync)  # no one reads during the writes below
            self.write_phase(write, body, ind)
            self.line(body, ind, sync)
            for _ in range(self.rng.randint(1, 2)):
                self.statement(read, body, ind)

    def write_phase(self, ctx, body, ind):
        """Writes of own slots (at least one), reading nothing other threads write."""
        arr = self.pick(self.shared)
        idx = self.own_slot(arr)
        e = self.gen_float(ctx, 2)
        arr.mag = max(arr.mag, e.mag)
        self.line(body, ind, "%s = %s;" % (self.sref(arr, idx), e.text))
        for _ in range(self.rng.randint(0, 2)):
            self.statement(ctx, body, ind)

    def output_part(self, ctx, body, ind):
        """The thread's own output(s): guarded, P[o] written first, then more statements."""
        self.p_place = Place("P", "%s[o]" % self.pname)
        self.p_place.mag = 1.0
        pn = self.pname
        forms = [lambda: "%s[o]" % pn, lambda: "%s[o]" % pn]
        if not self.grid_stride:
            forms.append(lambda: "%s[gid]" % pn)
            if self.dims == 2:
                forms.append(lambda: "%s[row * %s + col]" % (pn, self.wname))
        if self.allowed("spacing"):
            forms.append(lambda: (self.use("spacing"), self.pick(["%s [o]", "%s[ o ]"]) % pn)[1])
        if self.allowed("macro-elem") and self.chance(0.3):
            self.macro_lines.append("#define OUT(i) %s[(i)]" % pn)
            forms.append(lambda: (self.use("macro-elem"), "OUT(o)")[1])
        self.p_texts = forms
        if self.dims == 1:
            cond = "gid < %s" % self.wname
            neg = "gid >= %s" % self.wname
        else:
            cond = "%s < %s && %s < %s" % ("row", self.hname, "col", self.wname)
            neg = "row >= %s || col >= %s" % (self.hname, self.wname)
        if self.grid_stride:
            self.use("grid-stride")
            total = self.size_text
            if self.dims == 1:
                start = "gid"
                stride = self.pick(["gridDim.x * blockDim.x", "blockDim.x * gridDim.x"])
            else:
                # One index per thread of the grid (gridDim.y is 1 here), then a stride of all of them.
                start = "(int)(blockIdx.x * blockDim.x * blockDim.y) + lt"
                stride = "gridDim.x * blockDim.x * blockDim.y"
            self.line(body, ind, "for (int o = %s; o < %s; o += %s) {" % (start, total, stride))
            self.push()
            # A grid-stride loop walks the outputs by index; row and col are the first only.
            saved_rc = self.row_col
            self.row_col = None
            saved_gid = self.gid_name
            self.gid_name = "o"
            self.declare(Var("o", "int", 0, (self.width * self.height) - 1, kind="loop"))
            trips = (self.width * self.height + self.gx * self.nthreads - 1) // (self.gx * self.nthreads)
            inner = ctx.child(guard="o", depth=1, mult=trips, in_loop=True, loop_kind="for")
            self.output_body(inner, body, ind + 1)
            self.pop()
            self.row_col = saved_rc
            self.gid_name = saved_gid
            self.line(body, ind, "}")
            return
        early = self.allowed("early-return") and not self.barriers and self.chance(0.3)
        if early:
            self.use("early-return")
            self.line(body, ind, "if (%s) return;" % neg)
            self.line(body, ind, "int o = gid;")
            self.push()
            self.declare(Var("o", "int", 0, self.width * self.height - 1))
            self.output_body(ctx.child(guard="o"), body, ind)
            self.pop()
            return
        self.line(body, ind, "if (%s) {" % cond)
        self.push()
        self.line(body, ind + 1, "int o = gid;")
        self.declare(Var("o", "int", 0, self.width * self.height - 1))
        self.output_body(ctx.child(guard="o", depth=1), body, ind + 1)
        self.pop()
        self.line(body, ind, "}")

    def output_body(self, ctx, body, ind):
        self.push()
        for _ in range(self.rng.randint(0, 2)):
            self.statement(ctx, body, ind)
        if self.mask_reads and self.chance(0.6):
            self.conv_stmt(ctx, body, ind)
        e = self.gen_float(ctx, 2)
        # The first write of P[o]: unconditional in the guarded block.
        self.p_place.mag = max(1.0, e.mag)
        self.line(body, ind, "%s = %s;" % (self.place_text(self.p_place), e.text))
        after = ctx.child(p_written=True)
        for _ in range(self.rng.randint(1, 4)):
            self.statement(after, body, ind)
        self.use_template_helpers(after, body, ind)
        self.observe(after, body, ind)
        # tilescope run writes no output holding an infinity or a NaN, and a loop can overflow:
        # the last store keeps P[o] finite (a finite value in range stays what it was, bit for bit).
        self.line(body, ind, "%s = fminf(fmaxf(%s, -1e30f), 1e30f);" % (self.place_text(self.p_place),
                                                                     self.place_text(self.p_place)))
        self.pop()

    def observe(self, ctx, body, ind):
        """The locals still in scope, added into P[o] with small weights, so that a difference in
        any of them shows in the output."""
        terms = []
        for v in self.visible():
            if v.kind in ("float", "cref", "alias") and self.chance(0.8):
                terms.append(v.name)
            elif v.kind in ("counter",) or (v.kind == "fixed" and is_int(v.ty) and v.name.startswith(
                    ("v", "t", "a", "w", "acc", "x", "q"))) and self.chance(0.5):
                terms.append("%s * 0.125f" % v.name)
            elif v.ty in ("int64", "uint64") and self.chance(0.6):
                terms.append("(int)(%s %% 1000) * 0.125f" % v.name)
            elif v.kind == "vec" and self.chance(0.6):
                m = self.pick(sorted(v.members))
                terms.append("%s.%s%s" % (v.name, m, " * 0.125f" if is_int(v.members[m].ty) else ""))
        if not terms:
            return
        self.rng.shuffle(terms)
        terms = terms[:8]
        self.line(body, ind, "%s = %s + (%s);" % (self.place_text(self.p_place), self.place_text(self.p_place),
                                                  " + ".join(terms)))

    # [SECTION] helpers, launch, assembly

    def make_helpers(self):
        out = []
        if not self.allowed("helper"):
            return out
        for hi in range(self.weighted([(3, 0), (3, 1), (1, 2)])):
            self.use("helper")
            ret = self.weighted([(4, "float"), (2, "int"), (1 if self.allowed("double-local") else 0, "double")])
            name = self.pick(["scale", "weight", "mix", "clampish", "f", "g", "h"]) + str(hi)
            params = []
            for pi in range(self.rng.randint(1, 3)):
                pty = self.weighted([(4, "float"), (3, "int"), (1 if self.allowed("unsigned") else 0, "unsigned"),
                                     (1 if self.allowed("double-local") else 0, "double"), (1, "bool")])
                pname = self.pick(["a", "b", "c", "x", "y", "z"]) + str(pi)
                if self.allowed("name-reuse") and self.chance(0.1):
                    # The name a shared array of the kernel may have: the helper's own float.
                    pname = self.pick(["s", "tile", "N_ds", "buf", "sm"]) + str(self.rng.randint(0, 1))
                while any(p[0] == pname for p in params):
                    pname += "_"
                if pty == "int":
                    params.append((pname, "int", -100, 100))
                elif pty == "unsigned":
                    params.append((pname, "unsigned", 0, 1000))
                elif pty == "bool":
                    params.append((pname, "bool", 0, 1))
                else:
                    params.append((pname, pty, 0, 0))
            self.scopes = [[]]
            for (pname, pty, lo, hi_) in params:
                if is_int(pty):
                    self.declare(Var(pname, pty, lo, hi_))
                else:
                    self.declare(Var(pname, pty, mag=4.0, kind="fixed"))
            ctx = Ctx(helper=True, guard=None)
            lines = []
            saved_shared, self.shared = self.shared, []
            saved_mask, self.mask_reads = self.mask_reads, []
            saved_fp, self.float_params = self.float_params, []
            saved_b, self.builtin_ints = self.builtin_ints, []
            saved_im, saved_fm = self.int_macros, self.float_macros
            self.int_macros, self.float_macros = [], []
            if self.chance(0.4):
                v = self.fresh("t")
                e = self.gen_float(ctx, 1) if ret != "int" else self.gen_int(ctx, 1, -1000, 1000)
                ty = "float" if ret != "int" else "int"
                if ty == "int":
                    lo, hi_ = e.rng_in("int")
                    self.line(lines, 1, "int %s = %s;" % (v, e.text))
                    self.declare(Var(v, "int", lo, hi_))
                else:
                    self.line(lines, 1, "float %s = %s;" % (v, e.text))
                    self.declare(Var(v, "float", mag=e.mag, kind="fixed"))
            if ret == "int":
                e = self.gen_int(ctx, 2, -10000, 10000)
                lo, hi_ = e.rng_in("int")
                self.line(lines, 1, "return %s;" % e.text)
                h = {"name": name, "ret": "int", "params": params, "lo": lo, "hi": hi_, "mag": 0}
            else:
                e = self.gen_float(ctx, 2)
                if self.chance(0.3):
                    c = self.gen_cond(ctx, 0)
                    e2 = self.gen_float(ctx, 1)
                    self.line(lines, 1, "if (%s) return %s;" % (c.text, e2.text))
                    e.mag = max(e.mag, e2.mag)
                self.line(lines, 1, "return %s;" % e.text)
                h = {"name": name, "ret": ret, "params": params, "lo": 0, "hi": 0, "mag": max(e.mag, 1.0)}
            self.shared, self.mask_reads, self.float_params, self.builtin_ints = saved_shared, saved_mask, saved_fp, saved_b
            self.int_macros, self.float_macros = saved_im, saved_fm
            qual = self.pick(["__device__", "__device__", "__device__ inline", "__device__ __forceinline__",
                              "__device__ __noinline__"])
            decls = ["%s %s" % (p[1], p[0]) for p in params]
            if self.allowed("helper-default") and is_float(params[-1][1]) and self.chance(0.2):
                self.use("helper-default")
                d = self.pick(["0.5f", "1.25f", "2.0f"])
                decls[-1] += " = " + d
                h["default"] = d
            sig = "%s %s %s(%s)" % (qual, ret, name, ", ".join(decls))
            out.append(sig + "\n{\n" + "\n".join(lines) + "\n}")
            self.helpers.append(h)
        return out

    def launch_text(self, params, bsx, bsy):
        L = []
        names = {"N": "N", "M": "M", "P": "P"}
        if self.allowed("launch-names") and self.chance(0.1):
            self.use("launch-names")
            names = dict(zip("NMP", self.pick([("in", "mask", "out"), ("d_N", "d_M", "d_P"), ("input", "F", "output")])))
        sig = ("void launch(const float* N, const float* M, float* P, int r, int width, int height)" if self.dims == 2
               else "void launch(const float* N, const float* M, float* P, int r, int width)")
        sig = sig.replace("* N", "* " + names["N"]).replace("* M", "* " + names["M"]).replace("* P", "* " + names["P"])
        L.append(sig)
        L.append("{")
        L.append("    int maskWidth = 2 * r + 1;")
        if self.const_mask:
            count = "maskWidth" if self.dims == 1 else "maskWidth * maskWidth"
            sym = ("::" + self.cname) if self.scoped else self.cname
            form = self.weighted([(4, "plain"), (1 if self.allowed("memcpy-kind") else 0, "kind"), (1, "bytes")])
            if self.const_off:
                L.append("    cudaMemcpyToSymbol(%s, %s, %s * sizeof(float), %d * sizeof(float)%s);" % (
                    sym, names["M"], count, self.const_off,
                    self.pick(["", ", cudaMemcpyDeviceToDevice", ", cudaMemcpyDefault"])))
            elif form == "plain":
                L.append("    cudaMemcpyToSymbol(%s, %s, %s * sizeof(float));" % (sym, names["M"], count))
            elif form == "bytes":
                L.append("    size_t bytes = %s * sizeof(float);" % count)
                L.append("    cudaMemcpyToSymbol(%s, %s, bytes);" % (sym, names["M"]))
            else:
                self.use("memcpy-kind")
                kind = self.pick(["cudaMemcpyDeviceToDevice", "cudaMemcpyDefault", "cudaMemcpyHostToDevice"])
                L.append("    cudaMemcpyToSymbol(%s, %s, %s * sizeof(float), 0, %s);" % (sym, names["M"], count, kind))
        # The grid and the block.
        forms = [(4, "dim3")]
        forms += [(2 if self.allowed("launch-int") and self.dims == 1 else 0, "int"),
                  (1 if self.allowed("launch-literal") else 0, "literal"),
                  (1 if self.allowed("launch-macro") else 0, "macro"),
                  (1 if self.allowed("launch-macro") else 0, "macro-block"),
                  (1 if self.allowed("launch-dim3-temp") else 0, "temp"),
                  (1 if self.allowed("dim3-assign") else 0, "assign"),
                  (1 if (self.allowed("launch-ceil") and not self.grid_stride) else 0, "ceil")]
        form = self.weighted(forms)
        bxm, bym = bsx, bsy
        host_helper = ""
        if self.grid_stride:
            gx_text = str(self.gx)
            gy_text = "1"
        elif self.allowed("host-helper") and form in ("dim3", "assign", "temp") and self.chance(0.2):
            # A host function of the file's own, called by launch().
            self.use("host-helper")
            host_helper = self.pick(["int divUp(int a, int b) { return (a + b - 1) / b; }",
                                     "static int divUp(int a, int b)\n{\n    return (a + b - 1) / b;\n}",
                                     "inline unsigned divUp(unsigned a, unsigned b) { return (a + b - 1) / b; }"])
            gx_text = "divUp(width, %s)" % bxm
            gy_text = "divUp(height, %s)" % bym
        else:
            gx_text = "(width + %s - 1) / %s" % (bxm, bxm)
            gy_text = "(height + %s - 1) / %s" % (bym, bym)
        if self.dims == 2:
            block_args = "%s, %s" % (bxm, bym)
            grid_args = "%s, %s" % (gx_text, gy_text)
        else:
            block_args = bxm
            grid_args = gx_text
        third = ""
        if self.dyn_floats:
            L.append("    int shBytes = %d * sizeof(float);" % self.dyn_floats)
            third = ", shBytes"
            self.use("launch-bytes")
        elif self.allowed("launch-bytes") and self.chance(0.15):
            third = self.pick([", 0", ", 0, 0"])
            self.use("launch-bytes")
        if form == "dim3":
            self.use("launch-dim3")
            ones = self.pick(["", "", ", 1"]) if self.dims == 2 else self.pick(["", "", ", 1", ", 1, 1"])
            L.append("    dim3 block(%s%s);" % (block_args, ones))
            L.append("    dim3 grid(%s%s);" % (grid_args, ones))
            g, b = "grid", "block"
        elif form == "int":
            self.use("launch-int")
            L.append("    int threads = %s;" % bxm)
            L.append("    int blocks = %s;" % (gx_text.replace(bxm, "threads")))
            g, b = "blocks", "threads"
        elif form == "literal":
            self.use("launch-literal")
            if self.dims == 1:
                g = "(width + %d) / %d" % (self.bx - 1, self.bx) if not self.grid_stride else str(self.gx)
                b = str(self.bx)
            else:
                L.append("    dim3 block(%d, %d);" % (self.bx, self.by))
                g = "dim3((width + %d) / %d, (height + %d) / %d)" % (self.bx - 1, self.bx, self.by - 1, self.by) \
                    if not self.grid_stride else "dim3(%d)" % self.gx
                b = "block"
        elif form == "macro":
            self.use("launch-macro")
            self.macros_used.add("GRID")
            self.macros_used.add("BLOCK")
            self.launch_macros = ("#define BLOCK %s" % ("dim3(%s)" % block_args if self.dims == 2 else bxm),
                                  "#define GRID %s" % ("dim3(%s)" % grid_args if self.dims == 2 else
                                                       "((%s))" % grid_args))
            g, b = "GRID", "BLOCK"
        elif form == "macro-block":
            self.use("launch-macro")
            L.append("    dim3 grid(%s);" % grid_args)
            if self.dims == 2:
                L.append("    dim3 block(%s);" % block_args)
                g, b = "grid", "block"
            else:
                g, b = "grid", bxm
        elif form == "temp":
            self.use("launch-dim3-temp")
            g, b = "dim3(%s)" % grid_args, "dim3(%s)" % block_args
            if not third:
                third = ", 0"
                self.use("launch-bytes")
        elif form == "assign":
            self.use("dim3-assign")
            L.append("    dim3 block;")
            L.append("    block = dim3(%s);" % block_args)
            L.append("    dim3 grid;")
            L.append("    grid = dim3(%s);" % grid_args)
            g, b = "grid", "block"
        else:  # ceil
            self.use("launch-ceil")
            if self.dims == 1:
                L.append("    dim3 grid(ceil(width / (float)%s));" % bxm)
                L.append("    dim3 block(%s);" % bxm)
            else:
                L.append("    dim3 grid(ceil(width / (float)%s), ceil(height / (float)%s));" % (bxm, bym))
                L.append("    dim3 block(%s, %s);" % (bxm, bym))
            g, b = "grid", "block"
        def rename(a):
            for k in ("N", "M", "P"):
                if a == k or a.endswith("(" + k + ")") or a.endswith(")" + k):
                    return a[:len(a) - len(k) - (1 if a.endswith(")") and a != k else 0)] + names[k] + (")" if a.endswith("(" + k + ")") else "")
            return a
        args = ", ".join(rename(a) for _, a in params)
        if self.allowed("launch-vs-spacing") and self.chance(0.1):
            self.use("launch-vs-spacing")
            call = "%s << <%s, %s%s >> > (%s);" % (self.kname + self.targs, g, b, third, args)
        elif self.allowed("launch-spacing") and self.chance(0.15):
            self.use("launch-spacing")
            form = self.pick(["%s <<<%s, %s%s>>>(%s);", "%s<<< %s, %s%s >>>(%s);", "%s<<<%s,%s%s>>> (%s);",
                              "%s<<<%s, %s%s>>>(\n        %s);"])
            call = form % (self.kname + self.targs, g, b.strip(), third, args if "\n" not in form else args.replace(
                ", ", ",\n        ", 1))
        else:
            call = "%s<<<%s, %s%s>>>(%s);" % (self.kname + self.targs, g, b, third, args)
        if self.allowed("launch-in-if") and self.chance(0.1):
            self.use("launch-in-if")
            L.append("    if (width > 0%s) {" % (" && height > 0" if self.dims == 2 else ""))
            L.append("        " + call)
            L.append("    }")
        else:
            L.append("    " + call)
        if self.allowed("launch-checks") and self.chance(0.3):
            self.use("launch-checks")
            L.append(self.pick(["    cudaDeviceSynchronize();", "    cudaGetLastError();",
                                "    cudaError_t err = cudaGetLastError();\n    (void)err;"]))
        L.append("}")
        if host_helper:
            L.insert(0, host_helper + "\n")
        return "\n".join(L)

    def assemble(self, params, body, bsx, bsy):
        helpers = self.helper_texts
        sig_params = ", ".join(p for p, _ in params)
        extern_c = self.allowed("extern-c") and not self.tkernel and self.chance(0.1)
        if extern_c:
            self.use("extern-c")
        bounds = ""
        if self.allowed("launch-bounds") and self.chance(0.12):
            # At least the block's threads: a launch of more than the bound fails on a GPU.
            self.use("launch-bounds")
            most = self.pick([v for v in (self.nthreads, 256, 512, 1024) if v >= self.nthreads])
            text = str(most)
            if most == self.nthreads and self.chance(0.5):
                text = bsx if self.dims == 1 else "%s * %s" % (bsx, bsy)
            bounds = "__launch_bounds__(%s%s)" % (text, self.pick(["", "", ", 2", ", 1"]))
        template = ""
        if self.tkernel:
            template = "template <%s>\n" % ", ".join("%s %s" % (k, n) for k, n, _ in self.tkernel)
            self.targs = "<%s>" % ", ".join(bsx if (n == "BDIM" and self.chance(0.3)) else v
                                             for _, n, v in self.tkernel)
        if bounds and self.chance(0.25):
            kdecl = "%s%s__global__ %s void %s(%s)" % (template, 'extern "C" ' if extern_c else "", bounds,
                                                        self.kname, sig_params)
        else:
            kdecl = "%s%s__global__ void %s%s(%s)" % (template, 'extern "C" ' if extern_c else "",
                                                      bounds + " " if bounds else "", self.kname, sig_params)
        launch = self.launch_text(params, bsx, bsy)

        parts = []
        parts.append("// A kernel generated by tests/own/difftest/generate.py (seed %s)." % self.seed)
        includes = ["#include <cuda_runtime.h>"]
        if self.chance(0.3):
            includes.append(self.pick(["#include <math.h>", "#include <cmath>", "#include <stdio.h>"]))
        if {"fixed-int", "fixed-int64"} & self.tags:
            # nvcc declares none of the fixed-width integers by itself (TileScope refuses them without the header).
            includes.append(self.pick(["#include <stdint.h>", "#include <cstdint>", "#include <cuda.h>"]))
        parts.append("\n".join(includes))
        macros = []
        shape = [(bsx, self.bx)] + ([(bsy, self.by)] if self.dims == 2 else [])
        guard = self.allowed("preproc-cond") and self.chance(0.15)
        for name, value in shape:
            if guard:
                self.use("preproc-cond")
                macros.append("#ifndef %s\n#define %s %d\n#endif" % (name, name, value))
            else:
                macros.append("#define %s %d" % (name, value))
        if self.const_mask:
            macros.append("#define MAX_MASK %d" % self.maxw)
        used = self.macros_used | set(self.scan_macros(body))
        macro_defs = {
            "OFFS": "#define OFFS 3",
            "SCALE": "#define SCALE 0.5f",
            "BIAS": "#define BIAS (1.0 / 3.0)",
            "SQ": "#define SQ(x) ((x) * (x))",
            "HALF": "#define HALF(x) ((x) * 0.5f)",
            "MIX": "#define MIX(a, b) ((a) * 0.75f + (b) * 0.25f)",
            "IMOD": "#define IMOD(a) ((a) % 5)",
            "TWICE": "#define TWICE(a) ((a) * 2)",
            "ACC": "#define ACC(sum, v) sum += (v)",
            "ITERS": "#define ITERS %d" % self.iters,
            "SYNC": "#define SYNC() __syncthreads()",
            "ID": "#define ID(x) (x)",
        }
        for name in ["OFFS", "SCALE", "BIAS", "SQ", "HALF", "MIX", "IMOD", "TWICE", "ACC", "ITERS", "SYNC", "ID"]:
            if name in used:
                macros.append(macro_defs[name])
        macros.extend(self.launch_macros)
        macros.extend(self.macro_lines)
        parts.append("\n".join(macros))
        if self.size_global_used:
            self.globals_text.append("%s int kThreads = %d;" % (self.pick(["const", "constexpr"]), self.nthreads))
        if self.globals_text:
            parts.append("\n".join(self.globals_text))
        if self.const_mask:
            if self.const2d:
                parts.append("__constant__ float %s[MAX_MASK][MAX_MASK];" % self.cname)
            else:
                parts.append("__constant__ float %s[%s];" % (self.cname, self.const_size_text))
        proto = self.allowed("prototype") and self.chance(0.15)
        late = proto and self.allowed("prototype-late") and self.chance(0.5)
        if proto:
            self.use("prototype")
            parts.append(kdecl + ";")
        # The helpers: defined ahead of the kernel, or declared ahead and defined after it.
        helpers_late = bool(helpers) and self.allowed("helper-late") and self.chance(0.15)
        if helpers_late:
            self.use("helper-late")
            parts.extend(h.split("\n")[0] + ";" for h in helpers)
            # A default argument is given once, in the declaration.
            helpers = [re.sub(r" = [0-9.]+f\)", ")", h.split("\n")[0]) + "\n" + h.split("\n", 1)[1]
                       for h in helpers]
        else:
            parts.extend(helpers)
        # The function templates: defined ahead of the kernel, or declared ahead and defined after it.
        template_after = []
        for h in self.tmpl_helpers:
            declaration, definition = self.template_texts(h)
            if declaration:
                parts.insert(len(parts) - (len(helpers) if not helpers_late else 0), declaration)
                if definition:
                    template_after.append(definition)
            else:
                parts.insert(len(parts) - (len(helpers) if not helpers_late else 0), definition)
        shared_names = [a.name for a in self.shared]
        if any(p[0] in shared_names for h in self.helpers for p in h["params"]):
            self.use("name-reuse")
        if self.allowed("second-kernel") and self.chance(0.08):
            self.use("second-kernel")
            local = ""
            value = "0.0f"
            if shared_names and self.allowed("name-reuse") and self.chance(0.5):
                # A float local named as the launched kernel's shared array: this kernel's own.
                self.use("name-reuse")
                local = "    float %s = 0.5f;\n" % shared_names[0]
                value = shared_names[0]
            parts.append("__global__ void unused_%s(float* %s, int %s)\n{\n    int i = blockIdx.x * blockDim.x + "
                         "threadIdx.x;\n%s    if (i < %s) %s[i] = %s;\n}" % (self.kname, self.pname, self.wname,
                                                                          local, self.wname, self.pname, value))
        kernel = kdecl + "\n{\n" + "\n".join(body) + "\n}"
        if not extern_c and not proto and not self.tkernel and self.allowed("extern-c-block") and self.chance(0.06):
            self.use("extern-c-block")
            kernel = 'extern "C" {\n\n' + kernel + "\n\n}  // extern \"C\""
        if template_after:
            kernel = "\n\n".join([kernel] + template_after)
        if late:
            self.use("prototype-late")
            parts.append(launch)
            parts.append(kernel)
        else:
            parts.append(kernel)
            if helpers_late:
                parts.extend(helpers)
            parts.append(launch)
        if late and helpers_late:
            parts.extend(helpers)
        text = "\n\n".join(p for p in parts if p) + "\n"
        k = Kernel()
        k.dims, k.width, k.height, k.radius = self.dims, self.width, self.height, self.radius
        k.barriers = self.barriers
        k.seed = self.seed
        k.tags = set(self.tags)
        k.name = self.kname
        text = self.dress(text)
        k.tags = set(self.tags)
        header = "// difftest: dims=%d width=%d height=%d radius=%d barriers=%d seed=%s\n" % (
            k.dims, k.width, k.height, k.radius, int(k.barriers), k.seed)
        header += "// difftest-tags: %s\n" % " ".join(sorted(k.tags))
        k.text = header + text
        if self.crlf:
            k.text = k.text.replace("\n", "\r\n")
        return k

    def dress(self, text):
        """Comments, tabs, non-ASCII text and CRLF line ends, now and then."""
        lines = text.split("\n")
        if self.allowed("comments") and self.chance(0.2):
            self.use("comments")
            notes = ["// load", "// the halo", "// ghost cells are 0", "// one output per thread", "// TODO",
                     "/* see Figure 7.11 */", "// x", "//"]
            for i, line in enumerate(lines):
                st = line.strip()
                if st.startswith(("#", "//")) or not st:
                    continue
                if st.endswith((";", "{")) and self.chance(0.15):
                    lines[i] = line + "  " + self.pick(notes)
                elif " = " in line and st.endswith(";") and self.chance(0.05):
                    lines[i] = line.replace(" = ", " = /* value */ ", 1)
        if self.allowed("unicode") and self.chance(0.05):
            self.use("unicode")
            lines.insert(1, "// Faltung über die Maske — σ, ½ und ∑ in einem Kommentar.")
        text = "\n".join(lines)
        if self.allowed("tabs") and self.chance(0.05):
            self.use("tabs")
            text = "\n".join(self.tabbed(l) for l in text.split("\n"))
        self.crlf = self.allowed("crlf") and self.chance(0.05)
        if self.crlf:
            self.use("crlf")
        return text

    @staticmethod
    def tabbed(line):
        n = len(line) - len(line.lstrip(" "))
        return "\t" * (n // 4) + " " * (n % 4) + line.lstrip(" ")

    def scan_macros(self, body):
        text = "\n".join(body)
        return [m for m in ("OFFS", "SCALE", "BIAS", "SQ", "HALF", "MIX", "IMOD", "TWICE", "ACC", "ITERS", "SYNC")
                if m in text]


def generate(seed, barriers=None, dims=None, exclude=()):
    return Generator(seed, barriers=barriers, dims=dims, exclude=exclude).generate()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", default="1", help="the run's seed; kernel i gets seed SEED:i")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--out", help="folder to write the kernels into (default: print the first)")
    b = p.add_mutually_exclusive_group()
    b.add_argument("--barriers", dest="barriers", action="store_const", const=True,
                   help="only kernels with __syncthreads()")
    b.add_argument("--no-barriers", dest="barriers", action="store_const", const=False,
                   help="only barrier-free kernels")
    p.add_argument("--dims", type=int, choices=(1, 2))
    p.add_argument("--exclude", default="", help="comma-separated tag prefixes to leave out (--list-tags)")
    p.add_argument("--list-tags", action="store_true")
    opts = p.parse_args()
    if opts.list_tags:
        for t, what in TAGS.items():
            print("%-20s %s" % (t, what))
        return 0
    exclude = [e.strip() for e in opts.exclude.split(",") if e.strip()]
    for i in range(opts.count):
        k = generate("%s:%d" % (opts.seed, i), opts.barriers, opts.dims, exclude)
        if not opts.out:
            sys.stdout.write(k.text)
            return 0
        os.makedirs(opts.out, exist_ok=True)
        with open(os.path.join(opts.out, "k%s_%04d.cu" % (str(opts.seed).replace(":", "_"), i)), "w") as f:
            f.write(k.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
