// The problem detector (problems.hpp). Each block's shared-memory accesses
// are sorted by (element, phase, step) once; global accesses of the arrays
// that something stores to are sorted by (element, block, phase, step) over
// the whole trace. Every problem is then found in one pass over each sorted
// list, so the detector is O(n log n) in the events.
#include "trace/problems.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "trace/fault.hpp"
#include "trace/steps.hpp"

namespace tilescope {

namespace {

// Each kind's words, in ProblemKind order: as `check` prints it, as the JSON names it, as a heading.
struct KindWords {
    const char* name;
    const char* key;
    const char* title;
};
constexpr KindWords kKindWords[kProblemKindCount] = {
    {"shared race", "shared_race", "Races in shared memory"},
    {"uninitialised read", "uninitialised_read", "Reads of elements nobody wrote"},
    {"out of bounds", "out_of_bounds", "Accesses outside an array"},
    {"global race", "global_race", "Races in global memory"},
    {"duplicate store", "duplicate_store", "Elements stored by two threads"},
    {"barrier mismatch", "barrier_mismatch", "Barriers not reached by every thread"},
    {"wrong result", "wrong_result", "Outputs that differ from the reference"},
};

const KindWords& words(ProblemKind k) { return kKindWords[static_cast<std::size_t>(k) % kProblemKindCount]; }

}  // namespace

const char* problemKindName(ProblemKind k) { return words(k).name; }
const char* problemKindKey(ProblemKind k) { return words(k).key; }
const char* problemKindTitle(ProblemKind k) { return words(k).title; }

const char* hazardOrderName(HazardOrder o) {
    switch (o) {
    case HazardOrder::None: return "";
    case HazardOrder::ReadAfterWrite: return "read after write";
    case HazardOrder::WriteAfterRead: return "write after read";
    case HazardOrder::WriteAfterWrite: return "write after write";
    case HazardOrder::Unordered: return "between blocks";
    }
    return "";
}

std::string ProblemSet::summary() const {
    std::string s;
    for (int k = 0; k < kProblemKindCount; ++k) {
        const std::uint64_t n = counts[static_cast<std::size_t>(k)];
        if (n == 0) continue;
        if (!s.empty()) s += ", ";
        std::string name = problemKindName(static_cast<ProblemKind>(k));
        if (n != 1) {
            if (name == "out of bounds")
                name = "accesses out of bounds";
            else
                name += name.back() == 'h' ? "es" : "s";
        }
        s += std::to_string(n) + " " + name;
    }
    return s;
}

namespace {

// The part an index of shared memory is in (parts are in the order of
// their offsets): the last that starts at or before it.
std::size_t partHolding(const std::vector<SharedPart>& parts, int index) {
    std::size_t in = 0;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (index >= parts[i].offset) in = i;
    return in;
}

// An element of one of several shared arrays, by the array it is in and its
// own subscripts; an index before the first or past the last, by its
// distance from that array's start.
std::string partElementName(const std::vector<SharedPart>& parts, int index) {
    const SharedPart* in = &parts[partHolding(parts, index)];
    const int local = index - in->offset;
    if (local < 0 || local >= in->size()) return in->name + "[" + std::to_string(local) + "]";
    const int plane = in->rows * in->cols;
    if (in->dims == 3)
        return in->name + "[" + std::to_string(local / plane) + "][" + std::to_string(local % plane / in->cols) +
               "][" + std::to_string(local % in->cols) + "]";
    if (in->dims == 2)
        return in->name + "[" + std::to_string(local / in->cols) + "][" + std::to_string(local % in->cols) + "]";
    return in->name + "[" + std::to_string(local) + "]";
}

// An access outside its array, through one of several shared arrays: its
// index is its array's offset plus its own, and it lies outside that array,
// so it is named by the nearest array it is past the end of (or, failing
// one, before the start of), with that array's size: inside[78] of 78, never
// the element of the next array that the same offset holds.
std::size_t partOutside(const std::vector<SharedPart>& parts, int index) {
    std::optional<std::size_t> past, before;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (index >= parts[i].offset + parts[i].size()) past = i;
        else if (index < parts[i].offset && !before) before = i;
    }
    return past ? *past : before ? *before : 0;
}
std::pair<std::string, int> partOutsideName(const std::vector<SharedPart>& parts, int index) {
    const SharedPart& in = parts[partOutside(parts, index)];
    return {in.name + "[" + std::to_string(index - in.offset) + "]", in.size()};
}

}  // namespace

