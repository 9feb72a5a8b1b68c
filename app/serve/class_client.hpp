// The desktop app's HTTP client of a lab's server (docs/serve.md, The class,
// live): GET requests with the teacher's token, each on a thread of its
// own, for the Class panel's follower (model/live_class.hpp) and its
// fetches of a student's kernel. cpp-httplib, as the server is; the page
// uses the browser's fetch instead (app/web/main.cpp).
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace tilescope::serve {

class ClassHttpClient {
public:
    // `base`: "http://labpc:8000"; `prefix`: the path before the API ("/").
    ClassHttpClient(std::string base, std::string prefix, std::string token);
    // Stops the requests on their way (their answers are dropped) and waits for their threads.
    ~ClassHttpClient();
    ClassHttpClient(const ClassHttpClient&) = delete;
    ClassHttpClient& operator=(const ClassHttpClient&) = delete;

    // GETs `path` ("/api/class?after=41&wait=20") after `delaySeconds`;
    // `done` gets the HTTP status (0: no answer) and the body, on the request's thread.
    void get(const std::string& path, double delaySeconds, std::function<void(int, std::string)> done);

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
};

}  // namespace tilescope::serve
