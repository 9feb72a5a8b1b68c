#include "serve/class_client.hpp"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <list>
#include <mutex>
#include <thread>

namespace tilescope::serve {

struct ClassHttpClient::Shared {
    std::string base, prefix, token;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::list<httplib::Client*> clients;  // the requests on their way, to stop them
    std::list<std::thread> threads;
    std::list<std::thread::id> finished;  // threads done, joined at the next request
};

ClassHttpClient::ClassHttpClient(std::string base, std::string prefix, std::string token)
    : m_shared(std::make_shared<Shared>()) {
    m_shared->base = std::move(base);
    m_shared->prefix = std::move(prefix);
    m_shared->token = std::move(token);
}

ClassHttpClient::~ClassHttpClient() {
    std::list<std::thread> threads;
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->stopping = true;
        for (httplib::Client* c : m_shared->clients)
            c->stop();
        threads = std::move(m_shared->threads);
    }
    m_shared->wake.notify_all();
    for (std::thread& t : threads)
        if (t.joinable())
            t.join();
}

void ClassHttpClient::get(const std::string& path, double delaySeconds, std::function<void(int, std::string)> done) {
    std::lock_guard lock(m_shared->mutex);
    if (m_shared->stopping)
        return;
    // Threads that finished are joined here (a request or two a second at most).
    for (auto it = m_shared->threads.begin(); it != m_shared->threads.end();) {
        const auto f = std::find(m_shared->finished.begin(), m_shared->finished.end(), it->get_id());
        if (f != m_shared->finished.end()) {
            it->join();
            m_shared->finished.erase(f);
            it = m_shared->threads.erase(it);
        } else {
            ++it;
        }
    }
    std::shared_ptr<Shared> shared = m_shared;
    // The API's path under the link's prefix ("/lab3/api/class").
    const std::string full = shared->prefix + (path.empty() || path.front() != '/' ? path : path.substr(1));
    m_shared->threads.emplace_back([shared, full, delaySeconds, done = std::move(done)] {
        int status = 0;
        std::string body;
        {
            std::unique_lock lock(shared->mutex);
            shared->wake.wait_for(lock, std::chrono::duration<double>(delaySeconds), [&] { return shared->stopping; });
        }
        httplib::Client client(shared->base);
        client.set_connection_timeout(5);
        client.set_read_timeout(40);  // a long poll is held 25 s at most
        client.set_write_timeout(5);
        bool go = false;
        {
            std::lock_guard lock(shared->mutex);
            go = !shared->stopping;
            if (go)
                shared->clients.push_back(&client);
        }
        if (go) {
            const httplib::Headers headers{{"Authorization", "Bearer " + shared->token}};
            if (auto res = client.Get(full, headers)) {
                status = res->status;
                body = std::move(res->body);
            }
        }
        bool stopping = false;
        {
            std::lock_guard lock(shared->mutex);
            shared->clients.remove(&client);
            stopping = shared->stopping;
        }
        if (go && !stopping)
            done(status, std::move(body));
        std::lock_guard lock(shared->mutex);
        shared->finished.push_back(std::this_thread::get_id());
    });
}

}  // namespace tilescope::serve
