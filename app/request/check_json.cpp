#include "request/check_json.hpp"

#include "core/kernel_catalogue.hpp"
#include "trace/problems.hpp"
#include "trace/trace_io.hpp"

namespace tilescope::request {

namespace {

Json accessJson(const Trace& t, const ProblemAccess& a) {
    if (!a.valid())
        return nullptr;
    const Dim3 block = t.blocks[a.block].block;
    const Dim3 thread = t.threadCoords(a.thread);
    return Json{{"block", {block.x, block.y}},
                {"thread", {thread.x, thread.y}},
                {"line", a.line},
                {"step", a.step},
                {"store", isStore(a.op)}};
}

}  // namespace

std::string droppedBarriersText(const Loaded& loaded, const RunResult& result) {
    std::string drop;
    if (loaded.request.drop.all) {
        drop = "every __syncthreads() dropped";
    } else if (!loaded.request.drop.lines.empty()) {
        for (unsigned line : loaded.request.drop.lines)
            drop += (drop.empty() ? "" : ",") + std::to_string(line);
        drop = "__syncthreads() dropped at line " + drop;
    }
    if (!drop.empty() && result.backend == Backend::Cpu)
        drop += std::string(", warps ") + scheduleName(loaded.request.schedule);
    return drop;
}

Json checkJson(const Loaded& loaded, const RunResult& result) {
    const Trace& t = *result.trace;
    const ProblemSet& problems = *result.problems;
    Json j = launchJson(result);
    j["dropped_barriers"] = droppedBarriersText(loaded, result);
    j["mask"] = loaded.maskText;
    Json counts = Json::object();
    for (int k = 0; k < kProblemKindCount; ++k)
        counts[problemKindKey(static_cast<ProblemKind>(k))] = problems.counts[static_cast<std::size_t>(k)];
    j["counts"] = counts;
    j["total"] = problems.total();
    j["largest_error"] = problems.largestError;
    Json groups = Json::array();
    for (const ProblemGroup& g : problems.groups)
        groups.push_back({{"kind", problemKindKey(g.kind)},
                          {"order", hazardOrderName(g.order)},
                          {"array", g.array < kArrayCount ? Json(groupArrayName(t, g)) : Json(nullptr)},
                          {"first_line", g.firstLine},
                          {"second_line", g.secondLine},
                          {"count", g.count}});
    j["groups"] = std::move(groups);
    Json items = Json::array();
    for (const ProblemReport& p : problems.items) {
        Json item{{"kind", problemKindKey(p.kind)},
                  {"order", hazardOrderName(p.order)},
                  {"array", p.array < kArrayCount ? Json(arrayName(t, p.array, p.part)) : Json(nullptr)},
                  {"space", p.array < kArrayCount ? Json(spaceName(t.arrays[p.array].space)) : Json(nullptr)},
                  {"index", p.index},
                  {"element", p.array < kArrayCount ? Json(elementName(t, p.array, p.index)) : Json(nullptr)},
                  {"first", accessJson(t, p.first)},
                  {"second", accessJson(t, p.second)},
                  {"text", describeProblem(t, p)}};
        if (p.kind == ProblemKind::WrongResult)
            item["output"] = {{"x", p.x}, {"y", p.y}, {"channel", p.channel}, {"got", p.got}, {"expected", p.expected}};
        if (p.kind == ProblemKind::BarrierMismatch) {
            item["threads"] = p.threads;
            item["returned"] = p.returned;  // they returned before the barrier, rather than wait at another
        }
        if (p.subscripts.rows > 0) {
            item["element"] = subscriptedName(arrayName(t, p.array, p.part), p.subscripts);
            item["subscripts"] = {{"row", p.subscripts.row},
                                  {"column", p.subscripts.col},
                                  {"rows", p.subscripts.rows},
                                  {"columns", p.subscripts.cols}};
        }
        items.push_back(std::move(item));
    }
    j["problems"] = std::move(items);
    return j;
}

}  // namespace tilescope::request
