// SearchRunner: a superseded job delivers nothing and the newer one delivers its result;
// Cancel stops the work (the worker sees the flag) and nothing is delivered; failures and
// progress reach the GUI thread; typed results reach their handlers in order.
#include "testmain.h"
#include "viewmodel/searchrunner.h"

#include <QSignalSpy>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using acsel::gui::SearchRunner;

namespace
{
// Runs until stopped or `steps` steps of 2 ms are done; returns `value` and records how it ended.
SearchRunner::Work<int> slowJob(int value, int steps, std::shared_ptr<std::atomic<int>> ended)
{
    return [value, steps, ended](const SearchRunner::ProgressFn& progress,
                                 const std::atomic<bool>& stop) {
        for (int i = 0; i < steps; ++i) {
            if (stop.load()) {
                ended->store(-1);
                return -value;
            }
            progress(static_cast<double>(i) / steps);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ended->store(1);
        return value;
    };
}

// Records each delivered value with its job id.
struct Delivered {
    std::vector<std::pair<int, int>> values;
    SearchRunner::Handler<int> handler()
    {
        return [this](int job, const int& v) { values.emplace_back(job, v); };
    }
};
} // namespace

class TestSearchRunner : public QObject
{
    Q_OBJECT
private slots:
    void supersededDeliversOnlyNewer();
    void cancelStopsWork();
    void failureIsReported();
    void progressArrives();
    void partialResultsArriveInOrderBeforeTheResult();
    void supersededJobPublishesNothing();
};

void TestSearchRunner::supersededDeliversOnlyNewer()
{
    SearchRunner runner;
    QSignalSpy finished(&runner, &SearchRunner::finished);
    QSignalSpy cancelled(&runner, &SearchRunner::cancelled);
    auto endedA = std::make_shared<std::atomic<int>>(0);
    auto endedB = std::make_shared<std::atomic<int>>(0);
    Delivered delivered;
    const int a = runner.start(slowJob(1, 5000, endedA), delivered.handler());
    QTest::qWait(20);
    const int b = runner.start(slowJob(2, 10, endedB), delivered.handler());
    QVERIFY(b > a);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), a);
    // A job can finish inside start() (its continuation then runs at once): the signal may
    // already be in the spy, and QSignalSpy::wait only waits for a new one.
    QVERIFY(!finished.isEmpty() || finished.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(endedA->load(), -1, 5000); // the old worker saw the stop flag
    QTest::qWait(50);                                    // its late result must not arrive
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), b);
    QVERIFY((delivered.values == std::vector<std::pair<int, int>>{{b, 2}}));
    QVERIFY(!runner.isRunning());
}

void TestSearchRunner::cancelStopsWork()
{
    SearchRunner runner;
    QSignalSpy finished(&runner, &SearchRunner::finished);
    QSignalSpy cancelled(&runner, &SearchRunner::cancelled);
    auto ended = std::make_shared<std::atomic<int>>(0);
    Delivered delivered;
    const int id = runner.start(slowJob(3, 5000, ended), delivered.handler());
    QVERIFY(runner.isRunning());
    QTest::qWait(20);
    runner.cancel();
    QVERIFY(!runner.isRunning());
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), id);
    QTRY_COMPARE_WITH_TIMEOUT(ended->load(), -1, 5000);
    QTest::qWait(50);
    QCOMPARE(finished.count(), 0);
    QVERIFY(delivered.values.empty());
    runner.cancel(); // nothing running: no second report
    QCOMPARE(cancelled.count(), 1);
}

void TestSearchRunner::failureIsReported()
{
    SearchRunner runner;
    QSignalSpy failed(&runner, &SearchRunner::failed);
    QSignalSpy finished(&runner, &SearchRunner::finished);
    Delivered delivered;
    runner.start<int>(
        [](const SearchRunner::ProgressFn&, const std::atomic<bool>&) -> int {
            throw std::runtime_error("no stack selected");
        },
        delivered.handler());
    QVERIFY(!failed.isEmpty() || failed.wait(5000));
    QCOMPARE(finished.count(), 0);
    QVERIFY(delivered.values.empty());
    QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("no stack selected"));
}

void TestSearchRunner::progressArrives()
{
    SearchRunner runner;
    QSignalSpy progress(&runner, &SearchRunner::progressChanged);
    QSignalSpy finished(&runner, &SearchRunner::finished);
    auto ended = std::make_shared<std::atomic<int>>(0);
    runner.start(slowJob(4, 100, ended), SearchRunner::Handler<int>{});
    QVERIFY(!finished.isEmpty() || finished.wait(5000));
    QVERIFY(progress.count() >= 1);
    for (const QList<QVariant>& args : progress) {
        QVERIFY(args.at(1).toDouble() >= 0.0);
        QVERIFY(args.at(1).toDouble() <= 1.0);
    }
}

void TestSearchRunner::partialResultsArriveInOrderBeforeTheResult()
{
    SearchRunner runner;
    // A non-trivial Result: values are moved through the channel, not shared.
    std::vector<std::string> seen; // partial values, then the final one marked
    bool finishedAfterResult = false;
    connect(&runner, &SearchRunner::finished, this,
            [&] { finishedAfterResult = !seen.empty() && seen.back() == "result 4"; });
    const int id = runner.start<std::string>(
        [](const SearchRunner::ProgressFn&, const SearchRunner::PublishFn<std::string>& publish,
           const std::atomic<bool>&) {
            for (int i = 1; i <= 3; ++i)
                publish("partial " + std::to_string(i));
            return std::string("4");
        },
        [&seen](int, const std::string& v) { seen.push_back("result " + v); },
        [&seen](int, const std::string& v) { seen.push_back(v); });
    QVERIFY(id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(seen.size(), std::size_t{4}, 5000);
    QVERIFY((seen == std::vector<std::string>{"partial 1", "partial 2", "partial 3", "result 4"}));
    QVERIFY(finishedAfterResult);
    QVERIFY(!runner.isRunning());
}

void TestSearchRunner::supersededJobPublishesNothing()
{
    // The first job publishes only after it has been superseded: nothing of it may arrive.
    SearchRunner runner;
    QSignalSpy finished(&runner, &SearchRunner::finished);
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto published = std::make_shared<std::atomic<bool>>(false);
    Delivered partial, results;
    runner.start<int>(
        [release, published](const SearchRunner::ProgressFn&,
                             const SearchRunner::PublishFn<int>& publish,
                             const std::atomic<bool>&) {
            while (!release->load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            publish(1);
            published->store(true);
            return 2;
        },
        results.handler(), partial.handler());
    const int b = runner.start<int>(
        [](const SearchRunner::ProgressFn&, const std::atomic<bool>&) { return 3; },
        results.handler());
    release->store(true);
    QVERIFY(!finished.isEmpty() || finished.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(published->load(), 5000);
    QTest::qWait(50);
    QVERIFY(partial.values.empty());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), b);
    QVERIFY((results.values == std::vector<std::pair<int, int>>{{b, 3}}));
}

ACSEL_TEST_MAIN(TestSearchRunner)
#include "test_searchrunner.moc"
