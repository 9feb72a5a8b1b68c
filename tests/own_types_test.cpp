// The types a kernel is traced with (exec/traced_types.hpp), on their own,
// with a Recorder that keeps what it is told: an index of any integer type
// is taken at its full value, and one outside its array, however far, is an
// access outside it, recorded as one (never wrapped to 32 bits, never in
// the range that names a 2D array's subscripts).
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#define TS_FN inline
#include "exec/traced_types.hpp"

namespace tilescope::test {
namespace {

struct Noted {
    std::uint8_t array;
    int index;
    int size;
    Subscript2D at;
};

struct Recorded {
    Op op;
    int index;
    float value;
};

struct KeepingRecorder {
    static inline std::vector<Recorded> events;
    static inline std::vector<Noted> faults;
    static inline float scratchElement = 0.0f;

    static void record(Op op, std::uint8_t, int index, float value, unsigned) {
        events.push_back(Recorded{op, index, value});
    }
    static float add(float sum, float term) { return sum + term; }
    static float* sharedMemory(int, unsigned) { return nullptr; }
    static void fault(std::uint8_t array, int index, int size, unsigned, Subscript2D at = {}) {
        faults.push_back(Noted{array, index, size, at});
    }
    static float& scratch() { return scratchElement; }
    static void clear() {
        events.clear();
        faults.clear();
    }
};

using R = KeepingRecorder;
using traced::Index;

class TracedTypes : public ::testing::Test {
protected:
    void SetUp() override { R::clear(); }

    std::vector<float> m_data = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
    traced::InputArray<R> input() const { return {m_data.data(), static_cast<int>(m_data.size()), kArrayInput}; }
    traced::OutputArray<R> output() { return {m_data.data(), static_cast<int>(m_data.size()), kArrayOutput}; }
};

TEST_F(TracedTypes, AnIndexOfAnyIntegerTypeIsTakenAtItsFullValue) {
    EXPECT_EQ(Index(1LL << 33).value, 1LL << 33);
    EXPECT_EQ(Index(0u - 1u).value, 4294967295LL);
    EXPECT_EQ(Index(std::size_t{1} << 40).value, 1LL << 40);
    EXPECT_EQ(Index(-(1L << 35)).value, -(1LL << 35));
    EXPECT_EQ(Index(-7).value, -7);
    EXPECT_EQ(Index(static_cast<short>(-3)).value, -3);
    EXPECT_EQ(Index('A').value, 65);
}

TEST_F(TracedTypes, AnIndexPastTwoToTheSixtySecondIsHeldThereEitherWay) {
    EXPECT_EQ(Index(ULLONG_MAX).value, traced::kFarIndex);
    EXPECT_EQ(Index(SIZE_MAX).value, traced::kFarIndex);
    EXPECT_EQ(Index(LLONG_MAX).value, traced::kFarIndex);
    EXPECT_EQ(Index(LLONG_MIN).value, -traced::kFarIndex);
}

TEST_F(TracedTypes, ALoadTwoToTheThirtyThreeElementsPastTheOneMeantIsOutsideTheArray) {
    const float v = input()[Index((1LL << 33) + 2)];
    EXPECT_EQ(v, 0.0f);  // not m_data[2], where a 32-bit index would land
    ASSERT_EQ(R::faults.size(), 1u);
    EXPECT_EQ(R::faults[0].index, INT_MAX);
    EXPECT_EQ(R::faults[0].size, 8);
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::LoadOutside);
    EXPECT_EQ(R::events[0].index, INT_MAX);
}

TEST_F(TracedTypes, AnUnsignedIndexThatWrappedBelowZeroIsFarPastTheEndNotBeforeTheStart) {
    const unsigned i = 0;
    (void)input()[Index(i - 1u)];
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::LoadOutside);
    EXPECT_EQ(R::events[0].index, INT_MAX);
}

TEST_F(TracedTypes, AFarNegativeIndexIsRecordedOutsideTheRangeThatNamesSubscripts) {
    (void)input()[Index(-(1LL << 40))];
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::LoadOutside);
    EXPECT_LT(R::events[0].index, 0);
    EXPECT_FALSE(isSubscriptIndex(R::events[0].index));
    // An int that low is held there too: below lie a 2D array's subscripts.
    (void)input()[Index(INT_MIN)];
    EXPECT_FALSE(isSubscriptIndex(R::events.back().index));
}

TEST_F(TracedTypes, AStoreFarPastTheEndGoesNowhere) {
    const std::vector<float> before = m_data;
    output()[Index(std::size_t{1} << 33)] = 9.0f;
    EXPECT_EQ(m_data, before);
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::StoreOutside);
    EXPECT_EQ(R::events[0].index, INT_MAX);
}

TEST_F(TracedTypes, ALongIndexInsideTheArrayReadsItsElement) {
    EXPECT_EQ(input()[Index(3LL)], 3.5f);
    EXPECT_EQ(input()[Index(std::size_t{5})], 5.5f);
    ASSERT_EQ(R::events.size(), 2u);
    EXPECT_EQ(R::events[0].op, Op::Load);
    EXPECT_EQ(R::events[0].index, 3);
    EXPECT_EQ(R::events[1].index, 5);
    EXPECT_TRUE(R::faults.empty());
}

TEST_F(TracedTypes, FourLoadsAtTheFarthestIndexAreFourAccessesOutside) {
    const traced::Float4 v = traced::load4(input(), Index(ULLONG_MAX));
    EXPECT_EQ(v.x + v.y + v.z + v.w, 0.0f);
    ASSERT_EQ(R::events.size(), 4u);
    for (const Recorded& e : R::events) EXPECT_EQ(e.op, Op::LoadOutside);
}

TEST_F(TracedTypes, ASharedColumnFarPastItsRowIsOutsideWithItsSubscriptsHeldTo32Bits) {
    traced::SharedArray2D<R> s(traced::SharedSlice{m_data.data(), 0}, 2, 4);
    s[Index(1)][Index(1LL << 33)] = 1.0f;
    ASSERT_EQ(R::faults.size(), 1u);
    EXPECT_EQ(R::faults[0].at.row, 1);
    EXPECT_EQ(R::faults[0].at.col, INT_MAX);
    EXPECT_EQ(R::faults[0].index, INT_MAX);
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::StoreOutside);
    EXPECT_FALSE(isSubscriptIndex(R::events[0].index));
    // Near subscripts keep their encoding, as with 32-bit ones.
    (void)static_cast<float>(s[Index(2LL)][Index(0u)]);
    EXPECT_TRUE(isSubscriptIndex(R::events.back().index));
    EXPECT_EQ(subscriptRow(R::events.back().index), 2);
}

TEST_F(TracedTypes, AConstantRowFarAwayIsOutsideTheMask) {
    traced::ConstantArray<float[2][2], R> c{};
    EXPECT_EQ(c[Index(-(1LL << 34))][Index(1)], 0.0f);
    ASSERT_EQ(R::faults.size(), 1u);
    EXPECT_EQ(R::faults[0].at.row, INT_MIN);
    ASSERT_EQ(R::events.size(), 1u);
    EXPECT_EQ(R::events[0].op, Op::LoadOutside);
    EXPECT_FALSE(isSubscriptIndex(R::events[0].index));
}

}  // namespace
}  // namespace tilescope::test
