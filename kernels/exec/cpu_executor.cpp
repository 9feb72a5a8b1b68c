#include "exec/cpu_executor.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "core/threads.hpp"
#include "exec/cpu_runtime.hpp"
#include "trace/fault.hpp"
#include "exec/fiber.hpp"

namespace tilescope::cpu {

thread_local constinit Dim3 threadIdx;
thread_local constinit Dim3 blockIdx;
thread_local constinit Dim3 blockDim;
thread_local constinit Dim3 gridDim;
thread_local constinit BlockState* t_block = nullptr;

namespace {

// AddressSanitizer's red zones make frames several times larger. GCC says it
// is on with __SANITIZE_ADDRESS__, Clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kStackBytes = 256 * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::size_t kStackBytes = 256 * 1024;
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif

std::string coords(Dim3 d, int dims) {
    std::string s = "(" + std::to_string(d.x);
    if (dims > 1) s += "," + std::to_string(d.y);
    return s + ")";
}

Dim3 threadCoords(unsigned linear, Dim3 block) {
    return Dim3{linear % block.x, (linear / block.x) % block.y, linear / (block.x * block.y)};
}

enum class ThreadState { Ready, Waiting, Done };

struct ThreadSlot {
    Fiber fiber;
    ThreadState state = ThreadState::Ready;
    unsigned waitLine = 0;
    Dim3 coords;  // threadIdx, worked out once per worker rather than at every resume
};

// Runs the blocks handed to one worker thread.
class Worker {
public:
    Worker(const LaunchPlan& plan, const std::function<void()>& body, const CpuOptions& options)
        : m_plan(plan), m_body(body), m_options(options), m_stacks(kStackBytes), m_slots(plan.block.count()) {
        m_state.drop = options.drop.any() ? &options.drop : nullptr;
        m_state.wait = &Worker::waitAtBarrier;
        for (unsigned t = 0; t < m_slots.size(); ++t) m_slots[t].coords = threadCoords(t, plan.block);
        if (options.schedule != Schedule::Random) m_order = resumeOrder(0);  // the same for every block
    }