std::pair<std::string, int> outsideElement(const Trace& trace, std::uint8_t array, int index) {
    const ArrayInfo& a = trace.arrays[array < kArrayCount ? array : 0];
    if (!a.parts.empty()) return partOutsideName(a.parts, index);
    return {a.name + "[" + std::to_string(index) + "]", a.size};
}

std::string elementName(const Trace& trace, std::uint8_t array, int index) {
    if (array >= kArrayCount) return "?";
    const ArrayInfo& a = trace.arrays[array];
    if (!a.parts.empty() && !isSubscriptIndex(index)) return partElementName(a.parts, index);
    const bool rows =
        (array == kArrayShared || (array == kArrayMask && a.space == Space::Constant)) && trace.dims() == 2;
    if (rows && index >= 0 && index < a.size && a.planeRows > 0 && a.pitch > 0) {
        const int plane = a.planeRows * a.pitch;
        return a.name + "[" + std::to_string(index / plane) + "][" + std::to_string(index % plane / a.pitch) + "][" +
               std::to_string(index % a.pitch) + "]";
    }
    if (rows && index >= 0 && index < a.size) {
        const int pitch = std::max(1, a.pitch);
        return a.name + "[" + std::to_string(index / pitch) + "][" + std::to_string(index % pitch) + "]";
    }
    return a.name + "[" + std::to_string(index) + "]";
}

std::string problemElementName(const Trace& trace, const ProblemReport& p) {
    if (p.kind != ProblemKind::OutOfBounds || p.array >= kArrayCount || trace.arrays[p.array].parts.empty())
        return elementName(trace, p.array, p.index);
    const auto [name, size] = outsideElement(trace, p.array, p.index);
    if (p.index >= 0 && p.index < trace.arrays[p.array].size)
        return name + ", past its " + std::to_string(size) + " elements: " + elementName(trace, p.array, p.index) +
               "'s slot";
    return name;
}

Subscript2D subscriptsOf(const Trace& trace, std::uint8_t array, std::int32_t index) {
    if (array >= kArrayCount || !isSubscriptIndex(index)) return {};
    const ArrayInfo& a = trace.arrays[array];
    if (array != kArrayShared && !(array == kArrayMask && a.space == Space::Constant)) return {};
    // Through one of several shared arrays: that array's rows and columns.
    const int part = subscriptPart(index);
    if (array == kArrayShared && !a.parts.empty() && static_cast<std::size_t>(part) < a.parts.size()) {
        const SharedPart& p = a.parts[static_cast<std::size_t>(part)];
        return Subscript2D{subscriptRow(index), subscriptCol(index), p.planes * p.rows, p.cols, part};
    }
    const int cols = std::max(1, a.pitch > 0 ? a.pitch : a.width);
    return Subscript2D{subscriptRow(index), subscriptCol(index), std::max(1, (a.size + cols - 1) / cols), cols,
                       array == kArrayShared ? part : -1};
}

namespace {

// ProblemReport::part, worked out once as the detector adds the report.
int partOf(const Trace& trace, const ProblemReport& p) {
    if (p.array != kArrayShared) return -1;
    const std::vector<SharedPart>& parts = trace.arrays[kArrayShared].parts;
    if (parts.empty()) return -1;
    if (p.subscripts.rows > 0)
        return p.subscripts.part >= 0 && static_cast<std::size_t>(p.subscripts.part) < parts.size() ? p.subscripts.part
                                                                                                    : -1;
    if (p.index < 0 && p.kind != ProblemKind::OutOfBounds) return -1;
    const bool outside = p.kind == ProblemKind::OutOfBounds;
    return static_cast<int>(outside ? partOutside(parts, p.index) : partHolding(parts, p.index));
}

}  // namespace

