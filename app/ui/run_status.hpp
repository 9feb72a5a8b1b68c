// Where the set-up stands with the runner, as the panels read it: the GPU,
// the set-up's check, the latest published outcome and whether it belongs to
// the set-up as it is now. The App writes it once a frame, before the panels
// draw.
#pragma once

#include <cstdint>
#include <memory>

#include "model/runner.hpp"
#include "model/setup_rules.hpp"

namespace tilescope::ui {

struct RunStatus {
    GpuStatus gpu;
    SetupCheck check;
    std::shared_ptr<const RunOutcome> outcome;  // the latest published
    std::uint64_t submittedId = 0;              // 0: nothing submitted for the set-up (it cannot run)

    bool outcomeIsCurrent() const { return outcome && outcome->id == submittedId; }
};

}  // namespace tilescope::ui
