#include "model/served_client.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "own/served_run.hpp"
#include "reference/reference.hpp"
#include "trace/problems.hpp"

namespace tilescope::ui {

namespace {

using Json = nlohmann::ordered_json;

// What the server calls every kernel file in its messages (app/serve/api.cpp).
constexpr std::string_view kServerName = "kernel.cu";
constexpr std::size_t kAnswersKept = 8;

std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// "kernel.cu:12:5: error: ..." in the student's file's name: "/persist/kernels/ex10.cu:12:5: error: ...".
std::string inFile(std::string message, const std::string& path) {
    for (std::size_t at = message.find(kServerName); at != std::string::npos;
         at = message.find(kServerName, at + path.size()))
        message.replace(at, kServerName.size(), path);
    return message;
}

// The message after "file:LINE:COL: " (or "file:LINE: "), as a compile's diagnostic holds it.
std::string afterPlace(const std::string& message, const std::string& path) {
    if (message.rfind(path + ":", 0) != 0)
        return message;
    std::size_t at = path.size() + 1;
    for (int field = 0; field < 2 && at < message.size() && std::isdigit(static_cast<unsigned char>(message[at]));
         ++field) {
        while (at < message.size() && std::isdigit(static_cast<unsigned char>(message[at])))
            ++at;
        if (at < message.size() && message[at] == ':')
            ++at;
    }
    while (at < message.size() && message[at] == ' ')
        ++at;
    return message.substr(at);
}

// The server's answer that is not a run: its words, for the student.
Error refusal(const ServedReply& reply, const std::string& path, const std::string& where, unsigned* line = nullptr,
              unsigned* column = nullptr) {
    if (reply.status == 0)
        return Error{ExitCode::BackendUnavailable,
                     where + " did not answer: is tilescope serve still running, and this computer online?"};
    const Json j = Json::parse(reply.body, nullptr, false);
    const std::string status = j.is_object() && j.contains("status") && j["status"].is_string()
                                   ? j["status"].get<std::string>()
                                   : std::string();
    auto text = [&](const char* key) {
        return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
    };
    if (reply.status == 401)
        return Error{ExitCode::BadInput, where + " refused the class token: open the link the teacher gave (it ends "
                                                 "in #token=...)"};
    if (status == "refused") {
        if (line && j.contains("line") && j["line"].is_number_unsigned())
            *line = j["line"].get<unsigned>();
        if (column && j.contains("column") && j["column"].is_number_unsigned())
            *column = j["column"].get<unsigned>();
        return badInput(inFile(text("reason"), path));
    }
    if (status == "backend")
        return Error{ExitCode::BackendUnavailable, text("reason")};
    const std::string error = text("error");
    return Error{reply.status >= 500 ? ExitCode::Internal : ExitCode::BadInput,
                 where + " answered " + std::to_string(reply.status) + (error.empty() ? "" : ": " + inFile(error, path))};
}

}  // namespace

ServedClient::ServedClient(ServedTransport transport, std::string where)
    : m_transport(std::move(transport)), m_where(std::move(where)) {}

void ServedClient::setOnAnswer(std::function<void()> callback) {
    std::lock_guard lock(m_mutex);
    m_onAnswer = std::move(callback);
}

std::uint64_t ServedClient::requestsSent() const {
    std::lock_guard lock(m_mutex);
    return m_sent;
}

std::shared_ptr<const ServedCompile> ServedClient::compile(const std::string& path, const std::string& text) {
    auto ticket = std::make_shared<ServedCompile>();
    std::weak_ptr<ServedClient> self = weak_from_this();
    {
        std::lock_guard lock(m_mutex);
        ++m_sent;
    }
    m_transport("/api/compile", Json{{"kernel", text}}.dump(), [ticket, self, path, text](ServedReply reply) {
        auto client = self.lock();
        const std::string where = client ? client->m_where : "the server";
        const Json j = reply.status == 200 ? Json::parse(reply.body, nullptr, false) : Json();
        if (j.is_object() && j.value("status", "") == "compiled" && j.contains("kernel")) {
            try {
                const Json& k = j.at("kernel");
                own::OwnEntryDescription d;
                d.name = k.at("name").get<std::string>();
                d.path = path;
                d.text = text;
                d.dims = k.at("dims").get<int>();
                d.maskSpace = k.at("mask_space").get<std::string>() == "constant" ? Space::Constant : Space::Global;
                d.usesShared = k.at("uses_shared").get<bool>();
                const Json& names = k.at("array_names");
                for (std::size_t i = 0; i < d.arrayNames.size() && i < names.size(); ++i)
                    d.arrayNames[i] = names[i].get<std::string>();
                if (d.dims != 1 && d.dims != 2)
                    throw std::runtime_error("a kernel of " + std::to_string(d.dims) + " dimensions");
                auto kernel = std::make_shared<own::OwnKernel>();
                kernel->translation.path = path;
                kernel->translation.text = text;
                kernel->translation.dims = d.dims;
                kernel->translation.barrierLines = j.at("barrier_lines").get<std::vector<unsigned>>();
                kernel->entry.emplace(std::move(d));
                kernel->info = &kernel->entry->info();
                kernel->remote = client;
                kernel->compileMs = j.value("compile_ms", 0.0);
                ticket->kernel = std::move(kernel);
            } catch (const std::exception& e) {
                ticket->error = Error{ExitCode::Internal, where + "'s answer is not understood: " + e.what()};
            }
        } else {
            ticket->error = refusal(reply, path, where, &ticket->line, &ticket->column);
            if (ticket->line > 0)
                ticket->diagnostic = afterPlace(ticket->error->message, path);
        }
        ticket->done.store(true, std::memory_order_release);
        if (client) {
            std::function<void()> wake;
            {
                std::lock_guard lock(client->m_mutex);
                wake = client->m_onAnswer;
            }
            if (wake)
                wake();
        }
    });
    return ticket;
}

std::string ServedClient::runBody(const own::OwnKernel& kernel, const RunRequest& request) {
    const Image& input = *request.input;
    const Mask& mask = *request.mask;
    Json j;
    j["kernel"] = kernel.translation.text;
    j["size"] = input.rank == 1 || kernel.translation.dims == 1
                    ? std::to_string(input.width)
                    : std::to_string(input.width) + "x" + std::to_string(input.height);
    j["channels"] = input.channels;
    j["input"] = input.data;
    if (kernel.translation.dims == 2) {
        Json rows = Json::array();
        for (int y = 0; y < mask.height; ++y)
            rows.push_back(std::vector<float>(mask.values.begin() + static_cast<std::ptrdiff_t>(y) * mask.width,
                                              mask.values.begin() + static_cast<std::ptrdiff_t>(y + 1) * mask.width));
        j["mask"] = rows;
    } else {
        j["mask"] = mask.values;
    }
    if (request.block > 0)
        j["block"] = request.block;
    // The page's own backend is the browser's CPU; the server's is its own:
    // its GPU where it has one (a GPU asked for by name stays asked for).
    j["backend"] = request.backend == Backend::Cuda ? "cuda" : "auto";
    if (request.drop.all)
        j["drop_barrier"] = "all";
    else if (!request.drop.lines.empty())
        j["drop_barrier"] = request.drop.lines;
    // The order of warps is the CPU executor's: named only when it matters
    // (a GPU chooses its own, and the server then runs the CPU).
    if (request.drop.any() || request.schedule != Schedule::InOrder)
        j["schedule"] = scheduleName(request.schedule);
    j["seed"] = request.seed;
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool ServedClient::ready(const own::OwnKernel& kernel, const RunRequest& request) {
    if (!request.input || !request.mask)
        return true;  // run() says what is missing
    std::string body = runBody(kernel, request);
    const std::uint64_t key = fnv1a(body);
    {
        std::lock_guard lock(m_mutex);
        if (m_answers.count(key))
            return true;
        if (m_inFlight.count(key))
            return false;
        m_inFlight.insert(key);
        ++m_sent;
    }
    std::weak_ptr<ServedClient> self = weak_from_this();
    m_transport("/api/run", body, [self, key](ServedReply reply) {
        if (auto client = self.lock())
            client->answered(key, std::move(reply));
    });
    std::lock_guard lock(m_mutex);
    return m_answers.count(key) > 0;  // a transport that answered at once
}

void ServedClient::answered(std::uint64_t key, ServedReply reply) {
    std::function<void()> wake;
    {
        std::lock_guard lock(m_mutex);
        m_inFlight.erase(key);
        m_answers[key] = std::move(reply);
        m_order.push_back(key);
        while (m_order.size() > kAnswersKept) {
            m_answers.erase(m_order.front());
            m_order.erase(m_order.begin());
        }
        wake = m_onAnswer;
    }
    if (wake)
        wake();
}

Result<RunResult> ServedClient::run(const own::OwnKernel& kernel, const RunRequest& request) {
    if (!request.input || !request.mask)
        return Error{ExitCode::Internal, "a served run without an input or a mask"};
    const std::uint64_t key = fnv1a(runBody(kernel, request));
    ServedReply reply;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_answers.find(key);
        if (it == m_answers.end())
            return Error{ExitCode::Internal, "the served run was asked for before its answer came"};
        reply = it->second;
        // Anything but a run is asked again next time (the server was busy,
        // the token was wrong, a refusal the student may have fixed).
        if (reply.status != 200 || reply.body.rfind("TSRUN", 0) != 0) {
            m_answers.erase(it);
            m_order.erase(std::find(m_order.begin(), m_order.end(), key));
        }
    }
    const std::string& path = kernel.translation.path;
    if (reply.status != 200 || reply.body.rfind("TSRUN", 0) != 0)
        return refusal(reply, path, m_where);
    auto served = own::decodeServedRun(reply.body, kernel.info);
    if (!served)
        return Error{ExitCode::Internal, m_where + "'s run is not understood: " + served.error().message};
    RunResult result = std::move(served->result);
    result.backendReason += (result.backendReason.empty() ? "" : "; ") + std::string("served by ") + m_where;
    if (request.printout) {
        request.printout->lines = served->printout;
        request.printout->note = "printed on " + m_where;
    }
    // As a run here: the blocks asked for (and block 0, which every traced
    // run of a kernel file holds), or no trace at all when none was asked.
    if (!request.trace && !request.check) {
        result.trace.reset();
    } else if (!request.check && !request.traceBlocks.empty()) {
        std::vector<BlockEvents> kept;
        for (BlockEvents& b : result.trace->blocks) {
            bool wanted = sameBlock(Dim3{0, 0, 0}, b.block, result.plan.grid);
            for (const Dim3& want : request.traceBlocks)
                wanted = wanted || sameBlock(want, b.block, result.plan.grid);
            if (wanted)
                kept.push_back(std::move(b));
        }
        result.trace->blocks = std::move(kept);
    }
    if (request.check && result.trace) {
        const std::vector<double> want = reference::convolve(*request.input, *request.mask);
        const ResultCheck results{&result.output, want, reference::float32Tolerance(*request.input, *request.mask)};
        result.problems = detectProblems(*result.trace, &results);
    }
    return result;
}

}  // namespace tilescope::ui