std::string arrayName(const Trace& trace, std::uint8_t array, int part) {
    if (array >= kArrayCount) return "?";
    const ArrayInfo& a = trace.arrays[array];
    if (part >= 0 && static_cast<std::size_t>(part) < a.parts.size()) return a.parts[static_cast<std::size_t>(part)].name;
    return a.name;
}

std::string groupArrayName(const Trace& trace, const ProblemGroup& group) {
    return arrayName(trace, group.array, group.part);
}

namespace {

// One memory access, as the sorted passes see it.
struct Access {
    std::int32_t index;
    std::uint32_t block;  // index into Trace::blocks
    std::uint32_t phase;
    std::uint32_t step;
    std::uint32_t event;
    std::uint16_t thread;
    bool store;
};

// Replay order inside a block: by step, then by thread (a step's events go by ascending thread).
bool before(const Access& a, const Access& b) { return a.step != b.step ? a.step < b.step : a.thread < b.thread; }

class Detector {
public:
    // Any trace is borne (steps.hpp): events of threads past the block, or
    // of ops and arrays there are not, are left out, never followed.
    explicit Detector(const Trace& trace) : m_trace(trace), m_threads(replayThreads(trace.plan.block)) {
        m_steps.reserve(trace.blocks.size());
        for (const BlockEvents& b : trace.blocks) m_steps.push_back(replaySteps(b.events, m_threads));
    }

    ProblemSet run(const ResultCheck* results) {
        for (std::size_t b = 0; b < m_trace.blocks.size(); ++b) {
            sharedMemory(b);
            outsideAccesses(b);
            barriers(b);
        }
        for (std::uint8_t array : {std::uint8_t{kArrayInput}, std::uint8_t{kArrayOutput}}) globalMemory(array);
        if (results && results->output) wrongResults(*results);

        ProblemSet set;
        set.counts = m_counts;
        for (const auto& [key, count] : m_groups) {
            const auto& [kind, order, array, part, first, second] = key;
            set.groups.push_back(ProblemGroup{static_cast<ProblemKind>(kind), static_cast<HazardOrder>(order),
                                              array, part, first, second, count});
        }
        set.largestError = m_largestError;
        for (std::vector<ProblemReport>& items : m_items) {
            std::stable_sort(items.begin(), items.end(), [](const ProblemReport& a, const ProblemReport& b) {
                const ProblemAccess &x = a.at(), &y = b.at();
                if (x.block != y.block) return x.block < y.block;
                return x.step < y.step;
            });
            set.items.insert(set.items.end(), items.begin(), items.end());
        }
        return set;
    }

private:
    ProblemAccess access(std::size_t block, std::uint32_t event) const {
        const Event& e = m_trace.blocks[block].events[event];
        return ProblemAccess{block, event, e.thread, e.line, m_steps[block].stepOf[event], e.op};
    }
    ProblemAccess access(const Access& a) const { return access(a.block, a.event); }

    void add(ProblemReport p) {
        const auto k = static_cast<std::size_t>(p.kind);
        p.part = partOf(m_trace, p);
        const GroupKey key{k, static_cast<unsigned>(p.order), p.array, p.part,
                           p.first.valid() ? p.first.line : 0u, p.second.valid() ? p.second.line : 0u};
        ++m_groups[key];
        ++m_counts[k];
        if (m_items[k].size() < ProblemSet::kMaxPerKind) m_items[k].push_back(std::move(p));
    }

