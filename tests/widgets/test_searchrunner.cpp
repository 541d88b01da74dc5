// SearchRunner: a superseded job delivers nothing and the newer one delivers its result;
// Cancel stops the work (the worker sees the flag) and nothing is delivered; failures and
// progress reach the GUI thread.
#include "widgets/searchrunner.h"

#include <QSignalSpy>
#include <QTest>
#include <chrono>
#include <thread>
#include <vector>

using acsel::gui::SearchRunner;

namespace
{
// Runs until stopped or `steps` steps of 2 ms are done; returns `value` and records how it ended.
SearchRunner::Work slowJob(int value, int steps, std::shared_ptr<std::atomic<int>> ended)
{
    return [value, steps, ended](const SearchRunner::ProgressFn& progress,
                                 const std::atomic<bool>& stop) {
        for (int i = 0; i < steps; ++i) {
            if (stop.load()) {
                ended->store(-1);
                return std::any(-value);
            }
            progress(static_cast<double>(i) / steps);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ended->store(1);
        return std::any(value);
    };
}
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
    const int a = runner.start(slowJob(1, 5000, endedA));
    QTest::qWait(20);
    const int b = runner.start(slowJob(2, 10, endedB));
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
    QCOMPARE(std::any_cast<int>(finished.at(0).at(1).value<std::any>()), 2);
    QVERIFY(!runner.isRunning());
}

void TestSearchRunner::cancelStopsWork()
{
    SearchRunner runner;
    QSignalSpy finished(&runner, &SearchRunner::finished);
    QSignalSpy cancelled(&runner, &SearchRunner::cancelled);
    auto ended = std::make_shared<std::atomic<int>>(0);
    const int id = runner.start(slowJob(3, 5000, ended));
    QVERIFY(runner.isRunning());
    QTest::qWait(20);
    runner.cancel();
    QVERIFY(!runner.isRunning());
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), id);
    QTRY_COMPARE_WITH_TIMEOUT(ended->load(), -1, 5000);
    QTest::qWait(50);
    QCOMPARE(finished.count(), 0);
    runner.cancel(); // nothing running: no second report
    QCOMPARE(cancelled.count(), 1);
}

void TestSearchRunner::failureIsReported()
{
    SearchRunner runner;
    QSignalSpy failed(&runner, &SearchRunner::failed);
    runner.start([](const SearchRunner::ProgressFn&, const std::atomic<bool>&) -> std::any {
        throw std::runtime_error("no stack selected");
    });
    QVERIFY(!failed.isEmpty() || failed.wait(5000));
    QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("no stack selected"));
}

void TestSearchRunner::progressArrives()
{
    SearchRunner runner;
    QSignalSpy progress(&runner, &SearchRunner::progressChanged);
    QSignalSpy finished(&runner, &SearchRunner::finished);
    auto ended = std::make_shared<std::atomic<int>>(0);
    runner.start(slowJob(4, 100, ended));
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
    std::vector<int> seen; // partial values, then the final one negated
    connect(&runner, &SearchRunner::partialResult, this,
            [&seen](int, const std::any& v) { seen.push_back(std::any_cast<int>(v)); });
    connect(&runner, &SearchRunner::finished, this,
            [&seen](int, const std::any& v) { seen.push_back(-std::any_cast<int>(v)); });
    const int id =
        runner.start([](const SearchRunner::ProgressFn&, const SearchRunner::PublishFn& publish,
                        const std::atomic<bool>&) {
            for (int i = 1; i <= 3; ++i)
                publish(std::any(i));
            return std::any(4);
        });
    QVERIFY(id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(seen.size(), std::size_t{4}, 5000);
    QVERIFY(seen == std::vector<int>({1, 2, 3, -4}));
    QVERIFY(!runner.isRunning());
}

void TestSearchRunner::supersededJobPublishesNothing()
{
    // The first job publishes only after it has been superseded: nothing of it may arrive.
    SearchRunner runner;
    QSignalSpy partial(&runner, &SearchRunner::partialResult);
    QSignalSpy finished(&runner, &SearchRunner::finished);
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto published = std::make_shared<std::atomic<bool>>(false);
    runner.start([release, published](const SearchRunner::ProgressFn&,
                                      const SearchRunner::PublishFn& publish,
                                      const std::atomic<bool>&) {
        while (!release->load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        publish(std::any(1));
        published->store(true);
        return std::any(2);
    });
    const int b = runner.start(
        [](const SearchRunner::ProgressFn&, const std::atomic<bool>&) { return std::any(3); });
    release->store(true);
    QVERIFY(!finished.isEmpty() || finished.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(published->load(), 5000);
    QTest::qWait(50);
    QCOMPARE(partial.count(), 0);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), b);
}

QTEST_MAIN(TestSearchRunner)
#include "test_searchrunner.moc"