    // Returns an error message, or nothing when the block ran to the end;
    // `faults` gets what went wrong on the way.
    std::optional<std::string> runBlock(Dim3 block, unsigned linearBlock, bool traced, std::size_t eventLimit,
                                        std::vector<Event>& out, LaunchFaults& faults) {
        const unsigned count = m_plan.block.count();
        if (m_options.schedule == Schedule::Random) m_order = resumeOrder(linearBlock);
        const std::vector<unsigned>& order = m_order;
        blockIdx = block;
        blockDim = m_plan.block;
        gridDim = m_plan.grid;
        m_state.tracing = traced;
        m_state.eventLimit = eventLimit;
        m_state.events.clear();
        m_state.phase.assign(count, 0);
        // Shared memory starts out as NaN rather than 0: a kernel that reads an
        // element nobody wrote shows it in its result instead of hiding it.
        m_state.shared.assign(m_plan.sharedBytes / sizeof(float), std::numeric_limits<float>::quiet_NaN());
        m_state.outside = OutsideAccess{};
        t_block = &m_state;
        s_current = this;
        m_fault.reset();
        std::string barrierMismatch;

        for (unsigned t = 0; t < count; ++t) {
            m_slots[t].state = ThreadState::Ready;
            m_slots[t].fiber.start(m_stacks, &Worker::threadEntry, this);
        }
        std::optional<std::string> error;
        for (;;) {
            for (unsigned i = 0; i < count && !error; ++i) {
                const unsigned t = order[i];
                ThreadSlot& slot = m_slots[t];
                if (slot.state != ThreadState::Ready) continue;
                m_state.current = t;
                threadIdx = slot.coords;
                slot.fiber.resume();
                if (slot.fiber.finished()) slot.state = ThreadState::Done;
                if (m_fault) error = describeFault(*m_fault, t, block);
            }
            if (error) break;
            unsigned waiting = 0, done = 0, firstWaiting = 0, firstDone = 0;
            for (unsigned t = 0; t < count; ++t) {
                if (m_slots[t].state == ThreadState::Waiting && waiting++ == 0) firstWaiting = t;
                if (m_slots[t].state == ThreadState::Done && done++ == 0) firstDone = t;
            }
            if (waiting == 0) break;  // every thread has finished
            // A barrier not every live thread waits at is released anyway, as
            // the hardware's is (a thread that has exited counts as arrived,
            // and every __syncthreads() is the same barrier 0): noted once per
            // block, never a hang. The problem detector names the threads.
            const unsigned line = m_slots[firstWaiting].waitLine;
            if (done > 0 && barrierMismatch.empty()) {
                barrierMismatch = "block " + coords(block, dims()) + ": the barrier at line " + std::to_string(line) +
                                  " is reached by " + std::to_string(waiting) + " of " + std::to_string(count) +
                                  " threads; thread " + coords(threadCoords(firstDone, m_plan.block), dims()) +
                                  " finished without reaching it (a __syncthreads() every thread must reach sits "
                                  "in code that only some threads run)";
            }
            for (unsigned t = 0; t < count && barrierMismatch.empty(); ++t) {
                if (m_slots[t].state == ThreadState::Waiting && m_slots[t].waitLine != line)
                    barrierMismatch = "block " + coords(block, dims()) +
                                      ": threads wait at different barriers at once (line " + std::to_string(line) +
                                      " and line " + std::to_string(m_slots[t].waitLine) + ")";
            }
            for (unsigned t = 0; t < count; ++t)
                if (m_slots[t].state == ThreadState::Waiting) m_slots[t].state = ThreadState::Ready;
        }
        faults = LaunchFaults{};
        if (m_state.outside.count > 0) {
            const OutsideAccess& o = m_state.outside;
            faults.outside = o.count;
            faults.firstOutside =
                describeOutOfBounds(m_plan, block, o.thread, o.array, o.index, o.size, o.line, o.at);
        }
        if (!barrierMismatch.empty()) {
            faults.barrierMismatches = 1;
            faults.firstBarrier = barrierMismatch;
        }
        if (error) {
            // Abandon the suspended threads: restart their fibers on the next block.
            for (unsigned t = 0; t < count; ++t) m_slots[t].fiber.reset();
            t_block = nullptr;
            return error;
        }
        if (traced) {
            // Execution order interleaves threads phase by phase; each thread's
            // own events stay in program order under a stable sort.
            out = std::move(m_state.events);
            std::stable_sort(out.begin(), out.end(),
                             [](const Event& a, const Event& b) { return a.thread < b.thread; });
        }
        t_block = nullptr;
        return std::nullopt;
    }

private:
    int dims() const { return m_plan.block.y > 1 || m_plan.grid.y > 1 ? 2 : 1; }

    // The threads in the order the schedule resumes them: whole warps, each
    // warp's lanes in lane order.
    std::vector<unsigned> resumeOrder(unsigned linearBlock) const {
        const unsigned count = m_plan.block.count();
        const unsigned warps = (count + 31) / 32;
        std::vector<unsigned> warpOrder(warps);
        for (unsigned w = 0; w < warps; ++w) warpOrder[w] = w;
        if (m_options.schedule == Schedule::Reverse) {
            std::reverse(warpOrder.begin(), warpOrder.end());
        } else if (m_options.schedule == Schedule::Random) {
            // The same shuffle for the same seed and block, whichever worker runs it.
            std::mt19937 random(m_options.seed * 2654435761u + linearBlock);
            std::shuffle(warpOrder.begin(), warpOrder.end(), random);
        }
        std::vector<unsigned> order;
        order.reserve(count);
        for (unsigned w : warpOrder)
            for (unsigned t = w * 32; t < std::min(count, w * 32 + 32); ++t) order.push_back(t);
        return order;
    }

    static void threadEntry(void* self) {
        auto* w = static_cast<Worker*>(self);
        try {
            w->m_body();
        } catch (const KernelFault& fault) {
            w->m_fault = fault;
        }
    }

    static void waitAtBarrier(unsigned line) {
        Worker* w = s_current;
        ThreadSlot& slot = w->m_slots[w->m_state.current];
        slot.state = ThreadState::Waiting;
        slot.waitLine = line;
        slot.fiber.yield();
    }