    // Races and uninitialised reads in one block's shared memory.
    void sharedMemory(std::size_t b) {
        const std::vector<Event>& ev = m_trace.blocks[b].events;
        const BlockSteps& steps = m_steps[b];
        std::vector<Access> acc;
        for (std::uint32_t i = 0; i < ev.size(); ++i) {
            const Event& e = ev[i];
            if (e.array != kArrayShared || (e.op != Op::Load && e.op != Op::Store) || e.thread >= m_threads) continue;
            acc.push_back(Access{e.index, static_cast<std::uint32_t>(b), steps.phaseOf[i], steps.stepOf[i], i,
                                 e.thread, e.op == Op::Store});
        }
        if (acc.empty()) return;
        std::sort(acc.begin(), acc.end(), [](const Access& x, const Access& y) {
            if (x.index != y.index) return x.index < y.index;
            if (x.phase != y.phase) return x.phase < y.phase;
            return before(x, y);
        });
        std::vector<std::uint32_t> reported(m_threads, 0);  // the group a thread was last named in
        std::uint32_t group = 0;
        std::vector<const Access*> writes;
        for (std::size_t begin = 0; begin < acc.size();) {
            const std::int32_t index = acc[begin].index;
            bool written = false;  // by a phase before this one
            while (begin < acc.size() && acc[begin].index == index) {
                std::size_t end = begin;
                while (end < acc.size() && acc[end].index == index && acc[end].phase == acc[begin].phase) ++end;
                ++group;
                writes.clear();
                for (std::size_t i = begin; i < end; ++i)
                    if (acc[i].store) writes.push_back(&acc[i]);
                raceGroup(std::span<const Access>(acc).subspan(begin, end - begin), writes, written, reported, group,
                          ProblemKind::SharedRace, kArrayShared);
                written = written || !writes.empty();
                begin = end;
            }
        }
    }

    // One element in one phase of one block: every read against the writes
    // of other threads; two writers; reads of what nobody wrote.
    void raceGroup(std::span<const Access> g, const std::vector<const Access*>& writes, bool written,
                   std::vector<std::uint32_t>& reported, std::uint32_t group, ProblemKind kind, std::uint8_t array) {
        for (const Access& r : g) {
            if (r.store || reported[r.thread] == group) continue;
            const Access* last = nullptr;   // the latest other thread's write before the read
            const Access* next = nullptr;   // the earliest one after it
            bool own = false;               // the reader wrote it itself before
            for (const Access* w : writes) {
                if (w->thread == r.thread) {
                    own = own || before(*w, r);
                } else if (before(*w, r)) {
                    last = w;
                } else if (!next) {
                    next = w;
                }
            }
            if (last || next) {
                reported[r.thread] = group;
                ProblemReport p;
                p.kind = kind;
                p.array = array;
                p.index = r.index;
                p.order = last ? HazardOrder::ReadAfterWrite : HazardOrder::WriteAfterRead;
                p.first = access(last ? *last : r);
                p.second = access(last ? r : *next);
                add(p);
            } else if (!written && !own && kind == ProblemKind::SharedRace) {
                reported[r.thread] = group;
                ProblemReport p;
                p.kind = ProblemKind::UninitialisedRead;
                p.array = array;
                p.index = r.index;
                p.first = access(r);
                add(p);
            }
        }
        // Two threads writing the element in one phase: named once, by its first two writers.
        for (const Access* w : writes) {
            if (w->thread == writes.front()->thread) continue;
            ProblemReport p;
            p.kind = kind;
            p.array = array;
            p.index = w->index;
            p.order = HazardOrder::WriteAfterWrite;
            p.first = access(*writes.front());
            p.second = access(*w);
            add(p);
            break;
        }
    }

    void outsideAccesses(std::size_t b) {
        const std::vector<Event>& ev = m_trace.blocks[b].events;
        for (std::uint32_t i = 0; i < ev.size(); ++i) {
            if (!isOutside(ev[i].op) || ev[i].thread >= m_threads) continue;
            ProblemReport p;
            p.kind = ProblemKind::OutOfBounds;
            p.array = ev[i].array;
            p.index = ev[i].index;
            p.subscripts = subscriptsOf(m_trace, p.array, p.index);
            if (p.subscripts.rows > 0) p.index = -1;  // no element: the subscripts say where it pointed
            p.first = access(b, i);
            add(p);
        }
    }

