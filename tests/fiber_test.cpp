// The fibers the CPU executor runs each CUDA thread on (exec/fiber.hpp), on
// their own: many fibers taking turns, each one's stack and registers kept
// across its switches, the floating-point modes kept per fiber, a fiber that
// finishes while others are suspended, stacks going back to the pool and
// coming out again, a suspended fiber abandoned with reset(), exceptions
// thrown and caught inside one fiber, and backtraces that end at the fiber's
// first frame. The same tests hold for each implementation (own switch,
// Boost.Context, ucontext); TILESCOPE_EXPECTED_FIBERS is the one CMake chose.
#include <gtest/gtest.h>

#include <execinfo.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "exec/fiber.hpp"

namespace tilescope::test {
namespace {

using cpu::Fiber;
using cpu::StackPool;

constexpr std::size_t kStackBytes = 64 * 1024;  // as the executor's

bool onStack(std::uintptr_t a, const void* stack) {
    auto s = reinterpret_cast<std::uintptr_t>(stack);
    return a >= s && a < s + kStackBytes;
}

TEST(Fiber, ImplementationIsTheOneTheBuildChose) {
    EXPECT_STREQ(cpu::fiberImplementation(), TILESCOPE_EXPECTED_FIBERS);
}

// Many fibers take turns; each keeps values on its own stack and in
// registers across its yields, and the turns come in the order resumed.
struct PingPong {
    Fiber fiber;
    int id = 0;
    int rounds = 0;
    std::vector<int>* log = nullptr;
    bool intact = false;
};

void pingPongEntry(void* argument) {
    auto* p = static_cast<PingPong*>(argument);
    // Values on this stack that depend on the fiber, checked after every
    // switch: another fiber writing its own stack must not reach them.
    volatile std::uint64_t onMyStack[64];
    for (int i = 0; i < 64; ++i) onMyStack[i] = static_cast<std::uint64_t>(p->id) * 1000003u + i;
    // And values the compiler keeps where it likes (registers, callee-saved
    // or not) across the opaque call of yield().
    std::uint64_t a = p->id * 3u + 1, b = p->id * 7u + 2, c = p->id * 11u + 3;
    double x = p->id * 0.25 + 1.0, y = p->id * 0.5 - 3.0, z = p->id * 0.125;  // sums below stay exact
    bool intact = true;
    for (int r = 0; r < p->rounds; ++r) {
        p->log->push_back(p->id);
        p->fiber.yield();
        for (int i = 0; i < 64; ++i)
            intact = intact && onMyStack[i] == static_cast<std::uint64_t>(p->id) * 1000003u + i;
        intact = intact && a == p->id * 3u + 1 + r && b == p->id * 7u + 2 + r && c == p->id * 11u + 3 + r;
        intact = intact && x == p->id * 0.25 + 1.0 + r && y == p->id * 0.5 - 3.0 - r && z == p->id * 0.125 + 2.0 * r;
        a += 1, b += 1, c += 1;
        x += 1.0, y -= 1.0, z += 2.0;
    }
    p->intact = intact;
}

TEST(Fiber, ManyFibersTakeTurnsAndKeepTheirStacksAndRegisters) {
    StackPool pool(kStackBytes);
    constexpr int kFibers = 300, kRounds = 20;
    std::vector<std::unique_ptr<PingPong>> fibers;
    std::vector<int> log;
    for (int i = 0; i < kFibers; ++i) {
        fibers.push_back(std::make_unique<PingPong>());
        PingPong& p = *fibers.back();
        p.id = i;
        p.rounds = kRounds;
        p.log = &log;
        p.fiber.start(pool, &pingPongEntry, &p);
    }
    // Round robin, until every fiber has finished: each round logs every id once, in order.
    int resumes = 0;
    for (bool any = true; any;) {
        any = false;
        for (auto& p : fibers) {
            if (p->fiber.finished()) continue;
            p->fiber.resume();
            ++resumes;
            any = true;
        }
    }
    EXPECT_EQ(resumes, kFibers * (kRounds + 1));  // the last resume runs from the last yield to the end
    ASSERT_EQ(log.size(), static_cast<std::size_t>(kFibers * kRounds));
    for (std::size_t i = 0; i < log.size(); ++i) ASSERT_EQ(log[i], static_cast<int>(i % kFibers)) << i;
    for (auto& p : fibers) EXPECT_TRUE(p->intact) << "fiber " << p->id;
}

// The floating-point modes (rounding; the whole x87 control word and MXCSR
// on x86-64, FPCR on AArch64) are callee-saved: each fiber keeps its own,
// and whoever resumes a fiber gets its own back when the fiber yields.
struct RoundingFiber {
    Fiber fiber;
    int mode = FE_TONEAREST;
    int seenAfterYield = -1;
    float third = 0.0f;
};

void roundingEntry(void* argument) {
    auto* f = static_cast<RoundingFiber*>(argument);
    std::fesetround(f->mode);
    f->fiber.yield();
    f->seenAfterYield = std::fegetround();
    volatile float one = 1.0f, three = 3.0f;
    f->third = one / three;  // rounded the fiber's way
}

TEST(Fiber, FloatingPointModesAreKeptPerFiber) {
    StackPool pool(kStackBytes);
    const int before = std::fegetround();
    ASSERT_EQ(before, FE_TONEAREST);
    RoundingFiber up, down;
    up.mode = FE_UPWARD;
    down.mode = FE_DOWNWARD;
    up.fiber.start(pool, &roundingEntry, &up);
    down.fiber.start(pool, &roundingEntry, &down);
    up.fiber.resume();  // sets upward, yields
    EXPECT_EQ(std::fegetround(), FE_TONEAREST) << "the fiber's rounding mode leaked into its resumer";
#if defined(__x86_64__)
    EXPECT_EQ(_mm_getcsr() & _MM_ROUND_MASK, static_cast<unsigned>(_MM_ROUND_NEAREST)) << "MXCSR leaked";
#endif
    down.fiber.resume();  // sets downward, yields
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    up.fiber.resume();
    down.fiber.resume();
    EXPECT_TRUE(up.fiber.finished());
    EXPECT_TRUE(down.fiber.finished());
    EXPECT_EQ(up.seenAfterYield, FE_UPWARD);
    EXPECT_EQ(down.seenAfterYield, FE_DOWNWARD);
    EXPECT_GT(up.third, down.third);  // 1/3 is not a float: the two roundings differ by one ulp
    EXPECT_EQ(std::nextafter(down.third, 1.0f), up.third);
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    std::fesetround(before);
}

#if defined(__x86_64__)
// The x87 control word and MXCSR each on their own: fesetround sets both, so
// a switch that kept only one would not show in the test above.
struct ControlFiber {
    Fiber fiber;
    unsigned short x87 = 0;
    unsigned mxcsr = 0;
    unsigned short x87After = 0;
    unsigned mxcsrAfter = 0;
};

void controlEntry(void* argument) {
    auto* f = static_cast<ControlFiber*>(argument);
    asm volatile("fldcw %0" : : "m"(f->x87));
    _mm_setcsr(f->mxcsr);
    f->fiber.yield();
    asm volatile("fnstcw %0" : "=m"(f->x87After));
    f->mxcsrAfter = _mm_getcsr();
}

TEST(Fiber, X87ControlWordAndMxcsrAreKeptPerFiber) {
    StackPool pool(kStackBytes);
    unsigned short x87Before = 0;
    asm volatile("fnstcw %0" : "=m"(x87Before));
    const unsigned mxcsrBefore = _mm_getcsr();
    ControlFiber f;
    f.x87 = static_cast<unsigned short>(x87Before & ~0x0300u);  // precision control: single
    f.mxcsr = mxcsrBefore | 0x8040u;                             // flush-to-zero and denormals-are-zero
    f.fiber.start(pool, &controlEntry, &f);
    f.fiber.resume();
    unsigned short x87Now = 0;
    asm volatile("fnstcw %0" : "=m"(x87Now));
    EXPECT_EQ(x87Now, x87Before);
    EXPECT_EQ(_mm_getcsr() & ~0x3fu, mxcsrBefore & ~0x3fu);  // the control bits (the low six are status flags)
    f.fiber.resume();
    EXPECT_TRUE(f.fiber.finished());
    EXPECT_EQ(f.x87After, f.x87);
    EXPECT_EQ(f.mxcsrAfter & ~0x3fu, f.mxcsr & ~0x3fu);
    asm volatile("fnstcw %0" : "=m"(x87Now));
    EXPECT_EQ(x87Now, x87Before);
    EXPECT_EQ(_mm_getcsr() & ~0x3fu, mxcsrBefore & ~0x3fu);
}
#endif

// A fiber that finishes while others wait gives its stack back to the pool
// at once; the next fiber started runs on that stack; the waiting fibers go
// on untouched.
struct Recorder {
    Fiber* fiber = nullptr;  // the fiber it runs on
    int yields = 0;
    std::uintptr_t stackLocal = 0;  // where a local of the entry lay
    int sum = 0;
};

void recorderEntry(void* argument) {
    auto* r = static_cast<Recorder*>(argument);
    int local[16];
    for (int i = 0; i < 16; ++i) local[i] = i + r->yields;
    r->stackLocal = reinterpret_cast<std::uintptr_t>(&local[0]);
    for (int y = 0; y < r->yields; ++y) r->fiber->yield();
    for (int v : local) r->sum += v;
}

int expectedSum(int yields) { return 120 + 16 * yields; }

TEST(Fiber, AFiberFinishesWhileOthersAreSuspendedAndItsStackIsReused) {
    StackPool pool(kStackBytes);
    Fiber fa, fb, fq;
    Recorder a{&fa, 3}, b{&fb, 2}, quick{&fq, 0};
    fa.start(pool, &recorderEntry, &a);
    fb.start(pool, &recorderEntry, &b);
    fa.resume();
    fb.resume();
    ASSERT_FALSE(fa.finished());
    ASSERT_FALSE(fb.finished());

    // Learn which stack the pool hands out next, and give it back.
    void* next = pool.take();
    pool.give(next);
    fq.start(pool, &recorderEntry, &quick);
    fq.resume();
    EXPECT_TRUE(fq.finished());
    EXPECT_EQ(quick.sum, expectedSum(0));
    EXPECT_TRUE(onStack(quick.stackLocal, next)) << "the fiber did not run on the stack the pool handed out";
    void* back = pool.take();
    EXPECT_EQ(back, next) << "a finished fiber's stack went back to the pool";
    pool.give(back);

    // The same Fiber object again, on the same stack, while a and b still wait.
    Recorder again{&fq, 1};
    fq.start(pool, &recorderEntry, &again);
    fq.resume();
    EXPECT_TRUE(onStack(again.stackLocal, next));
    EXPECT_FALSE(fq.finished());
    fq.resume();
    EXPECT_TRUE(fq.finished());
    EXPECT_EQ(again.sum, expectedSum(1));

    while (!fa.finished() || !fb.finished()) {
        if (!fa.finished()) fa.resume();
        if (!fb.finished()) fb.resume();
    }
    EXPECT_EQ(a.sum, expectedSum(3));
    EXPECT_EQ(b.sum, expectedSum(2));
    EXPECT_NE(a.stackLocal, b.stackLocal);
    EXPECT_GT(a.stackLocal > b.stackLocal ? a.stackLocal - b.stackLocal : b.stackLocal - a.stackLocal,
              kStackBytes / 2) << "two suspended fibers on one stack";
}

// reset() abandons a suspended fiber (the executor does so for the rest of a
// block after a fault): the stack goes back to the pool, and the Fiber can
// start again and run to the end.
TEST(Fiber, ResetOfASuspendedFiberFreesItsStackAndTheFiberStartsAgain) {
    StackPool pool(kStackBytes);
    Fiber fiber;
    Recorder stuck{&fiber, 5};
    void* next = pool.take();
    pool.give(next);
    fiber.start(pool, &recorderEntry, &stuck);
    fiber.resume();
    fiber.resume();
    ASSERT_FALSE(fiber.finished());
    EXPECT_TRUE(onStack(stuck.stackLocal, next));
    fiber.reset();
    EXPECT_FALSE(fiber.finished());
    void* back = pool.take();
    EXPECT_EQ(back, next) << "reset() gave the suspended fiber's stack back to the pool";
    pool.give(back);

    Recorder fresh{&fiber, 2};
    fiber.start(pool, &recorderEntry, &fresh);
    int resumes = 0;
    while (!fiber.finished()) {
        fiber.resume();
        ++resumes;
    }
    EXPECT_EQ(resumes, 3);
    EXPECT_EQ(fresh.sum, expectedSum(2));
    EXPECT_TRUE(onStack(fresh.stackLocal, next));

    // A suspended fiber destroyed without reset() gives its stack back too.
    {
        Fiber doomed;
        Recorder r{&doomed, 1};
        doomed.start(pool, &recorderEntry, &r);
        doomed.resume();
        ASSERT_FALSE(doomed.finished());
    }
    void* last = pool.take();
    EXPECT_EQ(last, next);
    pool.give(last);
}

// An exception thrown and caught inside one fiber, across one of its yields,
// as the executor's KernelFault is: the unwinder walks that fiber's frames
// only, and the other fibers go on.
struct Thrower {
    Fiber fiber;
    bool caught = false;
    int depth = 0;
};

[[gnu::noinline]] void throwFrom(Thrower* t, int depth) {
    if (depth == 0) throw std::runtime_error("fault in fiber");
    t->fiber.yield();
    throwFrom(t, depth - 1);
}

void throwerEntry(void* argument) {
    auto* t = static_cast<Thrower*>(argument);
    try {
        throwFrom(t, t->depth);
    } catch (const std::runtime_error& e) {
        t->caught = std::string(e.what()) == "fault in fiber";
    }
}

TEST(Fiber, ExceptionsAreThrownAndCaughtInsideOneFiber) {
    StackPool pool(kStackBytes);
    Thrower t[3];
    for (int i = 0; i < 3; ++i) {
        t[i].depth = i + 1;
        t[i].fiber.start(pool, &throwerEntry, &t[i]);
    }
    for (bool any = true; any;) {
        any = false;
        for (auto& f : t)
            if (!f.fiber.finished()) {
                f.fiber.resume();
                any = true;
            }
    }
    for (auto& f : t) EXPECT_TRUE(f.caught);
}

// A backtrace taken inside a fiber ends at the fiber's first frame: it
// neither runs on into whatever lies above the stack nor into the resumer's.
struct Tracer {
    Fiber fiber;
    int frames = -1;
    int framesAfterYield = -1;
};

[[gnu::noinline]] int countFrames() {
    void* frames[256];
    return backtrace(frames, 256);
}

void tracerEntry(void* argument) {
    auto* t = static_cast<Tracer*>(argument);
    t->frames = countFrames();
    t->fiber.yield();
    t->framesAfterYield = countFrames();
}

TEST(Fiber, BacktracesEndAtTheFibersFirstFrame) {
    StackPool pool(kStackBytes);
    Tracer t;
    t.fiber.start(pool, &tracerEntry, &t);
    t.fiber.resume();
    t.fiber.resume();
    ASSERT_TRUE(t.fiber.finished());
    // countFrames, tracerEntry, and the implementation's few frames below it.
    EXPECT_GE(t.frames, 2);
    EXPECT_LE(t.frames, 8);
    EXPECT_EQ(t.framesAfterYield, t.frames);
}

// A fiber can use a good part of its stack (the executor's kernels are
// small, but a student's may keep arrays on it).
void deepEntry(void* argument) {
    volatile char big[48 * 1024];
    for (std::size_t i = 0; i < sizeof big; i += 512) big[i] = static_cast<char>(i / 512);
    int sum = 0;
    for (std::size_t i = 0; i < sizeof big; i += 512) sum += big[i];
    *static_cast<int*>(argument) = sum;
}

TEST(Fiber, AFiberCanUseMostOfItsStack) {
    StackPool pool(kStackBytes);
    Fiber f;
    int sum = -1;
    f.start(pool, &deepEntry, &sum);
    f.resume();
    EXPECT_TRUE(f.finished());
    EXPECT_EQ(sum, 96 * 95 / 2);
}

}  // namespace
}  // namespace tilescope::test
