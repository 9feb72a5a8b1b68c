// The job fuzz_worker_result's seeds answer (tests/fuzz/corpus/worker_result/),
// shared with own_forged_test, which checks the seeds still match the
// worker's format: a 2D 8 x 6 plane, a 3 x 3 mask, every block traced.
#pragma once

#include "own/worker_protocol.hpp"

namespace tilescope::test {

inline own::WorkerJob fixedJob() {
    own::WorkerJob job;
    job.dims = 2;
    job.radius = 1;
    job.maskWidth = 3;
    job.width = 8;
    job.height = 6;
    job.trace = true;
    job.eventBudget = 10000;
    job.path = "mine.cu";
    job.kernel = "conv";
    return job;
}

inline own::ResultBounds fixedBounds() {
    own::ResultBounds b;
    b.kernels = {"conv", "helper"};
    b.lines = 40;
    b.maskElements = 9;
    return b;
}

}  // namespace tilescope::test