    // Every thread should pass the same barriers, in the same order.
    void barriers(std::size_t b) {
        const std::vector<Event>& ev = m_trace.blocks[b].events;
        const BlockSteps& steps = m_steps[b];
        const unsigned threads = static_cast<unsigned>(steps.threadBegin.size()) - 1;
        std::vector<std::vector<std::uint32_t>> passed(threads);  // each thread's barrier events
        std::size_t most = 0;
        for (unsigned t = 0; t < threads; ++t) {
            for (std::uint32_t i = steps.threadBegin[t]; i < steps.threadBegin[t + 1]; ++i)
                if (ev[i].op == Op::Barrier) passed[t].push_back(i);
            most = std::max(most, passed[t].size());
        }
        for (std::size_t k = 0; k < most; ++k) {
            unsigned reacher = threads, skipper = threads, skippers = 0, other = threads;
            for (unsigned t = 0; t < threads; ++t) {
                if (passed[t].size() <= k) {
                    if (skippers++ == 0) skipper = t;
                } else if (reacher == threads) {
                    reacher = t;
                } else if (other == threads && ev[passed[t][k]].line != ev[passed[reacher][k]].line) {
                    other = t;
                }
            }
            if (skippers == 0 && other == threads) continue;
            ProblemReport p;
            p.kind = ProblemKind::BarrierMismatch;
            p.first = access(b, passed[reacher][k]);
            if (skippers > 0) {
                // A thread's events end where it returns: the skipper's last
                // one is the last thing it did (none, if it did nothing).
                const std::uint32_t end = steps.threadBegin[skipper + 1];
                if (end > steps.threadBegin[skipper]) p.second = access(b, end - 1);
                p.threads = skippers;
                p.returned = true;
            } else {
                p.second = access(b, passed[other][k]);
            }
            add(p);
            break;  // after the first mismatch, every later barrier is off by one as well
        }
    }

    // Races, double stores and reads of unwritten output over the whole grid,
    // for an array that something stores to.
    void globalMemory(std::uint8_t array) {
        std::vector<Access> acc;
        bool stored = false;
        for (std::size_t b = 0; b < m_trace.blocks.size(); ++b)
            for (const Event& e : m_trace.blocks[b].events)
                stored = stored || (e.array == array && e.op == Op::Store);
        if (!stored) return;
        for (std::size_t b = 0; b < m_trace.blocks.size(); ++b) {
            const std::vector<Event>& ev = m_trace.blocks[b].events;
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                const Event& e = ev[i];
                if (e.array != array || (e.op != Op::Load && e.op != Op::Store) || e.thread >= m_threads) continue;
                acc.push_back(Access{e.index, static_cast<std::uint32_t>(b), m_steps[b].phaseOf[i],
                                     m_steps[b].stepOf[i], i, e.thread, e.op == Op::Store});
            }
        }
        std::sort(acc.begin(), acc.end(), [](const Access& x, const Access& y) {
            if (x.index != y.index) return x.index < y.index;
            if (x.block != y.block) return x.block < y.block;
            if (x.phase != y.phase) return x.phase < y.phase;
            return before(x, y);
        });
        std::vector<const Access*> stores;
        for (std::size_t begin = 0; begin < acc.size();) {
            std::size_t end = begin;
            while (end < acc.size() && acc[end].index == acc[begin].index) ++end;
            stores.clear();
            for (std::size_t i = begin; i < end; ++i)
                if (acc[i].store) stores.push_back(&acc[i]);
            globalElement(std::span<const Access>(acc).subspan(begin, end - begin), stores, array);
            begin = end;
        }
    }

