// CUDA's math API on the CPU executor (own_cpu_prelude.hpp includes it inside
// namespace tilescope::own_user): what C and C++ have comes from <cmath>,
// with C++'s float overloads (`exp2(x)` of a float is a float, as CUDA's
// headers make it); what is CUDA's alone is computed here in double and
// rounded once to float. docs/own-kernel.md ("Math functions") says which
// agree with a GPU to the bit and which may differ in the last bits.
//
// (No include guard and no includes: this file is textually part of a prelude.)

using std::acos;
using std::acosh;
using std::asin;
using std::asinh;
using std::atan;
using std::atan2;
using std::atanh;
using std::cbrt;
using std::copysign;
using std::cosh;
using std::erf;
using std::erfc;
using std::exp2;
using std::expm1;
using std::fdim;
using std::fma;
using std::fmod;
using std::hypot;
using std::ilogb;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::ldexp;
using std::lgamma;
using std::llrint;
using std::llround;
using std::log10;
using std::log1p;
using std::log2;
using std::logb;
using std::lrint;
using std::lround;
using std::nearbyint;
using std::nextafter;
using std::remainder;
using std::rint;
using std::scalbln;
using std::scalbn;
using std::signbit;
using std::sinh;
using std::tan;
using std::tanh;
using std::tgamma;

namespace cuda_math {

constexpr double kPi = 3.141592653589793238462643383279502884;

// sin(pi x) with x reduced exactly first: an integer gives 0, as CUDA's sinpi.
inline double sinpi(double x) {
    if (std::isinf(x) || std::isnan(x)) return std::nan("");
    const double r = std::fmod(x, 2.0);  // exact
    if (r == std::trunc(r)) return std::copysign(0.0, x);
    return std::sin(kPi * r);
}
// cos(pi x): an integer plus a half gives 0.
inline double cospi(double x) {
    if (std::isinf(x) || std::isnan(x)) return std::nan("");
    const double r = std::fabs(std::fmod(x, 2.0));
    if (r == 0.5 || r == 1.5) return 0.0;
    if (r == 0.0) return 1.0;
    if (r == 1.0) return -1.0;
    return std::cos(kPi * r);
}
// The inverse of erfc by Newton's method from a rough start (erfc is
// monotonic and its derivative is known: -2/sqrt(pi) exp(-x^2)).
inline double erfcinv(double y) {
    if (std::isnan(y) || y < 0.0 || y > 2.0) return std::nan("");
    if (y == 0.0) return INFINITY;
    if (y == 2.0) return -INFINITY;
    if (y == 1.0) return 0.0;
    // Start: the tail's asymptote for small y (or 2 - y), a line near 1.
    const double t = y < 1.0 ? y : 2.0 - y;
    double x = t < 0.3 ? std::sqrt(-std::log(t * std::sqrt(kPi) * std::sqrt(-std::log(t)) + 1e-300)) : (1.0 - t);
    if (x != x || std::isinf(x)) x = 1.0;
    for (int i = 0; i < 60; ++i) {
        const double step = (std::erfc(x) - t) / (-2.0 / std::sqrt(kPi) * std::exp(-x * x));
        x -= step;
        if (std::fabs(step) <= 1e-17 * std::fabs(x)) break;
    }
    return y < 1.0 ? x : -x;
}
inline double erfinv(double y) { return y == 1.0 ? INFINITY : y == -1.0 ? -INFINITY : erfcinv(1.0 - y); }
// exp(x^2) erfc(x), past erfc's underflow by its asymptotic series.
inline double erfcx(double x) {
    if (x < 25.0) return std::exp(x * x) * std::erfc(x);
    const double s = 1.0 / (2.0 * x * x);
    return (1.0 - s * (1.0 - 3.0 * s * (1.0 - 5.0 * s))) / (x * std::sqrt(kPi));
}
inline double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
inline double normcdfinv(double p) { return -std::sqrt(2.0) * erfcinv(2.0 * p); }

}  // namespace cuda_math

// Each of CUDA's own: NAMEf for a float, NAME for a float or a double.
#define TS_CUDA_MATH1(NAME, EXPR)                                                        \
    inline double NAME(double x) { return EXPR; }                                        \
    inline float NAME(float x) { return static_cast<float>(NAME(static_cast<double>(x))); } \
    inline float NAME##f(float x) { return NAME(x); }
TS_CUDA_MATH1(rsqrt, 1.0 / std::sqrt(x))
TS_CUDA_MATH1(rcbrt, 1.0 / std::cbrt(x))
TS_CUDA_MATH1(sinpi, cuda_math::sinpi(x))
TS_CUDA_MATH1(cospi, cuda_math::cospi(x))
TS_CUDA_MATH1(exp10, std::pow(10.0, x))
TS_CUDA_MATH1(erfinv, cuda_math::erfinv(x))
TS_CUDA_MATH1(erfcinv, cuda_math::erfcinv(x))
TS_CUDA_MATH1(erfcx, cuda_math::erfcx(x))
TS_CUDA_MATH1(normcdf, cuda_math::normcdf(x))
TS_CUDA_MATH1(normcdfinv, cuda_math::normcdfinv(x))
TS_CUDA_MATH1(cyl_bessel_i0, std::cyl_bessel_i(0.0, std::fabs(x)))
TS_CUDA_MATH1(cyl_bessel_i1, (x < 0 ? -1.0 : 1.0) * std::cyl_bessel_i(1.0, std::fabs(x)))
TS_CUDA_MATH1(j0, ::j0(x))
TS_CUDA_MATH1(j1, ::j1(x))
TS_CUDA_MATH1(y0, ::y0(x))
TS_CUDA_MATH1(y1, ::y1(x))
#undef TS_CUDA_MATH1
inline double jn(int n, double x) { return ::jn(n, x); }
inline float jnf(int n, float x) { return static_cast<float>(::jn(n, static_cast<double>(x))); }
inline double yn(int n, double x) { return ::yn(n, x); }
inline float ynf(int n, float x) { return static_cast<float>(::yn(n, static_cast<double>(x))); }
inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float rhypotf(float x, float y) { return static_cast<float>(rhypot(x, y)); }
inline double norm3d(double a, double b, double c) { return std::sqrt(a * a + b * b + c * c); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(rnorm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) { return std::sqrt(a * a + b * b + c * c + d * d); }
inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(rnorm4d(a, b, c, d)); }
// x / y: CUDA's is within 2 ulp; here the quotient rounded once.
inline float fdividef(float x, float y) { return x / y; }

// The single-precision intrinsics. The _rn operations are IEEE's
// round-to-nearest (the CPU's own float arithmetic, FMA for __fmaf_rn); the
// fast approximations (__expf, __sinf, ...) are computed here as their exact
// functions, which the GPU's hardware approximations may miss by several ulp.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float a) { return a >= 1.0f ? 1.0f : a > 0.0f ? a : 0.0f; }  // NaN gives 0
inline float __expf(float a) { return std::exp(a); }
inline float __exp10f(float a) { return exp10f(a); }
inline float __logf(float a) { return std::log(a); }
inline float __log2f(float a) { return std::log2(a); }
inline float __log10f(float a) { return std::log10(a); }
inline float __sinf(float a) { return std::sin(a); }
inline float __cosf(float a) { return std::cos(a); }
inline float __tanf(float a) { return std::tan(a); }
inline float __powf(float a, float b) { return std::pow(a, b); }
