#include "trace/steps.hpp"

#include <algorithm>
#include <limits>

namespace tilescope {

unsigned replayThreads(Dim3 block) {
    const std::uint64_t n = std::uint64_t{block.x} * block.y * block.z;
    return n > kMaxReplayThreads ? 0u : static_cast<unsigned>(n);
}

BlockSteps replaySteps(std::span<const Event> ev, unsigned threads) {
    if (threads > kMaxReplayThreads) threads = 0;
    BlockSteps s;
    const std::uint32_t count = static_cast<std::uint32_t>(ev.size());
    s.threadBegin.assign(threads + 1, 0);
    for (const Event& e : ev)
        if (e.thread < threads) ++s.threadBegin[e.thread + 1];
    for (unsigned t = 0; t < threads; ++t) s.threadBegin[t + 1] += s.threadBegin[t];

    // A thread's phase is the number of barriers it passed (counted here
    // rather than read from Event::phase, so the order holds even for a trace
    // whose phases were recorded differently); its k-th non-barrier event of
    // a phase goes to the phase's step k, its barrier to the phase's last step.
    constexpr std::uint32_t kBarrier = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> local(count);  // k, or kBarrier
    std::vector<std::uint32_t> phaseLength;   // steps before the barrier step, per phase
    s.phaseOf.assign(count, 0);
    auto grow = [&](std::size_t phase) {  // phases grow one at a time
        while (phase >= phaseLength.size()) {
            phaseLength.push_back(0);
            s.phaseHasBarrier.push_back(0);
        }
    };
    for (unsigned t = 0; t < threads; ++t) {
        std::uint32_t phase = 0, k = 0;
        for (std::uint32_t i = s.threadBegin[t]; i < s.threadBegin[t + 1]; ++i) {
            grow(phase);
            s.phaseOf[i] = phase;
            if (ev[i].op == Op::Barrier) {
                local[i] = kBarrier;
                s.phaseHasBarrier[phase] = 1;
                ++phase;
                k = 0;
            } else {
                local[i] = k++;
                phaseLength[phase] = std::max(phaseLength[phase], k);
            }
        }
    }
    if (phaseLength.empty()) grow(0);
    const std::size_t phases = phaseLength.size();
    s.phaseFirstStep.assign(phases + 1, 0);
    for (std::size_t p = 0; p < phases; ++p)
        s.phaseFirstStep[p + 1] = s.phaseFirstStep[p] + phaseLength[p] + (s.phaseHasBarrier[p] ? 1 : 0);
    s.stepOf.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t p = s.phaseOf[i];
        s.stepOf[i] = s.phaseFirstStep[p] + (local[i] == kBarrier ? phaseLength[p] : local[i]);
    }
    return s;
}

}  // namespace tilescope