    void globalElement(std::span<const Access> g, const std::vector<const Access*>& stores, std::uint8_t array) {
        auto sameThread = [](const Access& a, const Access& b) { return a.block == b.block && a.thread == b.thread; };
        // Two threads storing it (in any block, any phase): the result depends on which is last.
        for (const Access* s : stores) {
            if (sameThread(*s, *stores.front())) continue;
            ProblemReport p;
            p.kind = ProblemKind::DuplicateStore;
            p.array = array;
            p.index = s->index;
            p.order = s->block == stores.front()->block ? HazardOrder::WriteAfterWrite : HazardOrder::Unordered;
            p.first = access(*stores.front());
            p.second = access(*s);
            add(p);
            break;
        }
        const Access* lastReader = nullptr;
        for (const Access& r : g) {
            if (r.store || (lastReader && sameThread(*lastReader, r))) continue;  // one report per reading thread
            const Access* racing = nullptr;
            bool own = false, ordered = false;
            for (const Access* s : stores) {
                if (sameThread(*s, r)) {
                    own = own || before(*s, r);
                } else if (s->block != r.block || s->phase == r.phase) {
                    if (!racing) racing = s;
                } else if (s->phase < r.phase) {
                    ordered = true;  // a barrier orders the store before the read
                }
            }
            if (racing) {
                lastReader = &r;
                ProblemReport p;
                p.kind = ProblemKind::GlobalRace;
                p.array = array;
                p.index = r.index;
                if (racing->block != r.block) {
                    p.order = HazardOrder::Unordered;
                    p.first = access(*racing);
                    p.second = access(r);
                } else {
                    const bool writeFirst = before(*racing, r);
                    p.order = writeFirst ? HazardOrder::ReadAfterWrite : HazardOrder::WriteAfterRead;
                    p.first = access(writeFirst ? *racing : r);
                    p.second = access(writeFirst ? r : *racing);
                }
                add(p);
            } else if (array == kArrayOutput && !own && !ordered) {
                // N holds the input before the launch; P holds whatever the memory held.
                lastReader = &r;
                ProblemReport p;
                p.kind = ProblemKind::UninitialisedRead;
                p.array = array;
                p.index = r.index;
                p.first = access(r);
                add(p);
            }
        }
    }

    void wrongResults(const ResultCheck& results) {
        const Image& out = *results.output;
        const ArrayInfo& P = m_trace.arrays[kArrayOutput];
        // The last store to each element of P, to name who wrote a wrong value.
        std::vector<std::uint64_t> lastStore(static_cast<std::size_t>(std::max(P.size, 0)), ~0ull);
        for (std::size_t b = 0; b < m_trace.blocks.size(); ++b) {
            const std::vector<Event>& ev = m_trace.blocks[b].events;
            for (std::uint32_t i = 0; i < ev.size(); ++i)
                if (ev[i].op == Op::Store && ev[i].array == kArrayOutput && ev[i].index >= 0 &&
                    ev[i].index < P.size)
                    lastStore[static_cast<std::size_t>(ev[i].index)] = (static_cast<std::uint64_t>(b) << 32) | i;
        }
        const std::size_t n = std::min(out.data.size(), results.reference.size());
        for (std::size_t i = 0; i < n; ++i) {
            const double got = out.data[i], want = results.reference[i];
            const double error = std::abs(got - want);
            if (!std::isnan(got) && error <= results.tolerance) continue;
            ProblemReport p;
            p.kind = ProblemKind::WrongResult;
            p.array = kArrayOutput;
            p.channel = static_cast<int>(i % static_cast<std::size_t>(out.channels));
            const std::size_t pixel = i / static_cast<std::size_t>(out.channels);
            p.x = static_cast<int>(pixel % static_cast<std::size_t>(out.width));
            p.y = static_cast<int>(pixel / static_cast<std::size_t>(out.width));
            p.got = out.data[i];
            p.expected = want;
            // The element in the trace's layout, where the trace holds this channel.
            if (P.channels == out.channels || p.channel == 0) p.index = P.indexOf(p.x, p.y, P.channels == out.channels ? p.channel : 0);
            if (p.index >= 0 && p.index < P.size && lastStore[static_cast<std::size_t>(p.index)] != ~0ull) {
                const std::uint64_t s = lastStore[static_cast<std::size_t>(p.index)];
                p.first = access(static_cast<std::size_t>(s >> 32), static_cast<std::uint32_t>(s & 0xffffffffu));
            }
            m_largestError = std::isnan(got) ? m_largestError : std::max(m_largestError, error);
            add(p);
        }
    }

    using GroupKey = std::tuple<std::size_t, unsigned, std::uint8_t, int, unsigned, unsigned>;

    const Trace& m_trace;
    unsigned m_threads;  // the block's, for the replay (0: a block no launch makes)
    std::vector<BlockSteps> m_steps;
    std::map<GroupKey, std::uint64_t> m_groups;
    std::array<std::vector<ProblemReport>, kProblemKindCount> m_items;
    std::array<std::uint64_t, kProblemKindCount> m_counts{};
    double m_largestError = 0.0;
};

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

}  // namespace