    std::string describeFault(const KernelFault& f, unsigned thread, Dim3 block) const {
        switch (f.kind) {
        case KernelFault::Kind::SharedMemory:
            return describeThread(m_plan, block, thread) + ", line " + std::to_string(f.line) +
                   ": the kernel asks for " + std::to_string(f.index) +
                   " floats of shared memory but the launch reserved " + std::to_string(f.size);
        case KernelFault::Kind::TraceBudget:
            return traceBudgetMessage(m_options.eventBudget);
        }
        return describeThread(m_plan, block, thread) + ": fault";
    }

    static thread_local Worker* s_current;

    const LaunchPlan& m_plan;
    const std::function<void()>& m_body;
    const CpuOptions& m_options;
    StackPool m_stacks;
    std::vector<ThreadSlot> m_slots;
    std::vector<unsigned> m_order;  // the threads in the order the schedule resumes them
    BlockState m_state;
    std::optional<KernelFault> m_fault;
};

thread_local Worker* Worker::s_current = nullptr;

}  // namespace

Result<TracedBlocks> runGrid(const LaunchPlan& plan, const std::function<void()>& body, const CpuOptions& options) {
    const unsigned blockCount = plan.grid.count();
    std::vector<std::vector<Event>> events(blockCount);
    std::vector<char> traced(blockCount, 0);
    for (unsigned b = 0; b < blockCount; ++b) {
        Dim3 block{b % plan.grid.x, (b / plan.grid.x) % plan.grid.y, b / (plan.grid.x * plan.grid.y)};
        traced[b] = options.trace && (!options.traceBlock || options.traceBlock(block));
    }

    unsigned workers = options.workers > 0 ? static_cast<unsigned>(options.workers)
                                           : std::max(1u, std::thread::hardware_concurrency());
    workers = std::min(workers, blockCount);
    if constexpr (!kThreadsAvailable) workers = 1;  // the browser build: the page's one thread

    std::vector<LaunchFaults> blockFaults(blockCount);
    std::atomic<unsigned> next{0};
    std::atomic<std::size_t> recorded{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::optional<std::pair<unsigned, std::string>> firstError;  // lowest block index wins: deterministic

    auto work = [&] {
        Worker worker(plan, body, options);
        for (;;) {
            if (failed.load() || (options.cancel && options.cancel->load())) return;
            unsigned b = next.fetch_add(1);
            if (b >= blockCount) return;
            Dim3 block{b % plan.grid.x, (b / plan.grid.x) % plan.grid.y, b / (plan.grid.x * plan.grid.y)};
            std::size_t used = recorded.load();
            std::size_t limit = used < options.eventBudget ? options.eventBudget - used : 0;
            auto error = worker.runBlock(block, b, traced[b] != 0, limit, events[b], blockFaults[b]);
            if (!error && traced[b] && recorded.fetch_add(events[b].size()) + events[b].size() > options.eventBudget)
                error = traceBudgetMessage(options.eventBudget);
            if (error) {
                std::lock_guard lock(errorMutex);
                if (!firstError || b < firstError->first) firstError = {b, *error};
                failed = true;
                return;
            }
            if (options.blocksDone) options.blocksDone->fetch_add(1);
        }
    };

    if (workers <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < workers; ++i) pool.emplace_back(work);
        for (auto& t : pool) t.join();
    }
    if (firstError) {
        // A trace over budget is the user's to fix; any other fault is a bug in a kernel.
        const bool budget = firstError->second.rfind(traceBudgetMessage(options.eventBudget), 0) == 0;
        return Error{budget ? ExitCode::BadInput : ExitCode::Internal, firstError->second};
    }
    if (options.cancel && options.cancel->load()) return Error{ExitCode::BadInput, "cancelled"};
    if (options.faults) {
        // In block order, so the first named does not depend on the workers.
        *options.faults = LaunchFaults{};
        for (const LaunchFaults& f : blockFaults) options.faults->merge(f);
    }


    TracedBlocks result;
    for (unsigned b = 0; b < blockCount; ++b) {
        if (!traced[b]) continue;
        Dim3 block{b % plan.grid.x, (b / plan.grid.x) % plan.grid.y, b / (plan.grid.x * plan.grid.y)};
        result.push_back(BlockEvents{block, std::move(events[b])});
    }
    return result;
}

}  // namespace tilescope::cpu
