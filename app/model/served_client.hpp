// The page's side of `tilescope serve` (docs/serve.md): a student's kernel
// file compiled and run on the teacher's machine. The Editor's Ctrl+S sends
// the text to /api/compile; each run the Runner asks of the compiled kernel
// goes to /api/run with the set-up's input, mask, block and barriers, and
// comes back as the run's result (own/served_run.hpp), which the Runner
// checks against its reference and whose trace the step-through shows, as a
// run on this machine.
//
// How a request travels is the transport's business (the page: the
// browser's fetch, app/web/main.cpp; a test: a function that answers). An
// answer may come at any later time, on any thread: the client keeps it
// until the run asks again (RemoteRuns::ready, then run).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "own/own_kernel.hpp"

namespace tilescope::ui {

struct ServedReply {
    int status = 0;  // HTTP status; 0: no answer (the server is gone, the network failed)
    std::string body;
};

// Sends `body` (JSON) to the server's `path` ("/api/run") with the token,
// and calls `done` once with the reply, now or later.
using ServedTransport =
    std::function<void(const std::string& path, const std::string& body, std::function<void(ServedReply)> done)>;

struct ServedCompile {
    std::atomic<bool> done{false};  // the fields below are set before it
    std::shared_ptr<const own::OwnKernel> kernel;  // compiled
    std::optional<Error> error;                    // or refused: the message names the file's line
    unsigned line = 0, column = 0;
    std::string diagnostic;  // the error without the file and line
};

class ServedClient : public own::RemoteRuns, public std::enable_shared_from_this<ServedClient> {
public:
    // `where`: how the page names the server in its messages ("this page's server").
    explicit ServedClient(ServedTransport transport, std::string where = "the server");

    // Sends the text to /api/compile. The ticket is done when the answer
    // has come: a kernel whose runs are this client's, or the refusal.
    std::shared_ptr<const ServedCompile> compile(const std::string& path, const std::string& text);

    bool ready(const own::OwnKernel& kernel, const RunRequest& request) override;
    Result<RunResult> run(const own::OwnKernel& kernel, const RunRequest& request) override;

    // Called (on whichever thread the answer came) when an answer arrives.
    void setOnAnswer(std::function<void()> callback);
    // Requests sent, answers taken in (for the page's tests and its status line).
    std::uint64_t requestsSent() const;

    // The JSON body of the run `request` of `kernel` (public for the tests).
    static std::string runBody(const own::OwnKernel& kernel, const RunRequest& request);

private:
    void answered(std::uint64_t key, ServedReply reply);

    ServedTransport m_transport;
    std::string m_where;
    mutable std::mutex m_mutex;
    std::map<std::uint64_t, ServedReply> m_answers;  // by the request's hash; the newest few
    std::set<std::uint64_t> m_inFlight;
    std::vector<std::uint64_t> m_order;  // answers, oldest first
    std::function<void()> m_onAnswer;
    std::uint64_t m_sent = 0;
};

}  // namespace tilescope::ui