ProblemSet detectProblems(const Trace& trace, const ResultCheck* results) { return Detector(trace).run(results); }

std::string describeProblem(const Trace& trace, const ProblemReport& p) {
    auto who = [&](const ProblemAccess& a) {
        return describeThread(trace.plan, trace.blocks[a.block].block, a.thread);
    };
    auto where = [&](const ProblemAccess& a) {
        return "at line " + std::to_string(a.line) + ", step " + std::to_string(a.step);
    };
    auto verb = [](const ProblemAccess& a) { return isStore(a.op) ? "writes" : "reads"; };
    const std::string element = elementName(trace, p.array, p.index);
    std::string s = problemKindName(p.kind);
    if (p.order != HazardOrder::None) s += std::string(" (") + hazardOrderName(p.order) + ")";
    s += ": ";
    switch (p.kind) {
    case ProblemKind::SharedRace:
    case ProblemKind::GlobalRace:
    case ProblemKind::DuplicateStore:
        s += who(p.second) + " " + verb(p.second) + " " + element + " " + where(p.second) + "; " + who(p.first) +
             " " + (isStore(p.first.op) ? "wrote" : "read") + " it " + where(p.first) + "; " +
             (p.order == HazardOrder::Unordered
                  ? "the blocks run in any order"
                  : p.first.block == p.second.block && p.kind != ProblemKind::DuplicateStore
                        ? "no __syncthreads() between them"
                        : "the last store wins");
        break;
    case ProblemKind::UninitialisedRead:
        s += who(p.first) + " reads " + element + " " + where(p.first) + ", which no thread " +
             (p.array == kArrayShared ? "of the block has written" : "has written in this launch") +
             (p.array == kArrayShared ? " (shared memory starts undefined)" : " (cudaMalloc does not clear memory)");
        break;
    case ProblemKind::OutOfBounds: {
        const int size = p.array < kArrayCount ? trace.arrays[p.array].size : 0;
        if (p.subscripts.rows > 0) {
            const std::string name = arrayName(trace, p.array, p.part);
            s += who(p.first) + " " + verb(p.first) + " " + subscriptedName(name, p.subscripts) + " " +
                 where(p.first) + ", outside the array: " + subscriptPastItsExtent(p.subscripts);
            break;
        }
        const auto [outside, partSize] = outsideElement(trace, p.array, p.index);
        s += who(p.first) + " " + verb(p.first) + " " + outside + " " + where(p.first) + ", outside the array (" +
             std::to_string(partSize) + " elements)";
        if (p.index >= 0 && p.index < size && trace.arrays[p.array < kArrayCount ? p.array : 0].parts.empty())
            s += ": a row or column index past its extent";
        break;
    }
    case ProblemKind::BarrierMismatch:
        if (p.returned) {
            s += std::to_string(p.threads) + (p.threads == 1 ? " thread returns" : " threads return") +
                 " without reaching the __syncthreads() at line " + std::to_string(p.first.line) + " that " +
                 who(p.first) + " reaches " + where(p.first) + "; " +
                 (p.second.valid()
                      ? who(p.second) + " returned after line " + std::to_string(p.second.line)
                      : std::string(p.threads == 1 ? "it" : "one of them") + " returned before any load or store");
        } else if (p.second.valid()) {
            s += who(p.first) + " waits at the __syncthreads() on line " + std::to_string(p.first.line) + " while " +
                 who(p.second) + " waits at the one on line " + std::to_string(p.second.line);
        } else {
            s += "threads skip the __syncthreads() at line " + std::to_string(p.first.line) + " that " +
                 who(p.first) + " reaches";
        }
        break;
    case ProblemKind::WrongResult: {
        const bool oneD = trace.dims() == 1;
        s += trace.arrays[kArrayOutput].name + "(" + std::to_string(p.x) + (oneD ? "" : "," + std::to_string(p.y)) +
             (p.channel > 0 ? ", channel " + std::to_string(p.channel) : "") + ") is " + number(p.got) +
             ", the reference " + number(p.expected);
        if (p.first.valid())
            s += " (written by " + who(p.first) + " at line " + std::to_string(p.first.line) + ")";
        else if (p.index >= 0)
            s += " (no thread wrote it)";
        break;
    }
    }
    return s;
}

