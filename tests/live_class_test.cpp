// The class now as the Class panel reads it from a lab's server
// (model/live_class.hpp), without a window: GET /api/class's answer read,
// the students' states counted, the problems grouped across students by
// kind and lines with their sentence, the teacher's link read, and the
// follower's long poll against a transport that answers in the test.
#include <gtest/gtest.h>

#include <deque>
#include <nlohmann/json.hpp>
#include <string>

#include "model/live_class.hpp"

namespace tilescope::ui {
namespace {

using nlohmann::json;

json record(long long id, const std::string& student, const std::string& verdict, json problems) {
    return {{"id", id},
            {"student", student},
            {"at", "2026-11-30T10:15:0" + std::to_string(id % 10) + ".000Z"},
            {"kind", "run"},
            {"kernel_hash", "ab"},
            {"verdict", verdict},
            {"problems", problems},
            {"request", {{"job", "run"}, {"size", "45x37"}, {"radius", 2}, {"seed", 7}}},
            {"backend", "cpu"},
            {"ms", 800.0},
            {"kernel_ms", 3.0}};
}

json race(unsigned first, unsigned second) {
    return json::array({{{"kind", "shared_race"},
                         {"order", "read after write"},
                         {"array", "N_ds"},
                         {"first_line", first},
                         {"second_line", second},
                         {"count", 96}}});
}

std::string classJson() {
    json students = json::array();
    students.push_back({{"id", "s01"}, {"name", "Ada"}, {"checks", 3}, {"last", record(7, "s01", "clean", json::array())}});
    students.push_back({{"id", "s02"}, {"name", "Bo"}, {"checks", 2}, {"last", record(8, "s02", "problems", race(34, 46))}});
    students.push_back({{"id", "s03"}, {"name", "Cy"}, {"checks", 1}, {"last", record(9, "s03", "problems", race(34, 46))}});
    students.push_back({{"id", "s04"},
                        {"name", "Di"},
                        {"checks", 1},
                        {"last", record(5, "s04", "refused",
                                        json::array({{{"kind", "refused"}, {"line", 21}, {"column", 5},
                                                      {"reason", "kernel.cu:21:5: error: expected ';'"}}}))}});
    students.push_back({{"id", "s05"}, {"name", "Ed"}, {"checks", 0}, {"last", nullptr}});
    return json{{"students", students}, {"checks", 7}, {"last_check", 9}, {"now", "2026-11-30T10:16:00.000Z"}}.dump();
}

TEST(LiveClass, ReadsTheClassAndCountsWhereEachStudentStands) {
    auto live = parseLiveClass(classJson());
    ASSERT_TRUE(live) << live.error().message;
    ASSERT_EQ(live->students.size(), 5u);
    EXPECT_EQ(live->lastCheck, 9);
    EXPECT_EQ(live->students[0].state, LiveState::Right);
    EXPECT_EQ(live->students[1].state, LiveState::Stuck);
    EXPECT_EQ(live->students[3].state, LiveState::Refused);
    EXPECT_EQ(live->students[4].state, LiveState::NotYet);
    EXPECT_EQ(live->students[4].number, 5);
    EXPECT_EQ(live->students[1].size, "45x37");
    EXPECT_EQ(live->students[1].radius, 2);
    EXPECT_NEAR(live->students[0].agoSeconds, 53.0, 1e-6);  // 10:15:07 to 10:16:00
    const LiveSummary s = summarize(*live);
    EXPECT_EQ(summarySentence(s), "1 of 5 right, 2 stuck, 1 does not compile or run, 1 nothing yet");
}

TEST(LiveClass, GroupsProblemsAcrossStudentsByKindAndLines) {
    auto live = parseLiveClass(classJson());
    ASSERT_TRUE(live);
    const std::vector<LivePattern> patterns = livePatterns(*live);
    ASSERT_EQ(patterns.size(), 2u);
    EXPECT_EQ(patterns[0].sentence, "2 of 5: a shared race on N_ds between line 34 and line 46 (read after write)");
    EXPECT_EQ(patterns[0].students, (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(patterns[1].sentence, "1 of 5: does not compile or run, at line 21");
    EXPECT_EQ(liveRows(*live, patterns[0].key), (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(liveRows(*live, std::nullopt).size(), 5u);
    EXPECT_EQ(liveVerdictText(live->students[1]), "shared race, lines 34 \xE2\x86\x92 46");
    EXPECT_EQ(liveVerdictText(live->students[3]), "does not compile or run: line 21");
    EXPECT_EQ(liveStudentLabel(live->students[1], false), "student 2");
    EXPECT_EQ(liveStudentLabel(live->students[1], true), "Bo");
}

TEST(LiveClass, BadAnswersAndLinksAreOneMessage) {
    EXPECT_FALSE(parseLiveClass("not json"));
    EXPECT_FALSE(parseLiveClass("{\"students\": [{\"name\": \"x\"}]}"));
    auto link = parseClassLink("http://labpc:8000/#token=abc123");
    ASSERT_TRUE(link) << link.error().message;
    EXPECT_EQ(link->base, "http://labpc:8000");
    EXPECT_EQ(link->prefix, "/");
    EXPECT_EQ(link->token, "abc123");
    auto prefixed = parseClassLink("https://lab.example.edu/lab3#token=t");
    ASSERT_TRUE(prefixed);
    EXPECT_EQ(prefixed->prefix, "/lab3/");
    EXPECT_FALSE(parseClassLink("http://labpc:8000/"));        // no token
    EXPECT_FALSE(parseClassLink("labpc:8000/#token=abc123"));  // no scheme
    EXPECT_EQ(agoText(3), "just now");
    EXPECT_EQ(agoText(42), "42 s ago");
    EXPECT_EQ(agoText(200), "3 min ago");
}

// The follower asks at once, then each time after the newest check it was
// given; a student's link (403) stops it; a server gone is tried again.
TEST(LiveClass, FollowerLongPollsAfterTheNewestCheck) {
    struct Asked {
        std::string path;
        double delay;
        std::function<void(ServedReply)> done;
    };
    std::deque<Asked> asked;
    auto follower = std::make_shared<ClassFollower>(
        [&](const std::string& path, double delay, std::function<void(ServedReply)> done) {
            asked.push_back({path, delay, std::move(done)});
        },
        "labpc:8000");
    int changes = 0;
    follower->setOnChange([&] { ++changes; });
    follower->start();
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].path, "/api/class");
    EXPECT_TRUE(follower->waiting());
    auto first = std::move(asked.front());
    asked.pop_front();
    first.done({200, classJson()});
    EXPECT_FALSE(follower->waiting());
    ASSERT_TRUE(follower->snapshot());
    EXPECT_EQ(follower->snapshot()->lastCheck, 9);
    EXPECT_EQ(changes, 1);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].path, "/api/class?after=9&wait=20");
    EXPECT_EQ(asked[0].delay, 0.0);
    // Nothing new: a second before asking again.
    auto second = std::move(asked.front());
    asked.pop_front();
    second.done({200, classJson()});
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].delay, 1.0);
    // The server gone: tried again after two seconds, and said.
    auto third = std::move(asked.front());
    asked.pop_front();
    third.done({0, ""});
    EXPECT_NE(follower->problem().find("does not answer"), std::string::npos);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].delay, 2.0);
    // A student's link: no more requests.
    auto fourth = std::move(asked.front());
    asked.pop_front();
    fourth.done({403, R"({"status": "forbidden", "error": "this is a student's link"})"});
    EXPECT_FALSE(follower->following());
    EXPECT_TRUE(asked.empty());

    // A check fetched for a click.
    follower->fetchCheck(8);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].path, "/api/checks/8");
    json check = record(8, "s02", "problems", race(34, 46));
    check["kernel"] = "__global__ void k() {}";
    asked[0].done({200, check.dump()});
    auto fetched = follower->takeFetched();
    ASSERT_TRUE(fetched && *fetched);
    EXPECT_EQ((*fetched)->kernel, "__global__ void k() {}");
    EXPECT_EQ((*fetched)->problems.size(), 1u);
    EXPECT_FALSE(follower->takeFetched());
}

}  // namespace
}  // namespace tilescope::ui