namespace {

std::string problemCoords(const Trace& t, Dim3 d) {
    return "(" + std::to_string(d.x) + (t.dims() == 2 ? "," + std::to_string(d.y) : "") + ")";
}

}  // namespace

std::string problemLine(const Trace& t, const ProblemReport& p) {
    std::string s = problemKindName(p.kind);
    if (p.order != HazardOrder::None) s += std::string(" (") + hazardOrderName(p.order) + ")";
    s += ": ";
    const ProblemAccess& a = p.first;
    const ProblemAccess& b = p.second;
    auto block = [&](const ProblemAccess& x) { return problemCoords(t, t.blocks[x.block].block); };
    auto thread = [&](const ProblemAccess& x) { return problemCoords(t, t.threadCoords(x.thread)); };
    const std::string element = elementName(t, p.array, p.index);
    switch (p.kind) {
    case ProblemKind::WrongResult: {
        char values[96];
        std::snprintf(values, sizeof values, " = %.6g, reference %.6g", static_cast<double>(p.got), p.expected);
        s += t.arrays[kArrayOutput].name + "(" + std::to_string(p.x) +
             (t.dims() == 2 ? "," + std::to_string(p.y) : "") +
             (p.channel > 0 ? ", channel " + std::to_string(p.channel) : "") + ")" + values;
        if (a.valid())
            s += ", block " + block(a) + ", thread " + thread(a) + ", line " + std::to_string(a.line) + ", step " +
                 std::to_string(a.step);
        else if (p.index >= 0)
            s += ", never written";
        return s;
    }
    case ProblemKind::OutOfBounds: {
        // Through a 2D array, the subscripts as written and the one past its extent.
        const std::string what = p.subscripts.rows > 0
                                     ? subscriptedName(arrayName(t, p.array, p.part), p.subscripts) + ": " +
                                           subscriptPastItsExtent(p.subscripts)
                                     : outsideElement(t, p.array, p.index).first + " (" +
                                           std::to_string(outsideElement(t, p.array, p.index).second) + " elements)";
        return s + "block " + block(a) + ", thread " + thread(a) + ", " + (isStore(a.op) ? "store to " : "load of ") +
               what + ", line " + std::to_string(a.line) + ", step " + std::to_string(a.step);
    }
    case ProblemKind::UninitialisedRead:
        return s + "block " + block(a) + ", thread " + thread(a) + ", " + element + ", line " +
               std::to_string(a.line) + ", step " + std::to_string(a.step);
    case ProblemKind::BarrierMismatch:
        s += "block " + block(a) + ", thread " + thread(a) + " at the barrier of line " + std::to_string(a.line);
        if (p.returned) {
            const std::string returned =
                b.valid() ? "thread " + thread(b) + " returned after line " + std::to_string(b.line)
                          : std::string(p.threads == 1 ? "it" : "one of them") + " returned before any load or store";
            s += ", " + std::to_string(p.threads) +
                 (p.threads == 1 ? " thread never reaches" : " threads never reach") + " it (" + returned + ")";
        } else if (b.valid()) {
            s += ", thread " + thread(b) + " at the barrier of line " + std::to_string(b.line);
        }
        return s + ", step " + std::to_string(a.step);
    case ProblemKind::SharedRace:
    case ProblemKind::GlobalRace:
    case ProblemKind::DuplicateStore:
        break;
    }
    const bool oneBlock = a.block == b.block;
    s += oneBlock ? "block " + block(a) + ", threads " + thread(a) + " -> " + thread(b)
                  : "blocks " + block(a) + " -> " + block(b) + ", threads " + thread(a) + " -> " + thread(b);
    return s + ", " + element + ", lines " + std::to_string(a.line) + " -> " + std::to_string(b.line) + ", steps " +
           std::to_string(a.step) + " -> " + std::to_string(b.step);
}

}  // namespace tilescope
